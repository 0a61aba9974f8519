// A measurement probe, not compiler output: what a read-once-write-once
// stream of W2's shape (2 x 256 MiB) reaches on this GPU, through
// cudaMemcpy and through hand-shaped kernels (one 16-byte group a thread,
// several, grid-stride), to tell how far mlxc's generated kernels are from
// what the memory allows. On the GPU machine:
//   nvcc -O3 -arch=sm_90 -o stream_probe stream_probe.cu && ./stream_probe
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>
#include <algorithm>

constexpr long R = 16384, C = 4096, N = R * C, N4 = N / 4;

__device__ __forceinline__ float silu(float h) { return h / (1.0f + __expf(-h)); }
__device__ __forceinline__ float siluRn(float h) {
  return h * __frcp_rn(1.0f + expf(-h));
}

__device__ __forceinline__ float4 op(float4 x, float4 b) {
  float4 y;
  y.x = siluRn(x.x + b.x); y.y = siluRn(x.y + b.y);
  y.z = siluRn(x.z + b.z); y.w = siluRn(x.w + b.w);
  return y;
}

__global__ void one(const float4 *x, const float4 *b, float4 *y) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N4) y[i] = op(x[i], b[i % (C / 4)]);
}

template <int U>
__global__ void unrolled(const float4 *x, const float4 *b, float4 *y) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  constexpr long S = N4 / U;
  float4 v[U], w[U];
#pragma unroll
  for (int k = 0; k < U; ++k) v[k] = x[i + k * S];
#pragma unroll
  for (int k = 0; k < U; ++k) w[k] = b[(i + k * S) % (C / 4)];
#pragma unroll
  for (int k = 0; k < U; ++k) y[i + k * S] = op(v[k], w[k]);
}

// U consecutive-in-block chunks: block covers U*blockDim groups.
template <int U>
__global__ void blocked(const float4 *x, const float4 *b, float4 *y) {
  long base = (long)blockIdx.x * blockDim.x * U + threadIdx.x;
  float4 v[U], w[U];
#pragma unroll
  for (int k = 0; k < U; ++k) v[k] = x[base + k * blockDim.x];
#pragma unroll
  for (int k = 0; k < U; ++k) w[k] = b[(base + k * blockDim.x) % (C / 4)];
#pragma unroll
  for (int k = 0; k < U; ++k) y[base + k * blockDim.x] = op(v[k], w[k]);
}

template <int U>
__global__ void blockedCs(const float4 *x, const float4 *b, float4 *y) {
  long base = (long)blockIdx.x * blockDim.x * U + threadIdx.x;
  float4 v[U], w[U];
#pragma unroll
  for (int k = 0; k < U; ++k) v[k] = __ldcs(x + base + k * blockDim.x);
#pragma unroll
  for (int k = 0; k < U; ++k) w[k] = b[(base + k * blockDim.x) % (C / 4)];
#pragma unroll
  for (int k = 0; k < U; ++k) __stcs(y + base + k * blockDim.x, op(v[k], w[k]));
}

__global__ void gridStride(const float4 *x, const float4 *b, float4 *y) {
  for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < N4;
       i += (long)gridDim.x * blockDim.x)
    y[i] = op(x[i], b[i % (C / 4)]);
}

__global__ void copy1(const float4 *x, float4 *y) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N4) y[i] = x[i];
}
template <int U> __global__ void copyU(const float4 *x, float4 *y) {
  long base = (long)blockIdx.x * blockDim.x * U + threadIdx.x;
  float4 v[U];
#pragma unroll
  for (int k = 0; k < U; ++k) v[k] = x[base + k * blockDim.x];
#pragma unroll
  for (int k = 0; k < U; ++k) y[base + k * blockDim.x] = v[k];
}

