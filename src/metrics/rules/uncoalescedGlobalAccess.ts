/**
 * UncoalescedGlobalAccess (ncu `UncoalescedAccess.py`): global accesses that touch more L2 sectors
 * than the same active threads would with a coalesced pattern. Compares every instruction's
 * `memory_l2_theoretical_sectors_global` with its `…_ideal`; lines = the source lines with
 * excessive sectors. Speedup (global) = L2 active/elapsed cycles × excessive / total sectors.
 */
import type { RuleResult } from '../../../types/report.schema.js';
import { excessSpeedup, excessTotals, f, int, link } from './common.js';
import type { RuleContext } from './types.js';

export const id = 'UncoalescedGlobalAccess';
export const section = 'SourceCounters';

export function uncoalescedGlobalAccess(ctx: RuleContext): RuleResult | null {
  const t = excessTotals(ctx.instructions, 'memory_l2_theoretical_sectors_global', 'memory_l2_theoretical_sectors_global_ideal');
  // ncu: nothing to report when the kernel meets the ideal, and no verdict on unpaired metrics
  if (!t.paired || t.total <= t.ideal || t.differing <= 0) return null;

  const estimate = excessSpeedup(ctx.metrics, 'lts', t);

  return {
    id,
    section,
    type: 'OPT',
    message:
      `This kernel has uncoalesced global accesses resulting in a total of ${int(t.differing)} excessive sectors ` +
      `(${f((100 * t.differing) / t.total, 0)}% of the total ${int(t.total)} sectors). Check the L2 Theoretical ` +
      'Sectors Global Excessive table for the primary source locations. The ' +
      link('CUDA Programming Guide', 'https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#device-memory-accesses') +
      ' has additional information on reducing uncoalesced device memory accesses.',
    speedup: estimate,
    lines: t.lines,
  };
}
