// NVSHMEM microbenchmarks on 2 PEs (one per GPU, NVLink P2P transport), issue #43 item 8.
// Run as two processes (run_probes.sh starts them with PE_RANK=0/1, PE_SIZE=2). PE 0 prints CSV lines
//   test,variant,ctas,threads,bytes,iters,rep,value,unit
// for every repetition; a later summary (summarize.py) takes the median and spread. Times are measured
// with %globaltimer inside the kernel (latency loops) or CUDA events around a launch (bandwidth) or a
// host clock after a stream sync (host/on-stream ops). See RESULTS.md for what each test does.
#include "nvsh_common.h"
#include <chrono>

static int g_me = 0, g_npes = 1;
static const int REPS = 7;

static void row(const char* test, const char* var, int ctas, int thr, size_t bytes, long iters, int rep,
                double v, const char* unit) {
  if (g_me == 0)
    printf("%s,%s,%d,%d,%zu,%ld,%d,%.4f,%s\n", test, var, ctas, thr, bytes, iters, rep, v, unit);
}

// ---------------------------------------------------------------- latency kernels (1 thread each)
// ping-pong with nvshmem_int_p + nvshmem_int_wait_until; out[0] = ns for `iters` round trips (PE 0)
__global__ void k_pingpong_int(int* pp, int iters, int base, int me, int peer, unsigned long long* out) {
  unsigned long long t0 = gtimer();
  for (int i = base + 1; i <= base + iters; ++i) {
    if (me == 0) {
      nvshmem_int_p(pp, i, peer);
      nvshmem_int_wait_until(pp, NVSHMEM_CMP_EQ, i);
    } else {
      nvshmem_int_wait_until(pp, NVSHMEM_CMP_EQ, i);
      nvshmem_int_p(pp, i, peer);
    }
  }
  out[0] = gtimer() - t0;
}
// the same with nvshmem_float_p; the receiver spins on a volatile load (there is no float wait_until)
__global__ void k_pingpong_float(float* pp, int iters, int base, int me, int peer, unsigned long long* out) {
  volatile float* v = pp;
  unsigned long long t0 = gtimer();
  for (int i = base + 1; i <= base + iters; ++i) {
    float f = (float)i;
    if (me == 0) {
      nvshmem_float_p(pp, f, peer);
      while (*v != f) {}
    } else {
      while (*v != f) {}
      nvshmem_float_p(pp, f, peer);
    }
  }
  out[0] = gtimer() - t0;
}
// what int_wait_until adds to a volatile spin (pingfence group): mode 0 int_p + a volatile spin; 1 the
// same + __threadfence() after each wait (nvshmemi_transfer_syncapi_update_mem's body on P2P);
// 2 + __threadfence_system(); 3 float_p + a volatile spin + __threadfence()
__global__ void k_pingpong_fence(int* pp, int iters, int base, int me, int peer, int mode, unsigned long long* out) {
  volatile int* v = pp;
  volatile float* vf = (float*)pp;
  unsigned long long t0 = gtimer();
  for (int i = base + 1; i <= base + iters; ++i) {
    for (int side = 0; side < 2; ++side) {
      if ((side == 0) == (me == 0)) {
        if (mode == 3) nvshmem_float_p((float*)pp, (float)i, peer); else nvshmem_int_p(pp, i, peer);
      } else {
        if (mode == 3) { while (*vf != (float)i) {} } else { while (*v != i) {} }
        if (mode == 1 || mode == 3) __threadfence();
        if (mode == 2) __threadfence_system();
      }
    }
  }
  out[0] = gtimer() - t0;
}
// ping-pong with nvshmemx_signal_op(SET) + nvshmem_signal_wait_until(GE)
__global__ void k_pingpong_signal(uint64_t* sig, int iters, int base, int me, int peer, unsigned long long* out) {
  unsigned long long t0 = gtimer();
  for (uint64_t i = base + 1; i <= (uint64_t)base + iters; ++i) {
    if (me == 0) {
      nvshmemx_signal_op(sig, i, NVSHMEM_SIGNAL_SET, peer);
      nvshmem_signal_wait_until(sig, NVSHMEM_CMP_GE, i);
    } else {
      nvshmem_signal_wait_until(sig, NVSHMEM_CMP_GE, i);
      nvshmemx_signal_op(sig, i, NVSHMEM_SIGNAL_SET, peer);
    }
  }
  out[0] = gtimer() - t0;
}
// one PE alone: mode 0 = int_p then quiet; 1 = quiet with nothing outstanding; 2 = dependent int_g chain;
// 3 = int_p alone (issue rate); 4 = fence with nothing outstanding; 5 = atomic fetch_add round trip
__global__ void k_solo(int* buf, int iters, int peer, int mode, unsigned long long* out, int* sink) {
  int v = 0;
  unsigned long long t0 = gtimer();
  for (int i = 0; i < iters; ++i) {
    switch (mode) {
      case 0: nvshmem_int_p(buf + 2048, i, peer); nvshmem_quiet(); break;
      case 1: nvshmem_quiet(); break;
      // buf[4096..] stay 0 on the peer (nothing writes them): each load's address waits for the last load
      case 2: v = nvshmem_int_g(buf + 4096 + v, peer); break;
      case 3: nvshmem_int_p(buf + 2048 + (i & 1023), i, peer); break;
      case 4: nvshmem_fence(); break;
      case 5: v += nvshmem_int_atomic_fetch_add(buf + 32, 1, peer); break;
    }
  }
  if (mode == 3) nvshmem_quiet();
  out[0] = gtimer() - t0;
  sink[0] = v;
}
// dependent nvshmem_int_g chain over distinct 128-byte lines of `pe`'s buffer (chase[i] = next index), so no
// load can hit a cache: the latency of a remote (or, with pe = me, local DRAM) g
__global__ void k_gchase(int* chase, int start, int iters, int pe, unsigned long long* out, int* sink) {
  int v = start;
  unsigned long long t0 = gtimer();
  for (int i = 0; i < iters; ++i) v = nvshmem_int_g(chase + v, pe);
  out[0] = gtimer() - t0;
  sink[0] = v;
}
__global__ void k_chase_init(int* chase, int lines) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < lines; i += gridDim.x * blockDim.x) chase[i * 32] = ((i + 1) % lines) * 32;
}

