// Cross-SM flag round trip on the H200 (issue #39): block 0 and block 1 (different SMs) pass a counter
// back and forth N times through one int at device scope; cycles per round trip (clock64 of block 0).
// mode 0: relaxed poll + relaxed store, 1: acquire poll + release store, 2: seq_cst (device),
// 3: seq_cst (system), 4: acquire/release with each side writing `words` ints before its release store.
#include <cstdio>
#include <cuda/atomic>
template <int M>
__global__ void pp(int* f, int* data, long long* out, int n, int words) {
  cuda::atomic_ref<int, cuda::thread_scope_device> a(f[0]), b(f[32]);
  cuda::atomic_ref<int, cuda::thread_scope_system> as(f[0]), bs(f[32]);
  const bool me0 = blockIdx.x == 0;
  long long t0 = clock64();
  for (int r = 1; r <= n; ++r) {
    if (me0) {
      for (int e = threadIdx.x; e < words; e += blockDim.x) data[e] = r + e;
      __syncthreads();
      if (threadIdx.x == 0) {
        if (M == 0) { a.store(r, cuda::std::memory_order_relaxed); while (b.load(cuda::std::memory_order_relaxed) != r) {} }
        if (M == 1 || M == 4) { a.store(r, cuda::std::memory_order_release); while (b.load(cuda::std::memory_order_acquire) != r) {} }
        if (M == 2) { a.store(r); while (b.load() != r) {} }
        if (M == 3) { as.store(r); while (bs.load() != r) {} }
      }
      __syncthreads();
    } else {
      if (threadIdx.x == 0) {
        if (M == 0) while (a.load(cuda::std::memory_order_relaxed) != r) {}
        if (M == 1 || M == 4) while (a.load(cuda::std::memory_order_acquire) != r) {}
        if (M == 2) while (a.load() != r) {}
        if (M == 3) while (as.load() != r) {}
      }
      __syncthreads();
      unsigned s = 0;
      for (int e = threadIdx.x; e < words; e += blockDim.x) s += data[e];
      if (s == 0xdeadbeef) data[0] = 1;
      __syncthreads();
      if (threadIdx.x == 0) {
        if (M == 0) b.store(r, cuda::std::memory_order_relaxed);
        if (M == 1 || M == 4) b.store(r, cuda::std::memory_order_release);
        if (M == 2) b.store(r);
        if (M == 3) bs.store(r);
      }
    }
  }
  if (me0 && threadIdx.x == 0) out[0] = clock64() - t0;
}
int main() {
  int *f, *d; long long* o; long long h;
  cudaMalloc(&f, 4096); cudaMalloc(&d, 1 << 16); cudaMalloc(&o, 8);
  void (*k[])(int*, int*, long long*, int, int) = {pp<0>, pp<1>, pp<2>, pp<3>, pp<4>};
  printf("mode,threads,words,cycles_per_round_trip\n");
  for (int m = 0; m < 5; ++m)
    for (int th : {32, 256})
      for (int w : {0, 1024}) {
        if (w && m != 4 && m != 1) continue;
        cudaMemset(f, 0, 4096);
        k[m]<<<2, th>>>(f, d, o, 2000, w);
        cudaMemcpy(&h, o, 8, cudaMemcpyDeviceToHost);
        printf("%d,%d,%d,%.1f\n", m, th, w, h / 2000.0);
      }
  return 0;
}
