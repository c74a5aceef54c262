// runtime_probe.cu: CUDA runtime costs (host API, launch gaps, graphs, copies, concurrency, hardware
// queues) for Warpsight's discrete-event runtime model. Build: nvcc -O3 -arch=sm_90 -o runtime_probe runtime_probe.cu
// Usage: ./runtime_probe [all|fdep]   (fdep = only the false-dependency family, run once per
// CUDA_DEVICE_MAX_CONNECTIONS setting by run_runtime_probe.sh).
// Output lines: `RT <name> median=.. min=.. max=.. values=..` (units in the name), `RTINFO ...`, `RTRAW ...`.
// Style follows shared/groundtruth/cuda/micro.cu family 9: median of 9 reps, series printed.
#include <cuda_runtime.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

struct CudaErr {
  std::string what;
};
#define CK(x)                                                                                           \
  do {                                                                                                  \
    cudaError_t e_ = (x);                                                                               \
    if (e_ != cudaSuccess) throw CudaErr{std::string(#x) + " -> " + cudaGetErrorString(e_)};            \
  } while (0)
#define CKL() CK(cudaGetLastError())

static int g_fail = 0;
static const int REPS = 9;
static double g_cyc_per_us = 1980.0;  // recalibrated at start
static int g_sms = 132;

static void guarded(const char* name, const std::function<void()>& f) {
  try {
    f();
  } catch (CudaErr& e) {
    ++g_fail;
    printf("RT %s ERROR %s\n", name, e.what.c_str());
    cudaGetLastError();
    cudaDeviceSynchronize();
    cudaGetLastError();
  }
  fflush(stdout);
}

static double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
static double mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return v.empty() ? 0 : s / v.size();
}
static double now_us() {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
static unsigned long long real_ns() {
  return (unsigned long long)std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}
static void series(const std::string& what, const std::vector<double>& v) {
  if (v.empty()) {
    printf("RT %s ERROR empty\n", what.c_str());
    return;
  }
  printf("RT %s median=%.3f min=%.3f max=%.3f values=", what.c_str(), median(v),
         *std::min_element(v.begin(), v.end()), *std::max_element(v.begin(), v.end()));
  for (size_t q = 0; q < v.size(); ++q) printf("%s%.3f", q ? "," : "", v[q]);
  printf("\n");
  fflush(stdout);
}
static float ev_us(cudaEvent_t a, cudaEvent_t b) {
  float ms;
  CK(cudaEventElapsedTime(&ms, a, b));
  return ms * 1000.0f;
}

// ------------------------------------------------------------------------------------------------
// kernels
// ------------------------------------------------------------------------------------------------
__device__ __forceinline__ unsigned long long gtime() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__device__ __forceinline__ unsigned smid() {
  unsigned s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}
__global__ void tiny_kernel(int* p) {
  if (threadIdx.x == 0) p[blockIdx.x] += 1;
}
__global__ void empty_kernel() {}
// thread 0 of each block stores globaltimer at start/end into ts[2*idx], ts[2*idx+1]
__global__ void spin_kernel(long long cycles, unsigned long long* ts, int idx) {
  unsigned long long t0 = gtime();
  long long c0 = clock64();
  if (cycles > 0)
    while (clock64() - c0 < cycles) {
    }
  if (threadIdx.x == 0 && ts) {
    ts[2 * idx] = t0;
    ts[2 * idx + 1] = gtime();
  }
}
// 1 block; waits (thread 0 polls) until *gate != 0, then records start, spins, records end
__global__ void gated_spin_kernel(long long cycles, unsigned long long* ts, int idx, volatile int* gate) {
  if (threadIdx.x == 0)
    while (*gate == 0) {
    }
  __syncthreads();
  unsigned long long t0 = gtime();
  long long c0 = clock64();
  while (clock64() - c0 < cycles) {
  }
  if (threadIdx.x == 0) {
    ts[2 * idx] = t0;
    ts[2 * idx + 1] = gtime();
  }
}
// every thread spins; thread 0 records per-block start/end/smid; big dynamic smem forces 1 block/SM
__global__ void block_spin_kernel(long long cycles, unsigned long long* ts, unsigned* sm) {
  extern __shared__ char smem[];
  unsigned long long t0 = gtime();
  long long c0 = clock64();
  while (clock64() - c0 < cycles) {
  }
  if (threadIdx.x == 0) {
    smem[0] = 1;
    ts[2 * blockIdx.x] = t0;
    ts[2 * blockIdx.x + 1] = gtime();
    sm[blockIdx.x] = smid() + smem[0] - 1;
  }
}
__global__ void gt_res_kernel(unsigned long long* out) {
  unsigned long long prev = gtime(), first = prev, mind = ~0ull;
  unsigned long long changes = 0;
  for (int i = 0; i < 200000; i++) {
    unsigned long long t = gtime();
    if (t != prev) {
      if (t - prev < mind) mind = t - prev;
      changes++;
      prev = t;
    }
  }
  out[0] = mind;
  out[1] = changes;
  out[2] = prev - first;
}

static long long cyc(double us) { return (long long)(us * g_cyc_per_us); }

// ------------------------------------------------------------------------------------------------
// 6 (first): device properties, globaltimer, clock calibration
// ------------------------------------------------------------------------------------------------
static void device_props() {
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  g_sms = p.multiProcessorCount;
  int drv = 0, rt = 0;
  CK(cudaDriverGetVersion(&drv));
  CK(cudaRuntimeGetVersion(&rt));
  printf("RTINFO device name=\"%s\" cc=%d.%d sms=%d driver=%d runtime=%d pciBus=%04x:%02x:%02x\n", p.name, p.major,
         p.minor, p.multiProcessorCount, drv, rt, p.pciDomainID, p.pciBusID, p.pciDeviceID);
  struct A {
    const char* n;
    cudaDeviceAttr a;
  } attrs[] = {
      {"asyncEngineCount", cudaDevAttrAsyncEngineCount},
      {"concurrentKernels", cudaDevAttrConcurrentKernels},
      {"gpuOverlap", cudaDevAttrGpuOverlap},
      {"canMapHostMemory", cudaDevAttrCanMapHostMemory},
      {"memoryPoolsSupported", cudaDevAttrMemoryPoolsSupported},
      {"unifiedAddressing", cudaDevAttrUnifiedAddressing},
      {"integrated", cudaDevAttrIntegrated},
      {"clockRate_kHz", cudaDevAttrClockRate},
      {"memoryClockRate_kHz", cudaDevAttrMemoryClockRate},
      {"globalMemoryBusWidth", cudaDevAttrGlobalMemoryBusWidth},
      {"l2CacheSize", cudaDevAttrL2CacheSize},
      {"maxThreadsPerSM", cudaDevAttrMaxThreadsPerMultiProcessor},
      {"maxBlocksPerSM", cudaDevAttrMaxBlocksPerMultiprocessor},
      {"maxSharedMemPerSM", cudaDevAttrMaxSharedMemoryPerMultiprocessor},
      {"maxSharedMemPerBlockOptin", cudaDevAttrMaxSharedMemoryPerBlockOptin},
      {"computePreemptionSupported", cudaDevAttrComputePreemptionSupported},
      {"pageableMemoryAccess", cudaDevAttrPageableMemoryAccess},
      {"concurrentManagedAccess", cudaDevAttrConcurrentManagedAccess},
      {"hostRegisterSupported", cudaDevAttrHostRegisterSupported},
      {"directManagedMemAccessFromHost", cudaDevAttrDirectManagedMemAccessFromHost},
      {"memPoolSupportedHandleTypes", cudaDevAttrMemoryPoolSupportedHandleTypes},
      {"gpuDirectRDMASupported", cudaDevAttrGPUDirectRDMASupported},
  };
  printf("RTINFO attrs");
  for (auto& a : attrs) {
    int v = -1;
    cudaError_t e = cudaDeviceGetAttribute(&v, a.a, 0);
    if (e != cudaSuccess) {
      cudaGetLastError();
      printf(" %s=ERR", a.n);
    } else
      printf(" %s=%d", a.n, v);
  }
  int lo = 0, hi = 0;
  if (cudaDeviceGetStreamPriorityRange(&lo, &hi) == cudaSuccess) printf(" streamPriority=[%d,%d]", lo, hi);
  printf("\n");
  const char* mc = getenv("CUDA_DEVICE_MAX_CONNECTIONS");
  unsigned flags = 0;
  cudaGetDeviceFlags(&flags);
  printf("RTINFO env CUDA_DEVICE_MAX_CONNECTIONS=%s deviceFlags=0x%x (schedule bits: 0=auto)\n", mc ? mc : "unset(8)",
         flags);
  fflush(stdout);
}

static void calibrate() {
  unsigned long long* d;
  CK(cudaMalloc(&d, 64 * sizeof(unsigned long long)));
  gt_res_kernel<<<1, 1>>>(d);
  CKL();
  unsigned long long h[3];
  CK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  printf("RTINFO globaltimer min_step_ns=%llu changes=%llu over_ns=%llu mean_step_ns=%.1f\n", h[0], h[1], h[2],
         h[1] ? (double)h[2] / h[1] : 0.0);
  // warm the clocks: ~20 ms of spinning on every SM
  spin_kernel<<<g_sms, 32>>>(40000000LL, nullptr, 0);
  CKL();
  CK(cudaDeviceSynchronize());
  std::vector<double> r;
  for (int k = 0; k < 5; ++k) {
    const long long C = 4000000;
    spin_kernel<<<1, 32>>>(C, d, 0);
    CKL();
    CK(cudaMemcpy(h, d, 2 * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    r.push_back(C / ((h[1] - h[0]) / 1000.0));
  }
  g_cyc_per_us = median(r);
  series("calib_sm_clock_cycles_per_us", r);
  CK(cudaFree(d));
}

// ------------------------------------------------------------------------------------------------
// 1: host API costs
// ------------------------------------------------------------------------------------------------
static volatile double g_cb_time = 0;
static void CUDART_CB empty_host_fn(void*) {}
static void CUDART_CB stamp_host_fn(void*) { g_cb_time = now_us(); }

static void host_api() {
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  int* d;
  CK(cudaMalloc(&d, 4096));
  CK(cudaMemset(d, 0, 4096));
  cudaEvent_t e0, e1, en;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  CK(cudaEventCreateWithFlags(&en, cudaEventDisableTiming));
  void* args[] = {&d};
  for (int k = 0; k < 200; ++k) CK(cudaLaunchKernel((const void*)tiny_kernel, dim3(1), dim3(32), args, 0, s));
  CK(cudaStreamSynchronize(s));
  const int N = 1000;

  guarded("host_launch", [&] {
    std::vector<double> host, gpu;
    for (int r = 0; r < REPS; ++r) {
      CK(cudaEventRecord(e0, s));
      double t0 = now_us();
      for (int k = 0; k < N; ++k) CK(cudaLaunchKernel((const void*)tiny_kernel, dim3(1), dim3(32), args, 0, s));
      double t1 = now_us();
      CK(cudaEventRecord(e1, s));
      CK(cudaStreamSynchronize(s));
      host.push_back((t1 - t0) / N);
      gpu.push_back(ev_us(e0, e1) / N);
    }
    series("host_cudaLaunchKernel_tiny_us_per_call", host);
    series("host_cudaLaunchKernel_tiny_stream_gpu_us_per_kernel_hostbound", gpu);
  });
  guarded("host_eventrecord", [&] {
    std::vector<double> a, b;
    for (int r = 0; r < REPS; ++r) {
      double t0 = now_us();
      for (int k = 0; k < N; ++k) CK(cudaEventRecord(e0, s));
      double t1 = now_us();
      for (int k = 0; k < N; ++k) CK(cudaEventRecord(en, s));
      double t2 = now_us();
      CK(cudaStreamSynchronize(s));
      a.push_back((t1 - t0) / N);
      b.push_back((t2 - t1) / N);
    }
    series("host_cudaEventRecord_timing_us_per_call", a);
    series("host_cudaEventRecord_disabletiming_us_per_call", b);
  });
  guarded("host_streamsync_idle", [&] {
    std::vector<double> a;
    for (int r = 0; r < REPS; ++r) {
      double t0 = now_us();
      for (int k = 0; k < N; ++k) CK(cudaStreamSynchronize(s));
      a.push_back((now_us() - t0) / N);
    }
    series("host_cudaStreamSynchronize_idle_us_per_call", a);
  });
  guarded("host_eventquery_done", [&] {
    CK(cudaEventRecord(e0, s));
    CK(cudaStreamSynchronize(s));
    std::vector<double> a, b;
    for (int r = 0; r < REPS; ++r) {
      double t0 = now_us();
      for (int k = 0; k < N; ++k) CK(cudaEventQuery(e0));
      double t1 = now_us();
      for (int k = 0; k < N; ++k) CK(cudaEventSynchronize(e0));
      double t2 = now_us();
      a.push_back((t1 - t0) / N);
      b.push_back((t2 - t1) / N);
    }
    series("host_cudaEventQuery_completed_us_per_call", a);
    series("host_cudaEventSynchronize_completed_us_per_call", b);
  });
  guarded("host_malloc_free", [&] {
    const int M = 100;
    std::vector<void*> ptrs(M);
    for (int k = 0; k < M; ++k) CK(cudaMalloc(&ptrs[k], 1 << 20));  // warm-up
    for (int k = 0; k < M; ++k) CK(cudaFree(ptrs[k]));
    std::vector<double> a, b, c;
    for (int r = 0; r < REPS; ++r) {
      CK(cudaDeviceSynchronize());
      double t0 = now_us();
      for (int k = 0; k < M; ++k) CK(cudaMalloc(&ptrs[k], 1 << 20));
      double t1 = now_us();
      for (int k = 0; k < M; ++k) CK(cudaFree(ptrs[k]));
      double t2 = now_us();
      a.push_back((t1 - t0) / M);
      b.push_back((t2 - t1) / M);
      // malloc+free pairs
      double t3 = now_us();
      for (int k = 0; k < M; ++k) {
        CK(cudaMalloc(&ptrs[0], 1 << 20));
        CK(cudaFree(ptrs[0]));
      }
      c.push_back((now_us() - t3) / M);
    }
    series("host_cudaMalloc_1MiB_us_per_call", a);
    series("host_cudaFree_1MiB_idle_us_per_call", b);
    series("host_cudaMalloc_plus_cudaFree_1MiB_pair_us", c);
    // cudaFree while a kernel is running (does it wait for the device?)
    std::vector<double> w;
    for (int r = 0; r < REPS; ++r) {
      void* p;
      CK(cudaMalloc(&p, 1 << 20));
      spin_kernel<<<1, 32, 0, s>>>(cyc(200), nullptr, 0);
      CKL();
      double t0 = now_us();
      CK(cudaFree(p));
      w.push_back(now_us() - t0);
      CK(cudaStreamSynchronize(s));
    }
    series("host_cudaFree_1MiB_during_200us_kernel_us", w);
  });
  guarded("host_mallocasync", [&] {
    cudaMemPool_t pool;
    CK(cudaDeviceGetDefaultMemPool(&pool, 0));
    unsigned long long thr = 0;
    CK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &thr));
    printf("RTINFO default_mempool release_threshold=%llu\n", thr);
    for (int variant = 0; variant < 2; ++variant) {
      unsigned long long t = variant ? ~0ull : thr;
      CK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &t));
      for (int k = 0; k < 100; ++k) {
        void* p;
        CK(cudaMallocAsync(&p, 1 << 20, s));
        CK(cudaFreeAsync(p, s));
      }
      std::vector<double> a, first, gpu;
      for (int r = 0; r < REPS; ++r) {
        CK(cudaStreamSynchronize(s));
        // first pair right after a sync (pool may have been trimmed at the sync)
        double tf = now_us();
        void* p;
        CK(cudaMallocAsync(&p, 1 << 20, s));
        CK(cudaFreeAsync(p, s));
        first.push_back(now_us() - tf);
        CK(cudaEventRecord(e0, s));
        double t0 = now_us();
        for (int k = 0; k < N; ++k) {
          CK(cudaMallocAsync(&p, 1 << 20, s));
          CK(cudaFreeAsync(p, s));
        }
        a.push_back((now_us() - t0) / N);
        CK(cudaEventRecord(e1, s));
        CK(cudaStreamSynchronize(s));
        gpu.push_back(ev_us(e0, e1) / N);
      }
      std::string tag = variant ? "thrmax" : "thrdefault";
      series("host_cudaMallocAsync_plus_FreeAsync_1MiB_pair_warm_" + tag + "_us", a);
      series("host_cudaMallocAsync_plus_FreeAsync_1MiB_first_after_sync_" + tag + "_us", first);
      series("gpu_mallocasync_freeasync_pair_" + tag + "_us_per_pair", gpu);
    }
    CK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &thr));
  });
  guarded("host_memcpyasync_submit", [&] {
    char *h, *dd;
    CK(cudaMallocHost(&h, 4096));
    CK(cudaMalloc(&dd, 4096 * 1000));
    memset(h, 1, 4096);
    std::vector<double> a, gpu, ad, gpud;
    const int NC = 500;
    for (int r = 0; r < REPS + 1; ++r) {
      CK(cudaEventRecord(e0, s));
      double t0 = now_us();
      for (int k = 0; k < NC; ++k) CK(cudaMemcpyAsync(dd + 4096 * k, h, 4096, cudaMemcpyHostToDevice, s));
      double t1 = now_us();
      CK(cudaEventRecord(e1, s));
      CK(cudaStreamSynchronize(s));
      if (r) a.push_back((t1 - t0) / NC), gpu.push_back(ev_us(e0, e1) / NC);
      CK(cudaEventRecord(e0, s));
      t0 = now_us();
      for (int k = 0; k < NC; ++k) CK(cudaMemcpyAsync(h, dd + 4096 * k, 4096, cudaMemcpyDeviceToHost, s));
      t1 = now_us();
      CK(cudaEventRecord(e1, s));
      CK(cudaStreamSynchronize(s));
      if (r) ad.push_back((t1 - t0) / NC), gpud.push_back(ev_us(e0, e1) / NC);
    }
    series("host_cudaMemcpyAsync_h2d_pinned_4KiB_submit_us_per_call", a);
    series("host_cudaMemcpyAsync_h2d_pinned_4KiB_stream_gpu_us_per_copy", gpu);
    series("host_cudaMemcpyAsync_d2h_pinned_4KiB_submit_us_per_call", ad);
    series("host_cudaMemcpyAsync_d2h_pinned_4KiB_stream_gpu_us_per_copy", gpud);
    CK(cudaFreeHost(h));
    CK(cudaFree(dd));
  });
  guarded("host_hostfunc", [&] {
    const int NH = 200;
    std::vector<double> a, rt, lat;
    for (int k = 0; k < 20; ++k) CK(cudaLaunchHostFunc(s, empty_host_fn, nullptr));
    CK(cudaStreamSynchronize(s));
    for (int r = 0; r < REPS; ++r) {
      double t0 = now_us();
      for (int k = 0; k < NH; ++k) CK(cudaLaunchHostFunc(s, empty_host_fn, nullptr));
      a.push_back((now_us() - t0) / NH);
      CK(cudaStreamSynchronize(s));
      std::vector<double> x, y;
      for (int k = 0; k < 20; ++k) {
        CK(cudaEventRecord(e0, s));
        CK(cudaLaunchHostFunc(s, empty_host_fn, nullptr));
        CK(cudaEventRecord(e1, s));
        CK(cudaStreamSynchronize(s));
        x.push_back(ev_us(e0, e1));
        double ts = now_us();
        CK(cudaLaunchHostFunc(s, stamp_host_fn, nullptr));
        CK(cudaStreamSynchronize(s));
        y.push_back(g_cb_time - ts);
      }
      rt.push_back(median(x));
      lat.push_back(median(y));
    }
    series("host_cudaLaunchHostFunc_submit_us_per_call", a);
    series("gpu_hostfunc_empty_event_to_event_us", rt);
    series("host_hostfunc_submit_to_callback_start_idle_stream_us", lat);
    // host func behind a 100 us kernel: callback start after kernel end (host clock vs GPU end unknown,
    // so report event-to-event around kernel+hostfunc minus kernel-alone)
    std::vector<double> kh, k0;
    for (int r = 0; r < REPS; ++r) {
      CK(cudaEventRecord(e0, s));
      spin_kernel<<<1, 32, 0, s>>>(cyc(100), nullptr, 0);
      CKL();
      CK(cudaEventRecord(e1, s));
      CK(cudaStreamSynchronize(s));
      k0.push_back(ev_us(e0, e1));
      CK(cudaEventRecord(e0, s));
      spin_kernel<<<1, 32, 0, s>>>(cyc(100), nullptr, 0);
      CKL();
      CK(cudaLaunchHostFunc(s, empty_host_fn, nullptr));
      CK(cudaEventRecord(e1, s));
      CK(cudaStreamSynchronize(s));
      kh.push_back(ev_us(e0, e1));
    }
    series("gpu_spin100_alone_event_us", k0);
    series("gpu_spin100_then_hostfunc_event_us", kh);
  });
  CK(cudaEventDestroy(e0));
  CK(cudaEventDestroy(e1));
  CK(cudaEventDestroy(en));
  CK(cudaFree(d));
  CK(cudaStreamDestroy(s));
}

