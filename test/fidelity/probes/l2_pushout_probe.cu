// How much of an old dirty buffer do kernels of each size push out of the L2, and is ncu's replay
// residue such a buffer? Under ncu --cache-control all every kernel replayed in 3-11 passes meets ~2.3 MB
// of dirty lines (arch ncuReplayDirtyBytes). Two 64 MiB buffers A, B (memset, B last), u32 kernels of
// micro.cu's family-1 shape (256 threads per block, one element per thread):
//   rd(X, off, MiB):   reads X[off .. off + MiB) (a store only for a value the data never holds);
//   cp(A -> B, MiB):   B[i] = A[i] (micro.cu's g_ld_u32_coalesced);
//   st(B, MiB):        B[i] = i | 1.
// argv: `first <headA|tailA|headB|tailB>`: the one 4 MiB read right after the memsets, then B's tail
//         twice (one replay pass: does a flushed L2 still hold the memset's last lines? A read of lines
//         held dirty reads fewer bytes from DRAM);
//       `seq`: 4 MiB reads of A's and B's heads and tails (the residue in the app's buffers?), reads of
//         8-64 MiB, copies of 8-24 MiB, stores of 16-40 MiB; profiled with the ground truth's metrics
//         (11 passes: each kernel meets the replay residue) and with three (one pass: none);
//       `seed` (--cache-control none, one pass): for each read size, 128 MiB of reads (a clean L2), 2.25
//         MiB of 16-byte stores to a third buffer (an old dirty buffer the app wrote), the read.
// Found on the H200 (l2_pushout_probe_h200.csv): no read deficit anywhere (neither the memset's lines
// nor the residue sit in the app's buffers); reads of <= 20 MiB push none of the residue out, 28 / 32 /
// 36 / 40 / 48 MiB 0.18 / 0.54 / 1.29 / 1.84 / 2.34 MB of it, and the app's own 2.25 MiB as much
// (0.12 / 0.69 / 1.26 / 1.94 / 2.54): the residue behaves as an old dirty buffer.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("err %s line %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)

static const size_t MIB = 1u << 20;
static const size_t BUF = 64 * MIB;

__global__ void rd(const uint32_t* x, unsigned* sink) {
  const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t v = x[i];
  if (v == 0) sink[threadIdx.x] = v;
}
__global__ void cp(const uint32_t* in, uint32_t* out) {
  const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}
__global__ void seeder(int4* s, size_t n) {
  const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) s[i] = make_int4((int)i | 1, 1, 2, 3);
}
__global__ void st(uint32_t* out) {
  const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = (uint32_t)i | 1u;
}

static unsigned blocks(double mib) { return (unsigned)(mib * MIB / 4 / 256); }

int main(int argc, char** argv) {
  if (argc < 2) { printf("usage: l2pushout first <headA|tailA|headB|tailB> | seq\n"); return 1; }
  unsigned* sink;
  uint32_t *a, *b;
  int4* c;
  CK(cudaMalloc(&sink, 4096));
  CK(cudaMalloc(&c, 8 * MIB));
  CK(cudaMalloc(&a, BUF));
  CK(cudaMalloc(&b, BUF));
  CK(cudaMemset(sink, 0, 4096));
  CK(cudaMemset(a, 1, BUF));
  CK(cudaMemset(b, 1, BUF));
  CK(cudaDeviceSynchronize());
  const size_t tail = (BUF - 4 * MIB) / 4;
  if (strcmp(argv[1], "first") == 0 && argc > 2) {
    const char* v = argv[2];
    const uint32_t* x = v[4] == 'A' ? a : b;
    rd<<<blocks(4), 256>>>(x + (strncmp(v, "tail", 4) == 0 ? tail : 0), sink);
    rd<<<blocks(4), 256>>>(b + tail, sink);
    rd<<<blocks(4), 256>>>(b + tail, sink);
  } else if (strcmp(argv[1], "seed") == 0) {
    const double sizes[] = {16, 24, 28, 32, 36, 40, 48};
    for (double s : sizes) {
      rd<<<blocks(64), 256>>>(a, sink);
      rd<<<blocks(64), 256>>>(b, sink);
      seeder<<<(unsigned)(2.25 * MIB / 16 / 256), 256>>>(c, 2.25 * MIB / 16);
      rd<<<blocks(s), 256>>>(a, sink);
    }
  } else {
    // where: the residue of the replay (the first kernel also meets the memset's: a throw-away)
    rd<<<blocks(4), 256>>>(b + tail, sink);
    rd<<<blocks(4), 256>>>(a + tail, sink);
    rd<<<blocks(4), 256>>>(a, sink);
    rd<<<blocks(4), 256>>>(b + tail, sink);
    rd<<<blocks(4), 256>>>(b, sink);
    // how much of it a read-only kernel of each size pushes out
    const double sizes[] = {8, 16, 20, 24, 28, 32, 36, 40, 48, 64};
    for (double s : sizes) rd<<<blocks(s), 256>>>(a, sink);
    // copies (in + out of the size each) and stores
    const double copies[] = {8, 12, 14, 16, 18, 20, 24};
    for (double s : copies) cp<<<blocks(s), 256>>>(a, b);
    const double stores[] = {16, 24, 32, 40};
    for (double s : stores) st<<<blocks(s), 256>>>(b);
  }
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
