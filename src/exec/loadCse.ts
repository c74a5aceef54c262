/**
 * Redundant loads, as nvcc removes them: a load of an address a dominating load of the same kind
 * read already, with nothing in between that may have written that memory, is no instruction (and
 * no memory traffic): its value is the first load's. Measured (the cuda-samples SASS,
 * test/fidelity/groundtruth/cuda-samples/h200/sass.txt.gz):
 * - convolutionRowsKernel / convolutionColumnsKernel: the 8 unrolled outputs of 17 taps read
 *   s_Data[… + i * 16 + j] 136 times in the C; the SASS has 129 LDS (73 in the column pass), one
 *   per distinct element: a shared tile element is loaded once for every output that uses it;
 * - filter_arr: `if (src[i] > 0) dst[atomicAggInc(nres)] = src[i]` has one LDG of src[i], kept in a
 *   register across the warp's ATOMG on nres: a relaxed atomic (atomicAdd & co.) on another kernel
 *   argument does not make the compiler read src[i] again.
 * What may have written the memory, and so ends the reuse: a plain store to the same state space, an
 * atomic with a memory order (cuda::atomic_ref) or on the same argument (or an address whose
 * argument is unknown), a barrier, a fence, and anything else that is not plain arithmetic or a
 * warp-level exchange. Volatile and ordered loads are never reused. Inside a loop a load is reused
 * only when the whole loop (its back edge included) writes nothing it depends on.
 *
 * The kernel is rewritten (a copy): the repeat goes, its readers read the first load's registers, and
 * the address arithmetic only the repeat read goes with it.
 */
import { defsAndReaders, readsOf, writesOf } from '../ir/regUse.js';
import type { Instr, KernelIR, Operand } from '../ir/types.js';

/** instructions that neither read nor write memory other than their own registers */
const NO_MEMORY: ReadonlySet<Instr['op']> = new Set([
  'const', 'special', 'param', 'unary', 'binary', 'fma', 'cmp', 'select', 'cvt', 'bitcast', 'lea', 'assign',
  'shfl', 'vote', 'redux', 'match', 'activemask', 'globaltimer', 'nanosleep', 'l2prefetch', 'break', 'return',
]);

/** pure arithmetic whose value is a function of its operands */
const PURE: ReadonlySet<Instr['op']> = new Set(['const', 'unary', 'binary', 'fma', 'cmp', 'select', 'cvt', 'bitcast', 'lea']);

/** what an instruction (or block) may have written: spaces wholly, or one argument's global memory */
interface Clobbers {
  all: boolean;
  spaces: Set<string>;
  /** global memory reached through these kernel arguments (relaxed atomics) */
  args: Set<string>;
  /** mutable registers written */
  regs: Set<number>;
}
const none = (): Clobbers => ({ all: false, spaces: new Set(), args: new Set(), regs: new Set() });

interface Avail {
  dsts: readonly number[];
  space: string;
  /** the kernel argument the address derives from (null: unknown) */
  arg: string | null;
}