// device-side barrier_all (needs a collective launch); one thread per PE
__global__ void k_dev_barrier(int iters, unsigned long long* out) {
  unsigned long long t0 = gtimer();
  for (int i = 0; i < iters; ++i) nvshmem_barrier_all();
  out[0] = gtimer() - t0;
}

// ---------------------------------------------------------------- bandwidth kernels (PE 0 -> PE 1)
// mode 0: every active thread does a blocking nvshmem_putmem of its chunk then nvshmem_quiet;
// mode 1: every active warp nvshmemx_putmem_nbi_warp, then __syncwarp + lane 0 nvshmem_quiet;
// mode 2: every active CTA nvshmemx_putmem_nbi_block, then __syncthreads + thread 0 nvshmem_quiet.
// `units` active threads/warps/CTAs share `bytes` evenly; with 1, 8 or 32 CTAs every count is a power of
// two and each chunk a multiple of 16 B; with 132 CTAs (one per SM) chunks are bytes/units rounded down,
// misaligned, and the remainder is not sent: those rows measure misalignment (see summarize.py).
__global__ void k_bw(char* dst, const char* src, size_t bytes, int peer, int iters, int mode, int units) {
  int unit;
  if (mode == 0) unit = blockIdx.x * blockDim.x + threadIdx.x;
  else if (mode == 1) unit = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  else unit = blockIdx.x;
  if (unit >= units) return;  // whole warps/CTAs leave together, so the cooperative calls stay complete
  size_t chunk = bytes / units;
  char* d = dst + (size_t)unit * chunk;
  const char* s = src + (size_t)unit * chunk;
  for (int it = 0; it < iters; ++it) {
    if (mode == 0) {
      nvshmem_putmem(d, s, chunk, peer);
      nvshmem_quiet();
    } else if (mode == 1) {
      nvshmemx_putmem_nbi_warp(d, s, chunk, peer);
      __syncwarp();
      if ((threadIdx.x & 31) == 0) nvshmem_quiet();
      __syncwarp();
    } else {
      nvshmemx_putmem_nbi_block(d, s, chunk, peer);
      __syncthreads();
      if (threadIdx.x == 0) nvshmem_quiet();
      __syncthreads();
    }
  }
}

