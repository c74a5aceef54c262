/**
 * Issue #43's speed figures in `npm run bench`: seed 003's Jacobi (float_p halos) on 8 PEs over a
 * 2048² grid, and the seed's four deadlocks from the run's start to the diagnosis. The target is
 * 100 iterations within 3 minutes; the bench runs 2 (the first launch of each PE is profiled, the rest
 * reuse its block times) and extrapolates the steady iterations, printing both.
 */
import { performance } from 'node:perf_hooks';
import { cpuUsage } from 'node:process';
import { profileFile } from '../../src/profile.js';
import { UserError } from '../../src/errors.js';

const ITER = 2;
const c0 = cpuUsage();
const t0 = performance.now();
await profileFile({ file: 'kernels/jacobi_nvshmem.ts', kernel: 'jacobi_p', params: { nx: '2048', ny: '2048', iterations: String(ITER) }, pes: 8 });
const wall = (performance.now() - t0) / 1000;
const cpu = (cpuUsage(c0).user + cpuUsage(c0).system) / 1e6;
// CPU time is the figure that holds on a shared machine (wall time grows with its load)
console.log(`jacobi_p on 8 PEs, 2048², ${ITER} iterations: ${wall.toFixed(1)} s wall, ${cpu.toFixed(1)} s CPU; 100 iterations would take about ${((100 * cpu) / ITER).toFixed(0)} s of CPU (target 180 s)`);
console.log(`multi_pe_jacobi_cpu_seconds_per_iteration: ${(cpu / ITER).toFixed(2)}`);

for (const [kernel, extra] of [
  ['circular_on_stream', {}],
  ['wait_holds_sms', {}],
  ['queue_in_order', { explore: true }],
  ['grid_sync_without_collective', {}],
] as const) {
  const t1 = performance.now();
  const c1 = cpuUsage();
  let said = '';
  try {
    await profileFile({ file: 'kernels/deadlocks.ts', kernel, timing: false, ...extra });
  } catch (e) {
    said = e instanceof UserError ? e.message.slice(0, 60) : String(e);
  }
  const used = cpuUsage(c1);
  console.log(`deadlock ${kernel}: diagnosed in ${Math.round(performance.now() - t1)} ms wall, ${Math.round((used.user + used.system) / 1000)} ms CPU (target 1,000 ms): ${said}…`);
}
