// L1 miss merging probe (issue #40 item 4): see README.md beside it.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)

__device__ __forceinline__ void spin(long long c) {
  if (c > 0) { const long long t = clock64(); while (clock64() - t < c) {} }
  asm volatile("" ::: "memory");
}
__global__ void bs(const unsigned* in, unsigned* out, long long d) {
  spin((threadIdx.x >> 5) * d);
  const unsigned v = in[blockIdx.x * 32 + (threadIdx.x & 31)];
  if (v == 7u) out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
__global__ void smshare(const unsigned* in, unsigned* out) {
  unsigned s = 0, sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
#pragma unroll 1
  for (unsigned r = 0; r < 32; r++) s += in[(sm * 32 + r) * 32 + (threadIdx.x & 31)];
  if (s == 7u) out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
__global__ void rows(const unsigned* in, unsigned* out, unsigned rot) {
  const unsigned w = threadIdx.x >> 5;
  unsigned s = 0;
#pragma unroll 4
  for (unsigned k = 0; k < 16; k++) s += in[(blockIdx.x * 16 + ((k + rot * 2 * w) & 15)) * 32 + (threadIdx.x & 31)];
  if (s == 7u) out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

int main() {
  unsigned *in, *out;
  CK(cudaMalloc(&in, 16 << 20));
  CK(cudaMalloc(&out, 64 << 20));
  CK(cudaMemset(in, 1, 16 << 20));
  CK(cudaDeviceSynchronize());
  const int W[5] = {1, 2, 4, 8, 32};
  const long long D[4] = {100, 500, 2000, 10000};
  for (int rep = 0; rep < 2; rep++) {
    for (int w : W) bs<<<16384, 32 * w>>>(in, out, 0);
    for (long long d : D) bs<<<16384, 256>>>(in, out, d);
    smshare<<<132 * 16, 32>>>(in, out);
    rows<<<4096, 256>>>(in, out, 0);
    rows<<<4096, 256>>>(in, out, 1);
    CK(cudaDeviceSynchronize());
  }
  printf("done\n");
  return 0;
}
