//===- FakeCudaTest.cpp - The CUDA logic against a host driver --*- C++ -*-===//
//
// The runtime with FakeCuda.c as its driver and cuBLASLt (a process of its
// own: the driver, once loaded, stays): CUDA graph capture, replay and
// fallback, cuBLASLt plans and products, and the choice of module image,
// everywhere, GPU or not.
//
//===----------------------------------------------------------------------===//

#include "TestEnv.h"
#include "TestUtil.h"

#include "runtime/mlxrt_api.h"

#include <cstdlib>
#include <dlfcn.h>

using namespace mlxrt_test;

namespace {

/// The fake's control functions (FakeCuda.c).
struct Fake {
  long (*get)(const char *);
  void (*set)(const char *, long);
  void (*registerKernel)(const char *, void (*)(void **), int, const size_t *);
  const char *(*lastImage)();
  void (*setDependentKernels)(const char *, size_t);
} F;

constexpr unsigned N = 64;

void scale2(void **params) {
  float *in = *static_cast<float **>(params[0]);
  float *out = *static_cast<float **>(params[1]);
  unsigned n = *static_cast<unsigned *>(params[2]);
  for (unsigned i = 0; i < n; ++i)
    out[i] = 2 * in[i];
}

void scaleBy(void **params) {
  float *in = *static_cast<float **>(params[0]);
  float *out = *static_cast<float **>(params[1]);
  float factor = **static_cast<float **>(params[2]);
  unsigned n = *static_cast<unsigned *>(params[3]);
  for (unsigned i = 0; i < n; ++i)
    out[i] = in[i] * factor;
}

void *Module;
int Calls;
unsigned Block = 256;
int SharedBytes = 0; ///< Each launch's dynamic shared memory.
const float Three = 3.0f;

void launch(const char *name, std::vector<void *> values) {
  void *fn = mgpuModuleGetFunction(Module, name);
  void *stream = mgpuStreamCreate();
  unsigned n = N;
  std::vector<void *> params;
  for (void *&v : values)
    params.push_back(&v);
  params.push_back(&n);
  mgpuLaunchKernel(fn, 1, 1, 1, Block, 1, 1, SharedBytes, stream, params.data(),
                   nullptr, params.size());
  // The stock lowering synchronizes after every launch.
  mgpuStreamSynchronize(stream);
  mgpuStreamDestroy(stream);
}

/// out = 6 * in: 2 * in into a device arena, then times the constant 3 that
/// is copied from host memory into the arena, as placement emits it.
void programEntry(void **args) {
  mlxrt_graph_capturable();
  ++Calls;
  void *stream = mgpuStreamCreate();
  float *arena =
      static_cast<float *>(mgpuMemAlloc((N + 1) * sizeof(float), stream, 0));
  mgpuStreamSynchronize(stream);
  mgpuMemcpy(arena + N, const_cast<float *>(&Three), sizeof(float), stream);
  mlxrt_prefetch(reinterpret_cast<intptr_t>(args[0]), N * sizeof(float), 1);
  launch("scale2", {args[0], arena});
  launch("scale_by", {arena, args[1], arena + N});
  mlxrt_prefetch(reinterpret_cast<intptr_t>(args[1]), N * sizeof(float), 0);
  mgpuMemFree(arena, stream);
}

/// programEntry, but a copy of the input into the output first when
/// CopyFirst is set (other host code for other buffers: another graph).
bool CopyFirst = false;
void variableEntry(void **args) {
  if (CopyFirst) {
    mlxrt_graph_capturable();
    void *stream = mgpuStreamCreate();
    mgpuMemcpy(args[1], args[0], N * sizeof(float), stream);
    mgpuStreamDestroy(stream);
  }
  programEntry(args);
}

/// The same without mlxrt_graph_capturable: never captured.
void uncapturableEntry(void **args) {
  ++Calls;
  launch("scale2", {args[0], args[1]});
}

/// C (3 x 5) = A (3 x 4) @ B^T (B stored 5 x 4), batch 2 with B shared; In
/// holds A then B, Out holds C.
struct ProductShape {
  int64_t batch = 2, m = 3, n = 5, k = 4;
} S;

void matmulEntry(void **args) {
  mlxrt_graph_capturable();
  ++Calls;
  float *in = static_cast<float *>(args[0]);
  intptr_t a = reinterpret_cast<intptr_t>(in);
  intptr_t b = reinterpret_cast<intptr_t>(in + S.batch * S.m * S.k);
  mlxrt_matmul(MLXRT_DTYPE_FLOAT32, MLXRT_DTYPE_FLOAT32,
               MLXRT_MATMUL_TRANSPOSE_B, S.batch, S.m, S.n, S.k, a, S.k,
               S.m * S.k, b, S.k, 0, reinterpret_cast<intptr_t>(args[1]), S.n,
               S.m * S.n);
}

/// C0 = A @ B0^T and C1 = A @ B1^T (3 x 5 each, k = 4) as one product over
/// pointer arrays, as mlxc groups projections of one input: In holds A, B0
/// and B1, Out C0 then C1. BadPointer replaces B1 by an address outside
/// the device's memory.
bool BadPointer = false;

void sharedOperandEntry(void **args) {
  mlxrt_graph_capturable();
  ++Calls;
  float *in = static_cast<float *>(args[0]);
  float *out = static_cast<float *>(args[1]);
  auto at = [](const float *p) { return reinterpret_cast<int64_t>(p); };
  int64_t a[2] = {at(in), at(in)};
  int64_t b[2] = {at(in + 12), BadPointer ? int64_t(4096) : at(in + 32)};
  int64_t c[2] = {at(out), at(out + 15)};
  mlxrt_matmul(MLXRT_DTYPE_FLOAT32, MLXRT_DTYPE_FLOAT32,
               MLXRT_MATMUL_TRANSPOSE_B | MLXRT_MATMUL_POINTER_ARRAYS, 2, 3, 5,
               4, reinterpret_cast<int64_t>(a), 4, 0,
               reinterpret_cast<int64_t>(b), 4, 0, reinterpret_cast<int64_t>(c),
               5, 0);
}

class FakeCuda : public ::testing::TestWithParam<bool> {
protected:
  void SetUp() override {
    for (const char *name :
         {"launches", "syncs", "captured", "graph_launches", "graph_updates",
          "update_failures", "capture_errors", "heuristics", "handles",
          "products", "fail_instantiate", "fail_update", "unsupported_m",
          "no_pointer_arrays", "shared_opt_ins", "static_shared"})
      F.set(name, 0);
    BadPointer = false;
    F.set("cc_major", 9);
    F.set("cc_minor", 0);
    // Work on the stream waits until a synchronization reaches it, as on a
    // GPU that is busy: a host access that does not wait sees old bytes.
    F.set("deferred", 1);
    Calls = 0;
    Block = 256;
    SharedBytes = 0;
    S = ProductShape();
    open();
    Module = mgpuModuleLoadJIT(const_cast<char *>("fake PTX"), 3);
  }
  void open() {
    if (GetParam())
      setenv("MLXRT_NO_UNIFIED", "1", 1);
    mlxrt_error err;
    ASSERT_EQ(envDeviceOpen("cuda", &Dev, &err), MLXRT_OK) << err.message;
    unsetenv("MLXRT_NO_UNIFIED");
    ASSERT_EQ(mlxrt_device_alloc(Dev, N * sizeof(float), &In, &err), MLXRT_OK);
    ASSERT_EQ(mlxrt_device_alloc(Dev, N * sizeof(float), &Out, &err), MLXRT_OK);
  }
  void close() {
    mlxrt_device_free(Dev, In);
    mlxrt_device_free(Dev, Out);
    mlxrt_device_close(Dev);
    Dev = nullptr;
  }
  void TearDown() override {
    if (Dev)
      close();
    mgpuModuleUnload(Module);
    // Everything the runtime allocated is freed: buffers, graph memory,
    // cuBLASLt's workspace, and every graph (spares too).
    EXPECT_EQ(F.get("live_allocs"), 0);
    EXPECT_EQ(F.get("live_graphs"), 0);
  }
  /// Runs `entry` on `in` and `out` (In and Out when null).
  mlxrt_status run(mlxrt_entry_fn entry, void *in = nullptr,
                   void *out = nullptr) {
    void *args[] = {in ? in : In, out ? out : Out};
    Err.message[0] = '\0';
    return mlxrt_device_run(Dev, entry, args, 1, 1, nullptr, &Err);
  }
  float *in() { return static_cast<float *>(In); }
  float *out() { return static_cast<float *>(Out); }
  void setInput(float offset) {
    for (unsigned i = 0; i < N; ++i)
      in()[i] = float(i) - 7.5f + offset;
    std::memset(Out, 0, N * sizeof(float));
  }
  /// `out` (Out when null) holds `factor` times setInput(offset)'s input.
  void expectTimes(float factor, float offset, const void *out = nullptr) {
    const float *values = static_cast<const float *>(out ? out : Out);
    for (unsigned i = 0; i < N; ++i)
      ASSERT_EQ(values[i], factor * (float(i) - 7.5f + offset)) << "at " << i;
  }
  mlxrt_device *Dev = nullptr;
  void *In = nullptr, *Out = nullptr;
  mlxrt_error Err;
};

TEST_P(FakeCuda, SecondRunCapturedThenReplayed) {
  for (int r = 0; r < 4; ++r) {
    setInput(float(r));
    ASSERT_EQ(run(programEntry), MLXRT_OK)
        << "run " << r << ": " << Err.message;
    expectTimes(6, float(r));
  }
  // Run 1 direct, run 2 captured (and launched), runs 3 and 4 replayed.
  EXPECT_EQ(Calls, 2);
  EXPECT_EQ(F.get("graph_launches"), 3);
  EXPECT_EQ(F.get("capture_errors"), 0);
  EXPECT_EQ(F.get("launches"), 2 + 3 * 2);
  // Two launches captured; the constant was not (it is uploaded once).
  EXPECT_EQ(F.get("captured"), 2);
}

TEST_P(FakeCuda, FreeingAnotherBufferKeepsTheGraph) {
  setInput(0);
  for (int r = 0; r < 2; ++r)
    ASSERT_EQ(run(programEntry), MLXRT_OK) << Err.message;
  EXPECT_EQ(F.get("graph_launches"), 1);
  void *other;
  mlxrt_error err;
  ASSERT_EQ(mlxrt_device_alloc(Dev, 64, &other, &err), MLXRT_OK);
  mlxrt_device_free(Dev, other);
  ASSERT_EQ(run(programEntry), MLXRT_OK) << Err.message;
  expectTimes(6, 0);
  EXPECT_EQ(Calls, 2); // Replayed, not run again.
  EXPECT_EQ(F.get("graph_launches"), 2);
}

// Programs run in turn keep their graphs (models called in turn, a state
// donated from call to call); freeing a buffer a graph runs on forgets it.
TEST_P(FakeCuda, OtherProgramsKeepTheirGraphsUntilABufferGoes) {
  setInput(0);
  ASSERT_EQ(run(programEntry), MLXRT_OK) << Err.message;
  ASSERT_EQ(run(programEntry), MLXRT_OK) << Err.message;
  ASSERT_EQ(run(uncapturableEntry), MLXRT_OK) << Err.message;
  expectTimes(2, 0);
  ASSERT_EQ(run(uncapturableEntry), MLXRT_OK) << Err.message;
  ASSERT_EQ(run(uncapturableEntry), MLXRT_OK) << Err.message;
  EXPECT_EQ(Calls, 5);
  EXPECT_EQ(F.get("graph_launches"), 1);
  setInput(2);
  ASSERT_EQ(run(programEntry), MLXRT_OK) << Err.message;
  ASSERT_EQ(run(programEntry), MLXRT_OK) << Err.message;
  ASSERT_EQ(run(programEntry), MLXRT_OK) << Err.message;
  expectTimes(6, 2);
  EXPECT_EQ(Calls, 5); // Replayed from its cached graph.
  EXPECT_EQ(F.get("graph_launches"), 4);
  // A new output buffer: the graph wrote the old one. The new buffers are
  // captured at once (the program ran before).
  mlxrt_device_free(Dev, Out);
  mlxrt_error err;
  ASSERT_EQ(mlxrt_device_alloc(Dev, N * sizeof(float), &Out, &err), MLXRT_OK);
  setInput(1);
  ASSERT_EQ(run(programEntry), MLXRT_OK) << Err.message;
  expectTimes(6, 1);
  EXPECT_EQ(Calls, 6);
  EXPECT_EQ(F.get("graph_launches"), 5);
}

// Two sets of buffers in turn (a donated state swaps them each call): each
// is captured once and replayed.
TEST_P(FakeCuda, BuffersInTurnReplayTheirGraphs) {
  void *other;
  mlxrt_error err;
  ASSERT_EQ(mlxrt_device_alloc(Dev, N * sizeof(float), &other, &err), MLXRT_OK);
  setInput(0);
  for (int r = 0; r < 6; ++r) {
    if (r % 2 == 0)
      setInput(float(r));
    ASSERT_EQ(run(programEntry, r % 2 ? other : In, r % 2 ? In : other),
              MLXRT_OK)
        << Err.message;
  }
  // Run 0 direct, 1 (new buffers of a program that ran) and 2 captured,
  // the rest replayed.
  EXPECT_EQ(Calls, 3);
  EXPECT_EQ(F.get("graph_launches"), 5);
  // The last run read what the one before wrote: 6 * 6 * the input of run 4.
  for (unsigned i = 0; i < N; ++i)
    ASSERT_EQ(in()[i], 36 * (float(i) - 7.5f + 4)) << "at " << i;
  mlxrt_device_free(Dev, other);
}

// A program that ran on other buffers is captured on its first run on new
// ones. If that capture fails, the run is an ordinary first run: the next
// one captures.
TEST_P(FakeCuda, NewBuffersOfAWarmProgramCaptureAtOnce) {
  setInput(0);
  ASSERT_EQ(run(programEntry), MLXRT_OK) << Err.message;
  EXPECT_EQ(F.get("graph_launches"), 0);
  void *other;
  mlxrt_error err;
  ASSERT_EQ(mlxrt_device_alloc(Dev, N * sizeof(float), &other, &err), MLXRT_OK);
  ASSERT_EQ(run(programEntry, In, other), MLXRT_OK) << Err.message;
  EXPECT_EQ(Calls, 2);
  EXPECT_EQ(F.get("graph_launches"), 1);
  expectTimes(6, 0, other);

  F.set("fail_instantiate", 1);
  void *third;
  ASSERT_EQ(mlxrt_device_alloc(Dev, N * sizeof(float), &third, &err), MLXRT_OK);
  ASSERT_EQ(run(programEntry, In, third), MLXRT_OK) << Err.message;
  EXPECT_EQ(Calls, 4); // The failed capture, then the run.
  EXPECT_EQ(F.get("graph_launches"), 1);
  F.set("fail_instantiate", 0);
  for (int r = 0; r < 2; ++r)
    ASSERT_EQ(run(programEntry, In, third), MLXRT_OK) << Err.message;
  EXPECT_EQ(Calls, 5); // Captured, then replayed.
  EXPECT_EQ(F.get("graph_launches"), 3);
  expectTimes(6, 0, third);
  mlxrt_device_free(Dev, third);
  mlxrt_device_free(Dev, other);
}

// A graph whose buffers are freed is kept for its program's next capture,
// which updates it rather than instantiating another; a graph the driver
// cannot update gives way to a new one.
TEST_P(FakeCuda, FreedBuffersLeaveTheirGraphForTheNextCapture) {
  setInput(0);
  for (int r = 0; r < 2; ++r)
    ASSERT_EQ(run(programEntry), MLXRT_OK) << Err.message;
  EXPECT_EQ(F.get("graph_launches"), 1);
  for (int round = 0; round < 2; ++round) {
    F.set("fail_update", round);
    mlxrt_device_free(Dev, Out);
    mlxrt_error err;
    ASSERT_EQ(mlxrt_device_alloc(Dev, N * sizeof(float), &Out, &err), MLXRT_OK);
    setInput(float(round + 1));
    ASSERT_EQ(run(programEntry), MLXRT_OK) << Err.message;
    expectTimes(6, float(round + 1));
    EXPECT_EQ(Calls, 3 + round) << "round " << round;
    EXPECT_EQ(F.get("graph_updates"), 1) << "round " << round;
    EXPECT_EQ(F.get("graph_launches"), 2 + round) << "round " << round;
  }
  setInput(5);
  ASSERT_EQ(run(programEntry), MLXRT_OK) << Err.message;
  expectTimes(6, 5);
  EXPECT_EQ(Calls, 4);                    // Replayed.
  EXPECT_EQ(F.get("update_failures"), 1); // The one fail_update forced.
}

// A capture of another shape than the spare graph (other host code for
// other buffers) is instantiated: no update is tried.
TEST_P(FakeCuda, SpareGraphsOfAnotherShapeAreNotUpdated) {
  setInput(0);
  for (int r = 0; r < 2; ++r)
    ASSERT_EQ(run(variableEntry), MLXRT_OK) << Err.message;
  mlxrt_device_free(Dev, Out);
  mlxrt_error err;
  ASSERT_EQ(mlxrt_device_alloc(Dev, N * sizeof(float), &Out, &err), MLXRT_OK);
  CopyFirst = true;
  setInput(1);
  ASSERT_EQ(run(variableEntry), MLXRT_OK) << Err.message;
  CopyFirst = false;
  expectTimes(6, 1);
  EXPECT_EQ(Calls, 3);
  EXPECT_EQ(F.get("graph_launches"), 2);
  EXPECT_EQ(F.get("graph_updates"), 0);
  EXPECT_EQ(F.get("update_failures"), 0);
}

TEST_P(FakeCuda, GraphsOffByEnvironment) {
  // Read when the device opens (mlxrt_device_open; the instance API takes
  // no_cuda_graphs instead), not later.
  close();
  setenv("MLXRT_NO_GRAPH", "1", 1);
  open();
  unsetenv("MLXRT_NO_GRAPH");
  setInput(0);
  for (int r = 0; r < 3; ++r)
    ASSERT_EQ(run(programEntry), MLXRT_OK) << Err.message;
  expectTimes(6, 0);
  EXPECT_EQ(Calls, 3);
  EXPECT_EQ(F.get("graph_launches"), 0);
  EXPECT_EQ(F.get("captured"), 0);
  // None of the program's two per-launch synchronizations happen: only
  // the run's at its end and, in unified mode, the one after the output's
  // prefetch to the host.
  EXPECT_EQ(F.get("syncs"), 3 * (GetParam() ? 1 : 2));
}

TEST_P(FakeCuda, OtherProgramsSynchronizeAfterEachLaunch) {
  setInput(0);
  ASSERT_EQ(run(uncapturableEntry), MLXRT_OK) << Err.message;
  ASSERT_EQ(run(uncapturableEntry), MLXRT_OK) << Err.message;
  expectTimes(2, 0);
  EXPECT_EQ(F.get("graph_launches"), 0);
  // One after the launch, one at the end of the run.
  EXPECT_EQ(F.get("syncs"), 2 * 2);
}

TEST_P(FakeCuda, FailedCaptureRunsUncapturedFromThenOn) {
  F.set("fail_instantiate", 1);
  for (int r = 0; r < 3; ++r) {
    setInput(float(r));
    ASSERT_EQ(run(programEntry), MLXRT_OK) << Err.message;
    expectTimes(6, float(r));
  }
  // Run 2 captured, failed to instantiate and ran again; run 3 directly.
  EXPECT_EQ(Calls, 4);
  EXPECT_EQ(F.get("graph_launches"), 0);
  EXPECT_EQ(F.get("launches"), 3 * 2);
}

TEST_P(FakeCuda, KernelsOptInToMoreSharedMemoryOnce) {
  // 64 KB: each of the two kernels opts in at its first launch; its later
  // launches, the capture and the graph's replays need nothing more.
  SharedBytes = 64 << 10;
  for (int r = 0; r < 4; ++r) {
    setInput(float(r));
    ASSERT_EQ(run(programEntry), MLXRT_OK) << Err.message;
    expectTimes(6, float(r));
  }
  EXPECT_EQ(F.get("shared_opt_ins"), 2);
  EXPECT_GE(F.get("graph_launches"), 1);
}

TEST_P(FakeCuda, SharedMemoryUpTo48KBNeedsNoOptIn) {
  SharedBytes = 48 << 10;
  setInput(1);
  ASSERT_EQ(run(programEntry), MLXRT_OK) << Err.message;
  expectTimes(6, 1);
  EXPECT_EQ(F.get("shared_opt_ins"), 0);
}

TEST_P(FakeCuda, StaticSharedMemoryCountsTowardThe48KB) {
  // 48 KB of dynamic shared memory fits alone, not beside 1 KB of static
  // shared memory: each kernel opts in (the launch failed with
  // CUDA_ERROR_INVALID_VALUE before).
  F.set("static_shared", 1024);
  SharedBytes = 48 << 10;
  setInput(1);
  ASSERT_EQ(run(programEntry), MLXRT_OK) << Err.message;
  expectTimes(6, 1);
  EXPECT_EQ(F.get("shared_opt_ins"), 2);
}

TEST_P(FakeCuda, MoreSharedMemoryThanTheDeviceHasIsNamed) {
  SharedBytes = 300 << 10;
  setInput(1);
  EXPECT_EQ(run(programEntry), MLXRT_ERROR_DEVICE);
  EXPECT_TRUE(contains(Err.message,
                       "cuFuncSetAttribute of kernel 'scale2' "
                       "for 307200 bytes of dynamic shared memory"))
      << Err.message;
  EXPECT_EQ(F.get("launches"), 0);
}

TEST_P(FakeCuda, ErrorDuringCaptureIsTheProgramsError) {
  setInput(0);
  ASSERT_EQ(run(programEntry), MLXRT_OK) << Err.message;
  Block = 4096;
  EXPECT_EQ(run(programEntry), MLXRT_ERROR_DEVICE);
  EXPECT_TRUE(contains(Err.message, "cuLaunchKernel of kernel 'scale2' (grid "
                                    "1 x 1 x 1, block 4096 x 1 x 1"))
      << Err.message;
  EXPECT_EQ(Calls, 3); // The capture, then the run that reported it.
  Block = 256;
  setInput(2);
  for (int r = 0; r < 3; ++r)
    ASSERT_EQ(run(programEntry), MLXRT_OK) << Err.message;
  expectTimes(6, 2);
  // The failure dropped the graph; the program ran before, so the next run
  // captures a new one.
  EXPECT_EQ(Calls, 4);
  EXPECT_EQ(F.get("graph_launches"), 3);
}

TEST_P(FakeCuda, ProductsThroughCublasLt) {
  // A = 1, 2, ...; B = small integers; exact in float32.
  int64_t aCount = S.batch * S.m * S.k;
  for (int64_t i = 0; i < aCount + S.n * S.k; ++i)
    in()[i] = float(int(i % 9) - 4);
  std::vector<float> want(S.batch * S.m * S.n);
  for (int64_t b = 0; b < S.batch; ++b)
    for (int64_t i = 0; i < S.m; ++i)
      for (int64_t j = 0; j < S.n; ++j) {
        float sum = 0;
        for (int64_t l = 0; l < S.k; ++l)
          sum += in()[b * S.m * S.k + i * S.k + l] * in()[aCount + j * S.k + l];
        want[(b * S.m + i) * S.n + j] = sum;
      }
  for (int r = 0; r < 3; ++r) {
    std::memset(Out, 0, N * sizeof(float));
    ASSERT_EQ(run(matmulEntry), MLXRT_OK) << Err.message;
    EXPECT_EQ(std::vector<float>(out(), out() + want.size()), want)
        << "run " << r;
  }
  EXPECT_EQ(F.get("handles"), 1);
  // cuBLASLt's set-up query (a small product, when the handle is made),
  // then one plan, made on the first run.
  EXPECT_EQ(F.get("heuristics"), 2);
  EXPECT_EQ(F.get("products"), 3);
  EXPECT_EQ(F.get("graph_launches"), 2);
  EXPECT_EQ(Calls, 2);
  // Another shape is another plan. (The same program on the same buffers
  // would replay its graph: new buffers start over.)
  mlxrt_device_free(Dev, Out);
  mlxrt_error err;
  ASSERT_EQ(mlxrt_device_alloc(Dev, N * sizeof(float), &Out, &err), MLXRT_OK);
  S.m = 2;
  ASSERT_EQ(run(matmulEntry), MLXRT_OK) << Err.message;
  EXPECT_EQ(F.get("heuristics"), 3);
}

TEST_P(FakeCuda, UnsupportedProductNamesTheCall) {
  F.set("unsupported_m", 5); // cuBLASLt's m is our n.
  EXPECT_EQ(run(matmulEntry), MLXRT_ERROR_DEVICE);
  EXPECT_EQ(std::string(Err.message),
            "cublasLtMatmulAlgoGetHeuristic for the product 2 x (3 x 5 x 4) "
            "(float32 -> float32) failed on cuda:0 (Fake GPU): "
            "CUBLAS_STATUS_NOT_SUPPORTED (fake status)");
}

/// The products of sharedOperandEntry, computed here: small integers, exact
/// in float32.
std::vector<float> sharedOperandProducts(const float *in) {
  std::vector<float> want(30);
  for (int p = 0; p < 2; ++p)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 5; ++j) {
        float sum = 0;
        for (int l = 0; l < 4; ++l)
          sum += in[i * 4 + l] * in[(p ? 32 : 12) + j * 4 + l];
        want[p * 15 + i * 5 + j] = sum;
      }
  return want;
}

