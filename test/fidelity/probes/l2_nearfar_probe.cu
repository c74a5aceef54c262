// How much L2 room does a line take when the SM that reads (or writes) it is near its home partition,
// and how much when it is far (the near partition may keep a copy)? The push-out of an old dirty
// buffer measures it. Each run: two 128-MiB reads of a never-written buffer (a clean L2), 2.25 MiB of
// stores to buffer C (the old dirty buffer), then the first X MiB of buffer A read (`rsel`) or written
// (`ssel`) in 4-KiB chunks, each chunk by an SM chosen by the chunk's home partition:
//   near:  only SMs of the chunk's home partition touch it (no copies possible);
//   far:   only SMs of the other partition (every line over the fabric);
//   mixed: any SM (a single ticket over the chunks in address order: half near, half far).
// Each mode touches the same lines of A; only which SMs do differs. Blocks are persistent (8 per SM,
// 256 threads), take chunk tickets from their list (atomicAdd), and touch each chunk's 32 lines with
// one warp instruction per line. Reads of 24-56 MiB, stores of 24 and 32 (env NF_READS / NF_STORES,
// NF_SEED=0 for none).
// Homes, measured here: 4-KiB chunks are homed by the parity of address bits 12, 13, 15, 17, 19, 21 and
// one bit per physical page (arch l2PartitionHash, l2_partition_probe.cu). For 4 chunks of each 2-MiB
// page of A, lines written from the host (copy engine: in their home only) are loaded once from SM 0:
// 240-320 cycles near, 400-500 over the fabric; the page's bit is the vote of the 4. SMs: after a
// clean-up, every SM times 2 lines of a chunk of its own near SM 0 and 2 of one far from it.
// Output: `cal,<page>,<chunk>,<cycles>,<far from SM 0>,<parity>`, `page,<page>,<bit>,<chunks agreeing
// of 4>`, `sm,<sm>,<cycles near SM 0's>,<cycles far>,<partition>,<arch's>`, `lists,...` rows; ncu
// profiles `rsel` and `ssel` only.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)

static const size_t MIB = 1u << 20;
static const size_t ABYTES = 64 * MIB;
static const size_t JUNK = 128 * MIB;  // read twice: a clean L2 (the second read writes back 0.05-0.4 MB)
static const size_t CHUNK = 4096;
// src/arch/data/h200.ts smL2Partition ([MEAS] l2_partition_probe.cu)
#define PART_INIT {\
  0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 0, \
  0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, \
  1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0, \
  0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, \
}
static const unsigned char HPART[132] = PART_INIT;
__constant__ unsigned char PART[132];  // measured here (main), compared with HPART

__device__ __forceinline__ unsigned smid() { unsigned r; asm volatile("mov.u32 %0, %%smid;" : "=r"(r)); return r; }

__global__ void clean(const int4* junk, size_t n, int* sink) {
  int4 acc = make_int4(0, 0, 0, 0);
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    int4 v = junk[i];
    acc.x ^= v.x; acc.y ^= v.y; acc.z ^= v.z; acc.w ^= v.w;
  }
  if ((acc.x ^ acc.y ^ acc.z ^ acc.w) == 0x7fffffff) sink[0] = 1;
}

__global__ void seeder(int4* s, size_t n) {
  const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) s[i] = make_int4((int)i | 1, 1, 2, 3);
}

/** latencies of n lines per SM (byte offsets offs[]) from one thread of the block on each SM (one
 *  block per SM: 200 KB of shared memory each): SM `target` times offs[0, n), or with target < 0 every
 *  SM s times its own offs[s n, s n + n) (own lines: no SM meets another's near copies) */
