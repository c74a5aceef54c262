// If-conversion threshold: `if (v > 10)` around N dependent IMADs (v = v * w + j, w loaded: one IMAD
// each), an if/else with N on each side, and N IMADs plus a store. Which N ptxas still predicates.
#include <cstdio>
#include <cuda_runtime.h>
#define I (blockIdx.x * blockDim.x + threadIdx.x)
extern "C" __global__ void ifn_3(const int *in, const int *in2, int *out, int *out2) { int i = I; int v = in[i]; int w = in2[i]; if (v > 10) { v = v * w + 1; v = v * w + 2; v = v * w + 3; } out[i] = v; }
extern "C" __global__ void ifn_4(const int *in, const int *in2, int *out, int *out2) { int i = I; int v = in[i]; int w = in2[i]; if (v > 10) { v = v * w + 1; v = v * w + 2; v = v * w + 3; v = v * w + 4; } out[i] = v; }
extern "C" __global__ void ifn_5(const int *in, const int *in2, int *out, int *out2) { int i = I; int v = in[i]; int w = in2[i]; if (v > 10) { v = v * w + 1; v = v * w + 2; v = v * w + 3; v = v * w + 4; v = v * w + 5; } out[i] = v; }
extern "C" __global__ void ifn_6(const int *in, const int *in2, int *out, int *out2) { int i = I; int v = in[i]; int w = in2[i]; if (v > 10) { v = v * w + 1; v = v * w + 2; v = v * w + 3; v = v * w + 4; v = v * w + 5; v = v * w + 6; } out[i] = v; }
extern "C" __global__ void ifn_7(const int *in, const int *in2, int *out, int *out2) { int i = I; int v = in[i]; int w = in2[i]; if (v > 10) { v = v * w + 1; v = v * w + 2; v = v * w + 3; v = v * w + 4; v = v * w + 5; v = v * w + 6; v = v * w + 7; } out[i] = v; }
extern "C" __global__ void ifn_8(const int *in, const int *in2, int *out, int *out2) { int i = I; int v = in[i]; int w = in2[i]; if (v > 10) { v = v * w + 1; v = v * w + 2; v = v * w + 3; v = v * w + 4; v = v * w + 5; v = v * w + 6; v = v * w + 7; v = v * w + 8; } out[i] = v; }
extern "C" __global__ void ifn_9(const int *in, const int *in2, int *out, int *out2) { int i = I; int v = in[i]; int w = in2[i]; if (v > 10) { v = v * w + 1; v = v * w + 2; v = v * w + 3; v = v * w + 4; v = v * w + 5; v = v * w + 6; v = v * w + 7; v = v * w + 8; v = v * w + 9; } out[i] = v; }
extern "C" __global__ void ifn_10(const int *in, const int *in2, int *out, int *out2) { int i = I; int v = in[i]; int w = in2[i]; if (v > 10) { v = v * w + 1; v = v * w + 2; v = v * w + 3; v = v * w + 4; v = v * w + 5; v = v * w + 6; v = v * w + 7; v = v * w + 8; v = v * w + 9; v = v * w + 10; } out[i] = v; }
extern "C" __global__ void ifn_11(const int *in, const int *in2, int *out, int *out2) { int i = I; int v = in[i]; int w = in2[i]; if (v > 10) { v = v * w + 1; v = v * w + 2; v = v * w + 3; v = v * w + 4; v = v * w + 5; v = v * w + 6; v = v * w + 7; v = v * w + 8; v = v * w + 9; v = v * w + 10; v = v * w + 11; } out[i] = v; }
extern "C" __global__ void ifn_12(const int *in, const int *in2, int *out, int *out2) { int i = I; int v = in[i]; int w = in2[i]; if (v > 10) { v = v * w + 1; v = v * w + 2; v = v * w + 3; v = v * w + 4; v = v * w + 5; v = v * w + 6; v = v * w + 7; v = v * w + 8; v = v * w + 9; v = v * w + 10; v = v * w + 11; v = v * w + 12; } out[i] = v; }
extern "C" __global__ void ifn_13(const int *in, const int *in2, int *out, int *out2) { int i = I; int v = in[i]; int w = in2[i]; if (v > 10) { v = v * w + 1; v = v * w + 2; v = v * w + 3; v = v * w + 4; v = v * w + 5; v = v * w + 6; v = v * w + 7; v = v * w + 8; v = v * w + 9; v = v * w + 10; v = v * w + 11; v = v * w + 12; v = v * w + 13; } out[i] = v; }
extern "C" __global__ void ifn_14(const int *in, const int *in2, int *out, int *out2) { int i = I; int v = in[i]; int w = in2[i]; if (v > 10) { v = v * w + 1; v = v * w + 2; v = v * w + 3; v = v * w + 4; v = v * w + 5; v = v * w + 6; v = v * w + 7; v = v * w + 8; v = v * w + 9; v = v * w + 10; v = v * w + 11; v = v * w + 12; v = v * w + 13; v = v * w + 14; } out[i] = v; }
extern "C" __global__ void ifelse_2(const int *in, const int *in2, int *out, int *out2) { int i = I; int v = in[i]; int w = in2[i]; if (v > 10) { v = v * w + 1; v = v * w + 2; } else { v = v * w - 1; v = v * w - 2; } out[i] = v; }
extern "C" __global__ void ifelse_3(const int *in, const int *in2, int *out, int *out2) { int i = I; int v = in[i]; int w = in2[i]; if (v > 10) { v = v * w + 1; v = v * w + 2; v = v * w + 3; } else { v = v * w - 1; v = v * w - 2; v = v * w - 3; } out[i] = v; }
extern "C" __global__ void ifelse_4(const int *in, const int *in2, int *out, int *out2) { int i = I; int v = in[i]; int w = in2[i]; if (v > 10) { v = v * w + 1; v = v * w + 2; v = v * w + 3; v = v * w + 4; } else { v = v * w - 1; v = v * w - 2; v = v * w - 3; v = v * w - 4; } out[i] = v; }
extern "C" __global__ void ifelse_5(const int *in, const int *in2, int *out, int *out2) { int i = I; int v = in[i]; int w = in2[i]; if (v > 10) { v = v * w + 1; v = v * w + 2; v = v * w + 3; v = v * w + 4; v = v * w + 5; } else { v = v * w - 1; v = v * w - 2; v = v * w - 3; v = v * w - 4; v = v * w - 5; } out[i] = v; }
extern "C" __global__ void ifelse_6(const int *in, const int *in2, int *out, int *out2) { int i = I; int v = in[i]; int w = in2[i]; if (v > 10) { v = v * w + 1; v = v * w + 2; v = v * w + 3; v = v * w + 4; v = v * w + 5; v = v * w + 6; } else { v = v * w - 1; v = v * w - 2; v = v * w - 3; v = v * w - 4; v = v * w - 5; v = v * w - 6; } out[i] = v; }
extern "C" __global__ void ifelse_7(const int *in, const int *in2, int *out, int *out2) { int i = I; int v = in[i]; int w = in2[i]; if (v > 10) { v = v * w + 1; v = v * w + 2; v = v * w + 3; v = v * w + 4; v = v * w + 5; v = v * w + 6; v = v * w + 7; } else { v = v * w - 1; v = v * w - 2; v = v * w - 3; v = v * w - 4; v = v * w - 5; v = v * w - 6; v = v * w - 7; } out[i] = v; }
extern "C" __global__ void ifelse_8(const int *in, const int *in2, int *out, int *out2) { int i = I; int v = in[i]; int w = in2[i]; if (v > 10) { v = v * w + 1; v = v * w + 2; v = v * w + 3; v = v * w + 4; v = v * w + 5; v = v * w + 6; v = v * w + 7; v = v * w + 8; } else { v = v * w - 1; v = v * w - 2; v = v * w - 3; v = v * w - 4; v = v * w - 5; v = v * w - 6; v = v * w - 7; v = v * w - 8; } out[i] = v; }
extern "C" __global__ void ifst_1(const int *in, const int *in2, int *out, int *out2) { int i = I; int v = in[i]; int w = in2[i]; if (v > 10) { v = v * w + 1; out2[i] = v; } out[i] = v + w; }
extern "C" __global__ void ifst_2(const int *in, const int *in2, int *out, int *out2) { int i = I; int v = in[i]; int w = in2[i]; if (v > 10) { v = v * w + 1; v = v * w + 2; out2[i] = v; } out[i] = v + w; }
extern "C" __global__ void ifst_3(const int *in, const int *in2, int *out, int *out2) { int i = I; int v = in[i]; int w = in2[i]; if (v > 10) { v = v * w + 1; v = v * w + 2; v = v * w + 3; out2[i] = v; } out[i] = v + w; }
extern "C" __global__ void ifst_4(const int *in, const int *in2, int *out, int *out2) { int i = I; int v = in[i]; int w = in2[i]; if (v > 10) { v = v * w + 1; v = v * w + 2; v = v * w + 3; v = v * w + 4; out2[i] = v; } out[i] = v + w; }
extern "C" __global__ void ifst_5(const int *in, const int *in2, int *out, int *out2) { int i = I; int v = in[i]; int w = in2[i]; if (v > 10) { v = v * w + 1; v = v * w + 2; v = v * w + 3; v = v * w + 4; v = v * w + 5; out2[i] = v; } out[i] = v + w; }
extern "C" __global__ void ifst_6(const int *in, const int *in2, int *out, int *out2) { int i = I; int v = in[i]; int w = in2[i]; if (v > 10) { v = v * w + 1; v = v * w + 2; v = v * w + 3; v = v * w + 4; v = v * w + 5; v = v * w + 6; out2[i] = v; } out[i] = v + w; }
extern "C" __global__ void ifst_7(const int *in, const int *in2, int *out, int *out2) { int i = I; int v = in[i]; int w = in2[i]; if (v > 10) { v = v * w + 1; v = v * w + 2; v = v * w + 3; v = v * w + 4; v = v * w + 5; v = v * w + 6; v = v * w + 7; out2[i] = v; } out[i] = v + w; }
int main() { int *a, *b, *c, *d; cudaMalloc(&a, 1 << 20); cudaMalloc(&b, 1 << 20); cudaMalloc(&c, 1 << 20); cudaMalloc(&d, 1 << 20);
  int h[64]; for (int i = 0; i < 64; i++) h[i] = (i * 37 + 5) % 23; cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice); cudaMemcpy(b, h, sizeof h, cudaMemcpyHostToDevice);
  ifn_3<<<1, 64>>>(a, b, c, d);
  ifn_4<<<1, 64>>>(a, b, c, d);
  ifn_5<<<1, 64>>>(a, b, c, d);
  ifn_6<<<1, 64>>>(a, b, c, d);
  ifn_7<<<1, 64>>>(a, b, c, d);
  ifn_8<<<1, 64>>>(a, b, c, d);
  ifn_9<<<1, 64>>>(a, b, c, d);
  ifn_10<<<1, 64>>>(a, b, c, d);
  ifn_11<<<1, 64>>>(a, b, c, d);
  ifn_12<<<1, 64>>>(a, b, c, d);
  ifn_13<<<1, 64>>>(a, b, c, d);
  ifn_14<<<1, 64>>>(a, b, c, d);
  ifelse_2<<<1, 64>>>(a, b, c, d);
  ifelse_3<<<1, 64>>>(a, b, c, d);
  ifelse_4<<<1, 64>>>(a, b, c, d);
  ifelse_5<<<1, 64>>>(a, b, c, d);
  ifelse_6<<<1, 64>>>(a, b, c, d);
  ifelse_7<<<1, 64>>>(a, b, c, d);
  ifelse_8<<<1, 64>>>(a, b, c, d);
  ifst_1<<<1, 64>>>(a, b, c, d);
  ifst_2<<<1, 64>>>(a, b, c, d);
  ifst_3<<<1, 64>>>(a, b, c, d);
  ifst_4<<<1, 64>>>(a, b, c, d);
  ifst_5<<<1, 64>>>(a, b, c, d);
  ifst_6<<<1, 64>>>(a, b, c, d);
  ifst_7<<<1, 64>>>(a, b, c, d);
  cudaError_t e = cudaDeviceSynchronize(); printf("DONE %s\n", cudaGetErrorString(e)); return 0; }
