// Peer-to-peer bandwidth and latency between GPU 0 and GPU 1 without NVSHMEM (issue #43 item 8, part 4):
// copy engine (cudaMemcpyPeerAsync) one way, the other way and both at once; SM-driven peer writes and reads
// (a grid-stride float4 copy kernel whose destination/source is the peer's memory); a local device-to-device
// copy for comparison; and the per-call time of small peer copies. One process. Prints CSV rows
//   test,variant,bytes,iters,rep,ns_per_op,GBps
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#define CK(call)                                                                                   \
  do {                                                                                             \
    cudaError_t e_ = (call);                                                                       \
    if (e_ != cudaSuccess) {                                                                       \
      fprintf(stderr, "CUDA error %s at %s:%d: %s\n", cudaGetErrorName(e_), __FILE__, __LINE__, #call); \
      exit(2);                                                                                     \
    }                                                                                              \
  } while (0)

__global__ void k_copy(float4* __restrict__ dst, const float4* __restrict__ src, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) dst[i] = src[i];
}
// latency of a dependent chain of loads from the peer (one thread)
__global__ void k_chase(const int* __restrict__ p, int iters, int* out, unsigned long long* ns) {
  int v = 0;
  unsigned long long t0, t1;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t0));
  for (int i = 0; i < iters; ++i) v = *((volatile const int*)p + v);
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t1));
  out[0] = v;
  ns[0] = t1 - t0;
}
static const int REPS = 7;
static void row(const char* t, const char* v, size_t b, int it, int rep, double ns) {
  printf("%s,%s,%zu,%d,%d,%.2f,%.2f\n", t, v, b, it, rep, ns, b / ns);
}

