/**
 * Atomics on one address serialise at its L2 slice. Each kernel: 256 threads per block, 16 atomicAdds
 * per thread (the result kept, so each is an ATOMG that returns), and the addresses decide the time:
 *
 * - atom_same_address: every lane of every warp on one int. The slice applies one operation at a time
 *   (0.73 ns on the H200), so the 262,144 atomics of 64 blocks take 197 us, however many SMs issue them.
 * - atom_same_line: lane l on word l of one 128-byte line. A sector's distinct words are applied
 *   together: 4 operations per request, 26 us for the same 262,144 atomics.
 * - atom_warp_leader: one lane per warp on one int (a warp-aggregated counter, as
 *   cuda-samples warpAggregatedAtomicsCG): 1,056 blocks, 135,168 atomics in 104 us.
 *
 * The lesson: spread contended counters over addresses, or aggregate in the warp (or the block) first.
 * H200 figures: test/fidelity/probes/atomics (cudaEvent times, the same kernels in CUDA).
 *
 * The one address is written `p + (t >> 30)` (always p), as the probe writes it: for `atomicAdd(p, 1)`
 * itself nvcc aggregates the warp's atomics into one (the warp's count from its first lane:
 * src/exec/atomicAggregation.ts), and the slice would see 32 times fewer operations. That is the
 * compiler doing the lesson's second fix for you, where it can prove the address is the same.
 */
import { type DevicePtr, type Host, type KernelBuilder, type PtrVal, type Val, defineKernel, i32, ptr } from 'warpsight';

const ITERS = 16;
type Pattern = 'same_address' | 'same_line' | 'warp_leader';
const GRID: Record<Pattern, number> = { same_address: 64, same_line: 64, warp_leader: 1056 };

function atomics(k: KernelBuilder, p: PtrVal, pattern: Pattern, r: { set(v: Val): void; add(v: Val): Val }): void {
  const lane = k.threadIdx.x.and(31).cast(i32);
  // p[0], at an index 0 in every thread but not provably so (the probe's h = t >> 30); its address
  // computed once, before the loop, as nvcc hoists it
  const one = pattern === 'same_line' ? null : p.at(k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x).shr(30).cast(i32));
  k.for(0, ITERS, 1, () => {
    if (one === null) r.set(r.add(p.at(lane).atomic('add', 1)));
    else if (pattern === 'same_address') r.set(r.add(one.atomic('add', 1)));
    else k.if(lane.eq(0), () => r.set(r.add(one.atomic('add', 1))));
  });
}

function contention(pattern: Pattern) {
  const grid = GRID[pattern];
  return defineKernel({
    name: `atom_${pattern}`,
    description: `16 atomicAdds per thread, ${pattern.replace('_', ' ')}`,
    params: { p: ptr('global', i32), out: ptr('global', i32) },
    launch: { grid, block: 256 },
    registers: 16,
    setup: (h: Host) => ({ p: h.alloc(i32, 32, 'p'), out: h.alloc(i32, grid * 256, 'out') }),
    // every atomic added 1: the counters hold the number of atomics
    check: (h: Host, { p }: { p: DevicePtr }, { grid: g, block }) => {
      const threads = g[0] * block[0];
      const want = pattern === 'same_address' ? threads * ITERS : (threads / 32) * ITERS;
      const got = h.readNumber(p, i32, 0);
      return got === want ? null : `p[0] = ${got}, expected ${want}`;
    },
    body: (k, { p, out }) => {
      const r = k.let(i32, 0);
      atomics(k, p, pattern, r);
      // keep the results (the sample's `if (r == ...) p[...] = r`): one store per thread
      out.at(k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x)).store(r);
    },
  });
}

export default (['same_address', 'same_line', 'warp_leader'] as const).map(contention);
