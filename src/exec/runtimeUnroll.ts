/**
 * nvcc's unrolling of loops whose trip count is known only at run time (issue #40), as CUDA 13.0 lays
 * them out for sm_90 at -O3 (test/fidelity/probes/unroll/: unroll_probe.cu, its SASS and summary;
 * the cuda-samples' sass.txt.gz, scalarProdGPU; the ground truth's family-5 passes).
 *
 * Which loops: a counted loop `for (i = start; i < end; i += step)` of a signed 32-bit index whose
 * step is a positive constant and whose bound does not change inside it, with no loop inside it and a
 * trip count not known at compile time (start or end a run-time value). NVVM unrolls it by 4 (every
 * probe: p1, p3, p4 with six loads a trip, p6 with barriers in it, p7, p8; family 5's pass 1 and 2);
 * a grid-stride loop, whose step is a run-time value, stays as written (p5: its trip count would
 * need a division), and so does a loop under `#pragma unroll 1` (`k.for(..., { unroll: 1 })`: micro.cu's
 * divergence and occupancy loops, l2_delay_probe.cu). A body of more than MAX_BODY instructions stays as written too: the probes did
 * not measure where NVVM's size limit lies, so the bound is a stated choice above them.
 *
 * The layout (LLVM's runtime unrolling): the C's guard; the trip count t = (end - 1 - i) / step + 1
 * (p1's SASS: LOP3 ~tid, IADD3, LEA.HI, ISETP.GE.U32, LOP3.LUT P: `@!P BRA`); its remainder t & 3.
 * - Prolog form, where no variable the loop carries starts at an integer constant (LLVM's
 *   isEpilogProfitable: p1, p6, p8, scalarProdGPU with its `float sum = 0`): the remainder's trips
 *   first, as a loop counted down (p1: ISETP.NE, `@P1 BRA`), then, if t >= 4, the main part.
 * - Epilog form, where one does (p2 `for (k = 0; …)`, p3's `int s = 0`; family 5's pass 1): if
 *   t >= 4 the main part up to end - (t & 3) * step, then the remainder's trips as a loop.
 * The main part is a loop of four copies of the body with one back-edge, unless ptxas unrolls it
 * again: where a trip does at most PTXAS_WORK instructions (ownWork: p1, p3, p7, p8, scalarProdGPU and
 * reduceSinglePass 2-3, unrolled; p2 7 and p4 17, not), ptxas lays it out as a loop of 16 trips while more than 12 are left, then one block of
 * 8 if more than 4 are left, then one of 4 (p1 at 0x0330-0x0a00: `ISETP.GT R0, 0x3000`, `ISETP.GT R0,
 * 0x1000`, `ISETP.LT.OR P0, R15, R6, P0`). scalarProdGPU's 4 trips a thread thus take six branches
 * and no back-edge where the C's loop takes five. In the epilog form ptxas tests first that main trips
 * are left, and keeps the last 4 as a loop (p3; reduceSinglePass's `for (i = 0; i < blockDim.x; i +=
 * 32)`: 8 branches for its 4 trips, the H200's 17,686 for the launch).
 * In each block the copies index from one snapshot of i (a value, not the variable), so that their
 * addresses differ by constants and share one address computation (addressOffsets.ts: the LDGs of
 * p1's 16-trip block off two registers, +0x1000 each), and i steps once per block.
 *
 * The kernel is rewritten (a copy); the copies' values get registers of their own.
 */
import { readsOf, writesOf, writtenIn } from '../ir/regUse.js';
import type { Instr, KernelIR, Operand, RegInfo, ScalarType, SourceLoc } from '../ir/types.js';
import { mapOperands } from './loadCse.js';

/** NVVM's unroll factor for runtime loops (every probe) */
const FACTOR = 4;
/** the most IR instructions a body may have to be unrolled (a choice above the probes' largest, p4: 20) */
const MAX_BODY = 40;
/** the most instructions of its own a trip may do for ptxas to unroll the 4-copy loop again (see above) */
const PTXAS_WORK = 4;

/** what a copied body may hold: arithmetic, plain loads and stores, ifs of the same */
const COPYABLE: ReadonlySet<Instr['op']> = new Set(['const', 'special', 'param', 'unary', 'binary', 'fma', 'cmp', 'select', 'cvt', 'bitcast', 'lea', 'assign', 'ld', 'st', 'if', 'bar']);

type Loop = Extract<Instr, { op: 'loop' }>;

