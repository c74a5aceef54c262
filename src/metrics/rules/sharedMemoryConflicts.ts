/**
 * SharedMemoryConflicts (ncu `SharedMemoryConflicts.py`): shared loads or stores whose bank
 * conflicts are at least 10 % of their wavefronts. Speedup = conflict share × L1TEX throughput
 * (global) when the throughput is known, else the conflict share (local). The message keeps ncu's
 * missing and doubled blanks ("requests.This", "conflicts,  which").
 */
import type { RuleResult } from '../../../types/report.schema.js';
import { f, num, sortedLines, speedup } from './common.js';
import type { RuleContext } from './types.js';

export const id = 'SharedMemoryConflicts';
export const section = 'MemoryWorkloadAnalysis_Tables';

const BANK_CONFLICTS_THRESHOLD = 10;
const L1TEX_THROUGHPUT = 'l1tex__throughput.avg.pct_of_peak_sustained_active';

const ACCESSES = [
  { name: 'Shared Load', op: 'ld', opcode: 'LDS' },
  { name: 'Shared Store', op: 'st', opcode: 'STS' },
] as const;

export function sharedMemoryConflicts(ctx: RuleContext): RuleResult[] | null {
  const { metrics } = ctx;
  const results: RuleResult[] = [];
  for (const access of ACCESSES) {
    // ncu requests these with default 0: a missing counter means "none"
    let requests = num(metrics, `smsp__sass_inst_executed_op_shared_${access.op}.sum`) ?? 0;
    if (access.op === 'ld') requests += num(metrics, 'smsp__inst_executed_op_ldsm.sum') ?? 0;
    if (requests === 0) continue;
    const wavefronts = num(metrics, `l1tex__data_pipe_lsu_wavefronts_mem_shared_op_${access.op}.sum`) ?? 0;
    const conflicts = num(metrics, `l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_${access.op}.sum`) ?? 0;
    const conflictPct = wavefronts > 0 ? (conflicts * 100) / wavefronts : 0;
    if (!(conflictPct >= BANK_CONFLICTS_THRESHOLD)) continue;

    const what = access.name.toLowerCase();
    const message =
      `The memory access pattern for ${what}s might not be optimal and causes on average a ` +
      `${f(wavefronts / requests, 1)} - way bank conflict across all ${f(requests, 0)} ${what} requests.` +
      `This results in ${f(conflicts, 0)} bank conflicts,  which represent ${f(conflictPct, 2)}% of the ` +
      `overall ${f(wavefronts, 0)} wavefronts for ${what}s. Check the Source Counters section for ` +
      `uncoalesced ${what}s.`;
    const l1tex = num(metrics, L1TEX_THROUGHPUT);
    const lines = sortedLines(
      ctx.instructions
        .filter((inst) => inst.opcode === access.opcode || inst.opcode.startsWith(`${access.opcode}.`))
        .filter((inst) => {
          const actual = inst.metrics.memory_l1_wavefronts_shared;
          const ideal = inst.metrics.memory_l1_wavefronts_shared_ideal;
          return actual !== undefined && ideal !== undefined && actual > ideal;
        })
        .map((inst) => inst.line),
    );
    results.push({
      id,
      section,
      type: 'OPT',
      title: `${access.name} Bank Conflicts`,
      message,
      speedup: l1tex === undefined ? speedup('local', conflictPct) : speedup('global', (conflictPct * l1tex) / 100),
      lines,
    });
  }
  return results.length > 0 ? results : null;
}
