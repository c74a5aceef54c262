/**
 * Adjacent 32-bit accesses merged into one 64-bit access, as nvcc's load/store vectoriser merges
 * them: fastWalshTransform's radix-2 step reads s_data[2p] and s_data[2p + 1] and writes them back,
 * and its SASS has one `LDS.64 R10, [R4]` and one `STS.64 [R4], R12` (sass.txt.gz, fwtBatch1Kernel)
 * where the C has two of each. Two loads (or two stores) of the same kind in one straight-line
 * block merge when their addresses differ by exactly one element and the lower one is known to be
 * aligned to both (a shared array's base is 16-byte aligned; 2p * 4 is a multiple of 8): nvcc knows
 * nothing of a pointer argument's alignment beyond its element's, so global accesses do not merge.
 * Nothing between the two may write (for stores: read or write) that state space's memory (shared
 * and global memory do not alias), or change what the moved access reads. A merged load stands where the first was; merged stores where the second is.
 * The kernel is rewritten (a copy); the address only the merged-away access read goes with it.
 */
import { defsAndReaders, readsOf, writesOf } from '../ir/regUse.js';
import type { Instr, KernelIR, Operand, ScalarType } from '../ir/types.js';
import { elemBytes, vec } from '../ir/typesys.js';
import { type Affine, affineForms, affineKey } from './addressOffsets.js';

type Ld = Extract<Instr, { op: 'ld' }>;
type St = Extract<Instr, { op: 'st' }>;

/** pure arithmetic: a function of its operands */
const PURE: ReadonlySet<Instr['op']> = new Set(['const', 'unary', 'binary', 'fma', 'cmp', 'select', 'cvt', 'bitcast', 'lea']);

/** a pure instruction's operands, in order */
function readsOfOperands(i: Instr): Operand[] {
  switch (i.op) {
    case 'unary':
    case 'cvt':
    case 'bitcast':
      return [i.a];
    case 'binary':
    case 'cmp':
      return [i.a, i.b];
    case 'fma':
      return [i.a, i.b, i.c];
    case 'select':
      return [i.cond, i.a, i.b];
    case 'lea':
      return [i.base, i.index];
    default:
      return [];
  }
}

/** instructions that touch no memory (the accesses between two that merge may not) */
const NO_MEMORY: ReadonlySet<Instr['op']> = new Set(['const', 'special', 'param', 'unary', 'binary', 'fma', 'cmp', 'select', 'cvt', 'bitcast', 'lea', 'assign', 'shfl', 'vote', 'redux', 'match', 'activemask']);

const tz32 = (x: bigint): number => {
  if (x === 0n) return 64;
  let n = 0;
  for (let v = x < 0n ? -x : x; (v & 1n) === 0n && n < 64; v >>= 1n) n++;
  return n;
};