TEST_P(FakeCuda, SharedOperandProductsThroughPointerArrays) {
  for (int noPointerArrays = 0; noPointerArrays < 2; ++noPointerArrays) {
    if (noPointerArrays) { // A cuBLASLt before 12.9: one product each.
      close();
      F.set("no_pointer_arrays", 1);
      open();
    }
    long products = F.get("products");
    for (int r = 0; r < 3; ++r) {
      for (unsigned i = 0; i < N; ++i)
        in()[i] = float(int((i + r) % 7) - 3);
      std::memset(Out, 0, N * sizeof(float));
      ASSERT_EQ(run(sharedOperandEntry), MLXRT_OK) << Err.message;
      // The arrays are read when the product runs: a direct run, the run
      // that captures and the graph's replay.
      EXPECT_EQ(std::vector<float>(out(), out() + 30),
                sharedOperandProducts(in()))
          << "run " << r << (noPointerArrays ? ", one product each" : "");
    }
    EXPECT_EQ(F.get("products") - products, noPointerArrays ? 6 : 3);
    EXPECT_EQ(Calls, 2 * (noPointerArrays + 1));
  }
}

TEST_P(FakeCuda, SharedOperandProductRejectsAForeignPointer) {
  BadPointer = true;
  EXPECT_EQ(run(sharedOperandEntry), MLXRT_ERROR_DEVICE);
  EXPECT_NE(
      std::string(Err.message)
          .find("mlxrt_matmul: operand B of the product 2 x (3 x 5 x 4) "
                "(float32 -> float32) [0x1000, +80 bytes) is not memory of"),
      std::string::npos)
      << Err.message;
  EXPECT_EQ(F.get("products"), 0);
}

