// Does the time a kernel takes change how much of ncu's replay residue it pushes out of the L2?
// micro.cu's g_ld_u32_coalesced (16384 x 256 threads, 16 MiB in, 16 MiB out, one float each) with a
// dependent chain of D FMAs between each thread's load and its store: the same lines reach the L2 in
// the same order of blocks, only more slowly. On the H200 the ground truth's same-footprint kernels
// wrote 0.52-0.63 MB (g_ld_u32_coalesced / broadcast, 12.5 us) and 0.64-0.69 MB (div_*, 41-82 us).
// Usage: l2_delay_probe D  (one launch)
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1); } } while (0)

__global__ void copy_delay(const float* in, float* out, int d) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  float x = in[i];
#pragma unroll 1
  for (int k = 0; k < d; ++k) x = fmaf(x, 1.0001f, 0.5f);
  out[i] = x;
}

int main(int argc, char** argv) {
  const int d = argc > 1 ? atoi(argv[1]) : 0;
  const size_t n = (size_t)16384 * 256;
  float *in, *out;
  CK(cudaMalloc(&in, n * 4));
  CK(cudaMalloc(&out, n * 4));
  CK(cudaMemset(in, 0, n * 4));
  CK(cudaMemset(out, 0, n * 4));
  CK(cudaDeviceSynchronize());
  copy_delay<<<16384, 256>>>(in, out, d);
  CK(cudaDeviceSynchronize());
  printf("copy_delay d=%d done\n", d);
  return 0;
}