export function reuseLoads(kernel: KernelIR): KernelIR {
  const mutable = (r: number): boolean => kernel.regs[r]?.mutable === true;
  const { defs, readers } = defsAndReaders(kernel);

  /** the kernel argument a pointer derives from, through address arithmetic (null: none known) */
  const argOf = (o: Operand, depth = 0): string | null => {
    if (!('reg' in o) || depth > 64) return null;
    const d = defs.get(o.reg);
    if (d === undefined) return null;
    if (d.op === 'param') return d.name;
    if (d.op === 'lea') return argOf(d.base, depth + 1);
    if (d.op === 'bitcast' || d.op === 'cvt') return argOf(d.a, depth + 1);
    return null;
  };

  /** what a list may write (nested blocks included) */
  const clobbersOf = (list: readonly Instr[], into: Clobbers): Clobbers => {
    for (const i of list) {
      for (const r of writesOf(i)) if (mutable(r)) into.regs.add(r);
      if (i.op === 'if') {
        clobbersOf(i.then, into);
        if (i.else) clobbersOf(i.else, into);
      } else if (i.op === 'loop') {
        clobbersOf(i.head, into);
        clobbersOf(i.body, into);
      } else if (i.op === 'ld') {
        // an ordered or volatile load orders what follows it
        if (i.sem || i.cache === 'strong' || i.remote) into.all = true;
      } else if (i.op === 'st') {
        if (i.remote || i.sem) into.all = true;
        else into.spaces.add(i.space);
      } else if (i.op === 'atom') {
        const arg = i.space === 'global' ? argOf(i.addr) : null;
        if (i.sem || i.remote) into.all = true;
        else if (arg === null) into.spaces.add(i.space);
        else into.args.add(arg);
      } else if (!NO_MEMORY.has(i.op)) into.all = true;
    }
    return into;
  };
  const kills = (c: Clobbers, a: Avail): boolean => c.all || c.spaces.has(a.space) || (a.space === 'global' && (a.arg === null || c.args.has(a.arg)));

  // value keys: a register defined by pure arithmetic is known by what it computes; a variable by
  // its version (each write a new one)
  const version = new Map<number, number>();
  const bump = (regs: Iterable<number>): void => {
    for (const r of regs) version.set(r, (version.get(r) ?? 0) + 1);
  };
  const keys = new Map<number, string>();
  const opKey = (o: Operand): string => {
    const t = o.type.tag === 'scalar' ? o.type.kind : `p${o.type.space}`;
    if ('imm' in o) return `#${String(o.imm)}:${t}`;
    if (mutable(o.reg)) return `m${o.reg}@${version.get(o.reg) ?? 0}`;
    return keys.get(o.reg) ?? `r${o.reg}`;
  };
  const pureKey = (i: Instr): string | null => {
    switch (i.op) {
      case 'const':
        return `k:${JSON.stringify(i.type)}:${String(i.value)}`;
      case 'unary':
        return `u:${i.fn}:${JSON.stringify(i.type)}:${opKey(i.a)}`;
      case 'binary':
        return `b:${i.fn}:${JSON.stringify(i.type)}:${opKey(i.a)}:${opKey(i.b)}`;
      case 'fma':
        return `f:${JSON.stringify(i.type)}:${opKey(i.a)}:${opKey(i.b)}:${opKey(i.c)}`;
      case 'cmp':
        return `c:${i.fn}:${opKey(i.a)}:${opKey(i.b)}`;
      case 'select':
        return `s:${JSON.stringify(i.type)}:${opKey(i.cond)}:${opKey(i.a)}:${opKey(i.b)}`;
      case 'cvt':
        return `v:${JSON.stringify(i.type)}:${opKey(i.a)}`;
      case 'bitcast':
        return `x:${JSON.stringify(i.type)}:${opKey(i.a)}`;
      case 'lea':
        return `l:${JSON.stringify(i.type)}:${i.scale}:${opKey(i.base)}:${opKey(i.index)}`;
      default:
        return null;
    }
  };

  /** the repeat's registers and the first load's */
  const subst = new Map<number, number>();
  const dropped = new Set<Instr>();
  const reusable = (i: Instr): i is Extract<Instr, { op: 'ld' }> =>
    i.op === 'ld' && !i.sem && !i.remote && i.cache !== 'strong' && i.cache !== 'cv' && i.space !== 'local' && i.dsts.every((r) => !mutable(r));

  const walk = (list: readonly Instr[], outer: Map<string, Avail>): Map<string, Avail> => {
    const avail = new Map(outer);
    const drop = (c: Clobbers): void => {
      for (const [k, a] of avail) if (kills(c, a)) avail.delete(k);
    };
    for (const i of list) {
      if (i.op === 'if') {
        const c = clobbersOf([i], none());
        walk(i.then, avail);
        if (i.else) walk(i.else, avail);
        drop(c);
        bump(c.regs);
        continue;
      }
      if (i.op === 'loop') {
        // what the loop writes is written before its next trip: not available inside, nor after
        const c = clobbersOf([i], none());
        drop(c);
        bump(c.regs);
        const inner = walk(i.head, avail);
        walk(i.body, inner);
        bump(c.regs);
        continue;
      }
      if (PURE.has(i.op)) {
        const k = pureKey(i);
        const dst = writesOf(i)[0];
        if (k !== null && dst !== undefined && !mutable(dst)) keys.set(dst, k);
      }
      if (reusable(i)) {
        const k = `${i.space}:${JSON.stringify(i.elem)}:${i.cache}:${JSON.stringify(i.property)}:${i.dsts.length}:${opKey(i.addr)}`;
        const first = avail.get(k);
        if (first !== undefined) {
          dropped.add(i);
          i.dsts.forEach((r, n) => subst.set(r, first.dsts[n] as number));
        } else avail.set(k, { dsts: i.dsts, space: i.space, arg: i.space === 'global' ? argOf(i.addr) : null });
        continue;
      }
      const c = clobbersOf([i], none());
      drop(c);
      bump(c.regs);
    }
    return avail;
  };
  walk(kernel.body, new Map());
  if (dropped.size === 0) return kernel;

  // the address arithmetic only the dropped loads read goes too (the repeat's own address)
  const dead = new Set<Instr>(dropped);
  const unread = (r: number): void => {
    const n = (readers.get(r) ?? 0) - 1;
    readers.set(r, n);
    const d = defs.get(r);
    if (n === 0 && d !== undefined && PURE.has(d.op) && !dead.has(d)) {
      dead.add(d);
      for (const x of readsOf(d)) unread(x);
    }
  };
  for (const i of dropped) for (const r of readsOf(i)) unread(r);

  const sub = (o: Operand): Operand => ('reg' in o && subst.has(o.reg) ? { reg: subst.get(o.reg) as number, type: o.type } : o);
  const rewrite = (list: readonly Instr[]): Instr[] => list.filter((i) => !dead.has(i)).map((i) => rewriteOne(i));
  const rewriteOne = (i: Instr): Instr => {
    if (i.op === 'if') return { ...i, cond: sub(i.cond), then: rewrite(i.then), else: i.else ? rewrite(i.else) : null };
    if (i.op === 'loop') return { ...i, cond: sub(i.cond), head: rewrite(i.head), body: rewrite(i.body) };
    return substituted(i, sub);
  };
  return { ...kernel, body: rewrite(kernel.body) };
}

const isOperand = (v: unknown): v is Operand => typeof v === 'object' && v !== null && 'type' in v && ('reg' in v || 'imm' in v);

/** a value with each operand in it (a field, a list's element, a nested record's: a remote access's PE) mapped */
export function mapOperands(v: unknown, sub: (o: Operand) => Operand): unknown {
  if (isOperand(v)) return sub(v);
  if (Array.isArray(v)) {
    const s = v.map((x: unknown) => mapOperands(x, sub));
    return s.some((x, n) => x !== v[n]) ? s : v;
  }
  if (typeof v !== 'object' || v === null) return v;
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    const s = mapOperands(x, sub);
    changed ||= s !== x;
    out[k] = s;
  }
  return changed ? out : v;
}

/** the instruction with its operands mapped (the same object when none changes) */
function substituted(i: Instr, sub: (o: Operand) => Operand): Instr {
  return mapOperands(i, sub) as Instr;
}