template <typename F> float timeIt(F f, int reps = 50) {
  cudaEvent_t s, e;
  cudaEventCreate(&s);
  cudaEventCreate(&e);
  for (int i = 0; i < 5; ++i) f();
  std::vector<float> t;
  for (int i = 0; i < reps; ++i) {
    cudaEventRecord(s);
    f();
    cudaEventRecord(e);
    cudaEventSynchronize(e);
    float ms;
    cudaEventElapsedTime(&ms, s, e);
    t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main() {
  float4 *x, *b, *y;
  cudaMalloc(&x, N * 4);
  cudaMalloc(&y, N * 4);
  cudaMalloc(&b, C * 4);
  cudaMemset(x, 0, N * 4);
  cudaMemset(b, 0, C * 4);
  double bytes = 2.0 * N * 4;
  auto report = [&](const char *name, float ms) {
    printf("%-28s %.4f ms  %.2f TB/s\n", name, ms, bytes / ms / 1e9);
  };
  report("cudaMemcpy D2D", timeIt([&] { cudaMemcpyAsync(y, x, N * 4, cudaMemcpyDeviceToDevice); }));
  report("copy 1/thread b256", timeIt([&] { copy1<<<N4 / 256, 256>>>(x, y); }));
  report("copy 4/thread b256", timeIt([&] { copyU<4><<<N4 / 1024, 256>>>(x, y); }));
  report("copy 8/thread b256", timeIt([&] { copyU<8><<<N4 / 2048, 256>>>(x, y); }));
  for (int bs : {128, 256, 512, 1024})
    { char n[64]; snprintf(n, 64, "w2 one b%d", bs);
      report(n, timeIt([&] { one<<<N4 / bs, bs>>>(x, b, y); })); }
  report("w2 unrolled2 b256", timeIt([&] { unrolled<2><<<N4 / 512, 256>>>(x, b, y); }));
  report("w2 unrolled4 b256", timeIt([&] { unrolled<4><<<N4 / 1024, 256>>>(x, b, y); }));
  report("w2 blocked2 b256", timeIt([&] { blocked<2><<<N4 / 512, 256>>>(x, b, y); }));
  report("w2 blocked4 b256", timeIt([&] { blocked<4><<<N4 / 1024, 256>>>(x, b, y); }));
  report("w2 blocked8 b256", timeIt([&] { blocked<8><<<N4 / 2048, 256>>>(x, b, y); }));
  report("w2 blocked4 b512", timeIt([&] { blocked<4><<<N4 / 2048, 512>>>(x, b, y); }));
  report("w2 blocked4cs b256", timeIt([&] { blockedCs<4><<<N4 / 1024, 256>>>(x, b, y); }));
  report("w2 blocked2cs b256", timeIt([&] { blockedCs<2><<<N4 / 512, 256>>>(x, b, y); }));
  int sms;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  for (int per : {4, 8, 16, 32})
    { char n[64]; snprintf(n, 64, "w2 gridstride %dx%d b256", sms, per);
      report(n, timeIt([&] { gridStride<<<sms * per, 256>>>(x, b, y); })); }
  // A graph of one launch, as mlxc replays it.
  cudaStream_t st; cudaStreamCreate(&st);
  cudaGraph_t g; cudaGraphExec_t ge;
  cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal);
  one<<<N4 / 256, 256, 0, st>>>(x, b, y);
  cudaStreamEndCapture(st, &g);
  cudaGraphInstantiate(&ge, g, 0);
  {
    cudaEvent_t s, e; cudaEventCreate(&s); cudaEventCreate(&e);
    std::vector<float> t;
    for (int i = 0; i < 55; ++i) {
      cudaEventRecord(s, st); cudaGraphLaunch(ge, st); cudaEventRecord(e, st);
      cudaEventSynchronize(e); float ms; cudaEventElapsedTime(&ms, s, e);
      if (i >= 5) t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    report("w2 one b256 as graph", t[t.size() / 2]);
  }
  printf("err: %s\n", cudaGetErrorString(cudaGetLastError()));
}
