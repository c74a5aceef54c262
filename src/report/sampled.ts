/**
 * How a sampled launch (`profile --sample`, src/profile/sample.ts) says so: one line for the console
 * and the kernel's notes (the JSON carries the figures as `kernels[].sampled`).
 */
import type { KernelResult } from '../../types/report.schema.js';

/** the report's note: what ran, and what was not */
export function sampledNote(s: NonNullable<KernelResult['sampled']>): string {
  const e = s.errorBound;
  const pct = (x: number): string => `${x.toFixed(2)} %`;
  return (
    `Sampled (--sample): ${s.blocksSimulated.toLocaleString('en-US')} of ${s.blocks.toLocaleString('en-US')} blocks ` +
    `(${((100 * s.blocksSimulated) / s.blocks).toFixed(1)} %) simulated in detail, in ${s.windows} windows of ${s.groups} groups, on a slice of ${s.sms} of ${s.smCount} SMs; ` +
    `counters extrapolated. Sampling error bound (95 %): instructions ±${pct(e.instructions)}, memory ±${pct(e.memory)}, DRAM ±${pct(e.dram)}, time ±${pct(e.time)}. ` +
    'Occupancy and launch limits are exact. The other blocks were not run: their outputs are not computed and the kernel\'s check was not run.'
  );
}

const NOT_SAMPLED = 'Not sampled (--sample): ';

/** the note of a launch `--sample` could not sample (too small a grid, a cooperative launch) */
export function notSampledNote(reason: string): string {
  return `${NOT_SAMPLED}${reason}; the launch ran exact.`;
}

export function isNotSampledNote(note: string): boolean {
  return note.startsWith(NOT_SAMPLED);
}
