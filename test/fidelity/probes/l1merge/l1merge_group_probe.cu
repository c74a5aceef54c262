// L1 miss merging probe, part 3 (issue #40 item 4): which SMs' reads of one sector the L2 counts once; see README.md.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void grp(const unsigned* in, unsigned* out, int mode, long long d) {
  extern __shared__ unsigned pad[];
  unsigned sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  const unsigned g = mode == 0 ? sm : mode == 1 ? sm >> 1 : mode == 2 ? sm >> 2 : mode == 3 ? sm >> 4 : mode == 4 ? (sm & 1) : 0;
  if (d > 0 && (sm & 1)) { const long long t = clock64(); while (clock64() - t < d) {} }
  asm volatile("" ::: "memory");
  unsigned s = 0;
#pragma unroll 8
  for (int r = 0; r < 64; r++) s += in[(g * 64 + r) * 32 + threadIdx.x];
  if (s == 7u) out[blockIdx.x * 32 + threadIdx.x] = s + pad[0];
}
int main() {
  unsigned *in, *out;
  cudaMalloc(&in, 4 << 20);
  cudaMalloc(&out, 1 << 20);
  cudaMemset(in, 1, 4 << 20);
  const int smem = 200 << 10;
  cudaFuncSetAttribute(grp, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  for (int rep = 0; rep < 2; rep++) {
    for (int m = 0; m < 6; m++) grp<<<132, 32, smem>>>(in, out, m, 0);
    grp<<<132, 32, smem>>>(in, out, 1, 20000);
    grp<<<132, 32, smem>>>(in, out, 5, 20000);
  }
  printf("done %d\n", (int)cudaDeviceSynchronize());
  return 0;
}
