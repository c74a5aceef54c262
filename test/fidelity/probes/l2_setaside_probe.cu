// Does the default persisting-L2 limit (11.25 MiB on the H200, never set by the program) reserve L2
// ways as an explicit cudaDeviceSetLimit does? Stores into set-aside ways look written through when
// the limit is set (micro.cu family 5 `setaside`: pass 2 writes 13 MB back per rep, plain 2.4), but an
// 8 MiB buffer written under the default limit costs no DRAM writes at all (l2_copy_probe.cu). Each
// mode (argv[1]: default = never set, zero, same = set to the default's value, max) runs: a 512 MiB
// read stream (the L2 clean), a kernel, the stream again (its DRAM writes = what the kernel left
// dirty), for three kernels: one block per SM writing its chunk of an 8 MiB buffer, micro.cu's
// g_ld_u32_coalesced and g_ld_u128_stride2. Mode `sweep`: the set-aside at 0-10 sixteenths of the L2,
// each with micro.cu's g_st_u128_coalesced and g_ld_u32_coalesced between streams. Run under ncu with application replay and
// --cache-control none (the L2 carries between kernels).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)

__global__ void writeR(int4* r, size_t chunk) {
  extern __shared__ int s[];
  int4* c = r + blockIdx.x * chunk;
  for (size_t i = threadIdx.x; i < chunk; i += blockDim.x) c[i] = make_int4((int)i, 1, 2, 3);
}
template <typename T, int S>
__global__ void ld(const T* in, T* out) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[S * i];
}
// micro.cu's g_st_u128_coalesced: 64 MiB of full-sector stores, more dirty data than the L2 keeps
__global__ void st(int4* out) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = make_int4((int)i | 1, (int)i + 1, (int)i + 2, (int)i + 3);
}
__global__ void stream(const int4* b, size_t n, unsigned* sink) {
  int acc = 0;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) { int4 v = b[i]; acc ^= v.y; }
  if (acc == 0x12345678) sink[threadIdx.x] = acc;
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "default";
  const bool sweep = !strcmp(mode, "sweep");
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
  size_t lim = 0;
  CK(cudaDeviceGetLimit(&lim, cudaLimitPersistingL2CacheSize));
  if (!strcmp(mode, "zero")) CK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0));
  if (!strcmp(mode, "same")) CK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, lim));
  if (!strcmp(mode, "max")) CK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, p.persistingL2CacheMaxSize));
  size_t now = 0;
  CK(cudaDeviceGetLimit(&now, cudaLimitPersistingL2CacheSize));
  printf("SETASIDE mode=%s default=%zu now=%zu\n", mode, lim, now);
  const size_t MiB = size_t(1) << 20, N = size_t(1) << 22, chunk = 8 * MiB / 16 / sms;
  int4 *r, *junk; void *in, *out; unsigned* sink;
  CK(cudaMalloc(&r, 8 * MiB)); CK(cudaMalloc(&junk, 512 * MiB)); CK(cudaMalloc(&in, 2 * N * 16 + 4096)); CK(cudaMalloc(&out, N * 16)); CK(cudaMalloc(&sink, 4096));
  CK(cudaMemset(r, 1, 8 * MiB)); CK(cudaMemset(junk, 3, 512 * MiB)); CK(cudaMemset(in, 1, 2 * N * 16 + 4096)); CK(cudaMemset(out, 0, N * 16));
  CK(cudaFuncSetAttribute(writeR, cudaFuncAttributeMaxDynamicSharedMemorySize, 160 * 1024));
  const size_t jn = 512 * MiB / 16;
  const int G = (int)(N / 256);
  if (sweep) {
    // the dirty bytes the L2 keeps after 64 MiB of stores, by set-aside (sixteenths of the L2)
    for (int q : {0, 2, 3, 4, 6, 8, 10}) {
      CK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, (size_t)p.l2CacheSize * q / 16));
      CK(cudaDeviceGetLimit(&now, cudaLimitPersistingL2CacheSize));
      printf("SETASIDE sweep q=%d now=%zu\n", q, now);
      stream<<<sms * 8, 256>>>(junk, jn, sink);
      st<<<G, 256>>>((int4*)out);
      stream<<<sms * 8, 256>>>(junk, jn, sink);
      ld<uint32_t, 1><<<G, 256>>>((const uint32_t*)in, (uint32_t*)out);
      stream<<<sms * 8, 256>>>(junk, jn, sink);
      CK(cudaDeviceSynchronize());
    }
    printf("done\n");
    return 0;
  }
  for (int k = 0; k < 3; k++) {
    stream<<<sms * 8, 256>>>(junk, jn, sink);
    if (k == 0) writeR<<<sms, 1024, 160 * 1024>>>(r, chunk);
    if (k == 1) ld<uint32_t, 1><<<G, 256>>>((const uint32_t*)in, (uint32_t*)out);
    if (k == 2) ld<int4, 2><<<G, 256>>>((const int4*)in, (int4*)out);
    stream<<<sms * 8, 256>>>(junk, jn, sink);
    CK(cudaGetLastError());
  }
  CK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
