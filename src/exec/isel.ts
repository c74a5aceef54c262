/**
 * Instruction selection for 32-bit integer arithmetic as ptxas makes it, so that a kernel written the
 * way the C reads counts what the H200 runs (issue #40; measured: test/fidelity/probes/isel/):
 * - division and remainder expand into their SASS sequences (src/exec/intDivision.ts), a remainder
 *   whose quotient was computed already into one or two instructions more (udivrem_v);
 * - a multiply whose only reader is an add or subtract fuses into it: one IMAD (imad_vv, imad_sub),
 *   a LEA when the multiplier is a power of two (imad_shl), plus a move when both the multiplier and
 *   the addend are constants (IMAD encodes one immediate: imad_c's HFMA2.MMA);
 * - a byte or 16-bit load widens the value as it loads (LDG.E.U8 / .S8 zero- or sign-extend): its
 *   conversion to a 32-bit integer is no instruction (byte_u8, byte_s8); a byte pointer indexed by a
 *   32-bit value is a 64-bit add, two instructions;
 * - an expression computed again from the same values is computed once (cse_twice and cse_once: the
 *   same SASS): a repeat of a pure instruction, where the first dominates it, is no instruction;
 * - a parameter no instruction reads is not loaded;
 * - an atomic to one address for the whole warp, its result unused, is the warp's, and so is an atomicAdd
 *   whose result is used (atomicAggregation.ts).
 * 64-bit integer arithmetic is src/exec/wideInt.ts's; what it decides for an instruction stands
 * unless this module has a choice for it.
 */
import { readsOf, regs, writesOf, writtenIn } from '../ir/regUse.js';
import type { Instr, KernelIR, Operand, ValueType } from '../ir/types.js';
import { isSigned } from '../ir/typesys.js';
import { aggregations, type ReturningAggregation } from './atomicAggregation.js';
import { LATE_RECIPROCAL, LATE_REMAINDER_AFTER_QUOTIENT, constantDivision, lateConstantDivision, remainderAfterQuotient, type SassOp, variableDivision } from './intDivision.js';

export interface IselChoice {
  /** SASS opcode (and class) instead of the instruction's own */
  opcode?: string;
  cls?: SassOp['cls'];
  /** part of another instruction: not counted */
  folded?: boolean;
  /**
   * a folded instruction's result is another register's value (a repeat), or made by the instruction
   * its operands feed (a multiply fused into its add): what a reader waits for instead
   */
  standsFor?: readonly number[];
  /** the instructions it takes beyond its first */
  extras?: readonly SassOp[];
  /** an atomic nvcc aggregates across the warp: one RED from a leader lane reaches the L2 (atomicAggregation.ts) */
  warpAggregated?: boolean;
  /** a returning atomicAdd nvcc aggregates across the warp, and its shape (atomicAggregation.ts) */
  returning?: ReturningAggregation;
}

const int32 = (t: ValueType): boolean => t.tag === 'scalar' && (t.kind === 'i32' || t.kind === 'u32');
const narrowInt = (t: ValueType): boolean => t.tag === 'scalar' && (t.kind === 'i8' || t.kind === 'u8' || t.kind === 'i16' || t.kind === 'u16');
const immOf = (o: Operand): number | null => ('imm' in o ? Number(o.imm) : null);
const isPow2 = (x: number): boolean => Number.isInteger(x) && x > 0 && (x & (x - 1)) === 0;

/** pure arithmetic whose repeat computes the same value (a repeat of a constant is a move of its own) */
const PURE: ReadonlySet<Instr['op']> = new Set(['unary', 'binary', 'cmp', 'fma', 'select', 'cvt', 'bitcast', 'lea']);

function operandKey(o: Operand): string {
  const t = o.type.tag === 'scalar' ? o.type.kind : `p${o.type.space}`;
  return 'imm' in o ? `#${String(o.imm)}:${t}` : `r${o.reg}`;
}

