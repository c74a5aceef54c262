/* Port of NVIDIA/multi-gpu-programming-models nvshmem/jacobi.cu
 * (commit 9a600f5ea8f5e53614e30b7b36e9136107178dd8), cut down to a self-contained probe for issue #43.
 * Copyright (c) 2024 NVIDIA CORPORATION. All rights reserved. Redistribution and use in source and binary
 * forms, with or without modification, are permitted under the BSD 3-clause terms in the original file.
 *
 * Kept as in the original: the mesh split (chunk_size_low/high), the periodic-in-y halo exchange, the
 * Dirichlet sin() left/right boundaries, jacobi_kernel (32x32 blocks, nvshmem_float_p halos), the
 * block-communication kernel (1024x1 blocks, nvshmemx_float_put_nbi_block halos), the neighbourhood sync
 * kernel, CUB block reduction of the L2 norm, the single-GPU reference and its comparison (tol 1e-8).
 * Changed: no MPI (UID bootstrap, nvsh_common.h); the L2 norm is only read after the last iteration (the
 * original reads it every iteration, nccheck=1, with a D2H copy and MPI_Allreduce), so the loop per
 * iteration is exactly "kernel + sync" as in seed 003; a fourth, host-initiated variant ("host"): the
 * kernel only computes and the halo rows go by two nvshmemx_putmem_on_stream calls before the barrier.
 * Variants: p (float_p + barrier_all_on_stream), block (put_nbi_block + barrier_all_on_stream),
 * p_nbr (float_p + syncneighborhood kernel), host (putmem_on_stream + barrier_all_on_stream).
 * Output: one CSV row per (variant, rep): jacobi,variant,npes,nx,ny,niter,rep,ms_total,us_per_iter,l2norm,maxdiff
 */
#include "nvsh_common.h"
#include <cub/block/block_reduce.cuh>
#include <chrono>
#include <cmath>

typedef float real;
constexpr real tol = 1.0e-8;
const real PI = 2.0 * std::asin(1.0);

__global__ void syncneighborhood_kernel(int my_pe, int num_pes, uint64_t* sync_arr, long counter) {
  int next_rank = (my_pe + 1) % num_pes;
  int prev_rank = (my_pe == 0) ? num_pes - 1 : my_pe - 1;
  nvshmem_quiet();
  nvshmemx_signal_op(sync_arr, counter, NVSHMEM_SIGNAL_SET, next_rank);
  nvshmemx_signal_op(sync_arr + 1, counter, NVSHMEM_SIGNAL_SET, prev_rank);
  nvshmem_uint64_wait_until_all(sync_arr, 2, NULL, NVSHMEM_CMP_GE, counter);
}

__global__ void initialize_boundaries(real* __restrict__ const a_new, real* __restrict__ const a, const real pi,
                                      const int offset, const int nx, const int my_ny, int ny) {
  for (int iy = blockIdx.x * blockDim.x + threadIdx.x; iy < my_ny; iy += blockDim.x * gridDim.x) {
    const real y0 = sin(2.0 * pi * (offset + iy) / (ny - 1));
    a[(iy + 1) * nx + 0] = y0;
    a[(iy + 1) * nx + (nx - 1)] = y0;
    a_new[(iy + 1) * nx + 0] = y0;
    a_new[(iy + 1) * nx + (nx - 1)] = y0;
  }
}

// COMM=false: the host-initiated variant's kernel (no device-side communication)
template <int BLOCK_DIM_X, int BLOCK_DIM_Y, bool COMM>
__global__ void jacobi_kernel(real* __restrict__ const a_new, const real* __restrict__ const a,
                              real* __restrict__ const l2_norm, const int iy_start, const int iy_end, const int nx,
                              const int top_pe, const int top_iy, const int bottom_pe, const int bottom_iy) {
  typedef cub::BlockReduce<real, BLOCK_DIM_X, cub::BLOCK_REDUCE_WARP_REDUCTIONS, BLOCK_DIM_Y> BlockReduce;
  __shared__ typename BlockReduce::TempStorage temp_storage;
  int iy = blockIdx.y * blockDim.y + threadIdx.y + iy_start;
  int ix = blockIdx.x * blockDim.x + threadIdx.x + 1;
  real local_l2_norm = 0.0;
  if (iy < iy_end && ix < (nx - 1)) {
    const real new_val = 0.25 * (a[iy * nx + ix + 1] + a[iy * nx + ix - 1] + a[(iy + 1) * nx + ix] + a[(iy - 1) * nx + ix]);
    a_new[iy * nx + ix] = new_val;
    real residue = new_val - a[iy * nx + ix];
    local_l2_norm += residue * residue;
    if (COMM) {
      if (iy_start == iy) nvshmem_float_p(a_new + top_iy * nx + ix, new_val, top_pe);
      if ((iy_end - 1) == iy) nvshmem_float_p(a_new + bottom_iy * nx + ix, new_val, bottom_pe);
    }
  }
  real block_l2_norm = BlockReduce(temp_storage).Sum(local_l2_norm);
  if (0 == threadIdx.y && 0 == threadIdx.x) atomicAdd(l2_norm, block_l2_norm);
}

