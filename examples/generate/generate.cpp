//===- generate.cpp - Greedy generation from a compiled mlx-lm model ------===//
//
// Loads the prefill and decode steps that `python -m mlxc.lm export` wrote
// into OUT (libprefill.so, libdecode.so, weights.txt) through the runtime's
// C API, binds the weights from the .safetensors files once (both steps
// share the arrays), and generates N tokens greedily from the prompt's
// token ids. The token, the offset and the KV cache stay in the runtime (on
// the GPU when there is one): each call donates them, so they are updated
// in place; only the new token (4 bytes) is read back. Prints the token ids.
// --time also prints, on stderr, the decode steps' time through the API
// against the programs' own time (the runtime's trace: CUDA events around
// each program on the GPU).
//
//   generate OUT --prompt 1,2,3 [-n 16] [--device auto|cpu|cuda:N]
//            [--memory auto|copy] [--time]
//   (MLXRT_LIBCUBLASLT: the cuBLASLt library, as for mlxc's executables)
//
// The steps' interface is in python/mlxc/lm.py: inputs tokens, offset, last
// (prefill), the caches and the weights, by name; outputs out0 the next
// token, out1 the next offset, out2 log-probabilities, out{3+K} the cache
// on line K of OUT/caches.txt (attention keys and values, recurrent
// states).
//
//===----------------------------------------------------------------------===//

#include <mlxrt/mlxrt_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
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

struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void check(mlxrt_status status, const mlxrt_error &err) {
  if (status != MLXRT_OK)
    throw Error(err.message);
}

constexpr int kStateOutputs = 3; // out0 token, out1 offset, out2 logprobs.

/// The programs' own time, from the runtime's trace (--time).
struct ProgramTime {
  double ms = 0;
  long runs = 0;
};

void onTrace(void *user, const mlxrt_trace_event *e) {
  if (e->kind != MLXRT_TRACE_PROGRAM)
    return;
  auto *t = static_cast<ProgramTime *>(user);
  t->ms += e->ms;
  ++t->runs;
}

double nowMs() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch())
      .count();
}

/// A compiled step and its input slots, by name.
struct Step {
  Handle<mlxrt_model> model;
  std::vector<Handle<mlxrt_array>> inputs; // Owned: bound or set by us.
  std::map<std::string, size_t> index;
  std::vector<mlxrt_array *> outputs;

  Step(mlxrt_instance *inst, const std::string &path) {
    mlxrt_model *m;
    mlxrt_error err;
    check(mlxrt_model_load(inst, path.c_str(), &m, &err), err);
    model.reset(m);
    const mlxrt_signature *sig = mlxrt_model_signature(m);
    inputs.resize(sig->num_inputs);
    for (size_t k = 0; k < sig->num_inputs; ++k)
      index[sig->inputs[k].name] = k;
    outputs.assign(sig->num_outputs, nullptr);
  }
  const mlxrt_tensor &type(const std::string &name) const {
    auto it = index.find(name);
    if (it == index.end())
      throw Error(std::string("model '") + mlxrt_model_name(model.get()) +
                  "' has no input '" + name +
                  "': not a step made by python -m mlxc.lm export");
    return mlxrt_model_signature(model.get())->inputs[it->second].type;
  }
  /// Binds `a` (one more reference) to input `name`.
  void set(const std::string &name, mlxrt_array *a) {
    type(name);
    mlxrt_array_retain(a);
    inputs[index[name]].reset(a);
  }
  void call() {
    std::vector<mlxrt_array *> in;
    for (auto &a : inputs)
      in.push_back(a.get());
    mlxrt_error err;
    check(mlxrt_model_call(model.get(), in.data(), in.size(), outputs.data(),
                           outputs.size(), &err),
          err);
    // The log-probabilities are not needed here: let the model keep its
    // buffer for the next call.
    mlxrt_array_release(outputs[2]);
    outputs[2] = nullptr;
  }
};

Handle<mlxrt_array> zeros(mlxrt_instance *inst, const mlxrt_tensor &t) {
  mlxrt_array *a;
  mlxrt_error err;
  check(mlxrt_array_create(inst, t.dtype, t.rank, t.dims, nullptr, 0, &a, &err),
        err);
  return Handle<mlxrt_array>(a);
}

void write(mlxrt_array *a, const std::vector<int32_t> &v) {
  mlxrt_error err;
  check(mlxrt_array_write(a, v.data(), v.size() * sizeof(int32_t), &err), err);
}

