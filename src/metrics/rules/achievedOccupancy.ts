/**
 * AchievedOccupancy (ncu `AchievedOccupancy.py`): achieved occupancy more than 10 points below the
 * theoretical one (warp scheduling overheads, load imbalance). Speedup = (theoretical − achieved)
 * / theoretical, bounded by IssueSlotUtilization (global) when that parent fired.
 */
import type { RuleResult } from '../../../types/report.schema.js';
import { f, link, nums, speedup } from './common.js';
import type { RuleContext } from './types.js';
import { boundedByIssueSlots } from './weights.js';

export const id = 'AchievedOccupancy';
export const section = 'Occupancy';

const DIFFERENCE_THRESHOLD = 10;

export function achievedOccupancy(ctx: RuleContext): RuleResult | null {
  const m = nums(ctx.metrics, {
    theoretical: 'sm__maximum_warps_per_active_cycle_pct',
    achieved: 'sm__warps_active.avg.pct_of_peak_sustained_active',
  });
  if (m === undefined || m.theoretical <= 0) return null;
  if (m.theoretical - m.achieved <= DIFFERENCE_THRESHOLD) return null;
  const estimate = boundedByIssueSlots(ctx.metrics, (m.theoretical - m.achieved) / m.theoretical);
  return {
    id,
    section,
    type: 'OPT',
    message:
      `The difference between calculated theoretical (${f(m.theoretical, 1)}%) and measured achieved occupancy ` +
      `(${f(m.achieved, 1)}%) can be the result of warp scheduling overheads or workload imbalances during the ` +
      'kernel execution. Load imbalances can occur between warps within a block as well as across blocks of the ' +
      `same kernel. See the ${link('CUDA Best Practices Guide', 'https://docs.nvidia.com/cuda/cuda-c-best-practices-guide/index.html#occupancy')} ` +
      'for more details on optimizing occupancy.',
    speedup: speedup(estimate.type, estimate.value),
  };
}
