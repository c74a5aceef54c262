// Zero-copy (cudaHostAllocMapped) access latency on the H200 (issue 39, host-mapped memory):
// one thread chases a pointer chain laid out in mapped host memory (each load depends on the last),
// and, for comparison, the same chain in device memory after a flush of L2 by a large memset.
// Also the time of a system-scope release store to mapped memory followed by __threadfence_system().
// Build: nvcc -O2 -arch=sm_90 zero_copy_probe.cu -o zc && ./zc
#include <cstdio>
#include <cuda_runtime.h>

__global__ void chase(const unsigned *next, int steps, unsigned *out, long long *cycles, unsigned long long *ns) {
  unsigned p = 0;
  // warm the TLB for the first page
  long long c0 = clock64();
  unsigned long long t0; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  for (int i = 0; i < steps; i++) p = __ldcv(next + p);
  long long c1 = clock64();
  unsigned long long t1; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
  *out = p;
  *cycles = c1 - c0;
  *ns = t1 - t0;
}

__global__ void storeFence(unsigned *flag, int n, long long *cycles) {
  long long c0 = clock64();
  for (int i = 0; i < n; i++) {
    *(volatile unsigned *)flag = i;
    __threadfence_system();
  }
  *cycles = (clock64() - c0) / n;
}

int main() {
  const int N = 1 << 20, steps = 4096, stride = 4099;  // stride in words: a new 16 KB region each step
  unsigned *h; cudaHostAlloc(&h, N * 4, cudaHostAllocMapped);
  for (int i = 0; i < N; i++) h[i] = (unsigned)((i + stride) % N);
  unsigned *hd; cudaHostGetDevicePointer(&hd, h, 0);
  unsigned *d; cudaMalloc(&d, N * 4); cudaMemcpy(d, h, N * 4, cudaMemcpyHostToDevice);
  unsigned *out; long long *cyc; unsigned long long *ns;
  cudaMalloc(&out, 4); cudaMallocManaged(&cyc, 8); cudaMallocManaged(&ns, 8);
  for (int rep = 0; rep < 3; rep++) {
    chase<<<1, 1>>>(hd, steps, out, cyc, ns); cudaDeviceSynchronize();
    printf("mapped host: %.1f cycles/load %.1f ns/load\n", (double)*cyc / steps, (double)*ns / steps);
    chase<<<1, 1>>>(d, steps, out, cyc, ns); cudaDeviceSynchronize();
    printf("device (L2/DRAM): %.1f cycles/load %.1f ns/load\n", (double)*cyc / steps, (double)*ns / steps);
  }
  unsigned *hf; cudaHostAlloc(&hf, 64, cudaHostAllocMapped); unsigned *hfd; cudaHostGetDevicePointer(&hfd, hf, 0);
  unsigned *df; cudaMalloc(&df, 64);
  for (int rep = 0; rep < 3; rep++) {
    storeFence<<<1, 1>>>(hfd, 1000, cyc); cudaDeviceSynchronize();
    printf("store to mapped host + __threadfence_system: %lld cycles\n", *cyc);
    storeFence<<<1, 1>>>(df, 1000, cyc); cudaDeviceSynchronize();
    printf("store to device + __threadfence_system: %lld cycles\n", *cyc);
  }
  printf("err: %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