__global__ void lines(const unsigned char* base, const unsigned long long* offs, int n, int target, unsigned* lat) {
  extern __shared__ unsigned sh[];
  const unsigned s = smid();
  if (threadIdx.x != 0 || (target >= 0 && s != (unsigned)target) || s >= 132) return;
  const int j0 = target >= 0 ? 0 : (int)s * n;
  unsigned dep = 0;
  for (int j = j0; j < j0 + n; ++j) {
    const unsigned* p = reinterpret_cast<const unsigned*>(base + offs[j]) + dep;
    long long t0 = clock64();
    unsigned v;
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    sh[j & 1023] = v;
    long long t1 = clock64();
    dep = v & 1 & (v >> 31);  // 0, unknown to the compiler
    lat[j] = (unsigned)(t1 - t0);
  }
}

/** the chunk lists: homed in partition 0, in 1, all in address order. Passed as a struct and picked
 *  by value (a dynamically indexed parameter array would be copied to local memory: 40 B of stores
 *  per thread, 10.8 MB of dirty lines for 1056 blocks of 256) */
struct Lists {
  const unsigned *l0, *l1, *l2;
  unsigned n0, n1, n2;
};

/** which list a block on this SM serves: near = its partition's, far = the other's, mixed = all */
__device__ __forceinline__ int pick(int mode) {
  const unsigned s = smid();
  const int p = s < 132 ? PART[s] : 0;
  return mode == 0 ? p : mode == 1 ? 1 - p : 2;
}
__device__ __forceinline__ const unsigned* listOf(const Lists& l, int q) { return q == 0 ? l.l0 : q == 1 ? l.l1 : l.l2; }
__device__ __forceinline__ unsigned sizeOf(const Lists& l, int q) { return q == 0 ? l.n0 : q == 1 ? l.n1 : l.n2; }

__global__ void rsel(const uint32_t* a, Lists l, int mode, unsigned* ctr, unsigned* sink) {
  __shared__ unsigned t;
  const int q = pick(mode);
  const unsigned* list = listOf(l, q);
  const unsigned n = sizeOf(l, q);
  for (;;) {
    if (threadIdx.x == 0) t = atomicAdd(q == 0 ? ctr : q == 1 ? ctr + 1 : ctr + 2, 1u);
    __syncthreads();
    const unsigned c = t;
    __syncthreads();
    if (c >= n) return;
    const uint32_t* p = a + (size_t)list[c] * (CHUNK / 4);
    uint32_t acc = 0;
    for (int j = 0; j < 4; ++j) acc += p[j * 256 + threadIdx.x];
    if (acc == 7) sink[threadIdx.x] = acc;  // keeps the loads live: no write to A makes the sum 7
  }
}

__global__ void ssel(uint32_t* a, Lists l, int mode, unsigned* ctr) {
  __shared__ unsigned t;
  const int q = pick(mode);
  const unsigned* list = listOf(l, q);
  const unsigned n = sizeOf(l, q);
  for (;;) {
    if (threadIdx.x == 0) t = atomicAdd(q == 0 ? ctr : q == 1 ? ctr + 1 : ctr + 2, 1u);
    __syncthreads();
    const unsigned c = t;
    __syncthreads();
    if (c >= n) return;
    uint32_t* p = a + (size_t)list[c] * (CHUNK / 4);
    for (int j = 0; j < 4; ++j) p[j * 256 + threadIdx.x] = (c << 10 | j << 8 | threadIdx.x) | 1u;
  }
}

static int parity(unsigned long long addr) {
  const int bits[] = {12, 13, 15, 17, 19, 21};
  int x = 0;
  for (int b : bits) x ^= (int)(addr >> b) & 1;
  return x;
}

/** latencies of the lines at offs (n per SM; target as `lines`) after a clean L2 and the lines' chunks
 *  written from the host (copy engine: in their home partition only, no near copies) */
