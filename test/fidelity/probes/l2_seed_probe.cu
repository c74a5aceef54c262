// How much of a small, old dirty buffer does a kernel push out of the L2? ncu's 11-pass replay leaves
// ~2.3 MB dirty (arch ncuReplayDirtyBytes); on the H200 a 16 MiB u32 copy (g_ld_u32_coalesced, 48 MiB
// of lines with its near-partition copies) writes ~0.5 MB of that back and a 16 MiB store kernel none.
// Here the dirty buffer is a known one: SEED = 0 / 2.25 / 4.5 MiB of 16-byte stores (contiguous), then
// a grid-stride u32 kernel over 16 MiB: mode 0 copy out[i] = in[i], 1 out[i] = in[2i] (micro.cu's
// stride2), 2 stores out[i] = i | 1. 1056 blocks of 256 threads (8 per SM, all resident). The DRAM
// bytes the kernel writes minus the no-seed kernel's are the seed lines it pushed out.
//   `fused` (ncu --cache-control all): one launch writes the seed, meets at a grid barrier, then runs
//           the kernel: it starts from ncu's flushed (empty) L2;
//   `split` (--cache-control none): a 128 MiB read-only stream (a clean full L2), the seed kernel, the
//           kernel; a last stream at the end. What test/fidelity/probes/kernels/l2_seed.ts can launch.
// One replay pass (few metrics): no replay residue. Every configuration twice.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)

__device__ __forceinline__ void body(const uint32_t* in, uint32_t* out, size_t n, int mode) {
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = mode == 2 ? (uint32_t)i | 1u : in[mode == 1 ? 2 * i : i];
}
__device__ __forceinline__ void write_seed(int4* seed, size_t seed16) {
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < seed16; i += stride) seed[i] = make_int4((int)i | 1, 1, 2, 3);
}
__global__ void fused(const uint32_t* in, uint32_t* out, size_t n, int4* seed, size_t seed16, unsigned* bar, int mode) {
  write_seed(seed, seed16);
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) {
    atomicAdd(bar, 1u);
    while (atomicAdd(bar, 0u) < gridDim.x) __nanosleep(100);
  }
  __syncthreads();
  body(in, out, n, mode);
}
__global__ void seeder(int4* seed, size_t seed16) { write_seed(seed, seed16); }
__global__ void kernel(const uint32_t* in, uint32_t* out, size_t n, int mode) { body(in, out, n, mode); }
__global__ void stream(const int4* b, size_t n, unsigned* sink) {
  int acc = 0;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) acc ^= b[i].y;
  if (acc == 0x12345678) sink[threadIdx.x] = acc;
}

int main(int argc, char** argv) {
  const bool split = argc > 1 && strcmp(argv[1], "split") == 0;
  const size_t n = (16u << 20) / 4;  // 16 MiB of u32 out
  const size_t junk16 = (128u << 20) / 16;
  uint32_t *in, *out;
  int4 *seed, *junk;
  unsigned *bar, *sink;
  CK(cudaMalloc(&in, 2 * n * 4));
  CK(cudaMalloc(&out, n * 4));
  CK(cudaMalloc(&seed, 8u << 20));
  CK(cudaMalloc(&junk, junk16 * 16));
  CK(cudaMalloc(&bar, 4));
  CK(cudaMalloc(&sink, 4096));
  CK(cudaMemset(in, 1, 2 * n * 4));
  CK(cudaMemset(out, 0, n * 4));
  CK(cudaMemset(junk, 0, junk16 * 16));
  const double seeds[] = {0, 2.25, 4.5};
  const int grid = 132 * 8;
  for (int rep = 0; rep < 2; ++rep)
    for (int mode = 0; mode < 3; ++mode)
      for (double s : seeds) {
        const size_t seed16 = (size_t)(s * 1048576) / 16;
        if (split) {
          stream<<<grid, 256>>>(junk, junk16, sink);
          if (seed16) seeder<<<grid, 256>>>(seed, seed16);
          kernel<<<grid, 256>>>(in, out, n, mode);
        } else {
          CK(cudaMemset(bar, 0, 4));
          fused<<<grid, 256>>>(in, out, n, seed, seed16, bar, mode);
        }
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
      }
  if (split) stream<<<grid, 256>>>(junk, junk16, sink);
  CK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
