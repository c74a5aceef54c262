// Which lines of an old dirty buffer a kernel pushes out of the L2, line by line (no ncu). Each run:
// the L2 cleaned by a 256 MiB read stream (and, in most runs, emptied: its clean lines then dropped with
// discard.global.L2, as ncu's flush leaves it before each pass); a 2.25 MiB seed written by a kernel, from
// the host, or read by a kernel; the workload; then one thread on SM 0 loads every seed line once, in
// address order, and every 16th line of the workload's input and output buffers (16 MiB each), through
// an evict-first policy (its own misses are the first lines its sets give up, not the lines still
// unread), and records each latency in cycles: near hits (~250-325), far hits (~425-500), near misses
// (~500-600), far misses (~675 and more). Runs are listed in main(); u32 kernels of micro.cu's family-1
// shape (256 threads per block). A run repeated: are the same lines pushed out (the set index decides),
// or others (the run: which SM ran which block, timing)?
// Output (stdout): `addr,<seed>,<in>,<out>` (device addresses), then `surv,<run>,<rep>,<latencies>`: the
// seed's 18432 lines, then 8192 of in, 8192 of out.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)

static const size_t MIB = 1u << 20;
static const size_t JUNK = 256 * MIB;
static const int SEED_LINES = 18432;  // 2.25 MiB

__device__ __forceinline__ unsigned smid() { unsigned r; asm volatile("mov.u32 %0, %%smid;" : "=r"(r)); return r; }

__global__ void clean(const int4* junk, size_t n, int* sink) {
  int4 acc = make_int4(0, 0, 0, 0);
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    int4 v = junk[i];
    acc.x ^= v.x; acc.y ^= v.y; acc.z ^= v.z; acc.w ^= v.w;
  }
  if ((acc.x ^ acc.y ^ acc.z ^ acc.w) == 0x7fffffff) sink[0] = 1;
}
/** drop the junk's lines from the L2 (clean lines: no write-back): an empty L2, as after ncu's flush */
__global__ void drop(const int4* junk, size_t lines) {
  const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < lines) asm volatile("discard.global.L2 [%0], 128;" : : "l"(junk + i * 8) : "memory");
}
__global__ void cp(const uint32_t* in, uint32_t* out) {
  const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}
__global__ void seeder(int4* s, size_t n) {
  const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) s[i] = make_int4((int)i | 1, 1, 2, 3);
}
/** `words` words of each of `lines` lines, `step` words apart from the first: an L2 atomic (RED.ADD) on each, a 4-byte store, a load */
__global__ void atomics(unsigned* s, int lines, int words, int step) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < lines * words) atomicAdd(s + (size_t)(i / words) * 32 + (i % words) * step, 1u);
}
__global__ void stores(unsigned* s, int lines, int words, int step) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < lines * words) s[(size_t)(i / words) * 32 + (i % words) * step] = (unsigned)i | 1u;
}
__global__ void loads(const unsigned* s, int lines, int words, int step, unsigned* sink) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < lines * words && s[(size_t)(i / words) * 32 + (i % words) * step] == 0x7fffffff) sink[threadIdx.x] = 1;
}
__global__ void rd(const uint32_t* x, unsigned* sink) {
  const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t v = x[i];
  if (v == 0x7fffffff) sink[threadIdx.x] = v;
}

/** latency of one load of each of `n` lines `stride` lines apart from `base`, from thread 0 of the block on SM 0 */
__global__ void survey(const unsigned* base, int stride, int n, unsigned* lat) {
  extern __shared__ unsigned sh[];
  if (threadIdx.x != 0 || smid() != 0) return;
  unsigned long long pol;
  asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(pol));
  unsigned dep = 0;
  for (int j = 0; j < n; ++j) {
    const unsigned* p = base + (size_t)j * stride * 32 + dep;
    long long t0 = clock64();
    unsigned v;
    asm volatile("ld.global.cg.L2::cache_hint.u32 %0, [%1], %2;" : "=r"(v) : "l"(p), "l"(pol) : "memory");
    sh[j & 1023] = v;  // the store waits for the load: the clock read after it sees its latency
    long long t1 = clock64();
    dep = (v >> 31) & 1;  // every word read is below 2^31: always 0, unknown to the compiler
    lat[j] = (unsigned)(t1 - t0);
  }
}

