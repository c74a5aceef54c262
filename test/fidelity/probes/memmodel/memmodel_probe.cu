// Memory-model costs on the H200 for Warpsight's arch data (issue #39): fence latency by kind and
// scope with 0..N of the warp's own stores in flight, strong/acquire load latency by scope, the
// per-poll cost of each flag-polling idiom, and __nanosleep's real duration.
// One warp (or one thread) per measurement, clock64() around the operation, median of REPS.
// Build: nvcc -O3 -arch=sm_90 -o memmodel_probe memmodel_probe.cu ; run: ./memmodel_probe > out.csv
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda/atomic>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)
#define REPS 33

// ---- fences with `nst` coalesced warp stores (128 B each, distinct lines) in flight ----
template <int KIND>
__device__ __forceinline__ void fence() {
  if (KIND == 0) asm volatile("fence.sc.cta;" ::: "memory");
  if (KIND == 1) asm volatile("fence.sc.gpu;" ::: "memory");
  if (KIND == 2) asm volatile("fence.sc.sys;" ::: "memory");
  if (KIND == 3) asm volatile("fence.acq_rel.cta;" ::: "memory");
  if (KIND == 4) asm volatile("fence.acq_rel.gpu;" ::: "memory");
  if (KIND == 5) asm volatile("fence.acq_rel.sys;" ::: "memory");
  if (KIND == 6) asm volatile("fence.acquire.gpu;" ::: "memory");
  if (KIND == 7) asm volatile("fence.release.gpu;" ::: "memory");
}
template <int KIND>
__global__ void k_fence(int* buf, long long* out, int nst) {
  const int lane = threadIdx.x;
  for (int rep = 0; rep < REPS; ++rep) {
    for (int i = 0; i < nst; ++i) buf[(rep * 64 + i) * 32 + lane] = rep + i;  // STG.E, one line each
    long long t0 = clock64();
    fence<KIND>();
    long long t1 = clock64();
    if (lane == 0) out[rep] = t1 - t0;
    __syncwarp();
    // let everything drain before the next repetition
    long long s = clock64();
    while (clock64() - s < 20000) {}
  }
}

