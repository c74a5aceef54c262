/**
 * IssueSlotUtilization (ncu `IssueSlotUtilization.py`): schedulers issue on fewer than 60 % of
 * their cycles. Speedup (local) = 1 − issue rate, bounded by the headroom under the busiest unit
 * (1 − max SOL), which is also what it passes to its child rules (see weights.ts).
 */
import type { RuleResult } from '../../../types/report.schema.js';
import { f, int, nums, speedup } from './common.js';
import type { RuleContext } from './types.js';
import { ISSUE_ACTIVE_TARGET, issueSlotSpeedup } from './weights.js';

export const id = 'IssueSlotUtilization';
export const section = 'SchedulerStats';

/** below this share of theoretical warps, stalls (not imbalance) are the advice */
const ACTIVE_WARPS_RATIO = 0.8;

export function issueSlotUtilization(ctx: RuleContext): RuleResult | null {
  const m = nums(ctx.metrics, {
    issueActive: 'smsp__issue_active.avg.per_cycle_active',
    theoretical: 'smsp__maximum_warps_avg_per_active_cycle',
    active: 'smsp__warps_active.avg.per_cycle_active',
    eligible: 'smsp__warps_eligible.avg.per_cycle_active',
    max: 'smsp__warps_active.avg.peak_sustained',
  });
  // an issue rate of 0 would divide by zero in ncu's message; nothing ran, nothing to say
  if (m === undefined || !(m.issueActive > 0) || !(m.issueActive < ISSUE_ACTIVE_TARGET)) return null;

  let message =
    'Every scheduler is capable of issuing one instruction per cycle, but for this workload each scheduler only ' +
    `issues an instruction every ${f(1 / m.issueActive, 1)} cycles. This might leave hardware resources ` +
    'underutilized and may lead to less optimal performance. Out of the maximum of ' +
    `${int(Math.trunc(m.max))} warps per scheduler, this workload allocates an average of ${f(m.active, 2)} active ` +
    'warps per scheduler,';
  if (m.active < 1) {
    message += ' which already limits the scheduler to less than a warp per instruction.';
  } else {
    message +=
      ` but only an average of ${f(m.eligible, 2)} warps were eligible per cycle. Eligible warps are the subset ` +
      'of active warps that are ready to issue their next instruction. Every cycle with no eligible warp results ' +
      'in no instruction being issued and the issue slot remains unused.';
    message +=
      m.theoretical > 0 && m.active / m.theoretical < ACTIVE_WARPS_RATIO
        ? ' To increase the number of eligible warps, reduce the time the active warps are stalled by inspecting ' +
          'the top stall reasons on the Warp State Statistics and Source Counters sections.'
        : ' To increase the number of eligible warps, avoid possible load imbalances due to highly different ' +
          'execution durations per warp. Reducing stalls indicated on the Warp State Statistics and Source ' +
          'Counters sections can help, too.';
  }
  const improvement = issueSlotSpeedup(ctx.metrics) ?? 1 - m.issueActive;
  return { id, section, type: 'OPT', message, speedup: speedup('local', improvement * 100) };
}
