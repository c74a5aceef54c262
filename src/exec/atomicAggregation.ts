/**
 * nvcc's warp aggregation of atomics to one address: an atomicAdd / Min / Max / And / Or / Xor whose
 * result is unused (a RED) and whose address is the same in every thread of the warp is done once per
 * warp, by a leader lane, on the warp's reduction of the operands. The cuda-samples
 * simpleAtomics_testKernel SASS (sass.txt.gz) has, for its seven such atomics: once, the leader
 * (`VOTEU.ANY UR4, UPT, PT; UFLO.U32 UR4, UR4; S2R R6, SR_LANEID; ISETP.EQ.U32.AND P0, PT, R6, UR4`)
 * and the active lanes' count (`POPC R8, UR4`); per atomic of a value the same in every thread
 * (atomicAdd(&g[0], 10)) the count times the value (`IMAD R9, R8, 0xa, RZ`); per atomic of a value
 * that differs, the warp's reduction and its move out of the uniform register (`REDUX.MAX.S32 UR8,
 * R3; IMAD.U32 R13, RZ, RZ, UR8`); then the RED, predicated on the leader. atomicExch, atomicCAS,
 * atomicInc and atomicDec are not aggregated (they stay one per thread); an atomic whose result is
 * used is aggregated otherwise (below).
 * The leader and the count are computed once per straight-line block (what the block's atomics
 * share: the same threads are active for all of them).
 *
 * An atomicAdd whose result is used (an ATOM), of a 32-bit integer to an address the same in every
 * thread, global or shared, is aggregated too, in one of two shapes (test/fidelity/probes/atomics/
 * ret_probe*.cu and their SASS; filter_arr's in the cuda-samples SASS):
 * - a value the same in every thread (atomicAdd(p, 1), (p, 5), (p, n), (p, blockIdx.x)): the leader
 *   (`S2R SR_LANEID; VOTEU.ANY; FLO.U32; ISETP.EQ.U32`) and the count (POPC) once per block, as for
 *   a RED, then `[IMAD count x value] @P ATOMG; ... SHFL.IDX` (the old value from the leader) and
 *   the thread's own `old + rank x value` (IADD3 for 1, IMAD otherwise), the rank
 *   (`S2R SR_LTMASK; LOP3.LUT; POPC`) once per block: no branch;
 * - a value that differs (atomicAdd(p, t), filter_arr's atomicAdd(counter, active.size())): a test
 *   at run time whether the whole warp is there (`VOTE.ANY R, PT, PT; ISETP.EQ.U32 P, R, -1`); if
 *   not, each thread's own atomic and a branch past the rest (`@!P ATOMG; @!P BRA`); if so, an
 *   inclusive scan of the values (a move, S2R SR_LANEID, ISETP lane == 31, five `SHFL.UP` each
 *   with its predicated add), lane 31's atomic of the total, and each thread's old value
 *   (`SHFL.UP 1; SHFL.IDX 31; @P IADD`): 17 instructions with the ATOMG, every time the atomic runs.
 *   Straight-line kernels show up to five more register moves in the scan (ptxas' allocation);
 *   filter_arr's and the loop's have none, nor does this model.
 * Not aggregated (the same probes): float and 64-bit adds, atomicOr/Max/Inc/Exch, an address ptxas
 * cannot prove the same (p + (t >> 30)). What "the same in every thread" means is Warpsight's
 * analysis (compile.ts uniformRegisters), not nvcc's: nvcc also takes a value loaded from one
 * address as uniform (add_ld), Warpsight takes no loaded value as uniform. An `.atomic()` whose
 * result nothing reads is C's atomicAdd with the result dropped, a RED to nvcc; the IR keeps it an
 * ATOM, which stays one per thread here. cuda::atomic_ref's ordered atomics were not measured: one
 * per thread.
 */
import { defsAndReaders } from '../ir/regUse.js';
import type { Instr, KernelIR, Operand } from '../ir/types.js';
import type { SassOp } from './intDivision.js';

type Atom = Extract<Instr, { op: 'atom' }>;

