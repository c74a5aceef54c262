// Shared wavefronts vs global traffic on the same SM (issue #40, scan's gap), fourth probe: the rate
// against the shared access density, the global access width, and warps of the same block.
// Blocks of 512 threads. Group A (blocks < 132, launched first): warps < aw loop 2048 conflict-free
// 32-bit shared accesses (aop 1 LDS, 2 STS, one aligned 128-byte row each); with same = 1 the other
// warps of A stream global data like B. Group B (the other blocks): bop bits 4 / 8: a loop of bi
// LDG / STG per thread, wide 16 (int4) or 4 (int) bytes; 0: nothing.
#include <cstdio>
#include <cuda_runtime.h>
struct Q { int aop, aw, same, bop, bi, wide; };
__global__ void k(Q q, int4* g) {
  extern __shared__ int sm[];  // 8 KiB
  volatile int* v = sm;
  int t = threadIdx.x, w = t >> 5, l = t & 31, b = blockIdx.x, acc = l;
  if (b < 132 && w < q.aw) {
#pragma unroll 8
    for (int i = 0; i < 2048; i++) {
      int x = ((i * 16 + w) & 31) * 32 + l;
      if (q.aop & 1) acc += v[x];
      if (q.aop & 2) v[x + 1056] = acc + i;
    }
  } else if (b >= 132 || q.same) {
    unsigned e0 = b * 16 + w;  // this warp's first row of 32 elements
#pragma unroll 4
    for (int i = 0; i < q.bi; i++) {
      unsigned e = (((e0 * q.bi + i) * 32) + l) & ((1 << 22) - 1);
      if (q.wide == 16) {
        if (q.bop & 4) { int4 y = g[e]; acc += y.x ^ y.y ^ y.z ^ y.w; }
        if (q.bop & 8) g[e + (1 << 22)] = make_int4(acc, i, e, l);
      } else {
        if (q.bop & 4) acc += ((int*)g)[e];
        if (q.bop & 8) ((int*)g)[e + (1 << 22)] = acc + i;
      }
    }
  }
  if (acc == 0x7fffffff) g[0].x = acc;  // keeps the loads
}
int main() {
  int4* g;
  cudaMalloc(&g, 1 << 27);
  auto run = [&](int aop, int aw, int same, int nb, int bop, int bi, int wide) {
    k<<<132 + nb, 512, 8448>>>(Q{aop, aw, same, bop, bi, wide}, g);
    // V aop aw same nb bop bi wide error
    printf("V %d %d %d %d %d %d %d %s\n", aop, aw, same, nb, bop, bi, wide, cudaGetErrorString(cudaDeviceSynchronize()));
  };
  for (int aw : {16, 8, 4}) run(2, aw, 0, 132, 4, 128, 16);  // STS against another block's LDG.128
  run(2, 16, 0, 132, 4, 128, 4);                              // ... LDG.32
  run(2, 8, 1, 0, 4, 128, 16);                                // ... the same block's other warps' LDG.128
  for (int aw : {16, 4}) run(1, aw, 0, 132, 8, 128, 16);     // LDS against another block's STG.128
  run(1, 16, 0, 132, 8, 128, 4);                              // ... STG.32
  run(1, 8, 1, 0, 8, 128, 16);                                // ... the same block's STG.128
  for (int aw : {16, 8, 4}) run(1, aw, 0, 132 * 64, 0, 0, 16);  // LDS against blocks that start and end
  return 0;
}
