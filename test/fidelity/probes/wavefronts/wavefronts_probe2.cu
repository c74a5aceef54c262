// Shared wavefronts vs blocks starting on the SM (issue #40, scan's gap), second probe.
// Group A (blocks < 132, launched first): every warp loops `ai` conflict-free 32-bit shared accesses
// (aop bits: 1 LDS, 2 STS). Group B (the other blocks, launched into the free slots while A runs):
// bop bits 1 / 2: a loop of `bi` LDS / STS, 4: one LDG.128 and one STG.128 per thread (the scan's
// global traffic); 0: nothing. Each block records its SM and its start and end (globaltimer).
#include <cstdio>
#include <cuda_runtime.h>
struct Q { int aop, ai, bop, bi; };
__device__ unsigned long long now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__global__ void k(Q q, int4* g, unsigned long long* rec) {
  extern __shared__ int sm[];  // 8 KiB at least
  volatile int* v = sm;
  int t = threadIdx.x, w = t >> 5, l = t & 31, nw = blockDim.x >> 5, b = blockIdx.x, a = b < 132;
  unsigned long long t0 = now();
  int op = a ? q.aop : q.bop, n = a ? q.ai : q.bi, acc = l;
  for (int i = 0; i < n; i++) {
    int x = ((i * nw + w) * 32 + l) & 1023;  // 32 consecutive words: one wavefront
    if (op & 1) acc += v[x];
    if (op & 2) v[x + 1024] = acc + i;
  }
  if (op & 4) {
    int e = b * blockDim.x + t;
    int4 y = g[e];
    g[e + (1 << 21)] = make_int4(y.x + acc, y.y, y.z, y.w);
  }
  if (acc == 0x7fffffff) g[0].x = acc;  // keeps the loads
  __syncthreads();
  if (t == 0) {
    int s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    rec[3 * b] = s, rec[3 * b + 1] = t0, rec[3 * b + 2] = now();
  }
}
int main() {
  int4* g; unsigned long long *rec, *h = new unsigned long long[3 * 9000];
  cudaMalloc(&g, 1 << 26); cudaMalloc(&rec, 3 * 9000 * 8);
  // one launch: 132 A blocks + nb B blocks of 128 threads, smem bytes of dynamic shared memory each
  auto run = [&](int nb, int smem, int aop, int bop, int bi) {
    int grid = 132 + nb;
    k<<<grid, 128, smem>>>(Q{aop, 8192, bop, bi}, g, rec);
    cudaMemcpy(h, rec, grid * 24, cudaMemcpyDeviceToHost);
    long during = 0;  // B blocks that started on an A block's SM while it ran
    for (int a = 0; a < 132; a++)
      for (int b = 132; b < grid; b++)
        during += h[3 * b] == h[3 * a] && h[3 * b + 1] >= h[3 * a + 1] && h[3 * b + 1] <= h[3 * a + 2];
    // V grid smem aop bop bi during error
    printf("V %d %d %d %d %d %ld %s\n", grid, smem, aop, bop, bi, during, cudaGetErrorString(cudaGetLastError()));
  };
  const int M = 132 * 64;
  run(0, 8192, 1, 0, 0);  // A alone
  run(M, 8192, 1, 0, 0);  // B blocks that do nothing
  run(M / 4, 8192, 1, 0, 0);
  run(M, 8192, 2, 0, 0);
  run(M, 32768, 1, 0, 0);  // fewer B blocks at once
  run(M, 8192, 1, 4, 0);   // B: the scan's LDG.128 + STG.128
  run(M, 8192, 2, 4, 0);
  run(M, 8192, 1, 1, 16);  // B: short shared loops
  run(M, 8192, 1, 2, 16);
  run(M, 8192, 2, 2, 16);
  run(M, 8192, 2, 1, 16);
  run(132, 8192, 1, 2, 8192);  // one wave: A's LDS against B's STS on the same SM
  run(132, 8192, 1, 1, 8192);
  run(132, 8192, 3, 3, 8192);
  return 0;
}