std::string image(const std::vector<std::pair<uint32_t, std::string>> &parts,
                  uint32_t cubinSm) {
  std::string s = "MLXCIMG1";
  auto put32 = [&](uint32_t v) {
    for (int i = 0; i < 4; ++i)
      s.push_back(char((v >> (8 * i)) & 0xff));
  };
  put32(uint32_t(parts.size()));
  put32(0);
  uint64_t offset = 16 + 32 * parts.size();
  for (auto &[kind, data] : parts) {
    put32(kind);
    put32(kind ? cubinSm : 70);
    put32(0);
    put32(0);
    put32(uint32_t(offset));
    put32(0);
    put32(uint32_t(data.size()));
    put32(0);
    offset += data.size();
  }
  for (auto &part : parts)
    s += part.second;
  return s;
}

TEST_P(FakeCuda, ModuleImageForTheDevice) {
  const std::string ptx("PTX for sm_70...\0", 17);
  std::string blob = image({{0, ptx}, {1, "CUBIN sm_90 ELF."}}, 90);
  void *module = mgpuModuleLoad(blob.data(), blob.size());
  mgpuModuleUnload(Module);
  Module = module;
  setInput(0);
  ASSERT_EQ(run(uncapturableEntry), MLXRT_OK) << Err.message;
  expectTimes(2, 0);
  EXPECT_EQ(std::string(F.lastImage(), 11), "CUBIN sm_90");
  // An sm_86 device gets the PTX.
  close();
  F.set("cc_major", 8);
  F.set("cc_minor", 6);
  open();
  ASSERT_EQ(run(uncapturableEntry), MLXRT_OK) << Err.message;
  EXPECT_EQ(std::string(F.lastImage(), 11), "PTX for sm_");
  // A cubin the driver rejects: the PTX again.
  close();
  F.set("cc_major", 9);
  F.set("cc_minor", 0);
  std::string bad = image({{0, ptx}, {1, "BADCUBIN sm_90.."}}, 90);
  mgpuModuleUnload(Module);
  Module = mgpuModuleLoad(bad.data(), bad.size());
  open();
  ASSERT_EQ(run(uncapturableEntry), MLXRT_OK) << Err.message;
  EXPECT_EQ(std::string(F.lastImage(), 11), "PTX for sm_");
}

