// Do partial-sector stores of neighbouring warps reach the L2 as one write? On the H200
// g_st_u32_misaligned (micro.cu: out[i + 1] = i | 1, 256 threads per block) shows 5 L1 store sectors per
// warp but only 4.17 L2 write sectors (lts__t_sectors_srcunit_tex_op_write 546k of 655k): the sector a
// warp shares with the next warp is written once in ~83 % of the boundaries, 7/8 of which lie inside a
// block (one SM). Kernels, 4M u32 (16 MiB) each, one replay pass, ncu --cache-control all:
//   mis<B>      out[i + 1] = i | 1 with B threads per block (32: no neighbour on the same SM in the block)
//   mis_rev     as mis256, warp w of a block writes the block's chunk 7 - w (the later warp writes first)
//   mis_delay<N> as mis256, odd warps spin N clock cycles before their store
//   copy_mis    out[i + 1] = in[i] (a load before each store)
//   two_half    each warp stores out[64 w + 2 l] then out[64 w + 2 l + 1] (one warp completes its own sectors)
//   mis_u8      u8 stores out8[i + 1] = i (each warp 32 bytes: one partial sector shared with the next warp)
// Every kernel twice.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)

__global__ void mis(uint32_t* out) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i + 1] = i | 1u;
}
__global__ void mis_rev(uint32_t* out) {
  const uint32_t w = threadIdx.x >> 5, l = threadIdx.x & 31;
  const uint32_t i = blockIdx.x * blockDim.x + (blockDim.x / 32 - 1 - w) * 32 + l;
  out[i + 1] = i | 1u;
}
__global__ void mis_delay(uint32_t* out, long long cycles) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if ((threadIdx.x >> 5) & 1) {
    const long long t0 = clock64();
    while (clock64() - t0 < cycles) {}
  }
  out[i + 1] = i | 1u;
}
__global__ void copy_mis(const uint32_t* in, uint32_t* out) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i + 1] = in[i];
}
__global__ void two_half(uint32_t* out) {
  const uint32_t gw = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, l = threadIdx.x & 31;
  out[64 * gw + 2 * l] = l;
  out[64 * gw + 2 * l + 1] = l | 1u;
}
__global__ void mis_u8(uint8_t* out) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i + 1] = (uint8_t)i;
}

int main() {
  const uint32_t n = (16u << 20) / 4;
  uint32_t *in, *out;
  CK(cudaMalloc(&in, n * 4 + 4096));
  CK(cudaMalloc(&out, 2 * n * 4 + 4096));
  CK(cudaMemset(in, 1, n * 4 + 4096));
  CK(cudaMemset(out, 0, 2 * n * 4 + 4096));
  CK(cudaDeviceSynchronize());
  for (int rep = 0; rep < 2; rep++) {
    mis<<<n / 256, 256>>>(out);
    mis<<<n / 32, 32>>>(out);
    mis<<<n / 1024, 1024>>>(out);
    mis_rev<<<n / 256, 256>>>(out);
    mis_delay<<<n / 256, 256>>>(out, 1000);
    mis_delay<<<n / 256, 256>>>(out, 20000);
    copy_mis<<<n / 256, 256>>>(in, out);
    two_half<<<n / 64 * 32 / 256, 256>>>(out);
    mis_u8<<<n / 256, 256>>>((uint8_t*)out);
    CK(cudaDeviceSynchronize());
  }
  printf("done\n");
  return 0;
}
