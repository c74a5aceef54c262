// Shared helpers for the NVSHMEM probes (issue #43 item 8): error checks, a bootstrap that needs no MPI,
// and robust statistics. Each PE is its own process started by run_probes.sh with PE_RANK / PE_SIZE (or by
// mpirun, whose OMPI_COMM_WORLD_RANK/SIZE are read too); PE 0 writes NVSHMEM's unique id to a file and the
// others read it (NVSHMEM's UID bootstrap), so no MPI library is needed to build or run.
#pragma once
#include <nvshmem.h>
#include <nvshmemx.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

#define CK(call)                                                                                   \
  do {                                                                                             \
    cudaError_t e_ = (call);                                                                       \
    if (e_ != cudaSuccess) {                                                                       \
      fprintf(stderr, "CUDA error %s at %s:%d: %s\n", cudaGetErrorName(e_), __FILE__, __LINE__, #call); \
      exit(2);                                                                                     \
    }                                                                                              \
  } while (0)
#define CKL() CK(cudaGetLastError())

static int env_int(const char* a, const char* b, int dflt) {
  const char* v = getenv(a);
  if (!v) v = getenv(b);
  return v ? atoi(v) : dflt;
}

// returns my PE; sets the device to rank % device count before nvshmem init (one PE per GPU)
static int nvsh_init_uid() {
  int rank = env_int("PE_RANK", "OMPI_COMM_WORLD_RANK", 0);
  int size = env_int("PE_SIZE", "OMPI_COMM_WORLD_SIZE", 1);
  int ndev = 0;
  CK(cudaGetDeviceCount(&ndev));
  CK(cudaSetDevice(rank % ndev));
  CK(cudaFree(0));
  const char* f = getenv("NVSH_UID_FILE");
  std::string path = f ? f : "/tmp/nvsh_uid.bin";
  nvshmemx_uniqueid_t id = NVSHMEMX_UNIQUEID_INITIALIZER;
  if (rank == 0) {
    nvshmemx_get_uniqueid(&id);
    std::string tmp = path + ".tmp";
    FILE* fp = fopen(tmp.c_str(), "wb");
    if (!fp || fwrite(&id, sizeof(id), 1, fp) != 1) { fprintf(stderr, "cannot write %s\n", tmp.c_str()); exit(2); }
    fclose(fp);
    rename(tmp.c_str(), path.c_str());  // atomic: readers never see a partial id
  } else {
    for (int tries = 0;; ++tries) {
      FILE* fp = fopen(path.c_str(), "rb");
      if (fp) {
        size_t n = fread(&id, sizeof(id), 1, fp);
        fclose(fp);
        if (n == 1) break;
      }
      if (tries > 3000) { fprintf(stderr, "PE %d: no unique id in %s after 30 s\n", rank, path.c_str()); exit(2); }
      usleep(10000);
    }
  }
  nvshmemx_init_attr_t attr = NVSHMEMX_INIT_ATTR_INITIALIZER;
  nvshmemx_set_attr_uniqueid_args(rank, size, &id, &attr);
  nvshmemx_init_attr(NVSHMEMX_INIT_WITH_UNIQUEID, &attr);
  int me = nvshmem_my_pe();
  if (me != rank) fprintf(stderr, "warning: nvshmem_my_pe %d != rank %d\n", me, rank);
  return me;
}

struct Stats {
  double med, min, max, p10, p90;
  int n;
};
static Stats stats_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  Stats s{};
  s.n = (int)v.size();
  if (v.empty()) return s;
  auto q = [&](double f) { return v[(size_t)std::min<double>(v.size() - 1, f * (v.size() - 1) + 0.5)]; };
  s.med = v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
  s.min = v.front();
  s.max = v.back();
  s.p10 = q(0.10);
  s.p90 = q(0.90);
  return s;
}

__device__ __forceinline__ unsigned long long gtimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
  return t;
}
