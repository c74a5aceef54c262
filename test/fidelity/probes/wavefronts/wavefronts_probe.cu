// Shared-memory wavefronts vs concurrent global traffic on the same SM (issue #40, scan's gap).
// Some warps (or blocks) run conflict-free 32-bit LDS or STS loops (ideal: 1 wavefront per
// instruction); the other warps of the block (or co-resident blocks) stream global loads/stores.
#include <cstdio>
#include <cuda_runtime.h>
// sop: the shared warps' op (1 LDS, 2 STS). gop: the global warps' op, bits: 1 LDG, 2 STG,
// 4 loads with ld.global.cg (not allocated in L1). wide: bytes per thread (4 or 16).
// sw: shared warps per block (warps >= sw stream global); blocks >= nsh have no shared warps.
// span: global footprint in elements (power of 2; small = L1 hits after the first touch).
struct P { int sop, gop, wide, sw, iters, giters, nsh, span; };
__global__ void k(P p, const int4* gi, int4* go, int* smid) {
  __shared__ int sm[8192];
  int w = threadIdx.x >> 5, l = threadIdx.x & 31, nw = blockDim.x >> 5;
  int sw = blockIdx.x < p.nsh ? p.sw : 0, acc = l;
  if (threadIdx.x == 0) { int s; asm volatile("mov.u32 %0, %%smid;" : "=r"(s)); smid[blockIdx.x] = s; }
  volatile int* v = sm;
  if (w < sw) {
    for (int i = 0; i < p.iters; i++) {
      int x = ((i * nw + w) * 32 + l) & 8191;  // 32 consecutive words: one wavefront
      if (p.sop == 1) acc += v[x]; else v[x] = acc + i;
    }
  } else if (p.gop) {
    unsigned g = (blockIdx.x * nw + w) * p.giters;  // this warp's rows of 32 elements
#pragma unroll 4
    for (int i = 0; i < p.giters; i++) {
      unsigned e = ((g + i) * 32 + l) & (p.span - 1);
      if (p.wide == 16) {
        if (p.gop & 1) { int4 y = (p.gop & 4) ? __ldcg(gi + e) : gi[e]; acc += y.x ^ y.w; }
        if (p.gop & 2) go[e] = make_int4(acc, i, e, l);
      } else {
        if (p.gop & 1) acc += (p.gop & 4) ? __ldcg((const int*)gi + e) : ((const int*)gi)[e];
        if (p.gop & 2) ((int*)go)[e] = acc + i;
      }
    }
  }
  if (acc == 0x7fffffff) smid[511] = acc;  // keeps the loads
}
int main() {
  const int S = 1 << 22, B = 1 << 13;  // big span: 64 MiB of int4; small: 128 KiB of int4
  int4 *gi, *go; int *smid, h[512];
  cudaMalloc(&gi, S * 16); cudaMalloc(&go, S * 16); cudaMalloc(&smid, 512 * 4);
  // one launch: 4 shared warps per block (none in blocks >= 132), 8192 shared accesses each
  auto run = [&](int grid, int block, int sop, int gop, int wide, int giters, int span) {
    P p = {sop, gop, wide, 4, 8192, giters, 132, span};
    k<<<grid, block>>>(p, gi, go, smid);
    cudaMemcpy(h, smid, grid * 4, cudaMemcpyDeviceToHost);
    int sh[132] = {0}, gl[132] = {0}, both = 0;  // SMs holding both a shared block and a global block
    for (int b = 0; b < grid; b++) (b < 132 ? sh : gl)[h[b] % 132]++;
    for (int s = 0; s < 132; s++) both += sh[s] && gl[s];
    // V grid block sop gop wide giters span sms_both error
    printf("V %d %d %d %d %d %d %d %d %s\n", grid, block, sop, gop, wide, giters, span, both,
           cudaGetErrorString(cudaGetLastError()));
  };
  // warp-specialised (4 shared + 4 global warps, one block per SM): global op none / LDG / STG / both / LDG.cg
  int gw[7][2] = {{0, 16}, {1, 4}, {1, 16}, {2, 4}, {2, 16}, {3, 16}, {5, 16}};
  for (int sop = 1; sop <= 2; sop++)
    for (auto& g : gw) run(132, 256, sop, g[0], g[1], 64, S);
  run(132, 256, 1, 1, 16, 64, B);  // L1 hits after the first touch
  run(132, 256, 2, 1, 16, 64, B);
  run(132, 512, 1, 1, 16, 64, S);  // 12 global warps
  run(132, 256, 1, 1, 16, 16, S);  // a quarter of the global rows
  run(132, 256, 1, 1, 4, 16, S);
  // co-resident blocks: 132 shared blocks + 132 global blocks (sms_both says how many SMs hold one of each)
  for (int g = 0; g <= 2; g++) run(264, 128, 1, g, 16, 64, S);
  run(264, 128, 2, 1, 16, 64, S);
  return 0;
}