int main(int argc, char** argv) {
  const bool wordMode = argc > 1 && strcmp(argv[1], "words") == 0;
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  int4* junk; unsigned *seed, *lat; uint32_t *in, *out; int* sink;
  CK(cudaMalloc(&junk, JUNK));
  CK(cudaMemset(junk, 1, JUNK));
  CK(cudaMalloc(&seed, SEED_LINES * 128));
  CK(cudaMalloc(&in, 64 * MIB));
  CK(cudaMalloc(&out, 64 * MIB));
  CK(cudaMemset(in, 1, 64 * MIB));
  CK(cudaMemset(out, 2, 64 * MIB));
  CK(cudaMemset(out, 0, 64 * MIB));
  CK(cudaMalloc(&lat, SEED_LINES * 4));
  CK(cudaMalloc(&sink, 4096));
  const int SH = 200 * 1024;
  CK(cudaFuncSetAttribute(survey, cudaFuncAttributeMaxDynamicSharedMemorySize, SH));
  printf("addr,%p,%p,%p\n", (void*)seed, (void*)in, (void*)out);
  std::vector<unsigned> host(SEED_LINES * 32), h(SEED_LINES);
  for (size_t i = 0; i < host.size(); ++i) host[i] = (unsigned)(i * 2654435761u) >> 1;
  // runs: <seed>.<L2>.<workload>. Seed k: written by a kernel of 16-byte stores from every SM (dirty at
  // home, near copies of the lines written from the other partition); h: from the host (copy engine);
  // r: read by a kernel from every SM (clean; it was written long before); w: k, then read once by a
  // kernel. L2 e: emptied (the clean-up's clean lines dropped with discard.global.L2, as ncu's flush
  // leaves it); j: left full of the clean-up's clean lines. Workloads: none, flush (the clean-up read
  // again), cp<MiB> (out[i] = in[i]), rd<MiB> (in[i] read).
  // argv[1] `words`: seeds accessed word by word, the lines not in the L2 before (do lines written by
  // atomics outlive lines read once, as lines written by stores do? does it matter how much of a line is
  // written?): L2 atomics on every word of each line (a), on its first word (b), on its first sector's 8
  // words (e), on the first word of each sector (y: the line whole, its sectors fetched for the atomics);
  // 4-byte stores to its first word (c), first sector (d), every word (s); the seed read (as r) and then
  // one atomic (f) or one 4-byte store (g) on each line's first word; only each line's first word read (q:
  // a clean line of one 64-byte granule); k and r as above
  const char* plain[] = {"k.e.none", "k.e.flush", "k.e.cp16", "k.e.cp16", "k.e.rd28", "k.e.rd36", "k.e.rd36", "k.e.rd44",
                         "h.e.cp16", "h.e.rd36", "r.e.cp16", "r.e.rd36", "r.e.rd44", "w.e.cp16", "w.e.rd36", "w.e.rd44",
                         "k.j.cp16", "k.j.rd36"};
  const char* wordRuns[] = {"a.e.none", "k.e.cp16", "a.e.cp16", "b.e.cp16", "e.e.cp16", "c.e.cp16", "d.e.cp16", "s.e.cp16",
                            "f.e.cp16", "g.e.cp16", "r.e.cp16", "k.e.rd36", "a.e.rd36", "b.e.rd36", "e.e.rd36", "c.e.rd36",
                            "d.e.rd36", "s.e.rd36", "f.e.rd36", "g.e.rd36", "r.e.rd36", "y.e.cp16", "q.e.cp16", "y.e.rd36",
                            "q.e.rd36"};
  const char** names = wordMode ? wordRuns : plain;
  const int W = wordMode ? sizeof wordRuns / sizeof wordRuns[0] : sizeof plain / sizeof plain[0];
  // surveyed after each run: the seed's lines, then every 16th line of in's and of out's first 16 MiB
  const int SAMPLE = 8192;
  CK(cudaFree(lat));
  CK(cudaMalloc(&lat, (SEED_LINES + 2 * SAMPLE) * 4));
  h.resize(SEED_LINES + 2 * SAMPLE);
  CK(cudaMemcpy(seed, host.data(), SEED_LINES * 128, cudaMemcpyHostToDevice));
  for (int w = 0; w < W; ++w) {
    const char* n = names[w];
    int r = 0;
    for (int v = 0; v < w; ++v) r += strcmp(names[v], n) == 0;
    clean<<<sms * 8, 256>>>(junk, JUNK / 16, sink);
    if (n[2] == 'e') drop<<<(unsigned)(JUNK / 128 / 256), 256>>>(junk, JUNK / 128);
    if (n[0] == 'h') CK(cudaMemcpy(seed, host.data(), SEED_LINES * 128, cudaMemcpyHostToDevice));
    if (n[0] == 'k' || n[0] == 'w') seeder<<<SEED_LINES * 8 / 256, 256>>>((int4*)seed, SEED_LINES * 8);
    if (strchr("rwfg", n[0])) rd<<<SEED_LINES * 32 / 256, 256>>>(seed, (unsigned*)sink);
    const int words = strchr("as", n[0]) ? 32 : strchr("de", n[0]) ? 8 : n[0] == 'y' ? 4 : 1;
    const int step = n[0] == 'y' ? 8 : 1;
    const unsigned grid = (SEED_LINES * words + 255) / 256;
    if (strchr("abefy", n[0])) atomics<<<grid, 256>>>(seed, SEED_LINES, words, step);
    if (strchr("cdsg", n[0])) stores<<<grid, 256>>>(seed, SEED_LINES, words, step);
    if (n[0] == 'q') loads<<<grid, 256>>>(seed, SEED_LINES, words, step, (unsigned*)sink);
    const char* wl = n + 4;
    const unsigned mib = (unsigned)atoi(wl + 2);
    if (wl[0] == 'f') clean<<<sms * 8, 256>>>(junk, JUNK / 16, sink);
    if (wl[0] == 'c') cp<<<(unsigned)(mib * MIB / 4 / 256), 256>>>(in, out);
    if (wl[0] == 'r') rd<<<(unsigned)(mib * MIB / 4 / 256), 256>>>(in, (unsigned*)sink);
    survey<<<sms, 32, SH>>>(seed, 1, SEED_LINES, lat);
    survey<<<sms, 32, SH>>>(in, 16, SAMPLE, lat + SEED_LINES);
    survey<<<sms, 32, SH>>>(out, 16, SAMPLE, lat + SEED_LINES + SAMPLE);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h.data(), lat, h.size() * 4, cudaMemcpyDeviceToHost));
    printf("surv,%s,%d", n, r);
    for (size_t j = 0; j < h.size(); ++j) printf(",%u", h[j]);
    printf("\n");
  }
  return 0;
}
