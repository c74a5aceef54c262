/**
 * Which warps are parked: spinning without effect, so that they would spin for ever unless another
 * warp writes memory (issue 38; design guide §9, "waiting is a state").
 *
 * A warp that has run PARK_FIRST instructions is looked at every PARK_INTERVAL more (doubling, up to
 * PARK_INTERVAL_MAX, while its state or memory keeps changing: a long computation is looked at
 * rarely), at the end of a turn: its state (pc, masks, control stacks and registers, bit for bit) is kept with the grid's
 * write count (threads that executed a store, atomic, LDGSTS or barrier: a sum over those slots of
 * the counters the interpreter keeps anyway). When it is next seen at the same pc with the same write
 * count, and its state is unchanged, the warp is parked: the interpreter is deterministic, and its
 * loads read memory that nobody wrote, so it will go round the same loop for ever. A loop that counts
 * or accumulates changes its registers and is never parked (a runaway loop, stopped at the budget).
 * A warp whose turns end at different places in its loop is compared when it comes back to the
 * kept pc; after MAX_MISSES other pcs its state is taken again. Nothing is done per instruction.
 */
import type { Program } from './compile.js';
import { type Warp, WarpState } from './warp.js';

/** instructions a warp runs before it is first looked at: far more than any wait for a barrier or a load */
export const PARK_FIRST = 1000;
/** instructions between looks, at first and at most */
export const PARK_INTERVAL = 250;
export const PARK_INTERVAL_MAX = 8000;
/** looks at other pcs before the kept state is replaced */
const MAX_MISSES = 4;
/** int32 words of a warp's control stacks (warp.ts: 256 stack, 64 loop, 32 predicate) */
const CONTROL_WORDS = 256 + 64 + 32;

interface Kept {
  writes: number;
  block: number;
  pc: number;
  active: number;
  mask: number;
  exited: number;
  sp: number;
  lsp: number;
  psp: number;
  misses: number;
  regs: Int32Array;
  control: Int32Array;
}

/** the slots whose execution may change memory or a barrier's state */
function writeSlots(prog: Program): Int32Array {
  const out: number[] = [];
  prog.meta.forEach((m, s) => {
    if (m.cls === 'stg' || m.cls === 'sts' || m.cls === 'atom' || m.cls === 'atoms' || m.cls === 'ldgsts' || m.cls === 'bar') out.push(s);
  });
  return Int32Array.from(out);
}

export class ParkedWatch {
  private readonly next: Float64Array;
  private readonly interval: Float64Array;
  /** the write count a warp was found parked at (-1: not parked) */
  private readonly parkedAt: Float64Array;
  private readonly kept: (Kept | undefined)[];
  private readonly writers: Int32Array;
  private readonly regWords: number;
  private newly = false;

  constructor(
    prog: Program,
    warps: number,
    /** threads predicated on per slot (the launch's counters): the write count sums the writing slots' */
    private readonly counts: Float64Array,
    /** writes made outside the grid so far (co-running grids, copies, the host): they may wake a parked warp */
    private readonly external?: () => number,
  ) {
    this.next = new Float64Array(warps).fill(PARK_FIRST);
    this.interval = new Float64Array(warps).fill(PARK_INTERVAL);
    this.parkedAt = new Float64Array(warps).fill(-1);
    this.kept = new Array<Kept | undefined>(warps);
    this.writers = writeSlots(prog);
    this.regWords = prog.layout.bytesPerWarp / 4;
  }

  /** the warp's step count at which check() next looks at it */
  nextCheck(id: number): number {
    return this.next[id] as number;
  }

  /** threads of this grid that have executed a writing instruction so far (monotone) */
  ownWrites(): number {
    const c = this.counts;
    let n = 0;
    for (let i = 0; i < this.writers.length; i++) n += c[this.writers[i] as number] as number;
    return n;
  }

  /** every write that may change what a warp reads: the grid's own and the outside's */
  writes(): number {
    return this.ownWrites() + (this.external ? this.external() : 0);
  }

