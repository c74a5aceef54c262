/**
 * Register dependences per compiled instruction slot, for the timing model's scoreboard: which
 * registers an instruction reads and which it writes, from the IR instruction each slot was lowered
 * from (InstrMeta.instr). Slots without one (bookkeeping, EXIT) read and write nothing; a barrier's
 * id is kept when it is an immediate (0 otherwise).
 */
import type { InstrMeta } from '../exec/compile.js';
import { readsOf, regs, writesOf } from '../ir/regUse.js';

export interface SlotDeps {
  /** registers read, per slot */
  reads: Int32Array[];
  /** registers written, per slot */
  writes: Int32Array[];
  /** barrier id when it is an immediate, else -1 (per slot) */
  barrierId: Int32Array;
}

const EMPTY = new Int32Array(0);

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
      // the producer: the counted slot before; for a returning atomic's warp aggregation, each of its
      // slots that writes the result (one per path a warp may take)
      let part: InstrMeta['partOf'];
      for (let p = s - 1; p >= 0; p--) {
        const mp = meta[p] as InstrMeta;
        if (!mp.counted) continue;
        if (part !== undefined && mp.partOf !== part) break;
        if ((writes[p] as Int32Array).includes(src)) writes[p] = add(writes[p] as Int32Array, [i.dst]);
        if (mp.partOf === undefined) break;
        part = mp.partOf;
      }
    } else if (m.standsFor) {
      // instruction selection's folds (src/exec/isel.ts): every later reader of the result waits for
      // what does its work instead
      const dst = writesOf(i);
      for (let q = s + 1; q < meta.length; q++) {
        if (!(meta[q] as InstrMeta).counted) continue;
        const r = reads[q] as Int32Array;
        if (dst.some((d) => r.includes(d))) reads[q] = add(r.filter((x) => !dst.includes(x)), m.standsFor);
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