TEST_P(FakeCuda, GridDependentKernelsLaunchWithProgrammaticSerialization) {
  // The module's list names scale2 (and a kernel it does not have): scale2
  // goes through cuLaunchKernelEx with the attribute, scale_by as before,
  // directly and when captured.
  const char names[] = "scale2\0other\0";
  F.setDependentKernels(names, sizeof(names));
  close();
  mgpuModuleUnload(Module);
  Module = mgpuModuleLoadJIT(const_cast<char *>("fake PTX"), 3);
  open();
  for (int r = 0; r < 3; ++r) {
    setInput(float(r));
    ASSERT_EQ(run(programEntry), MLXRT_OK) << Err.message;
    expectTimes(6, float(r));
  }
  // Run 1 directly, run 2 captured (then replayed), run 3 replayed.
  EXPECT_EQ(F.get("dependent_launches"), 2);
  EXPECT_EQ(F.get("graph_launches"), 2);
  // An empty list (the sm_70 PTX's) or one without its final NUL: every
  // kernel waits for the one before.
  for (const std::string &list :
       {std::string(1, '\0'), std::string("scale2")}) {
    F.set("dependent_launches", 0);
    F.setDependentKernels(list.data(), list.size());
    close();
    mgpuModuleUnload(Module);
    Module = mgpuModuleLoadJIT(const_cast<char *>("fake PTX"), 3);
    open();
    setInput(0);
    ASSERT_EQ(run(uncapturableEntry), MLXRT_OK) << Err.message;
    expectTimes(2, 0);
    EXPECT_EQ(F.get("dependent_launches"), 0);
  }
  F.setDependentKernels(nullptr, 0);
}