int32_t readToken(mlxrt_array *a) {
  int32_t t;
  mlxrt_error err;
  check(mlxrt_array_read(a, &t, sizeof(t), &err), err);
  return t;
}

std::vector<int32_t> parsePrompt(const std::string &text) {
  std::vector<int32_t> ids;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    char *end;
    long v = std::strtol(item.c_str(), &end, 10);
    if (item.empty() || *end || v < 0 || v > INT32_MAX)
      throw Error("--prompt: expected token ids like 1,2,3, got '" + text +
                  "'");
    ids.push_back(int32_t(v));
  }
  if (ids.empty())
    throw Error("--prompt: no token ids");
  return ids;
}

int usage() {
  std::fprintf(stderr, "usage: generate OUT --prompt 1,2,3 [-n N] "
                       "[--device auto|cpu|cuda:N] [--memory auto|copy] "
                       "[--time]\n");
  return 2;
}

} // namespace

int main(int argc, char **argv) try {
  std::string dir, prompt, device = "auto", memory = "auto";
  long n = 16;
  bool timed = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    bool hasValue = i + 1 < argc;
    if (arg == "--prompt" && hasValue)
      prompt = argv[++i];
    else if (arg == "-n" && hasValue)
      n = std::strtol(argv[++i], nullptr, 10);
    else if (arg == "--device" && hasValue)
      device = argv[++i];
    else if (arg == "--memory" && hasValue)
      memory = argv[++i];
    else if (arg == "--time")
      timed = true;
    else if (arg[0] != '-' && dir.empty())
      dir = arg;
    else
      return usage();
  }
  if (dir.empty() || prompt.empty() || (memory != "auto" && memory != "copy"))
    return usage();
  if (n < 1)
    throw Error("-n: expected a positive number of tokens");
  std::vector<int32_t> ids = parsePrompt(prompt);

  mlxrt_error err;
  mlxrt_instance_options opts;
  mlxrt_instance_options_init(&opts);
  opts.device = device.c_str();
  opts.memory = memory == "copy" ? MLXRT_MEMORY_COPY : MLXRT_MEMORY_AUTO;
  // The library reads no environment; this program takes cuBLASLt's path
  // as the mlxc executables do.
  opts.libcublaslt = std::getenv("MLXRT_LIBCUBLASLT");
  ProgramTime program;
  if (timed) {
    opts.trace = onTrace;
    opts.trace_user = &program;
  }
  mlxrt_instance *raw;
  check(mlxrt_instance_create(&opts, &raw, &err), err);
  Handle<mlxrt_instance> inst(raw);
  Step prefill(inst.get(), dir + "/libprefill.so");
  Step decode(inst.get(), dir + "/libdecode.so");

  // The weights: bound to the decode step from each file, then shared.
  std::ifstream list(dir + "/weights.txt");
  if (!list)
    throw Error(dir + "/weights.txt: cannot read (made by python -m "
                      "mlxc.lm export)");
  for (std::string file; std::getline(list, file);) {
    if (file.empty())
      continue;
    if (file[0] != '/') // Relative to OUT.
      file = dir + "/" + file;
    std::vector<mlxrt_array *> slots(decode.inputs.size(), nullptr);
    check(mlxrt_model_bind_file(decode.model.get(), file.c_str(), slots.data(),
                                slots.size(), nullptr, &err),
          err);
    for (auto &[name, k] : decode.index) {
      if (!slots[k])
        continue;
      decode.inputs[k].reset(slots[k]);
      if (prefill.index.count(name))
        prefill.set(name, slots[k]);
    }
  }

  // The state: token, offset and caches, the outputs of both steps and
  // inputs of the decode step (donated: updated in place). The prefill's
  // tokens are the prompt's, not the last token.
  std::vector<Handle<mlxrt_array>> state;
  auto addState = [&](const std::string &name, size_t output) {
    state.push_back(zeros(inst.get(), decode.type(name)));
    for (Step *s : {&prefill, &decode}) {
      if (s == &decode || name != "tokens")
        s->set(name, state.back().get());
      s->outputs.at(output) = state.back().get();
    }
  };
  addState("tokens", 0);
  addState("offset", 1);
  // The caches, in the order of the outputs that update them.
  std::ifstream cacheList(dir + "/caches.txt");
  if (!cacheList)
    throw Error(dir + "/caches.txt: cannot read (made by python -m "
                      "mlxc.lm export)");
  int64_t maxLen = -1; // Attention caches bound the length; states do not.
  size_t output = kStateOutputs;
  for (std::string name; std::getline(cacheList, name);) {
    if (name.empty())
      continue;
    if (!decode.index.count(name))
      throw Error(dir + "/caches.txt names '" + name +
                  "', which libdecode.so does not take");
    addState(name, output++);
    if (maxLen < 0 && name.size() > 5 &&
        name.compare(name.size() - 5, 5, ".keys") == 0)
      maxLen = decode.type(name).dims[2];
  }
  mlxrt_array *tokens = decode.inputs[decode.index["tokens"]].get();

  // The log-probabilities (out2) span the vocabulary; a token past it would
  // read past the embedding table.
  const mlxrt_signature *decodeSig = mlxrt_model_signature(decode.model.get());
  if (decodeSig->num_outputs <= 2 || decodeSig->outputs[2].type.rank < 1)
    throw Error(dir + "/libdecode.so: not a step made by python -m mlxc.lm "
                      "export (no log-probabilities)");
  const mlxrt_tensor &logprobs = decodeSig->outputs[2].type;
  int64_t vocab = logprobs.dims[logprobs.rank - 1];
  for (int32_t id : ids)
    if (id < 0 || id >= vocab)
      throw Error("prompt token " + std::to_string(id) +
                  " is not in the model's vocabulary (ids 0.." +
                  std::to_string(vocab - 1) + ")");

  int64_t chunk = prefill.type("tokens").dims[1];
  int64_t padded = (int64_t(ids.size()) + chunk - 1) / chunk * chunk;
  if (maxLen >= 0 &&
      std::max<int64_t>(padded, int64_t(ids.size()) + n - 1) > maxLen)
    throw Error(std::to_string(ids.size()) + " prompt tokens (padded to " +
                std::to_string(padded) + ") and " + std::to_string(n) +
                " new ones do not fit the cache of " + std::to_string(maxLen) +
                " (export with a larger --max-len)");

  // Prefill in chunks (the last one padded), then one decode step a token.
  Handle<mlxrt_array> chunkTokens = zeros(inst.get(), prefill.type("tokens"));
  Handle<mlxrt_array> last = zeros(inst.get(), prefill.type("last"));
  prefill.set("tokens", chunkTokens.get());
  prefill.set("last", last.get());
  for (size_t start = 0; start < ids.size(); start += chunk) {
    size_t len = std::min<size_t>(chunk, ids.size() - start);
    std::vector<int32_t> part(chunk, 0);
    std::copy(ids.begin() + start, ids.begin() + start + len, part.begin());
    write(chunkTokens.get(), part);
    write(last.get(), {int32_t(len - 1)});
    prefill.call();
  }
  std::vector<int32_t> out = {readToken(tokens)};
  // Decode step k reads its token from one array and writes the next into
  // the other; step k + 1 is enqueued before the token of step k is read,
  // so that the GPU does not wait for the host between steps (the read
  // waits for step k only).
  Handle<mlxrt_array> spare = zeros(inst.get(), decode.type("tokens"));
  mlxrt_array *turn[2] = {tokens, spare.get()};
  auto enqueue = [&](long k) {
    decode.set("tokens", turn[k % 2]);
    decode.outputs[0] = turn[(k + 1) % 2];
    decode.call();
  };
  program = ProgramTime();
  double start = nowMs();
  long steps = n - 1;
  if (steps > 0)
    enqueue(0);
  for (long k = 0; k < steps; ++k) {
    if (k + 1 < steps)
      enqueue(k + 1);
    out.push_back(readToken(turn[(k + 1) % 2]));
  }
  check(mlxrt_instance_synchronize(inst.get(), &err), err);
  double wall = nowMs() - start;
  if (timed && program.runs > 0)
    std::fprintf(stderr,
                 "decode: %ld steps, %.4f ms a step through the API (token "
                 "read back each step), programs %.4f ms a step; %.1f "
                 "tokens/s; the API adds %.1f%%\n",
                 program.runs, wall / program.runs, program.ms / program.runs,
                 1e3 * program.runs / wall,
                 100.0 * (wall - program.ms) / program.ms);
  for (size_t i = 0; i < out.size(); ++i)
    std::printf("%s%d", i ? " " : "", out[i]);
  std::printf("\n");
  return 0;
} catch (const std::exception &e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}
