//===- CudaTest.cpp - The CUDA device and the ABI of CUDA code --*- C++ -*-===//
//
// Everywhere: the driver loading failures (no libcuda, a stub, a library
// that is no driver) and the ABI functions called with no device. With a
// GPU (the tests skip without one): a hand-written PTX kernel driven through
// the same mgpu* calls the compiled code makes, in unified and in copy mode,
// and every failure the run must report.
//
//===----------------------------------------------------------------------===//

#include "TestEnv.h"
#include "TestUtil.h"

extern "C" {
#include "runtime/cuda_internal.h"
}

#include <cstdlib>
#include <unistd.h>
#include <vector>

using namespace mlxrt_test;

namespace {

//===----------------------------------------------------------------------===//
// Without a device
//===----------------------------------------------------------------------===//

/// Sets an environment variable for the life of the object.
class ScopedEnv {
public:
  ScopedEnv(const char *name, const char *value) : Name(name) {
    const char *old = getenv(name);
    if (old)
      Old = old, HadOld = true;
    setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (HadOld)
      setenv(Name, Old.c_str(), 1);
    else
      unsetenv(Name);
  }

private:
  const char *Name;
  std::string Old;
  bool HadOld = false;
};

TEST(CudaDriver, LibraryThatIsNoDriver) {
  char reason[512] = "";
  if (envCudaAvailable(reason, sizeof(reason)))
    GTEST_SKIP() << "a CUDA driver is loaded already";
  {
    ScopedEnv env("MLXRT_LIBCUDA", "libz.so.1");
    EXPECT_EQ(envCudaAvailable(reason, sizeof(reason)), 0);
    EXPECT_STREQ(reason, "libz.so.1 has no cuInit (the driver is too old)");
  }
  {
    ScopedEnv env("MLXRT_LIBCUDA", "/no/such/libcuda.so");
    EXPECT_EQ(envCudaAvailable(reason, sizeof(reason)), 0);
    EXPECT_TRUE(contains(reason, "/no/such/libcuda.so: cannot open shared "
                                 "object file"))
        << reason;
  }
}

TEST(CudaDriver, StubLibraryFailsInit) {
  // The toolkit's stub exports every entry point; its cuInit fails.
  const char *stub = "/usr/local/cuda/lib64/stubs/libcuda.so";
  char reason[512] = "";
  if (access(stub, R_OK) != 0 || envCudaAvailable(reason, sizeof(reason)))
    GTEST_SKIP() << "no CUDA stub library, or a real driver";
  ScopedEnv env("MLXRT_LIBCUDA", stub);
  EXPECT_EQ(envCudaAvailable(reason, sizeof(reason)), 0);
  EXPECT_TRUE(contains(reason, "cuInit failed: CUDA_ERROR_STUB_LIBRARY"))
      << reason;
  mlxrt_device *dev = nullptr;
  mlxrt_error err;
  EXPECT_EQ(envDeviceOpen("cuda", &dev, &err), MLXRT_ERROR_DEVICE);
  EXPECT_EQ(std::string(err.message), std::string("no CUDA device: ") + reason);
}

TEST(CudaAbi, CallsWithoutADeviceDoNothing) {
  // The module calls run from global constructors and destructors, also on
  // machines without a GPU; the others outside a run return nothing.
  static const char NotPtx[] = "not PTX";
  void *module = mgpuModuleLoadJIT(const_cast<char *>(NotPtx), 2);
  ASSERT_NE(module, nullptr);
  void *other = mgpuModuleLoadJIT(const_cast<char *>(NotPtx), 99);
  EXPECT_EQ(mgpuModuleGetFunction(module, "k"), nullptr);
  EXPECT_EQ(mgpuStreamCreate(), nullptr);
  mgpuLaunchKernel(nullptr, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr, 0);
  mgpuStreamSynchronize(nullptr);
  mgpuStreamDestroy(nullptr);
  EXPECT_EQ(_mlir_memref_to_llvm_alloc(64), nullptr);
  _mlir_memref_to_llvm_free(nullptr);
  int local = 0;
  _mlir_memref_to_llvm_free(&local); // Not ours, and no device: ignored.
  EXPECT_EQ(mgpuMemAlloc(64, nullptr, 0), nullptr);
  EXPECT_EQ(mgpuMemAlloc(64, nullptr, 1), nullptr);
  mgpuMemFree(nullptr, nullptr);
  mgpuMemFree(&local, nullptr);
  mlxrt_prefetch(reinterpret_cast<intptr_t>(&local), sizeof(local), 1);
  mgpuModuleUnload(module);
  mgpuModuleUnload(other);
  mgpuModuleUnload(nullptr);
}

//===----------------------------------------------------------------------===//
// With a GPU
//===----------------------------------------------------------------------===//

/// out[i] = 2 * in[i] for i < n, written by hand for sm_70 as the compiler
/// would emit it (the driver compiles it for the GPU at hand).
const char ScalePtx[] = R"(
.version 6.0
.target sm_70
.address_size 64

.visible .entry scale2(
  .param .u64 scale2_in,
  .param .u64 scale2_out,
  .param .u32 scale2_n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .f32 %f<3>;
  .reg .b64 %rd<8>;

  ld.param.u64 %rd1, [scale2_in];
  ld.param.u64 %rd2, [scale2_out];
  ld.param.u32 %r1, [scale2_n];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.s32 %r5, %r2, %r3, %r4;
  setp.ge.u32 %p1, %r5, %r1;
  @%p1 bra DONE;
  cvta.to.global.u64 %rd3, %rd1;
  cvta.to.global.u64 %rd4, %rd2;
  mul.wide.u32 %rd5, %r5, 4;
  add.s64 %rd6, %rd3, %rd5;
  add.s64 %rd7, %rd4, %rd5;
  ld.global.f32 %f1, [%rd6];
  add.f32 %f2, %f1, %f1;
  st.global.f32 [%rd7], %f2;
DONE:
  ret;
}
)";