template <int BLOCK_DIM_X, int BLOCK_DIM_Y>
__global__ void jacobi_block_comm_kernel(real* __restrict__ const a_new, const real* __restrict__ const a,
                                         real* __restrict__ const l2_norm, const int iy_start, const int iy_end,
                                         const int nx, const int top_pe, const int top_iy, const int bottom_pe,
                                         const int bottom_iy) {
  typedef cub::BlockReduce<real, BLOCK_DIM_X, cub::BLOCK_REDUCE_WARP_REDUCTIONS, BLOCK_DIM_Y> BlockReduce;
  __shared__ typename BlockReduce::TempStorage temp_storage;
  int iy = blockIdx.y * blockDim.y + threadIdx.y + iy_start;
  int ix = blockIdx.x * blockDim.x + threadIdx.x + 1;
  real local_l2_norm = 0.0;
  if (iy < iy_end && ix < (nx - 1)) {
    const real new_val = 0.25 * (a[iy * nx + ix + 1] + a[iy * nx + ix - 1] + a[(iy + 1) * nx + ix] + a[(iy - 1) * nx + ix]);
    a_new[iy * nx + ix] = new_val;
    real residue = new_val - a[iy * nx + ix];
    local_l2_norm += residue * residue;
  }
  int block_iy = iy - threadIdx.y;
  int block_ix = ix - threadIdx.x;
  if ((block_iy <= iy_start) && (iy_start < block_iy + blockDim.y)) {
    nvshmemx_float_put_nbi_block(a_new + top_iy * nx + block_ix, a_new + iy_start * nx + block_ix,
                                 min(blockDim.x, nx - 1 - block_ix), top_pe);
  }
  if ((block_iy < iy_end) && (iy_end <= block_iy + blockDim.y)) {
    nvshmemx_float_put_nbi_block(a_new + bottom_iy * nx + block_ix, a_new + (iy_end - 1) * nx + block_ix,
                                 min(blockDim.x, nx - 1 - block_ix), bottom_pe);
  }
  real block_l2_norm = BlockReduce(temp_storage).Sum(local_l2_norm);
  if (0 == threadIdx.y && 0 == threadIdx.x) atomicAdd(l2_norm, block_l2_norm);
}

// gathers every PE's local sum of squared residues on PE 0
__global__ void gather_norm(const real* l2, real* all, int mype) { nvshmem_float_p(all + mype, *l2, 0); }

static double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// the original's single_gpu(): a plain CUDA loop (the kernel's float_p targets this PE itself); returns ms
static double single_gpu(int nx, int ny, int iter_max, real* a_ref_h, int mype, real* l2_out) {
  real *a, *a_new, *l2_norm_d;
  cudaStream_t s;
  int iy_start = 1, iy_end = ny - 3;
  CK(cudaMalloc(&a, (size_t)nx * ny * sizeof(real)));
  CK(cudaMalloc(&a_new, (size_t)nx * ny * sizeof(real)));
  CK(cudaMemset(a, 0, (size_t)nx * ny * sizeof(real)));
  CK(cudaMemset(a_new, 0, (size_t)nx * ny * sizeof(real)));
  initialize_boundaries<<<ny / 128 + 1, 128>>>(a, a_new, PI, 0, nx, ny - 2, ny - 2);
  CKL();
  CK(cudaStreamCreate(&s));
  CK(cudaMalloc(&l2_norm_d, sizeof(real)));
  CK(cudaDeviceSynchronize());
  dim3 grid((nx + 31) / 32, ((ny - 2) + 31) / 32, 1);
  double t0 = now_ms();
  for (int iter = 0; iter < iter_max; ++iter) {
    if (iter == iter_max - 1) CK(cudaMemsetAsync(l2_norm_d, 0, sizeof(real), s));
    jacobi_kernel<32, 32, true><<<grid, {32, 32, 1}, 0, s>>>(a_new, a, l2_norm_d, iy_start, iy_end, nx, mype,
                                                             iy_end + 1, mype, (iy_start - 1));
    std::swap(a_new, a);
  }
  CK(cudaStreamSynchronize(s));
  CKL();
  double t1 = now_ms();
  real l2;
  CK(cudaMemcpy(&l2, l2_norm_d, sizeof(real), cudaMemcpyDeviceToHost));
  *l2_out = std::sqrt(l2);
  if (a_ref_h) CK(cudaMemcpy(a_ref_h, a, (size_t)nx * ny * sizeof(real), cudaMemcpyDeviceToHost));
  CK(cudaStreamDestroy(s));
  CK(cudaFree(l2_norm_d));
  CK(cudaFree(a_new));
  CK(cudaFree(a));
  return t1 - t0;
}

