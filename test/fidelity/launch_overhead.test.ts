/**
 * Family 9 of the ground truth (launch overhead) through the runtime's mechanism: kernels/launch_overhead.ts
 * runs micro.cu's run_launch — 1000 launches of a 1-block kernel on a stream, the same 1000 captured
 * into a graph and replayed, launch + synchronize, cudaMalloc/kernel/cudaFree and
 * cudaMallocAsync/kernel/cudaFreeAsync — and times it with events and the host clock as micro.cu
 * does. Each figure within 15 % of the H200's median in launch_overhead.txt (the acceptance of the
 * runtime issue); the table is printed. The runtime's costs come from runtime_probe.cu on another
 * H200 and from family 9's own host-side figures (src/arch/runtimeCosts.ts says which).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { profileFile } from '../../src/profile.js';
import { GROUNDTRUTH } from './helpers.js';

function h200Medians(): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of readFileSync(join(GROUNDTRUTH, 'launch_overhead.txt'), 'utf8').split('\n')) {
    const m = /^LAUNCH (\S+) median=([\d.]+)/.exec(line);
    if (m) out.set(m[1] as string, Number(m[2]));
  }
  return out;
}

const FIGURES = [
  'stream_launch_gpu_us_per_kernel',
  'stream_launch_host_submit_us_per_kernel',
  'graph_replay_gpu_us_per_kernel',
  'launch_plus_sync_wall_us_per_kernel',
  'malloc_kernel_free_wall_us_per_iter',
  'mallocasync_kernel_freeasync_wall_us_per_iter',
  'mallocasync_kernel_freeasync_gpu_us_per_iter',
];

describe('family 9: launch overhead through the runtime', async () => {
  const report = await profileFile({ file: join(import.meta.dirname, '..', '..', 'kernels', 'launch_overhead.ts'), params: { reps: '1' } });
  const program = report.programs?.[0];
  const ours = new Map((program?.values ?? []).map((v) => [v.name, v.value]));
  const gt = h200Medians();
  const rows = FIGURES.map((f) => ({ f, h200: gt.get(f) as number, ours: ours.get(f) as number }));
  console.log(
    ['figure                                           H200 us   ours us   error', ...rows.map((r) => `${r.f.padEnd(48)} ${r.h200.toFixed(3).padStart(7)} ${r.ours.toFixed(3).padStart(9)} ${(((r.ours - r.h200) / r.h200) * 100).toFixed(1).padStart(6)} %`)].join('\n'),
  );

  it.each(rows)('$f within 15 % of the H200', ({ h200, ours: v }) => {
    expect(v).toBeGreaterThan(0);
    expect(Math.abs(v - h200) / h200).toBeLessThanOrEqual(0.15);
  });

  it('every launch ran: the counter is the number of launches that wrote it (micro.cu checks the same)', () => {
    // 20 warm-up + 1000 stream launches + 1000 graph nodes at the first replay + 1000 replayed + 200 launch+sync
    expect(ours.get('tiny_kernel_counter')).toBe(20 + 1000 + 1000 + 1000 + 200);
  });

  it('the graph is replayed, not relaunched: its kernels have no host launch each', () => {
    const t = program?.timeline;
    const graphKernels = t?.ops.filter((o) => o.kind === 'kernel' && o.graphLaunch !== undefined).length;
    const launches = t?.api.filter((a) => a.name === 'cudaGraphLaunch').length;
    expect(graphKernels).toBe(2000);
    expect(launches).toBe(2);
  });
});
