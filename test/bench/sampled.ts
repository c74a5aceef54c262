/**
 * Issue #42 item 7, sampled mode (`profile --sample`, src/profile/sample.ts): per workload, its CPU
 * time sampled and exact (the process's CPU time, so that the figure holds on a shared machine; the
 * sampled run is the faster of two after a warm-up, the exact one a single run), the speed-up, and
 * its worst error against the exact run: over the metrics sampled mode holds to 2 % (every metric but
 * the classes src/profile/sampleCompare.ts names), and over every metric, each with the metric.
 * Prints `sampled_speedup: X` and `sampled_worst_counter_error_pct: Y` per workload.
 */
import type { KernelResult } from '../../types/report.schema.js';
import { profileFile, type ProfileRequest } from '../../src/profile.js';
import { compareSampled, sampleClass } from '../../src/profile/sampleCompare.js';

const WORKLOADS: { label: string; file: string; kernel: string }[] = [
  { label: 'memory-heavy', file: 'kernels/global_loads.ts', kernel: 'g_ld_u32_coalesced' },
  { label: 'ALU-heavy', file: 'kernels/fma_chain.ts', kernel: 'fma_chain' },
  { label: 'transpose', file: 'kernels/transpose.ts', kernel: 'sh_transpose_32x32_bd32x8' },
  { label: 'divergent', file: 'kernels/divergence.ts', kernel: 'div_intra_warp' },
];

async function timed(req: ProfileRequest): Promise<{ cpu: number; kernel: KernelResult }> {
  const c0 = process.cpuUsage();
  const report = await profileFile(req);
  const c = process.cpuUsage(c0);
  return { cpu: (c.user + c.system) / 1e6, kernel: report.kernels[0] as KernelResult };
}

const pct = (x: number): string => (Number.isFinite(x) ? (100 * x).toFixed(2) : 'inf');

for (const w of WORKLOADS) {
  const req = { file: w.file, kernel: w.kernel };
  await timed({ ...req, sample: true });
  const a = await timed({ ...req, sample: true });
  const b = await timed({ ...req, sample: true });
  const sampled = a.cpu <= b.cpu ? a : b;
  const exact = await timed(req);
  const s = sampled.kernel.sampled;
  if (!s) {
    console.log(`sampled ${w.label} (${w.file} -k ${w.kernel}): not sampled (grid too small), exact ${exact.cpu.toFixed(2)} s`);
    continue;
  }
  const errs = compareSampled(exact.kernel, sampled.kernel);
  const held = errs.find((e) => sampleClass(e.id) === 'counter');
  const any = errs[0];
  const speedup = exact.cpu / sampled.cpu;
  console.log(
    `sampled ${w.label} (${w.file} -k ${w.kernel}): ${s.blocksSimulated.toLocaleString('en-US')} of ${s.blocks.toLocaleString('en-US')} blocks on ${s.sms} SMs, ` +
      `${sampled.cpu.toFixed(2)} s vs exact ${exact.cpu.toFixed(2)} s of CPU (x${speedup.toFixed(1)}); ` +
      `worst error ${held ? `${pct(held.error)} % (${held.id})` : 'none'} among the counters held to 2 %, ${any ? `${pct(any.error)} % (${any.id})` : 'none'} over all metrics`,
  );
  console.log(`sampled_speedup: ${speedup.toFixed(1)}`);
  console.log(`sampled_worst_counter_error_pct: ${held ? pct(held.error) : '0.00'}`);
}
