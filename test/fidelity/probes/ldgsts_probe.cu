// How ncu counts the shared-memory side of cp.async (LDGSTS): l1tex__data_pipe_lsu_wavefronts_mem_shared
// (the total) per copy instruction, by access size, L1 mode (.ca / .cg) and the number of 32-byte
// sectors and shared-memory banks a warp's copy touches. 1,024 blocks of 256 threads; each warp issues
// 16 copies (one per round), then waits, syncs, and stores one word per thread (1 LDS + 1 STG per warp).
// `ctrl` does the same without copies: the per-warp baseline of the total.
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>

#define ROUNDS 16
#define BLOCKS 1024
#define THREADS 256

__device__ __forceinline__ void cp4_ca(void* s, const void* g) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"((unsigned)__cvta_generic_to_shared(s)), "l"(g));
}
__device__ __forceinline__ void cp8_ca(void* s, const void* g) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8;\n" ::"r"((unsigned)__cvta_generic_to_shared(s)), "l"(g));
}
__device__ __forceinline__ void cp16_ca(void* s, const void* g) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 16;\n" ::"r"((unsigned)__cvta_generic_to_shared(s)), "l"(g));
}
__device__ __forceinline__ void cp16_cg(void* s, const void* g) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"((unsigned)__cvta_generic_to_shared(s)), "l"(g));
}
__device__ __forceinline__ void cp_wait() { asm volatile("cp.async.wait_all;\n" ::); }

// shared: 256 threads x 16 bytes x 2 (room for the strided layout)
#define PROBE(NAME, BODY)                                                                  \
  __global__ void __launch_bounds__(THREADS) NAME(const uint32_t* in, uint32_t* out) {    \
    __shared__ __align__(16) uint32_t sm[THREADS * 8 * 2];                                 \
    const unsigned t = threadIdx.x, lane = t & 31, w = t >> 5;                             \
    const size_t blk = (size_t)blockIdx.x * ROUNDS * THREADS * 4;                         \
    (void)lane; (void)w;                                                                   \
    _Pragma("unroll 1") for (int r = 0; r < ROUNDS; ++r) {                                 \
      const uint32_t* g = in + blk + (size_t)r * THREADS * 4;                              \
      BODY;                                                                                \
    }                                                                                      \
    cp_wait();                                                                             \
    __syncthreads();                                                                       \
    out[(size_t)blockIdx.x * THREADS + t] = sm[t];                                         \
  }

PROBE(ctrl, (void)g)
// 4 bytes, contiguous: 128 B = 4 sectors, banks conflict-free
PROBE(ca4_contig, cp4_ca(&sm[t], g + t))
// 4 bytes, lanes in pairs on one word: 64 B = 2 sectors; shared side contiguous
PROBE(ca4_pairs, cp4_ca(&sm[t], g + w * 32 + (lane >> 1)))
// 4 bytes, 8 words of one sector for the whole warp: 1 sector
PROBE(ca4_onesector, cp4_ca(&sm[t], g + w * 32 + (lane & 7)))
// 4 bytes, contiguous global, shared stride 32 words: 32-way bank conflict
PROBE(ca4_conflict, cp4_ca(&sm[(lane * 32 + w) & (THREADS * 16 - 1)], g + t))
// 8 bytes contiguous: 256 B = 8 sectors, 2 wavefronts by banks
PROBE(ca8_contig, cp8_ca(&sm[2 * t], g + 2 * t))
// 16 bytes contiguous: 512 B = 16 sectors, 4 wavefronts by banks
PROBE(ca16_contig, cp16_ca(&sm[4 * t], g + 4 * t))
PROBE(cg16_contig, cp16_cg(&sm[4 * t], g + 4 * t))
// 16 bytes, the warp's 32 lanes on 8 distinct 16-byte pieces of one 128-B line: 4 sectors
PROBE(cg16_oneline, cp16_cg(&sm[4 * t], g + w * 128 + 4 * (lane & 7)))

int main() {
  uint32_t *in, *out;
  const size_t n = (size_t)BLOCKS * ROUNDS * THREADS * 4;
  cudaMalloc(&in, n * 4);
  cudaMalloc(&out, (size_t)BLOCKS * THREADS * 4);
  cudaMemset(in, 1, n * 4);
  dim3 g(BLOCKS), b(THREADS);
  ctrl<<<g, b>>>(in, out);
  ca4_contig<<<g, b>>>(in, out);
  ca4_pairs<<<g, b>>>(in, out);
  ca4_onesector<<<g, b>>>(in, out);
  ca4_conflict<<<g, b>>>(in, out);
  ca8_contig<<<g, b>>>(in, out);
  ca16_contig<<<g, b>>>(in, out);
  cg16_contig<<<g, b>>>(in, out);
  cg16_oneline<<<g, b>>>(in, out);
  cudaError_t e = cudaDeviceSynchronize();
  printf("done: %s\n", cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
