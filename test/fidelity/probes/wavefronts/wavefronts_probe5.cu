// Shared wavefronts vs global traffic on the same SM (issue #40, scan's gap), fifth probe: the fourth's
// kernel with the shared pattern of the third (pat 0 aligned row, 1 shifted by a word, 2 padded column),
// against LDG.32 and LDG.128 streams, and repeats for the run-to-run spread.
// Blocks of 512 threads. Group A (blocks < 132, launched first): warps < aw loop 2048 conflict-free
// 32-bit shared accesses (aop 1 LDS, 2 STS; pattern pat); with same = 1 the other
// warps of A stream global data like B. Group B (the other blocks): bop bits 4 / 8: a loop of bi
// LDG / STG per thread, wide 16 (int4) or 4 (int) bytes; 0: nothing.
#include <cstdio>
#include <cuda_runtime.h>
struct Q { int aop, aw, same, bop, bi, wide, pat; };
__global__ void k(Q q, int4* g) {
  extern __shared__ int sm[];  // 8 KiB
  volatile int* v = sm;
  int t = threadIdx.x, w = t >> 5, l = t & 31, b = blockIdx.x, acc = l;
  if (b < 132 && w < q.aw) {
#pragma unroll 8
    for (int i = 0; i < 2048; i++) {
      int r = (i * 16 + w) & 31;
      int x = q.pat == 2 ? l * 33 + r : r * 32 + l + q.pat;
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
  auto run = [&](int aop, int pat, int bop, int wide) {
    k<<<264, 512, 8448>>>(Q{aop, 16, 0, bop, 128, wide, pat}, g);
    // V aop pat bop wide error
    printf("V %d %d %d %d %s\n", aop, pat, bop, wide, cudaGetErrorString(cudaDeviceSynchronize()));
  };
  // one wave: 16 shared warps in A, a block streaming 128 global rows per warp beside it on each SM
  for (int pat = 0; pat < 3; pat++) run(2, pat, 4, 4);   // STS against LDG.32
  run(2, 1, 4, 16);                                       // ... LDG.128
  for (int pat = 0; pat < 3; pat++) run(1, pat, 4, 4);   // LDS against LDG.32
  run(1, 1, 4, 16);                                       // ... LDG.128
  for (int n = 0; n < 3; n++) run(1, 0, 8, 16);          // LDS against STG.128, three times
  return 0;
}
