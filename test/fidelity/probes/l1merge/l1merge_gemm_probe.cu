// L1 miss merging probe, part 2 (issue #40 item 4): GEMMs whose warps read the same rows; see README.md.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void naive(const float* A, const float* B, float* C, int n) {
  const int r = blockIdx.y * blockDim.y + threadIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = 0; k < n; k++) s += A[r * n + k] * B[k * n + c];
  C[r * n + c] = s;
}
template <int T>
__global__ void tiled(const float* A, const float* B, float* C, int n) {
  __shared__ float a[T][T], b[T][T];
  const int tx = threadIdx.x, ty = threadIdx.y, r = blockIdx.y * T + ty, c = blockIdx.x * T + tx;
  float s = 0;
  for (int k = 0; k < n; k += T) {
    a[ty][tx] = A[r * n + k + tx];
    b[ty][tx] = B[(k + ty) * n + c];
    __syncthreads();
#pragma unroll
    for (int j = 0; j < T; j++) s += a[ty][j] * b[j][tx];
    __syncthreads();
  }
  C[r * n + c] = s;
}
int main() {
  const int n = 512;
  float *A, *B, *C;
  cudaMalloc(&A, n * n * 4);
  cudaMalloc(&B, n * n * 4);
  cudaMalloc(&C, n * n * 4);
  cudaMemset(A, 0, n * n * 4);
  cudaMemset(B, 0, n * n * 4);
  for (int rep = 0; rep < 2; rep++) {
    naive<<<dim3(n / 32, n / 8), dim3(32, 8)>>>(A, B, C, n);
    tiled<32><<<dim3(n / 32, n / 32), dim3(32, 32)>>>(A, B, C, n);
    tiled<16><<<dim3(n / 16, n / 16), dim3(16, 16)>>>(A, B, C, n);
  }
  printf("done %d\n", (int)cudaDeviceSynchronize());
  return 0;
}
