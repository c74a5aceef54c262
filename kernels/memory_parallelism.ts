/**
 * Memory-level parallelism within a warp: a latency-bound grid-stride sum (64 blocks of 128 threads
 * over 4M floats) with 1, 2, 4 or 8 independent loads per trip of its loop (`#pragma unroll 1` on the
 * loop, the inner `for j < L` unrolled):
 *
 *   for (; i < n; i += L * g)  for (j = 0; j < L; j++)  x += a[i + j * g];
 *
 * The C adds each value as it loads it, but ptxas schedules the trip's loads first and the adds after
 * them (SASS: L LDGs, then L FADDs), so a warp has L loads in flight and waits once per trip, at the
 * first add. The lesson: a loop whose trip waits for one load is bound by the memory latency; more
 * independent loads per trip (unrolling, or two elements per thread) hide it. On the H200
 * (test/fidelity/probes/mlp): 200, 118, 68 and 42 us for L = 1, 2, 4, 8.
 */
import { type DevicePtr, type Host, defineKernel, f32, i32, ptr } from 'warpsight';

const N = 1 << 22;
const GRID = 64;
const BLOCK = 128;

function sumKernel(loads: number) {
  return defineKernel({
    name: `mlp_loads_${loads}`,
    description: `grid-stride sum, ${loads} independent load${loads > 1 ? 's' : ''} per trip (the H200 overlaps them)`,
    params: { a: ptr('global', f32), o: ptr('global', f32), n: i32 },
    defaults: { n: N },
    launch: { grid: GRID, block: BLOCK },
    registers: 16,
    setup: (h: Host, { n = N }) => ({ a: h.alloc(f32, n, 'a', (i) => (i % 7) - 3), o: h.alloc(f32, GRID * BLOCK, 'o') }),
    // thread 0's sum: elements 0, g, 2g, … (every trip adds a[i + j*g] for j < L: the same elements)
    check: (h: Host, { a, o, n }: { a: DevicePtr; o: DevicePtr; n: number }, { grid, block }) => {
      const g = grid[0] * block[0];
      let want = 0;
      for (let i = 0; i < n; i += g) want += h.readNumber(a, f32, i);
      const got = h.readNumber(o, f32, 0);
      return got === want ? null : `o[0] = ${got}, expected ${want}`;
    },
    body: (k, { a, o, n }) => {
      const t = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x).cast(i32);
      const g = k.gridDim.x.mul(k.blockDim.x).cast(i32);
      const x = k.let(f32, 0);
      k.for(t, n, g.mul(loads), (i) => {
        for (let j = 0; j < loads; j++) x.set(x.add(a.at(j === 0 ? i : i.add(g.mul(j))).get()));
      });
      o.at(t).store(x);
    },
  });
}

export default [1, 2, 4, 8].map(sumKernel);
