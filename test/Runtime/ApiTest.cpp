//===- ApiTest.cpp - The instance/model/array API --------------*- C++ -*-===//
//
// The C API of mlxrt_api.h on the CPU, with programs written here in the
// shape mlxc emits them (a descriptor, a signature, an entry on void **):
// calls, reuse of the model's output arrays, donation, binding weights by
// name, and bad calls, which must fail with a clear message and change
// nothing. Compiled models go through the same API in test/Deploy.
//
//===----------------------------------------------------------------------===//

#include "TestEnv.h"
#include "TestUtil.h"

#include "runtime/mlxrt_api.h"

#include <cstdlib>

using namespace mlxrt_test;

namespace {

/// out0 = a + b (float32 [4]).
void addEntry(void **args) {
  const float *a = static_cast<const float *>(args[0]);
  const float *b = static_cast<const float *>(args[1]);
  float *out = static_cast<float *>(args[2]);
  for (int i = 0; i < 4; ++i)
    out[i] = a[i] + b[i];
}

const mlxrt_model_abi AddModel = {MLXRT_ABI_VERSION,
                                  0,
                                  "add",
                                  "entry add\n"
                                  "input a float32 4\n"
                                  "input b float32 4\n"
                                  "output out0 float32 4\n",
                                  addEntry,
                                  nullptr};

/// A decode step's shape: y = sum(state) + x, state' = state + x
/// (state float32 [2, 2]). It refuses to run with its state aliased to its
/// output, as compiled code may not tolerate that.
int Aliased = 0;
void stepEntry(void **args) {
  const float *x = static_cast<const float *>(args[0]);
  const float *state = static_cast<const float *>(args[1]);
  float *y = static_cast<float *>(args[2]);
  float *next = static_cast<float *>(args[3]);
  if (state == next) {
    ++Aliased;
    return;
  }
  *y = *x;
  for (int i = 0; i < 4; ++i) {
    *y += state[i];
    next[i] = state[i] + *x;
  }
}

const mlxrt_model_abi StepModel = {MLXRT_ABI_VERSION,
                                   0,
                                   "step",
                                   "entry step\n"
                                   "input x float32 scalar\n"
                                   "input state float32 2,2\n"
                                   "output y float32 scalar\n"
                                   "output state_out float32 2,2\n",
                                   stepEntry,
                                   nullptr};

/// o1 = o2 = a (float32 [4]).
void dupEntry(void **args) {
  memcpy(args[1], args[0], 16);
  memcpy(args[2], args[0], 16);
}

const mlxrt_model_abi DupModel = {MLXRT_ABI_VERSION,
                                  0,
                                  "dup",
                                  "entry dup\n"
                                  "input a float32 4\n"
                                  "output o1 float32 4\n"
                                  "output o2 float32 4\n",
                                  dupEntry,
                                  nullptr};

/// An instance on the CPU, freed with the test.
struct Cpu {
  mlxrt_instance *inst = nullptr;
  Cpu() {
    mlxrt_instance_options opts;
    mlxrt_instance_options_init(&opts);
    opts.device = "cpu";
    mlxrt_error err;
    EXPECT_EQ(mlxrt_instance_create(&opts, &inst, &err), MLXRT_OK)
        << err.message;
  }
  ~Cpu() { mlxrt_instance_destroy(inst); }
};

mlxrt_array *array(mlxrt_instance *inst, std::vector<float> values,
                   std::vector<int64_t> dims) {
  mlxrt_array *a = nullptr;
  mlxrt_error err;
  EXPECT_EQ(mlxrt_array_create(inst, MLXRT_DTYPE_FLOAT32, (int)dims.size(),
                               dims.data(), values.data(),
                               values.size() * sizeof(float), &a, &err),
            MLXRT_OK)
      << err.message;
  return a;
}

std::vector<float> values(mlxrt_array *a) {
  std::vector<float> v(mlxrt_array_type(a)->nbytes / sizeof(float));
  mlxrt_error err;
  EXPECT_EQ(mlxrt_array_read(a, v.data(), v.size() * sizeof(float), &err),
            MLXRT_OK)
      << err.message;
  return v;
}

TEST(Api, CallsAModelAndReusesItsOutputArray) {
  Cpu cpu;
  mlxrt_model *m;
  mlxrt_error err;
  ASSERT_EQ(mlxrt_model_open(cpu.inst, &AddModel, &m, &err), MLXRT_OK)
      << err.message;
  EXPECT_STREQ(mlxrt_model_name(m), "add");
  EXPECT_FALSE(mlxrt_model_has_cuda(m));
  const mlxrt_signature *sig = mlxrt_model_signature(m);
  ASSERT_EQ(sig->num_inputs, 2u);
  EXPECT_STREQ(sig->inputs[1].name, "b");
  EXPECT_EQ(mlxrt_model_find_input(m, "b"), 1);
  EXPECT_EQ(mlxrt_model_find_input(m, "c"), -1);

  mlxrt_array *in[2] = {array(cpu.inst, {1, 2, 3, 4}, {4}),
                        array(cpu.inst, {10, 20, 30, 40}, {4})};
  mlxrt_array *out = nullptr;
  ASSERT_EQ(mlxrt_model_call(m, in, 2, &out, 1, &err), MLXRT_OK) << err.message;
  EXPECT_EQ(values(out), (std::vector<float>{11, 22, 33, 44}));
  // Released, the model's array serves the next call; held, a new one does
  // and the held one keeps its values.
  mlxrt_array *first = out;
  mlxrt_array_release(out);
  out = nullptr;
  ASSERT_EQ(mlxrt_model_call(m, in, 2, &out, 1, &err), MLXRT_OK);
  EXPECT_EQ(out, first);
  mlxrt_array *held = out;
  ASSERT_EQ(
      mlxrt_array_write(in[0], std::vector<float>{0, 0, 0, 0}.data(), 16, &err),
      MLXRT_OK);
  out = nullptr;
  ASSERT_EQ(mlxrt_model_call(m, in, 2, &out, 1, &err), MLXRT_OK);
  EXPECT_NE(out, held);
  EXPECT_EQ(values(held), (std::vector<float>{11, 22, 33, 44}));
  EXPECT_EQ(values(out), (std::vector<float>{10, 20, 30, 40}));
  // An output array given by the caller is written in place.
  mlxrt_array *mine = array(cpu.inst, {0, 0, 0, 0}, {4});
  ASSERT_EQ(mlxrt_model_call(m, in, 2, &mine, 1, &err), MLXRT_OK);
  EXPECT_EQ(values(mine), (std::vector<float>{10, 20, 30, 40}));
  // Handles go in any order: the instance stays while they are alive.
  mlxrt_model_close(m);
  for (mlxrt_array *a : {in[0], in[1], held, out, mine})
    mlxrt_array_release(a);
}

TEST(Api, DonatedStateIsUpdatedWithoutAliasing) {
  Cpu cpu;
  mlxrt_model *m;
  mlxrt_error err;
  ASSERT_EQ(mlxrt_model_open(cpu.inst, &StepModel, &m, &err), MLXRT_OK);
  mlxrt_array *x = array(cpu.inst, {1}, {});
  mlxrt_array *state = array(cpu.inst, {0, 1, 2, 3}, {2, 2});
  Aliased = 0;
  for (int t = 0; t < 3; ++t) {
    mlxrt_array *in[2] = {x, state};
    mlxrt_array *out[2] = {nullptr, state};
    ASSERT_EQ(mlxrt_model_call(m, in, 2, out, 2, &err), MLXRT_OK)
        << err.message;
    EXPECT_EQ(out[1], state);
    // y sums the state before the step: 6, 10, 14.
    EXPECT_EQ(values(out[0]), (std::vector<float>{6.0f + 1 + 4.0f * t}));
    mlxrt_array_release(out[0]);
  }
  EXPECT_EQ(Aliased, 0);
  EXPECT_EQ(values(state), (std::vector<float>{3, 4, 5, 6}));
  mlxrt_array_release(x);
  mlxrt_array_release(state);
  mlxrt_model_close(m);
}

TEST(Api, BadCallsFailClearlyAndChangeNothing) {
  Cpu cpu;
  mlxrt_model *m;
  mlxrt_error err;
  ASSERT_EQ(mlxrt_model_open(cpu.inst, &AddModel, &m, &err), MLXRT_OK);
  mlxrt_array *a = array(cpu.inst, {1, 2, 3, 4}, {4});
  mlxrt_array *b = array(cpu.inst, {1, 1, 1, 1}, {4});
  mlxrt_array *wrongShape = array(cpu.inst, {1, 2, 3, 4}, {2, 2});
  mlxrt_array *given = array(cpu.inst, {7, 7, 7, 7}, {4});
  mlxrt_array *wrongDtype = nullptr;
  int64_t four = 4;
  int32_t ints[4] = {1, 2, 3, 4};
  ASSERT_EQ(mlxrt_array_create(cpu.inst, MLXRT_DTYPE_INT32, 1, &four, ints,
                               sizeof(ints), &wrongDtype, &err),
            MLXRT_OK);
  Cpu other;
  mlxrt_array *foreign = array(other.inst, {1, 2, 3, 4}, {4});

  auto fails = [&](std::vector<mlxrt_array *> in,
                   std::vector<mlxrt_array *> out, mlxrt_status status,
                   const std::string &message) {
    std::vector<mlxrt_array *> before = out;
    mlxrt_status st =
        mlxrt_model_call(m, in.data(), in.size(), out.data(), out.size(), &err);
    EXPECT_EQ(st, status) << err.message;
    EXPECT_TRUE(contains(err.message, message)) << err.message;
    EXPECT_EQ(out, before);
  };
  fails({a}, {nullptr}, MLXRT_ERROR_INVALID_ARGUMENT,
        "model 'add' takes 2 inputs and 1 output, got 1 and 1");
  fails({a, b}, {nullptr, nullptr}, MLXRT_ERROR_INVALID_ARGUMENT,
        "got 2 and 2");
  fails({a, wrongShape}, {nullptr}, MLXRT_ERROR_MISMATCH,
        "model 'add', input 'b': expected float32 [4], got float32 [2, 2]");
  fails({wrongDtype, b}, {nullptr}, MLXRT_ERROR_MISMATCH,
        "input 'a': expected float32 [4], got int32 [4]");
  fails({a, nullptr}, {nullptr}, MLXRT_ERROR_INVALID_ARGUMENT,
        "input 'b': no array given");
  fails({a, b}, {wrongShape}, MLXRT_ERROR_MISMATCH,
        "output 'out0': expected float32 [4], got float32 [2, 2]");
  fails({foreign, b}, {given}, MLXRT_ERROR_INVALID_ARGUMENT,
        "input 'a': the array belongs to another instance");
  EXPECT_EQ(values(given), (std::vector<float>{7, 7, 7, 7}));
  EXPECT_EQ(values(a), (std::vector<float>{1, 2, 3, 4}));

  // Reads and writes of the wrong size, and arrays of impossible types.
  float small[2];
  EXPECT_EQ(mlxrt_array_read(a, small, sizeof(small), &err),
            MLXRT_ERROR_MISMATCH);
  EXPECT_TRUE(contains(err.message, "holds 16 bytes, got a buffer of 8"))
      << err.message;
  EXPECT_EQ(mlxrt_array_write(a, small, sizeof(small), &err),
            MLXRT_ERROR_MISMATCH);
  EXPECT_EQ(values(a), (std::vector<float>{1, 2, 3, 4}));
  mlxrt_array *none = nullptr;
  EXPECT_EQ(mlxrt_array_create(cpu.inst, MLXRT_DTYPE_FLOAT32, 1, &four, small,
                               sizeof(small), &none, &err),
            MLXRT_ERROR_MISMATCH);
  EXPECT_EQ(none, nullptr);

  // After all that, a good call works.
  mlxrt_array *in[2] = {a, b};
  ASSERT_EQ(mlxrt_model_call(m, in, 2, &given, 1, &err), MLXRT_OK);
  EXPECT_EQ(values(given), (std::vector<float>{2, 3, 4, 5}));
  for (mlxrt_array *x : {a, b, wrongShape, given, wrongDtype, foreign})
    mlxrt_array_release(x);
  mlxrt_model_close(m);
}

TEST(Api, TwoOutputsCannotShareAnArray) {
  Cpu cpu;
  mlxrt_model *m;
  mlxrt_error err;
  ASSERT_EQ(mlxrt_model_open(cpu.inst, &DupModel, &m, &err), MLXRT_OK);
  mlxrt_array *a = array(cpu.inst, {1, 2, 3, 4}, {4});
  mlxrt_array *o = array(cpu.inst, {0, 0, 0, 0}, {4});
  mlxrt_array *out[2] = {o, o};
  EXPECT_EQ(mlxrt_model_call(m, &a, 1, out, 2, &err),
            MLXRT_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(
      contains(err.message, "outputs 'o1' and 'o2' are given the same array"))
      << err.message;
  EXPECT_EQ(values(o), (std::vector<float>{0, 0, 0, 0}));
  // Donated to both: the same.
  mlxrt_array *donated[2] = {a, a};
  EXPECT_EQ(mlxrt_model_call(m, &a, 1, donated, 2, &err),
            MLXRT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(values(a), (std::vector<float>{1, 2, 3, 4}));
  mlxrt_array_release(a);
  mlxrt_array_release(o);
  mlxrt_model_close(m);
}

TEST(Api, BindsInputsByNameFromAWeightsFile) {
  TempDir dir;
  Cpu cpu;
  mlxrt_model *m;
  mlxrt_error err;
  ASSERT_EQ(mlxrt_model_open(cpu.inst, &AddModel, &m, &err), MLXRT_OK);
  std::vector<float> b = {5, 6, 7, 8};
  std::string path = dir.write(
      "w.safetensors",
      safetensorsFile(
          R"({"b":{"dtype":"F32","shape":[4],"data_offsets":[0,16]},)"
          R"("other":{"dtype":"F32","shape":[1],"data_offsets":[16,20]}})",
          bytesOf(b) + bytesOf(std::vector<float>{0})));
  mlxrt_array *in[2] = {array(cpu.inst, {1, 1, 1, 1}, {4}), nullptr};
  size_t bound = 9;
  ASSERT_EQ(mlxrt_model_bind_file(m, path.c_str(), in, 2, &bound, &err),
            MLXRT_OK)
      << err.message;
  EXPECT_EQ(bound, 1u);
  ASSERT_NE(in[1], nullptr);
  mlxrt_array *out = nullptr;
  ASSERT_EQ(mlxrt_model_call(m, in, 2, &out, 1, &err), MLXRT_OK);
  EXPECT_EQ(values(out), (std::vector<float>{6, 7, 8, 9}));
  mlxrt_array_release(out);
  mlxrt_array_release(in[1]);

  // A tensor of the right name and the wrong shape binds nothing.
  std::string bad =
      dir.write("bad.safetensors",
                safetensorsFile(
                    R"({"b":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})",
                    bytesOf(std::vector<float>{1, 2})));
  in[1] = nullptr;
  EXPECT_EQ(mlxrt_model_bind_file(m, bad.c_str(), in, 2, &bound, &err),
            MLXRT_ERROR_MISMATCH);
  EXPECT_TRUE(contains(err.message, "input 'b': ")) << err.message;
  EXPECT_EQ(in[1], nullptr);
  // A file that binds none of the open inputs is an error that names what
  // it holds and what the model takes.
  std::string foreign = dir.write(
      "foreign.safetensors",
      safetensorsFile(
          R"({"w1":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}})",
          bytesOf(b)));
  EXPECT_EQ(mlxrt_model_bind_file(m, foreign.c_str(), in, 2, &bound, &err),
            MLXRT_ERROR_NOT_FOUND);
  EXPECT_TRUE(contains(err.message, "binds none of the inputs of model"))
      << err.message;
  EXPECT_TRUE(contains(err.message, "it holds 'w1'; the inputs to bind are "
                                    "'b'"))
      << err.message;
  EXPECT_EQ(in[1], nullptr);
  // With every slot filled, there is nothing to bind: no error.
  mlxrt_array *filled[2] = {in[0], in[0]};
  EXPECT_EQ(mlxrt_model_bind_file(m, foreign.c_str(), filled, 2, &bound, &err),
            MLXRT_OK)
      << err.message;
  EXPECT_EQ(bound, 0u);
  // A .npy has no names.
  std::string npy =
      dir.write("b.npy", npyFile(npyDict("<f4", "(4,)"), bytesOf(b)));
  EXPECT_EQ(mlxrt_model_bind_file(m, npy.c_str(), in, 2, &bound, &err),
            MLXRT_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains(err.message, "binding by name needs")) << err.message;
  // A file that is no tensor file names the file, not an input.
  std::string text = dir.write("notes.txt", "not a tensor file");
  EXPECT_EQ(mlxrt_model_bind_file(m, text.c_str(), in, 2, &bound, &err),
            MLXRT_ERROR_FORMAT);
  EXPECT_TRUE(contains(err.message, "notes.txt")) << err.message;
  EXPECT_FALSE(contains(err.message, "input '")) << err.message;
  EXPECT_EQ(in[1], nullptr);
  // Arrays from files and back.
  mlxrt_array *fromNpy = nullptr;
  ASSERT_EQ(mlxrt_array_load(cpu.inst, npy.c_str(), &fromNpy, &err), MLXRT_OK)
      << err.message;
  EXPECT_EQ(values(fromNpy), b);
  std::string saved = dir.file("saved.npy");
  ASSERT_EQ(mlxrt_array_save(fromNpy, saved.c_str(), &err), MLXRT_OK);
  EXPECT_EQ(readFile(saved), readFile(npy));
  mlxrt_array_release(fromNpy);
  mlxrt_array_release(in[0]);
  mlxrt_model_close(m);
}

TEST(Api, RefusesWhatIsNoModelOfThisRuntime) {
  Cpu cpu;
  mlxrt_model *m = nullptr;
  mlxrt_error err;
  mlxrt_model_abi future = AddModel;
  future.abi_version = MLXRT_ABI_VERSION + 1;
  EXPECT_EQ(mlxrt_model_open(cpu.inst, &future, &m, &err), MLXRT_ERROR_FORMAT);
  EXPECT_TRUE(contains(err.message, "recompile it")) << err.message;
  EXPECT_EQ(m, nullptr);
  EXPECT_EQ(mlxrt_model_load(cpu.inst, "libz.so.1", &m, &err),
            MLXRT_ERROR_FORMAT);
  EXPECT_TRUE(contains(err.message, "not a model made by mlxc --emit=shared"))
      << err.message;
  EXPECT_EQ(mlxrt_model_load(cpu.inst, "/no/such/model.so", &m, &err),
            MLXRT_ERROR_IO);
  EXPECT_EQ(m, nullptr);
}

std::vector<std::string> Notes;
void recordNote(void *user, const mlxrt_trace_event *event) {
  (void)user;
  if (event->kind == MLXRT_TRACE_NOTE)
    Notes.push_back(event->text);
}

TEST(Api, AutoFallsBackToTheCpuAndSaysWhy) {
  mlxrt_instance_options opts;
  mlxrt_instance_options_init(&opts);
  EXPECT_STREQ(opts.device, "auto");
  // The driver is process-wide: once a real one is loaded, it stays.
  if (envCudaAvailable(nullptr, 0))
    GTEST_SKIP() << "a CUDA driver is loaded";
  opts.libcuda = "/no/such/libcuda.so";
  opts.trace = recordNote;
  Notes.clear();
  mlxrt_instance *inst;
  mlxrt_error err;
  ASSERT_EQ(mlxrt_instance_create(&opts, &inst, &err), MLXRT_OK);
  EXPECT_EQ(mlxrt_instance_device_kind(inst), MLXRT_DEVICE_CPU);
  EXPECT_STREQ(mlxrt_instance_device_name(inst), "cpu");
  ASSERT_EQ(Notes.size(), 1u);
  EXPECT_TRUE(contains(Notes[0], "no CUDA device (")) << Notes[0];
  EXPECT_TRUE(contains(Notes[0], "); using the CPU")) << Notes[0];
  mlxrt_instance_destroy(inst);
  opts.device = "tpu";
  EXPECT_EQ(mlxrt_instance_create(&opts, &inst, &err),
            MLXRT_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains(err.message, "unknown device 'tpu'")) << err.message;
}

TEST(Api, DescribesALinkedModelWithoutOpeningIt) {
  mlxrt_model_info info;
  mlxrt_error err;
  ASSERT_EQ(mlxrt_model_describe(&AddModel, &info, &err), MLXRT_OK);
  EXPECT_STREQ(info.name, "add");
  EXPECT_EQ(info.signature, AddModel.signature);
  EXPECT_EQ(info.has_cuda, 0);
  mlxrt_model_abi withCuda = AddModel;
  withCuda.entry_cuda = addEntry;
  ASSERT_EQ(mlxrt_model_describe(&withCuda, &info, &err), MLXRT_OK);
  EXPECT_EQ(info.has_cuda, 1);
  withCuda.abi_version = MLXRT_ABI_VERSION + 1;
  EXPECT_EQ(mlxrt_model_describe(&withCuda, &info, &err), MLXRT_ERROR_FORMAT);
  EXPECT_TRUE(contains(err.message, "recompile it")) << err.message;
  EXPECT_EQ(info.name, nullptr);
  EXPECT_EQ(mlxrt_model_describe(nullptr, &info, &err),
            MLXRT_ERROR_INVALID_ARGUMENT);
}

/// y = 2 x (bfloat16 [3]).
void doubleEntry(void **args) {
  const uint16_t *x = static_cast<const uint16_t *>(args[0]);
  uint16_t *y = static_cast<uint16_t *>(args[1]);
  for (int i = 0; i < 3; ++i)
    y[i] = mlxrt_float_to_bfloat16(2 * mlxrt_bfloat16_to_float(x[i]));
}

const mlxrt_model_abi DoubleModel = {MLXRT_ABI_VERSION,
                                     0,
                                     "twice",
                                     "entry twice\n"
                                     "input x bfloat16 3\n"
                                     "output y bfloat16 3\n",
                                     doubleEntry,
                                     nullptr};

TEST(Api, LoadsAnInputOfTheModelsTypeFromAFile) {
  TempDir dir;
  Cpu cpu;
  mlxrt_model *m;
  mlxrt_error err;
  ASSERT_EQ(mlxrt_model_open(cpu.inst, &DoubleModel, &m, &err), MLXRT_OK);
  // float32 data for a bfloat16 input is rounded, as executables do.
  std::string f32 = dir.write(
      "x.npy", npyFile(npyDict("<f4", "(3,)"),
                       bytesOf(std::vector<float>{1.0f, -2.5f, 3.0f})));
  mlxrt_array *x = nullptr;
  ASSERT_EQ(mlxrt_model_load_input(m, 0, f32.c_str(), &x, &err), MLXRT_OK)
      << err.message;
  EXPECT_EQ(mlxrt_array_type(x)->dtype, MLXRT_DTYPE_BFLOAT16);
  mlxrt_array *y = nullptr;
  ASSERT_EQ(mlxrt_model_call(m, &x, 1, &y, 1, &err), MLXRT_OK) << err.message;
  uint16_t got[3];
  ASSERT_EQ(mlxrt_array_read(y, got, sizeof(got), &err), MLXRT_OK);
  EXPECT_EQ(mlxrt_bfloat16_to_float(got[0]), 2.0f);
  EXPECT_EQ(mlxrt_bfloat16_to_float(got[1]), -5.0f);
  EXPECT_EQ(mlxrt_bfloat16_to_float(got[2]), 6.0f);
  // The entry of an archive defaults to the input's name.
  std::string npz = dir.write(
      "w.npz",
      zipFile({{"x.npy", npyFile(npyDict("<f4", "(3,)"),
                                 bytesOf(std::vector<float>{4, 5, 6}))}}));
  mlxrt_array *fromNpz = nullptr;
  ASSERT_EQ(mlxrt_model_load_input(m, 0, npz.c_str(), &fromNpz, &err), MLXRT_OK)
      << err.message;
  mlxrt_array_release(fromNpz);
  // The wrong shape, a missing file, no such input: errors, no array.
  std::string wrong =
      dir.write("w.npy", npyFile(npyDict("<f4", "(4,)"),
                                 bytesOf(std::vector<float>{1, 2, 3, 4})));
  mlxrt_array *none = nullptr;
  EXPECT_EQ(mlxrt_model_load_input(m, 0, wrong.c_str(), &none, &err),
            MLXRT_ERROR_MISMATCH);
  EXPECT_TRUE(contains(err.message, "input 'x': ")) << err.message;
  EXPECT_EQ(none, nullptr);
  EXPECT_EQ(
      mlxrt_model_load_input(m, 0, dir.file("no.npy").c_str(), &none, &err),
      MLXRT_ERROR_IO);
  EXPECT_EQ(mlxrt_model_load_input(m, 1, f32.c_str(), &none, &err),
            MLXRT_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains(err.message, "there is no input 1")) << err.message;
  EXPECT_EQ(none, nullptr);
  mlxrt_array_release(y);
  mlxrt_array_release(x);
  mlxrt_model_close(m);
}

double ProgramMs = -1;
void recordProgram(void *user, const mlxrt_trace_event *event) {
  (void)user;
  if (event->kind == MLXRT_TRACE_PROGRAM)
    ProgramMs = event->ms;
}

TEST(Api, MappedArraysAreWrittenInPlaceAndCallsAreTimed) {
  mlxrt_instance_options opts;
  mlxrt_instance_options_init(&opts);
  opts.device = "cpu";
  opts.trace = recordProgram;
  mlxrt_instance *inst;
  mlxrt_error err;
  ASSERT_EQ(mlxrt_instance_create(&opts, &inst, &err), MLXRT_OK);
  mlxrt_model *m;
  ASSERT_EQ(mlxrt_model_open(inst, &AddModel, &m, &err), MLXRT_OK);
  mlxrt_array *in[2] = {array(inst, {1, 2, 3, 4}, {4}),
                        array(inst, {0, 0, 0, 0}, {4})};
  void *data = nullptr;
  ASSERT_EQ(mlxrt_array_map(in[1], MLXRT_ACCESS_WRITE, &data, &err), MLXRT_OK);
  static_cast<float *>(data)[2] = 10;
  mlxrt_array *out = nullptr;
  ProgramMs = -1;
  ASSERT_EQ(mlxrt_model_call(m, in, 2, &out, 1, &err), MLXRT_OK);
  EXPECT_GE(ProgramMs, 0.0); // The CPU's calls are timed too.
  ASSERT_EQ(mlxrt_array_map(out, MLXRT_ACCESS_READ, &data, &err), MLXRT_OK);
  const float *y = static_cast<const float *>(data);
  EXPECT_EQ(std::vector<float>(y, y + 4), (std::vector<float>{1, 2, 13, 4}));
  EXPECT_EQ(mlxrt_array_map(out, static_cast<mlxrt_access>(0), &data, &err),
            MLXRT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(data, nullptr);
  EXPECT_EQ(mlxrt_array_map(out, static_cast<mlxrt_access>(4), &data, &err),
            MLXRT_ERROR_INVALID_ARGUMENT);
  mlxrt_array_release(out);
  mlxrt_array_release(in[0]);
  mlxrt_array_release(in[1]);
  mlxrt_model_close(m);
  mlxrt_instance_destroy(inst);
}

TEST(Api, SavesOutputsCompletelyOrNotAtAll) {
  TempDir dir;
  Cpu cpu;
  mlxrt_array *a[2] = {array(cpu.inst, {1, 2}, {2}), array(cpu.inst, {3}, {1})};
  std::string p0 = dir.file("a.npy"), p1 = dir.file("b.npy");
  const char *paths[2] = {p0.c_str(), p1.c_str()};
  mlxrt_npy_files *files = nullptr;
  size_t failed = 9;
  mlxrt_error err;
  ASSERT_EQ(mlxrt_npy_files_open(paths, 2, &files, &failed, &err), MLXRT_OK)
      << err.message;
  ASSERT_EQ(mlxrt_npy_files_save(files, a, 2, &failed, &err), MLXRT_OK)
      << err.message;
  EXPECT_EQ(mlxrt_npy_files_save(files, a, 2, &failed, &err),
            MLXRT_ERROR_INVALID_ARGUMENT); // Saved once.
  mlxrt_npy_files_close(files);
  EXPECT_EQ(ReadTensor(p0).values<float>(), (std::vector<float>{1, 2}));
  EXPECT_EQ(ReadTensor(p1).values<float>(), (std::vector<float>{3}));
  EXPECT_EQ(dir.list(), (std::vector<std::string>{"a.npy", "b.npy"}));

  // One file twice, or under two names: an error, at the second path.
  std::string again = dir.path() + "/./a.npy";
  const char *twice[2] = {p0.c_str(), again.c_str()};
  EXPECT_EQ(mlxrt_npy_files_open(twice, 2, &files, &failed, &err),
            MLXRT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(failed, 1u);
  EXPECT_TRUE(contains(err.message, "are the same file")) << err.message;
  // A path that cannot be written fails at opening, leaving nothing behind.
  std::string nowhere = dir.file("no/such/dir/c.npy");
  const char *bad[2] = {p0.c_str(), nowhere.c_str()};
  EXPECT_EQ(mlxrt_npy_files_open(bad, 2, &files, &failed, &err),
            MLXRT_ERROR_IO);
  EXPECT_EQ(failed, 1u);
  EXPECT_EQ(files, nullptr);
  EXPECT_EQ(dir.list(), (std::vector<std::string>{"a.npy", "b.npy"}));
  // Closed unsaved, the old files stay as they were.
  mlxrt_array *c[2] = {array(cpu.inst, {7, 7}, {2}), array(cpu.inst, {7}, {1})};
  ASSERT_EQ(mlxrt_npy_files_open(paths, 2, &files, &failed, &err), MLXRT_OK);
  mlxrt_npy_files_close(files);
  EXPECT_EQ(ReadTensor(p0).values<float>(), (std::vector<float>{1, 2}));
  EXPECT_EQ(dir.list(), (std::vector<std::string>{"a.npy", "b.npy"}));
  for (mlxrt_array *x : {a[0], a[1], c[0], c[1]})
    mlxrt_array_release(x);
}

} // namespace

TEST(Api, NullAndReleasedHandlesAreErrorsNotCrashes) {
  mlxrt_error err;
  int64_t four = 4;
  mlxrt_array *out = nullptr;
  // NULL handles: an error naming what is missing, or a no-op to release.
  EXPECT_EQ(mlxrt_model_call(nullptr, nullptr, 0, nullptr, 0, &err),
            MLXRT_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains(err.message, "the model is NULL")) << err.message;
  EXPECT_EQ(mlxrt_array_create(nullptr, MLXRT_DTYPE_FLOAT32, 1, &four, nullptr,
                               0, &out, &err),
            MLXRT_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains(err.message, "the instance is NULL")) << err.message;
  EXPECT_EQ(mlxrt_array_read(nullptr, nullptr, 0, &err),
            MLXRT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(mlxrt_instance_synchronize(nullptr, &err),
            MLXRT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(mlxrt_array_type(nullptr), nullptr);
  EXPECT_EQ(mlxrt_model_name(nullptr), nullptr);
  EXPECT_EQ(mlxrt_model_signature(nullptr), nullptr);
  EXPECT_EQ(mlxrt_model_find_input(nullptr, "a"), -1);
  EXPECT_EQ(mlxrt_instance_device_name(nullptr), nullptr);
  mlxrt_array_retain(nullptr);
  mlxrt_array_release(nullptr);
  mlxrt_model_close(nullptr);
  mlxrt_instance_destroy(nullptr);

  mlxrt_instance_options opts;
  mlxrt_instance_options_init(&opts);
  opts.device = "cpu";
  mlxrt_instance *inst;
  ASSERT_EQ(mlxrt_instance_create(&opts, &inst, &err), MLXRT_OK);
  mlxrt_model *m, *m2;
  ASSERT_EQ(mlxrt_model_open(inst, &AddModel, &m, &err), MLXRT_OK);
  ASSERT_EQ(mlxrt_model_open(inst, &AddModel, &m2, &err), MLXRT_OK);
  mlxrt_array *in[2] = {array(inst, {1, 2, 3, 4}, {4}),
                        array(inst, {10, 20, 30, 40}, {4})};
  ASSERT_EQ(mlxrt_model_call(m, in, 2, &out, 1, &err), MLXRT_OK);

  // An output array released twice: the second release is a no-op, not
  // the model's own hold on it, which the next call reuses.
  mlxrt_array *first = out;
  mlxrt_array_release(out);
  mlxrt_array_release(out);
  float buffer[4];
  EXPECT_EQ(mlxrt_array_read(first, buffer, sizeof(buffer), &err),
            MLXRT_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains(err.message, "the array is no longer valid"))
      << err.message;
  out = nullptr;
  ASSERT_EQ(mlxrt_model_call(m, in, 2, &out, 1, &err), MLXRT_OK) << err.message;
  EXPECT_EQ(out, first);
  EXPECT_EQ(values(out), (std::vector<float>{11, 22, 33, 44}));

  // A closed model: every use is an error, closing it again a no-op.
  mlxrt_model_close(m);
  mlxrt_model_close(m);
  mlxrt_array *again = nullptr;
  EXPECT_EQ(mlxrt_model_call(m, in, 2, &again, 1, &err),
            MLXRT_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains(err.message, "the model is no longer valid"))
      << err.message;
  EXPECT_EQ(mlxrt_model_name(m), nullptr);
  // Its output, still held by the caller, outlives it.
  EXPECT_EQ(values(out), (std::vector<float>{11, 22, 33, 44}));
  mlxrt_array_release(out);

  // A released array given to a call.
  mlxrt_array *gone = in[0];
  mlxrt_array_release(gone);
  in[0] = gone;
  EXPECT_EQ(mlxrt_model_call(m2, in, 2, &again, 1, &err),
            MLXRT_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains(err.message, "input 'a': the array is no longer valid"))
      << err.message;
  EXPECT_EQ(again, nullptr);

  // The instance destroyed twice: the second destroy drops nothing of what
  // the model and the arrays hold; the caller's handle is refused.
  mlxrt_instance_destroy(inst);
  mlxrt_instance_destroy(inst);
  EXPECT_EQ(mlxrt_array_create(inst, MLXRT_DTYPE_FLOAT32, 1, &four, nullptr, 0,
                               &again, &err),
            MLXRT_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains(err.message, "the instance is no longer valid"))
      << err.message;
  in[0] = in[1];
  ASSERT_EQ(mlxrt_model_call(m2, in, 2, &again, 1, &err), MLXRT_OK)
      << err.message;
  EXPECT_EQ(values(again), (std::vector<float>{20, 40, 60, 80}));
  mlxrt_array_release(again);
  mlxrt_model_close(m2);
  mlxrt_array_release(in[1]);
  // Everything gone: the instance too; its handle is still refused.
  mlxrt_instance_destroy(inst);
  EXPECT_EQ(mlxrt_instance_synchronize(inst, &err),
            MLXRT_ERROR_INVALID_ARGUMENT);
}

TEST(Api, TruncatedSharedObjectsAreRefusedBeforeDlopen) {
  Cpu cpu;
  TempDir dir;
  std::string lib = readFile("/usr/lib/x86_64-linux-gnu/libz.so.1");
  if (lib.size() < 4096)
    GTEST_SKIP() << "no libz.so.1 at /usr/lib/x86_64-linux-gnu to cut";
  mlxrt_model *m = nullptr;
  mlxrt_error err;
  // Whole, it loads (and is no model).
  std::string whole = dir.write("whole.so", lib);
  EXPECT_EQ(mlxrt_model_load(cpu.inst, whole.c_str(), &m, &err),
            MLXRT_ERROR_FORMAT);
  EXPECT_TRUE(contains(err.message, "not a model made by mlxc")) << err.message;
  // Half of it (dlopen died of SIGBUS), its section table cut, its header
  // cut, nothing at all.
  struct Case {
    size_t size;
    const char *why;
  } cases[] = {{lib.size() / 2, "truncated"},
               {lib.size() - 64, "truncated: its header tables end past"},
               {40, "not an ELF file"},
               {0, "not an ELF file"}};
  for (const Case &c : cases) {
    std::string path = dir.write("cut" + std::to_string(c.size) + ".so",
                                 lib.substr(0, c.size));
    EXPECT_EQ(mlxrt_model_load(cpu.inst, path.c_str(), &m, &err),
              MLXRT_ERROR_FORMAT)
        << c.size;
    EXPECT_TRUE(contains(err.message, c.why)) << err.message;
    EXPECT_TRUE(contains(err.message, path)) << err.message;
    EXPECT_EQ(m, nullptr);
  }
  // A folder is no shared object either.
  EXPECT_EQ(mlxrt_model_load(cpu.inst, (dir.path() + "/").c_str(), &m, &err),
            MLXRT_ERROR_FORMAT);
  EXPECT_TRUE(contains(err.message, "not a regular file")) << err.message;
}
