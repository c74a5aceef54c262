// Does the H200 count every write-back of a load-then-store kernel, or are some still queued when
// the kernel ends? The same kernels with and without an idle tail: block 0 waits until every other
// block has finished, then spins for TAIL_NS more before it exits. Write-backs still queued at the
// end of the plain kernel would drain inside the tail and be counted there. (They are not: the tail
// changes the writes by -2 to +0.3 MB.) With `plain`, micro.cu's kernels and a load-only stream, to
// be replayed in 1, 3 and 11 passes: what ncu's multi-pass replay leaves dirty in the L2.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)

__device__ __forceinline__ uint64_t now_ns() { uint64_t t; asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t)); return t; }

template <typename T, int S>
__global__ void ld_tail(const T* in, T* out, unsigned* done, unsigned tail_ns) {
  extern __shared__ int s[];
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0) {
      while (atomicAdd(done, 0) < gridDim.x - 1) __nanosleep(1000);
      uint64_t t0 = now_ns();
      while (now_ns() - t0 < tail_ns) __nanosleep(1000);
    }
    __syncthreads();
    out[i] = in[S * i];
    return;
  }
  out[i] = in[S * i];
  __syncthreads();
  if (threadIdx.x == 0) { __threadfence(); atomicAdd(done, 1); }
}

// micro.cu's g_ld_<T>_<pattern>, and the same loads without a store
template <typename T, int S>
__global__ void ld(const T* in, T* out) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[S * i];
}
template <typename T, int S>
__global__ void ld_only(const T* in, unsigned* sink) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (in[S * i] == (T)0x7e) sink[i & 1023] = 1;
}

template <typename T, int S>
static void run(const void* in, void* out, unsigned* done, int blocks, int smem, unsigned tail_ns) {
  auto k = ld_tail<T, S>;
  CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
  CK(cudaMemset(done, 0, 4));
  k<<<blocks, 256, smem>>>((const T*)in, (T*)out, done, tail_ns);
  CK(cudaGetLastError());
}

int main(int argc, char** argv) {
  const size_t N = size_t(1) << 22;
  void *big, *out; unsigned* done;
  CK(cudaMalloc(&big, 32 * N * 16 + 4096)); CK(cudaMalloc(&out, N * 16)); CK(cudaMalloc(&done, 4096));
  CK(cudaMemset(big, 1, 32 * N * 16 + 4096)); CK(cudaMemset(out, 0, N * 16));
  const int G = (int)(N / 256);
  if (argc > 1) {
    // `plain`: the plain kernels, to run under different numbers of replay passes
    ld<int4, 2><<<G, 256>>>((const int4*)big, (int4*)out);
    ld<int4, 1><<<G, 256>>>((const int4*)big, (int4*)out);
    ld<uint64_t, 2><<<G, 256>>>((const uint64_t*)big, (uint64_t*)out);
    ld<uint8_t, 32><<<G, 256>>>((const uint8_t*)big, (uint8_t*)out);
    ld_only<uint8_t, 32><<<G, 256>>>((const uint8_t*)big, done);
    CK(cudaDeviceSynchronize());
    printf("done\n");
    return 0;
  }
  for (unsigned tail : {0u, 20000u, 100000u}) run<int4, 2>(big, out, done, G, 0, tail);      // 0-2
  for (unsigned tail : {0u, 20000u}) run<int4, 2>(big, out, done, G, 200 * 1024, tail);      // 3-4
  for (unsigned tail : {0u, 20000u}) run<int4, 1>(big, out, done, G, 0, tail);               // 5-6
  for (unsigned tail : {0u, 20000u}) run<uint64_t, 2>(big, out, done, G, 0, tail);           // 7-8
  for (unsigned tail : {0u, 20000u}) run<uint8_t, 32>(big, out, done, G, 0, tail);           // 9-10
  CK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