static std::vector<unsigned> timed(unsigned char* a, const std::vector<unsigned long long>& offs, int n, int target,
                                   const int4* junk, int* isink) {
  static std::vector<unsigned> fill(CHUNK / 4, 0x01010101u);
  unsigned long long* d;
  unsigned* lat;
  CK(cudaMalloc(&d, offs.size() * 8));
  CK(cudaMalloc(&lat, offs.size() * 4));
  CK(cudaMemcpy(d, offs.data(), offs.size() * 8, cudaMemcpyHostToDevice));
  clean<<<132 * 8, 256>>>(junk, JUNK / 16, isink);
  CK(cudaDeviceSynchronize());
  for (unsigned long long o : offs) CK(cudaMemcpy(a + o / CHUNK * CHUNK, fill.data(), CHUNK, cudaMemcpyHostToDevice));
  lines<<<132, 32, 200 * 1024>>>(a, d, n, target, lat);
  CK(cudaDeviceSynchronize());
  std::vector<unsigned> h(offs.size());
  CK(cudaMemcpy(h.data(), lat, offs.size() * 4, cudaMemcpyDeviceToHost));
  CK(cudaFree(d));
  CK(cudaFree(lat));
  return h;
}

int main() {
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  if (sms != 132) { printf("err: 132 SMs expected (the H200), found %d\n", sms); return 1; }
  int4 *junk, *c;
  uint32_t* a;
  unsigned *sink, *ctr;
  int* isink;
  // junk and A are never written before the runs: no dirty lines of theirs in the L2 (the clean-up
  // reads junk again and again: a dirty junk line would stay dirty and hot)
  CK(cudaMalloc(&junk, JUNK));
  CK(cudaMalloc(&a, ABYTES));
  CK(cudaMalloc(&c, 8 * MIB));
  CK(cudaMalloc(&sink, 4096));
  CK(cudaMalloc(&isink, 4));
  CK(cudaMalloc(&ctr, 16));
  CK(cudaFuncSetAttribute(lines, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
  unsigned char* ab = reinterpret_cast<unsigned char*>(a);
  const unsigned long long A = (unsigned long long)a;
  // homes relative to SM 0: 4 chunks of each 2-MiB page, 2 lines each, timed from SM 0
  const int PAGES = (int)(ABYTES / (2 * MIB)), PER_PAGE = 4, LPC = 2;
  const unsigned CIDX[PER_PAGE] = {0, 1, 37, 300}, LOFF[LPC] = {0, 17};
  std::vector<unsigned long long> offs;
  for (int g = 0; g < PAGES; ++g)
    for (int k = 0; k < PER_PAGE; ++k)
      for (int l = 0; l < LPC; ++l) offs.push_back(g * 2 * MIB + CIDX[k] * CHUNK + LOFF[l] * 128);
  const std::vector<unsigned> l0 = timed(ab, offs, (int)offs.size(), 0, junk, isink);
  std::vector<int> pageBit(PAGES);  // near SM 0 = parity ^ pageBit == 0
  for (int g = 0; g < PAGES; ++g) {
    int votes = 0;
    for (int k = 0; k < PER_PAGE; ++k) {
      const int i = g * PER_PAGE + k;
      const unsigned s0 = (l0[i * LPC] + l0[i * LPC + 1]) / 2;
      const int far0 = s0 > 370;  // near 240-320 cycles, over the fabric 400-500 (l2_partition_probe.cu)
      const int par = parity(A + g * 2 * MIB + CIDX[k] * CHUNK);
      printf("cal,%d,%u,%u,%d,%d\n", g, CIDX[k], s0, far0, par);
      votes += far0 ^ par;
    }
    pageBit[g] = 2 * votes > PER_PAGE;
    printf("page,%d,%d,%d\n", g, pageBit[g], pageBit[g] ? votes : PER_PAGE - votes);
  }
  const size_t chunks = ABYTES / CHUNK;
  std::vector<unsigned> far0(chunks);
  for (size_t k = 0; k < chunks; ++k) far0[k] = parity(A + k * CHUNK) ^ pageBit[k * CHUNK / (2 * MIB)];
  // SMs: each times 2 lines of its own chunk near SM 0 and 2 of its own chunk far from it
  std::vector<unsigned> nearC, farC;
  for (size_t k = 0; k < chunks && (nearC.size() < 132 || farC.size() < 132); ++k)
    if (k % 512 != 0 && k % 512 != 1 && k % 512 != 37 && k % 512 != 300) (far0[k] ? farC : nearC).push_back((unsigned)k);
  std::vector<unsigned long long> so;
  for (int s = 0; s < 132; ++s)
    for (int l = 0; l < 4; ++l) so.push_back((unsigned long long)(l < 2 ? nearC[s] : farC[s]) * CHUNK + LOFF[l & 1] * 128);
  const std::vector<unsigned> ls = timed(ab, so, 4, -1, junk, isink);
  unsigned char part[132];
  int differ = 0;
  for (int s = 0; s < 132; ++s) {
    const unsigned n = ls[4 * s] + ls[4 * s + 1], f = ls[4 * s + 2] + ls[4 * s + 3];
    part[s] = n < f ? 0 : 1;  // 0: SM 0's partition
    differ += part[s] != (HPART[s] ^ HPART[0]);
    printf("sm,%d,%u,%u,%d,%d\n", s, n / 2, f / 2, part[s], HPART[s] ^ HPART[0]);
  }
  printf("sms_differing_from_arch_map,%d\n", differ);
  CK(cudaMemcpyToSymbol(PART, part, 132));
  // the runs: near = the chunk's home partition (relative to SM 0: far0) is the SM's
  unsigned* dl;
  CK(cudaMalloc(&dl, 2 * chunks * 4));
  const size_t seedN = (size_t)(2.25 * MIB / 16);
  struct Run { int store; double mib; };
  std::vector<Run> runs;
  // env NF_READS / NF_STORES: the sizes (MiB, comma-separated; `none`) instead of the defaults; NF_SEED=0: no seed
  auto sizes = [](const char* env, const char* dflt) {
    std::vector<double> v;
    const char* e = getenv(env);
    for (const char* p = e ? e : dflt; *p;) {
      char* q;
      const double x = strtod(p, &q);
      if (q == p) break;
      v.push_back(x);
      p = *q == ',' ? q + 1 : q;
    }
    return v;
  };
  for (double m : sizes("NF_READS", "24,28,32,40,56")) runs.push_back({0, m});
  for (double m : sizes("NF_STORES", "24,32")) runs.push_back({1, m});
  const bool seed = !getenv("NF_SEED") || atoi(getenv("NF_SEED")) != 0;
  for (const Run& r : runs) {
    const size_t n = (size_t)(r.mib * MIB / CHUNK);
    // lists in device memory: chunks homed in partition 0, in 1, then all chunks in order
    std::vector<unsigned> p0, p1, dev;
    for (size_t k = 0; k < n; ++k) (far0[k] ? p1 : p0).push_back((unsigned)k);
    dev = p0;
    dev.insert(dev.end(), p1.begin(), p1.end());
    for (size_t k = 0; k < n; ++k) dev.push_back((unsigned)k);
    CK(cudaMemcpy(dl, dev.data(), dev.size() * 4, cudaMemcpyHostToDevice));
    Lists l;
    l.l0 = dl; l.l1 = dl + p0.size(); l.l2 = dl + p0.size() + p1.size();
    l.n0 = (unsigned)p0.size(); l.n1 = (unsigned)p1.size(); l.n2 = (unsigned)n;
    printf("lists,%s,%g,%u,%u\n", r.store ? "store" : "read", r.mib, l.n0, l.n1);
    for (int mode = 0; mode < 3; ++mode) {
      clean<<<sms * 8, 256>>>(junk, JUNK / 16, isink);
      clean<<<sms * 8, 256>>>(junk, JUNK / 16, isink);
      if (seed) seeder<<<(unsigned)(seedN / 256), 256>>>(c, seedN);
      CK(cudaMemset(ctr, 0, 16));
      if (r.store) ssel<<<sms * 8, 256>>>(a, l, mode, ctr);
      else rsel<<<sms * 8, 256>>>(a, l, mode, ctr, sink);
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
    }
  }
  printf("done\n");
  return 0;
}
