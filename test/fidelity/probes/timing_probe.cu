// Probes for the timing model: does an exited warp stay "active" until its CTA ends; what a CTA
// slot costs between blocks; what an outstanding store costs at EXIT; L2 dirty retention.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)

__device__ __forceinline__ void spin(long long d) {
  long long t0 = clock64();
  while (clock64() - t0 < d) {}
}
// every warp spins d cycles
__global__ void spin_all(long long d, int* sink) { spin(d); if (d < 0) sink[0] = 1; }
// only warp 0 of the block spins; the others exit at once
__global__ void spin_w0(long long d, int* sink) { if ((threadIdx.x >> 5) == 0) spin(d); if (d < 0) sink[0] = 1; }
// every warp spins, then stores 128 B (coalesced u32)
__global__ void spin_store(long long d, unsigned* out) {
  spin(d);
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = (unsigned)i;
}
// every warp spins with dynamic shared memory (fewer blocks per SM)
__global__ void spin_smem(long long d, int* sink) { extern __shared__ int s[]; spin(d); if (d < 0) { s[threadIdx.x] = 1; sink[0] = s[0]; } }
// g_ld_u128_stride2 as in micro.cu
__global__ void ld_u128_stride2(const int4* in, int4* out) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[2 * i];
}
__global__ void ld_u128_coalesced(const int4* in, int4* out) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}

int main(int argc, char** argv) {
  int* sink; CK(cudaMalloc(&sink, 64 << 20));
  unsigned* out; CK(cudaMalloc(&out, 256 << 20));
  int4 *big, *o4; CK(cudaMalloc(&big, 256 << 20)); CK(cudaMalloc(&o4, 128 << 20));
  CK(cudaMemset(big, 1, 256 << 20)); CK(cudaMemset(o4, 0, 128 << 20));
  const int S = 132;
  const long long D = 2000;
  spin_all<<<S, 256>>>(0, sink);           // warm-up (not measured: -k filters by launch)
  spin_w0<<<S, 256>>>(200000, sink);        // E1: 1 block/SM, warp 0 spins 200k cycles, 7 warps exit
  spin_all<<<S, 256>>>(200000, sink);       // E1 ref: all 8 warps spin
  spin_all<<<S * 8 * 20, 256>>>(D, sink);   // E2a: 8 slots x 20 rounds, 8 warps
  spin_all<<<S * 4 * 20, 512>>>(D, sink);   // E2b: 4 slots, 16 warps
  spin_all<<<S * 32 * 20, 64>>>(D, sink);   // E2c: 32 slots, 2 warps
  CK(cudaFuncSetAttribute(spin_smem, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024));
  spin_smem<<<S * 2 * 20, 256, 100 * 1024>>>(D, sink);  // E2d: 2 slots, 8 warps
  spin_all<<<S * 8 * 20, 256>>>(0, sink);   // E2e: no spin: launch rate
  spin_w0<<<S * 8 * 20, 256>>>(D, sink);    // E2f: only warp 0 spins, steady state
  spin_all<<<S * 8 * 20, 256>>>(8000, sink);   // E2g: longer spin
  spin_store<<<S * 8 * 20, 256>>>(D, out);  // E3: spin + a coalesced store
  spin_all<<<S * 1 * 20, 1024>>>(D, sink);   // E2h: 2 slots of 32 warps
  for (int q = 1; q <= 4; ++q) ld_u128_stride2<<<16384 * q / 4, 256>>>(big, o4);   // E4
  for (int q = 1; q <= 4; ++q) ld_u128_coalesced<<<16384 * q / 4, 256>>>(big, o4); // E4b
  CK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