/// The CPU variant of programEntry's model.
void sixCpu(void **args) {
  for (unsigned i = 0; i < N; ++i)
    static_cast<float *>(args[1])[i] = 6 * static_cast<float *>(args[0])[i];
}

const mlxrt_model_abi SixModel = {MLXRT_ABI_VERSION,
                                  0,
                                  "six",
                                  "entry six\n"
                                  "input x float32 64\n"
                                  "output y float32 64\n",
                                  sixCpu,
                                  programEntry};

/// Whether the last run of doubleEntry had one buffer for input and output.
bool LastShared;

/// y = 2 * x, elementwise (safe in place).
void doubleEntry(void **args) {
  mlxrt_graph_capturable();
  ++Calls;
  LastShared = args[0] == args[1];
  launch("scale2", {args[0], args[1]});
}

void doubleCpu(void **args) {
  LastShared = args[0] == args[1];
  for (unsigned i = 0; i < N; ++i)
    static_cast<float *>(args[1])[i] = 2 * static_cast<float *>(args[0])[i];
}

/// y = 2 * x with both streamed from host memory, as mlx-memory-placement
/// places the input and output of a lone one-pass kernel.
void streamedEntry(void **args) {
  mlxrt_graph_capturable();
  ++Calls;
  mlxrt_prefetch(reinterpret_cast<intptr_t>(args[0]), N * sizeof(float),
                 MLXRT_PLACE_STREAM);
  mlxrt_prefetch(reinterpret_cast<intptr_t>(args[1]), N * sizeof(float),
                 MLXRT_PLACE_STREAM);
  launch("scale2", {args[0], args[1]});
}

const mlxrt_model_abi StreamedModel = {MLXRT_ABI_VERSION,
                                       0,
                                       "streamed",
                                       "entry streamed\n"
                                       "input x float32 64\n"
                                       "output y float32 64\n",
                                       doubleCpu,
                                       streamedEntry};

/// Its signature lets the CUDA variant write y into a donated x.
const mlxrt_model_abi InPlaceModel = {MLXRT_ABI_VERSION,
                                      0,
                                      "double",
                                      "entry double\n"
                                      "input x float32 64\n"
                                      "output y float32 64\n"
                                      "cuda-in-place y x\n",
                                      doubleCpu,
                                      doubleEntry};

struct Transfers {
  int toDevice = 0, toHost = 0;
  size_t bytes = 0;
};

void countTransfers(void *user, const mlxrt_trace_event *event) {
  auto *t = static_cast<Transfers *>(user);
  if (event->kind == MLXRT_TRACE_TO_DEVICE)
    ++t->toDevice;
  if (event->kind == MLXRT_TRACE_TO_HOST)
    ++t->toHost;
  if (event->kind == MLXRT_TRACE_TO_DEVICE ||
      event->kind == MLXRT_TRACE_TO_HOST)
    t->bytes += event->bytes;
}

/// The instance API's options on the fake: CUDA, copy mode or unified memory
/// (the test's parameter), and the transfers counted into `t` when given.
mlxrt_instance_options fakeCudaOptions(bool copyMode, Transfers *t = nullptr) {
  mlxrt_instance_options opts;
  mlxrt_instance_options_init(&opts);
  opts.device = "cuda";
  opts.memory = copyMode ? MLXRT_MEMORY_COPY : MLXRT_MEMORY_AUTO;
  if (t) {
    opts.trace = countTransfers;
    opts.trace_user = t;
  }
  return opts;
}

/// A float32 array of the N values `xs` on `inst`.
void vectorOf(mlxrt_instance *inst, const std::vector<float> &xs,
              mlxrt_array **out) {
  int64_t n = static_cast<int64_t>(xs.size());
  mlxrt_error err;
  ASSERT_EQ(mlxrt_array_create(inst, MLXRT_DTYPE_FLOAT32, 1, &n, xs.data(),
                               xs.size() * sizeof(float), out, &err),
            MLXRT_OK)
      << err.message;
}

// The instance API keeps arrays where they are: an input the host did not
// write since the last call is not copied again (copy mode; unified memory
// places it through the program's prefetches), an output stays on the
// device until read, and an output goes into the next call as it is.
TEST_P(FakeCuda, ApiMovesOnlyWhatChanged) {
  Transfers t;
  mlxrt_instance_options opts = fakeCudaOptions(GetParam(), &t);
  mlxrt_instance *inst;
  mlxrt_model *m;
  mlxrt_error err;
  ASSERT_EQ(mlxrt_instance_create(&opts, &inst, &err), MLXRT_OK) << err.message;
  ASSERT_EQ(mlxrt_model_open(inst, &SixModel, &m, &err), MLXRT_OK);
  std::vector<float> xs(N), ys(N);
  for (unsigned i = 0; i < N; ++i)
    xs[i] = float(i) - 7.5f;
  mlxrt_array *x, *y = nullptr;
  ASSERT_NO_FATAL_FAILURE(vectorOf(inst, xs, &x));
  int copies = GetParam() ? 1 : 0;
  ASSERT_EQ(mlxrt_model_call(m, &x, 1, &y, 1, &err), MLXRT_OK) << err.message;
  EXPECT_EQ(t.toDevice, copies);
  EXPECT_EQ(t.toHost, 0); // Not read yet.
  for (int read = 0; read < 2; ++read) {
    ASSERT_EQ(mlxrt_array_read(y, ys.data(), N * sizeof(float), &err), MLXRT_OK)
        << err.message;
    EXPECT_EQ(ys[9], 6 * xs[9]);
    // Copy mode: its host copy is made current once, however often it is
    // read. Unified mode: a small array is copied out at each read (and so
    // stays on the device).
    EXPECT_EQ(t.toHost, GetParam() ? 1 : read + 1);
  }
  // The same x again (captured as a CUDA graph now): nothing copied in.
  mlxrt_array_release(y);
  y = nullptr;
  ASSERT_EQ(mlxrt_model_call(m, &x, 1, &y, 1, &err), MLXRT_OK) << err.message;
  EXPECT_EQ(t.toDevice, copies);
  // Written by the host: copied once.
  xs[9] = 100;
  ASSERT_EQ(mlxrt_array_write(x, xs.data(), N * sizeof(float), &err), MLXRT_OK);
  mlxrt_array_release(y);
  y = nullptr;
  ASSERT_EQ(mlxrt_model_call(m, &x, 1, &y, 1, &err), MLXRT_OK) << err.message;
  EXPECT_EQ(t.toDevice, 2 * copies);
  // An output fed back as an input stays on the device in between.
  mlxrt_array *z = nullptr;
  int toHost = t.toHost;
  ASSERT_EQ(mlxrt_model_call(m, &y, 1, &z, 1, &err), MLXRT_OK) << err.message;
  EXPECT_EQ(t.toDevice, 2 * copies);
  EXPECT_EQ(t.toHost, toHost);
  ASSERT_EQ(mlxrt_array_read(z, ys.data(), N * sizeof(float), &err), MLXRT_OK);
  EXPECT_EQ(ys[9], 3600);
  EXPECT_EQ(ys[0], 36 * xs[0]);
  EXPECT_EQ(t.toHost, toHost + 1);
  // A donated array (x in, x out) stays on the device from call to call;
  // its two buffers each get a graph, replayed after the first calls.
  int calls = 0;
  for (int call = 0; call < 6; ++call) {
    if (call == 4)
      calls = Calls;
    ASSERT_EQ(mlxrt_model_call(m, &x, 1, &x, 1, &err), MLXRT_OK) << err.message;
  }
  EXPECT_EQ(Calls, calls); // The last two calls replayed their graphs.
  EXPECT_EQ(t.toDevice, 2 * copies);
  ASSERT_EQ(mlxrt_array_read(x, ys.data(), N * sizeof(float), &err), MLXRT_OK);
  EXPECT_EQ(ys[9], 100 * 6 * 6 * 6 * 6 * 6 * 6);
  for (mlxrt_array *a : {x, y, z})
    mlxrt_array_release(a);
  mlxrt_model_close(m);
  mlxrt_instance_destroy(inst);
}