const AGGREGATED: ReadonlySet<Atom['fn']> = new Set(['add', 'min', 'max', 'and', 'or', 'xor']);
/** the RED's leader: the lane of the warp's first active thread, in a uniform register */
const LEADER: readonly SassOp[] = [
  { opcode: 'VOTEU.ANY', cls: 'warp' },
  { opcode: 'UFLO.U32', cls: 'alu' },
  { opcode: 'S2R', cls: 'move' },
  { opcode: 'ISETP.EQ.U32.AND', cls: 'alu' },
];
/**
 * An instruction of an aggregated ATOM's lowering. `sharedPipe`: it takes the shared-memory pipe
 * (SHFL, S2R SR_LANEID: kernelMetrics.ts passesSharedPipe)
 */
export interface AggregationOp extends SassOp {
  sharedPipe?: true;
}
/** an ATOM's leader: the same, its lane in a register for the SHFL.IDX that hands out the old value */
const ATOM_LEADER: readonly AggregationOp[] = [
  { opcode: 'S2R', cls: 'move', sharedPipe: true },
  { opcode: 'VOTEU.ANY', cls: 'warp' },
  { opcode: 'FLO.U32', cls: 'alu' },
  { opcode: 'ISETP.EQ.U32.AND', cls: 'alu' },
];
const COUNT: SassOp = { opcode: 'POPC', cls: 'alu' };
/** each thread's rank among the active threads: `S2R SR_LTMASK; LOP3.LUT; POPC` */
const RANK: readonly SassOp[] = [
  { opcode: 'S2R', cls: 'move' },
  { opcode: 'LOP3.LUT', cls: 'alu' },
  { opcode: 'POPC', cls: 'alu' },
];

/**
 * The run-time shape of a returning atomicAdd of a value that differs per thread (filter_arr's SASS):
 * `test` before the ATOMG every warp executes, then `@!P BRA` past the full-warp path; on that path
 * `scan` (each with the lanes its predicate leaves on, of 32), lane 31's ATOMG, then `result`.
 */
export interface ScanStep extends AggregationOp {
  /** lanes of a full warp for which the instruction is predicated on (absent: all 32) */
  lanes?: number;
}
export const SCAN_TEST: readonly SassOp[] = [
  { opcode: 'VOTE.ANY', cls: 'warp' },
  { opcode: 'ISETP.EQ.U32.AND', cls: 'alu' },
];
export const SCAN: readonly ScanStep[] = [
  { opcode: 'IMAD.MOV.U32', cls: 'move' },
  { opcode: 'S2R', cls: 'move', sharedPipe: true },
  { opcode: 'ISETP.EQ.U32.AND', cls: 'alu' },
  // SHFL.UP by 1, 2, 4, 8, 16 sets P in the lanes that have a lane that far below: they add
  ...[1, 2, 4, 8, 16].flatMap((d): ScanStep[] => [
    { opcode: 'SHFL.UP', cls: 'warp', sharedPipe: true },
    { opcode: 'IADD3', cls: 'alu', lanes: 32 - d },
  ]),
];
export const SCAN_RESULT: readonly ScanStep[] = [
  { opcode: 'SHFL.UP', cls: 'warp', sharedPipe: true },
  { opcode: 'SHFL.IDX', cls: 'warp', sharedPipe: true },
  { opcode: 'IADD3', cls: 'alu', lanes: 31 },
];

/** how nvcc aggregates a returning atomic: the instructions around the leader's ATOM, or the scan */
export type ReturningAggregation = { shape: 'count'; before: AggregationOp[]; after: AggregationOp[] } | { shape: 'scan' };

/** the REDUX of an aggregated atomic's operation (the default operation, and, has no suffix) */
function redux(a: Atom): string {
  const s32 = (a.fn === 'min' || a.fn === 'max') && a.type.kind === 'i32' ? '.S32' : '';
  return `REDUX${a.fn === 'add' ? '.SUM' : a.fn === 'and' ? '' : `.${a.fn.toUpperCase()}`}${s32}`;
}

const int32 = (a: Atom): boolean => a.type.kind === 'i32' || a.type.kind === 'u32';

