/**
 * cuda-samples 2_Concepts_and_Techniques/threadFenceReduction, reduceSinglePass<128, true>: the sum
 * of 2^20 floats in one launch of 64 blocks of 128 threads (the sample's defaults). Each block sums
 * its share (two loads per trip of a grid-stride loop) and reduces it in shared memory; then
 * __threadfence() makes its partial sum visible, thread 0 takes a ticket with atomicInc, and the
 * block that draws the last ticket sums the 64 partial sums.
 *
 * reduceBlock<128>: a warp-synchronous tree on volatile shared memory (`if (vid < i)` with
 * tile32.sync() after each step; nvcc predicates the step), then thread 0 adds the warp results.
 * The sample's `__device__ unsigned int retirementCount` is a pointer argument here (the IR has
 * no __device__ variables).
 */
import { type DevicePtr, type Host, type KernelBuilder, type PtrVal, type Val, defineKernel, f32, i32, ptr, thisThreadBlock, u8, u32 } from 'warpsight';
import { hashMod } from './lib.js';

const N = 1 << 20;
const THREADS = 128;
const BLOCKS = 64;
const BLOCK_SIZE = 128; // the template argument blockSize

/** reduceBlock<blockSize>(volatile float *sdata, float mySum, const unsigned int tid, cta) */
function reduceBlock(k: KernelBuilder, sdata: PtrVal, mySum: Val, tid: Val): void {
  sdata.at(tid).store(mySum);
  k.syncwarp(); // cg::sync(tile32)
  const VEC = 32;
  const vid = tid.and(VEC - 1).cast(i32);
  const beta = k.let(f32, mySum);
  for (let i = VEC / 2; i > 0; i >>= 1) {
    k.when(vid.lt(i), () => {
      const temp = sdata.at(tid.add(i)).get();
      beta.set(beta.add(temp));
      sdata.at(tid).store(beta);
    });
    k.syncwarp();
  }
  k.syncthreads(); // cg::sync(cta)
  k.if(thisThreadBlock(k).threadRank().eq(0), () => {
    beta.set(0);
    k.for(0, k.blockDim.x.cast(i32), VEC, (i) => beta.set(beta.add(sdata.at(i).get())));
    sdata.at(0).store(beta);
  });
  k.syncthreads();
}

export const reduceSinglePass = defineKernel({
  name: 'reduceSinglePass',
  description: 'single-launch sum of 2^20 floats: block sums, __threadfence, atomicInc ticket, the last block adds them (cuda-samples threadFenceReduction)',
  params: { g_idata: ptr('global', f32), g_odata: ptr('global', f32), n: u32, retirementCount: ptr('global', u32) },
  defaults: { n: N },
  launch: { grid: BLOCKS, block: THREADS, dynamicShared: THREADS * 4 },
  // ptxas: 32 registers
  registers: 32,
  setup: (h: Host, { n = N }) => ({
    g_idata: h.alloc(f32, n, 'g_idata', valueAt),
    g_odata: h.alloc(f32, BLOCKS, 'g_odata'),
    retirementCount: h.alloc(u32, 1, 'retirementCount'),
  }),
  // the sample compares with a CPU sum (relative 1e-5 here: the order of the float additions differs)
  check: (h: Host, { g_odata, n }: { g_odata: DevicePtr; n: number }, { grid }) => {
    if (grid[0] !== BLOCKS) return null; // with another grid the inputs some blocks would read differ
    let want = 0;
    for (let i = 0; i < n; i++) want += valueAt(i);
    const got = h.readNumber(g_odata, f32, 0);
    return Math.abs(got - want) <= 1e-5 * want ? null : `sum = ${got}, expected ${want}`;
  },
  body: (k, { g_idata, g_odata, n, retirementCount }) => {
    // reduceBlocks<128, true>(g_idata, g_odata, n, cta)
    const sdata = k.dynamicShared(f32);
    const tid = k.threadIdx.x;
    const i = k.let(u32, k.blockIdx.x.mul(BLOCK_SIZE * 2).add(tid));
    const gridSize = k.gridDim.x.mul(BLOCK_SIZE * 2);
    const mySum = k.let(f32, 0);
    k.while(
      () => i.lt(n),
      () => {
        mySum.set(mySum.add(g_idata.at(i).get()));
        mySum.set(mySum.add(g_idata.at(i.add(BLOCK_SIZE)).get())); // nIsPow2: no bound check
        i.set(i.add(gridSize));
      },
    );
    reduceBlock(k, sdata, mySum, tid);
    k.when(tid.eq(0), () => g_odata.at(k.blockIdx.x).store(sdata.at(0).get()));

    k.if(k.gridDim.x.le(1), () => k.return());
    const amLast = k.shared(u8, [1]);
    k.membar('gpu'); // __threadfence()
    k.if(tid.eq(0), () => {
      const ticket = retirementCount.at(0).atomic('inc', k.gridDim.x);
      amLast.at(0).store(k.select(ticket.eq(k.gridDim.x.sub(1)), k.u32(1), k.u32(0)).cast(u8));
    });
    k.syncthreads();
    k.if(amLast.at(0).get().eq(0), () => k.return());
    const j = k.let(i32, tid.cast(i32));
    const sum = k.let(f32, 0);
    k.while(
      () => j.lt(k.gridDim.x.cast(i32)),
      () => {
        sum.set(sum.add(g_odata.at(j).get()));
        j.set(j.add(BLOCK_SIZE));
      },
    );
    reduceBlock(k, sdata, sum, tid);
    k.if(tid.ne(0), () => k.return());
    g_odata.at(0).store(sdata.at(0).get());
    retirementCount.at(0).store(0);
  },
});

/** samples.cu: (hash32(i ^ 0x7f) & 0xff) / 256 (the sample: (rand() & 0xFF) / RAND_MAX) */
function valueAt(i: number): number {
  return Math.fround((hashMod(i, 0x7f, 2 ** 32) & 0xff) / 256);
}

export default [reduceSinglePass];