// ------------------------------------------------------------------------------------------------
// 1b + 2: graphs (host launch cost, instantiate, upload, GPU per-kernel)
// ------------------------------------------------------------------------------------------------
static cudaGraph_t capture_tiny(cudaStream_t s, int* d, int n) {
  cudaGraph_t g;
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  for (int k = 0; k < n; ++k) tiny_kernel<<<1, 32, 0, s>>>(d);
  CKL();
  CK(cudaStreamEndCapture(s, &g));
  return g;
}

static void graphs() {
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  int* d;
  CK(cudaMalloc(&d, 4096));
  CK(cudaMemset(d, 0, 4096));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  int sizes[] = {1, 10, 100, 1000};
  for (int n : sizes) {
    std::string tag = "n" + std::to_string(n);
    guarded(("graph_" + tag).c_str(), [&] {
      cudaGraph_t g = capture_tiny(s, d, n);
      cudaGraphExec_t ge;
      CK(cudaGraphInstantiate(&ge, g, 0));
      CK(cudaGraphUpload(ge, s));
      for (int k = 0; k < 3; ++k) CK(cudaGraphLaunch(ge, s));
      CK(cudaStreamSynchronize(s));
      std::vector<double> host, wall, gpu, gpu_per;
      for (int r = 0; r < REPS; ++r) {
        std::vector<double> h, w, gg;
        for (int k = 0; k < 20; ++k) {
          CK(cudaEventRecord(e0, s));
          double t0 = now_us();
          CK(cudaGraphLaunch(ge, s));
          double t1 = now_us();
          CK(cudaEventRecord(e1, s));
          CK(cudaStreamSynchronize(s));
          double t2 = now_us();
          h.push_back(t1 - t0);
          w.push_back(t2 - t0);
          gg.push_back(ev_us(e0, e1));
        }
        host.push_back(mean(h));
        wall.push_back(median(w));
        gpu.push_back(median(gg));
        gpu_per.push_back(median(gg) / n);
      }
      series("host_cudaGraphLaunch_" + tag + "_us_per_launch", host);
      series("wall_graph_launch_plus_sync_" + tag + "_us", wall);
      series("gpu_graph_replay_" + tag + "_us_per_graph", gpu);
      series("gpu_graph_replay_" + tag + "_us_per_kernel", gpu_per);
      // back-to-back replays (throughput, events around 20 launches)
      std::vector<double> bb;
      for (int r = 0; r < REPS; ++r) {
        CK(cudaEventRecord(e0, s));
        for (int k = 0; k < 20; ++k) CK(cudaGraphLaunch(ge, s));
        CK(cudaEventRecord(e1, s));
        CK(cudaStreamSynchronize(s));
        bb.push_back(ev_us(e0, e1) / 20);
      }
      series("gpu_graph_replay_" + tag + "_backtoback_us_per_graph", bb);
      CK(cudaGraphExecDestroy(ge));
      CK(cudaGraphDestroy(g));
    });
  }
  for (int n : {10, 1000}) {
    std::string tag = "n" + std::to_string(n);
    guarded(("graph_instantiate_" + tag).c_str(), [&] {
      std::vector<double> cap;
      cudaGraph_t g = nullptr;
      for (int r = 0; r < REPS; ++r) {
        if (g) CK(cudaGraphDestroy(g));
        double t0 = now_us();
        g = capture_tiny(s, d, n);
        cap.push_back(now_us() - t0);
      }
      series("host_stream_capture_" + tag + "_us", cap);
      std::vector<double> inst, fl_host, fl_wall, sl_host, sl_wall, up_wall, ul_host, ul_wall, destroy;
      for (int r = 0; r < REPS + 1; ++r) {
        cudaGraphExec_t ge;
        double t0 = now_us();
        CK(cudaGraphInstantiate(&ge, g, 0));
        double t1 = now_us();
        CK(cudaGraphLaunch(ge, s));
        double t2 = now_us();
        CK(cudaStreamSynchronize(s));
        double t3 = now_us();
        CK(cudaGraphLaunch(ge, s));
        double t4 = now_us();
        CK(cudaStreamSynchronize(s));
        double t5 = now_us();
        CK(cudaGraphExecDestroy(ge));
        double t6 = now_us();
        // explicit upload variant
        CK(cudaGraphInstantiate(&ge, g, 0));
        double u0 = now_us();
        CK(cudaGraphUpload(ge, s));
        CK(cudaStreamSynchronize(s));
        double u1 = now_us();
        CK(cudaGraphLaunch(ge, s));
        double u2 = now_us();
        CK(cudaStreamSynchronize(s));
        double u3 = now_us();
        CK(cudaGraphExecDestroy(ge));
        if (r == 0) continue;  // first instantiate of this graph is a warm-up
        inst.push_back(t1 - t0);
        fl_host.push_back(t2 - t1);
        fl_wall.push_back(t3 - t1);
        sl_host.push_back(t4 - t3);
        sl_wall.push_back(t5 - t3);
        destroy.push_back(t6 - t5);
        up_wall.push_back(u1 - u0);
        ul_host.push_back(u2 - u1);
        ul_wall.push_back(u3 - u1);
      }
      series("host_cudaGraphInstantiate_" + tag + "_us", inst);
      series("host_graph_first_launch_" + tag + "_submit_us", fl_host);
      series("wall_graph_first_launch_" + tag + "_launch_to_sync_us", fl_wall);
      series("host_graph_second_launch_" + tag + "_submit_us", sl_host);
      series("wall_graph_second_launch_" + tag + "_launch_to_sync_us", sl_wall);
      series("host_cudaGraphExecDestroy_" + tag + "_us", destroy);
      series("wall_cudaGraphUpload_plus_sync_" + tag + "_us", up_wall);
      series("host_graph_launch_after_upload_" + tag + "_submit_us", ul_host);
      series("wall_graph_launch_after_upload_" + tag + "_launch_to_sync_us", ul_wall);
      CK(cudaGraphDestroy(g));
    });
  }
  CK(cudaEventDestroy(e0));
  CK(cudaEventDestroy(e1));
  CK(cudaFree(d));
  CK(cudaStreamDestroy(s));
}