/** whether an atomic is one nvcc aggregates across the warp */
export function aggregated(i: Instr, uniform: (o: Operand) => boolean): i is Atom {
  return i.op === 'atom' && i.dst === null && !i.sem && !i.remote && i.space === 'global' && AGGREGATED.has(i.fn) && int32(i) && uniform(i.addr);
}

/**
 * whether a returning atomic is one nvcc aggregates: an add of a 32-bit integer to one address, global
 * or shared (ret_probe's add_sh, add_1sh), at any scope (add_blkscope, add_sys); the ordered forms of
 * cuda::atomic_ref were not measured, and stay one per thread
 */
export function aggregatedReturning(i: Instr, uniform: (o: Operand) => boolean): boolean {
  return i.op === 'atom' && i.dst !== null && !i.sem && !i.remote && (i.space === 'global' || i.space === 'shared') && i.fn === 'add' && int32(i) && uniform(i.addr);
}

const isOne = (o: Operand): boolean => 'imm' in o && Number(o.imm) === 1;

export interface Aggregations {
  /** the REDs: the instructions each adds before its RED (the block's first carries the leader) */
  reds: Map<Instr, SassOp[]>;
  /** the returning atomicAdds */
  returning: Map<Instr, ReturningAggregation>;
}

/** the atomics nvcc aggregates across the warp, and how */
export function aggregations(kernel: KernelIR, uniform: (o: Operand) => boolean): Aggregations {
  const reds = new Map<Instr, SassOp[]>();
  const returning = new Map<Instr, ReturningAggregation>();
  // an ATOM whose result nothing reads is C's atomicAdd whose result is dropped: nvcc makes that a RED
  // (aggregated as one, above), which Warpsight's IR does not yet; it stays one ATOM per thread
  const { readers } = defsAndReaders(kernel);
  const block = (list: readonly Instr[]): void => {
    // what the block computed already (add_1red: a RED's leader serves the ATOM after it; add_1x2: two
    // ATOMs share leader, count and rank)
    let leader = false;
    let count = false;
    let rank = false;
    for (const i of list) {
      if (i.op === 'if') {
        block(i.then);
        if (i.else) block(i.else);
        // the threads after an if are those before it, but nvcc's leader was measured in straight code only
        leader = count = rank = false;
        continue;
      }
      if (i.op === 'loop') {
        // a loop computes them again in every trip (add_vloop, add_lead); ptxas hoists the two S2R
        // out of add_vloop's loop, which this model does not
        block(i.head);
        block(i.body);
        leader = count = rank = false;
        continue;
      }
      if (i.op === 'atom' && aggregatedReturning(i, uniform) && i.dst !== null && (readers.get(i.dst) ?? 0) > 0) {
        if (!uniform(i.a)) {
          returning.set(i, { shape: 'scan' });
          continue;
        }
        const before: AggregationOp[] = leader ? [] : [...ATOM_LEADER];
        if (!count) before.push(COUNT);
        // the count times the value (add_5's IMAD, add_n's, sub_1's negation): none for 1
        if (!isOne(i.a)) before.push({ opcode: 'IMAD', cls: 'alu' });
        const after: AggregationOp[] = rank ? [] : [...RANK];
        after.push({ opcode: 'SHFL.IDX', cls: 'warp', sharedPipe: true }, { opcode: isOne(i.a) ? 'IADD3' : 'IMAD', cls: 'alu' });
        leader = count = rank = true;
        returning.set(i, { shape: 'count', before, after });
        continue;
      }
      if (!aggregated(i, uniform)) continue;
      const ops: SassOp[] = leader ? [] : [...LEADER];
      leader = true;
      if (i.fn === 'add' && uniform(i.a)) {
        // the active lanes' count, once; times the value
        if (!count) ops.push(COUNT);
        count = true;
        ops.push({ opcode: 'IMAD', cls: 'alu' });
      } else ops.push({ opcode: redux(i), cls: 'warp' }, { opcode: 'IMAD.U32', cls: 'move' });
      reds.set(i, ops);
    }
  };
  block(kernel.body);
  return { reds, returning };
}
