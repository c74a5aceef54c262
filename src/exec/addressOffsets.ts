/**
 * Addresses that differ by a constant, as ptxas compiles them: the address is computed once and each
 * access adds its difference as the load's or store's immediate offset. An unrolled loop that indexes
 * `in + (tile0 + t) * 1024 + tid` for t = 0..7 becomes one LEA pair and `LDG.E.128 R4, [R24.64+0x4000]`
 * (micro.cu's ws_baseline_syncthreads: 32 LDG.E.128 off one address, the same for its STS, LDS and
 * STG). An address is an affine form over values defined once (SSA registers) with constant
 * coefficients; accesses whose forms differ only in the constant share the first one's computation,
 * and the arithmetic that only fed the others' addresses is no instruction.
 */
import { readsOf } from '../ir/regUse.js';
import type { Instr, Operand } from '../ir/types.js';
import { is64, isInt } from '../ir/typesys.js';

/** Σ coefficient · register + constant (bytes for an address) */
export interface Affine {
  terms: Map<number, bigint>;
  c: bigint;
}

/** a byte offset fits a load's or store's immediate (LDG / STG / LDS / STS: 24 bits, signed) */
export const fitsImmediate = (bytes: bigint): boolean => bytes < 1n << 23n && bytes >= -(1n << 23n);

const signed = (o: Operand): bigint | null => ('imm' in o ? BigInt.asIntN(64, typeof o.imm === 'bigint' ? o.imm : BigInt(Math.trunc(o.imm))) : null);

function combine(a: Affine, b: Affine, k: bigint): Affine {
  const terms = new Map(a.terms);
  for (const [r, v] of b.terms) {
    const s = (terms.get(r) ?? 0n) + k * v;
    if (s === 0n) terms.delete(r);
    else terms.set(r, s);
  }
  return { terms, c: a.c + k * b.c };
}
const scaled = (a: Affine, k: bigint): Affine => combine({ terms: new Map(), c: 0n }, a, k);
export const affineKey = (a: Affine): string => [...a.terms].sort((x, y) => x[0] - y[0]).map(([r, v]) => `${v}*r${r}`).join('+');

/** the lea's result is read only as the address of loads, stores and atomics (not as a value stored) */
export function onlyAddressUse(lea: Instr, usersOf: (r: number) => Instr[]): boolean {
  if (lea.op !== 'lea') return false;
  const us = usersOf(lea.dst);
  return us.length > 0 && us.every((u) => (u.op === 'ld' || u.op === 'st' || u.op === 'atom') && 'reg' in u.addr && u.addr.reg === lea.dst && readsOf(u).filter((r) => r === lea.dst).length === 1);
}

/**
 * The instructions ptxas needs no instruction for because their address is another access's plus a
 * constant: the leas of those addresses, and arithmetic that only they read. `def` gives the single
 * definition of a register (null when none or several: a variable is not a value), `usersOf` its readers.
 */
export function sharedAddressFolds(all: readonly Instr[], def: (o: Operand) => Instr | null, usersOf: (r: number) => Instr[]): Set<Instr> {
  const affineOf = affineForms(def);
  const folded = new Set<Instr>();
  /** per space and non-constant part: the first access's lea and constant */
  const first = new Map<string, { lea: Instr; c: bigint }>();
  for (const i of all) {
    if ((i.op !== 'ld' && i.op !== 'st' && i.op !== 'atom') || !('reg' in i.addr)) continue;
    const d = def(i.addr);
    if (d?.op !== 'lea') continue;
    const f = affineOf(i.addr);
    if (f === null || f.terms.size === 0) continue;
    const k = `${i.space}:${affineKey(f)}`;
    const kept = first.get(k);
    if (kept === undefined) first.set(k, { lea: d, c: f.c });
    else if (kept.lea !== d && fitsImmediate(f.c - kept.c) && onlyAddressUse(d, usersOf)) folded.add(d);
  }
  // what only folded instructions read is no instruction either
  for (let changed = folded.size > 0; changed; ) {
    changed = false;
    for (const i of all) {
      if (folded.has(i) || !(i.op === 'lea' || i.op === 'cvt' || (i.op === 'binary' && isInt(i.type)))) continue;
      const us = usersOf(i.dst);
      if (us.length > 0 && us.every((u) => folded.has(u))) {
        folded.add(i);
        changed = true;
      }
    }
  }
  return folded;
}

/**
 * The affine form of an operand over values defined once (`def`: the single definition of a
 * register, null for a variable): a function, its forms remembered
 */
export function affineForms(def: (o: Operand) => Instr | null): (o: Operand) => Affine | null {
  const forms = new Map<Instr, Affine | null>();
  /** integer arithmetic whose wrap cannot change the address: signed 32-bit (overflow is undefined) or 64-bit */
  const foldable = (i: Instr): boolean => i.op === 'binary' && i.type.tag === 'scalar' && (i.type.kind === 'i32' || is64(i.type));
  const affineOf = (o: Operand): Affine | null => {
    const v = signed(o);
    if (v !== null) return { terms: new Map(), c: v };
    if (!('reg' in o)) return null;
    const d = def(o);
    // a variable (written more than once) holds different values: no form
    if (d === null) return null;
    if (forms.has(d)) return forms.get(d)!;
    // a value that is not a sum of others is a term of its own
    const f = formOf(d) ?? { terms: new Map([[o.reg, 1n]]), c: 0n };
    forms.set(d, f);
    return f;
  };
  const formOf = (d: Instr): Affine | null => {
    if (d.op === 'lea') {
      const base = affineOf(d.base);
      const index = affineOf(d.index);
      return base && index ? combine(base, index, BigInt(d.scale)) : null;
    }
    if (d.op !== 'binary' || !foldable(d)) return null;
    const a = affineOf(d.a);
    const b = affineOf(d.b);
    if (!a || !b) return null;
    if (d.fn === 'add' || d.fn === 'sub') return combine(a, b, d.fn === 'add' ? 1n : -1n);
    if (d.fn === 'mul' && a.terms.size === 0) return scaled(b, a.c);
    if (d.fn === 'mul' && b.terms.size === 0) return scaled(a, b.c);
    return null;
  };
  return affineOf;
}
