/**
 * cuda-samples 2_Concepts_and_Techniques/scalarProd: 256 dot products of 4096-float vectors, 128
 * blocks of 256 threads (the sample's launch). Each block takes vectors blockIdx.x, +gridDim.x, …;
 * its threads accumulate ACCUM_N = 1024 partial sums (stride ACCUM_N through the vector, so a warp's
 * loads are coalesced) into shared memory, then a tree reduction halves them ten times.
 *
 * nvcc unrolls the constant-bound halving loop (ten steps, each a `for (iAccum = threadIdx.x; …)` loop)
 * and contracts `sum += a * b` into an FFMA. The `pos` loop, whose trip count is known only at run
 * time, is written as the C reads: the compiler model unrolls it as nvcc does (src/exec/runtimeUnroll.ts:
 * by 4 with the remainder first, then blocks of 16, 8 and 4; a thread's 4 trips are one block of 4,
 * its 8 loads in flight together, behind six branches).
 */
import { defineKernel, f32, i32, ptr } from 'warpsight';
import { unitF } from './lib.js';

const VECTOR_N = 256;
const ELEMENT_N = 4096;
const ACCUM_N = 1024;

export const scalarProdGPU = defineKernel({
  name: 'scalarProdGPU',
  description: '256 dot products of 4096 floats: per-thread partial sums, then a shared-memory tree (cuda-samples scalarProd)',
  params: { d_C: ptr('global', f32), d_A: ptr('global', f32), d_B: ptr('global', f32), vectorN: i32, elementN: i32 },
  defaults: { vectorN: VECTOR_N, elementN: ELEMENT_N },
  launch: { grid: 128, block: 256 },
  // ptxas: 32 registers (test/fidelity/groundtruth/cuda-samples/h200/build_ptxas.txt)
  registers: 32,
  setup: (h, { vectorN = VECTOR_N, elementN = ELEMENT_N }) => ({
    d_A: h.alloc(f32, vectorN * elementN, 'A', (i) => unitF(i, 0x5ca1)),
    d_B: h.alloc(f32, vectorN * elementN, 'B', (i) => unitF(i, 0x5ca2)),
    d_C: h.alloc(f32, vectorN, 'C'),
  }),
  // the sample compares with a CPU dot product (L1 relative error below 1e-6); here each sum within 1e-5
  check: (h, { d_A, d_B, d_C, vectorN, elementN }) => {
    for (let v = 0; v < vectorN; v += 17) {
      let s = 0;
      for (let e = 0; e < elementN; e++) s += h.readNumber(d_A, f32, v * elementN + e) * h.readNumber(d_B, f32, v * elementN + e);
      const got = h.readNumber(d_C, f32, v);
      if (Math.abs(got - s) > 1e-5 * s) return `d_C[${v}] = ${got}, expected ${s}`;
    }
    return null;
  },
  body: (k, { d_C, d_A, d_B, vectorN, elementN }) => {
    const accumResult = k.shared(f32, [ACCUM_N]);
    const tid = k.threadIdx.x.cast(i32);
    const bdim = k.blockDim.x.cast(i32);
    // for (int vec = blockIdx.x; vec < vectorN; vec += gridDim.x)
    k.for(k.blockIdx.x.cast(i32), vectorN, k.gridDim.x.cast(i32), (vec) => {
      const vectorBase = elementN.mul(vec); // IMUL(elementN, vec): __mul24
      const vectorEnd = vectorBase.add(elementN);
      k.for(tid, ACCUM_N, bdim, (iAccum) => {
        const sum = k.let(f32, 0);
        k.for(vectorBase.add(iAccum), vectorEnd, ACCUM_N, (pos) => sum.set(d_A.at(pos).get().fma(d_B.at(pos).get(), sum)));
        accumResult.at(iAccum).store(sum);
      });
      // for (int stride = ACCUM_N / 2; stride > 0; stride >>= 1): constant bounds, unrolled by nvcc
      for (let stride = ACCUM_N / 2; stride > 0; stride >>= 1) {
        k.syncthreads();
        k.for(tid, stride, bdim, (iAccum) => {
          const a = accumResult.at(iAccum);
          a.store(a.get().add(accumResult.at(iAccum.add(stride)).get()));
        });
      }
      k.syncthreads();
      k.when(tid.eq(0), () => d_C.at(vec).store(accumResult.at(0).get()));
    });
  },
});

export default [scalarProdGPU];
