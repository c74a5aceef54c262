// Register spills (issue #40): K accumulators live across a loop, the same source built with and
// without a register limit (-maxrregcount, as __launch_bounds__ sets one). ptxas -v says how many
// bytes it spills; cuobjdump the STL/LDL it placed; ncu how many local loads and stores ran.
#include <cstdio>
#include <cuda_runtime.h>

template <int K>
__global__ void acc(const float* __restrict__ in, float* __restrict__ out, int n, int iters) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float a[K];
#pragma unroll
  for (int k = 0; k < K; k++) a[k] = in[t + k * n];
  for (int i = 0; i < iters; i++) {
#pragma unroll
    for (int k = 0; k < K; k++) a[k] = a[k] * 1.0001f + a[(k + 1) % K];
  }
  float s = 0.f;
#pragma unroll
  for (int k = 0; k < K; k++) s += a[k];
  out[t] = s;
}

int main() {
  const int n = 32768, iters = 16;
  float *in, *out;
  cudaMalloc(&in, 48 * n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemset(in, 0, 48 * n * sizeof(float));
  acc<16><<<n / 256, 256>>>(in, out, n, iters);
  acc<24><<<n / 256, 256>>>(in, out, n, iters);
  acc<32><<<n / 256, 256>>>(in, out, n, iters);
  acc<48><<<n / 256, 256>>>(in, out, n, iters);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorString(e));
  return e != cudaSuccess;
}