export function vectorizeAccesses(kernel: KernelIR): KernelIR {
  const mutable = (r: number): boolean => kernel.regs[r]?.mutable === true;
  const { defs, readers } = defsAndReaders(kernel);
  const def = (o: Operand): Instr | null => ('reg' in o && !mutable(o.reg) ? (defs.get(o.reg) ?? null) : null);
  const formOf = affineForms(def);
  // value numbers: two registers computed the same way from the same values are one value (2t
  // computed twice is one term of both addresses), interned so that a key stays short
  const ids = new Map<string, number>();
  const regIds = new Map<number, number>();
  const intern = (k: string): number => {
    let id = ids.get(k);
    if (id === undefined) ids.set(k, (id = ids.size));
    return id;
  };
  const valueId = (r: number, depth = 0): number => {
    const known = regIds.get(r);
    if (known !== undefined) return known;
    const d = defs.get(r);
    const operand = (o: Operand): string => ('imm' in o ? `#${String(o.imm)}` : mutable(o.reg) || depth > 64 ? '?' : `v${valueId(o.reg, depth + 1)}`);
    let k: string = `r${r}`;
    if (d !== undefined && !mutable(r) && PURE.has(d.op)) {
      const parts = d.op === 'const' ? [String(d.value)] : readsOfOperands(d).map(operand);
      if (!parts.includes('?')) k = `${d.op}:${'fn' in d ? d.fn : ''}:${JSON.stringify('type' in d ? d.type : null)}:${d.op === 'lea' ? d.scale : ''}:${parts.join(',')}`;
    }
    const id = intern(k);
    regIds.set(r, id);
    return id;
  };
  /** the form with its terms by value (their registers' value numbers) */
  const affineOf = (o: Operand): Affine | null => {
    const f = formOf(o);
    if (f === null) return null;
    const terms = new Map<number, bigint>();
    for (const [r, c] of f.terms) {
      const id = valueId(r);
      terms.set(id, (terms.get(id) ?? 0n) + c);
    }
    return { terms, c: f.c };
  };
  /** the registers a term's value number stands for (any one: they hold the same value) */
  const regOf = new Map<number, number>();
  for (const r of defs.keys()) if (!regOf.has(valueId(r))) regOf.set(valueId(r), r);

  /** the trailing zero bits every value of an operand has (its alignment, as a power of two) */
  const zeros = (o: Operand, depth = 0): number => {
    if ('imm' in o) return tz32(BigInt(o.imm));
    const d = def(o);
    if (d === null || depth > 32) return 0;
    switch (d.op) {
      case 'const':
        return tz32(BigInt(d.value));
      case 'special':
        // the dynamic shared memory's base is 16-byte aligned (after the static arrays, rounded up)
        return d.sreg === 'dynsmem' ? 4 : 0;
      case 'cvt':
      case 'bitcast':
        return zeros(d.a, depth + 1);
      case 'binary': {
        const a = (): number => zeros(d.a, depth + 1);
        const b = (): number => zeros(d.b, depth + 1);
        if (d.fn === 'shl' && 'imm' in d.b) return a() + Number(d.b.imm);
        if (d.fn === 'mul') return a() + b();
        if (d.fn === 'and') return Math.max(a(), b());
        if (d.fn === 'add' || d.fn === 'sub' || d.fn === 'or') return Math.min(a(), b());
        return 0;
      }
      case 'lea':
        return Math.min(zeros(d.base, depth + 1), zeros(d.index, depth + 1) + tz32(BigInt(d.scale)));
      default:
        return 0;
    }
  };
  const alignment = (f: Affine): number => Math.min(tz32(f.c), ...[...f.terms].map(([id, coef]) => tz32(coef) + zeros({ reg: regOf.get(id) ?? -1, type: { tag: 'scalar', kind: 'u64' } })));

  const scalar4 = (i: Ld | St): i is (Ld | St) & { elem: ScalarType } => i.elem.tag === 'scalar' && elemBytes(i.elem) === 4;
  const plain = (i: Ld | St): boolean => !i.sem && !i.remote && i.cache !== 'strong' && i.cache !== 'cv' && i.space !== 'local';
  /** the lower of two addresses one element apart, aligned to both; null: they do not merge */
  const pairOf = (a: Ld | St, b: Ld | St): 'a' | 'b' | null => {
    if (a.space !== b.space || JSON.stringify(a.elem) !== JSON.stringify(b.elem) || a.cache !== b.cache || JSON.stringify(a.property) !== JSON.stringify(b.property)) return null;
    const fa = affineOf(a.addr);
    const fb = affineOf(b.addr);
    if (fa === null || fb === null || affineKey(fa) !== affineKey(fb)) return null;
    const size = BigInt(elemBytes(a.elem));
    const lower = fb.c - fa.c === size ? 'a' : fa.c - fb.c === size ? 'b' : null;
    if (lower === null) return null;
    return alignment(lower === 'a' ? fa : fb) >= tz32(2n * size) ? lower : null;
  };

  const dropped = new Set<Instr>();
  const replaced = new Map<Instr, Instr>();
  const visit = (list: readonly Instr[]): void => {
    for (const [n, a] of list.entries()) {
      if (a.op === 'if') {
        visit(a.then);
        if (a.else) visit(a.else);
        continue;
      }
      if (a.op === 'loop') {
        visit(a.head);
        visit(a.body);
        continue;
      }
      if ((a.op !== 'ld' && a.op !== 'st') || dropped.has(a) || replaced.has(a) || !scalar4(a) || !plain(a)) continue;
      /** registers written since `a` (a store's value or an address read later must not change) */
      const writes = new Set<number>();
      for (const b of list.slice(n + 1)) {
        if (b.op === a.op && !dropped.has(b) && !replaced.has(b) && scalar4(b) && plain(b)) {
          const lower = pairOf(a, b);
          const moved = a.op === 'st' ? readsOf(a) : [];
          if (lower !== null && (a.op === 'st' || lower === 'a') && moved.every((r) => !writes.has(r))) {
            const elem = vec(a.elem as ScalarType, 2);
            if (a.op === 'ld' && b.op === 'ld') {
              replaced.set(a, { ...a, elem, dsts: [a.dsts[0] as number, b.dsts[0] as number] });
              dropped.add(b);
            } else if (a.op === 'st' && b.op === 'st') {
              const [lo, hi] = lower === 'a' ? [a, b] : [b, a];
              replaced.set(b, { ...b, elem, addr: lo.addr, values: [lo.values[0] as Operand, hi.values[0] as Operand] });
              dropped.add(a);
            }
            break;
          }
        }
        if (b.op === 'if' || b.op === 'loop') break;
        // a load moves past what writes nothing of its space; a store past what touches none of it
        if (!NO_MEMORY.has(b.op)) {
          if (b.op !== 'ld' && b.op !== 'st' && b.op !== 'atom') break;
          if (b.remote || b.sem || (b.op === 'ld' && b.cache === 'strong')) break;
          if (b.space === a.space && (a.op === 'st' || b.op !== 'ld')) break;
        }
        for (const r of writesOf(b)) writes.add(r);
      }
    }
  };
  visit(kernel.body);
  if (dropped.size === 0) return kernel;

  // what only the merged-away accesses read (their addresses) goes with them
  const dead = new Set<Instr>(dropped);
  const unread = (r: number): void => {
    const k = (readers.get(r) ?? 0) - 1;
    readers.set(r, k);
    const d = defs.get(r);
    if (k === 0 && d !== undefined && (d.op === 'lea' || d.op === 'binary' || d.op === 'cvt') && !dead.has(d)) {
      dead.add(d);
      for (const x of readsOf(d)) unread(x);
    }
  };
  for (const [from, to] of replaced) {
    for (const r of readsOf(to)) readers.set(r, (readers.get(r) ?? 0) + 1);
    for (const r of readsOf(from)) unread(r);
  }
  for (const i of dropped) for (const r of readsOf(i)) unread(r);
  const rewrite = (list: readonly Instr[]): Instr[] =>
    list
      .filter((i) => !dead.has(i))
      .map((i) => {
        if (i.op === 'if') return { ...i, then: rewrite(i.then), else: i.else ? rewrite(i.else) : null };
        if (i.op === 'loop') return { ...i, head: rewrite(i.head), body: rewrite(i.body) };
        return (replaced.get(i) ?? i) as Instr;
      });
  return { ...kernel, body: rewrite(kernel.body) };
}
