// Where do the missing write-backs of a load-then-store kernel at full occupancy go? On the H200 the
// u128 stride-2 copy writes 48.4 MB to DRAM with 8 blocks per SM and 55.2 MB with 1 (l2_dirty_probe):
// either the L2 keeps more of its stores dirty at the end (then the next kernel writes them back), or
// write-backs still queued when the kernel ends fall outside ncu's measurement (then nobody counts
// them). Each configuration: a 512 MiB read-only stream (leaves the L2 clean), the copy kernel K1, the
// same stream again (its DRAM writes = the dirty bytes K1 left). Run under ncu with application
// replay and --cache-control none (the L2 carries between kernels).
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

// as micro.cu's g_st_u128_coalesced (stores only)
__global__ void st(const int4* in, int4* out) {
  extern __shared__ int s[];
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = make_int4((int)i | 1, (int)i + 1, (int)i + 2, (int)i + 3);
}

// a grid-wide read-only stream of n int4 (PASS 0 before K1, 1 after)
template <int PASS>
__global__ void stream(const int4* b, size_t n, unsigned* sink) {
  int acc = 0;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) { int4 v = b[i]; acc ^= v.y; }
  if (acc == 0x12345678) sink[threadIdx.x] = acc;
}

template <typename T, int S>
static void config(const void* in, void* out, const int4* junk, size_t junkN, unsigned* sink, int sms, int blocks, int smem) {
  auto k = S == 0 ? (void (*)(const T*, T*))st : ld<T, S>;
  CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
  stream<0><<<sms * 8, 256>>>(junk, junkN, sink);
  k<<<blocks, 256, smem>>>((const T*)in, (T*)out);
  stream<1><<<sms * 8, 256>>>(junk, junkN, sink);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  printf("DRAINPROBE T=%zu S=%d smem=%d\n", sizeof(T), S, smem);
}

int main() {
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const size_t N = size_t(1) << 22;  // micro.cu's G_THREADS
  const size_t MiB = size_t(1) << 20, junkBytes = 512 * MiB;
  void *big, *out; int4* junk; unsigned* sink;
  CK(cudaMalloc(&big, 2 * N * 16 + 4096)); CK(cudaMalloc(&out, N * 16)); CK(cudaMalloc(&junk, junkBytes)); CK(cudaMalloc(&sink, 4096));
  CK(cudaMemset(big, 1, 2 * N * 16 + 4096)); CK(cudaMemset(out, 0, N * 16)); CK(cudaMemset(junk, 3, junkBytes));
  const int G = (int)(N / 256);
  const size_t jn = junkBytes / 16;
  for (int rep = 0; rep < 2; rep++) {
    for (int smem : {0, 200 * 1024}) config<int4, 2>(big, out, junk, jn, sink, sms, G, smem);
    for (int smem : {0, 200 * 1024}) config<int4, 1>(big, out, junk, jn, sink, sms, G, smem);
    for (int smem : {0, 200 * 1024}) config<uint64_t, 2>(big, out, junk, jn, sink, sms, G, smem);
    for (int smem : {0, 200 * 1024}) config<uint64_t, 1>(big, out, junk, jn, sink, sms, G, smem);
    for (int smem : {0, 200 * 1024}) config<int4, 0>(big, out, junk, jn, sink, sms, G, smem);
  }
  printf("done\n");
  return 0;
}
