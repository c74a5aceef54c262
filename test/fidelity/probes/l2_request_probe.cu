// Does the L2 push more of ncu's replay residue out per read request, and which requests? The copy of
// g_ld_u32_* over micro.cu's buffers (in = 2 GiB + 4 KiB, out = 64 MiB, both filled by init_fill_u32),
// 16384 x 256 threads, each writing out[i] once; the lines read are the same in every kernel but `hot`
// (64 KiB more) and the L2 read requests differ (l2_misaligned_probe.cu found the H200 writing more
// back the more requests a copy makes, at equal lines):
//   coalesced  out[i] = in[i]                        one request per line
//   cg         the same load with .cg                 (the control for .cg)
//   reread     v = in[i]; then in[i] again with .cg, its address depending on v: a second request per
//              line from the same SM, after the first has been served (a late L2 hit)
//   dup        meant as two .cg loads of in[i] in flight at once; nvcc merged them into one (= cg)
//   other      v = in[i]; then in[i ^ 256] with .cg, its address depending on v: every line asked for
//              again by the neighbouring block (another SM, at times of the other partition)
//   hot        v = in[i]; then a .cg load of a 64-KiB buffer (512 lines), its address depending on v:
//              a second request per warp that hits lines outside the copy's
//   misaligned out[i] = in[i + 1]                     (micro.cu's; the misaligned probe's reference)
// Found on the H200 (l2_request_probe_h200.csv, 8 runs, mean MB written): coalesced 0.58, cg 0.54,
// reread 0.77, other 0.94, hot 0.59, misaligned 0.62. A line read again once its first read was served
// is kept over the lines never read again (the stores' dirty lines go instead); reads of other lines
// change little.
// `sweep` (a second run): the copy; hot buffers of 64 KiB, 256 KiB, 1 MiB and 4 MiB (rq_hot_sweep, the
// last 4 MiB hit 4 times per line); a quarter and a half of the warps reading their line again
// (rq_reread_part), then all (rq_reread).
// Usage: l2_request_probe [sweep] (launches every kernel once, in that order)
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1); } } while (0)
__device__ __forceinline__ uint32_t hash32(uint32_t x) {
  x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16; return x;
}
__global__ void init_fill_u32(uint32_t* p, size_t n, uint32_t seed) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    p[i] = (hash32((uint32_t)i ^ seed) & 0x7f7f7f7fu) | 0x01010101u;
}
__device__ __forceinline__ uint32_t ldcg(const uint32_t* p) {
  uint32_t v;
  asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}
// the data's top bit is 0 (init_fill_u32), which the compiler cannot know: a zero that waits for v
#define AFTER(v) ((size_t)((v) >> 31))
__global__ void rq_coalesced(const uint32_t* in, uint32_t* out, const uint32_t*) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}
__global__ void rq_cg(const uint32_t* in, uint32_t* out, const uint32_t*) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = ldcg(in + i);
}
__global__ void rq_reread(const uint32_t* in, uint32_t* out, const uint32_t*) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t v = in[i];
  out[i] = ldcg(in + i + AFTER(v));
}
__global__ void rq_dup(const uint32_t* in, uint32_t* out, const uint32_t*) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t a = ldcg(in + i), b = ldcg(in + i);
  out[i] = a ^ b ^ a;
}
__global__ void rq_other(const uint32_t* in, uint32_t* out, const uint32_t*) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t v = in[i];
  out[i] = v + ldcg(in + ((i ^ 256) + AFTER(v)));
}
__global__ void rq_hot(const uint32_t* in, uint32_t* out, const uint32_t* hot) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t v = in[i];
  out[i] = v + ldcg(hot + ((i + AFTER(v)) & 16383));
}
// sweep: a second read of a hot buffer of 2^LOG2 words (how much room lines kept by their reads take)
template <int LOG2>
__global__ void rq_hot_sweep(const uint32_t* in, uint32_t* out, const uint32_t* hot) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t v = in[i];
  out[i] = v + ldcg(hot + ((i + AFTER(v)) & ((size_t(1) << LOG2) - 1)));
}
// sweep: only the lines of warps whose index is 0 mod EVERY read again (as reread, a 1/EVERY share)
template <int EVERY>
__global__ void rq_reread_part(const uint32_t* in, uint32_t* out, const uint32_t*) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t v = in[i];
  if ((i >> 5) % EVERY == 0) v = ldcg(in + i + AFTER(v));
  out[i] = v;
}
__global__ void rq_misaligned(const uint32_t* in, uint32_t* out, const uint32_t*) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i + 1];
}
int main(int argc, char** argv) {
  const size_t n = (size_t)16384 * 256;
  const bool sweep = argc > 1 && strcmp(argv[1], "sweep") == 0;
  const size_t inBytes = (size_t)32 * n * 16 + 4096, outBytes = n * 16, hotBytes = sweep ? (4u << 20) : 65536;
  uint32_t *in, *out, *hot;
  CK(cudaMalloc(&in, inBytes));
  CK(cudaMalloc(&out, outBytes));
  CK(cudaMalloc(&hot, hotBytes));
  init_fill_u32<<<132 * 8, 256>>>(in, inBytes / 4, 0x1234567u);
  init_fill_u32<<<132 * 8, 256>>>(out, outBytes / 4, 0x89abcdeu);
  init_fill_u32<<<64, 256>>>(hot, hotBytes / 4, 0x2468aceu);
  CK(cudaDeviceSynchronize());
  if (sweep) {
    rq_coalesced<<<16384, 256>>>(in, out, hot);
    rq_hot_sweep<14><<<16384, 256>>>(in, out, hot);
    rq_hot_sweep<16><<<16384, 256>>>(in, out, hot);
    rq_hot_sweep<18><<<16384, 256>>>(in, out, hot);
    rq_hot_sweep<20><<<16384, 256>>>(in, out, hot);
    rq_reread_part<4><<<16384, 256>>>(in, out, hot);
    rq_reread_part<2><<<16384, 256>>>(in, out, hot);
    rq_reread<<<16384, 256>>>(in, out, hot);
    CK(cudaDeviceSynchronize());
    printf("l2_request_probe sweep done\n");
    return 0;
  }
  rq_coalesced<<<16384, 256>>>(in, out, hot);
  rq_cg<<<16384, 256>>>(in, out, hot);
  rq_reread<<<16384, 256>>>(in, out, hot);
  rq_dup<<<16384, 256>>>(in, out, hot);
  rq_other<<<16384, 256>>>(in, out, hot);
  rq_hot<<<16384, 256>>>(in, out, hot);
  rq_misaligned<<<16384, 256>>>(in, out, hot);
  CK(cudaDeviceSynchronize());
  printf("l2_request_probe done\n");
  return 0;
}