template <typename T>
static T argval(int argc, char** argv, const char* k, T d) {
  for (int i = 1; i + 1 < argc; ++i)
    if (!strcmp(argv[i], k)) return (T)atof(argv[i + 1]);
  return d;
}

int main(int argc, char** argv) {
  const int iter_max = argval<int>(argc, argv, "-niter", 1000);
  const int nx = argval<int>(argc, argv, "-nx", 2048);
  const int ny = argval<int>(argc, argv, "-ny", 2048);
  const int reps = argval<int>(argc, argv, "-reps", 3);
  int size = env_int("PE_SIZE", "OMPI_COMM_WORLD_SIZE", 1);
  setenv("NVSHMEM_DISABLE_NVLS", "1", 1);
  {  // symmetric heap sized as the original does (2 arrays, 10 % slack), plus 64 MiB for small buffers
    unsigned long long mesh = (unsigned long long)nx * (((ny - 2) + size - 1) / size + 2);
    unsigned long long need = (unsigned long long)(2 * mesh * sizeof(real) * 1.1) + (64ull << 20);
    char buf[64];
    snprintf(buf, sizeof buf, "%llu", need);
    setenv("NVSHMEM_SYMMETRIC_SIZE", buf, 1);
  }
  const int mype = nvsh_init_uid();
  const int npes = nvshmem_n_pes();
  nvshmem_barrier_all();

  real *a_ref_h, *a_h;
  CK(cudaMallocHost(&a_ref_h, (size_t)nx * ny * sizeof(real)));
  CK(cudaMallocHost(&a_h, (size_t)nx * ny * sizeof(real)));
  real ref_l2 = 0;
  single_gpu(nx, ny, 10, nullptr, mype, &ref_l2);  // warm-up (module load, clocks)
  double ref_ms = single_gpu(nx, ny, iter_max, a_ref_h, mype, &ref_l2);
  if (mype == 0)
    printf("jacobi,single_gpu_ref,1,%d,%d,%d,0,%.3f,%.3f,%.8e,0\n", nx, ny, iter_max, ref_ms, ref_ms * 1e3 / iter_max, ref_l2);
  for (int r = 1; r < reps; ++r) {
    double ms = single_gpu(nx, ny, iter_max, nullptr, mype, &ref_l2);
    if (mype == 0)
      printf("jacobi,single_gpu_ref,1,%d,%d,%d,%d,%.3f,%.3f,%.8e,0\n", nx, ny, iter_max, r, ms, ms * 1e3 / iter_max, ref_l2);
  }
  fflush(stdout);
  nvshmem_barrier_all();

  int chunk_size_low = (ny - 2) / npes;
  int chunk_size_high = chunk_size_low + 1;
  int num_ranks_low = npes * chunk_size_low + npes - (ny - 2);
  int chunk_size = mype < num_ranks_low ? chunk_size_low : chunk_size_high;
  real* a0 = (real*)nvshmem_malloc((size_t)nx * (chunk_size_high + 2) * sizeof(real));
  real* a_new0 = (real*)nvshmem_malloc((size_t)nx * (chunk_size_high + 2) * sizeof(real));
  real* l2_all = (real*)nvshmem_malloc(64 * sizeof(real));
  uint64_t* sync_arr = (uint64_t*)nvshmem_malloc(2 * sizeof(uint64_t));
  if (!a0 || !a_new0 || !l2_all || !sync_arr) { fprintf(stderr, "nvshmem_malloc failed\n"); return 2; }
  real* l2_d;
  CK(cudaMalloc(&l2_d, sizeof(real)));
  int iy_start_global = mype < num_ranks_low ? mype * chunk_size_low + 1
                                             : num_ranks_low * chunk_size_low + (mype - num_ranks_low) * chunk_size_high + 1;
  int iy_end_global = std::min(iy_start_global + chunk_size - 1, ny - 4);
  int iy_start = 1;
  int iy_end = (iy_end_global - iy_start_global + 1) + iy_start;
  int top_pe = mype > 0 ? mype - 1 : (npes - 1);
  int bottom_pe = (mype + 1) % npes;
  int iy_end_top = (top_pe < num_ranks_low) ? chunk_size_low + 1 : chunk_size_high + 1;
  int iy_start_bottom = 0;
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  dim3 dim_grid((nx + 31) / 32, (chunk_size + 31) / 32, 1);
  dim3 dim_grid_bc((nx + 1023) / 1024, chunk_size, 1);
  long synccounter = 1;
  CK(cudaMemset(sync_arr, 0, 2 * sizeof(uint64_t)));
  CK(cudaDeviceSynchronize());
  nvshmem_barrier_all();

  const char* variants[] = {"p", "block", "p_nbr", "host"};
  for (int v = 0; v < 4; ++v) {
    for (int rep = -1; rep < reps; ++rep) {  // rep -1: 20 warm-up iterations, not reported
      int niter = rep < 0 ? 20 : iter_max;
      real *a = a0, *a_new = a_new0;
      CK(cudaMemset(a, 0, (size_t)nx * (chunk_size + 2) * sizeof(real)));
      CK(cudaMemset(a_new, 0, (size_t)nx * (chunk_size + 2) * sizeof(real)));
      initialize_boundaries<<<(ny / npes) / 128 + 1, 128>>>(a, a_new, PI, iy_start_global - 1, nx, chunk_size, ny - 2);
      CKL();
      CK(cudaDeviceSynchronize());
      nvshmem_barrier_all();
      double t0 = now_ms();
      for (int iter = 0; iter < niter; ++iter) {
        if (iter == niter - 1) CK(cudaMemsetAsync(l2_d, 0, sizeof(real), st));
        if (v == 1) {
          jacobi_block_comm_kernel<1024, 1><<<dim_grid_bc, {1024, 1, 1}, 0, st>>>(a_new, a, l2_d, iy_start, iy_end, nx, top_pe,
                                                                                  iy_end_top, bottom_pe, iy_start_bottom);
        } else if (v == 3) {
          jacobi_kernel<32, 32, false><<<dim_grid, {32, 32, 1}, 0, st>>>(a_new, a, l2_d, iy_start, iy_end, nx, top_pe,
                                                                         iy_end_top, bottom_pe, iy_start_bottom);
          // host-initiated halos: first computed row to the top neighbour's bottom halo row, last to the bottom one's
          nvshmemx_putmem_on_stream(a_new + iy_end_top * nx + 1, a_new + iy_start * nx + 1, (nx - 2) * sizeof(real), top_pe, st);
          nvshmemx_putmem_on_stream(a_new + iy_start_bottom * nx + 1, a_new + (iy_end - 1) * nx + 1, (nx - 2) * sizeof(real), bottom_pe, st);
        } else {
          jacobi_kernel<32, 32, true><<<dim_grid, {32, 32, 1}, 0, st>>>(a_new, a, l2_d, iy_start, iy_end, nx, top_pe,
                                                                        iy_end_top, bottom_pe, iy_start_bottom);
        }
        if (v == 2) {
          syncneighborhood_kernel<<<1, 1, 0, st>>>(mype, npes, sync_arr, synccounter);
          synccounter++;
        } else {
          nvshmemx_barrier_all_on_stream(st);
        }
        std::swap(a_new, a);
      }
      CK(cudaStreamSynchronize(st));
      CKL();
      double t1 = now_ms();
      nvshmem_barrier_all();
      if (rep < 0) continue;
      // norm: gather every PE's sum of squares on PE 0
      gather_norm<<<1, 1, 0, st>>>(l2_d, l2_all, mype);
      CKL();
      CK(cudaStreamSynchronize(st));
      nvshmem_barrier_all();
      real l2 = 0;
      if (mype == 0) {
        real parts[64];
        CK(cudaMemcpy(parts, l2_all, npes * sizeof(real), cudaMemcpyDeviceToHost));
        for (int i = 0; i < npes; ++i) l2 += parts[i];
        l2 = std::sqrt(l2);
      }
      // compare this PE's slice with the single-GPU reference, as the original does
      CK(cudaMemcpy(a_h + (size_t)iy_start_global * nx, a + nx,
                    (size_t)std::min(ny - 2 - iy_start_global, chunk_size) * nx * sizeof(real), cudaMemcpyDeviceToHost));
      double maxdiff = 0;
      for (int iy = iy_start_global; iy < iy_end_global; ++iy)
        for (int ix = 1; ix < nx - 1; ++ix)
          maxdiff = std::max(maxdiff, (double)std::fabs(a_ref_h[(size_t)iy * nx + ix] - a_h[(size_t)iy * nx + ix]));
      // every PE prints its own time and difference; PE 0 also the global norm
      printf("jacobi,%s,%d,%d,%d,%d,%d,%.3f,%.3f,%.8e,%.3e,pe%d%s\n", variants[v], npes, nx, ny, niter, rep, t1 - t0,
             (t1 - t0) * 1e3 / niter, mype == 0 ? l2 : NAN, maxdiff, mype, maxdiff > tol ? ",MISMATCH" : "");
      fflush(stdout);
    }
  }
  nvshmem_barrier_all();
  nvshmem_free(a0);
  nvshmem_free(a_new0);
  nvshmem_free(l2_all);
  nvshmem_free(sync_arr);
  CK(cudaFreeHost(a_h));
  CK(cudaFreeHost(a_ref_h));
  nvshmem_finalize();
  return 0;
}
