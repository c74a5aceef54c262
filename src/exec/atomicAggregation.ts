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
 * atomicInc and atomicDec are not aggregated (they stay one per thread), nor atomics whose result is
 * used (the ATOM of filter_arr's atomicAggInc keeps its own shape).
 * The leader and the count are computed once per straight-line block (what the block's atomics
 * share: the same threads are active for all of them).
 */
import type { Instr, KernelIR, Operand } from '../ir/types.js';
import type { SassOp } from './intDivision.js';

type Atom = Extract<Instr, { op: 'atom' }>;

const AGGREGATED: ReadonlySet<Atom['fn']> = new Set(['add', 'min', 'max', 'and', 'or', 'xor']);
const LEADER: readonly SassOp[] = [
  { opcode: 'VOTEU.ANY', cls: 'warp' },
  { opcode: 'UFLO.U32', cls: 'alu' },
  { opcode: 'S2R', cls: 'move' },
  { opcode: 'ISETP.EQ.U32.AND', cls: 'alu' },
];

/** the REDUX of an aggregated atomic's operation (the default operation, and, has no suffix) */
function redux(a: Atom): string {
  const s32 = (a.fn === 'min' || a.fn === 'max') && a.type.kind === 'i32' ? '.S32' : '';
  return `REDUX${a.fn === 'add' ? '.SUM' : a.fn === 'and' ? '' : `.${a.fn.toUpperCase()}`}${s32}`;
}

/** whether an atomic is one nvcc aggregates across the warp */
export function aggregated(i: Instr, uniform: (o: Operand) => boolean): i is Atom {
  return i.op === 'atom' && i.dst === null && !i.sem && !i.remote && i.space === 'global' && AGGREGATED.has(i.fn) && (i.type.kind === 'i32' || i.type.kind === 'u32') && uniform(i.addr);
}

/** the instructions each aggregated atomic adds before its RED (the block's first carries the leader) */
export function aggregationExtras(kernel: KernelIR, uniform: (o: Operand) => boolean): Map<Instr, SassOp[]> {
  const out = new Map<Instr, SassOp[]>();
  const block = (list: readonly Instr[]): void => {
    let leader = false;
    let count = false;
    for (const i of list) {
      if (i.op === 'if') {
        block(i.then);
        if (i.else) block(i.else);
        // the threads after an if are those before it, but nvcc's leader was measured in straight code only
        leader = count = false;
        continue;
      }
      if (i.op === 'loop') {
        block(i.head);
        block(i.body);
        leader = count = false;
        continue;
      }
      if (!aggregated(i, uniform)) continue;
      const ops: SassOp[] = leader ? [] : [...LEADER];
      leader = true;
      if (i.fn === 'add' && uniform(i.a)) {
        // the active lanes' count, once; times the value
        if (!count) ops.push({ opcode: 'POPC', cls: 'alu' });
        count = true;
        ops.push({ opcode: 'IMAD', cls: 'alu' });
      } else ops.push({ opcode: redux(i), cls: 'warp' }, { opcode: 'IMAD.U32', cls: 'move' });
      out.set(i, ops);
    }
  };
  block(kernel.body);
  return out;
}
