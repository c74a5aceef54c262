// L1 miss merging probe, part 4 (issue #40 item 4): sector masks and warm L2 in cross-SM merging; see README.md.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void g2(const unsigned* in, unsigned* out, int mode) {
  extern __shared__ unsigned pad[];
  unsigned sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  const unsigned g = mode < 3 ? sm >> 1 : mode == 3 ? (sm & 1) : sm, l = threadIdx.x;
  bool on = true;
  if (sm & 1) on = mode == 1 ? l < 16 : mode == 2 ? l >= 16 : true;
  unsigned s = 0;
  if (on) {
#pragma unroll 8
    for (int r = 0; r < 64; r++) s += in[(g * 64 + r) * 32 + l];
  }
  if (s == 7u) out[blockIdx.x * 32 + l] = s + pad[0];
}
int main() {
  unsigned *in, *out;
  cudaMalloc(&in, 4 << 20);
  cudaMalloc(&out, 1 << 20);
  cudaMemset(in, 1, 4 << 20);
  const int smem = 200 << 10;
  cudaFuncSetAttribute(g2, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  for (int rep = 0; rep < 2; rep++)
    for (int m = 0; m < 5; m++) g2<<<132, 32, smem>>>(in, out, m);
  printf("done %d\n", (int)cudaDeviceSynchronize());
  return 0;
}