// ---- one load's latency (dependent use), by flavour; the line is L2-resident ----
template <int KIND>
__device__ __forceinline__ int ld(int* p) {
  int v;
  if (KIND == 0) v = *(volatile int*)p;                                                      // ld.volatile
  if (KIND == 1) asm volatile("ld.relaxed.gpu.global.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  if (KIND == 2) asm volatile("ld.acquire.gpu.global.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  if (KIND == 3) asm volatile("ld.acquire.sys.global.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  if (KIND == 4) asm volatile("ld.global.cg.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");   // weak, L2
  if (KIND == 5) asm volatile("ld.global.ca.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");   // weak, L1 hit after the first
  if (KIND == 6) v = cuda::atomic_ref<int, cuda::thread_scope_system>(*p).load();          // seq_cst sys
  if (KIND == 7) v = cuda::atomic_ref<int, cuda::thread_scope_device>(*p).load();          // seq_cst gpu
  if (KIND == 8) v = cuda::atomic_ref<int, cuda::thread_scope_device>(*p).load(cuda::std::memory_order_acquire);
  return v;
}
template <int KIND>
__global__ void k_load(int* flag, long long* out, int iters) {
  int v = ld<KIND>(flag);  // warm
  for (int rep = 0; rep < REPS; ++rep) {
    long long t0 = clock64();
    int acc = 0;
    for (int i = 0; i < iters; ++i) acc += ld<KIND>(flag + (acc & 0));  // dependent chain
    long long t1 = clock64();
    if (threadIdx.x == 0) out[rep] = (t1 - t0) / iters + (acc == 12345 ? 1 : 0);
    v += acc;
  }
  if (v == 424242) flag[1] = v;
}

// ---- stores: seq_cst / release store cost with `nst` warp stores before ----
template <int KIND>
__global__ void k_store(int* buf, int* flag, long long* out, int nst) {
  const int lane = threadIdx.x;
  for (int rep = 0; rep < REPS; ++rep) {
    for (int i = 0; i < nst; ++i) buf[(rep * 64 + i) * 32 + lane] = rep + i;
    long long t0 = clock64();
    if (lane == 0) {
      if (KIND == 0) cuda::atomic_ref<int, cuda::thread_scope_system>(*flag).store(rep);
      if (KIND == 1) cuda::atomic_ref<int, cuda::thread_scope_device>(*flag).store(rep);
      if (KIND == 2) cuda::atomic_ref<int, cuda::thread_scope_device>(*flag).store(rep, cuda::std::memory_order_release);
      if (KIND == 3) cuda::atomic_ref<int, cuda::thread_scope_device>(*flag).store(rep, cuda::std::memory_order_relaxed);
    }
    __syncwarp();
    long long t1 = clock64();
    if (lane == 0) out[rep] = t1 - t0;
    long long s = clock64();
    while (clock64() - s < 20000) {}
  }
}

// ---- __nanosleep(ns) as measured by clock64 ----
__global__ void k_sleep(long long* out, unsigned ns) {
  for (int rep = 0; rep < REPS; ++rep) {
    long long t0 = clock64();
    __nanosleep(ns);
    long long t1 = clock64();
    if (threadIdx.x == 0) out[rep] = t1 - t0;
  }
}

static long long median(std::vector<long long> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
static long long* d_out;
static std::vector<long long> fetch() {
  std::vector<long long> h(REPS);
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(h.data(), d_out, REPS * sizeof(long long), cudaMemcpyDeviceToHost));
  return std::vector<long long>(h.begin() + 1, h.end());  // drop the first (cold) repetition
}

int main() {
  int* buf;
  int* flag;
  CK(cudaMalloc(&buf, (size_t)REPS * 64 * 32 * sizeof(int) * 2));
  CK(cudaMalloc(&flag, 4096));
  CK(cudaMalloc(&d_out, REPS * sizeof(long long)));
  CK(cudaMemset(flag, 0, 4096));
  printf("what,kind,param,threads,median_cycles,min_cycles,max_cycles\n");
  const char* fnames[] = {"fence.sc.cta", "fence.sc.gpu", "fence.sc.sys", "fence.acq_rel.cta", "fence.acq_rel.gpu", "fence.acq_rel.sys", "fence.acquire.gpu", "fence.release.gpu"};
  void (*fk[])(int*, long long*, int) = {k_fence<0>, k_fence<1>, k_fence<2>, k_fence<3>, k_fence<4>, k_fence<5>, k_fence<6>, k_fence<7>};
  const int nsts[] = {0, 1, 2, 4, 8, 16, 32};
  for (int f = 0; f < 8; ++f)
    for (int n : nsts)
      for (int th : {1, 32}) {
        fk[f]<<<1, th>>>(buf, d_out, n);
        auto v = fetch();
        printf("fence,%s,%d,%d,%lld,%lld,%lld\n", fnames[f], n, th, median(v), *std::min_element(v.begin(), v.end()), *std::max_element(v.begin(), v.end()));
      }
  const char* lnames[] = {"ld.volatile", "ld.relaxed.gpu", "ld.acquire.gpu", "ld.acquire.sys", "ld.cg", "ld.ca", "atomic_sys.load(seq_cst)", "atomic_dev.load(seq_cst)", "atomic_dev.load(acquire)"};
  void (*lk[])(int*, long long*, int) = {k_load<0>, k_load<1>, k_load<2>, k_load<3>, k_load<4>, k_load<5>, k_load<6>, k_load<7>, k_load<8>};
  for (int f = 0; f < 9; ++f) {
    lk[f]<<<1, 1>>>(flag, d_out, 64);
    auto v = fetch();
    printf("load,%s,64,1,%lld,%lld,%lld\n", lnames[f], median(v), *std::min_element(v.begin(), v.end()), *std::max_element(v.begin(), v.end()));
  }
  const char* snames[] = {"atomic_sys.store(seq_cst)", "atomic_dev.store(seq_cst)", "atomic_dev.store(release)", "atomic_dev.store(relaxed)"};
  void (*sk[])(int*, int*, long long*, int) = {k_store<0>, k_store<1>, k_store<2>, k_store<3>};
  for (int f = 0; f < 4; ++f)
    for (int n : nsts) {
      sk[f]<<<1, 32>>>(buf, flag, d_out, n);
      auto v = fetch();
      printf("store,%s,%d,32,%lld,%lld,%lld\n", snames[f], n, median(v), *std::min_element(v.begin(), v.end()), *std::max_element(v.begin(), v.end()));
    }
  for (unsigned ns : {0u, 100u, 1000u, 10000u, 100000u}) {
    k_sleep<<<1, 32>>>(d_out, ns);
    auto v = fetch();
    printf("nanosleep,NANOSLEEP,%u,32,%lld,%lld,%lld\n", ns, median(v), *std::min_element(v.begin(), v.end()), *std::max_element(v.begin(), v.end()));
  }
  int clk = 0;
  CK(cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0));
  printf("# clockRate kHz %d\n", clk);
  return 0;
}
