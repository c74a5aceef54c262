/**
 * Register dependences per compiled instruction slot, for the timing model's scoreboard: which
 * registers an instruction reads and which it writes. The compiled program keeps only InstrMeta per
 * slot, so the IR is walked here in the order compile.ts lays it out (one slot per plain
 * instruction; an `if` adds a branch, an optional else-branch and a join; a predicated `if` two
 * bookkeeping slots; a loop an entry slot, an optional guard branch after its head, the head again
 * and the back branch; one EXIT at the end). The walk is checked against the program (slot count and
 * source lines); if compile.ts lays out differently, `null` is returned and the timing model falls
 * back to "a result is needed by the next instruction".
 */
import type { InstrMeta } from '../exec/compile.js';
import type { Instr, KernelIR, Operand } from '../ir/types.js';

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

export function slotDeps(kernel: KernelIR, meta: readonly InstrMeta[]): SlotDeps | null {
  const reads: Int32Array[] = [];
  const writes: Int32Array[] = [];
  const bar: number[] = [];
  const lines: number[] = [];
  const slot = (r: number[], w: number[], line: number, barId = -1): void => {
    reads.push(r.length ? Int32Array.from(r) : EMPTY);
    writes.push(w.length ? Int32Array.from(w) : EMPTY);
    bar.push(barId);
    lines.push(line);
  };
  const lower = (list: readonly Instr[]): void => {
    for (const i of list) {
      if (i.op === 'if') {
        const predicated = i.predicated || (i.else === null && i.then.length === 1 && i.then[0]?.op === 'return');
        if (predicated) {
          slot(regs(i.cond), [], i.loc.line);
          lower(i.then);
          slot([], [], i.loc.line);
          continue;
        }
        slot(regs(i.cond), [], i.loc.line);
        lower(i.then);
        if (i.else) slot([], [], i.loc.line);
        if (i.else) lower(i.else);
        slot([], [], i.loc.line);
      } else if (i.op === 'loop') {
        slot([], [], i.loc.line);
        if (i.guard) {
          lower(i.head);
          slot(regs(i.cond), [], i.loc.line);
        }
        lower(i.body);
        lower(i.head);
        slot(regs(i.cond), [], i.loc.line);
      } else {
        const id = i.op === 'bar' && 'imm' in i.id ? Number(i.id.imm) : i.op === 'bar' ? 0 : -1;
        slot(readsOf(i), writesOf(i), i.loc.line, id);
      }
    }
  };
  lower(kernel.body);
  slot([], [], 0);
  if (reads.length !== meta.length) return null;
  for (let s = 0; s < meta.length - 1; s++) if ((meta[s] as InstrMeta).line !== lines[s]) return null;
  return { reads, writes, barrierId: Int32Array.from(bar) };
}
