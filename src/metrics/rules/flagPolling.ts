/**
 * FlagPolling: Warpsight's own rules (ncu ships none) for the three flag-polling problems of seed 002's
 * handoff section, read from what the kernel executed (its SASS opcodes and the spin polls the memory
 * model counted, `warpsight__spin_polls`: strong loads that re-read an unchanged value):
 *  - systemScope: the polls fence at system scope (MEMBAR.*.SYS, LD/ST.E.STRONG.SYS) where device
 *    scope suffices for blocks of one GPU: a system fence costs membarSys, a device one membarGpu
 *    (the H200: 1159 vs 391 cycles; seq_cst handoff 646.6 us vs 414.3 us for device acquire/release);
 *  - seqCstPolls: every poll is a seq_cst load, a full fence.sc before the strong load, where an
 *    acquire load (the strong load and CCTL.IVALL) orders the data as well;
 *  - noBackoff: the kernel spins on a flag with no back-off at all (no NANOSLEEP in its code): use
 *    cuda::atomic::wait() (libcu++ polls, then sleeps with back-off) or __nanosleep in the loop.
 * Each is a small pure function of the rule context; each estimate is 'local': the share of the
 * synchronisation's own cost that the change removes.
 */
import type { InstructionCounters, RuleResult } from '../../../types/report.schema.js';
import { DEFAULT_MEMORY_MODEL } from '../../arch/types.js';
import { getArch } from '../../arch/index.js';
import { f, num } from './common.js';
import type { RuleContext } from './types.js';

export const id = 'FlagPolling';
export const section = 'WarpStateStats';

const executed = (i: InstructionCounters): number => Number(i.metrics['inst_executed'] ?? 0);
const sumWhere = (ins: readonly InstructionCounters[], p: (i: InstructionCounters) => boolean): number => ins.reduce((s, i) => (p(i) ? s + executed(i) : s), 0);

const isStrongLoad = (op: string): boolean => /^LDG?\.E[.\w]*\.STRONG\./.test(op);
const isMembar = (op: string, scope: string): boolean => op.startsWith('MEMBAR.') && op.endsWith(`.${scope}`);

/** the memory model's costs of the device the kernel ran on */
function costs(ctx: RuleContext) {
  try {
    const a = getArch(ctx.device.arch);
    return { mm: a.memoryModel ?? DEFAULT_MEMORY_MODEL, l2: a.latency.l2Hit };
  } catch {
    return { mm: DEFAULT_MEMORY_MODEL, l2: 280 };
  }
}

/** the strong loads that are seq_cst: a MEMBAR.SC is the first of the instructions built on their line before them */
function seqCstLoads(ins: readonly InstructionCounters[]): number {
  let n = 0;
  for (let k = 0; k < ins.length; k++) {
    const i = ins[k] as InstructionCounters;
    if (!isStrongLoad(i.opcode)) continue;
    // lowered as MEMBAR.SC.<s>; ERRBAR; CGAERRBAR; CCTL.IVALL; LD (memoryModel.ts semSlots)
    const fence = ins[k - 4];
    if (fence && fence.line === i.line && fence.opcode.startsWith('MEMBAR.SC.')) n += executed(i);
  }
  return n;
}

/** polls that found nothing new; the rules look at a kernel that spins: at least this many, and this share of its load requests */
export const MIN_SPIN_POLLS = 32;
export const MIN_SPIN_SHARE = 0.05;

/** the kernel's empty polls when it spins (0 when a wait is a brief one, as in seed 000's x/a/b) */
function polls(ctx: RuleContext): number {
  const spins = num(ctx.metrics, 'warpsight__spin_polls') ?? 0;
  const loads = num(ctx.metrics, 'l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum') ?? 0;
  return spins >= MIN_SPIN_POLLS && spins >= MIN_SPIN_SHARE * loads ? spins : 0;
}

