/**
 * cuda-samples 3_CUDA_Features/warpAggregatedAtomicsCG, filter_arr: keep the positive ints of an
 * array, appending them to dst through one counter with warp-aggregated atomics —
 *
 *   __device__ int atomicAggInc(int *counter) {
 *     cg::coalesced_group active = cg::coalesced_threads();
 *     int res = 0;
 *     if (active.thread_rank() == 0) res = atomicAdd(counter, active.size());  // one atomic per warp
 *     res = active.shfl(res, 0);
 *     return res + active.thread_rank();
 *   }
 *
 * 2^21 ints (the sample filters 10,000,000) in 0..4, so four in five are kept; the sample's launch:
 * blocks of 512, one element per thread (N / 512 + 1 blocks, the last one idle).
 * The C reads src[i] twice (the test and the copy), and so does the port; nvcc loads it once and
 * keeps it across the atomic on the counter (another argument), and so does Warpsight's compiler model
 * (src/exec/loadCse.ts): one LDG per element.
 */
import { type DevicePtr, type Host, type KernelBuilder, type PtrVal, type Val, coalescedThreads, defineKernel, i32, ptr } from 'warpsight';
import { hashMod } from './lib.js';

const NUM_ELEMS = 1 << 21;
const NUM_THREADS_PER_BLOCK = 512;

function atomicAggInc(k: KernelBuilder, counter: PtrVal): Val {
  const active = coalescedThreads(k);
  const res = k.let(i32, 0);
  k.if(active.threadRank().eq(0), () => res.set(counter.at(0).atomic('add', active.size().cast(i32))));
  const r = active.shfl(res, 0);
  return r.add(active.threadRank().cast(i32));
}

const srcAt = (i: number): number => hashMod(i, 0xf117, 5);

export const filterArr = defineKernel({
  name: 'filter_arr',
  description: 'stream compaction of the positive ints of 2M with a warp-aggregated atomic counter (cuda-samples warpAggregatedAtomicsCG)',
  params: { dst: ptr('global', i32), nres: ptr('global', i32), src: ptr('global', i32), n: i32 },
  defaults: { n: NUM_ELEMS },
  launch: ({ n = NUM_ELEMS }) => ({ grid: Math.floor(n / NUM_THREADS_PER_BLOCK) + 1, block: NUM_THREADS_PER_BLOCK }),
  // ptxas: 18 registers
  registers: 18,
  setup: (h: Host, { n = NUM_ELEMS }) => ({
    src: h.alloc(i32, n, 'src', srcAt),
    dst: h.alloc(i32, n, 'dst'),
    nres: h.alloc(i32, 1, 'nres'),
  }),
  // the sample checks the count; here also that the kept values sum as the positive inputs do
  check: (h: Host, { dst, nres, n }: { dst: DevicePtr; nres: DevicePtr; n: number }, { grid, block }) => {
    const last = Math.min(n, grid[0] * block[0]);
    let want = 0;
    let sum = 0;
    for (let i = 0; i < last; i++) {
      const v = srcAt(i);
      if (v > 0) {
        want++;
        sum += v;
      }
    }
    const got = h.readNumber(nres, i32, 0);
    if (got !== want) return `nres = ${got}, expected ${want} positive elements`;
    let gotSum = 0;
    for (let i = 0; i < got; i++) gotSum += h.readNumber(dst, i32, i);
    return gotSum === sum ? null : `the kept elements sum to ${gotSum}, expected ${sum}`;
  },
  body: (k, { dst, nres, src, n }) => {
    const id = k.threadIdx.x.add(k.blockIdx.x.mul(k.blockDim.x)).cast(i32);
    k.for(id, n, k.gridDim.x.mul(k.blockDim.x).cast(i32), (i) => {
      k.if(src.at(i).get().gt(0), () => {
        dst.at(atomicAggInc(k, nres)).store(src.at(i).get());
      });
    });
  },
});

export default [filterArr];
