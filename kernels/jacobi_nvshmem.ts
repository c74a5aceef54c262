/**
 * Seed 003's multi-GPU Jacobi with NVSHMEM (NVIDIA multi-gpu-programming-models, nvshmem/jacobi.cu; the
 * same port measured on two H200s: test/fidelity/probes/nvshmem/jacobi_nvshmem.cu, RESULTS.md). Each PE
 * owns a slab of rows plus a halo row above and below (periodic in y); per iteration:
 *  - jacobi_p:     the kernel sends its edge rows element by element (nvshmem_float_p), then
 *                  nvshmemx_barrier_all_on_stream;
 *  - jacobi_block: the blocks holding an edge row put it at once (nvshmemx_float_put_nbi_block), then the barrier;
 *  - jacobi_p_nbr: float_p, then a <<<1,1>>> kernel that syncs with the two neighbours only (quiet, two
 *                  signal_op, wait_until_all) instead of a barrier of all PEs;
 *  - jacobi_host:  host-initiated: the kernel only computes, the halo rows go by two
 *                  nvshmemx_putmem_on_stream calls, then the barrier;
 *  - jacobi_graph: jacobi_p's iteration captured into two graphs (a and a_new swap) and replayed;
 *  - jacobi_fused: every iteration in ONE kernel launched with nvshmemx_collective_launch: halos by
 *                  put_nbi_block, then quiet, atomic_inc of a flag on both neighbours, and wait_until
 *                  the own flag counts theirs (in-kernel synchronisation: no barrier, no launch per step).
 * Every PE checks its rows against the single-GPU reference (the original's single_gpu(), computed on
 * the host here) and reports its time per iteration. Run on 1..8 PEs: `--pes 4`.
 *
 *   warpsight profile kernels/jacobi_nvshmem.ts -k jacobi_p --param nx=512 --param ny=512
 *
 * On two nodes (a PE each, InfiniBand between them) the float_p halos are one network message per
 * element: through NVSHMEM's default proxy thread (IBRC) an iteration is several times slower than
 * put_nbi_block's, with GPU-initiated IBGDA nearly as fast (seed 003: "without IBGDA ... aggregate"):
 *
 *   warpsight profile kernels/jacobi_nvshmem.ts -k jacobi_p --pes-per-node 1 --transport ibrc
 *   warpsight profile kernels/jacobi_nvshmem.ts -k jacobi_p --pes-per-node 1 --transport ibgda
 *   warpsight profile kernels/jacobi_nvshmem.ts -k jacobi_block --pes-per-node 1 --transport ibrc
 */
import { defineProgram, f32, type DevicePtr, type ProgramContext } from 'warpsight';
import { jacobiBlock, jacobiCompute, jacobiFused, jacobiP, syncNeighborhood } from './lib/jacobiNvshmem.js';

type Variant = 'p' | 'block' | 'p_nbr' | 'host' | 'graph' | 'fused';

/** y0 of a row: the sin() boundary of the original's initialize_boundaries, as its float computes it */
function boundary(globalRow: number, ny: number): number {
  const pi = Math.fround(2 * Math.asin(1));
  return Math.fround(Math.sin((2 * pi * globalRow) / (ny - 1)));
}

/** the reference fields computed so far: every PE of a run compares with the same one */
const references = new Map<string, Float32Array>();

/** the original's single_gpu(): rows 1 .. ny-4 updated, row 1 copied to row ny-2 and row ny-4 to row 0 each step */
export function referenceField(nx: number, ny: number, iterations: number): Float32Array {
  const key = `${nx}x${ny}x${iterations}`;
  const known = references.get(key);
  if (known) return known;
  const field = computeReference(nx, ny, iterations);
  references.set(key, field);
  return field;
}