const char BadPtx[] = ".version 6.0\n.target sm_70\n.address_size 64\n"
                      ".visible .entry scale2() { bogus; }\n";

constexpr unsigned N = 1000;

/// What the entry points below use, as a compiled program's globals would.
struct Program {
  void *module = nullptr;
  const char *kernel = "scale2";
  intptr_t block = 256;
  size_t scratchBytes = N * sizeof(float);
  int calls = 0;
} P;

void launchScale(void *in, void *out) {
  void *fn = mgpuModuleGetFunction(P.module, P.kernel);
  void *stream = mgpuStreamCreate();
  unsigned n = N;
  void *params[] = {&in, &out, &n};
  mgpuLaunchKernel(fn, (N + 255) / 256, 1, 1, P.block, 1, 1, 0, stream, params,
                   nullptr, 3);
  mgpuStreamSynchronize(stream);
  mgpuStreamDestroy(stream);
}

/// out = 4 * in, through an intermediate buffer.
void timesFourEntry(void **args) {
  ++P.calls;
  void *tmp = _mlir_memref_to_llvm_alloc(P.scratchBytes);
  launchScale(args[0], tmp);
  launchScale(tmp, args[1]);
  _mlir_memref_to_llvm_free(tmp);
}

/// Leaks its intermediate: the run frees it.
void leakyEntry(void **args) {
  void *tmp = _mlir_memref_to_llvm_alloc(N * sizeof(float));
  launchScale(args[0], tmp);
  launchScale(tmp, args[1]);
}

/// As the memory placement pass emits it: a device arena from gpu.alloc and
/// prefetches of the unified arguments.
void arenaEntry(void **args) {
  void *stream = mgpuStreamCreate();
  void *arena = mgpuMemAlloc(2 * N * sizeof(float), stream, 0);
  mgpuStreamSynchronize(stream);
  mgpuStreamDestroy(stream);
  void *tmp = static_cast<char *>(arena) + N * sizeof(float);
  mlxrt_prefetch(reinterpret_cast<intptr_t>(args[0]), N * sizeof(float), 1);
  launchScale(args[0], tmp);
  launchScale(tmp, args[1]);
  // Back to the host in two halves (a range inside the buffer).
  mlxrt_prefetch(reinterpret_cast<intptr_t>(args[1]), N * 2, 0);
  mlxrt_prefetch(reinterpret_cast<intptr_t>(args[1]) + N * 2, N * 2, 0);
  mgpuMemFree(arena, nullptr);
}