/** the counted loop's parts, when it has the shape above */
interface Counted {
  i: number;
  type: ScalarType;
  end: Operand;
  step: number;
  /** the body without the increment */
  work: Instr[];
}

function copyable(list: readonly Instr[]): boolean {
  return list.every((x) => {
    if (!COPYABLE.has(x.op)) return false;
    if ((x.op === 'ld' || x.op === 'st') && (x.remote || x.shadow !== undefined || x.space === 'local')) return false;
    if (x.op === 'if') return copyable(x.then) && (x.else === null || copyable(x.else));
    return true;
  });
}

function size(list: readonly Instr[]): number {
  let n = 0;
  for (const x of list) n += x.op === 'if' ? 1 + size(x.then) + size(x.else ?? []) : 1;
  return n;
}

export function unrollRuntimeLoops(kernel: KernelIR): KernelIR {
  const regs: RegInfo[] = [...kernel.regs];
  const mutable = (r: number): boolean => regs[r]?.mutable === true;
  let changed = false;

  const fresh = (like: RegInfo, mut = false): number => {
    regs.push({ ...like, mutable: mut });
    return regs.length - 1;
  };

  const counted = (l: Loop): Counted | null => {
    if (!l.guard || l.keep || l.head.length !== 1 || !('reg' in l.cond)) return null;
    const c = l.head[0] as Instr;
    if (c.op !== 'cmp' || c.fn !== 'lt' || c.dst !== l.cond.reg || !('reg' in c.a) || !mutable(c.a.reg)) return null;
    const i = c.a.reg;
    const type = regs[i]?.type;
    if (type?.tag !== 'scalar' || type.kind !== 'i32') return null;
    const n = l.body.length;
    const inc = l.body[n - 2];
    const set = l.body[n - 1];
    if (inc?.op !== 'binary' || inc.fn !== 'add' || !('reg' in inc.a) || inc.a.reg !== i || !('imm' in inc.b)) return null;
    if (set?.op !== 'assign' || set.dst !== i || !('reg' in set.a) || set.a.reg !== inc.dst) return null;
    const step = Number(inc.b.imm);
    // the layout compares spans with 16 steps: they must be 32-bit values
    if (!Number.isInteger(step) || step <= 0 || 4 * FACTOR * step > 0x7fffffff) return null;
    const work = l.body.slice(0, n - 2);
    const inLoop = writtenIn(l.body);
    // the index is written only by the increment; the bound is the same throughout
    if (writtenIn(work).has(i)) return null;
    if ('reg' in c.b && inLoop.has(c.b.reg)) return null;
    if (readsOf(inc).length !== 1 || work.some((x) => x.op === 'loop') || !copyable(work) || size(work) > MAX_BODY) return null;
    // the increment's value is read by nothing but the assignment
    if (usesReg(work, inc.dst)) return null;
    return { i, type, end: c.b, step, work };
  };

  /**
   * the loop's layout as nvcc makes it; `before` is what precedes it in its list (the variables'
   * initial values), `loc` the loop's source line for every instruction made
   */
  const unrolled = (l: Loop, k: Counted, before: readonly Instr[]): Instr[] | null => {
    const { i, type, end, step, work } = k;
    const loc: SourceLoc = l.loc;
    const info = regs[i] as RegInfo;
    const iOp: Operand = { reg: i, type };
    const imm = (v: number): Operand => ({ imm: v, type });
    const initial = (r: number): Operand | null => {
      for (let n = before.length - 1; n >= 0; n--) {
        const x = before[n] as Instr;
        if (writesOf(x).includes(r)) return x.op === 'assign' ? x.a : null;
        if (x.op === 'if' || x.op === 'loop') {
          if (writtenIn([x]).has(r)) return null;
        }
      }
      return null;
    };
    const start = initial(i);
    // a trip count known at compile time is not this pass's (nvcc unrolls it fully or keeps it)
    if (start && 'imm' in start && 'imm' in end) return null;
    // LLVM's isEpilogProfitable: a loop-carried integer variable that starts at a constant
    const carried = [...writtenIn(l.body)].filter((r) => mutable(r));
    const epilog = carried.some((r) => {
      const t = regs[r]?.type;
      const v = initial(r);
      return t?.tag === 'scalar' && t.kind !== 'f32' && t.kind !== 'f64' && t.kind !== 'pred' && v !== null && 'imm' in v;
    });

    const val = (): number => fresh(info);
    const bin = (fn: 'add' | 'sub' | 'div' | 'and' | 'mul', a: Operand, b: Operand): [Instr, Operand] => {
      const dst = val();
      return [{ op: 'binary', fn, dst, type, a, b, loc }, { reg: dst, type }];
    };
    const cmp = (fn: 'lt' | 'gt' | 'ge' | 'ne', a: Operand, b: Operand): [Instr, Operand] => {
      const dst = fresh({ ...info, type: { tag: 'scalar', kind: 'pred' } });
      return [{ op: 'cmp', fn, dst, a, b, loc }, { reg: dst, type: { tag: 'scalar', kind: 'pred' } }];
    };
    const iff = (cond: Operand, then: Instr[]): Instr => ({ op: 'if', cond, then, else: null, predicated: false, loc });

    /** n copies of the body from one snapshot of i, then i stepped once */
    const block = (n: number): Instr[] => {
      const out: Instr[] = [];
      const snap = val();
      out.push({ op: 'unary', fn: 'mov', dst: snap, type, a: iOp, loc });
      for (let u = 0; u < n; u++) {
        let at: Operand = { reg: snap, type };
        if (u > 0) {
          const [x, o] = bin('add', at, imm(u * step));
          out.push(x);
          at = o;
        }
        out.push(...copyBody(work, i, at));
      }
      const [x, o] = bin('add', { reg: snap, type }, imm(n * step));
      out.push(x, { op: 'assign', dst: i, type, a: o, loc });
      return out;
    };
    /** a do-while of `body` while i < stop */
    const loopWhile = (body: Instr[], stop: Operand): Instr => {
      const [c, co] = cmp('lt', iOp, stop);
      return { op: 'loop', head: [c], cond: co, body, guard: false, loc };
    };
    /** the trips from i up to stop, a multiple of 4 of them */
    const main = (stop: Operand): Instr[] => {
      if (ownWork(work, i) > PTXAS_WORK) return [loopWhile(block(FACTOR), stop)];
      const out: Instr[] = [];
      // ptxas: 16 a trip while more than 12 are left, then 8 if more than 4, then 4 if any
      const [l16, lo16] = bin('sub', stop, iOp);
      const [c16, co16] = cmp('gt', lo16, imm(12 * step));
      const [s16, so16] = bin('sub', stop, imm(12 * step));
      const [l8, lo8] = bin('sub', stop, iOp);
      const [c8, co8] = cmp('gt', lo8, imm(4 * step));
      const sixteenAndEight = [l16, c16, iff(co16, [s16, loopWhile(block(4 * FACTOR), so16)]), l8, c8, iff(co8, block(2 * FACTOR))];
      const [c4, co4] = cmp('lt', iOp, stop);
      if (!epilog) {
        out.push(...sixteenAndEight, c4, iff(co4, block(FACTOR)));
        return out;
      }
      // the epilog form's main loop (p3 at 0x0150-0x0690; reduceSinglePass at 0x0530-0x0a50): a test
      // that main trips are left before the blocks of 16 and 8, and the last 4 a loop of its own
      const [any, anyo] = cmp('lt', iOp, stop);
      out.push(any, iff(anyo, sixteenAndEight), c4, iff(co4, [loopWhile(block(FACTOR), stop)]));
      return out;
    };

    const inside: Instr[] = [];
    // t - 1 = (end - 1 - i) / step; rem = t & 3
    const [x0, span] = bin('sub', end, iOp);
    const [x1, last] = bin('sub', span, imm(1));
    inside.push(x0, x1);
    let tm1 = last;
    if (step !== 1) {
      // unsigned (end - 1 - i is not negative past the guard): a power-of-two step is a shift (p1's LEA.HI)
      const u32: ScalarType = { tag: 'scalar', kind: 'u32' };
      const dst = val();
      const pow2 = (step & (step - 1)) === 0;
      inside.push({ op: 'binary', fn: pow2 ? 'shr' : 'div', dst, type: u32, a: { ...last, type: u32 }, b: { imm: pow2 ? Math.log2(step) : step, type: u32 }, loc });
      tm1 = { reg: dst, type };
    }
    const [t, to] = bin('add', tm1, imm(1));
    const [r, ro] = bin('and', to, imm(FACTOR - 1));
    // unsigned, as the span may exceed the largest int (p1's ISETP.GE.U32)
    const u32t: ScalarType = { tag: 'scalar', kind: 'u32' };
    const [big, bigo] = cmp('ge', { ...last, type: u32t }, { imm: (FACTOR - 1) * step, type: u32t });
    const [hasRem, hasRemo] = cmp('ne', ro, imm(0));
    inside.push(t, r, big, hasRem);
    if (epilog) {
      const scaledRem: Instr[] = [];
      let remSpan = ro;
      if (step !== 1) {
        const [rs, rso] = bin('mul', ro, imm(step));
        scaledRem.push(rs);
        remSpan = rso;
      }
      const [stop, stopo] = bin('sub', end, remSpan);
      inside.push(iff(bigo, [...scaledRem, stop, ...main(stopo)]));
      inside.push(iff(hasRemo, [loopWhile(oneTrip(), end)]));
    } else {
      // the remainder's trips counted down
      const left = fresh(info, true);
      const [dec, deco] = bin('sub', { reg: left, type }, imm(1));
      const [more, moreo] = cmp('ne', { reg: left, type }, imm(0));
      const body = [...oneTrip(), dec, { op: 'assign', dst: left, type, a: deco, loc } as Instr];
      inside.push(iff(hasRemo, [{ op: 'assign', dst: left, type, a: ro, loc }, { op: 'loop', head: [more], cond: moreo, body, guard: false, loc }]));
      inside.push(iff(bigo, main(end)));
    }
    // the C's guard, as the loop had it
    const [g, go] = cmp('lt', iOp, end);
    return [g, iff(go, inside)];

    /** one trip as the C wrote it: the body, then i += step */
    function oneTrip(): Instr[] {
      const [x, o] = bin('add', iOp, imm(step));
      return [...copyBody(work, i, iOp), x, { op: 'assign', dst: i, type, a: o, loc }];
    }
  };

  /** the body with its values renamed (fresh registers) and the index read as `at` */
  const copyBody = (list: readonly Instr[], i: number, at: Operand): Instr[] => {
    const rename = new Map<number, number>();
    const sub = (o: Operand): Operand => ('reg' in o ? (o.reg === i ? at : rename.has(o.reg) ? { reg: rename.get(o.reg) as number, type: o.type } : o) : o);
    const dst = (r: number): number => {
      if (mutable(r)) return r;
      const n = fresh(regs[r] as RegInfo);
      rename.set(r, n);
      return n;
    };
    const one = (x: Instr): Instr => {
      if (x.op === 'if') return { ...x, cond: sub(x.cond), then: x.then.map(one), else: x.else ? x.else.map(one) : null };
      const m = mapOperands(x, sub) as Instr;
      if (m.op === 'ld') return { ...m, dsts: m.dsts.map(dst) };
      if ('dst' in m && typeof m.dst === 'number') return { ...m, dst: dst(m.dst) } as Instr;
      return m === x ? { ...x } : m;
    };
    return list.map(one);
  };

  const rewrite = (list: readonly Instr[]): Instr[] => {
    const out: Instr[] = [];
    for (const x of list) {
      if (x.op === 'if') {
        out.push({ ...x, then: rewrite(x.then), else: x.else ? rewrite(x.else) : null });
        continue;
      }
      if (x.op !== 'loop') {
        out.push(x);
        continue;
      }
      const l: Loop = { ...x, head: rewrite(x.head), body: rewrite(x.body) };
      const k = counted(l);
      const u = k ? unrolled(l, k, out) : null;
      if (u) {
        changed = true;
        out.push(...u);
      } else out.push(l);
    }
    return out;
  };
  const body = rewrite(kernel.body);
  return changed ? { ...kernel, body, regs } : kernel;
}

function usesReg(list: readonly Instr[], r: number): boolean {
  return list.some((x) => readsOf(x).includes(r) || ((x.op === 'if' || x.op === 'loop') && 'reg' in x.cond && x.cond.reg === r) || (x.op === 'if' && (usesReg(x.then, r) || usesReg(x.else ?? [], r))));
}

/**
 * a trip's instructions: all but the moves and the addresses indexed by the loop's index itself
 * (those share one address computation across the copies, immediate offsets: p1, p3, p7). An address
 * computed from the index (p2's `a[k * 1024 + threadIdx.x]`) is work: p2's SASS computes each copy's
 * address apart (an IMAD.WIDE per load), and ptxas keeps its 4-copy loop
 */
function ownWork(list: readonly Instr[], i: number): number {
  let n = 0;
  for (const x of list) {
    if (x.op === 'if') n += 1 + ownWork(x.then, i) + ownWork(x.else ?? [], i);
    else if (x.op === 'lea') n += 'reg' in x.index && x.index.reg === i ? 0 : 1;
    else if (x.op !== 'assign' && x.op !== 'const' && !(x.op === 'unary' && x.fn === 'mov')) n++;
  }
  return n;
}
