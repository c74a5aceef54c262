/**
 * The full-size profiles the fidelity tests share (made once by test/setup/fidelityReports.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { KernelResult, Report } from '../../types/report.schema.js';
import { readReport } from '../../src/report/schema.js';

export interface FidelityRun {
  name: string;
  /** `warpsight profile` arguments */
  args: string[];
}

/**
 * The L2 probes' tests judge cache and DRAM counters only, never a duration: their runs leave the
 * timing model out (it only observes the interpreter, so every counter is the same; a quarter of their
 * time). test/e2e/noTiming.test.ts holds the counters equal.
 */
const COUNTERS_ONLY = ['--no-timing'];

/** the kernel files of kernels/cuda_samples/, measured in test/fidelity/groundtruth/cuda-samples */
export const CUDA_SAMPLES = [
  'convolutionSeparable',
  'sortingNetworks',
  'scan',
  'fastWalshTransform',
  'warpAggregatedAtomicsCG',
  'vectorAdd',
  'scalarProd',
  'threadFenceReduction',
  'shfl_scan',
  'simpleAtomicIntrinsics',
] as const;

/** the setup (test/setup/fidelityReports.ts) starts them longest first, by the seconds they took last */
export const FIDELITY_RUNS: readonly FidelityRun[] = [
  { name: 'l2_copy_lifetime', args: ['test/fidelity/probes/kernels/l2_copy_lifetime.ts', '--cache-control', 'none', ...COUNTERS_ONLY] },
  { name: 'global_loads', args: ['kernels/global_loads.ts', '-k', 'regex:^g_ld_'] },
  { name: 'l2_nearfar_reads', args: ['test/fidelity/probes/kernels/l2_nearfar.ts', '-k', 'l2nf_reads', '--cache-control', 'none', ...COUNTERS_ONLY] },
  { name: 'occupancy', args: ['kernels/occupancy.ts', '-k', 'regex:^occ_(smem|grid)_'] },
  { name: 'shared_loads', args: ['kernels/shared_loads.ts'] },
  { name: 'l2_copy_sweep_clean', args: ['test/fidelity/probes/kernels/l2_copy_sweep.ts', '-k', 'l2cs_clean', '--cache-control', 'none', ...COUNTERS_ONLY] },
  { name: 'transpose', args: ['kernels/transpose.ts'] },
  { name: 'l2_dirty_retention', args: ['test/fidelity/probes/kernels/l2_dirty_retention.ts', ...COUNTERS_ONLY] },
  { name: 'l2_residency', args: ['test/fidelity/probes/kernels/l2_residency.ts', '--cache-control', 'none', ...COUNTERS_ONLY] },
  { name: 'l2_drain', args: ['test/fidelity/probes/kernels/l2_drain.ts', '--cache-control', 'none', ...COUNTERS_ONLY] },
  ...['plain', 'setaside', 'annot', 'annotdiscard', 'window'].map((v) => ({ name: `l2_${v}`, args: ['kernels/l2_persistence.ts', '-k', `l2_${v}`, '--cache-control', 'none'] })),
  { name: 'l2_pushout_seed', args: ['test/fidelity/probes/kernels/l2_pushout.ts', '-k', 'l2po_seed', '--cache-control', 'none', ...COUNTERS_ONLY] },
  // timed: setaside.test.ts judges the stores' and the copy's durations by set-aside too
  { name: 'l2_setaside_sweep', args: ['test/fidelity/probes/kernels/l2_setaside.ts', '--cache-control', 'none'] },
  { name: 'l2_delay', args: ['test/fidelity/probes/kernels/l2_delay.ts'] },
  { name: 'l2_seed', args: ['test/fidelity/probes/kernels/l2_seed.ts', '--cache-control', 'none', ...COUNTERS_ONLY] },
  { name: 'l2_nearfar_stores', args: ['test/fidelity/probes/kernels/l2_nearfar.ts', '-k', 'l2nf_stores', '--cache-control', 'none', ...COUNTERS_ONLY] },
  { name: 'async_copies', args: ['kernels/async_copies.ts'] },
  { name: 'global_stores', args: ['kernels/global_stores.ts'] },
  { name: 'l2_copy_sweep', args: ['test/fidelity/probes/kernels/l2_copy_sweep.ts', '-k', 'l2cs_flushed', ...COUNTERS_ONLY] },
  { name: 'l2_pushout', args: ['test/fidelity/probes/kernels/l2_pushout.ts', '-k', 'l2po_seq', ...COUNTERS_ONLY] },
  { name: 'l2_store_merge', args: ['test/fidelity/probes/kernels/l2_store_merge.ts', ...COUNTERS_ONLY] },
  { name: 'l1_merge', args: ['test/fidelity/probes/kernels/l1_merge.ts', ...COUNTERS_ONLY] },
  { name: 'sync_reduce_shfl', args: ['kernels/reductions.ts', '-k', 'sync_reduce_shfl'] },
  { name: 'l2_replay_residue', args: ['test/fidelity/probes/kernels/l2_replay_residue.ts', ...COUNTERS_ONLY] },
  { name: 'l2_requests', args: ['test/fidelity/probes/kernels/l2_requests.ts', ...COUNTERS_ONLY] },
  { name: 'l2_survival', args: ['test/fidelity/probes/kernels/l2_survival.ts', '--cache-control', 'none', ...COUNTERS_ONLY] },
  { name: 'warp_specialization', args: ['kernels/warp_specialization.ts'] },
  // the cuda-samples suite (test/fidelity/cuda_samples.test.ts), each file at the size the H200 ran
  ...CUDA_SAMPLES.map((f) => ({ name: `cs_${f}`, args: [`kernels/cuda_samples/${f}.ts`] })),
  // shared accesses replayed by global traffic on their SM (test/fidelity/wavefronts.test.ts): probes 3-4 and the scan's variants
  { name: 'wavefronts_probe', args: ['test/fidelity/probes/kernels/wavefronts_probe.ts'] },
  { name: 'scan_variants', args: ['test/fidelity/probes/kernels/scan_variants.ts'] },
  // the register-pressure kernels are 66-302M warp instructions at full size: 4 waves of their 4/2/1 blocks per SM
  { name: 'occ_regs_32', args: ['kernels/occupancy.ts', '-k', 'occ_regs_32', '--grid', String(4 * 4 * 132)] },
  { name: 'occ_regs_64', args: ['kernels/occupancy.ts', '-k', 'occ_regs_64', '--grid', String(4 * 2 * 132)] },
  { name: 'occ_regs_128', args: ['kernels/occupancy.ts', '-k', 'occ_regs_128', '--grid', String(4 * 1 * 132)] },
];

