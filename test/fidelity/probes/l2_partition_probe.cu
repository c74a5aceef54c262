// Which L2 partition is near which SM, which lines live in which partition, and on which SMs the
// blocks of micro.cu's family-1 grids run. Without ncu: clock64() latencies and %smid.
//   near:   for each SM in turn (one 200-KB block per SM, only the block on the target SM works): the
//           L2 is cleaned by a 256 MiB read stream, N lines are written from the host (copy engine: they
//           land in their home partition, no near copies), then one thread loads each line once
//           (ld.global.cg, dependent chain through shared memory) and records its latency in cycles.
//           A line homed in the SM's far partition is served over the L2 fabric: slower.
//   order:  micro.cu's g_ld_u32_stride2 grid (16384 blocks of 256, out[i] = in[2i]); thread 0 of each
//           block records %smid and a ticket (atomicAdd at its start): the order blocks were dispatched.
//   gorder: the same for a grid-stride copy of 8 blocks per SM (1056 blocks), as the probes' kernels.
//   home:   which partition each 4-KiB chunk of a 4-GiB buffer is homed in (`near` shows the home is
//           constant over aligned 4-KiB chunks): lines 0, 9 and 22 of each chunk timed from SM 0 and SM 2
//           (one SM of each partition), for the first 16384 chunks (64 MiB) and for chunks j ^ 2^k,
//           j < 32, k = 14..19 (address bits 26-31).
// Output (stdout): `near,<sm>,<lat line 0>,...`, `order,<rep>,<block>,<sm>,<ticket>` and
// `home,<chunk>,<3 latencies from SM 0>,<3 from SM 2>` rows.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)

static const int LINES = 4096;  // 512 KiB measured
static const size_t JUNK = 256ull << 20;

__device__ __forceinline__ unsigned smid() { unsigned r; asm volatile("mov.u32 %0, %%smid;" : "=r"(r)); return r; }

__global__ void clean(const int4* junk, size_t n, int* sink) {
  int4 acc = make_int4(0, 0, 0, 0);
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    int4 v = junk[i];
    acc.x ^= v.x; acc.y ^= v.y; acc.z ^= v.z; acc.w ^= v.w;
  }
  if ((acc.x ^ acc.y ^ acc.z ^ acc.w) == 0x7fffffff) sink[0] = 1;
}

__global__ void near(const unsigned* buf, unsigned target, unsigned* lat, unsigned* seen) {
  extern __shared__ unsigned sh[];
  if (threadIdx.x != 0) return;
  const unsigned s = smid();
  seen[blockIdx.x] = s;
  if (s != target) return;
  unsigned dep = 0;
  for (int j = 0; j < LINES; ++j) {
    const unsigned* p = buf + (size_t)j * 32 + dep;
    long long t0 = clock64();
    unsigned v;
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    sh[j & 1023] = v;  // the store waits for the load: the clock read after it sees its latency
    long long t1 = clock64();
    dep = v & 1;      // buffer is zero: always 0, unknown to the compiler
    lat[j] = (unsigned)(t1 - t0);
  }
}

/** latencies of n lines (byte offsets offs[]) from the block on SM `target` */
__global__ void lines(const unsigned char* base, const unsigned long long* offs, int n, unsigned target, unsigned* lat) {
  extern __shared__ unsigned sh[];
  if (threadIdx.x != 0 || smid() != target) return;
  unsigned dep = 0;
  for (int j = 0; j < n; ++j) {
    const unsigned* p = reinterpret_cast<const unsigned*>(base + offs[j]) + dep;
    long long t0 = clock64();
    unsigned v;
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    sh[j & 1023] = v;
    long long t1 = clock64();
    dep = v & 1;
    lat[j] = (unsigned)(t1 - t0);
  }
}

__global__ void order_ld(const uint32_t* in, uint32_t* out, unsigned* ctr, unsigned* rec) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) {
    rec[2 * blockIdx.x] = smid();
    rec[2 * blockIdx.x + 1] = atomicAdd(ctr, 1u);
  }
  out[i] = in[2 * i];
}

__global__ void order_gs(const uint32_t* in, uint32_t* out, size_t n, unsigned* ctr, unsigned* rec) {
  if (threadIdx.x == 0) {
    rec[2 * blockIdx.x] = smid();
    rec[2 * blockIdx.x + 1] = atomicAdd(ctr, 1u);
  }
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) out[i] = in[2 * i];
}

