// What does the L2 hold after a copy? On the H200 the 8-byte coalesced copy (micro.cu's
// g_ld_u64_coalesced) keeps less of its 32 MiB of stores dirty than the 16-byte one does of its 64 MiB
// relative to what an LRU L2 with near-partition copies would (warpsight writes back 1-2 MB too little
// for it, 2-5 MB too much for the 16-byte copies). Each configuration: a 512 MiB read-only stream
// (leaves the L2 clean), the copy K1 at full occupancy, then a read-back of K1's output or input
// buffer, newest lines first (int4 grid-stride loop from the end): its L2 read hits are the lines
// of that buffer K1 left resident, its DRAM writes the dirty lines it pushed out. The next
// configuration's stream writes back what was still dirty. Run under ncu with application replay
// and --cache-control none (the L2 carries between kernels).
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)

// as micro.cu's g_ld_<T>_coalesced
template <typename T>
__global__ void ld(const T* in, T* out) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}
// a grid-wide read-only stream of n int4 (PASS 0: the clean-up before K1; 1: the read-back, from the end)
template <int PASS>
__global__ void stream(const int4* b, size_t n, unsigned* sink) {
  int acc = 0;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    int4 v = b[PASS == 1 ? n - 1 - i : i];
    acc ^= v.y;
  }
  if (acc == 0x12345678) sink[threadIdx.x] = acc;
}

template <typename T>
static void config(const void* in, void* out, bool backOut, const int4* junk, size_t junkN, unsigned* sink, int sms, int blocks) {
  const size_t bytes = (size_t)blocks * 256 * sizeof(T);
  stream<0><<<sms * 8, 256>>>(junk, junkN, sink);
  ld<T><<<blocks, 256>>>((const T*)in, (T*)out);
  stream<1><<<sms * 8, 256>>>((const int4*)(backOut ? out : in), bytes / 16, sink);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  printf("RESIDENCYPROBE T=%zu readback=%s\n", sizeof(T), backOut ? "out" : "in");
}

int main() {
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const size_t N = size_t(1) << 22;  // micro.cu's G_THREADS
  const size_t MiB = size_t(1) << 20, junkBytes = 512 * MiB;
  void *big, *out; int4* junk; unsigned* sink;
  CK(cudaMalloc(&big, N * 16 + 4096)); CK(cudaMalloc(&out, N * 16)); CK(cudaMalloc(&junk, junkBytes)); CK(cudaMalloc(&sink, 4096));
  CK(cudaMemset(big, 1, N * 16 + 4096)); CK(cudaMemset(out, 0, N * 16)); CK(cudaMemset(junk, 3, junkBytes));
  const int G = (int)(N / 256);
  const size_t jn = junkBytes / 16;
  for (int rep = 0; rep < 2; rep++) {
    for (bool backOut : {true, false}) {
      config<uint64_t>(big, out, backOut, junk, jn, sink, sms, G);
      config<int4>(big, out, backOut, junk, jn, sink, sms, G);
    }
  }
  stream<0><<<sms * 8, 256>>>(junk, jn, sink);
  CK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
