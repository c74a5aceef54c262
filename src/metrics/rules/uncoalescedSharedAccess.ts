/**
 * UncoalescedSharedAccess (ncu `UncoalescedSharedAccess.py`): shared accesses that need more
 * wavefronts than a conflict-free pattern (bank conflicts, seen per instruction). Compares every
 * instruction's `memory_l1_wavefronts_shared` with its `…_ideal`; lines = the source lines with
 * excessive wavefronts. Speedup (global) = L1TEX active/elapsed cycles × excessive / total.
 */
import type { RuleResult } from '../../../types/report.schema.js';
import { excessSpeedup, excessTotals, f, int, link } from './common.js';
import type { RuleContext } from './types.js';

export const id = 'UncoalescedSharedAccess';
export const section = 'SourceCounters';

export function uncoalescedSharedAccess(ctx: RuleContext): RuleResult | null {
  const t = excessTotals(ctx.instructions, 'memory_l1_wavefronts_shared', 'memory_l1_wavefronts_shared_ideal');
  if (!t.paired || t.total <= t.ideal || t.differing <= 0) return null;

  const estimate = excessSpeedup(ctx.metrics, 'l1tex', t);

  return {
    id,
    section,
    type: 'OPT',
    message:
      `This kernel has uncoalesced shared accesses resulting in a total of ${int(t.differing)} excessive wavefronts ` +
      `(${f((100 * t.differing) / t.total, 0)}% of the total ${int(t.total)} wavefronts). Check the L1 Wavefronts ` +
      'Shared Excessive table for the primary source locations. The ' +
      link(
        'CUDA Best Practices Guide',
        'https://docs.nvidia.com/cuda/cuda-c-best-practices-guide/index.html#shared-memory-in-matrix-multiplication-c-ab',
      ) +
      ' has an example on optimizing shared memory accesses.',
    speedup: estimate,
    lines: t.lines,
  };
}
