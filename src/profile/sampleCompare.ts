/**
 * A sampled launch's report entry against the exact one of the same kernel: the relative error of
 * every numeric metric and per-instruction counter, worst first (the sampled-mode test and `bench`).
 */
import type { KernelResult } from '../../types/report.schema.js';

export interface MetricError {
  id: string;
  exact: number;
  sampled: number;
  /** |sampled - exact| / |exact|; 0 when both are 0, Infinity when only the exact one is */
  error: number;
}

/** event counts: what the hardware counts (`.sum` of events), as opposed to ratios, rates and times derived from them */
export function isCounter(id: string): boolean {
  return id.endsWith('.sum') && !/(cycles|time_duration)/.test(id);
}

function relError(exact: number, sampled: number): number {
  if (exact === sampled) return 0;
  return exact === 0 ? Infinity : Math.abs(sampled - exact) / Math.abs(exact);
}

/** every numeric metric both have, and each instruction's counters (`inst[i].name`), worst first */
export function compareSampled(exact: KernelResult, sampled: KernelResult): MetricError[] {
  const out: MetricError[] = [];
  for (const [id, v] of Object.entries(exact.metrics)) {
    const w = sampled.metrics[id];
    if (typeof v !== 'number' || typeof w !== 'number') continue;
    out.push({ id, exact: v, sampled: w, error: relError(v, w) });
  }
  exact.instructions.forEach((ins, i) => {
    const other = sampled.instructions[i];
    for (const [name, v] of Object.entries(ins.metrics)) {
      const w = other?.metrics[name];
      if (typeof v !== 'number' || typeof w !== 'number') continue;
      out.push({ id: `inst[${ins.index}].${name}`, exact: v, sampled: w, error: relError(v, w) });
    }
  });
  return out.sort((a, b) => b.error - a.error || (a.id < b.id ? -1 : 1));
}

/** metrics that differ between the two although neither is extrapolated (occupancy, launch limits, device attributes) */
export function exactMismatches(exact: KernelResult, sampled: KernelResult): string[] {
  return Object.keys(exact.metrics).filter((id) => sampleClass(id) === 'exact' && exact.metrics[id] !== sampled.metrics[id]);
}

/**
 * What sampled mode claims for a metric, by class (README "Sampled simulation"):
 * - 'exact': occupancy, launch limits, device attributes: equal to the exact run's;
 * - 'writeBacks': DRAM write-backs and the DRAM totals and rates that include them: they come mostly
 *   from ncu's replay residue and lines pushed out of a full L2, a few hundred KB on the streaming
 *   kernels, which the slice's smaller L2 (loaded by the windows less evenly) pushes out up to ~2.5x
 *   as often;
 * - 'stall': warp-cycles of one stall reason (and its per-issue ratio): within 5 % where the reason
 *   holds at least 1 % of the warp cycles (smaller ones are a few thousand cycles of noise);
 * - 'l2Active': the L2 slices' active cycles (cycles with any traffic): at low L2 load a sixteenth of
 *   the traffic leaves more cycles idle (-11 % on the divergence kernels);
 * - 'counter': everything else, within 2 %.
 */
export type SampleClass = 'exact' | 'writeBacks' | 'stall' | 'l2Active' | 'counter';

export function sampleClass(id: string): SampleClass {
  if (/^(launch__|device__attribute_|sm__maximum_warps|smsp__maximum_warps)/.test(id) || id.includes('occupancy')) return 'exact';
  if (/^dram__(bytes|sectors)(_write)?\.sum/.test(id) || /dram_throughput|^dram__throughput|^gpu__compute_memory_(request_)?throughput/.test(id)) return 'writeBacks';
  if (/^smsp__(average_)?warps_issue_stalled_/.test(id)) return 'stall';
  if (/^lts__cycles_active/.test(id)) return 'l2Active';
  return 'counter';
}