// With unified memory, arrays the plan streams from host memory are
// streamed while the host writes or reads them between calls; called again
// on arrays the host left alone, the program uses them on the device: each
// moves there once (the input's pages, the output without its contents).
TEST_P(FakeCuda, ApiKeepsArraysUsedAgainOnTheDevice) {
  bool copyMode = GetParam();
  for (bool graphs : {true, false}) {
    SCOPED_TRACE(graphs ? "CUDA graphs" : "no CUDA graphs");
    Transfers t;
    mlxrt_instance_options opts = fakeCudaOptions(copyMode, &t);
    opts.no_cuda_graphs = !graphs;
    mlxrt_instance *inst;
    mlxrt_model *m;
    mlxrt_error err;
    ASSERT_EQ(mlxrt_instance_create(&opts, &inst, &err), MLXRT_OK)
        << err.message;
    ASSERT_EQ(mlxrt_model_open(inst, &StreamedModel, &m, &err), MLXRT_OK);
    std::vector<float> xs(N, 1.5f), ys(N);
    mlxrt_array *x, *y = nullptr;
    ASSERT_NO_FATAL_FAILURE(vectorOf(inst, xs, &x));
    F.set("advise_host", 0);
    F.set("advise_unset", 0);
    if (copyMode) { // Nothing is streamed: x is copied in once.
      for (int call = 0; call < 3; ++call)
        ASSERT_EQ(mlxrt_model_call(m, &x, 1, &y, 1, &err), MLXRT_OK)
            << err.message;
      ASSERT_EQ(mlxrt_array_read(y, ys.data(), N * sizeof(float), &err),
                MLXRT_OK);
      EXPECT_EQ(ys[0], 3);
      EXPECT_EQ(F.get("advise_host") + F.get("advise_unset"), 0);
      EXPECT_EQ(t.toDevice, 1);
      mlxrt_array_release(x);
      mlxrt_array_release(y);
      mlxrt_model_close(m);
      mlxrt_instance_destroy(inst);
      continue;
    }
    // The first call streams both.
    ASSERT_EQ(mlxrt_model_call(m, &x, 1, &y, 1, &err), MLXRT_OK) << err.message;
    EXPECT_EQ(F.get("advise_host"), 2);
    EXPECT_EQ(F.get("advise_unset"), 0);
    // Called again, untouched: both move to the device, x's pages traced.
    for (int call = 0; call < 3; ++call)
      ASSERT_EQ(mlxrt_model_call(m, &x, 1, &y, 1, &err), MLXRT_OK)
          << err.message;
    EXPECT_EQ(F.get("advise_unset"), 2);
    EXPECT_EQ(F.get("advise_host"), 2);
    EXPECT_EQ(t.toDevice, 1);
    // The host writes x: the next call streams it again (without graphs,
    // the plan's placement runs; a replayed graph migrates it once), and
    // reads it from where it was written.
    xs[5] = 4;
    ASSERT_EQ(mlxrt_array_write(x, xs.data(), N * sizeof(float), &err),
              MLXRT_OK);
    ASSERT_EQ(mlxrt_model_call(m, &x, 1, &y, 1, &err), MLXRT_OK) << err.message;
    EXPECT_EQ(F.get("advise_host"), graphs ? 2 : 3);
    ASSERT_EQ(mlxrt_array_read(y, ys.data(), N * sizeof(float), &err),
              MLXRT_OK);
    EXPECT_EQ(ys[5], 8);
    EXPECT_EQ(ys[0], 3);
    // Left alone again, x is kept on the device again.
    ASSERT_EQ(mlxrt_model_call(m, &x, 1, &y, 1, &err), MLXRT_OK) << err.message;
    EXPECT_EQ(F.get("advise_unset"), graphs ? 2 : 3);
    mlxrt_array_release(x);
    mlxrt_array_release(y);
    mlxrt_model_close(m);
    mlxrt_instance_destroy(inst);
  }
}

// A decode loop: the state donated to every call and a small array read
// after each. Once the graph replays, nothing moves: no copy either way in
// copy mode but the reads, and with unified memory no prefetch (the read
// copies the bytes out; the state stays marked on the device).
TEST_P(FakeCuda, ApiDecodeLoopMovesOnlyTheRead) {
  Transfers t;
  mlxrt_instance_options opts = fakeCudaOptions(GetParam(), &t);
  mlxrt_instance *inst;
  mlxrt_model *m;
  mlxrt_error err;
  ASSERT_EQ(mlxrt_instance_create(&opts, &inst, &err), MLXRT_OK) << err.message;
  ASSERT_EQ(mlxrt_model_open(inst, &SixModel, &m, &err), MLXRT_OK);
  std::vector<float> xs(N, 1.0f), ys(N);
  mlxrt_array *x;
  ASSERT_NO_FATAL_FAILURE(vectorOf(inst, xs, &x));
  long prefetches = 0;
  int toDevice = 0, toHost = 0;
  for (int call = 0; call < 6; ++call) {
    if (call == 3) {
      prefetches = F.get("prefetches");
      toDevice = t.toDevice;
      toHost = t.toHost;
    }
    ASSERT_EQ(mlxrt_model_call(m, &x, 1, &x, 1, &err), MLXRT_OK) << err.message;
    ASSERT_EQ(mlxrt_array_read(x, ys.data(), N * sizeof(float), &err),
              MLXRT_OK);
    float want = 1;
    for (int k = 0; k <= call; ++k)
      want *= 6;
    EXPECT_EQ(ys[3], want) << "call " << call;
  }
  EXPECT_EQ(F.get("prefetches"), prefetches);
  EXPECT_EQ(t.toDevice, toDevice);
  EXPECT_EQ(t.toHost, toHost + 3); // the reads
  mlxrt_array_release(x);
  mlxrt_model_close(m);
  mlxrt_instance_destroy(inst);
}

void countPrograms(void *user, const mlxrt_trace_event *event) {
  if (event->kind == MLXRT_TRACE_PROGRAM)
    ++*static_cast<int *>(user);
}

/// fakeCudaOptions whose trace counts the programs run into *programs.
mlxrt_instance_options countingPrograms(bool copyMode, int *programs) {
  mlxrt_instance_options opts = fakeCudaOptions(copyMode);
  opts.trace = countPrograms;
  opts.trace_user = programs;
  return opts;
}

