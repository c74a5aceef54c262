// The family-1 kernels of ../../../../../shared/groundtruth/cuda/micro.cu whose warp instructions
// Warpsight counts one per warp off (test/fidelity/instructions.test.ts), and their neighbours for
// comparison, compiled as micro.cu was (nvcc -O3 -arch=sm_90) to read their SASS (run.sh).
#include <cstdint>
#include <cstddef>
__host__ __device__ __forceinline__ size_t pat_idx(int p, size_t i) {
  switch (p) {
    case 0: return i;
    case 1: return i + 1;
    case 2: return 2 * i;
    case 3: return 32 * i;
    case 5: return ((i >> 8) << 5) + (i & 31);
    default: return i & ~(size_t)31;
  }
}
#define GLD_KERNEL(TN, T, PAT, PN)                                     \
  __global__ void g_ld_##TN##_##PAT(const T* in, T* out) {            \
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;          \
    out[i] = in[pat_idx(PN, i)];                                       \
  }
GLD_KERNEL(u32, uint32_t, coalesced, 0)
GLD_KERNEL(u32, uint32_t, broadcast, 4)
GLD_KERNEL(u32, uint32_t, blockshared, 5)
template <typename T>
__host__ __device__ __forceinline__ T make_val(size_t i) { return (T)((i * 2654435761ull) | 1ull); }
#define GST_KERNEL(TN, T, PAT, PN)                                     \
  __global__ void g_st_##TN##_##PAT(T* out) {                          \
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;          \
    out[pat_idx(PN, i)] = make_val<T>(i);                              \
  }
GST_KERNEL(u32, uint32_t, coalesced, 0)
GST_KERNEL(u8, uint8_t, coalesced, 0)
GST_KERNEL(u16, uint16_t, coalesced, 0)
GST_KERNEL(u64, uint64_t, coalesced, 0)