function computeReference(nx: number, ny: number, iterations: number): Float32Array {
  let a = new Float32Array(nx * ny);
  let b = new Float32Array(nx * ny);
  for (let iy = 0; iy < ny - 2; iy++) {
    const y0 = boundary(iy, ny - 2);
    for (const f of [a, b]) {
      f[(iy + 1) * nx] = y0;
      f[(iy + 1) * nx + nx - 1] = y0;
    }
  }
  const iyStart = 1;
  const iyEnd = ny - 3;
  for (let it = 0; it < iterations; it++) {
    for (let iy = iyStart; iy < iyEnd; iy++)
      for (let ix = 1; ix < nx - 1; ix++) {
        const c = iy * nx + ix;
        const s = Math.fround(Math.fround(Math.fround((a[c + 1] as number) + (a[c - 1] as number)) + (a[c + nx] as number)) + (a[c - nx] as number));
        const v = Math.fround(s * 0.25);
        b[c] = v;
        if (iy === iyStart) b[(iyEnd + 1) * nx + ix] = v;
        if (iy === iyEnd - 1) b[(iyStart - 1) * nx + ix] = v;
      }
    [a, b] = [b, a];
  }
  return a;
}

async function run(ctx: ProgramContext, variant: Variant, nx: number, ny: number, iterations: number): Promise<void> {
  const { pe, npes } = ctx;
  // the original's split of the ny - 2 inner rows
  const low = Math.floor((ny - 2) / npes);
  const high = low + 1;
  const ranksLow = npes * low + npes - (ny - 2);
  const chunk = pe < ranksLow ? low : high;
  const a0 = ctx.shmem.malloc(nx * (high + 2) * 4, 'a');
  const aNew0 = ctx.shmem.malloc(nx * (high + 2) * 4, 'a_new');
  const sync = ctx.shmem.malloc(2 * 8, 'sync_arr');
  const l2 = ctx.malloc(4, 'l2_norm');
  const iyStartGlobal = pe < ranksLow ? pe * low + 1 : ranksLow * low + (pe - ranksLow) * high + 1;
  const iyEndGlobal = Math.min(iyStartGlobal + chunk - 1, ny - 4);
  const iyStart = 1;
  const iyEnd = iyEndGlobal - iyStartGlobal + 1 + iyStart;
  const topPe = pe > 0 ? pe - 1 : npes - 1;
  const bottomPe = (pe + 1) % npes;
  const topIy = topPe < ranksLow ? low + 1 : high + 1;
  const bottomIy = 0;
  // the field: zeros, and the left and right boundary of every row this PE holds (halos too)
  for (let iy = 0; iy < chunk; iy++) {
    const y0 = boundary(iyStartGlobal - 1 + iy, ny - 2);
    for (const f of [a0, aNew0]) {
      ctx.host.write(f, f32, (iy + 1) * nx, y0);
      ctx.host.write(f, f32, (iy + 1) * nx + nx - 1, y0);
    }
  }
  const s = ctx.streamCreate({ nonBlocking: true, name: 'compute' });
  await ctx.deviceSynchronize();
  await ctx.shmem.barrierAll();

  const gridP = { grid: [Math.ceil(nx / 32), Math.ceil(chunk / 32)] as [number, number], block: [32, 32] as [number, number] };
  const gridB = { grid: [Math.ceil(nx / 1024), chunk] as [number, number], block: [1024, 1] as [number, number] };
  const geometry = { iyStart, iyEnd, nx, topPe, topIy, bottomPe, bottomIy };
  let counter = 1;
  /** one iteration's work on the stream; `profile` only for the first (the report's entry per kernel) */
  const iteration = (a: DevicePtr, aNew: DevicePtr, profile: boolean): void => {
    const args = { aNew, a, l2, ...geometry };
    if (variant === 'block') ctx.launch(jacobiBlock, args, gridB, { stream: s, profile });
    else if (variant === 'host') {
      ctx.launch(jacobiCompute, args, gridP, { stream: s, profile });
      ctx.shmem.putmemOnStream(ctx.host.offset(aNew, f32, topIy * nx + 1), ctx.host.offset(aNew, f32, iyStart * nx + 1), (nx - 2) * 4, topPe, s);
      ctx.shmem.putmemOnStream(ctx.host.offset(aNew, f32, bottomIy * nx + 1), ctx.host.offset(aNew, f32, (iyEnd - 1) * nx + 1), (nx - 2) * 4, bottomPe, s);
    } else ctx.launch(jacobiP, args, gridP, { stream: s, profile });
    if (variant === 'p_nbr') ctx.launch(syncNeighborhood, { sync, counter: counter++ }, { grid: 1, block: 1 }, { stream: s, profile });
    else ctx.shmem.barrierAllOnStream(s);
  };

  const start = ctx.eventCreate();
  const end = ctx.eventCreate();
  let a = a0;
  let aNew = aNew0;
  ctx.eventRecord(start, s);
  if (variant === 'fused') {
    // one launch for the whole loop: every block co-resident (collective launch), at most one per SM;
    // the flag counts the neighbours' increments, zero before the launch (nvshmem_malloc'd, all PEs past the barrier above)
    const gx = gridB.grid[0];
    const gy = Math.max(1, Math.min(chunk, Math.floor(ctx.deviceAttribute('multiProcessorCount') / gx)));
    ctx.shmem.collectiveLaunch(jacobiFused, { aNew: aNew0, a: a0, l2, ...geometry, sync, iterations }, { grid: [gx, gy], block: [1024, 1] }, { stream: s });
    if (iterations % 2 === 1) [a, aNew] = [aNew0, a0];
  } else if (variant === 'graph') {
    // two graphs, as a and a_new swap (seed 003's "Capture Stream Work into a Graph")
    const graphs = [0, 1].map((i) => {
      ctx.streamBeginCapture(s);
      iteration(i === 0 ? a0 : aNew0, i === 0 ? aNew0 : a0, false);
      return ctx.graphInstantiate(ctx.streamEndCapture(s));
    });
    for (let it = 0; it < iterations; it++) ctx.graphLaunch(graphs[it % 2] as ReturnType<typeof ctx.graphInstantiate>, s);
    if (iterations % 2 === 1) [a, aNew] = [aNew0, a0];
  } else
    for (let it = 0; it < iterations; it++) {
      iteration(a, aNew, it === 0);
      [a, aNew] = [aNew, a];
    }
  ctx.eventRecord(end, s);
  await ctx.eventSynchronize(end);
  await ctx.shmem.barrierAll();
  ctx.value('time per iteration', (ctx.eventElapsedTime(start, end) * 1000) / iterations, 'us');

  // this PE's rows against the single-GPU reference, as the original compares them (rows before iy_end_global)
  const ref = referenceField(nx, ny, iterations);
  let maxDiff = 0;
  for (let iy = iyStartGlobal; iy < iyEndGlobal; iy++)
    for (let ix = 1; ix < nx - 1; ix++) {
      const got = ctx.host.readNumber(a, f32, (iy - iyStartGlobal + 1) * nx + ix);
      maxDiff = Math.max(maxDiff, Math.abs(got - (ref[iy * nx + ix] as number)));
    }
  ctx.value('max |difference| from the single-GPU reference', maxDiff);
}

const define = (variant: Variant, description: string) =>
  defineProgram({
    name: `jacobi_${variant}`,
    description,
    pes: 2,
    defaults: { nx: 256, ny: 256, iterations: 20 },
    run: (ctx, { nx, ny, iterations }) => run(ctx, variant, nx as number, ny as number, iterations as number),
  });

export const jacobiPProgram = define('p', 'float_p halos + barrier_all_on_stream per iteration');
export const jacobiBlockProgram = define('block', 'put_nbi_block halos + barrier_all_on_stream per iteration');
export const jacobiPNbrProgram = define('p_nbr', 'float_p halos + a neighbourhood sync kernel per iteration');
export const jacobiHostProgram = define('host', 'host-initiated: putmem_on_stream halos + barrier_all_on_stream per iteration');
export const jacobiGraphProgram = define('graph', "jacobi_p's iteration captured into graphs and replayed");
export const jacobiFusedProgram = define('fused', 'the whole loop in one collective launch: put_nbi_block halos, quiet + atomic_inc on the neighbours, wait_until');
