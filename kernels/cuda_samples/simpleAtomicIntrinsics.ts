/**
 * cuda-samples 0_Introduction/simpleAtomicIntrinsics: 64 blocks of 256 threads each apply eleven
 * atomics to eleven ints (add, sub, exch, max, min, inc, dec, cas, and, or, xor), as the sample.
 *
 * Nine of the results are unused, so nvcc emits reductions (RED); atomicExch and atomicCAS stay
 * ATOM. nvcc also aggregates the uniform-address add, min, max, and, or and xor per warp (one leader
 * lane applies the warp's REDUX, or the active count times the value), and so does Warpsight's
 * compiler model (src/exec/atomicAggregation.ts); the counts of memory instructions are those of the
 * C either way: one per warp each.
 */
import { defineKernel, i32, ptr, u32 } from 'warpsight';

const THREADS = 256;
const BLOCKS = 64;

export const simpleAtomicsTestKernel = defineKernel({
  name: 'simpleAtomics_testKernel',
  description: 'eleven atomics on eleven ints by 16,384 threads (cuda-samples simpleAtomicIntrinsics)',
  params: { g_odata: ptr('global', i32) },
  launch: { grid: BLOCKS, block: THREADS },
  // ptxas: 24 registers
  registers: 24,
  // the sample's initial values: 0, except 0xff for the and and xor targets
  setup: (h) => ({ g_odata: h.alloc(i32, 11, 'g_odata', (i) => (i === 8 || i === 10 ? 0xff : 0)) }),
  // computeGold's checks that do not depend on the order of the atomics
  check: (h, { g_odata }, { grid, block }) => {
    const n = grid[0] * block[0];
    const r = (i: number) => h.readNumber(g_odata, i32, i);
    let and = 0xff;
    let xor = 0xff;
    for (let t = 0; t < n; t++) {
      and &= 2 * t + 7;
      xor ^= t;
    }
    const want: [number, number, string][] = [[0, 10 * n, 'add'], [1, -10 * n, 'sub'], [3, n - 1, 'max'], [4, 0, 'min'], [8, and, 'and'], [9, -1, 'or'], [10, xor, 'xor']];
    for (const [i, v, what] of want) if (r(i) !== v) return `g_odata[${i}] (${what}) = ${r(i)}, expected ${v}`;
    if (r(2) < 0 || r(2) >= n) return `g_odata[2] (exch) = ${r(2)}, not a thread index`;
    return null;
  },
  body: (k, { g_odata }) => {
    const tid = k.blockDim.x.mul(k.blockIdx.x).add(k.threadIdx.x);
    const t = tid.cast(i32);
    g_odata.at(0).reduce('add', 10); // atomicAdd(&g_odata[0], 10)
    g_odata.at(1).reduce('add', -10); // atomicSub(&g_odata[1], 10)
    g_odata.at(2).atomic('exch', t); // atomicExch(&g_odata[2], tid)
    g_odata.at(3).reduce('max', t); // atomicMax(&g_odata[3], tid)
    g_odata.at(4).reduce('min', t); // atomicMin(&g_odata[4], tid)
    g_odata.as(u32).at(5).reduce('inc', 17); // atomicInc((unsigned int *)&g_odata[5], 17)
    g_odata.as(u32).at(6).reduce('dec', 137); // atomicDec((unsigned int *)&g_odata[6], 137)
    g_odata.at(7).atomic('cas', t.sub(1), t); // atomicCAS(&g_odata[7], tid - 1, tid)
    g_odata.at(8).reduce('and', t.mul(2).add(7)); // atomicAnd(&g_odata[8], 2 * tid + 7)
    g_odata.at(9).reduce('or', k.i32(1).shl(t)); // atomicOr(&g_odata[9], 1 << tid)
    g_odata.at(10).reduce('xor', t); // atomicXor(&g_odata[10], tid)
  },
});

export default [simpleAtomicsTestKernel];