static double time_bw_launch(char* dst, const char* src, size_t bytes, int iters, int mode, int ctas, int thr,
                             int units, cudaStream_t st, cudaEvent_t e0, cudaEvent_t e1) {
  CK(cudaEventRecord(e0, st));
  k_bw<<<ctas, thr, 0, st>>>(dst, src, bytes, 1, iters, mode, units);
  CKL();
  CK(cudaEventRecord(e1, st));
  CK(cudaEventSynchronize(e1));
  float ms = 0;
  CK(cudaEventElapsedTime(&ms, e0, e1));
  return ms * 1e6;  // ns
}

static unsigned long long* g_out;
static int* g_sink;

static double run_solo(int* buf, int iters, int mode, cudaStream_t st) {
  k_solo<<<1, 1, 0, st>>>(buf, iters, 1, mode, g_out, g_sink);
  CKL();
  CK(cudaStreamSynchronize(st));
  unsigned long long ns;
  CK(cudaMemcpy(&ns, g_out, 8, cudaMemcpyDeviceToHost));
  return (double)ns / iters;
}

int main(int argc, char** argv) {
  setenv("NVSHMEM_DISABLE_NVLS", "1", 1);  // never NVLink multicast on the lent machines
  g_me = nvsh_init_uid();
  g_npes = nvshmem_n_pes();
  if (g_npes != 2) { fprintf(stderr, "needs exactly 2 PEs, got %d\n", g_npes); return 2; }
  const int peer = 1 - g_me;
  std::string only = argc > 1 ? argv[1] : "all";
  auto want = [&](const char* t) { return only == "all" || only.find(t) != std::string::npos; };
  int dev;
  CK(cudaGetDevice(&dev));
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, dev));
  if (g_me == 0) printf("# pe %d of %d on device %d (%s, %d SMs)\n", g_me, g_npes, dev, prop.name, prop.multiProcessorCount);
  fflush(stdout);

  const size_t MAXB = 16u << 20;
  char* src = (char*)nvshmem_malloc(MAXB);
  char* dst = (char*)nvshmem_malloc(MAXB);
  int* ibuf = (int*)nvshmem_malloc(1 << 16);
  float* fbuf = (float*)nvshmem_malloc(256);
  uint64_t* sig = (uint64_t*)nvshmem_malloc(256);
  if (!src || !dst || !ibuf || !fbuf || !sig) { fprintf(stderr, "nvshmem_malloc failed\n"); return 2; }
  CK(cudaMemset(src, 0x5a, MAXB));
  CK(cudaMemset(dst, 0, MAXB));
  CK(cudaMemset(ibuf, 0, 1 << 16));
  CK(cudaMemset(fbuf, 0, 256));
  CK(cudaMemset(sig, 0, 256));
  CK(cudaMalloc(&g_out, 64));
  CK(cudaMalloc(&g_sink, 64));
  CK(cudaDeviceSynchronize());
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  nvshmem_barrier_all();
  if (g_me == 0) printf("test,variant,ctas,threads,bytes,iters,rep,value,unit\n");

  // ---- 1. ping-pong latencies (both PEs run the kernel, launched collectively since it waits)
  if (want("pingpong")) {
    const int iters = 2000;
    int base = 0;
    for (int kind = 0; kind < 3; ++kind) {
      for (int rep = -1; rep < REPS; ++rep) {  // rep -1 is a warm-up
        int it = iters, b = base, me = g_me, pr = peer;
        void* args_i[] = {&ibuf, &it, &b, &me, &pr, &g_out};
        void* args_f[] = {&fbuf, &it, &b, &me, &pr, &g_out};
        void* args_s[] = {&sig, &it, &b, &me, &pr, &g_out};
        const void* fn = kind == 0 ? (const void*)k_pingpong_int : kind == 1 ? (const void*)k_pingpong_float
                                                                             : (const void*)k_pingpong_signal;
        int rc = nvshmemx_collective_launch(fn, 1, 1, kind == 0 ? args_i : kind == 1 ? args_f : args_s, 0, st);
        if (rc != 0) { fprintf(stderr, "collective launch failed %d\n", rc); return 2; }
        CK(cudaStreamSynchronize(st));
        base += iters;
        unsigned long long ns;
        CK(cudaMemcpy(&ns, g_out, 8, cudaMemcpyDeviceToHost));
        const char* name = kind == 0 ? "int_p" : kind == 1 ? "float_p" : "signal_op";
        if (rep >= 0) row("pingpong_rtt", name, 1, 1, kind == 2 ? 8 : 4, iters, rep, (double)ns / iters, "ns");
        nvshmem_barrier_all();
      }
    }
  }

  // ---- 1b. what the wait's fence costs in a round trip (k_pingpong_fence)
  if (want("pingfence")) {
    const int iters = 2000;
    int base = 0;
    const char* names[] = {"int_p+spin", "int_p+spin+threadfence", "int_p+spin+threadfence_system", "float_p+spin+threadfence"};
    for (int mode = 0; mode < 4; ++mode) {
      for (int rep = -1; rep < REPS; ++rep) {
        int it = iters, b = base, me = g_me, pr = peer, md = mode;
        // a float's bits for i: the buffer restarts from 0 for the float mode
        if (mode == 3 && rep == -1) { CK(cudaMemset(ibuf, 0, 8)); nvshmem_barrier_all(); base = 0; b = 0; }
        void* args[] = {&ibuf, &it, &b, &me, &pr, &md, &g_out};
        int rc = nvshmemx_collective_launch((const void*)k_pingpong_fence, 1, 1, args, 0, st);
        if (rc != 0) { fprintf(stderr, "collective launch failed %d\n", rc); return 2; }
        CK(cudaStreamSynchronize(st));
        base += iters;
        unsigned long long ns;
        CK(cudaMemcpy(&ns, g_out, 8, cudaMemcpyDeviceToHost));
        if (rep >= 0) row("pingpong_rtt", names[mode], 1, 1, 4, iters, rep, (double)ns / iters, "ns");
        nvshmem_barrier_all();
      }
    }
  }

  // ---- 2. one PE alone: p+quiet, quiet, g chain, p issue, fence, atomic fetch_add
  if (want("solo")) {
    const char* names[] = {"int_p+quiet", "quiet_empty", "int_g_chain", "int_p_issue", "fence_empty", "int_atomic_fetch_add"};
    for (int mode = 0; mode < 6; ++mode) {
      const int iters = mode == 1 || mode == 4 ? 20000 : mode == 3 ? 100000 : 5000;
      if (g_me == 0) {
        run_solo(ibuf, 100, mode, st);  // warm-up
        for (int rep = 0; rep < REPS; ++rep) row("solo", names[mode], 1, 1, 4, iters, rep, run_solo(ibuf, iters, mode, st), "ns/op");
      }
      nvshmem_barrier_all();
    }
  }

  // ---- 2b. g latency on lines not read before: remote (PE 1's memory) and local (own memory) for comparison
  if (want("gchase")) {
    const int lines = (8 << 20) / 128, iters = 5000;
    int* chase = (int*)nvshmem_malloc(8 << 20);
    k_chase_init<<<256, 256>>>(chase, lines);
    CKL();
    CK(cudaDeviceSynchronize());
    nvshmem_barrier_all();
    if (g_me == 0) {
      for (int rep = -1; rep < REPS; ++rep) {
        for (int self = 0; self < 2; ++self) {
          int start = ((rep + 1) * iters % lines) * 32;  // each rep walks lines no earlier rep touched
          k_gchase<<<1, 1, 0, st>>>(chase, start, iters, self ? g_me : peer, g_out, g_sink);
          CKL();
          CK(cudaStreamSynchronize(st));
          unsigned long long ns;
          CK(cudaMemcpy(&ns, g_out, 8, cudaMemcpyDeviceToHost));
          if (rep >= 0) row("solo", self ? "int_g_chase_new_lines(local)" : "int_g_chase_new_lines(remote)", 1, 1, 4, iters, rep, (double)ns / iters, "ns/op");
        }
      }
    }
    nvshmem_barrier_all();
    nvshmem_free(chase);
  }

  // ---- 3. put bandwidth by size: thread / warp / block granularity, 1 CTA and 32 CTAs; PE 0 -> PE 1
  if (want("putbw")) {
    const int thr = 1024;
    const char* names[] = {"putmem_thread", "putmem_nbi_warp", "putmem_nbi_block"};
    for (int mode = 0; mode < 3; ++mode) {
      for (int ctas : {1, 8, 32, 132}) {
        for (size_t bytes = 8; bytes <= MAXB; bytes *= (bytes >= (8u << 20) ? 2 : 4)) {
          if (g_me == 0) {
            int slots = mode == 0 ? ctas * thr : mode == 1 ? ctas * thr / 32 : ctas;
            int units = (int)std::min<size_t>(slots, bytes / 8);  // at least 8 bytes per active unit
            // calibrate: one iteration, then enough for ~2 ms per launch (3..4000 iterations)
            time_bw_launch(dst, src, bytes, 1, mode, ctas, thr, units, st, e0, e1);
            double one = time_bw_launch(dst, src, bytes, 4, mode, ctas, thr, units, st, e0, e1) / 4;
            int iters = (int)std::max(3.0, std::min(4000.0, 2e6 / std::max(one, 1.0)));
            for (int rep = 0; rep < REPS; ++rep) {
              double ns = time_bw_launch(dst, src, bytes, iters, mode, ctas, thr, units, st, e0, e1);
              row("putbw", names[mode], ctas, thr, bytes, iters, rep, ns / iters, "ns/iter");
            }
          }
        }
        nvshmem_barrier_all();
      }
    }
    // putmem_on_stream (copy-engine path for P2P), host loop of `iters` calls, timed by events
    if (g_me == 0) {
      for (size_t bytes = 8; bytes <= MAXB; bytes *= (bytes >= (8u << 20) ? 2 : 4)) {
        nvshmemx_putmem_on_stream(dst, src, bytes, 1, st);
        CK(cudaStreamSynchronize(st));
        CK(cudaEventRecord(e0, st));
        for (int i = 0; i < 4; ++i) nvshmemx_putmem_on_stream(dst, src, bytes, 1, st);
        CK(cudaEventRecord(e1, st));
        CK(cudaEventSynchronize(e1));
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        int iters = (int)std::max(3.0, std::min(2000.0, 2e6 / std::max(ms * 1e6 / 4, 1.0)));
        for (int rep = 0; rep < REPS; ++rep) {
          CK(cudaEventRecord(e0, st));
          for (int i = 0; i < iters; ++i) nvshmemx_putmem_on_stream(dst, src, bytes, 1, st);
          CK(cudaEventRecord(e1, st));
          CK(cudaEventSynchronize(e1));
          CK(cudaEventElapsedTime(&ms, e0, e1));
          row("putbw", "putmem_on_stream", 0, 0, bytes, iters, rep, ms * 1e6 / iters, "ns/iter");
        }
      }
    }
    nvshmem_barrier_all();
    // verify the last put landed on PE 1 (first and last byte of the buffer)
    if (g_me == 1) {
      unsigned char a = 0, b = 0;
      CK(cudaMemcpy(&a, dst, 1, cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(&b, dst + MAXB - 1, 1, cudaMemcpyDeviceToHost));
      fprintf(stderr, "# PE1 check: dst[0]=0x%02x dst[last]=0x%02x (want 0x5a)\n", a, b);
    }
    nvshmem_barrier_all();
  }

  // ---- 4. barriers and on-stream sync ops (both PEs), quiet_on_stream, on-stream signal round trip
  if (want("sync")) {
    const int iters = 1000;
    auto host_ns = [&](auto&& body, int n) {
      CK(cudaStreamSynchronize(st));
      nvshmem_barrier_all();
      auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < n; ++i) body(i);
      CK(cudaStreamSynchronize(st));
      auto t1 = std::chrono::steady_clock::now();
      return std::chrono::duration<double, std::nano>(t1 - t0).count() / n;
    };
    auto ev_ns = [&](auto&& body, int n) {
      CK(cudaStreamSynchronize(st));
      nvshmem_barrier_all();
      CK(cudaEventRecord(e0, st));
      for (int i = 0; i < n; ++i) body(i);
      CK(cudaEventRecord(e1, st));
      CK(cudaEventSynchronize(e1));
      float ms;
      CK(cudaEventElapsedTime(&ms, e0, e1));
      return ms * 1e6 / n;
    };
    for (int rep = -1; rep < REPS; ++rep) {
      double a = ev_ns([&](int) { nvshmemx_barrier_all_on_stream(st); }, iters);
      double a2 = host_ns([&](int) { nvshmemx_barrier_all_on_stream(st); }, iters);
      double b = ev_ns([&](int) { nvshmemx_sync_all_on_stream(st); }, iters);
      double c = host_ns([&](int) { nvshmem_barrier_all(); }, iters);
      double c2 = host_ns([&](int) { nvshmem_sync_all(); }, iters);
      double d = ev_ns([&](int) { nvshmemx_quiet_on_stream(st); }, iters);
      // on-stream signal ping-pong: PE 0 signals then waits, PE 1 waits then signals (values rise per rep)
      static uint64_t sbase = 0;
      double e = ev_ns([&](int i) {
        uint64_t v = sbase + i + 1;
        if (g_me == 0) {
          nvshmemx_signal_op_on_stream(sig + 8, v, NVSHMEM_SIGNAL_SET, peer, st);
          nvshmemx_signal_wait_until_on_stream(sig + 8, NVSHMEM_CMP_GE, v, st);
        } else {
          nvshmemx_signal_wait_until_on_stream(sig + 8, NVSHMEM_CMP_GE, v, st);
          nvshmemx_signal_op_on_stream(sig + 8, v, NVSHMEM_SIGNAL_SET, peer, st);
        }
      }, 200);
      sbase += 200;
      // host time per call of on-stream operations (submit only: the loop is timed before the sync)
      auto submit_ns = [&](auto&& body, int n) {
        CK(cudaStreamSynchronize(st));
        nvshmem_barrier_all();
        auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < n; ++i) body(i);
        auto t1 = std::chrono::steady_clock::now();
        CK(cudaStreamSynchronize(st));
        return std::chrono::duration<double, std::nano>(t1 - t0).count() / n;
      };
      double h1 = submit_ns([&](int) { nvshmemx_barrier_all_on_stream(st); }, 200);
      double h2 = submit_ns([&](int) { nvshmemx_putmem_on_stream(dst, src, 8, peer, st); }, 200);
      double h3 = submit_ns([&](int) { nvshmemx_quiet_on_stream(st); }, 200);
      // kernel + barrier_all_on_stream: the per-iteration skeleton of the Jacobi (empty kernel)
      double f = ev_ns([&](int) { k_solo<<<1, 1, 0, st>>>(ibuf, 0, peer, 1, g_out, g_sink); nvshmemx_barrier_all_on_stream(st); }, iters);
      double f0 = ev_ns([&](int) { k_solo<<<1, 1, 0, st>>>(ibuf, 0, peer, 1, g_out, g_sink); }, iters);
      // device barrier_all in a collectively launched 1-thread kernel
      int di = 2000;
      void* dargs[] = {&di, &g_out};
      CK(cudaStreamSynchronize(st));
      nvshmem_barrier_all();
      if (nvshmemx_collective_launch((const void*)k_dev_barrier, 1, 1, dargs, 0, st) != 0) { fprintf(stderr, "collective launch failed\n"); return 2; }
      CK(cudaStreamSynchronize(st));
      unsigned long long dns;
      CK(cudaMemcpy(&dns, g_out, 8, cudaMemcpyDeviceToHost));
      if (rep < 0) continue;
      row("sync", "barrier_all_on_stream(events)", 0, 0, 0, iters, rep, a, "ns/op");
      row("sync", "barrier_all_on_stream(host)", 0, 0, 0, iters, rep, a2, "ns/op");
      row("sync", "sync_all_on_stream(events)", 0, 0, 0, iters, rep, b, "ns/op");
      row("sync", "barrier_all(host)", 0, 0, 0, iters, rep, c, "ns/op");
      row("sync", "sync_all(host)", 0, 0, 0, iters, rep, c2, "ns/op");
      row("sync", "quiet_on_stream(events)", 0, 0, 0, iters, rep, d, "ns/op");
      row("sync", "signal_on_stream_rtt(events)", 0, 0, 8, 200, rep, e, "ns/rtt");
      row("sync", "empty_kernel+barrier_all_on_stream(events)", 0, 0, 0, iters, rep, f, "ns/iter");
      row("sync", "empty_kernel(events)", 0, 0, 0, iters, rep, f0, "ns/iter");
      row("sync", "host_submit:barrier_all_on_stream", 0, 0, 0, 200, rep, h1, "ns/call");
      row("sync", "host_submit:putmem_on_stream(8B)", 0, 0, 8, 200, rep, h2, "ns/call");
      row("sync", "host_submit:quiet_on_stream", 0, 0, 0, 200, rep, h3, "ns/call");
      row("sync", "device_barrier_all(1 thread)", 1, 1, 0, di, rep, (double)dns / di, "ns/op");
    }
  }
  // ---- 6. the host-initiated Jacobi's per-iteration skeleton, piece by piece (events, ns per iteration;
  // empty kernel; 8 KB puts as its halo rows of 2048 floats; host: the host's own time per iteration)
  if (want("hostseq")) {
    const int iters = 1000;
    const size_t hb = 8 << 10;
    auto ev_ns = [&](auto&& body, int n) {
      CK(cudaStreamSynchronize(st));
      nvshmem_barrier_all();
      CK(cudaEventRecord(e0, st));
      for (int i = 0; i < n; ++i) body(i);
      CK(cudaEventRecord(e1, st));
      CK(cudaEventSynchronize(e1));
      float ms;
      CK(cudaEventElapsedTime(&ms, e0, e1));
      return ms * 1e6 / n;
    };
    auto kern = [&]() { k_solo<<<1, 1, 0, st>>>(ibuf, 0, peer, 1, g_out, g_sink); };
    auto put = [&]() { nvshmemx_putmem_on_stream(dst, src, hb, peer, st); };
    for (int rep = -1; rep < REPS; ++rep) {
      double a = ev_ns([&](int) { kern(); put(); nvshmemx_barrier_all_on_stream(st); }, iters);
      double b = ev_ns([&](int) { kern(); put(); put(); nvshmemx_barrier_all_on_stream(st); }, iters);
      double c = ev_ns([&](int) { put(); put(); nvshmemx_barrier_all_on_stream(st); }, iters);
      double d = ev_ns([&](int) { kern(); nvshmemx_barrier_all_on_stream(st); }, iters);
      double e = ev_ns([&](int) { kern(); put(); }, iters);
      double f = ev_ns([&](int) { put(); }, iters);
      if (rep < 0) continue;
      row("hostseq", "kernel+put8K+barrier", 0, 0, hb, iters, rep, a, "ns/iter");
      row("hostseq", "kernel+2put8K+barrier", 0, 0, hb, iters, rep, b, "ns/iter");
      row("hostseq", "2put8K+barrier", 0, 0, hb, iters, rep, c, "ns/iter");
      row("hostseq", "kernel+barrier", 0, 0, 0, iters, rep, d, "ns/iter");
      row("hostseq", "kernel+put8K", 0, 0, hb, iters, rep, e, "ns/iter");
      row("hostseq", "put8K", 0, 0, hb, iters, rep, f, "ns/iter");
    }
  }
  fflush(stdout);
  nvshmem_barrier_all();
  nvshmem_free(src);
  nvshmem_free(dst);
  nvshmem_free(ibuf);
  nvshmem_free(fbuf);
  nvshmem_free(sig);
  nvshmem_finalize();
  return 0;
}