// A call that replays its graph returns once enqueued. A decode loop that
// enqueues step n + 1 before it reads the token of step n (the steps write
// two arrays in turn) gets that token while step n + 1 still runs: the
// read waits for the call that wrote the array, not for the ones after.
TEST_P(FakeCuda, ApiReadWaitsOnlyForTheCallThatWrote) {
  int programs = 0;
  mlxrt_instance_options opts = countingPrograms(GetParam(), &programs);
  mlxrt_instance *inst;
  mlxrt_model *m;
  mlxrt_error err;
  ASSERT_EQ(mlxrt_instance_create(&opts, &inst, &err), MLXRT_OK) << err.message;
  ASSERT_EQ(mlxrt_model_open(inst, &SixModel, &m, &err), MLXRT_OK);
  std::vector<float> xs(N, 1.0f), ys(N);
  mlxrt_array *state[2];
  for (mlxrt_array *&a : state)
    ASSERT_NO_FATAL_FAILURE(vectorOf(inst, xs, &a));
  const int steps = 8;
  ASSERT_EQ(mlxrt_model_call(m, &state[0], 1, &state[1], 1, &err), MLXRT_OK);
  float want = 6;
  for (int step = 1; step <= steps; ++step) {
    mlxrt_array *in = state[step % 2], *out = state[(step + 1) % 2];
    if (step < steps) {
      ASSERT_EQ(mlxrt_model_call(m, &in, 1, &out, 1, &err), MLXRT_OK)
          << err.message;
    }
    ASSERT_EQ(mlxrt_array_read(in, ys.data(), N * sizeof(float), &err),
              MLXRT_OK)
        << err.message;
    EXPECT_EQ(ys[3], want) << "step " << step;
    want *= 6;
    // From the third pair of calls on, each replays its graph: the next
    // step is still waiting when the token is read.
    if (step >= 4 && step < steps) {
      EXPECT_GT(F.get("pending"), 0) << "step " << step;
    }
  }
  EXPECT_EQ(F.get("pending"), 0);
  ASSERT_EQ(mlxrt_instance_synchronize(inst, &err), MLXRT_OK);
  EXPECT_EQ(programs, steps); // Every call's trace, once waited for.
  for (mlxrt_array *a : state)
    mlxrt_array_release(a);
  mlxrt_model_close(m);
  mlxrt_instance_destroy(inst);
}

// The host writing an array waits for the calls that read it, and a model
// closing waits for its calls.
TEST_P(FakeCuda, ApiWriteWaitsForTheCallsThatUseTheArray) {
  mlxrt_instance_options opts = fakeCudaOptions(GetParam());
  mlxrt_instance *inst;
  mlxrt_model *m;
  mlxrt_error err;
  ASSERT_EQ(mlxrt_instance_create(&opts, &inst, &err), MLXRT_OK) << err.message;
  ASSERT_EQ(mlxrt_model_open(inst, &SixModel, &m, &err), MLXRT_OK);
  std::vector<float> xs(N, 1.0f), ys(N);
  int64_t n = N;
  mlxrt_array *x, *y;
  ASSERT_NO_FATAL_FAILURE(vectorOf(inst, xs, &x));
  ASSERT_EQ(mlxrt_array_create(inst, MLXRT_DTYPE_FLOAT32, 1, &n, nullptr, 0, &y,
                               &err),
            MLXRT_OK);
  for (int call = 0; call < 4; ++call) {
    xs.assign(N, float(call + 1));
    ASSERT_EQ(mlxrt_array_write(x, xs.data(), N * sizeof(float), &err),
              MLXRT_OK);
    ASSERT_EQ(mlxrt_model_call(m, &x, 1, &y, 1, &err), MLXRT_OK) << err.message;
  }
  EXPECT_GT(F.get("pending"), 0); // The last call replays its graph.
  xs.assign(N, 100.0f);
  ASSERT_EQ(mlxrt_array_write(x, xs.data(), N * sizeof(float), &err), MLXRT_OK);
  ASSERT_EQ(mlxrt_array_read(y, ys.data(), N * sizeof(float), &err), MLXRT_OK);
  EXPECT_EQ(ys[7], 24.0f); // 6 * 4, not 6 * 100.
  ASSERT_EQ(mlxrt_model_call(m, &x, 1, &y, 1, &err), MLXRT_OK) << err.message;
  mlxrt_model_close(m);
  EXPECT_EQ(F.get("pending"), 0);
  ASSERT_EQ(mlxrt_array_read(y, ys.data(), N * sizeof(float), &err), MLXRT_OK);
  EXPECT_EQ(ys[7], 600.0f);
  mlxrt_array_release(x);
  mlxrt_array_release(y);
  mlxrt_instance_destroy(inst);
}

// An output the signature pairs with an input (cuda-in-place) is written
// into that input when the caller donates it: one buffer for both, no
// exchange, and the CUDA graph replays on it. Given another array, or not
// donated, the program gets two buffers.
TEST_P(FakeCuda, ApiDonatedInPlaceSharesOneBuffer) {
  mlxrt_instance_options opts = fakeCudaOptions(GetParam());
  mlxrt_instance *inst;
  mlxrt_model *m;
  mlxrt_error err;
  ASSERT_EQ(mlxrt_instance_create(&opts, &inst, &err), MLXRT_OK) << err.message;
  ASSERT_EQ(mlxrt_model_open(inst, &InPlaceModel, &m, &err), MLXRT_OK)
      << err.message;
  std::vector<float> xs(N, 1.5f), ys(N);
  mlxrt_array *x, *y = nullptr;
  ASSERT_NO_FATAL_FAILURE(vectorOf(inst, xs, &x));
  for (int call = 0; call < 4; ++call) {
    ASSERT_EQ(mlxrt_model_call(m, &x, 1, &x, 1, &err), MLXRT_OK) << err.message;
    EXPECT_TRUE(LastShared) << "call " << call;
  }
  EXPECT_EQ(Calls, 2); // Then replayed as a CUDA graph on the one buffer.
  ASSERT_EQ(mlxrt_array_read(x, ys.data(), N * sizeof(float), &err), MLXRT_OK);
  EXPECT_EQ(ys[5], 1.5f * 16);
  // Not donated: two buffers, the input unchanged.
  ASSERT_EQ(mlxrt_model_call(m, &x, 1, &y, 1, &err), MLXRT_OK) << err.message;
  EXPECT_FALSE(LastShared);
  ASSERT_EQ(mlxrt_array_read(y, ys.data(), N * sizeof(float), &err), MLXRT_OK);
  EXPECT_EQ(ys[5], 1.5f * 32);
  ASSERT_EQ(mlxrt_array_read(x, ys.data(), N * sizeof(float), &err), MLXRT_OK);
  EXPECT_EQ(ys[5], 1.5f * 16);
  mlxrt_array_release(x);
  mlxrt_array_release(y);
  mlxrt_model_close(m);
  // A model without the record exchanges the donated array's storage.
  ASSERT_EQ(mlxrt_model_open(inst, &SixModel, &m, &err), MLXRT_OK);
  ASSERT_NO_FATAL_FAILURE(vectorOf(inst, xs, &x));
  ASSERT_EQ(mlxrt_model_call(m, &x, 1, &x, 1, &err), MLXRT_OK) << err.message;
  ASSERT_EQ(mlxrt_array_read(x, ys.data(), N * sizeof(float), &err), MLXRT_OK);
  EXPECT_EQ(ys[5], 1.5f * 6);
  mlxrt_array_release(x);
  mlxrt_model_close(m);
  mlxrt_instance_destroy(inst);
}