int main() {
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  int4* junk; unsigned *buf, *lat, *seen, *ctr, *rec; int* sink;
  CK(cudaMalloc(&junk, JUNK));
  CK(cudaMemset(junk, 1, JUNK));
  CK(cudaMalloc(&buf, 2u << 20));
  CK(cudaMalloc(&lat, LINES * 4));
  CK(cudaMalloc(&seen, 4096 * 4));
  CK(cudaMalloc(&ctr, 4));
  CK(cudaMalloc(&sink, 4));
  const int SH = 200 * 1024;
  CK(cudaFuncSetAttribute(near, cudaFuncAttributeMaxDynamicSharedMemorySize, SH));
  CK(cudaFuncSetAttribute(lines, cudaFuncAttributeMaxDynamicSharedMemorySize, SH));
  std::vector<unsigned> zero(LINES * 32, 0), h(LINES), hs(sms);
  for (int t = 0; t < sms; ++t) {
    clean<<<sms * 8, 256>>>(junk, JUNK / 16, sink);
    CK(cudaMemcpy(buf, zero.data(), zero.size() * 4, cudaMemcpyHostToDevice));
    near<<<sms, 32, SH>>>(buf, t, lat, seen);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h.data(), lat, LINES * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hs.data(), seen, sms * 4, cudaMemcpyDeviceToHost));
    int hit = 0;
    for (int b = 0; b < sms; ++b) hit += hs[b] == (unsigned)t;
    printf("near,%d,%d", t, hit);
    for (int j = 0; j < LINES; ++j) printf(",%u", h[j]);
    printf("\n");
  }
  const size_t n = 4u << 20;  // micro.cu's G_THREADS
  uint32_t *in, *out;
  CK(cudaMalloc(&in, 2 * n * 4));
  CK(cudaMalloc(&out, n * 4));
  CK(cudaMemset(in, 0, 2 * n * 4));
  const int blocks = (int)(n / 256), gblocks = sms * 8;
  CK(cudaMalloc(&rec, 2 * blocks * 4));
  std::vector<unsigned> r(2 * blocks);
  for (int rep = 0; rep < 3; ++rep) {
    for (int g = 0; g < 2; ++g) {
      clean<<<sms * 8, 256>>>(junk, JUNK / 16, sink);
      CK(cudaMemset(ctr, 0, 4));
      const int nb = g ? gblocks : blocks;
      if (g) order_gs<<<nb, 256>>>(in, out, n, ctr, rec);
      else order_ld<<<nb, 256>>>(in, out, ctr, rec);
      CK(cudaDeviceSynchronize());
      CK(cudaMemcpy(r.data(), rec, 2 * nb * 4, cudaMemcpyDeviceToHost));
      for (int b = 0; b < nb; ++b) printf("%s,%d,%d,%u,%u\n", g ? "gorder" : "order", rep, b, r[2 * b], r[2 * b + 1]);
    }
  }
  // home partition of 4-KiB chunks over a 4-GiB buffer
  std::vector<unsigned long long> chunks;
  for (unsigned long long c = 0; c < 16384; ++c) chunks.push_back(c);
  for (int k = 14; k < 20; ++k)
    for (unsigned long long j = 0; j < 32; ++j) chunks.push_back(j ^ (1ull << k));
  unsigned char* big;
  CK(cudaMalloc(&big, 4ull << 30));
  const int PER = 3, BATCH = 256;
  const unsigned LOFF[PER] = {0, 9, 22};
  unsigned long long* doffs;
  CK(cudaMalloc(&doffs, BATCH * PER * 8));
  CK(cudaFree(lat));
  CK(cudaMalloc(&lat, BATCH * PER * 4));
  std::vector<unsigned> hl(BATCH * PER), res(chunks.size() * 2 * PER);
  std::vector<unsigned long long> ho(BATCH * PER);
  const unsigned targets[2] = {0, 2};
  for (int ti = 0; ti < 2; ++ti)
    for (size_t b0 = 0; b0 < chunks.size(); b0 += BATCH) {
      const int nb = (int)std::min<size_t>(BATCH, chunks.size() - b0);
      clean<<<sms * 8, 256>>>(junk, JUNK / 16, sink);
      for (int i = 0; i < nb; ++i) {
        CK(cudaMemcpy(big + chunks[b0 + i] * 4096, zero.data(), 4096, cudaMemcpyHostToDevice));
        for (int l = 0; l < PER; ++l) ho[i * PER + l] = chunks[b0 + i] * 4096 + LOFF[l] * 128;
      }
      CK(cudaMemcpy(doffs, ho.data(), nb * PER * 8, cudaMemcpyHostToDevice));
      lines<<<sms, 32, SH>>>(big, doffs, nb * PER, targets[ti], lat);
      CK(cudaDeviceSynchronize());
      CK(cudaMemcpy(hl.data(), lat, nb * PER * 4, cudaMemcpyDeviceToHost));
      for (int i = 0; i < nb; ++i)
        for (int l = 0; l < PER; ++l) res[(b0 + i) * 2 * PER + ti * PER + l] = hl[i * PER + l];
    }
  for (size_t i = 0; i < chunks.size(); ++i) {
    printf("home,%llu", chunks[i]);
    for (int l = 0; l < 2 * PER; ++l) printf(",%u", res[i * 2 * PER + l]);
    printf("\n");
  }
  return 0;
}
