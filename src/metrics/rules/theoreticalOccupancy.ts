/**
 * TheoreticalOccupancy (ncu `TheoreticalOccupancy.py`): theoretical occupancy below 80 %, naming
 * the tightest block limit(s). Speedup = 1 − theoretical/max warps per scheduler, bounded by
 * IssueSlotUtilization (global) when that parent fired.
 */
import type { RuleResult } from '../../../types/report.schema.js';
import { f, int, nums, speedup } from './common.js';
import type { RuleContext } from './types.js';
import { boundedByIssueSlots } from './weights.js';

export const id = 'TheoreticalOccupancy';
export const section = 'Occupancy';

const LOW_THEORETICAL_THRESHOLD = 80;

/** ncu's limiter order (its LIMIT_TYPES enum) and texts */
const LIMITERS = [
  ['blocks', 'the number of blocks that can fit on the SM'],
  ['registers', 'the number of required registers'],
  ['shared_mem', 'the required amount of shared memory'],
  ['warps', 'the number of warps within each block'],
] as const;

/**
 * The limiter text, joined as the Python original joins it, including its slicing quirk
 * (`top[1:-2]`): with three tied limiters the middle one is dropped, with four the second and third
 * run together. Reproduced on purpose so the text matches ncu's.
 */
export function limiterText(descriptions: readonly string[]): string {
  const [first = '', ...rest] = descriptions;
  if (rest.length === 0) return first;
  const middle = descriptions.slice(1, -2).join(', ');
  return `${first}${middle}, and ${descriptions[descriptions.length - 1] ?? ''}`;
}

export function theoreticalOccupancy(ctx: RuleContext): RuleResult | null {
  const m = nums(ctx.metrics, {
    theoretical: 'smsp__maximum_warps_avg_per_active_cycle',
    max: 'smsp__warps_active.avg.peak_sustained',
    blocks: 'launch__occupancy_limit_blocks',
    registers: 'launch__occupancy_limit_registers',
    shared_mem: 'launch__occupancy_limit_shared_mem',
    warps: 'launch__occupancy_limit_warps',
  });
  if (m === undefined || m.max <= 0) return null;
  const maxWarps = Math.trunc(m.max);
  const pct = (m.theoretical / maxWarps) * 100;
  if (pct >= LOW_THEORETICAL_THRESHOLD) return null;

  const lowest = Math.min(...LIMITERS.map(([key]) => m[key]));
  const top = LIMITERS.filter(([key]) => m[key] === lowest).map(([, text]) => text);
  const estimate = boundedByIssueSlots(ctx.metrics, 1 - m.theoretical / maxWarps);
  return {
    id,
    section,
    type: 'OPT',
    message:
      `The ${f(m.theoretical, 2)} theoretical warps per scheduler this kernel can issue according to its occupancy ` +
      `are below the hardware maximum of ${int(maxWarps)}. This kernel's theoretical occupancy (${f(pct, 1)}%) is ` +
      `limited by ${limiterText(top)}.`,
    speedup: speedup(estimate.type, estimate.value),
  };
}