int main() {
  int n = 0;
  CK(cudaGetDeviceCount(&n));
  if (n < 2) { fprintf(stderr, "needs 2 GPUs, found %d\n", n); return 2; }
  int can01 = 0, can10 = 0, perf = 0, atom = 0;
  CK(cudaDeviceCanAccessPeer(&can01, 0, 1));
  CK(cudaDeviceCanAccessPeer(&can10, 1, 0));
  CK(cudaDeviceGetP2PAttribute(&perf, cudaDevP2PAttrPerformanceRank, 0, 1));
  CK(cudaDeviceGetP2PAttribute(&atom, cudaDevP2PAttrNativeAtomicSupported, 0, 1));
  int ae0 = 0;
  CK(cudaDeviceGetAttribute(&ae0, cudaDevAttrAsyncEngineCount, 0));
  printf("# canAccessPeer 0->1 %d 1->0 %d perfRank %d nativeAtomics %d asyncEngineCount %d\n", can01, can10, perf, atom, ae0);
  const size_t MAXB = 1u << 30;
  void *b0, *b0b, *b1, *b1b;
  CK(cudaSetDevice(0));
  CK(cudaDeviceEnablePeerAccess(1, 0));
  CK(cudaMalloc(&b0, MAXB));
  CK(cudaMalloc(&b0b, MAXB));
  CK(cudaMemset(b0, 1, MAXB));
  CK(cudaMemset(b0b, 0, MAXB));
  cudaStream_t s0;
  CK(cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking));
  cudaEvent_t a0, a1;
  CK(cudaEventCreate(&a0));
  CK(cudaEventCreate(&a1));
  CK(cudaSetDevice(1));
  CK(cudaDeviceEnablePeerAccess(0, 0));
  CK(cudaMalloc(&b1, MAXB));
  CK(cudaMalloc(&b1b, MAXB));
  CK(cudaMemset(b1, 2, MAXB));
  CK(cudaMemset(b1b, 0, MAXB));
  cudaStream_t s1;
  CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  cudaEvent_t c0, c1;
  CK(cudaEventCreate(&c0));
  CK(cudaEventCreate(&c1));
  CK(cudaDeviceSynchronize());
  CK(cudaSetDevice(0));
  CK(cudaDeviceSynchronize());
  printf("test,variant,bytes,iters,rep,ns_per_op,GBps\n");

  auto ev = [](cudaEvent_t x, cudaEvent_t y) { float ms; CK(cudaEventElapsedTime(&ms, x, y)); return ms * 1e6; };
  std::vector<size_t> sizes;
  for (size_t b = 8; b <= MAXB; b *= 4) sizes.push_back(b);
  // copy engine, one direction (0 -> 1 and 1 -> 0), and both directions at once
  for (size_t b : sizes) {
    int iters = b <= (1u << 20) ? 200 : b <= (64u << 20) ? 20 : 4;
    for (int rep = -1; rep < REPS; ++rep) {
      CK(cudaSetDevice(0));
      CK(cudaEventRecord(a0, s0));
      for (int i = 0; i < iters; ++i) CK(cudaMemcpyPeerAsync(b1b, 1, b0, 0, b, s0));
      CK(cudaEventRecord(a1, s0));
      CK(cudaEventSynchronize(a1));
      double t01 = ev(a0, a1) / iters;
      CK(cudaSetDevice(1));
      CK(cudaEventRecord(c0, s1));
      for (int i = 0; i < iters; ++i) CK(cudaMemcpyPeerAsync(b0b, 0, b1, 1, b, s1));
      CK(cudaEventRecord(c1, s1));
      CK(cudaEventSynchronize(c1));
      double t10 = ev(c0, c1) / iters;
      // both directions: each GPU's stream pushes to the other; time = the later end minus the earlier start
      CK(cudaSetDevice(0));
      CK(cudaDeviceSynchronize());
      CK(cudaSetDevice(1));
      CK(cudaDeviceSynchronize());
      CK(cudaSetDevice(0));
      CK(cudaEventRecord(a0, s0));
      CK(cudaStreamWaitEvent(s1, a0, 0));
      CK(cudaSetDevice(1));
      CK(cudaEventRecord(c0, s1));
      for (int i = 0; i < iters; ++i) CK(cudaMemcpyPeerAsync(b0b, 0, b1, 1, b, s1));
      CK(cudaEventRecord(c1, s1));
      CK(cudaSetDevice(0));
      for (int i = 0; i < iters; ++i) CK(cudaMemcpyPeerAsync(b1b, 1, b0, 0, b, s0));
      CK(cudaStreamWaitEvent(s0, c1, 0));
      CK(cudaEventRecord(a1, s0));
      CK(cudaEventSynchronize(a1));
      double tb = ev(a0, a1) / iters;
      if (rep < 0) continue;
      row("ce", "memcpyPeer_0to1", b, iters, rep, t01);
      row("ce", "memcpyPeer_1to0", b, iters, rep, t10);
      row("ce", "memcpyPeer_bidir(bytes=both ways)", 2 * b, iters, rep, tb);
    }
  }
  // SM-driven copies from GPU 0: write into GPU 1, read from GPU 1, local copy; 132*4 CTAs of 512 threads
  CK(cudaSetDevice(0));
  for (size_t b = 1u << 16; b <= MAXB; b *= 4) {
    int iters = b <= (16u << 20) ? 100 : 10;
    size_t n4 = b / 16;
    int grid = (int)std::min<size_t>(528, (n4 + 511) / 512);
    for (int rep = -1; rep < REPS; ++rep) {
      double t[3];
      for (int m = 0; m < 3; ++m) {
        float4* d = (float4*)(m == 0 ? b1b : b0b);
        const float4* s = (const float4*)(m == 1 ? b1 : b0);
        CK(cudaEventRecord(a0, s0));
        for (int i = 0; i < iters; ++i) k_copy<<<grid, 512, 0, s0>>>(d, s, n4);
        CK(cudaGetLastError());
        CK(cudaEventRecord(a1, s0));
        CK(cudaEventSynchronize(a1));
        t[m] = ev(a0, a1) / iters;
      }
      if (rep < 0) continue;
      row("sm", "peer_write_0to1", b, iters, rep, t[0]);
      row("sm", "peer_read_1to0", b, iters, rep, t[1]);
      row("sm", "local_copy(bytes counted once)", b, iters, rep, t[2]);
    }
  }
  // latency: dependent loads from the peer and from local memory (one thread), and small copy-engine calls
  {
    int *out;
    unsigned long long* ns;
    CK(cudaMalloc(&out, 64));
    CK(cudaMalloc(&ns, 64));
    CK(cudaMemset(b1b, 0, 1 << 20));
    CK(cudaMemset(b0b, 0, 1 << 20));
    const int iters = 10000;
    for (int rep = -1; rep < REPS; ++rep) {
      for (int m = 0; m < 2; ++m) {
        k_chase<<<1, 1, 0, s0>>>((const int*)(m == 0 ? b1b : b0b), iters, out, ns);
        CK(cudaGetLastError());
        CK(cudaStreamSynchronize(s0));
        unsigned long long t;
        CK(cudaMemcpy(&t, ns, 8, cudaMemcpyDeviceToHost));
        if (rep >= 0) printf("lat,%s,4,%d,%d,%.2f,0\n", m == 0 ? "peer_load_chain" : "local_load_chain", iters, rep, (double)t / iters);
      }
    }
  }
  return 0;
}
