// How do a copy's DRAM write-backs grow with its size, from ncu's flushed (empty) L2 and from a
// clean full one? micro.cu's g_ld_u64_coalesced writes 11.7 MB back in one replay pass on the H200
// (an LRU L2 with near-partition copies: ~8-10), 1 MB more than after a clean-full L2, while the
// store-only g_st_u64_coalesced keeps ~30 MB of its 33.5 MB dirty. Each configuration is one
// kernel as micro.cu's (one element per thread, 256 threads per block, full occupancy):
//   ld<uint64_t> copies of S = 8 16 20 24 28 32 40 48 64 MiB (in and out S each),
//   ld<int4> copies of 32 and 64 MiB, ld<uint32_t> copies of 16 24 32 MiB,
//   st (u64 stores only) of 16 24 28 32 40 48 MiB.
// Mode `flushed` launches the configurations alone (run under ncu --cache-control all: every one
// starts from an empty L2); mode `clean` puts a 512 MiB read-only stream before each (a clean full
// L2) and one at the end, so that each stream's DRAM writes are what the previous copy left dirty
// (application replay, --cache-control none). Every configuration twice. An optional second
// argument sets cudaLimitPersistingL2CacheSize first (bytes; the default limit is 11,796,480): does
// the set-aside cost normal lines capacity when no line persists?
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)

template <typename T>
__global__ void ld(const T* in, T* out) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}
__global__ void st(uint64_t* out) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = i | 1;
}
__global__ void stream(const int4* b, size_t n, unsigned* sink) {
  int acc = 0;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) acc ^= b[i].y;
  if (acc == 0x12345678) sink[threadIdx.x] = acc;
}

int main(int argc, char** argv) {
  const bool clean = argc > 1 && strcmp(argv[1], "clean") == 0;
  if (argc > 2) CK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, (size_t)atoll(argv[2])));
  size_t limit = 0;
  CK(cudaDeviceGetLimit(&limit, cudaLimitPersistingL2CacheSize));
  printf("persisting L2 limit %zu\n", limit);
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const size_t MiB = size_t(1) << 20, junkBytes = 512 * MiB, maxBytes = 64 * MiB;
  void *in, *out; int4* junk; unsigned* sink;
  CK(cudaMalloc(&in, maxBytes)); CK(cudaMalloc(&out, maxBytes)); CK(cudaMalloc(&junk, junkBytes)); CK(cudaMalloc(&sink, 4096));
  CK(cudaMemset(in, 1, maxBytes)); CK(cudaMemset(out, 0, maxBytes)); CK(cudaMemset(junk, 3, junkBytes));
  const size_t jn = junkBytes / 16;
  struct Cfg { char kind; int mib; };
  const Cfg cfgs[] = {{'8', 8}, {'8', 16}, {'8', 20}, {'8', 24}, {'8', 28}, {'8', 32}, {'8', 40}, {'8', 48}, {'8', 64},
                      {'G', 32}, {'G', 64}, {'4', 16}, {'4', 24}, {'4', 32},
                      {'s', 16}, {'s', 24}, {'s', 28}, {'s', 32}, {'s', 40}, {'s', 48}};
  for (int rep = 0; rep < 2; rep++) {
    for (const Cfg& c : cfgs) {
      const size_t bytes = (size_t)c.mib * MiB;
      if (clean) stream<<<sms * 8, 256>>>(junk, jn, sink);
      switch (c.kind) {
        case '8': ld<uint64_t><<<bytes / 8 / 256, 256>>>((const uint64_t*)in, (uint64_t*)out); break;
        case 'G': ld<int4><<<bytes / 16 / 256, 256>>>((const int4*)in, (int4*)out); break;
        case '4': ld<uint32_t><<<bytes / 4 / 256, 256>>>((const uint32_t*)in, (uint32_t*)out); break;
        default: st<<<bytes / 8 / 256, 256>>>((uint64_t*)out);
      }
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      printf("COPYSWEEP rep=%d kind=%c mib=%d\n", rep, c.kind, c.mib);
    }
  }
  if (clean) stream<<<sms * 8, 256>>>(junk, jn, sink);
  CK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
