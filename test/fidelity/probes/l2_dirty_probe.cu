// Probes for the L2's dirty retention at kernel end (dram__bytes_write of a load-then-store kernel =
// bytes written minus the dirty bytes the L2 still holds). Questions: does retention depend on how
// far a warp's store trails its load (resident warps, a store that does not wait for the load), on
// the request size at equal bytes, and on the length of the kernel.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)

// as micro.cu's g_ld_<T>_<pattern>; the dynamic shared memory (never touched) limits blocks per SM
template <typename T, int S>
__global__ void ld(const T* in, T* out) {
  extern __shared__ int s[];
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[S * i];
}
// the store does not wait for the load: it reaches L2 ahead of (or with) the load
template <typename T, int S>
__global__ void ld_indep(const T* in, T* out, int* sink) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  T v = in[S * i];
  T w; memset(&w, 0, sizeof(T)); *reinterpret_cast<int*>(&w) = (int)i | 1;
  out[i] = w;
  if (*reinterpret_cast<const int*>(&v) == 0x7e7e7e7e) sink[i & 1023] = 1;
}
// 16 bytes per thread as two 8-byte halves (same bytes and addresses as the u128 kernel)
__global__ void ld_u64x2_stride2(const uint64_t* in, uint64_t* out) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  uint64_t a = in[4 * i], b = in[4 * i + 1];
  out[2 * i] = a;
  out[2 * i + 1] = b;
}

template <typename T, int S>
static void run(const char* tag, const void* in, void* out, int blocks, int smem) {
  auto k = ld<T, S>;
  CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
  k<<<blocks, 256, smem>>>((const T*)in, (T*)out);
  CK(cudaGetLastError());
  (void)tag;
}

int main() {
  const size_t N = size_t(1) << 22;  // micro.cu's G_THREADS
  void *big, *out; int* sink;
  CK(cudaMalloc(&big, 32 * N * 16 + 4096)); CK(cudaMalloc(&out, N * 16)); CK(cudaMalloc(&sink, 4096));
  CK(cudaMemset(big, 1, 32 * N * 16 + 4096)); CK(cudaMemset(out, 0, N * 16));
  const int G = (int)(N / 256);
  run<int4, 1>("warm", big, out, G, 0);
  // D1: resident warps per SM 64 (reference) / 16 (2 blocks: 100 KB smem) / 8 (1 block: 200 KB)
  for (int smem : {0, 100 * 1024, 200 * 1024}) run<int4, 2>("u128_stride2", big, out, G, smem);
  for (int smem : {0, 100 * 1024, 200 * 1024}) run<int4, 1>("u128_coalesced", big, out, G, smem);
  for (int smem : {0, 100 * 1024, 200 * 1024}) run<uint64_t, 1>("u64_coalesced", big, out, G, smem);
  for (int smem : {0, 100 * 1024, 200 * 1024}) run<uint64_t, 2>("u64_stride2", big, out, G, smem);
  for (int smem : {0, 100 * 1024, 200 * 1024}) run<uint8_t, 32>("u8_stride32", big, out, G, smem);
  // D2: stores that do not wait for their loads
  ld_indep<int4, 2><<<G, 256>>>((const int4*)big, (int4*)out, sink);
  ld_indep<int4, 1><<<G, 256>>>((const int4*)big, (int4*)out, sink);
  ld_indep<uint64_t, 1><<<G, 256>>>((const uint64_t*)big, (uint64_t*)out, sink);
  ld_indep<uint8_t, 32><<<G, 256>>>((const uint8_t*)big, (uint8_t*)out, sink);
  // D3: the u128 stride-2 copy as 8-byte accesses
  ld_u64x2_stride2<<<G, 256>>>((const uint64_t*)big, (uint64_t*)out);
  // D4: u64_stride2 / u64_coalesced on twice the grid (same bytes as the u128 kernels)
  run<uint64_t, 2>("u64_stride2_x2", big, out, 2 * G, 0);
  run<uint64_t, 1>("u64_coalesced_x2", big, out, 2 * G, 0);
  CK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
