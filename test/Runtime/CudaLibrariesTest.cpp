//===- CudaLibrariesTest.cpp - cuBLASLt, graphs, module images --*- C++ -*-===//
//
// What needs no GPU: loading libcublasLt (and failing to), the checks of
// mlxrt_matmul's arguments, the keys of its plan cache, the choice between
// the PTX and a cubin of mlxc's module container, and the ABI calls made
// outside a run. The GPU side of these is in CudaTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "TestEnv.h"
#include "TestUtil.h"

extern "C" {
#include "runtime/cuda_internal.h"
}

#include <cstdlib>
#include <unistd.h>

using namespace mlxrt_test;

namespace {

class ScopedEnv {
public:
  ScopedEnv(const char *name, const char *value) : Name(name) {
    if (const char *old = getenv(name))
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

//===----------------------------------------------------------------------===//
// libcublasLt
//===----------------------------------------------------------------------===//

// First in this file: once the real library has loaded, it stays loaded.
TEST(CublasLt, MissingLibraryIsExplained) {
  char reason[1024] = "";
  {
    ScopedEnv env("MLXRT_LIBCUBLASLT", "/no/such/libcublasLt.so.13");
    if (envCublasltLoad(reason, sizeof(reason)))
      GTEST_SKIP() << "libcublasLt is loaded already";
    EXPECT_TRUE(contains(reason, "/no/such/libcublasLt.so.13: cannot open "
                                 "shared object file"))
        << reason;
  }
  {
    ScopedEnv env("MLXRT_LIBCUBLASLT", "libz.so.1");
    EXPECT_EQ(envCublasltLoad(reason, sizeof(reason)), nullptr);
    EXPECT_STREQ(reason, "libz.so.1 has no cublasLtCreate");
  }
}

TEST(CublasLt, LoadsTheToolkitLibrary) {
  // Every entry point the runtime declares must exist under that name.
  const char *toolkit = "/usr/local/cuda/lib64/libcublasLt.so.13";
  char reason[1024] = "";
  const struct mlxrt_cublaslt *lib = envCublasltLoad(reason, sizeof(reason));
  if (!lib && access(toolkit, R_OK) != 0)
    GTEST_SKIP() << "no libcublasLt here: " << reason;
  EXPECT_NE(lib, nullptr) << reason;
  // Loaded once, the same library is returned, whatever the environment.
  ScopedEnv env("MLXRT_LIBCUBLASLT", "/no/such/lib.so");
  EXPECT_EQ(envCublasltLoad(nullptr, 0), lib);
}

//===----------------------------------------------------------------------===//
// mlxrt_matmul's arguments and plan keys
//===----------------------------------------------------------------------===//

/// C[2][3x4] = A[2][3x8] B[2][8x4], float32, contiguous.
mlxrt_matmul_args goodArgs() {
  mlxrt_matmul_args p;
  std::memset(&p, 0, sizeof(p));
  p.abDtype = MLXRT_DTYPE_FLOAT32;
  p.cDtype = MLXRT_DTYPE_FLOAT32;
  p.batch = 2;
  p.m = 3;
  p.n = 4;
  p.k = 8;
  p.a = 0x10000;
  p.lda = 8;
  p.strideA = 24;
  p.b = 0x20000;
  p.ldb = 4;
  p.strideB = 32;
  p.c = 0x30000;
  p.ldc = 4;
  p.strideC = 12;
  return p;
}

std::string why(const mlxrt_matmul_args &p) {
  char msg[512] = "";
  if (mlxrt_matmul_validate(&p, msg, sizeof(msg)))
    return "ok";
  return msg;
}

TEST(MatmulArgs, Validation) {
  mlxrt_matmul_args p = goodArgs();
  EXPECT_EQ(why(p), "ok");
  p.abDtype = MLXRT_DTYPE_FLOAT16; // float16 operands, float32 out.
  EXPECT_EQ(why(p), "ok");
  p.cDtype = MLXRT_DTYPE_FLOAT16;
  EXPECT_EQ(why(p), "ok");
  p.cDtype = MLXRT_DTYPE_BFLOAT16;
  EXPECT_EQ(why(p), "unsupported dtypes float16 x float16 -> bfloat16 "
                    "(float32, float16 or bfloat16 operands; float32 or the "
                    "operands' dtype out)");
  p = goodArgs();
  p.abDtype = MLXRT_DTYPE_INT32;
  EXPECT_TRUE(contains(why(p), "unsupported dtypes int32 x int32 -> float32"));
  p = goodArgs();
  p.flags = 16;
  EXPECT_EQ(why(p), "unknown flags 0x10");
  // Pointer arrays: the arrays stand for the strides, at most 16 matrices.
  p = goodArgs();
  p.flags = MLXRT_MATMUL_POINTER_ARRAYS;
  EXPECT_EQ(why(p), "pointer arrays of 2 matrices (at most 16) with batch "
                    "strides 24, 32, 12 (must be 0)");
  p.strideA = p.strideB = p.strideC = 0;
  EXPECT_EQ(why(p), "ok");
  p.batch = 17;
  EXPECT_TRUE(contains(why(p), "pointer arrays of 17 matrices (at most 16)"));
  p = goodArgs();
  p.k = 0;
  EXPECT_EQ(why(p), "bad sizes: batch 2, m 3, n 4, k 0 (each at least 1)");
  p = goodArgs();
  p.batch = int64_t(1) << 31;
  EXPECT_TRUE(contains(why(p), "bad sizes: batch 2147483648"));
  p = goodArgs();
  p.lda = 7;
  EXPECT_EQ(why(p), "bad leading dimensions: lda 7 (at least 8), ldb 4 (at "
                    "least 4), ldc 4 (at least 4)");
  // Transposed A is stored k x m: its rows hold m elements.
  p.flags = MLXRT_MATMUL_TRANSPOSE_A;
  p.lda = 3;
  EXPECT_EQ(why(p), "ok");
  p.flags = MLXRT_MATMUL_TRANSPOSE_B;
  p.lda = 8;
  p.ldb = 7;
  EXPECT_TRUE(contains(why(p), "ldb 7 (at least 8)"));
  p = goodArgs();
  p.strideB = 0; // A weight shared by the batch.
  EXPECT_EQ(why(p), "ok");
  p.strideC = 0; // But every batch writes its own C.
  EXPECT_EQ(why(p), "bad batch strides: 24, 0, 0 (C's must be positive when "
                    "batched)");
  p = goodArgs();
  p.strideA = -1;
  EXPECT_TRUE(contains(why(p), "bad batch strides: -1, 32, 12"));
  p = goodArgs();
  p.c = 0;
  EXPECT_EQ(why(p), "a null operand pointer");
}

TEST(MatmulArgs, PlanKeys) {
  mlxrt_matmul_args p = goodArgs(), q = goodArgs();
  mlxrt_matmul_key kp, kq;
  auto same = [&] {
    mlxrt_matmul_make_key(&p, &kp);
    mlxrt_matmul_make_key(&q, &kq);
    return std::memcmp(&kp, &kq, sizeof(kp)) == 0;
  };
  EXPECT_TRUE(same());
  // Other buffers of the same alignment: the same plan.
  q.a += 0x1000;
  q.c += 0x100;
  EXPECT_TRUE(same());
  mlxrt_matmul_make_key(&q, &kq);
  EXPECT_EQ(kq.alignA, 256u);
  // An operand at a 16-byte boundary needs algorithms that allow it.
  q.b += 16;
  EXPECT_FALSE(same());
  mlxrt_matmul_make_key(&q, &kq);
  EXPECT_EQ(kq.alignB, 16u);
  q = goodArgs();
  q.a += 2;
  mlxrt_matmul_make_key(&q, &kq);
  EXPECT_EQ(kq.alignA, 2u);
  // Anything else of the shape or the layout is a new plan.
  q = goodArgs();
  q.ldb = 5;
  EXPECT_FALSE(same());
  q = goodArgs();
  q.flags = MLXRT_MATMUL_ACCUMULATE;
  EXPECT_FALSE(same());
  q = goodArgs();
  q.strideB = 0;
  EXPECT_FALSE(same());
  q = goodArgs();
  q.cDtype = MLXRT_DTYPE_FLOAT16;
  EXPECT_FALSE(same());
}

/// cublasLtMatmul as its documentation defines it, on the host:
/// D[b] = op(A[b]) op(B[b]) (+ C), column-major, element (r, c) of an
/// operand at r + c * ld, batch b at b * stride.
void columnMajorGemm(const mlxrt_matmul_lt_layout_t &lt, int64_t batch,
                     const double *a, const double *b, double *c,
                     bool accumulate) {
  // op(A) is m x k, op(B) k x n, C m x n.
  int64_t m = lt.rows[2], n = lt.cols[2];
  int64_t k = lt.transA ? lt.rows[0] : lt.cols[0];
  ASSERT_EQ(lt.transA ? lt.cols[0] : lt.rows[0], m);
  ASSERT_EQ(lt.transB ? lt.cols[1] : lt.rows[1], k);
  ASSERT_EQ(lt.transB ? lt.rows[1] : lt.cols[1], n);
  for (int i = 0; i < 3; ++i)
    ASSERT_GE(lt.ld[i], lt.rows[i]) << "operand " << i;
  for (int64_t bi = 0; bi < batch; ++bi)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double sum = 0;
        for (int64_t l = 0; l < k; ++l) {
          double x = lt.transA ? a[bi * lt.stride[0] + l + i * lt.ld[0]]
                               : a[bi * lt.stride[0] + i + l * lt.ld[0]];
          double y = lt.transB ? b[bi * lt.stride[1] + j + l * lt.ld[1]]
                               : b[bi * lt.stride[1] + l + j * lt.ld[1]];
          sum += x * y;
        }
        double &out = c[bi * lt.stride[2] + i + j * lt.ld[2]];
        out = (accumulate ? out : 0) + sum;
      }
}

TEST(MatmulArgs, ColumnMajorLayoutsComputeTheRowMajorProduct) {
  // Every transpose combination, padded leading dimensions, a shared B.
  for (int flags = 0; flags < 8; ++flags) {
    for (bool sharedB : {false, true}) {
      SCOPED_TRACE("flags " + std::to_string(flags) +
                   (sharedB ? ", shared B" : ""));
      bool ta = flags & MLXRT_MATMUL_TRANSPOSE_A;
      bool tb = flags & MLXRT_MATMUL_TRANSPOSE_B;
      bool acc = flags & MLXRT_MATMUL_ACCUMULATE;
      mlxrt_matmul_args p = goodArgs();
      p.flags = flags;
      p.batch = 2;
      p.m = 3;
      p.n = 5;
      p.k = 4;
      p.lda = (ta ? p.m : p.k) + 1;
      p.ldb = (tb ? p.k : p.n) + 2;
      p.ldc = p.n + 3;
      p.strideA = (ta ? p.k : p.m) * p.lda;
      p.strideB = sharedB ? 0 : (tb ? p.n : p.k) * p.ldb;
      p.strideC = p.m * p.ldc;
      mlxrt_matmul_key key;
      mlxrt_matmul_make_key(&p, &key);
      mlxrt_matmul_lt_layout_t lt;
      mlxrt_matmul_lt_layout(&key, &lt);
      // Row-major operands; element (i, l) of A at i * lda + l, or l * lda
      // + i when stored transposed.
      std::vector<double> a(p.batch * p.strideA), b(512),
          c(p.batch * p.strideC);
      for (size_t i = 0; i < a.size(); ++i)
        a[i] = double(int(i % 11) - 5);
      for (size_t i = 0; i < b.size(); ++i)
        b[i] = double(int(i % 7) - 3);
      for (size_t i = 0; i < c.size(); ++i)
        c[i] = 0.5 * double(i);
      std::vector<double> want = c;
      for (int64_t bi = 0; bi < p.batch; ++bi)
        for (int64_t i = 0; i < p.m; ++i)
          for (int64_t j = 0; j < p.n; ++j) {
            double sum = 0;
            for (int64_t l = 0; l < p.k; ++l)
              sum += a[bi * p.strideA + (ta ? l * p.lda + i : i * p.lda + l)] *
                     b[bi * p.strideB + (tb ? j * p.ldb + l : l * p.ldb + j)];
            double &out = want[bi * p.strideC + i * p.ldc + j];
            out = (acc ? out : 0) + sum;
          }
      // cuBLASLt's A is our B, its B our A.
      columnMajorGemm(lt, p.batch, b.data(), a.data(), c.data(), acc);
      EXPECT_EQ(c, want);
    }
  }
}

//===----------------------------------------------------------------------===//
// mlxc's module container
//===----------------------------------------------------------------------===//

struct TestImage {
  uint32_t kind, sm, flags;
  std::string data;
};

void put32(std::string &s, uint32_t v) {
  for (int i = 0; i < 4; ++i)
    s.push_back(char((v >> (8 * i)) & 0xff));
}

void put64(std::string &s, uint64_t v) {
  put32(s, uint32_t(v));
  put32(s, uint32_t(v >> 32));
}

/// The container as mlxc-embed-cubin writes it.
std::string container(const std::vector<TestImage> &images) {
  std::string s = "MLXCIMG1";
  put32(s, uint32_t(images.size()));
  put32(s, 0);
  uint64_t offset = 16 + 32 * images.size();
  for (const TestImage &image : images) {
    put32(s, image.kind);
    put32(s, image.sm);
    put32(s, image.flags);
    put32(s, 0);
    put64(s, offset);
    put64(s, image.data.size());
    offset += image.data.size();
  }
  for (const TestImage &image : images)
    s += image.data;
  return s;
}

/// Which image a device of major.minor gets: "ptx", "cubin sm_XY", "none"
/// or "malformed".
std::string pick(const std::string &blob, int major, int minor) {
  const void *image;
  size_t size;
  mlxrt_image_kind kind;
  int sm;
  if (!mlxrt_image_pick(blob.data(), blob.size(), major, minor, &image, &size,
                        &kind, &sm))
    return "malformed";
  if (!image)
    return "none";
  std::string what =
      kind == MLXRT_IMAGE_PTX ? "ptx" : "cubin sm_" + std::to_string(sm);
  // The image is the bytes of its entry.
  const char *data = static_cast<const char *>(image);
  return what + ":" + std::string(data, size);
}

TEST(ModuleImage, PicksTheCubinOfTheArchitecture) {
  const std::string ptx(".target sm_70\0", 14);
  std::string blob = container({{MLXRT_IMAGE_PTX, 70, 0, ptx},
                                {MLXRT_IMAGE_CUBIN, 80, 0, "ELF80"},
                                {MLXRT_IMAGE_CUBIN, 86, 0, "ELF86"},
                                {MLXRT_IMAGE_CUBIN, 90, 1, "ELF90a"}});
  EXPECT_EQ(pick(blob, 8, 0), "cubin sm_80:ELF80");
  // A cubin runs on later minor versions of its major one: the newest wins.
  EXPECT_EQ(pick(blob, 8, 9), "cubin sm_86:ELF86");
  EXPECT_EQ(pick(blob, 8, 6), "cubin sm_86:ELF86");
  // sm_90a only on 9.0 exactly.
  EXPECT_EQ(pick(blob, 9, 0), "cubin sm_90:ELF90a");
  EXPECT_EQ(pick(blob, 9, 1), "ptx:" + ptx);
  // Other majors (older or newer) JIT the PTX.
  EXPECT_EQ(pick(blob, 7, 5), "ptx:" + ptx);
  EXPECT_EQ(pick(blob, 10, 0), "ptx:" + ptx);
  // No PTX and no fitting cubin: nothing to load.
  std::string cubinOnly = container({{MLXRT_IMAGE_CUBIN, 90, 0, "ELF90"}});
  EXPECT_EQ(pick(cubinOnly, 9, 0), "cubin sm_90:ELF90");
  EXPECT_EQ(pick(cubinOnly, 8, 0), "none");
}

TEST(ModuleImage, OtherImagesPassThrough) {
  // A cubin or fatbin from elsewhere goes to the driver as it is.
  std::string fatbin = "\x50\xed\x55\xba rest";
  EXPECT_EQ(pick(fatbin, 9, 0), "cubin sm_0:" + fatbin);
}

TEST(ModuleImage, MalformedContainers) {
  const std::string ptx(".target sm_70\0", 14);
  std::string good = container({{MLXRT_IMAGE_PTX, 70, 0, ptx}});
  EXPECT_EQ(pick(good, 9, 0), "ptx:" + ptx);
  EXPECT_EQ(pick(good.substr(0, 12), 9, 0), "malformed");
  // Entries past the end, an image past the end, PTX without its NUL, an
  // unknown kind, an empty image.
  std::string tooMany = good;
  tooMany[8] = 2;
  EXPECT_EQ(pick(tooMany, 9, 0), "malformed");
  EXPECT_EQ(pick(good.substr(0, good.size() - 1), 9, 0), "malformed");
  std::string noNul = container({{MLXRT_IMAGE_PTX, 70, 0, ".target sm_70"}});
  EXPECT_EQ(pick(noNul, 9, 0), "malformed");
  EXPECT_EQ(pick(container({{7, 70, 0, ptx}}), 9, 0), "malformed");
  EXPECT_EQ(pick(container({{MLXRT_IMAGE_CUBIN, 90, 0, ""}}), 9, 0),
            "malformed");
}

//===----------------------------------------------------------------------===//
// The ABI outside a run
//===----------------------------------------------------------------------===//

TEST(CudaAbi, LibraryCallsWithoutADeviceDoNothing) {
  float a[4] = {1, 2, 3, 4}, c[4] = {0, 0, 0, 0};
  mlxrt_matmul(MLXRT_DTYPE_FLOAT32, MLXRT_DTYPE_FLOAT32, 0, 1, 2, 2, 2,
               reinterpret_cast<intptr_t>(a), 2, 0,
               reinterpret_cast<intptr_t>(a), 2, 0,
               reinterpret_cast<intptr_t>(c), 2, 0);
  EXPECT_EQ(c[0], 0.0f);
  mlxrt_graph_capturable();
  static const char Image[] = "MLXCIMG1";
  void *module = mgpuModuleLoad(const_cast<char *>(Image), sizeof(Image));
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(mgpuModuleGetFunction(module, "k"), nullptr);
  mgpuModuleUnload(module);
}

} // namespace