void *SeenInput;
void recordEntry(void **args) { SeenInput = args[0]; }

void badFreeEntry(void **args) { _mlir_memref_to_llvm_free(args[0]); }

void badPrefetchEntry(void **args) {
  // One byte past the end of the input.
  mlxrt_prefetch(reinterpret_cast<intptr_t>(args[0]) + 1, N * sizeof(float), 1);
}

/// A CUDA device in unified mode (false) or copy mode (true).
class Cuda : public ::testing::TestWithParam<bool> {
protected:
  void SetUp() override {
    char reason[512];
    if (!envCudaAvailable(reason, sizeof(reason)))
      GTEST_SKIP() << "no CUDA device: " << reason;
    if (GetParam())
      setenv("MLXRT_NO_UNIFIED", "1", 1);
    mlxrt_error err;
    mlxrt_status st = envDeviceOpen("cuda", &Dev, &err);
    unsetenv("MLXRT_NO_UNIFIED");
    ASSERT_EQ(st, MLXRT_OK) << err.message;
    P = Program();
    P.module = mgpuModuleLoadJIT(const_cast<char *>(ScalePtx), 3);
    ASSERT_EQ(mlxrt_device_alloc(Dev, N * sizeof(float), &In, &err), MLXRT_OK)
        << err.message;
    ASSERT_EQ(mlxrt_device_alloc(Dev, N * sizeof(float), &Out, &err), MLXRT_OK)
        << err.message;
    for (unsigned i = 0; i < N; ++i)
      static_cast<float *>(In)[i] = float(i) - 3.5f;
  }
  void TearDown() override {
    if (Dev) {
      mlxrt_device_free(Dev, In);
      mlxrt_device_free(Dev, Out);
      mlxrt_device_close(Dev);
    }
    mgpuModuleUnload(P.module);
    P.module = nullptr;
  }
  mlxrt_status run(mlxrt_entry_fn entry, double *ms = nullptr) {
    void *args[] = {In, Out};
    Err.message[0] = '\0';
    return mlxrt_device_run(Dev, entry, args, 1, 1, ms, &Err);
  }
  void expectTimesFour() {
    const float *out = static_cast<const float *>(Out);
    for (unsigned i = 0; i < N; ++i)
      ASSERT_EQ(out[i], 4 * (float(i) - 3.5f)) << "at " << i;
  }
  mlxrt_device *Dev = nullptr;
  void *In = nullptr, *Out = nullptr;
  mlxrt_error Err;
};

TEST_P(Cuda, Describes) {
  EXPECT_EQ(mlxrt_device_get_kind(Dev), MLXRT_DEVICE_CUDA);
  char name[128];
  mlxrt_error err;
  ASSERT_EQ(envCudaDeviceName(0, name, sizeof(name), &err), MLXRT_OK);
  EXPECT_EQ(std::string(mlxrt_device_description(Dev)),
            std::string("cuda:0 (") + name + ")");
  int count = envCudaDeviceCount(nullptr, 0);
  EXPECT_GE(count, 1);
  mlxrt_device *none = nullptr;
  EXPECT_EQ(envDeviceOpen("cuda:999", &none, &err), MLXRT_ERROR_DEVICE);
  EXPECT_TRUE(contains(err.message, "no CUDA device: cuda:999 does not exist"))
      << err.message;
  EXPECT_EQ(reinterpret_cast<uintptr_t>(In) % 64, 0u);
}

