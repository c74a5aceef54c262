// filter_arr (cuda-samples warpAggregatedAtomicsCG, as in ../../groundtruth/cuda-samples/samples.cu),
// instrumented: each warp records its SM, clock64 and %globaltimer at start and after its element
// (a __syncwarp first, so the whole warp is past its atomic and store). mode 0: the sample (one
// counter); mode 1: a counter per warp (no contention), the control. ./filter_probe MODE OUT.csv
#include <cooperative_groups.h>
#include <cstdio>
#include <vector>
namespace cg = cooperative_groups;
typedef unsigned long long u64;
__device__ int agg(int *c) {
  cg::coalesced_group a = cg::coalesced_threads();
  int r = 0;
  if (a.thread_rank() == 0) r = atomicAdd(c, a.size());
  r = a.shfl(r, 0);
  return r + a.thread_rank();
}
__global__ void filter_probe(int *dst, int *nres, const int *src, int n, int mode, long long *rec) {
  long long c0 = clock64(); u64 g0; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g0));
  int id = threadIdx.x + blockIdx.x * blockDim.x, w = id >> 5;
  for (int i = id; i < n; i += gridDim.x * blockDim.x)
    if (src[i] > 0) dst[agg(mode ? nres + w : nres) + (mode ? 32 * w : 0)] = src[i];
  __syncwarp();
  long long c1 = clock64(); u64 g1; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g1));
  unsigned sm; asm("mov.u32 %0, %%smid;" : "=r"(sm));
  if ((threadIdx.x & 31) == 0) { long long *r = rec + 5 * w; r[0] = sm; r[1] = c0; r[2] = c1; r[3] = (long long)g0; r[4] = (long long)g1; }
}
int main(int argc, char **argv) {
  const int N = 1 << 21, T = 512, G = N / T + 1, W = G * T / 32;
  int mode = argc > 1 ? atoi(argv[1]) : 0;
  std::vector<int> src(N);
  for (int i = 0; i < N; i++) { unsigned x = i ^ 0xf117; x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16; src[i] = x % 5; }
  int *dS, *dD, *dN; long long *dR;
  cudaMalloc(&dS, N * 4); cudaMalloc(&dD, N * 4); cudaMalloc(&dN, W * 4); cudaMalloc(&dR, W * 40);
  cudaMemcpy(dS, src.data(), N * 4, cudaMemcpyHostToDevice);
  for (int rep = 0; rep < 3; rep++) {
    cudaMemset(dN, 0, W * 4); cudaMemset(dR, 0, W * 40);
    filter_probe<<<G, T>>>(dD, dN, dS, N, mode, dR);
    cudaDeviceSynchronize();
  }
  std::vector<long long> r(5 * W);
  cudaMemcpy(r.data(), dR, W * 40, cudaMemcpyDeviceToHost);
  FILE *f = fopen(argv[2], "w");
  fprintf(f, "block,warp,sm,clk0,clk1,gt0,gt1\n");
  for (int w = 0; w < W; w++) fprintf(f, "%d,%d,%lld,%lld,%lld,%lld,%lld\n", w / 16, w % 16, r[5 * w], r[5 * w + 1], r[5 * w + 2], r[5 * w + 3], r[5 * w + 4]);
  fclose(f);
  printf("mode %d: %s, err %s\n", mode, argv[2], cudaGetErrorString(cudaGetLastError()));
}
