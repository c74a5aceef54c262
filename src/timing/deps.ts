/**
 * Register dependences per compiled instruction slot, for the timing model's scoreboard: which
 * registers an instruction reads and which it writes, from the IR instruction each slot was lowered
 * from (InstrMeta.instr). Slots without one (bookkeeping, EXIT) read and write nothing; a barrier's
 * id is kept when it is an immediate (0 otherwise).
 */
import type { InstrMeta } from '../exec/compile.js';
import type { Instr, Operand } from '../ir/types.js';

export interface SlotDeps {
  /** registers read, per slot */
  reads: Int32Array[];
  /** registers written, per slot */
  writes: Int32Array[];
  /** barrier id when it is an immediate, else -1 (per slot) */
  barrierId: Int32Array;
}

const EMPTY = new Int32Array(0);

function regs(...ops: (Operand | null | undefined)[]): number[] {
  const out: number[] = [];
  for (const o of ops) if (o && 'reg' in o) out.push(o.reg);
  return out;
}

function readsOf(i: Instr): number[] {
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
      return regs(i.addr);
    case 'st':
      return regs(i.addr, ...i.values);
    case 'cpasync':
      return regs(i.to, i.from);
    case 'cpwait':
      return [i.token];
    case 'atom':
      return regs(i.addr, i.a, i.b);
    case 'bar':
      return regs(i.id, i.count);
    case 'syncwarp':
      return regs(i.mask);
    case 'shfl':
      return regs(i.value, i.lane, i.mask);
    case 'vote':
      return regs(i.pred, i.mask);
    case 'match':
      return regs(i.value, i.mask);
    case 'l2prefetch':
    case 'l2discard':
      return regs(i.addr);
    default:
      return [];
  }
}

function writesOf(i: Instr): number[] {
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
    case 'syncwarp':
    case 'l2prefetch':
    case 'l2discard':
    case 'membar':
    case 'break':
    case 'return':
    case 'if':
    case 'loop':
      return [];
    default:
      return 'dst' in i && typeof i.dst === 'number' ? [i.dst] : [];
  }
}

const add = (list: Int32Array, extra: readonly number[]): Int32Array => Int32Array.from(new Set([...list, ...extra]));

/**
 * The compiler drops two kinds of IR instruction that SASS does not have (compile.ts `uncount`): a
 * register copy right after the instruction that computed its source (ptxas writes the result
 * straight into the destination), and a constant-offset `lea` folded into the next load/store's
 * address. Their dependences move to the instruction that does the work: the producer also writes
 * the copy's destination, and the memory instruction reads the lea's operands.
 */
function foldDroppedSlots(meta: readonly InstrMeta[], reads: Int32Array[], writes: Int32Array[]): void {
  meta.forEach((m, s) => {
    const i = m.instr;
    if (!i || m.counted) return;
    if (i.op === 'assign' && 'reg' in i.a) {
      const src = i.a.reg;
      for (let p = s - 1; p >= 0; p--) {
        if (!(meta[p] as InstrMeta).counted) continue;
        if ((writes[p] as Int32Array).includes(src)) writes[p] = add(writes[p] as Int32Array, [i.dst]);
        break;
      }
    } else if (i.op === 'lea') {
      for (let q = s + 1; q < meta.length; q++) {
        if (!(meta[q] as InstrMeta).counted) continue;
        const r = reads[q] as Int32Array;
        if (r.includes(i.dst)) reads[q] = add(r.filter((x) => x !== i.dst), regs(i.base, i.index));
        break;
      }
    }
  });
}

/** per compiled program: the scheduler and the timing model both ask for them */
const memo = new WeakMap<readonly InstrMeta[], SlotDeps>();

export function slotDeps(meta: readonly InstrMeta[]): SlotDeps {
  let d = memo.get(meta);
  if (!d) {
    d = computeSlotDeps(meta);
    memo.set(meta, d);
  }
  return d;
}

function computeSlotDeps(meta: readonly InstrMeta[]): SlotDeps {
  const reads: Int32Array[] = [];
  const writes: Int32Array[] = [];
  const bar = new Int32Array(meta.length).fill(-1);
  meta.forEach((m, s) => {
    const i = m.instr;
    if (!i || !m.counted) {
      reads.push(EMPTY);
      writes.push(EMPTY);
      return;
    }
    // a branch of an if/loop reads the condition; the instructions inside are slots of their own
    const r = i.op === 'if' || i.op === 'loop' ? (m.cls === 'branch' ? regs(i.cond) : []) : readsOf(i);
    const w = i.op === 'if' || i.op === 'loop' ? [] : writesOf(i);
    reads.push(r.length ? Int32Array.from(r) : EMPTY);
    writes.push(w.length ? Int32Array.from(w) : EMPTY);
    if (i.op === 'bar') bar[s] = 'imm' in i.id ? Number(i.id.imm) & 15 : 0;
  });
  foldDroppedSlots(meta, reads, writes);
  return { reads, writes, barrierId: bar };
}