export function reportPath(dir: string, name: string): string {
  return join(dir, `${name}.json`);
}

/** a shared full-size report by run name */
export function fidelityReport(name: string): Report {
  if (!FIDELITY_RUNS.some((r) => r.name === name)) throw new Error(`no fidelity run named ${name}`);
  return readReport(reportPath(inject('fidelityReports'), name));
}

/** the first launch named `name` in a shared report */
export function fidelityKernel(run: string, name: string): KernelResult {
  const k = fidelityReport(run).kernels.find((x) => x.name === name);
  if (!k) throw new Error(`fidelity run ${run} has no launch named ${name}`);
  return k;
}

/** every shared report's kernels by name (first launch of each name) */
export function fidelityKernels(): Map<string, { run: string; kernel: KernelResult }> {
  const out = new Map<string, { run: string; kernel: KernelResult }>();
  for (const r of FIDELITY_RUNS)
    for (const k of fidelityReport(r.name).kernels) if (!out.has(k.name)) out.set(k.name, { run: r.name, kernel: k });
  return out;
}

/** a profiler for `validate()` that hands back a shared report */
export function cachedProfiler(name: string): () => Promise<Report> {
  return async () => JSON.parse(readFileSync(reportPath(inject('fidelityReports'), name), 'utf8')) as Report;
}