TEST_P(Cuda, RunsKernelsThroughTheAbi) {
  double ms = -1;
  ASSERT_EQ(run(timesFourEntry, &ms), MLXRT_OK) << Err.message;
  EXPECT_GE(ms, 0.0);
  expectTimesFour();
  // Again, with the module and its function cached, on new inputs.
  std::memset(Out, 0, N * sizeof(float));
  ASSERT_EQ(run(timesFourEntry, &ms), MLXRT_OK) << Err.message;
  expectTimesFour();
  EXPECT_EQ(P.calls, 2);
  // Leaked intermediates are freed by the run.
  ASSERT_EQ(run(leakyEntry), MLXRT_OK) << Err.message;
  expectTimesFour();
  std::memset(Out, 0, N * sizeof(float));
  ASSERT_EQ(run(arenaEntry), MLXRT_OK) << Err.message;
  expectTimesFour();
  // Unified: the program sees the host's pointers; copy mode: device copies.
  ASSERT_EQ(run(recordEntry), MLXRT_OK) << Err.message;
  if (GetParam())
    EXPECT_NE(SeenInput, In);
  else
    EXPECT_EQ(SeenInput, In);
}

TEST_P(Cuda, ModuleUnloadWhileTheDeviceIsOpen) {
  ASSERT_EQ(run(timesFourEntry), MLXRT_OK) << Err.message;
  mgpuModuleUnload(P.module);
  P.module = mgpuModuleLoadJIT(const_cast<char *>(ScalePtx), 0);
  std::memset(Out, 0, N * sizeof(float));
  ASSERT_EQ(run(timesFourEntry), MLXRT_OK) << Err.message;
  expectTimesFour();
}

TEST_P(Cuda, PtxThatDoesNotCompileNamesTheKernel) {
  mgpuModuleUnload(P.module);
  P.module = mgpuModuleLoadJIT(const_cast<char *>(BadPtx), 3);
  EXPECT_EQ(run(timesFourEntry), MLXRT_ERROR_DEVICE);
  EXPECT_TRUE(contains(Err.message, "cuModuleLoadDataEx of the module of "
                                    "kernel 'scale2' (PTX, JIT at -O3) failed "
                                    "on cuda:0 ("))
      << Err.message;
  EXPECT_TRUE(contains(Err.message, "CUDA_ERROR_")) << Err.message;
  EXPECT_EQ(std::string(Err.message).find('\n'), std::string::npos);
  // The failure is not sticky: a good module runs on the same device.
  mgpuModuleUnload(P.module);
  P.module = mgpuModuleLoadJIT(const_cast<char *>(ScalePtx), 3);
  ASSERT_EQ(run(timesFourEntry), MLXRT_OK) << Err.message;
  expectTimesFour();
}

TEST_P(Cuda, MissingKernel) {
  P.kernel = "no_such_kernel";
  EXPECT_EQ(run(timesFourEntry), MLXRT_ERROR_DEVICE);
  EXPECT_TRUE(contains(Err.message, "cuModuleGetFunction of kernel "
                                    "'no_such_kernel' failed on cuda:0 ("))
      << Err.message;
  EXPECT_TRUE(contains(Err.message, "CUDA_ERROR_NOT_FOUND")) << Err.message;
}

TEST_P(Cuda, BadLaunchNamesTheKernel) {
  P.block = 4096; // Over the 1024 threads a block may have.
  EXPECT_EQ(run(timesFourEntry), MLXRT_ERROR_DEVICE);
  EXPECT_TRUE(contains(Err.message, "cuLaunchKernel of kernel 'scale2' (grid "
                                    "4 x 1 x 1, block 4096 x 1 x 1, 0 bytes "
                                    "of shared memory) failed on cuda:0 ("))
      << Err.message;
  EXPECT_TRUE(contains(Err.message, "CUDA_ERROR_INVALID_VALUE")) << Err.message;
  EXPECT_EQ(P.calls, 1); // The program ran to its end, launching nothing more.
  P.block = 256;
  ASSERT_EQ(run(timesFourEntry), MLXRT_OK) << Err.message;
  expectTimesFour();
}

