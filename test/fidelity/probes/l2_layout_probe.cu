// Where the buffers lie, and how they were filled, against what micro.cu's 4-byte copy pushes out of
// the L2 (ncu's replay residue): the copy of l2_delay_probe.cu (D = 0) with
//   layout small: in and out 16 MiB each, allocated in that order (l2_delay_probe.cu);
//   layout micro: in = 2 GiB + 4 KiB, out = 64 MiB, as micro.cu's `big` and `out` (the copy reads the
//                 first 16 MiB of in and writes the first 16 MiB of out);
//   init memset: cudaMemset of both; init fill: micro.cu's init_fill_u32 kernel over both.
// Usage: l2_layout_probe small|micro memset|fill
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1); } } while (0)

__device__ __forceinline__ uint32_t hash32(uint32_t x) {
  x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16; return x;
}
__global__ void init_fill_u32(uint32_t* p, size_t n, uint32_t seed) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    p[i] = (hash32((uint32_t)i ^ seed) & 0x7f7f7f7fu) | 0x01010101u;
}
__global__ void copy_layout(const float* in, float* out) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}

int main(int argc, char** argv) {
  const bool micro = argc > 1 && !strcmp(argv[1], "micro");
  const bool fill = argc > 2 && !strcmp(argv[2], "fill");
  const size_t n = (size_t)16384 * 256;
  const size_t inBytes = micro ? (size_t)32 * n * 16 + 4096 : n * 4, outBytes = micro ? n * 16 : n * 4;
  float *in, *out;
  CK(cudaMalloc(&in, inBytes));
  CK(cudaMalloc(&out, outBytes));
  if (fill) {
    init_fill_u32<<<132 * 8, 256>>>((uint32_t*)in, inBytes / 4, 0x1234567u);
    init_fill_u32<<<132 * 8, 256>>>((uint32_t*)out, outBytes / 4, 0x89abcdeu);
  } else {
    CK(cudaMemset(in, 0, inBytes));
    CK(cudaMemset(out, 0, outBytes));
  }
  CK(cudaDeviceSynchronize());
  copy_layout<<<16384, 256>>>(in, out);
  CK(cudaDeviceSynchronize());
  printf("copy_layout %s %s done\n", argv[1], argv[2]);
  return 0;
}
