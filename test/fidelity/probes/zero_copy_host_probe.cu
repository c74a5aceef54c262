// The host side of zero-copy memory on the H200's host (issue 39): how long one CPU read of a
// cudaHostAllocMapped word takes while a kernel keeps storing to it (each read finds the line the
// GPU's PCIe write invalidated), and with the kernel idle (the line stays in the CPU's caches).
// Build: nvcc -O2 -arch=sm_90 zero_copy_host_probe.cu -o zch && ./zch
#include <chrono>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void writer(volatile unsigned *flag, volatile unsigned *stop) {
  unsigned i = 0;
  while (*stop == 0) { *flag = ++i; __threadfence_system(); }
}

static double readNs(volatile unsigned *f, int n, unsigned *sink) {
  auto t0 = std::chrono::steady_clock::now();
  unsigned s = 0;
  for (int i = 0; i < n; i++) s += *f;
  auto t1 = std::chrono::steady_clock::now();
  *sink = s;
  return std::chrono::duration<double, std::nano>(t1 - t0).count() / n;
}

int main() {
  unsigned *h; cudaHostAlloc(&h, 4096, cudaHostAllocMapped);
  h[0] = 0; h[32] = 0;
  unsigned *d; cudaHostGetDevicePointer(&d, h, 0);
  unsigned sink;
  for (int rep = 0; rep < 3; rep++) printf("idle: %.1f ns/read\n", readNs(h, 10000000, &sink));
  writer<<<1, 1>>>(d, d + 32);
  for (int rep = 0; rep < 3; rep++) printf("while the GPU stores: %.1f ns/read\n", readNs(h, 1000000, &sink));
  ((volatile unsigned *)h)[32] = 1;
  cudaDeviceSynchronize();
  printf("err: %s (sink %u)\n", cudaGetErrorString(cudaGetLastError()), sink);
}
