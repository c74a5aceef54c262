/**
 * cuda-samples 0_Introduction/vectorAdd: C = A + B, one element per thread, with the bounds check.
 * One million floats (the sample adds 50,000; here 20 times as many, so that the time is the memory's
 * and not the launch's): 3,907 blocks of 256 threads, the last 6 warps find nothing to do.
 *
 *   __global__ void vectorAdd(const float *A, const float *B, float *C, int numElements) {
 *     int i = blockDim.x * blockIdx.x + threadIdx.x;
 *     if (i < numElements) C[i] = A[i] + B[i] + 0.0f;
 *   }
 */
import { defineKernel, f32, i32, ptr } from 'warpsight';
import { unitF } from './lib.js';

const N = 1_000_000;

export const vectorAdd = defineKernel({
  name: 'vectorAdd',
  description: 'C[i] = A[i] + B[i] + 0.0f for 1M floats (cuda-samples vectorAdd)',
  params: { A: ptr('global', f32), B: ptr('global', f32), C: ptr('global', f32), numElements: i32 },
  defaults: { numElements: N },
  launch: ({ numElements = N }) => ({ grid: Math.ceil(numElements / 256), block: 256 }),
  // ptxas: 12 registers; the H200 launches with 16 (groundtruth surprise 7)
  registers: 16,
  setup: (h, { numElements = N }) => ({
    A: h.alloc(f32, numElements, 'A', (i) => unitF(i, 0xa1)),
    B: h.alloc(f32, numElements, 'B', (i) => unitF(i, 0xb2)),
    C: h.alloc(f32, numElements, 'C', () => -1),
  }),
  // the sample checks every element against A + B (within 1e-5; the sum of two floats is exact here)
  check: (h, { A, B, C, numElements }) => {
    for (let i = 0; i < numElements; i += 997) {
      const want = Math.fround(h.readNumber(A, f32, i) + h.readNumber(B, f32, i));
      const got = h.readNumber(C, f32, i);
      if (got !== want) return `C[${i}] = ${got}, expected ${want}`;
    }
    return null;
  },
  body: (k, { A, B, C, numElements }) => {
    const i = k.blockDim.x.mul(k.blockIdx.x).add(k.threadIdx.x).cast(i32);
    // if (i < numElements): nvcc makes the skipped side an EXIT
    k.if(i.ge(numElements), () => k.return());
    C.at(i).store(A.at(i).get().add(B.at(i).get()).add(0.0));
  },
});

export default [vectorAdd];
