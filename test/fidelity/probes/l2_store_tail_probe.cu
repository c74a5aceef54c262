// Does a store-only kernel leave write-backs for after its end? The H200 writes 37.4 MB during
// micro.cu's g_st_u128_coalesced (64 MiB of full-sector stores, one replay pass) but the read stream
// after it writes back only 28.5 MB more (l2_drain_probe.cu, l2_setaside_probe.cu): 1.2 MB of the
// stores reach DRAM in neither. Copies lose nothing so (l2_tail_probe.cu). Here the same stores with
// and without an idle tail: block 0 waits until every other block has finished, then spins TAIL_NS
// more before it exits. Write-backs still pending when the stores end would land inside the tail and
// be counted there. Argument `flushed` (run with --cache-control all, one pass): the kernels alone;
// `kept` (application replay, --cache-control none): each kernel between a 512 MiB read stream that
// cleans the L2 and a 128 MiB one that writes back what the kernel left dirty.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)

__device__ __forceinline__ uint64_t now_ns() { uint64_t t; asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t)); return t; }

template <typename T> __device__ __forceinline__ T val(size_t i) { return (T)((i * 2654435761ull) | 1ull); }
template <> __device__ __forceinline__ int4 val<int4>(size_t i) { int x = (int)i; return make_int4(x | 1, x + 1, x + 2, x + 3); }

// micro.cu's g_st_<T>_coalesced, block 0 last and idle for tail_ns before it stores and exits
template <typename T>
__global__ void st_tail(T* out, unsigned* done, unsigned tail_ns) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0) {
      while (atomicAdd(done, 0) < gridDim.x - 1) __nanosleep(1000);
      uint64_t t0 = now_ns();
      while (now_ns() - t0 < tail_ns) __nanosleep(1000);
    }
    __syncthreads();
    out[i] = val<T>(i);
    return;
  }
  out[i] = val<T>(i);
  __syncthreads();
  if (threadIdx.x == 0) { __threadfence(); atomicAdd(done, 1); }
}
template <typename T>
__global__ void st(T* out) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = val<T>(i);
}
template <int K>
__global__ void stream(const int4* b, size_t n, unsigned* sink) {
  int acc = 0;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) { int4 v = b[i]; acc ^= v.y; }
  if (acc == 0x12345678) sink[threadIdx.x] = acc;
}

int main(int argc, char** argv) {
  const bool kept = argc > 1 && strcmp(argv[1], "kept") == 0;
  const size_t N = size_t(1) << 22;  // threads, as micro.cu's G_THREADS
  const size_t SB = size_t(512) << 20;
  void *out; unsigned* done; int4* sb;
  CK(cudaMalloc(&out, N * 16)); CK(cudaMalloc(&done, 4096)); CK(cudaMalloc(&sb, SB));
  CK(cudaMemset(out, 0, N * 16)); CK(cudaMemset(sb, 1, SB));
  const int G = (int)(N / 256);
  auto before = [&] { if (kept) stream<0><<<132 * 8, 256>>>(sb, SB / 16, done + 512); };
  auto after = [&] { if (kept) stream<1><<<132 * 8, 256>>>(sb, (SB / 4) / 16, done + 512); };
  auto tailed = [&](bool wide, unsigned tail) {
    CK(cudaMemset(done, 0, 4));
    before();
    if (wide) st_tail<int4><<<G, 256>>>((int4*)out, done, tail);
    else st_tail<uint64_t><<<G, 256>>>((uint64_t*)out, done, tail);
    after();
  };
  before(); st<int4><<<G, 256>>>((int4*)out); after();          // micro.cu's g_st_u128_coalesced
  for (unsigned tail : {0u, 20000u, 100000u}) tailed(true, tail);
  before(); st<uint64_t><<<G, 256>>>((uint64_t*)out); after();  // g_st_u64_coalesced
  for (unsigned tail : {0u, 20000u, 100000u}) tailed(false, tail);
  CK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