// ------------------------------------------------------------------------------------------------
// 2: GPU-side gaps (stream vs graph), event-to-event, launch round trips
// ------------------------------------------------------------------------------------------------
struct Gap {
  double gap_med, gap_mean, dur_mean, period;
};
static Gap gap_stats(const std::vector<unsigned long long>& ts, int n) {
  std::vector<double> g;
  double dsum = 0;
  for (int i = 0; i < n; ++i) {
    dsum += (double)(long long)(ts[2 * i + 1] - ts[2 * i]);
    if (i) g.push_back((double)((long long)ts[2 * i] - (long long)ts[2 * i - 1]) / 1000.0);
  }
  double span = (double)(long long)(ts[2 * n - 1] - ts[0]);
  return Gap{median(g), (span - dsum) / (n - 1) / 1000.0, dsum / n / 1000.0, span / n / 1000.0};
}

static void gpu_side() {
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  int* d;
  CK(cudaMalloc(&d, 4096));
  CK(cudaMemset(d, 0, 4096));
  const int NMAX = 300;
  unsigned long long* ts;
  CK(cudaMalloc(&ts, 2 * NMAX * sizeof(unsigned long long)));
  std::vector<unsigned long long> h(2 * NMAX);

  guarded("gpu_event_to_event", [&] {
    std::vector<double> a;
    for (int r = 0; r < REPS; ++r) {
      std::vector<double> x;
      for (int k = 0; k < 50; ++k) {
        CK(cudaEventRecord(e0, s));
        CK(cudaEventRecord(e1, s));
        CK(cudaStreamSynchronize(s));
        x.push_back(ev_us(e0, e1));
      }
      a.push_back(mean(x));
    }
    series("gpu_empty_stream_event_to_event_us", a);
  });
  guarded("gpu_stream_tiny_gpubound", [&] {
    // blocker spin first so that all launches are queued before the GPU reaches them
    std::vector<double> a;
    const int NT = 300;
    for (int r = 0; r < REPS; ++r) {
      spin_kernel<<<1, 32, 0, s>>>(cyc(4000), nullptr, 0);
      CKL();
      CK(cudaEventRecord(e0, s));
      for (int k = 0; k < NT; ++k) tiny_kernel<<<1, 32, 0, s>>>(d);
      CKL();
      CK(cudaEventRecord(e1, s));
      CK(cudaStreamSynchronize(s));
      a.push_back(ev_us(e0, e1) / NT);
    }
    series("gpu_stream_tiny_queued_us_per_kernel", a);
  });
  struct V {
    const char* name;
    double spin_us;
    int n;
    bool graph;
  } vars[] = {{"stream_spin0", 0, 300, false},
              {"stream_spin20", 20, 200, false},
              {"graph_spin0", 0, 300, true},
              {"graph_spin20", 20, 200, true}};
  for (auto& v : vars) {
    guarded(v.name, [&] {
      cudaGraphExec_t ge = nullptr;
      cudaGraph_t g = nullptr;
      if (v.graph) {
        CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
        for (int k = 0; k < v.n; ++k) spin_kernel<<<1, 32, 0, s>>>(cyc(v.spin_us), ts, k);
        CKL();
        CK(cudaStreamEndCapture(s, &g));
        CK(cudaGraphInstantiate(&ge, g, 0));
        CK(cudaGraphUpload(ge, s));
        CK(cudaGraphLaunch(ge, s));
        CK(cudaStreamSynchronize(s));
      }
      std::vector<double> gm, gmean, dur, per, evper;
      for (int r = 0; r < REPS; ++r) {
        if (!v.graph) {
          spin_kernel<<<1, 32, 0, s>>>(cyc(3000), nullptr, 0);
          CKL();
        }
        CK(cudaEventRecord(e0, s));
        if (v.graph)
          CK(cudaGraphLaunch(ge, s));
        else {
          for (int k = 0; k < v.n; ++k) spin_kernel<<<1, 32, 0, s>>>(cyc(v.spin_us), ts, k);
          CKL();
        }
        CK(cudaEventRecord(e1, s));
        CK(cudaStreamSynchronize(s));
        CK(cudaMemcpy(h.data(), ts, 2 * v.n * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
        Gap G = gap_stats(h, v.n);
        gm.push_back(G.gap_med);
        gmean.push_back(G.gap_mean);
        dur.push_back(G.dur_mean);
        per.push_back(G.period);
        evper.push_back(ev_us(e0, e1) / v.n);
      }
      std::string n = v.name;
      series("gpu_" + n + "_kernel_gap_median_us", gm);
      series("gpu_" + n + "_kernel_gap_mean_us", gmean);
      series("gpu_" + n + "_kernel_duration_mean_us", dur);
      series("gpu_" + n + "_period_us_per_kernel", per);
      series("gpu_" + n + "_event_us_per_kernel", evper);
      if (ge) CK(cudaGraphExecDestroy(ge));
      if (g) CK(cudaGraphDestroy(g));
    });
  }
  guarded("cross_stream_wait", [&] {
    cudaStream_t s2;
    CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    cudaEvent_t ev, evn;
    CK(cudaEventCreate(&ev));
    CK(cudaEventCreateWithFlags(&evn, cudaEventDisableTiming));
    for (int variant = 0; variant < 3; ++variant) {
      std::vector<double> gaps;
      for (int r = 0; r < REPS; ++r) {
        std::vector<double> x;
        for (int k = 0; k < 20; ++k) {
          spin_kernel<<<1, 32, 0, s>>>(cyc(50), ts, 0);
          CKL();
          if (variant == 2) {  // same stream reference
            spin_kernel<<<1, 32, 0, s>>>(0, ts, 1);
          } else {
            CK(cudaEventRecord(variant ? evn : ev, s));
            CK(cudaStreamWaitEvent(s2, variant ? evn : ev, 0));
            spin_kernel<<<1, 32, 0, s2>>>(0, ts, 1);
          }
          CKL();
          CK(cudaDeviceSynchronize());
          unsigned long long g4[4];
          CK(cudaMemcpy(g4, ts, sizeof(g4), cudaMemcpyDeviceToHost));
          x.push_back(((double)(long long)(g4[2] - g4[1])) / 1000.0);
        }
        gaps.push_back(median(x));
      }
      const char* nm[] = {"gpu_cross_stream_event_wait_gap_timing_event_us", "gpu_cross_stream_event_wait_gap_disabletiming_event_us",
                          "gpu_same_stream_kernel_gap_reference_us"};
      series(nm[variant], gaps);
    }
    CK(cudaEventDestroy(ev));
    CK(cudaEventDestroy(evn));
    CK(cudaStreamDestroy(s2));
  });
  guarded("launch_roundtrip", [&] {
    std::vector<double> empty_rt, tiny_rt, spin_rt, spin_dur, lat_al, wake_al;
    void* noargs[] = {nullptr};
    for (int k = 0; k < 20; ++k) {
      empty_kernel<<<1, 32, 0, s>>>();
      CK(cudaStreamSynchronize(s));
    }
    for (int r = 0; r < REPS; ++r) {
      const int NI = 100;
      double t0 = now_us();
      for (int k = 0; k < NI; ++k) {
        CK(cudaLaunchKernel((const void*)empty_kernel, dim3(1), dim3(32), noargs, 0, s));
        CK(cudaStreamSynchronize(s));
      }
      double t1 = now_us();
      for (int k = 0; k < NI; ++k) {
        tiny_kernel<<<1, 32, 0, s>>>(d);
        CKL();
        CK(cudaStreamSynchronize(s));
      }
      double t2 = now_us();
      empty_rt.push_back((t1 - t0) / NI);
      tiny_rt.push_back((t2 - t1) / NI);
      std::vector<double> x, du, la, wa;
      for (int k = 0; k < 30; ++k) {
        unsigned long long hs = real_ns();
        double w0 = now_us();
        spin_kernel<<<1, 32, 0, s>>>(cyc(20), ts, 0);
        CKL();
        CK(cudaStreamSynchronize(s));
        double w1 = now_us();
        unsigned long long he = real_ns();
        unsigned long long g2[2];
        CK(cudaMemcpy(g2, ts, sizeof(g2), cudaMemcpyDeviceToHost));
        x.push_back(w1 - w0);
        du.push_back((g2[1] - g2[0]) / 1000.0);
        la.push_back(((double)(long long)(g2[0] - hs)) / 1000.0);
        wa.push_back(((double)(long long)(he - g2[1])) / 1000.0);
      }
      spin_rt.push_back(median(x));
      spin_dur.push_back(median(du));
      lat_al.push_back(median(la));
      wake_al.push_back(median(wa));
    }
    series("wall_launch_plus_sync_empty_kernel_us", empty_rt);
    series("wall_launch_plus_sync_tiny_kernel_us", tiny_rt);
    series("wall_launch_plus_sync_spin20_kernel_us", spin_rt);
    series("gpu_spin20_kernel_duration_us", spin_dur);
    printf("RTINFO clockalign_* compare %%globaltimer with host CLOCK_REALTIME: meaningful only if the two clocks agree\n");
    series("clockalign_host_launch_to_gpu_start_us", lat_al);
    series("clockalign_gpu_end_to_host_sync_return_us", wake_al);
  });
  CK(cudaFree(ts));
  CK(cudaFree(d));
  CK(cudaEventDestroy(e0));
  CK(cudaEventDestroy(e1));
  CK(cudaStreamDestroy(s));
}

// ------------------------------------------------------------------------------------------------
// 3: copies
// ------------------------------------------------------------------------------------------------
static void copies() {
  const size_t BIG = 256ull << 20;
  cudaStream_t s, s2;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  cudaEvent_t e0, e1, f0, f1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  CK(cudaEventCreate(&f0));
  CK(cudaEventCreate(&f1));
  char *dA, *dB, *hP1, *hP2, *hU1, *hU2;
  CK(cudaMalloc(&dA, BIG));
  CK(cudaMalloc(&dB, BIG));
  CK(cudaMemset(dA, 3, BIG));
  CK(cudaMemset(dB, 4, BIG));
  double t0 = now_us();
  CK(cudaMallocHost(&hP1, BIG));
  double t1 = now_us();
  CK(cudaMallocHost(&hP2, BIG));
  printf("RTINFO cudaMallocHost_256MiB_us=%.1f\n", t1 - t0);
  hU1 = (char*)malloc(BIG);
  hU2 = (char*)malloc(BIG);
  if (!hU1 || !hU2) throw CudaErr{"malloc pageable failed"};
  memset(hP1, 1, BIG);
  memset(hP2, 2, BIG);
  memset(hU1, 5, BIG);
  memset(hU2, 6, BIG);
  struct K {
    const char* name;
    char* dst;
    char* src;
    cudaMemcpyKind kind;
  } kinds[] = {{"h2d_pinned", dA, hP1, cudaMemcpyHostToDevice},
               {"d2h_pinned", hP2, dA, cudaMemcpyDeviceToHost},
               {"h2d_pageable", dA, hU1, cudaMemcpyHostToDevice},
               {"d2h_pageable", hU2, dA, cudaMemcpyDeviceToHost},
               {"d2d", dB, dA, cudaMemcpyDeviceToDevice}};
  struct Sz {
    const char* n;
    size_t b;
  } sizes[] = {{"4KiB", 4096}, {"64KiB", 65536}, {"1MiB", 1 << 20}, {"16MiB", 16 << 20}, {"256MiB", BIG}};
  for (auto& k : kinds) {
    for (auto& z : sizes) {
      std::string tag = std::string(k.name) + "_" + z.n;
      guarded(("copy_" + tag).c_str(), [&] {
        CK(cudaMemcpyAsync(k.dst, k.src, z.b, k.kind, s));  // warm
        CK(cudaStreamSynchronize(s));
        std::vector<double> at, ab, st, sb;
        for (int r = 0; r < REPS; ++r) {
          CK(cudaEventRecord(e0, s));
          CK(cudaMemcpyAsync(k.dst, k.src, z.b, k.kind, s));
          CK(cudaEventRecord(e1, s));
          CK(cudaStreamSynchronize(s));
          double us = ev_us(e0, e1);
          at.push_back(us);
          ab.push_back(z.b / us / 1e3);
          double w0 = now_us();
          CK(cudaMemcpy(k.dst, k.src, z.b, k.kind));
          if (k.kind == cudaMemcpyDeviceToDevice) CK(cudaStreamSynchronize(0));
          double w = now_us() - w0;
          st.push_back(w);
          sb.push_back(z.b / w / 1e3);
        }
        series("copy_async_" + tag + "_event_us", at);
        series("copy_async_" + tag + "_GBps", ab);
        series("copy_sync_cudaMemcpy_" + tag + "_wall_us", st);
        series("copy_sync_cudaMemcpy_" + tag + "_GBps", sb);
        if (z.b <= (1u << 20)) {
          // 100 back-to-back copies in one stream: per-copy cost when queued (copy engine throughput)
          std::vector<double> bt, sub;
          const int NB = 100;
          for (int r = 0; r < REPS; ++r) {
            CK(cudaEventRecord(e0, s));
            double h0 = now_us();
            for (int q = 0; q < NB; ++q) CK(cudaMemcpyAsync(k.dst, k.src, z.b, k.kind, s));
            double h1 = now_us();
            CK(cudaEventRecord(e1, s));
            CK(cudaStreamSynchronize(s));
            bt.push_back(ev_us(e0, e1) / NB);
            sub.push_back((h1 - h0) / NB);
          }
          series("copy_async_" + tag + "_batch100_gpu_us_per_copy", bt);
          series("copy_async_" + tag + "_batch100_host_submit_us_per_copy", sub);
          if (k.src != hU1 && k.dst != hU2) {
            // same, behind a blocker kernel so all 100 copies are queued before the first starts
            std::vector<double> q;
            for (int r = 0; r < REPS; ++r) {
              spin_kernel<<<1, 32, 0, s>>>(cyc(2000), nullptr, 0);
              CKL();
              CK(cudaEventRecord(e0, s));
              for (int qq = 0; qq < NB; ++qq) CK(cudaMemcpyAsync(k.dst, k.src, z.b, k.kind, s));
              CK(cudaEventRecord(e1, s));
              CK(cudaStreamSynchronize(s));
              q.push_back(ev_us(e0, e1) / NB);
            }
            series("copy_async_" + tag + "_batch100_queued_gpu_us_per_copy", q);
          }
        }
      });
    }
  }
  for (auto& z : {Sz{"1MiB", 1 << 20}, Sz{"256MiB", BIG}}) {
    guarded("memset", [&] {
      std::string tag = z.n;
      CK(cudaMemsetAsync(dB, 7, z.b, s));
      CK(cudaStreamSynchronize(s));
      std::vector<double> t, b;
      for (int r = 0; r < REPS; ++r) {
        CK(cudaEventRecord(e0, s));
        CK(cudaMemsetAsync(dB, 7, z.b, s));
        CK(cudaEventRecord(e1, s));
        CK(cudaStreamSynchronize(s));
        double us = ev_us(e0, e1);
        t.push_back(us);
        b.push_back(z.b / us / 1e3);
      }
      series("memsetAsync_" + tag + "_event_us", t);
      series("memsetAsync_" + tag + "_GBps", b);
    });
  }
  // overlap experiments (host wall around issue + cudaDeviceSynchronize; events per stream too)
  const size_t OV = 64ull << 20;
  auto pair_test = [&](const char* name, std::function<void(cudaStream_t)> opA, std::function<void(cudaStream_t)> opB) {
    guarded(name, [&] {
      opA(s);
      opB(s2);
      CK(cudaDeviceSynchronize());
      std::vector<double> wa, wb, wab, eva, evb;
      for (int r = 0; r < REPS; ++r) {
        double t0 = now_us();
        opA(s);
        CK(cudaDeviceSynchronize());
        double t1 = now_us();
        opB(s2);
        CK(cudaDeviceSynchronize());
        double t2 = now_us();
        CK(cudaEventRecord(e0, s));
        opA(s);
        CK(cudaEventRecord(e1, s));
        CK(cudaEventRecord(f0, s2));
        opB(s2);
        CK(cudaEventRecord(f1, s2));
        CK(cudaDeviceSynchronize());
        double t3 = now_us();
        wa.push_back(t1 - t0);
        wb.push_back(t2 - t1);
        wab.push_back(t3 - t2);
        eva.push_back(ev_us(e0, e1));
        evb.push_back(ev_us(f0, f1));
      }
      std::string n = name;
      series(n + "_A_alone_wall_us", wa);
      series(n + "_B_alone_wall_us", wb);
      series(n + "_A_and_B_together_wall_us", wab);
      series(n + "_A_event_us_when_together", eva);
      series(n + "_B_event_us_when_together", evb);
    });
  };
  pair_test(
      "overlap_h2d64MiB_A_d2h64MiB_B",
      [&](cudaStream_t st) { CK(cudaMemcpyAsync(dA, hP1, OV, cudaMemcpyHostToDevice, st)); },
      [&](cudaStream_t st) { CK(cudaMemcpyAsync(hP2, dB, OV, cudaMemcpyDeviceToHost, st)); });
  pair_test(
      "overlap_h2d64MiB_A_h2d64MiB_B",
      [&](cudaStream_t st) { CK(cudaMemcpyAsync(dA, hP1, OV, cudaMemcpyHostToDevice, st)); },
      [&](cudaStream_t st) { CK(cudaMemcpyAsync(dB, hP1 + OV, OV, cudaMemcpyHostToDevice, st)); });
  pair_test(
      "overlap_h2d64MiB_A_spin1ms_B",
      [&](cudaStream_t st) { CK(cudaMemcpyAsync(dA, hP1, OV, cudaMemcpyHostToDevice, st)); },
      [&](cudaStream_t st) {
        spin_kernel<<<1, 32, 0, st>>>(cyc(1000), nullptr, 0);
        CKL();
      });
  pair_test(
      "overlap_d2d64MiB_A_spin1ms_B",
      [&](cudaStream_t st) { CK(cudaMemcpyAsync(dA, dB, OV, cudaMemcpyDeviceToDevice, st)); },
      [&](cudaStream_t st) {
        spin_kernel<<<1, 32, 0, st>>>(cyc(1000), nullptr, 0);
        CKL();
      });
  CK(cudaFree(dA));
  CK(cudaFree(dB));
  CK(cudaFreeHost(hP1));
  CK(cudaFreeHost(hP2));
  free(hU1);
  free(hU2);
  CK(cudaEventDestroy(e0));
  CK(cudaEventDestroy(e1));
  CK(cudaEventDestroy(f0));
  CK(cudaEventDestroy(f1));
  CK(cudaStreamDestroy(s));
  CK(cudaStreamDestroy(s2));
}

// ------------------------------------------------------------------------------------------------
// 4: concurrency of two half-GPU kernels
// ------------------------------------------------------------------------------------------------
static void concurrency() {
  const int SMEM = 120 * 1024;
  CK(cudaFuncSetAttribute(block_spin_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM));
  int occ = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, block_spin_kernel, 1024, SMEM));
  printf("RTINFO k_half blocks_per_sm=%d grid_half=%d block=1024 smem=%d\n", occ, g_sms / 2, SMEM);
  cudaStream_t s1, s2;
  CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  const int G = g_sms;  // max grid used (full)
  unsigned long long *ts1, *ts2;
  unsigned *sm1, *sm2;
  CK(cudaMalloc(&ts1, 2 * G * sizeof(unsigned long long)));
  CK(cudaMalloc(&ts2, 2 * G * sizeof(unsigned long long)));
  CK(cudaMalloc(&sm1, G * sizeof(unsigned)));
  CK(cudaMalloc(&sm2, G * sizeof(unsigned)));
  long long C = cyc(200);
  auto run = [&](int grid, int mode) {  // mode 0 alone, 1 two on one stream, 2 two on two streams
    block_spin_kernel<<<grid, 1024, SMEM, s1>>>(C, ts1, sm1);
    CKL();
    if (mode == 1) block_spin_kernel<<<grid, 1024, SMEM, s1>>>(C, ts2, sm2);
    if (mode == 2) block_spin_kernel<<<grid, 1024, SMEM, s2>>>(C, ts2, sm2);
    CKL();
  };
  for (int grid : {g_sms / 2, g_sms}) {
    std::string gt = grid == g_sms ? "kfull" : "khalf";
    const char* mn[] = {"one_alone", "two_one_stream", "two_two_streams"};
    for (int mode = 0; mode < 3; ++mode) {
      guarded((gt + mn[mode]).c_str(), [&] {
        run(grid, mode);
        CK(cudaDeviceSynchronize());
        std::vector<double> wall, span;
        std::vector<unsigned long long> h1(2 * grid), h2(2 * grid);
        std::vector<unsigned> m1(grid), m2(grid);
        for (int r = 0; r < REPS; ++r) {
          double t0 = now_us();
          run(grid, mode);
          CK(cudaDeviceSynchronize());
          wall.push_back(now_us() - t0);
          CK(cudaMemcpy(h1.data(), ts1, 2 * grid * 8, cudaMemcpyDeviceToHost));
          CK(cudaMemcpy(m1.data(), sm1, grid * 4, cudaMemcpyDeviceToHost));
          unsigned long long lo = ~0ull, hi = 0;
          for (int b = 0; b < grid; ++b) lo = std::min(lo, h1[2 * b]), hi = std::max(hi, h1[2 * b + 1]);
          if (mode) {
            CK(cudaMemcpy(h2.data(), ts2, 2 * grid * 8, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(m2.data(), sm2, grid * 4, cudaMemcpyDeviceToHost));
            for (int b = 0; b < grid; ++b) lo = std::min(lo, h2[2 * b]), hi = std::max(hi, h2[2 * b + 1]);
          }
          span.push_back((hi - lo) / 1000.0);
        }
        series("conc_" + gt + "_" + mn[mode] + "_wall_us", wall);
        series("conc_" + gt + "_" + mn[mode] + "_gpu_span_us", span);
        if (mode == 2) {  // per-block detail of the last run
          unsigned long long lo = ~0ull;
          for (int b = 0; b < grid; ++b) lo = std::min(lo, std::min(h1[2 * b], h2[2 * b]));
          std::vector<int> seen(1024, 0);
          int inter = 0, d1 = 0, d2 = 0;
          for (int b = 0; b < grid; ++b) seen[m1[b] & 1023] |= 1;
          for (int b = 0; b < grid; ++b) seen[m2[b] & 1023] |= 2;
          for (int i = 0; i < 1024; ++i) inter += seen[i] == 3, d1 += (seen[i] & 1) != 0, d2 += (seen[i] & 2) != 0;
          double k1s = 1e30, k1e = 0, k2s = 1e30, k2e = 0;
          for (int b = 0; b < grid; ++b) {
            k1s = std::min(k1s, (h1[2 * b] - lo) / 1000.0);
            k1e = std::max(k1e, (h1[2 * b + 1] - lo) / 1000.0);
            k2s = std::min(k2s, (h2[2 * b] - lo) / 1000.0);
            k2e = std::max(k2e, (h2[2 * b + 1] - lo) / 1000.0);
          }
          printf("RTINFO conc_%s_two_streams_last_run k1=[%.1f,%.1f]us k2=[%.1f,%.1f]us distinct_sms_k1=%d k2=%d shared_sms=%d\n",
                 gt.c_str(), k1s, k1e, k2s, k2e, d1, d2, inter);
          for (int which = 0; which < 2; ++which) {
            auto& hh = which ? h2 : h1;
            auto& mm = which ? m2 : m1;
            printf("RTRAW conc_%s_k%d block:start_us:end_us:smid", gt.c_str(), which + 1);
            for (int b = 0; b < grid; ++b)
              printf(" %d:%.2f:%.2f:%u", b, (hh[2 * b] - lo) / 1000.0, (hh[2 * b + 1] - lo) / 1000.0, mm[b]);
            printf("\n");
          }
        }
      });
    }
  }
  CK(cudaFree(ts1));
  CK(cudaFree(ts2));
  CK(cudaFree(sm1));
  CK(cudaFree(sm2));
  CK(cudaStreamDestroy(s1));
  CK(cudaStreamDestroy(s2));
}

// ------------------------------------------------------------------------------------------------
// 5: false dependencies through hardware queues
// ------------------------------------------------------------------------------------------------
static void false_dep() {
  const char* mc = getenv("CUDA_DEVICE_MAX_CONNECTIONS");
  std::string conn = mc ? mc : "default8";
  const int SMAX = 33;
  std::vector<cudaStream_t> st(SMAX);
  for (int i = 0; i < SMAX; ++i) CK(cudaStreamCreateWithFlags(&st[i], cudaStreamNonBlocking));
  unsigned long long* ts;
  CK(cudaMalloc(&ts, 4 * SMAX * sizeof(unsigned long long)));
  long long C = cyc(100);
  for (int i = 0; i < SMAX; ++i) spin_kernel<<<1, 32, 0, st[i]>>>(C / 10, ts, i);  // touch every stream
  CKL();
  CK(cudaDeviceSynchronize());
  volatile int* gate;
  CK(cudaHostAlloc((void**)&gate, 64, cudaHostAllocMapped));
  *gate = 0;
  for (int gated = 0; gated < 2; ++gated)
  for (int ns : {4, 8, 9, 16, 17, 32, 33}) {
    for (int order = 0; order < 2; ++order) {
      std::string tag = std::string(gated ? "fdepgated" : "fdep") + "_conn" + conn + "_s" + std::to_string(ns) + (order ? "_breadth" : "_depth");
      auto L = [&](int i, int idx) {
        if (gated)
          gated_spin_kernel<<<1, 32, 0, st[i]>>>(C, ts, idx, gate);
        else
          spin_kernel<<<1, 32, 0, st[i]>>>(C, ts, idx);
      };
      guarded(tag.c_str(), [&] {
        std::vector<double> wall, span;
        std::vector<unsigned long long> h(4 * ns);
        for (int r = 0; r < REPS + 1; ++r) {
          double t0 = now_us();
          if (order == 0) {
            for (int i = 0; i < ns; ++i) {
              L(i, 2 * i);
              L(i, 2 * i + 1);
            }
          } else {
            for (int i = 0; i < ns; ++i) L(i, 2 * i);
            for (int i = 0; i < ns; ++i) L(i, 2 * i + 1);
          }
          CKL();
          if (gated) {
            __sync_synchronize();
            *gate = 1;
            __sync_synchronize();
          }
          cudaError_t se = cudaDeviceSynchronize();
          *gate = 0;
          __sync_synchronize();
          CK(se);
          double w = now_us() - t0;
          CK(cudaMemcpy(h.data(), ts, 4 * ns * 8, cudaMemcpyDeviceToHost));
          unsigned long long lo = ~0ull, hi = 0;
          for (int k = 0; k < 2 * ns; ++k) lo = std::min(lo, h[2 * k]), hi = std::max(hi, h[2 * k + 1]);
          if (r == 0) continue;
          wall.push_back(w);
          span.push_back((hi - lo) / 1000.0);
          if (r == REPS) {
            printf("RTRAW %s stream:Astart-Aend:Bstart-Bend_us", tag.c_str());
            for (int i = 0; i < ns; ++i)
              printf(" s%d:%.0f-%.0f:%.0f-%.0f", i, (h[4 * i] - lo) / 1e3, (h[4 * i + 1] - lo) / 1e3,
                     (h[4 * i + 2] - lo) / 1e3, (h[4 * i + 3] - lo) / 1e3);
            printf("\n");
          }
        }
        series(tag + "_wall_us", wall);
        series(tag + "_gpu_span_us", span);
      });
    }
  }
  CK(cudaFreeHost((void*)gate));
  CK(cudaFree(ts));
  for (auto x : st) CK(cudaStreamDestroy(x));
}

int main(int argc, char** argv) {
  std::string mode = argc > 1 ? argv[1] : "all";
  double t0 = now_us();
  guarded("init", [] { CK(cudaFree(0)); });
  printf("RTINFO context_init_us=%.1f mode=%s\n", now_us() - t0, mode.c_str());
  guarded("device_props", device_props);
  guarded("calibrate", calibrate);
  if (mode == "all") {
    guarded("host_api", host_api);
    guarded("graphs", graphs);
    guarded("gpu_side", gpu_side);
    guarded("copies", copies);
    guarded("concurrency", concurrency);
  }
  if (mode == "all" || mode == "fdep") guarded("false_dep", false_dep);
  printf("RTDONE mode=%s failures=%d total_s=%.1f\n", mode.c_str(), g_fail, (now_us() - t0) / 1e6);
  return 0;
}
