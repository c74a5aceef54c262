// Shared wavefronts vs the access's spread over 128-byte rows, with global traffic or block starts
// on the same SM (issue #40, scan's gap), third probe. Blocks of 512 threads.
// Group A (blocks < 132, launched first): every warp loops 2048 conflict-free 32-bit shared accesses
// (aop bits: 1 LDS, 2 STS) in pattern pat: 0 one aligned 128-byte row; 1 the same shifted by one word
// (two rows); 2 a padded column (lane * 33: 32 rows). Group B (the other blocks): bop bits 4 / 8:
// a loop of bi LDG.128 / STG.128 per thread; 0: nothing (a block that starts and ends).
#include <cstdio>
#include <cuda_runtime.h>
struct Q { int aop, pat, bop, bi; };
__global__ void k(Q q, int4* g) {
  extern __shared__ int sm[];  // 8 KiB
  volatile int* v = sm;
  int t = threadIdx.x, w = t >> 5, l = t & 31, b = blockIdx.x, acc = l;
  if (b < 132) {
#pragma unroll 8
    for (int i = 0; i < 2048; i++) {
      int r = (i * 16 + w) & 31;  // this access's row
      int x = q.pat == 2 ? l * 33 + r : r * 32 + l + q.pat;  // words 0..1054
      if (q.aop & 1) acc += v[x];
      if (q.aop & 2) v[x + 1056] = acc + i;
    }
  } else {
    unsigned e0 = (b - 132) * 16 + w;  // this warp's first row of 32 int4
#pragma unroll 4
    for (int i = 0; i < q.bi; i++) {
      unsigned e = (((e0 * q.bi + i) * 32) + l) & ((1 << 22) - 1);
      if (q.bop & 4) { int4 y = g[e]; acc += y.x ^ y.y ^ y.z ^ y.w; }
      if (q.bop & 8) g[e + (1 << 22)] = make_int4(acc, i, e, l);
    }
  }
  if (acc == 0x7fffffff) g[0].x = acc;  // keeps the loads
}
int main() {
  int4* g;
  cudaMalloc(&g, 1 << 27);
  // one launch: 132 A blocks + nb B blocks
  auto run = [&](int aop, int pat, int nb, int bop, int bi) {
    k<<<132 + nb, 512, 8448>>>(Q{aop, pat, bop, bi}, g);
    // V aop pat nb bop bi error
    printf("V %d %d %d %d %d %s\n", aop, pat, nb, bop, bi, cudaGetErrorString(cudaDeviceSynchronize()));
  };
  for (int op = 1; op <= 2; op++)
    for (int pat = 0; pat < 3; pat++) {
      run(op, pat, 0, 0, 0);        // A alone
      run(op, pat, 132, 4, 128);    // one wave: A + a block streaming LDG.128 on each SM
      run(op, pat, 132, 8, 128);    // ... STG.128
      run(op, pat, 132 * 64, 0, 0); // B blocks that only start and end
      run(op, pat, 132 * 64, 12, 1); // B blocks doing the scan's LDG.128 + STG.128
    }
  return 0;
}