// What a model's first call would make is made when it opens: its kernel
// modules and, for a model with products, cuBLASLt; and the intermediates a
// call frees serve the next one, which allocates nothing.
TEST_P(FakeCuda, ApiPreparesAtOpenAndKeepsIntermediates) {
  mlxrt_instance_options opts = fakeCudaOptions(GetParam());
  opts.no_cuda_graphs = 1; // Every call runs the program's allocations.
  mlxrt_instance *inst;
  mlxrt_model *m;
  mlxrt_error err;
  ASSERT_EQ(mlxrt_instance_create(&opts, &inst, &err), MLXRT_OK) << err.message;
  mlxrt_model_abi withProducts = SixModel;
  withProducts.flags = MLXRT_MODEL_USES_MATMUL;
  F.set("handles", 0);
  F.set("module_loads", 0);
  ASSERT_EQ(mlxrt_model_open(inst, &withProducts, &m, &err), MLXRT_OK)
      << err.message;
  EXPECT_EQ(F.get("module_loads"), 1);
  EXPECT_EQ(std::string(F.lastImage(), 8), "fake PTX");
  EXPECT_EQ(F.get("handles"), 1);
  std::vector<float> xs(N, 1.5f), ys(N);
  mlxrt_array *x, *y = nullptr;
  ASSERT_NO_FATAL_FAILURE(vectorOf(inst, xs, &x));
  long allocations = 0;
  for (int call = 0; call < 3; ++call) {
    ASSERT_EQ(mlxrt_model_call(m, &x, 1, &y, 1, &err), MLXRT_OK) << err.message;
    if (call == 0)
      allocations = F.get("allocations");
    ASSERT_EQ(mlxrt_array_read(y, ys.data(), N * sizeof(float), &err),
              MLXRT_OK);
    EXPECT_EQ(ys[5], 9.0f);
    mlxrt_array_release(y);
    y = nullptr;
  }
  EXPECT_EQ(Calls, 3);
  EXPECT_EQ(F.get("allocations"), allocations);
  EXPECT_EQ(F.get("handles"), 1);
  EXPECT_EQ(F.get("module_loads"), 1);
  mlxrt_array_release(x);
  mlxrt_model_close(m);
  mlxrt_instance_destroy(inst);
}

/// matmulEntry's product on the host.
void matmulCpu(void **args) {
  const float *a = static_cast<const float *>(args[0]);
  const float *b = a + S.batch * S.m * S.k;
  float *c = static_cast<float *>(args[1]);
  for (int64_t p = 0; p < S.batch; ++p)
    for (int64_t i = 0; i < S.m; ++i)
      for (int64_t j = 0; j < S.n; ++j) {
        float sum = 0;
        for (int64_t l = 0; l < S.k; ++l)
          sum += a[(p * S.m + i) * S.k + l] * b[j * S.k + l];
        c[(p * S.m + i) * S.n + j] = sum;
      }
}

// A model whose GPU code only enqueues work runs once on zeros when it
// opens, untraced: its product's plan is made and its kernels loaded then,
// and the first call makes nothing. It runs again captured: the first call's
// capture updates that graph (its zeros are gone) rather than instantiating
// one. Not with no_warm_up.
TEST_P(FakeCuda, ApiWarmsUpCapturableModelsAtOpen) {
  const mlxrt_model_abi products = {MLXRT_ABI_VERSION,
                                    MLXRT_MODEL_USES_MATMUL |
                                        MLXRT_MODEL_CAPTURABLE,
                                    "products",
                                    "entry products\n"
                                    "input x float32 64\n"
                                    "output y float32 64\n",
                                    matmulCpu,
                                    matmulEntry};
  int programs = 0;
  mlxrt_instance_options opts = countingPrograms(GetParam(), &programs);
  mlxrt_instance *inst;
  mlxrt_model *m;
  mlxrt_error err;
  ASSERT_EQ(mlxrt_instance_create(&opts, &inst, &err), MLXRT_OK) << err.message;
  F.set("heuristics", 0);
  ASSERT_EQ(mlxrt_model_open(inst, &products, &m, &err), MLXRT_OK)
      << err.message;
  EXPECT_EQ(Calls, 2);
  EXPECT_EQ(F.get("products"), 2);
  EXPECT_EQ(F.get("graph_launches"), 1);
  EXPECT_EQ(F.get("heuristics"), 2); // cuBLASLt's set-up, then the plan.
  EXPECT_EQ(programs, 0);
  std::vector<float> xs(N), ys(N), want(N);
  for (unsigned i = 0; i < N; ++i)
    xs[i] = float(int(i % 9) - 4);
  void *cpuArgs[] = {xs.data(), want.data()};
  matmulCpu(cpuArgs);
  mlxrt_array *x, *y = nullptr;
  ASSERT_NO_FATAL_FAILURE(vectorOf(inst, xs, &x));
  ASSERT_EQ(mlxrt_model_call(m, &x, 1, &y, 1, &err), MLXRT_OK) << err.message;
  ASSERT_EQ(mlxrt_array_read(y, ys.data(), N * sizeof(float), &err), MLXRT_OK);
  int64_t count = S.batch * S.m * S.n;
  EXPECT_EQ(std::vector<float>(ys.begin(), ys.begin() + count),
            std::vector<float>(want.begin(), want.begin() + count));
  EXPECT_EQ(F.get("heuristics"), 2);
  EXPECT_EQ(programs, 1);
  // The first call captured its graph into the warm-up's; the second
  // replays it.
  EXPECT_EQ(Calls, 3);
  EXPECT_EQ(F.get("graph_updates"), 1);
  EXPECT_EQ(F.get("graph_launches"), 2);
  std::fill(ys.begin(), ys.end(), 0.0f);
  ASSERT_EQ(mlxrt_model_call(m, &x, 1, &y, 1, &err), MLXRT_OK) << err.message;
  ASSERT_EQ(mlxrt_array_read(y, ys.data(), N * sizeof(float), &err), MLXRT_OK);
  EXPECT_EQ(std::vector<float>(ys.begin(), ys.begin() + count),
            std::vector<float>(want.begin(), want.begin() + count));
  EXPECT_EQ(Calls, 3);
  EXPECT_EQ(F.get("graph_launches"), 3);
  mlxrt_array_release(y);
  mlxrt_array_release(x);
  EXPECT_EQ(F.get("live_graphs"), 1); // x's graph, now a spare.
  // Closing the model destroys what the device kept of it.
  mlxrt_model_close(m);
  EXPECT_EQ(F.get("live_graphs"), 0);
  mlxrt_instance_destroy(inst);

  opts.no_warm_up = 1;
  ASSERT_EQ(mlxrt_instance_create(&opts, &inst, &err), MLXRT_OK) << err.message;
  ASSERT_EQ(mlxrt_model_open(inst, &products, &m, &err), MLXRT_OK);
  EXPECT_EQ(Calls, 3);
  mlxrt_model_close(m);
  mlxrt_instance_destroy(inst);
}

INSTANTIATE_TEST_SUITE_P(Modes, FakeCuda, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool> &info) {
                           return info.param ? "CopyMode" : "Unified";
                         });

} // namespace

int main(int argc, char **argv) {
  // Before the runtime looks for a driver: the fake is the driver and
  // cuBLASLt.
  setenv("MLXRT_LIBCUDA", MLXRT_FAKE_CUDA, 1);
  setenv("MLXRT_LIBCUBLASLT", MLXRT_FAKE_CUDA, 1);
  unsetenv("MLXRT_NO_GRAPH");
  void *lib = dlopen(MLXRT_FAKE_CUDA, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    fprintf(stderr, "cannot load %s: %s\n", MLXRT_FAKE_CUDA, dlerror());
    return 1;
  }
  *reinterpret_cast<void **>(&F.get) = dlsym(lib, "fake_cuda_get");
  *reinterpret_cast<void **>(&F.set) = dlsym(lib, "fake_cuda_set");
  *reinterpret_cast<void **>(&F.registerKernel) =
      dlsym(lib, "fake_cuda_register_kernel");
  *reinterpret_cast<void **>(&F.lastImage) = dlsym(lib, "fake_cuda_last_image");
  *reinterpret_cast<void **>(&F.setDependentKernels) =
      dlsym(lib, "fake_cuda_set_dependent_kernels");
  static const size_t twoPointers[] = {sizeof(void *), sizeof(void *),
                                       sizeof(unsigned)};
  static const size_t threePointers[] = {sizeof(void *), sizeof(void *),
                                         sizeof(void *), sizeof(unsigned)};
  F.registerKernel("scale2", scale2, 3, twoPointers);
  F.registerKernel("scale_by", scaleBy, 4, threePointers);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
