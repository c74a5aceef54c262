/**
 * ThreadDivergence (ncu `ThreadDivergence.py`): fewer than 24 of a warp's 32 threads active, or not
 * predicated off, per executed instruction on average. Speedup = 1 − min(active, predicated-on)/32,
 * weighted by the compute throughput (global) when SOL is known. Lines = source lines whose
 * instructions average below the threshold or whose branches diverge.
 */
import type { RuleResult } from '../../../types/report.schema.js';
import { f, num, sortedLines, speedup } from './common.js';
import type { RuleContext } from './types.js';
import { solWeights } from './weights.js';

export const id = 'ThreadDivergence';
export const section = 'WarpStateStats';

const THRESHOLD = 24;
const WARP_SIZE = 32;

function divergentLines(ctx: RuleContext): number[] {
  const lines: number[] = [];
  for (const inst of ctx.instructions) {
    const executed = inst.metrics.inst_executed ?? 0;
    const threads = inst.metrics.thread_inst_executed_true ?? inst.metrics.thread_inst_executed;
    const divergent = inst.metrics.smsp__branch_targets_threads_divergent ?? 0;
    if (divergent > 0 || (executed > 0 && threads !== undefined && threads / executed < THRESHOLD)) {
      lines.push(inst.line);
    }
  }
  return sortedLines(lines);
}

export function threadDivergence(ctx: RuleContext): RuleResult | null {
  const active = num(ctx.metrics, 'smsp__thread_inst_executed_per_inst_executed.ratio');
  const predicatedOn = num(ctx.metrics, 'smsp__thread_inst_executed_pred_on_per_inst_executed.ratio');
  if (active === undefined || predicatedOn === undefined) return null;
  if (!(active < THRESHOLD || predicatedOn < THRESHOLD)) return null;

  let message =
    'Instructions are executed in warps, which are groups of 32 threads. Optimal instruction throughput is ' +
    'achieved if all 32 threads of a warp execute the same instruction. The chosen launch configuration, early ' +
    'thread completion, and divergent flow control can significantly lower the number of active threads in a ' +
    `warp per cycle. This workload achieves an average of ${f(active, 1)} threads being active per cycle.`;
  if (predicatedOn < active) {
    message +=
      ` This is further reduced to ${f(predicatedOn, 1)} threads per warp due to predication. The compiler may ` +
      'use predication to avoid an actual branch. Instead, all instructions are scheduled, but a per-thread ' +
      'condition code or predicate controls which threads execute the instructions. Try to avoid different ' +
      'execution paths within a warp when possible.';
  }
  const local = 1 - Math.min(active, predicatedOn) / WARP_SIZE;
  const sol = solWeights(ctx.metrics);
  return {
    id,
    section,
    type: 'OPT',
    message,
    speedup: sol === undefined ? speedup('local', local * 100) : speedup('global', local * sol.compute * 100),
    lines: divergentLines(ctx),
  };
}