/** the value an instruction computes, as a key two equal computations share (null: not pure) */
function valueKey(i: Instr, operandKey: (o: Operand) => string): string | null {
  if (!PURE.has(i.op)) return null;
  const t = 'type' in i && i.type ? (i.type.tag === 'scalar' ? i.type.kind : `p${i.type.space}:${JSON.stringify(i.type.elem)}`) : '';
  switch (i.op) {
    case 'unary':
      return i.fn === 'mov' ? null : `u:${i.fn}:${t}:${operandKey(i.a)}`;
    case 'binary':
      return `b:${i.fn}:${t}:${operandKey(i.a)}:${operandKey(i.b)}`;
    case 'cmp':
      return `c:${i.fn}:${operandKey(i.a)}:${operandKey(i.b)}`;
    case 'fma':
      return `f:${t}:${operandKey(i.a)}:${operandKey(i.b)}:${operandKey(i.c)}`;
    case 'select':
      return `s:${t}:${operandKey(i.cond)}:${operandKey(i.a)}:${operandKey(i.b)}`;
    case 'cvt':
      return `v:${t}:${operandKey(i.a)}`;
    case 'bitcast':
      return `x:${t}:${operandKey(i.a)}`;
    case 'lea':
      return `l:${t}:${i.scale}:${operandKey(i.base)}:${operandKey(i.index)}`;
    default:
      return null;
  }
}

/**
 * The choices for a kernel's 32-bit integer arithmetic. `uniform` tells whether a register holds the
 * same value in every thread (compile.ts uniformRegisters).
 */