export function systemScope(ctx: RuleContext): RuleResult | null {
  const spins = polls(ctx);
  if (spins === 0) return null;
  const ins = ctx.instructions;
  const sysFences = sumWhere(ins, (i) => isMembar(i.opcode, 'SYS'));
  const sysLoads = sumWhere(ins, (i) => isStrongLoad(i.opcode) && i.opcode.endsWith('.SYS'));
  if (sysFences === 0 && sysLoads === 0) return null;
  const { mm } = costs(ctx);
  // a system fence and the CCTL.IVALL behind it, against the same at device scope
  const sys = mm.membarSys + mm.ivallAfterMembar;
  const dev = mm.membarGpu + mm.ivallAfterMembar;
  const gain = sysFences > 0 ? 100 * (1 - dev / sys) : 0;
  return {
    id,
    section,
    type: 'OPT',
    title: 'System scope where device scope suffices',
    message:
      `The kernel polls memory with system-scope atomics: ${sysLoads} strong loads at system scope (LD.E.STRONG.SYS) and ${sysFences} system-scope fences (MEMBAR.*.SYS), ` +
      `${spins} polls of which found the value unchanged. A system-scope fence waits for the whole system (${f(mm.membarSys, 0)} cycles here against ${f(mm.membarGpu, 0)} at device scope). ` +
      'If the flag is shared only by threads of this GPU (no host thread, no peer GPU), use cuda::atomic_ref<T, cuda::thread_scope_device> (or cuda::atomic<T, thread_scope_device>): ' +
      `each fence of the synchronisation gets about ${f(gain, 0)}% cheaper.`,
    speedup: { type: 'local', value: gain },
  };
}

export function seqCstPolls(ctx: RuleContext): RuleResult | null {
  const spins = polls(ctx);
  if (spins === 0) return null;
  const ins = ctx.instructions;
  const sc = seqCstLoads(ins);
  if (sc === 0) return null;
  const { mm, l2 } = costs(ctx);
  const sys = sumWhere(ins, (i) => isMembar(i.opcode, 'SYS')) > 0;
  const fence = (sys ? mm.membarSys : mm.membarGpu) + mm.ivallAfterMembar;
  // an acquire load is the strong load and one CCTL.IVALL: the fence in front of each poll goes
  const gain = (100 * fence) / (fence + l2 + mm.ivall);
  return {
    id,
    section,
    type: 'OPT',
    title: 'seq_cst where acquire/release suffices',
    message:
      `${sc} atomic loads are seq_cst (the default memory order): each is a full fence (MEMBAR.SC; ERRBAR; CGAERRBAR; CCTL.IVALL) before the strong load, and the kernel re-read an unchanged value ${spins} times. ` +
      'A flag handoff needs only release on the store and acquire on the load: flag.store(v, cuda::std::memory_order_release) and flag.load(cuda::std::memory_order_acquire) ' +
      `(an acquire load is the strong load and an L1 invalidation). Each poll would take about ${f(gain, 0)}% less time.`,
    speedup: { type: 'local', value: gain },
  };
}

export function noBackoff(ctx: RuleContext): RuleResult | null {
  const spins = polls(ctx);
  if (spins === 0) return null;
  const ins = ctx.instructions;
  // a back-off anywhere in the code (atomic wait()'s, or the kernel's own __nanosleep) is a choice made
  if (ins.some((i) => i.opcode === 'NANOSLEEP')) return null;
  const loads = num(ctx.metrics, 'l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum') ?? 0;
  const all = num(ctx.metrics, 'smsp__inst_executed.sum') ?? 0;
  if (loads === 0 || all === 0) return null;
  const share = (100 * spins) / loads;
  // a spinning poll is about its strong load, an L1 invalidation, a compare and a branch
  const issued = Math.min(100, (100 * spins * 4) / all);
  return {
    id,
    section,
    type: 'OPT',
    title: 'Spinning without back-off',
    message:
      `The kernel spins on a flag: ${spins} polls (${f(share, 1)}% of its global load requests) found the value unchanged, and its code has no back-off (no NANOSLEEP). ` +
      'Spinning warps take issue slots and L2 bandwidth from the warps doing the work. Wait with flag.wait(old, cuda::std::memory_order_acquire) and flag.notify_all() on the store ' +
      '(libcu++ polls briefly, then backs off with __nanosleep), or put __nanosleep with a growing delay in the loop. ' +
      `About ${f(issued, 1)}% of the issued instructions are spent on polls that find nothing.`,
    speedup: { type: 'local', value: issued },
  };
}

export function flagPolling(ctx: RuleContext): RuleResult[] | null {
  const out = [systemScope(ctx), seqCstPolls(ctx), noBackoff(ctx)].filter((r): r is RuleResult => r !== null);
  return out.length ? out : null;
}
