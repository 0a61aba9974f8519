// The C API from C++: the `mlp` model linked in (mlxc --emit=lib) and the
// `scores` model loaded at run time (mlxc --emit=shared), each called twice
// on the CPU, with the handles owned by unique_ptrs. Prints what
// check_two_models.py compares with MLX. Usage: two_models_cpp DIR.
#include "mlp.h"
#include "runtime/mlxrt_api.h"

#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct Deleter {
  void operator()(mlxrt_instance *p) const { mlxrt_instance_destroy(p); }
  void operator()(mlxrt_model *p) const { mlxrt_model_close(p); }
  void operator()(mlxrt_array *p) const { mlxrt_array_release(p); }
};
template <typename T> using Handle = std::unique_ptr<T, Deleter>;

void check(mlxrt_status status, const mlxrt_error &err) {
  if (status != MLXRT_OK)
    throw std::runtime_error(std::string(mlxrt_status_name(status)) + ": " +
                             err.message);
}

std::vector<float> read(mlxrt_array *a) {
  std::vector<float> v(mlxrt_array_type(a)->nbytes / sizeof(float));
  mlxrt_error err;
  check(mlxrt_array_read(a, v.data(), v.size() * sizeof(float), &err), err);
  return v;
}

void print(const char *label, const std::vector<float> &v) {
  std::printf("%s", label);
  for (float x : v)
    std::printf(" %.7g", x);
  std::printf("\n");
}

} // namespace

int main(int argc, char **argv) try {
  if (argc != 2)
    return 2;
  std::string dir = argv[1];
  mlxrt_error err;
  mlxrt_instance_options opts;
  mlxrt_instance_options_init(&opts);
  opts.device = "cpu";
  mlxrt_instance *raw;
  check(mlxrt_instance_create(&opts, &raw, &err), err);
  Handle<mlxrt_instance> inst(raw);

  mlxrt_model *m;
  check(mlxrt_model_open(inst.get(), &mlxc_mlp_model, &m, &err), err);
  Handle<mlxrt_model> mlp(m);
  check(mlxrt_model_load(inst.get(), (dir + "/libscores.so").c_str(), &m, &err),
        err);
  Handle<mlxrt_model> scores(m);
  std::printf("models %s %s\n", mlxrt_model_name(mlp.get()),
              mlxrt_model_name(scores.get()));

  std::vector<float> x(8 * 64);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = float(i % 7) * 0.1f;
  int64_t dims[2] = {8, 64};
  mlxrt_array *in[5] = {};
  check(mlxrt_array_create(inst.get(), MLXRT_DTYPE_FLOAT32, 2, dims, x.data(),
                           x.size() * sizeof(float), &in[0], &err),
        err);
  size_t bound = 0;
  check(mlxrt_model_bind_file(mlp.get(), (dir + "/weights.safetensors").c_str(),
                              in, 5, &bound, &err),
        err);
  std::vector<Handle<mlxrt_array>> inputs;
  for (mlxrt_array *a : in)
    inputs.emplace_back(a);
  std::printf("bound %zu\n", bound);
  for (int call = 0; call < 2; ++call) {
    mlxrt_array *out = nullptr;
    check(mlxrt_model_call(mlp.get(), in, 5, &out, 1, &err), err);
    Handle<mlxrt_array> y(out);
    print("mlp", read(y.get()));
  }

  mlxrt_array *qk[2];
  check(mlxrt_array_load(inst.get(), (dir + "/q.npy").c_str(), &qk[0], &err),
        err);
  Handle<mlxrt_array> q(qk[0]);
  check(mlxrt_array_load(inst.get(), (dir + "/kv.npz:k").c_str(), &qk[1], &err),
        err);
  Handle<mlxrt_array> k(qk[1]);
  for (int call = 0; call < 2; ++call) {
    mlxrt_array *out = nullptr;
    check(mlxrt_model_call(scores.get(), qk, 2, &out, 1, &err), err);
    Handle<mlxrt_array> p(out);
    print("scores", read(p.get()));
  }
  return 0;
} catch (const std::exception &e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}