  check(w: Warp): void {
    const id = w.id;
    const writes = this.writes();
    const k = this.kept[id];
    if (k !== undefined && k.block !== w.blockLinear) this.interval[id] = PARK_INTERVAL;
    this.next[id] = w.steps + (this.interval[id] as number);
    // a warp that read a value whose newer write is not visible yet (memoryModel.ts) waits for time, not for a write
    const waitsForTime = w.readOld;
    w.readOld = false;
    if (!waitsForTime && k !== undefined && k.writes === writes && k.block === w.blockLinear) {
      if (k.pc !== w.pc && ++k.misses <= MAX_MISSES) return;
      if (k.pc === w.pc && this.same(k, w)) {
        if (this.parkedAt[id] !== writes) this.newly = true;
        this.parkedAt[id] = writes;
        w.parked = true;
        return;
      }
    }
    // changed: look again later, and take its state then
    if (k !== undefined) this.interval[id] = Math.min(PARK_INTERVAL_MAX, 2 * (this.interval[id] as number));
    this.keep(w, writes);
    this.parkedAt[id] = -1;
    w.parked = false;
  }

  private keep(w: Warp, writes: number): void {
    let k = this.kept[w.id];
    if (k === undefined) {
      k = { writes, block: 0, pc: 0, active: 0, mask: 0, exited: 0, sp: 0, lsp: 0, psp: 0, misses: 0, regs: new Int32Array(this.regWords), control: new Int32Array(CONTROL_WORDS) };
      this.kept[w.id] = k;
    }
    k.writes = writes;
    k.block = w.blockLinear;
    k.pc = w.pc;
    k.active = w.active;
    k.mask = w.mask;
    k.exited = w.exited;
    k.sp = w.sp;
    k.lsp = w.lsp;
    k.psp = w.psp;
    k.misses = 0;
    k.regs.set(w.i32.subarray(w.rb4, w.rb4 + this.regWords));
    this.controlOf(w, k.control);
  }

  /** the live part of the warp's control stacks, zeros after */
  private controlOf(w: Warp, out: Int32Array): void {
    out.fill(0);
    if (w.sp > 0) out.set(w.stack.subarray(0, 2 * w.sp), 0);
    if (w.lsp > 0) out.set(w.loopBase.subarray(0, w.lsp), 256);
    if (w.psp > 0) out.set(w.predStack.subarray(0, w.psp), 256 + 64);
  }

  private scratch = new Int32Array(CONTROL_WORDS);
  private same(k: Kept, w: Warp): boolean {
    if (k.active !== w.active || k.mask !== w.mask || k.exited !== w.exited || k.sp !== w.sp || k.lsp !== w.lsp || k.psp !== w.psp) return false;
    const regs = w.i32;
    for (let i = 0, at = w.rb4; i < this.regWords; i++, at++) if ((regs[at] as number) !== (k.regs[i] as number)) return false;
    this.controlOf(w, this.scratch);
    for (let i = 0; i < CONTROL_WORDS; i++) if ((this.scratch[i] as number) !== (k.control[i] as number)) return false;
    return true;
  }

  /** the warp switched to another of its diverged paths (Warp.switchPath): it is not parked on that one */
  unpark(w: Warp): void {
    this.parkedAt[w.id] = -1;
    w.parked = false;
  }

  /** whether a warp became parked since the last call */
  takeNewlyParked(): boolean {
    const n = this.newly;
    this.newly = false;
    return n;
  }

  /** the pc the warp was found parked at */
  parkedPc(w: Warp): number {
    return this.kept[w.id]?.pc ?? w.pc;
  }

  /**
   * every warp of the given blocks is parked at the current write count, waits at a barrier or has
   * exited, and at least one is parked (a block of barrier waiters alone is the barrier deadlock)
   */
  allParked(blocks: readonly { warps: readonly Warp[] }[]): boolean {
    const writes = this.writes();
    let parked = 0;
    for (const b of blocks)
      for (const w of b.warps) {
        if (w.state === WarpState.Running) {
          if (this.parkedAt[w.id] !== writes) return false;
          parked++;
        }
      }
    return parked > 0;
  }
}
