/**
 * The weights ncu's rule tree passes from parent to child rules (`fe.send_dict_to_children`),
 * recomputed here from metrics so that every rule stays a pure function of the kernel's results:
 *
 *   SOLBottleneck ──► {compute,memory,max}_throughput_normalized ──► IssueSlotUtilization, ThreadDivergence
 *   IssueSlotUtilization ──► issue_slot_util_speedup_normalized ──► Theoretical/AchievedOccupancy, CPIStall
 *
 * A child whose parent weight is present reports a *global* speedup bounded by it; without it,
 * a *local* one, exactly as the ncu rules do.
 */
import type { MetricValue } from '../../../types/report.schema.js';
import { num } from './common.js';

type Metrics = Readonly<Record<string, MetricValue>>;

export interface SolWeights {
  /** SM throughput as a fraction of peak */
  readonly compute: number;
  /** memory throughput as a fraction of peak */
  readonly memory: number;
  readonly max: number;
}

export const SM_THROUGHPUT = 'sm__throughput.avg.pct_of_peak_sustained_elapsed';
export const MEMORY_THROUGHPUT = 'gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed';

/** What SOLBottleneck sends to its children; undefined without both throughputs. */
export function solWeights(metrics: Metrics): SolWeights | undefined {
  const sm = num(metrics, SM_THROUGHPUT);
  const mem = num(metrics, MEMORY_THROUGHPUT);
  if (sm === undefined || mem === undefined) return undefined;
  return { compute: sm / 100, memory: mem / 100, max: Math.max(sm, mem) / 100 };
}

/** IssueSlotUtilization fires below this issue rate per scheduler and cycle */
export const ISSUE_ACTIVE_TARGET = 0.6;

/**
 * IssueSlotUtilization's estimated improvement as a fraction, bounded by the headroom left under
 * the busiest unit (1 − max SOL); undefined when the rule would not fire.
 */
export function issueSlotSpeedup(metrics: Metrics): number | undefined {
  const issueActive = num(metrics, 'smsp__issue_active.avg.per_cycle_active');
  if (issueActive === undefined || !(issueActive < ISSUE_ACTIVE_TARGET)) return undefined;
  let improvement = 1 - issueActive;
  const sol = solWeights(metrics);
  if (sol !== undefined) improvement = Math.min(improvement, 1 - sol.max);
  return improvement;
}

/** A child of IssueSlotUtilization: global min(parent, local) when the parent fired, else local. */
export function boundedByIssueSlots(metrics: Metrics, local: number): { type: 'local' | 'global'; value: number } {
  const parent = issueSlotSpeedup(metrics);
  return parent === undefined
    ? { type: 'local', value: local * 100 }
    : { type: 'global', value: Math.min(parent, local) * 100 };
}
