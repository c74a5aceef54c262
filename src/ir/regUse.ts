/** Which registers an IR instruction reads and writes: the timing model's scoreboard and register allocation. */
import type { Instr, KernelIR, Operand } from './types.js';

/** the registers among operands */
export function regs(...ops: (Operand | null | undefined)[]): number[] {
  const out: number[] = [];
  for (const o of ops) if (o && 'reg' in o) out.push(o.reg);
  return out;
}

/** the registers an instruction reads (an if's or a loop's condition is not its operand here) */
export function readsOf(i: Instr): number[] {
  switch (i.op) {
    case 'unary':
    case 'cvt':
    case 'bitcast':
    case 'assign':
      return regs(i.a);
    case 'binary':
    case 'cmp':
      return regs(i.a, i.b);
    case 'fma':
      return regs(i.a, i.b, i.c);
    case 'select':
      return regs(i.cond, i.a, i.b);
    case 'lea':
      return regs(i.base, i.index);
    case 'ld':
      return regs(i.addr, i.remote?.pe);
    case 'st':
      return regs(i.addr, ...i.values, i.remote?.pe);
    case 'cpasync':
      return regs(i.to, i.from);
    case 'cpwait':
      return [i.token];
    case 'atom':
      return regs(i.addr, i.a, i.b, i.remote?.pe);
    case 'peerptr':
      return regs(i.addr, i.pe, i.bytes);
    case 'bar':
      return regs(i.id, i.count);
    case 'syncwarp':
      return regs(i.mask);
    case 'shfl':
      return regs(i.value, i.lane, i.mask);
    case 'vote':
      return regs(i.pred, i.mask);
    case 'redux':
      return regs(i.value, i.mask);
    case 'match':
      return regs(i.value, i.mask);
    case 'l2prefetch':
    case 'l2discard':
      return regs(i.addr);
    case 'nanosleep':
      return regs(i.ns);
    case 'mbarinit':
      return regs(i.addr, i.count);
    case 'mbararrive':
      return regs(i.addr);
    case 'mbartest':
      return regs(i.addr, i.token);
    default:
      return [];
  }
}

/** the registers an instruction writes (cp.async: its token; its data registers are the emulator's) */
export function writesOf(i: Instr): number[] {
  switch (i.op) {
    case 'ld':
      return i.dsts;
    case 'cpasync':
      return [i.token];
    case 'cpwait':
      return [];
    case 'atom':
      return i.dst === null ? [] : [i.dst];
    case 'st':
    case 'bar':
    case 'shmemfence':
    case 'shmemgroup':
    case 'shmemcollective':
    case 'syncwarp':
    case 'l2prefetch':
    case 'l2discard':
    case 'membar':
    case 'nanosleep':
    case 'mbarinit':
    case 'break':
    case 'return':
    case 'if':
    case 'loop':
      return [];
    default:
      return 'dst' in i && typeof i.dst === 'number' ? [i.dst] : [];
  }
}

/**
 * A kernel's values and their uses, for the passes that rewrite it (loadCse, simplify, vectorize):
 * per register that is not a k.let variable, the instruction defining it, and per register how many
 * instructions (and if/loop conditions) read it
 */
export function defsAndReaders(kernel: KernelIR): { defs: Map<number, Instr>; readers: Map<number, number> } {
  const mutable = (r: number): boolean => kernel.regs[r]?.mutable === true;
  const defs = new Map<number, Instr>();
  const readers = new Map<number, number>();
  const read = (r: number): void => void readers.set(r, (readers.get(r) ?? 0) + 1);
  const index = (list: readonly Instr[]): void => {
    for (const i of list) {
      for (const r of writesOf(i)) if (!mutable(r)) defs.set(r, i);
      for (const r of readsOf(i)) read(r);
      if ((i.op === 'if' || i.op === 'loop') && 'reg' in i.cond) read(i.cond.reg);
      if (i.op === 'if') {
        index(i.then);
        if (i.else) index(i.else);
      } else if (i.op === 'loop') {
        index(i.head);
        index(i.body);
      }
    }
  };
  index(kernel.body);
  return { defs, readers };
}

/** the registers a list writes, nested blocks included */
export function writtenIn(list: readonly Instr[], into = new Set<number>()): Set<number> {
  for (const i of list) {
    for (const r of writesOf(i)) into.add(r);
    if (i.op === 'if') {
      writtenIn(i.then, into);
      if (i.else) writtenIn(i.else, into);
    } else if (i.op === 'loop') {
      writtenIn(i.head, into);
      writtenIn(i.body, into);
    }
  }
  return into;
}