TEST_P(Cuda, IntermediateOutOfMemory) {
  // Never more than the GPU has free: refused before the driver is asked.
  P.scratchBytes = size_t(1) << 50;
  EXPECT_EQ(run(timesFourEntry), MLXRT_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(std::string(Err.message)
                .rfind("intermediate buffer: out of memory: cannot allocate "
                       "1125899906842624 bytes (1073741824.0 MiB) of ",
                       0),
            0u)
      << Err.message;
  EXPECT_TRUE(contains(Err.message, " MiB free")) << Err.message;
  P.scratchBytes = N * sizeof(float);
  ASSERT_EQ(run(timesFourEntry), MLXRT_OK) << Err.message;
  expectTimesFour();
}

TEST_P(Cuda, BufferOutOfMemory) {
  void *p = reinterpret_cast<void *>(1);
  mlxrt_error err;
  EXPECT_EQ(mlxrt_device_alloc(Dev, size_t(1) << 50, &p, &err),
            MLXRT_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(p, nullptr);
  EXPECT_TRUE(contains(err.message, "out of memory: cannot allocate "
                                    "1125899906842624 bytes"))
      << err.message;
  // Empty buffers are real pointers.
  ASSERT_EQ(mlxrt_device_alloc(Dev, 0, &p, &err), MLXRT_OK) << err.message;
  EXPECT_NE(p, nullptr);
  mlxrt_device_free(Dev, p);
}

TEST_P(Cuda, ForeignBuffersAndFrees) {
  float host[N];
  void *args[] = {host, Out};
  EXPECT_EQ(mlxrt_device_run(Dev, timesFourEntry, args, 1, 1, nullptr, &Err),
            MLXRT_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains(Err.message, "buffer 0 of the run was not allocated "
                                    "on cuda:0 ("))
      << Err.message;
  EXPECT_EQ(run(badFreeEntry), MLXRT_ERROR_DEVICE);
  EXPECT_TRUE(contains(Err.message, "not an intermediate buffer of cuda:0"))
      << Err.message;
  EXPECT_EQ(run(badPrefetchEntry), MLXRT_ERROR_DEVICE);
  EXPECT_TRUE(contains(Err.message, "mlxrt_prefetch(0x")) << Err.message;
  EXPECT_TRUE(contains(Err.message, ", 4000 bytes): not memory of cuda:0 ("))
      << Err.message;
  // The buffer survived the bad free.
  ASSERT_EQ(run(timesFourEntry), MLXRT_OK) << Err.message;
  expectTimesFour();
}

//===----------------------------------------------------------------------===//
// CUDA graphs
//===----------------------------------------------------------------------===//

/// A constant the program copies to the device each run, as gpu.memcpy of a
/// memref.global does: during capture it becomes a one-time upload.
const float Two = 2.0f;

/// out = 4 * in through a device arena (as mlx-memory-placement emits it),
/// declared capturable; also copies the constant 2 into the arena's last
/// float and the output gets... nothing of it (the copy is only exercised).
void capturableEntry(void **args) {
  mlxrt_graph_capturable();
  ++P.calls;
  void *stream = mgpuStreamCreate();
  void *arena = mgpuMemAlloc((N + 1) * sizeof(float), stream, 0);
  mgpuStreamSynchronize(stream);
  mgpuMemcpy(static_cast<float *>(arena) + N, const_cast<float *>(&Two),
             sizeof(float), stream);
  mlxrt_prefetch(reinterpret_cast<intptr_t>(args[0]), N * sizeof(float), 1);
  launchScale(args[0], arena);
  launchScale(arena, args[1]);
  mlxrt_prefetch(reinterpret_cast<intptr_t>(args[1]), N * sizeof(float), 0);
  mgpuMemFree(arena, nullptr);
}

TEST_P(Cuda, GraphCapturedOnTheSecondRunAndReplayed) {
  for (int r = 0; r < 4; ++r) {
    // New input values each run: the graph reads the buffers anew.
    for (unsigned i = 0; i < N; ++i)
      static_cast<float *>(In)[i] = float(i) - 3.5f + float(r);
    std::memset(Out, 0, N * sizeof(float));
    ASSERT_EQ(run(capturableEntry), MLXRT_OK) << "run " << r << Err.message;
    const float *out = static_cast<const float *>(Out);
    for (unsigned i = 0; i < N; ++i)
      ASSERT_EQ(out[i], 4 * (float(i) - 3.5f + float(r)))
          << "run " << r << " at " << i;
  }
  // Run 1 directly, run 2 captured (the program runs to record), then only
  // the graph.
  EXPECT_EQ(P.calls, 2);
  // Another program on the same buffers runs directly; the first keeps its
  // graph (the device caches one per program and buffers) and replays it.
  ASSERT_EQ(run(timesFourEntry), MLXRT_OK) << Err.message;
  EXPECT_EQ(P.calls, 3);
  ASSERT_EQ(run(capturableEntry), MLXRT_OK) << Err.message;
  ASSERT_EQ(run(capturableEntry), MLXRT_OK) << Err.message;
  ASSERT_EQ(run(capturableEntry), MLXRT_OK) << Err.message;
  EXPECT_EQ(P.calls, 3);
  // Freeing a buffer the graph runs on forgets the graph (a freed buffer's
  // address may come back): the program runs again.
  mlxrt_device_free(Dev, Out);
  mlxrt_error err;
  ASSERT_EQ(mlxrt_device_alloc(Dev, N * sizeof(float), &Out, &err), MLXRT_OK);
  std::memset(Out, 0, N * sizeof(float));
  ASSERT_EQ(run(capturableEntry), MLXRT_OK) << Err.message;
  EXPECT_EQ(P.calls, 4);
  const float *out = static_cast<const float *>(Out);
  for (unsigned i = 0; i < N; ++i)
    ASSERT_EQ(out[i], 4 * (float(i) - 3.5f + 3.0f)) << "at " << i;
}

TEST_P(Cuda, GraphsOffByEnvironment) {
  // Read when the device opens (mlxrt_device_open; the instance API takes
  // no_cuda_graphs instead): open it again.
  mlxrt_device_free(Dev, In);
  mlxrt_device_free(Dev, Out);
  mlxrt_device_close(Dev);
  Dev = nullptr;
  setenv("MLXRT_NO_GRAPH", "1", 1);
  if (GetParam())
    setenv("MLXRT_NO_UNIFIED", "1", 1);
  mlxrt_error err;
  mlxrt_status st = envDeviceOpen("cuda", &Dev, &err);
  unsetenv("MLXRT_NO_GRAPH");
  unsetenv("MLXRT_NO_UNIFIED");
  ASSERT_EQ(st, MLXRT_OK) << err.message;
  ASSERT_EQ(mlxrt_device_alloc(Dev, N * sizeof(float), &In, &err), MLXRT_OK);
  ASSERT_EQ(mlxrt_device_alloc(Dev, N * sizeof(float), &Out, &err), MLXRT_OK);
  for (unsigned i = 0; i < N; ++i)
    static_cast<float *>(In)[i] = float(i) - 3.5f;
  for (int r = 0; r < 3; ++r)
    ASSERT_EQ(run(capturableEntry), MLXRT_OK) << Err.message;
  expectTimesFour();
  EXPECT_EQ(P.calls, 3);
}

TEST_P(Cuda, FailureDuringCaptureIsReportedUncaptured) {
  ASSERT_EQ(run(capturableEntry), MLXRT_OK) << Err.message;
  P.block = 4096; // The launch fails while the second run is captured.
  EXPECT_EQ(run(capturableEntry), MLXRT_ERROR_DEVICE);
  // The uncaptured rerun reports the launch, not the capture.
  EXPECT_TRUE(contains(Err.message, "cuLaunchKernel of kernel 'scale2'"))
      << Err.message;
  EXPECT_EQ(P.calls, 3);
  P.block = 256;
  std::memset(Out, 0, N * sizeof(float));
  ASSERT_EQ(run(capturableEntry), MLXRT_OK) << Err.message;
  expectTimesFour();
}

//===----------------------------------------------------------------------===//
// cuBLASLt
//===----------------------------------------------------------------------===//

/// The product the matmul entries compute: C[b] (+)= A[b] B[b] with the
/// layout below, in the buffers In (A then B) and Out (C).
struct Product {
  int32_t abDtype = MLXRT_DTYPE_FLOAT32, cDtype = MLXRT_DTYPE_FLOAT32;
  int32_t flags = 0;
  int64_t batch = 2, m = 5, n = 7, k = 9;
  int64_t strideB = 9 * 7; ///< 0: B shared by the batch.
  int64_t badOffset = 0;   ///< Moves C out of its buffer.
  bool pointers = false;   ///< The batch as arrays of matrix addresses.
} Q;

size_t elemSize(int32_t dtype) { return dtype == MLXRT_DTYPE_FLOAT32 ? 4 : 2; }

void matmulEntry(void **args) {
  char *in = static_cast<char *>(args[0]);
  size_t ab = elemSize(Q.abDtype);
  bool ta = Q.flags & MLXRT_MATMUL_TRANSPOSE_A;
  bool tb = Q.flags & MLXRT_MATMUL_TRANSPOSE_B;
  intptr_t a = reinterpret_cast<intptr_t>(in);
  intptr_t b = a + intptr_t(Q.batch * Q.m * Q.k * ab);
  intptr_t c = reinterpret_cast<intptr_t>(args[1]) + Q.badOffset;
  if (Q.pointers) {
    // The same matrices, each by its address (mlxc's grouped products),
    // captured into a graph on the second run on these buffers.
    mlxrt_graph_capturable();
    std::vector<int64_t> as, bs, cs;
    for (int64_t i = 0; i < Q.batch; ++i) {
      as.push_back(a + intptr_t(i * Q.m * Q.k * ab));
      bs.push_back(b + intptr_t(i * Q.strideB * ab));
      cs.push_back(c + intptr_t(i * Q.m * Q.n * elemSize(Q.cDtype)));
    }
    mlxrt_matmul(Q.abDtype, Q.cDtype, Q.flags | MLXRT_MATMUL_POINTER_ARRAYS,
                 Q.batch, Q.m, Q.n, Q.k, reinterpret_cast<intptr_t>(as.data()),
                 ta ? Q.m : Q.k, 0, reinterpret_cast<intptr_t>(bs.data()),
                 tb ? Q.k : Q.n, 0, reinterpret_cast<intptr_t>(cs.data()), Q.n,
                 0);
    return;
  }
  mlxrt_matmul(Q.abDtype, Q.cDtype, Q.flags, Q.batch, Q.m, Q.n, Q.k, a,
               ta ? Q.m : Q.k, Q.m * Q.k, b, tb ? Q.k : Q.n, Q.strideB, c, Q.n,
               Q.m * Q.n);
}

/// Fills In with A and B (exact small integers, so every dtype holds them
/// and every sum is exact), runs the product and compares C.
void checkProduct(Cuda *test, mlxrt_device *dev, void *in, void *out,
                  mlxrt_error *err) {
  size_t ab = elemSize(Q.abDtype);
  int64_t aCount = Q.batch * Q.m * Q.k;
  int64_t bCount = (Q.strideB ? Q.batch : 1) * Q.k * Q.n;
  ASSERT_LE(size_t(aCount + bCount) * ab, N * sizeof(float));
  auto value = [](int64_t i) { return float(int(i % 7) - 3); };
  auto store = [&](int64_t i, float v) {
    if (Q.abDtype == MLXRT_DTYPE_FLOAT32) {
      static_cast<float *>(in)[i] = v;
      return;
    }
    // float16 and bfloat16 hold these integers exactly.
    uint16_t bits = mlxrt_float_to_bfloat16(v);
    if (Q.abDtype == MLXRT_DTYPE_FLOAT16) {
      _Float16 half = static_cast<_Float16>(v);
      std::memcpy(&bits, &half, sizeof(bits));
    }
    static_cast<uint16_t *>(in)[i] = bits;
  };
  for (int64_t i = 0; i < aCount + bCount; ++i)
    store(i, value(i));
  float *c = static_cast<float *>(out);
  for (int64_t i = 0; i < Q.batch * Q.m * Q.n; ++i)
    c[i] = 1.0f;
  void *args[] = {in, out};
  ASSERT_EQ(mlxrt_device_run(dev, matmulEntry, args, 1, 1, nullptr, err),
            MLXRT_OK)
      << err->message;
  bool ta = Q.flags & MLXRT_MATMUL_TRANSPOSE_A;
  bool tb = Q.flags & MLXRT_MATMUL_TRANSPOSE_B;
  for (int64_t bi = 0; bi < Q.batch; ++bi)
    for (int64_t i = 0; i < Q.m; ++i)
      for (int64_t j = 0; j < Q.n; ++j) {
        float want = (Q.flags & MLXRT_MATMUL_ACCUMULATE) ? 1.0f : 0.0f;
        for (int64_t l = 0; l < Q.k; ++l) {
          int64_t ai = bi * Q.m * Q.k + (ta ? l * Q.m + i : i * Q.k + l);
          int64_t bj = aCount + (Q.strideB ? bi * Q.strideB : 0) +
                       (tb ? j * Q.k + l : l * Q.n + j);
          want += value(ai) * value(bj);
        }
        ASSERT_EQ(c[(bi * Q.m + i) * Q.n + j], want)
            << "batch " << bi << " at " << i << ", " << j;
      }
  (void)test;
}

TEST_P(Cuda, MatmulThroughCublasLt) {
  char reason[1024];
  if (!envCublasltLoad(reason, sizeof(reason)))
    GTEST_SKIP() << "no libcublasLt: " << reason;
  Q = Product();
  checkProduct(this, Dev, In, Out, &Err);
  Q.flags = MLXRT_MATMUL_TRANSPOSE_A | MLXRT_MATMUL_TRANSPOSE_B;
  checkProduct(this, Dev, In, Out, &Err);
  Q.flags = 0;
  Q.strideB = 0; // One B for the whole batch.
  checkProduct(this, Dev, In, Out, &Err);
  // Accumulating reads C, which the host set (copy mode copies outputs
  // only back).
  if (!GetParam()) {
    Q.flags = MLXRT_MATMUL_ACCUMULATE;
    checkProduct(this, Dev, In, Out, &Err);
  }
  Q = Product();
  Q.abDtype = MLXRT_DTYPE_FLOAT16;
  checkProduct(this, Dev, In, Out, &Err);
  Q.abDtype = MLXRT_DTYPE_BFLOAT16;
  Q.flags = MLXRT_MATMUL_TRANSPOSE_B;
  checkProduct(this, Dev, In, Out, &Err);
  // The same shapes again come from the plan cache.
  checkProduct(this, Dev, In, Out, &Err);
}

TEST_P(Cuda, MatmulOverPointerArrays) {
  char reason[1024];
  if (!envCublasltLoad(reason, sizeof(reason)))
    GTEST_SKIP() << "no libcublasLt: " << reason;
  Q = Product();
  Q.pointers = true;
  checkProduct(this, Dev, In, Out, &Err);
  Q.batch = 3; // bfloat16, B stored transposed, as mlxc groups them.
  Q.m = 4;
  Q.abDtype = MLXRT_DTYPE_BFLOAT16;
  Q.flags = MLXRT_MATMUL_TRANSPOSE_B;
  // Direct, captured and replayed: the arrays reach the graph's memory.
  for (int r = 0; r < 3; ++r)
    checkProduct(this, Dev, In, Out, &Err);
}

TEST_P(Cuda, MatmulErrorsNameTheProduct) {
  char reason[1024];
  if (!envCublasltLoad(reason, sizeof(reason)))
    GTEST_SKIP() << "no libcublasLt: " << reason;
  Q = Product();
  // C's last element lies past its buffer (Out holds N floats).
  Q.badOffset = int64_t(N * sizeof(float)) - 2 * 5 * 7 * 4 + 4;
  EXPECT_EQ(run(matmulEntry), MLXRT_ERROR_DEVICE);
  EXPECT_TRUE(contains(Err.message, "mlxrt_matmul: operand C of the product "
                                    "2 x (5 x 7 x 9) (float32 -> float32) "
                                    "[0x"))
      << Err.message;
  EXPECT_TRUE(contains(Err.message, "+280 bytes) is not memory of cuda:0"))
      << Err.message;
  Q = Product();
  Q.k = 0;
  EXPECT_EQ(run(matmulEntry), MLXRT_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains(Err.message, "mlxrt_matmul: bad sizes")) << Err.message;
}

INSTANTIATE_TEST_SUITE_P(Modes, Cuda, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool> &info) {
                           return info.param ? "CopyMode" : "Unified";
                         });

} // namespace
