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
  return Object.keys(exact.metrics)
    .filter((id) => /^(launch__|device__attribute_|sm__maximum_warps|smsp__maximum_warps)/.test(id) || id.includes('occupancy'))
    .filter((id) => exact.metrics[id] !== sampled.metrics[id]);
}