export function iselChoices(kernel: KernelIR, uniform: (o: Operand) => boolean): Map<Instr, IselChoice> {
  const out = new Map<Instr, IselChoice>();
  const mutable = (r: number): boolean => kernel.regs[r]?.mutable === true;
  const defs = new Map<number, Instr[]>();
  const users = new Map<number, Instr[]>();
  /** the list each instruction is in: a multiply fuses into an add of its own block only */
  const blockOf = new Map<Instr, readonly Instr[]>();
  const push = (m: Map<number, Instr[]>, r: number, i: Instr): void => {
    const l = m.get(r);
    if (l) l.push(i);
    else m.set(r, [i]);
  };
  const flat = (list: readonly Instr[]): void => {
    for (const i of list) {
      blockOf.set(i, list);
      for (const r of writesOf(i)) push(defs, r, i);
      for (const r of i.op === 'if' || i.op === 'loop' ? regs(i.cond) : readsOf(i)) push(users, r, i);
      if (i.op === 'if') {
        flat(i.then);
        if (i.else) flat(i.else);
      } else if (i.op === 'loop') {
        flat(i.head);
        flat(i.body);
      }
    }
  };
  flat(kernel.body);
  /** the one instruction that defines an SSA register (null: a variable, or several) */
  const def = (o: Operand): Instr | null => {
    if (!('reg' in o) || mutable(o.reg)) return null;
    const d = defs.get(o.reg);
    return d?.length === 1 ? (d[0] as Instr) : null;
  };
  const usersOf = (r: number): Instr[] => users.get(r) ?? [];
  const ssa = (o: Operand): boolean => 'imm' in o || !mutable(o.reg);

  // common subexpressions: walk the structured body with the values each point is dominated by; a
  // repeat's result is the first's value, so what reads it repeats what read the first (value numbering)
  const canon = new Map<number, number>();
  const canonical = (i: Instr): Instr => {
    const sub = (o: Operand): Operand => ('reg' in o && canon.has(o.reg) ? { reg: canon.get(o.reg) as number, type: o.type } : o);
    switch (i.op) {
      case 'unary':
      case 'cvt':
      case 'bitcast':
        return { ...i, a: sub(i.a) };
      case 'binary':
      case 'cmp':
        return { ...i, a: sub(i.a), b: sub(i.b) };
      case 'fma':
        return { ...i, a: sub(i.a), b: sub(i.b), c: sub(i.c) };
      case 'select':
        return { ...i, cond: sub(i.cond), a: sub(i.a), b: sub(i.b) };
      case 'lea':
        return { ...i, base: sub(i.base), index: sub(i.index) };
      default:
        return i;
    }
  };
  // a variable is known by its version: each write makes a new one (after an if or a loop, every
  // variable written inside; inside a loop, every variable it writes, as the back edge brings them)
  const version = new Map<number, number>();
  const bump = (list: readonly Instr[]): void => {
    for (const r of writtenIn(list)) version.set(r, (version.get(r) ?? 0) + 1);
  };
  const versioned = (o: Operand): string => ('reg' in o && mutable(o.reg) ? `m${o.reg}@${version.get(o.reg) ?? 0}` : operandKey(o));
  const available = (list: readonly Instr[], outer: Map<string, number>): void => {
    const seen = new Map(outer);
    for (const i of list) {
      const k = valueKey(canonical(i), versioned);
      if (k !== null) {
        const dst = writesOf(i)[0];
        const first = seen.get(k);
        if (first !== undefined && dst !== undefined && !mutable(dst)) {
          out.set(i, { folded: true, standsFor: [first] });
          canon.set(dst, first);
        } else if (dst !== undefined && !mutable(dst)) seen.set(k, dst);
      }
      if (i.op === 'if') {
        available(i.then, seen);
        if (i.else) available(i.else, seen);
        bump([i]);
      } else if (i.op === 'loop') {
        bump([i]);
        // the head runs before the body: what it computes is known there
        available([...i.head, ...i.body], seen);
        bump([i]);
      } else bump([i].filter((x) => writesOf(x).some(mutable)));
    }
  };
  available(kernel.body, new Map());

  /**
   * the constant nvcc's front end does not know (k.warpSize) an operand is, through same-width
   * integer casts (free): ptxas knows it, so that arithmetic on it alone is folded, but a division
   * by it keeps the division sequence (src/exec/intDivision.ts lateConstantDivision)
   */
  const opaqueConst = (o: Operand, depth = 0): Instr | null => {
    const d = def(o);
    if (d === null || depth > 16) return null;
    if (d.op === 'const') return d.opaque ? d : null;
    if ((d.op === 'cvt' || d.op === 'bitcast') && int32(d.type) && int32(d.a.type)) return opaqueConst(d.a, depth + 1);
    if (d.op === 'binary' && int32(d.type) && [d.a, d.b].every((x) => 'imm' in x || opaqueConst(x, depth + 1) !== null)) return opaqueConst('imm' in d.a ? d.b : d.a, depth + 1);
    return null;
  };
  const isDivision = (i: Instr): boolean => i.op === 'binary' && (i.fn === 'div' || i.fn === 'rem') && int32(i.type);
  /** the opaque constants some division divides by: their reciprocal is computed once, at the kernel's entry */
  const reciprocals = new Set<Instr>();
  for (const i of blockOf.keys()) {
    const ci = canonical(i);
    const c = ci.op === 'binary' && isDivision(ci) ? opaqueConst(ci.b) : null;
    if (c !== null) reciprocals.add(c);
  }

  // atomics nvcc aggregates across the warp (src/exec/atomicAggregation.ts): the leader, the count
  // or the warp's reduction before the RED
  const agg = aggregations(kernel, uniform);
  for (const [i, extras] of agg.reds) out.set(i, { extras, warpAggregated: true });
  for (const [i, returning] of agg.returning) out.set(i, { returning });
  // an atomic's value operands are registers: an immediate one is a move first (simpleAtomics'
  // atomicInc(&g[5], 17): MOV R19, 0x11; atomicDec(&g[6], 137): IMAD.MOV.U32 R21, RZ, RZ, 0x89)
  for (const i of blockOf.keys()) {
    // (measured on atomicXxx, the relaxed intrinsics; cuda::atomic_ref's ordered forms keep the SASS
    // their own tests read: test/exec/memoryModel.test.ts)
    if (i.op !== 'atom' || out.has(i) || i.remote || i.sem) continue;
    const moves = [i.a, ...(i.b ? [i.b] : [])].filter((o) => 'imm' in o).map((): SassOp => ({ opcode: 'MOV', cls: 'move' }));
    if (moves.length > 0) out.set(i, { extras: moves });
  }

  const quotients = new Map<string, Instr>();
  for (const [i, list] of blockOf) {
    if (out.has(i)) continue;
    // k.warpSize: an immediate to ptxas, and where a division divides by it, its reciprocal (computed
    // where the value is defined: at the kernel's entry, once for every division, as nvcc hoists it)
    if (i.op === 'const' && i.opaque) {
      const [first, ...rest] = LATE_RECIPROCAL;
      out.set(i, reciprocals.has(i) && first ? { opcode: first.opcode, cls: first.cls, extras: rest } : { folded: true });
      continue;
    }
    // a shift of a constant by a value: SHF shifts a register, so the constant is a move first
    // (simpleAtomics' 1 << tid: HFMA2.MMA R2, -RZ, RZ, 0, 5.96e-08; SHF.L.U32 R2, R2, R3, RZ)
    if (i.op === 'binary' && (i.fn === 'shl' || i.fn === 'shr') && int32(i.type) && 'imm' in i.a && 'reg' in i.b && opaqueConst(i.b) === null) {
      out.set(i, { extras: [{ opcode: 'HFMA2.MMA', cls: 'move' }] });
      continue;
    }
    // arithmetic on it and constants alone is a constant to ptxas (`warpSize - 1`: 0x1f)
    if (i.op === 'binary' && int32(i.type) && !isDivision(i) && [i.a, i.b].every((x) => 'imm' in x || opaqueConst(x) !== null) && ![i.a, i.b].every((x) => 'imm' in x)) {
      out.set(i, { folded: true });
      continue;
    }
    // a parameter the kernel never reads is never loaded (nvcc's LDC / ULDC are where it is used)
    if (i.op === 'param' && usersOf(i.dst).length === 0) {
      out.set(i, { folded: true });
      continue;
    }
    // division and remainder
    if (i.op === 'binary' && isDivision(i)) {
      const signed = isSigned(i.type);
      const d = immOf(i.b);
      // the same values after common subexpressions (the divisor cast again is the first cast)
      const ci = canonical(i) as typeof i;
      const late = opaqueConst(ci.b) !== null;
      const divisorKey = late ? 'warpSize' : operandKey(ci.b);
      if (i.fn === 'div' && ssa(i.a) && ssa(i.b)) quotients.set(`${operandKey(ci.a)}/${divisorKey}:${signed}`, i);
      const q = i.fn === 'rem' ? quotients.get(`${operandKey(ci.a)}/${divisorKey}:${signed}`) : undefined;
      let ops: SassOp[];
      if (q !== undefined && blockOf.get(q) === list) ops = late ? LATE_REMAINDER_AFTER_QUOTIENT : remainderAfterQuotient(d === null);
      else if (late) ops = lateConstantDivision(signed, i.fn === 'rem');
      else if (d !== null) ops = constantDivision(d, signed, i.fn === 'rem');
      else ops = variableDivision(signed, i.fn === 'rem', uniform(i.b));
      const [first, ...rest] = ops;
      out.set(i, first === undefined ? { folded: true, standsFor: regs(i.a) } : { opcode: first.opcode, cls: first.cls, extras: rest });
      continue;
    }
    // multiply-add fusion: the multiply only this add reads, in the same block
    if (i.op === 'binary' && (i.fn === 'add' || i.fn === 'sub') && int32(i.type)) {
      for (const [prod, other] of [[i.a, i.b], [i.b, i.a]] as const) {
        const m = def(prod);
        if (m === null || m.op !== 'binary' || m.fn !== 'mul' || !int32(m.type) || blockOf.get(m) !== list || out.has(m)) continue;
        if (!('reg' in prod) || usersOf(prod.reg).length !== 1) continue;
        const c = immOf(m.a) ?? immOf(m.b);
        const opcode = c !== null && isPow2(c) && 'reg' in other ? 'LEA' : 'IMAD';
        out.set(m, { folded: true, standsFor: regs(m.a, m.b) });
        // IMAD encodes one immediate: a constant multiplier and a constant addend take a move (imad_c)
        out.set(i, { opcode, cls: 'alu', extras: c !== null && 'imm' in other ? [{ opcode: 'HFMA2.MMA', cls: 'move' }] : [] });
        break;
      }
      continue;
    }
    // a byte-scaled index into global memory is a 64-bit add: IADD3 + IADD3.X (byte_u8: `IADD3 R4, P0,
    // R7, UR4, RZ; IADD3.X R5, RZ, UR5, RZ, P0, !PT`; byte_u8_pair's 2 * i: LEA + IADD3.X), where a wider
    // element is one IMAD.WIDE(.U32)
    if (i.op === 'lea' && i.scale === 1 && int32(i.index.type) && 'reg' in i.index && i.type.space === 'global') {
      out.set(i, { opcode: 'IADD3', cls: 'alu', extras: [{ opcode: 'IADD3.X', cls: 'alu' }] });
      continue;
    }
    // integer promotion of a narrow load: the load extended it already
    if (i.op === 'cvt' && narrowInt(i.a.type) && int32(i.type)) {
      const src = def(i.a);
      if (src !== null && src.op === 'ld') out.set(i, { folded: true, standsFor: regs(i.a) });
    }
  }
  return out;
}
