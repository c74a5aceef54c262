// What ncu counts in l1tex__data_pipe_lsu_wavefronts_mem_shared for kernels without shared memory
// (op_misc): which special-register reads and warp-level primitives pass the shared-memory data pipe.
// 1,024 blocks of 256 threads each; a kernel with no S2R at all (`k_empty`: LDC R1 and EXIT) is the
// baseline.
#include <cstdio>
#include <cuda_runtime.h>
#define SINK(v) if ((v) == 0x1234567) out[0] = (v)
__global__ void k_empty() {}
__global__ void k_st(int* out) { out[blockIdx.x * blockDim.x + threadIdx.x] = 1; }
__global__ void k_ld2(const int* in, int* out) { int i = blockIdx.x * blockDim.x + threadIdx.x; int v = in[i] + in[i + 262144]; SINK(v); }
__global__ void k_alu(int* out, int n) { int v = threadIdx.x; for (int j = 0; j < n; ++j) v = v * 3 + 1; SINK(v); }
__global__ void k_halfexit(int* out) { if (threadIdx.x & 32) return; out[blockIdx.x * blockDim.x + threadIdx.x] = 1; }
// 32 x 8 blocks: SR_TID.X and SR_TID.Y
__global__ void k_tid2(int* out) { out[(blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x] = 1; }
// the block index alone (S2R or S2UR SR_CTAID.X)
__global__ void k_ctaid(int* out) { int b = blockIdx.x; SINK(b * 3 + 1); }
// %laneid and %smid (S2R SR_LANEID, SR_VIRTID)
__global__ void k_laneid(int* out) { unsigned l; asm volatile("mov.u32 %0, %%laneid;" : "=r"(l)); if (l == 5) out[blockIdx.x] = 1; }
__global__ void k_smid(int* out) { unsigned s; asm volatile("mov.u32 %0, %%smid;" : "=r"(s)); SINK((int)s * 3 + 1); }
// warp-level primitives, each once per warp after an S2R SR_TID.X
__global__ void k_shfl(int* out) { int v = __shfl_xor_sync(0xffffffffu, (int)threadIdx.x, 1); SINK(v + 0x1000000); }
__global__ void k_shfl3(int* out) {
  int v = threadIdx.x;
  v += __shfl_down_sync(0xffffffffu, v, 1);
  v += __shfl_down_sync(0xffffffffu, v, 2);
  v += __shfl_down_sync(0xffffffffu, v, 4);
  SINK(v + 0x1000000);
}
__global__ void k_vote(int* out) { unsigned b = __ballot_sync(0xffffffffu, threadIdx.x & 1); SINK((int)b); }
__global__ void k_match(int* out) { unsigned m = __match_any_sync(0xffffffffu, (int)(threadIdx.x & 3)); SINK((int)m); }
__global__ void k_syncwarp(int* out) { __syncwarp(); SINK((int)threadIdx.x + 0x1000000); }
// one block barrier (not modelled: the H200 adds ~0.85 per block)
__global__ void k_bar(int* out) { __syncthreads(); SINK((int)threadIdx.x + 0x1000000); }
int main() {
  int *in, *out;
  cudaMalloc(&in, 8 << 20);
  cudaMalloc(&out, 8 << 20);
  cudaMemset(in, 0, 8 << 20);
  k_empty<<<1024, 256>>>();
  k_st<<<1024, 256>>>(out);
  k_ld2<<<1024, 256>>>(in, out);
  k_alu<<<1024, 256>>>(out, 100);
  k_halfexit<<<1024, 256>>>(out);
  k_tid2<<<1024, dim3(32, 8)>>>(out);
  k_ctaid<<<1024, 256>>>(out);
  k_laneid<<<1024, 256>>>(out);
  k_smid<<<1024, 256>>>(out);
  k_shfl<<<1024, 256>>>(out);
  k_shfl3<<<1024, 256>>>(out);
  k_vote<<<1024, 256>>>(out);
  k_match<<<1024, 256>>>(out);
  k_syncwarp<<<1024, 256>>>(out);
  k_bar<<<1024, 256>>>(out);
  cudaError_t e = cudaDeviceSynchronize();
  printf("done: %s\n", cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
