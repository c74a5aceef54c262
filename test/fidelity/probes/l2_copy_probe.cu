// How long do the lines of a buffer live in the L2 against a read-only stream, and the copies of far
// lines in the near partition? Each SM reads (argument `read`) or writes (`write`) its own chunk of
// an 8 MiB buffer R (one block per SM), then the whole GPU streams X MiB of other data (reads only),
// then each SM reads its chunk of R again: the second read's tex lookup hits are the lines still in
// the SM's near partition (near home lines and copies of far ones), the fabric lookups the far lines
// whose copy is gone, the DRAM reads the lines gone from their home too; in `write`, the stream's
// DRAM writes are the dirty lines of R it evicted. A flush kernel (a 512 MiB read-only stream)
// before each configuration leaves the L2 clean. Run under ncu with application replay and
// --cache-control none (the L2 carries between kernels).
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)

__device__ __forceinline__ unsigned smid() { unsigned r; asm volatile("mov.u32 %0, %%smid;" : "=r"(r)); return r; }

// one block per SM (the dynamic shared memory keeps a second block off), each reads its chunk
template <int PASS>
__global__ void readR(const int4* r, size_t chunk, unsigned* sink, unsigned* smids) {
  extern __shared__ int s[];
  const int4* c = r + blockIdx.x * chunk;
  int acc = 0;
  for (size_t i = threadIdx.x; i < chunk; i += blockDim.x) { int4 v = c[i]; acc ^= v.x ^ v.w; }
  if (acc == 0x12345678) sink[threadIdx.x] = acc;
  if (threadIdx.x == 0) smids[blockIdx.x] = smid();
}

// each block writes its chunk
__global__ void writeR(int4* r, size_t chunk, unsigned* smids) {
  extern __shared__ int s[];
  int4* c = r + blockIdx.x * chunk;
  for (size_t i = threadIdx.x; i < chunk; i += blockDim.x) c[i] = make_int4((int)i, 1, 2, 3);
  if (threadIdx.x == 0) smids[blockIdx.x] = smid();
}

// a grid-wide read-only stream of n int4
template <int FLUSH>
__global__ void stream(const int4* b, size_t n, unsigned* sink) {
  int acc = 0;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) { int4 v = b[i]; acc ^= v.y; }
  if (acc == 0x12345678) sink[threadIdx.x] = acc;
}

int main(int argc, char** argv) {
  const bool write = argc > 1 && argv[1][0] == 'w';
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const size_t MiB = size_t(1) << 20;
  const size_t rBytes = 8 * MiB, chunk = rBytes / 16 / sms;  // int4 per block
  int4 *r, *x, *junk; unsigned *sink, *smA, *smB;
  CK(cudaMalloc(&r, rBytes)); CK(cudaMalloc(&x, 128 * MiB)); CK(cudaMalloc(&junk, 512 * MiB));
  CK(cudaMalloc(&sink, 4096)); CK(cudaMalloc(&smA, 4096)); CK(cudaMalloc(&smB, 4096));
  CK(cudaMemset(r, 1, rBytes)); CK(cudaMemset(x, 2, 128 * MiB)); CK(cudaMemset(junk, 3, 512 * MiB));
  CK(cudaFuncSetAttribute(readR<1>, cudaFuncAttributeMaxDynamicSharedMemorySize, 160 * 1024));
  CK(cudaFuncSetAttribute(readR<2>, cudaFuncAttributeMaxDynamicSharedMemorySize, 160 * 1024));
  CK(cudaFuncSetAttribute(writeR, cudaFuncAttributeMaxDynamicSharedMemorySize, 160 * 1024));
  const int xs[] = {0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 48, 64, 96};
  int same = 0;
  for (int xm : xs) {
    stream<1><<<sms * 8, 256>>>(junk, 512 * MiB / 16, sink);
    if (write) writeR<<<sms, 1024, 160 * 1024>>>(r, chunk, smA);
    else readR<1><<<sms, 1024, 160 * 1024>>>(r, chunk, sink, smA);
    if (xm) stream<0><<<sms * 8, 256>>>(x, xm * MiB / 16, sink);
    readR<2><<<sms, 1024, 160 * 1024>>>(r, chunk, sink, smB);
    CK(cudaDeviceSynchronize());
    unsigned a[1024], b[1024];
    CK(cudaMemcpy(a, smA, sms * 4, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(b, smB, sms * 4, cudaMemcpyDeviceToHost));
    int eq = 1;
    for (int i = 0; i < sms; ++i) eq &= a[i] == b[i];
    same += eq;
    printf("COPYPROBE %s x_mib=%d same_sm_mapping=%d sm_of_block0=%u sm_of_block1=%u\n", write ? "write" : "read", xm, eq, a[0], a[1]);
  }
  printf("COPYPROBE same mapping in %d of %d configurations\n", same, (int)(sizeof xs / sizeof xs[0]));
  return 0;
}
