// SASS probe for NVSHMEM device operations over the P2P (NVLink) path: compiled with nvcc 13.0,
// -arch=sm_90 -rdc=true against nvidia-nvshmem-cu13 3.4.5 headers; disassembled with cuobjdump -sass.
#include <nvshmem.h>
#include <nvshmemx.h>
extern "C" __global__ void k_p(float *d, float v, int pe) { nvshmem_float_p(d + threadIdx.x, v, pe); }
extern "C" __global__ void k_g(float *s, float *out, int pe) { out[threadIdx.x] = nvshmem_float_g(s + threadIdx.x, pe); }
extern "C" __global__ void k_put(float *d, const float *s, size_t n, int pe) { nvshmem_float_put(d, s, n, pe); }
extern "C" __global__ void k_put_nbi_block(float *d, const float *s, size_t n, int pe) { nvshmemx_float_put_nbi_block(d, s, n, pe); }
extern "C" __global__ void k_put_warp(float *d, const float *s, size_t n, int pe) { nvshmemx_float_put_warp(d, s, n, pe); }
extern "C" __global__ void k_get_nbi(float *d, const float *s, size_t n, int pe) { nvshmem_float_get_nbi(d, s, n, pe); }
extern "C" __global__ void k_quiet() { nvshmem_quiet(); }
extern "C" __global__ void k_fence() { nvshmem_fence(); }
extern "C" __global__ void k_inc(uint64_t *x, int pe) { nvshmem_uint64_atomic_inc(x, pe); }
extern "C" __global__ void k_fadd(int *x, int *out, int pe) { out[threadIdx.x] = nvshmem_int_atomic_fetch_add(x, 1, pe); }
extern "C" __global__ void k_cswap(int *x, int *out, int pe) { out[threadIdx.x] = nvshmem_int_atomic_compare_swap(x, 0, 1, pe); }
extern "C" __global__ void k_afetch(int *x, int *out, int pe) { out[threadIdx.x] = nvshmem_int_atomic_fetch(x, pe); }
extern "C" __global__ void k_aset(int *x, int pe) { nvshmem_int_atomic_set(x, 5, pe); }
extern "C" __global__ void k_wait(uint64_t *x, uint64_t v) { nvshmem_uint64_wait_until(x, NVSHMEM_CMP_GE, v); }
extern "C" __global__ void k_wait_int_eq(int *x, int v) { nvshmem_int_wait_until(x, NVSHMEM_CMP_EQ, v); }
extern "C" __global__ void k_wait_all(uint64_t *x, size_t n, uint64_t v) { nvshmem_uint64_wait_until_all(x, n, NULL, NVSHMEM_CMP_GE, v); }
extern "C" __global__ void k_test(int *x, int *out, int v) { out[0] = nvshmem_int_test(x, NVSHMEM_CMP_EQ, v); }
extern "C" __global__ void k_sigwait(uint64_t *x, uint64_t *out, uint64_t v) { out[0] = nvshmem_signal_wait_until(x, NVSHMEM_CMP_GE, v); }
extern "C" __global__ void k_sigop_set(uint64_t *x, int pe) { nvshmemx_signal_op(x, 1, NVSHMEM_SIGNAL_SET, pe); }
extern "C" __global__ void k_sigop_add(uint64_t *x, int pe) { nvshmemx_signal_op(x, 1, NVSHMEM_SIGNAL_ADD, pe); }
extern "C" __global__ void k_put_signal_nbi(float *d, const float *s, size_t n, uint64_t *sig, int pe) { nvshmem_float_put_signal_nbi(d, s, n, sig, 1, NVSHMEM_SIGNAL_SET, pe); }
extern "C" __global__ void k_sigfetch(uint64_t *x, uint64_t *out) { out[0] = nvshmem_signal_fetch(x); }
extern "C" __global__ void k_mype(int *out) { out[0] = nvshmem_my_pe() * 100 + nvshmem_n_pes(); }
extern "C" __global__ void k_barrier_all() { nvshmem_barrier_all(); }
