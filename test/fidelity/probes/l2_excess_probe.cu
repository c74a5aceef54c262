// Probes for the DRAM writes of the stride-32 load kernels, which exceed the bytes the kernel stores
// (g_ld_u8_stride32: 5.10 MB written for 4.19 MB stored; u16: 9.08 / 8.39; u32: 17.05 / 16.78).
// Questions: are there writes without any store (dirty data from outside the kernel); do they follow
// the read volume or the store pattern (bytes per warp store); does a dirty line written back on its
// own, with no loads racing it, cost more than its bytes.
//   run 1 (caches flushed before each kernel): ids 0-5
//   run 2 (--cache-control none, the L2 carries over): clean stream, store-only kernel, clean stream
//   run 3 (`only`): the read-only stream twice, under one-pass kernel replay and application replay
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)

// load an L at element stride S (micro.cu's g_ld_<T>_stride32 when L = T, S = 32), store a T
template <typename L, typename T, int S>
__global__ void ld(const L* in, T* out) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = (T)in[S * i];
}
// the same loads, no store unless the data holds a value it never holds
template <typename L, int S>
__global__ void ld_only(const L* in, int* sink) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (in[S * i] == (L)0x7e) sink[i & 1023] = 1;
}
template <typename T>
__global__ void st(T* out) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = (T)(i | 1);
}

int main(int argc, char** argv) {
  const size_t N = size_t(1) << 22;  // micro.cu's G_THREADS
  const int G = (int)(N / 256);
  uint8_t *big, *out; int* sink;
  CK(cudaMalloc(&big, 32 * N * 4 + 4096)); CK(cudaMalloc(&out, N * 4)); CK(cudaMalloc(&sink, 4096));
  CK(cudaMemset(big, 1, 32 * N * 4 + 4096)); CK(cudaMemset(out, 0, N * 4)); CK(cudaMemset(sink, 0, 4096));
  CK(cudaDeviceSynchronize());
  if (argc > 1 && !strcmp(argv[1], "only")) {
    // run 3: the read-only stream alone, under other replay modes; with a second argument, after
    // allocating (and touching) 8 GB more device memory that the kernel could reach
    if (argc > 2) { void* extra; CK(cudaMalloc(&extra, size_t(8) << 30)); CK(cudaMemset(extra, 2, size_t(8) << 30)); }
    ld_only<uint8_t, 32><<<G, 256>>>(big, sink);
    ld_only<uint8_t, 32><<<G, 256>>>(big, sink);
  } else if (argc > 1 && !strcmp(argv[1], "carry")) {
    // run 2: each store-only kernel sits between two read-only streams of 268 MB (the first evicts what
    // was there before, the second evicts the stored lines: its writes are their write-back)
    ld_only<uint32_t, 32><<<G, 256>>>((const uint32_t*)big, sink);
    st<uint8_t><<<G, 256>>>(out);
    ld_only<uint32_t, 32><<<G, 256>>>((const uint32_t*)big, sink);
    st<uint16_t><<<G, 256>>>((uint16_t*)out);
    ld_only<uint32_t, 32><<<G, 256>>>((const uint32_t*)big, sink);
    st<uint32_t><<<G, 256>>>((uint32_t*)out);
    ld_only<uint32_t, 32><<<G, 256>>>((const uint32_t*)big, sink);
  } else {
    ld<uint8_t, uint8_t, 32><<<G, 256>>>(big, out);                               // 0 = g_ld_u8_stride32
    ld_only<uint8_t, 32><<<G, 256>>>(big, sink);                                  // 1 no store
    ld<uint16_t, uint16_t, 32><<<G, 256>>>((const uint16_t*)big, (uint16_t*)out);  // 2 = g_ld_u16_stride32
    ld<uint32_t, uint32_t, 32><<<G, 256>>>((const uint32_t*)big, (uint32_t*)out);  // 3 = g_ld_u32_stride32
    ld<uint8_t, uint32_t, 32><<<G, 256>>>(big, (uint32_t*)out);                   // 4 u8 loads, u32 stores
    ld<uint32_t, uint8_t, 32><<<G, 256>>>((const uint32_t*)big, out);             // 5 u32 loads, u8 stores
  }
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
