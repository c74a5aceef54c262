// Why micro.cu's misaligned 4-byte copy pushes more of ncu's replay residue out of the L2 than the
// coalesced one (test/fidelity/probes/gt_repeat_h200.csv: ~60 kB more DRAM bytes written in 9 of 10
// runs): the copy of g_ld_u32_* over micro.cu's buffers (in = 2 GiB + 4 KiB, out = 64 MiB, both filled
// by init_fill_u32), 16384 x 256 threads, out[i] = in[idx(i)] with idx:
//   coalesced   i                          each warp one line, each line one warp
//   misaligned  i + 1                      each warp two lines; a block's last warp shares a line with
//                                          the next block's first warp (another SM)
//   inblock     (i & ~255) | ((i + 1) & 255)   two lines per warp as misaligned, but the block's last
//                                          warp wraps to the block's own first line: no line read by
//                                          two blocks
//   shift32     i + 32                     one whole line per warp, one line later: no sharing
//   half        i + 16                     two half lines per warp: every line read by two warps, a
//                                          block's boundary lines by two blocks
//   broadcast   i & ~31                    one sector per warp (micro.cu's broadcast)
// Usage: l2_misaligned_probe (launches every kernel once, in that order)
#include <cstdio>
#include <cstdlib>
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
#define MP_KERNEL(NAME, IDX)                                        \
  __global__ void mp_##NAME(const uint32_t* in, uint32_t* out) {    \
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;       \
    out[i] = in[IDX];                                               \
  }
MP_KERNEL(coalesced, i)
MP_KERNEL(misaligned, i + 1)
MP_KERNEL(inblock, (i & ~(size_t)255) | ((i + 1) & 255))
MP_KERNEL(shift32, i + 32)
MP_KERNEL(half, i + 16)
MP_KERNEL(broadcast, i & ~(size_t)31)

int main() {
  const size_t n = (size_t)16384 * 256;
  const size_t inBytes = (size_t)32 * n * 16 + 4096, outBytes = n * 16;
  uint32_t *in, *out;
  CK(cudaMalloc(&in, inBytes));
  CK(cudaMalloc(&out, outBytes));
  init_fill_u32<<<132 * 8, 256>>>(in, inBytes / 4, 0x1234567u);
  init_fill_u32<<<132 * 8, 256>>>(out, outBytes / 4, 0x89abcdeu);
  CK(cudaDeviceSynchronize());
  mp_coalesced<<<16384, 256>>>(in, out);
  mp_misaligned<<<16384, 256>>>(in, out);
  mp_inblock<<<16384, 256>>>(in, out);
  mp_shift32<<<16384, 256>>>(in, out);
  mp_half<<<16384, 256>>>(in, out);
  mp_broadcast<<<16384, 256>>>(in, out);
  CK(cudaDeviceSynchronize());
  printf("l2_misaligned_probe done\n");
  return 0;
}
