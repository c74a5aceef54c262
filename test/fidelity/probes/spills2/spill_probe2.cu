// Register spills, second probe (issue #40): does ptxas's spill code follow the law found with the first
// probe (../spills/README.md: per trip LDL = STL = min(2 S, K), S = K - (limit - 5)) on other loop shapes?
// Shape 0: the first probe's ring (a[k] = a[k] * c + a[(k + 1) % K]: each carried value read twice a trip).
// Shape 1: independent accumulators (a[k] = a[k] * c + x, x loaded each trip: each read once a trip).
// Shape 2: far reads (a[k] = a[k] * c + a[(k + K / 2) % K]).
// Shape 3: the ring with three more pointers live across the loop and read in it (more "other" values).
#include <cstdio>
#include <cuda_runtime.h>

template <int K, int SHAPE>
__global__ void acc(const float* __restrict__ in, float* __restrict__ out, const float* __restrict__ xs,
                    const float* __restrict__ p1, const float* __restrict__ p2, int n, int iters) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float a[K];
#pragma unroll
  for (int k = 0; k < K; k++) a[k] = in[t + k * n];
  float e = 0.f;
  for (int i = 0; i < iters; i++) {
    if (SHAPE == 1) {
      float x = xs[i * n + t];
#pragma unroll
      for (int k = 0; k < K; k++) a[k] = a[k] * 1.0001f + x;
    } else if (SHAPE == 2) {
#pragma unroll
      for (int k = 0; k < K; k++) a[k] = a[k] * 1.0001f + a[(k + K / 2) % K];
    } else {
#pragma unroll
      for (int k = 0; k < K; k++) a[k] = a[k] * 1.0001f + a[(k + 1) % K];
      if (SHAPE == 3) e += xs[i * n + t] * p1[i * n + t] + p2[i * n + t];
    }
  }
  float s = e;
#pragma unroll
  for (int k = 0; k < K; k++) s += a[k];
  out[t] = s;
}

template <int S>
void launchAll(const float* in, float* out, const float* xs, int n, int iters) {
  acc<24, S><<<n / 256, 256>>>(in, out, xs, xs, xs, n, iters);
  acc<32, S><<<n / 256, 256>>>(in, out, xs, xs, xs, n, iters);
  acc<48, S><<<n / 256, 256>>>(in, out, xs, xs, xs, n, iters);
}

int main() {
  const int n = 32768, iters = 16;
  float *in, *out, *xs;
  cudaMalloc(&in, 48 * n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMalloc(&xs, iters * n * sizeof(float));
  cudaMemset(in, 0, 48 * n * sizeof(float));
  cudaMemset(xs, 0, iters * n * sizeof(float));
  launchAll<0>(in, out, xs, n, iters);
  launchAll<1>(in, out, xs, n, iters);
  launchAll<2>(in, out, xs, n, iters);
  launchAll<3>(in, out, xs, n, iters);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorString(e));
  return e != cudaSuccess;
}
