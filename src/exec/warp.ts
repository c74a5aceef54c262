/**
 * A warp: 32 lanes of registers (regFile.ts), the active mask, and a SIMT reconvergence stack.
 * Structured control flow reconverges at the immediate post-dominator (the end of an if/else, the exit
 * of a loop), which is what nvcc's BSSY/BSYNC pairs enforce on Volta+.
 */
import type { Page } from '../memory/deviceMemory.js';
import type { RegArray, RegFile } from './regFile.js';

export const FULL = -1; // all 32 lanes, as an int32 mask

export const enum WarpState {
  Running = 0,
  /** waiting at a barrier */
  Barrier = 1,
  /** all lanes exited */
  Exited = 2,
}

const popTable = new Uint8Array(1 << 16);
for (let i = 1; i < popTable.length; i++) popTable[i] = (popTable[i >> 1] as number) + (i & 1);
export function popc(m: number): number {
  return (popTable[m & 0xffff] as number) + (popTable[(m >>> 16) & 0xffff] as number);
}

/** int32 entries of a warp's control stacks: reconvergence (pc, mask pairs), loop bases, predicate saves */
const STACK_INTS = 256;
const LOOP_INTS = 64;
const PRED_INTS = 32;
/** bytes of one warp's control stacks */
const CONTROL_BYTES = (STACK_INTS + LOOP_INTS + PRED_INTS) * 4;

/**
 * The control stacks of a launch's warps, in one buffer made when the first warp needs its stacks:
 * thousands of small typed arrays with backing stores of their own cost a short kernel a visible part
 * of its run to allocate and collect, and a kernel without branches, loops or predicated regions
 * needs none.
 */
/**
 * A diverged path set aside by independent thread scheduling (Volta+): where it was, its lanes, and
 * the part of the control stacks it had pushed above `depth` (reconvergence entries and the loops it
 * is in, relative to `depth`). It runs again when the path that replaced it pops back to `depth`
 * (reaches the reconvergence point or exits), or when that path is in turn set aside.
 */
interface SuspendedPath {
  depth: number;
  pc: number;
  active: number;
  entries: number[];
  loops: number[];
  /** paths set aside inside this one's frame (deeper than `depth`): they come back with it */
  inner: SuspendedPath[];
}

export class ControlArena {
  private buffer: ArrayBuffer | null = null;
  constructor(private readonly warps: number) {}
  /** the buffer, and where warp `index`'s stacks begin in it */
  of(index: number): { buffer: ArrayBuffer; offset: number } {
    this.buffer ??= new ArrayBuffer(this.warps * CONTROL_BYTES);
    return { buffer: this.buffer, offset: index * CONTROL_BYTES };
  }
}

export class Warp {
  pc = 0;
  /** lanes executing the current instruction (branch-level mask) */
  active = 0;
  /** lanes whose side effects happen: active & predicate (differs inside predicated regions) */
  mask = 0;
  activeCount = 0;
  /** lanes that have exited */
  exited = 0;
  /** lanes that exist (a partial last warp has fewer than 32) */
  valid = 0;
  state: WarpState = WarpState.Running;
  sp = 0;
  lsp = 0;
  psp = 0;
  steps = 0;
  /** warp index within its block */
  warpInBlock = 0;
  /** linear block index and SM of the block */
  blockLinear = 0;
  sm = 0;
  /** 1 while the warp's turn began after a wait for a global load (set by the scheduler) */
  afterLoad = 0;
  /** the warp's last turn polled memory (a strong load): it waits for time to catch up (ExecEnv.hold) */
  polled = false;
  /** the warp's last turn slept or read the timer: it is held back while ahead of every other warp (ExecEnv.hold) */
  slept = false;
  /** the parked watch last found the warp spinning without effect (parkedWatch.ts) */
  parked = false;
  /** a strong load read a value that a store not yet visible in time has replaced (memoryModel.ts) */
  readOld = false;
  /**
   * its latest poll found nothing new and no remote write on its way (remoteArrivals.ts): the parked
   * watch looks at it at the end of the turn, not hundreds of futile polls later
   */
  lookSoon = false;
  /** its latest strong load read a value a peer PE wrote (remoteArrivals.ts): its next gpu/sys fence takes memoryModel.membar*AfterPeerRead */
  peerRead = false;
  /** paths set aside by switchPath, innermost last (null: the warp never switched) */
  suspended: SuspendedPath[] | null = null;
  /**
   * Registers of lanes that wait while another path runs out of program order (after a switch): a
   * path's arithmetic writes all 32 lanes of its temporaries (codegen.ts: a lane outside the path
   * holds nothing live there in program order), which is no longer so once paths interleave. The
   * lanes' registers as they were when they stopped; each lane gets them back when it runs again.
   */
  private guard: { lanes: number; regs: Int32Array } | null = null;
  /** the write count at the warp's last path switch, and how many switches it made at that count */
  switchWrites = -1;
  switchTries = 0;
  /** barrier the warp waits at: id, expected thread count (0 = whole block), arrival mask */
  barId = 0;
  barCount = 0;
  barPc = 0;
  /** the block's shared memory window */
  shared: Page | null = null;
  /** block coordinates */
  ctaX = 0;
  ctaY = 0;
  ctaZ = 0;

  /** the launch's register views, shared by all warps, and this warp's base in them (see regFile.ts) */
  readonly i32: Int32Array;
  readonly f32: Float32Array;
  readonly f64: Float64Array;
  readonly i64: BigInt64Array;
  readonly rb8: number;
  readonly rb4: number;

  /**
   * `id`: the warp's index among its launch's warp objects (dense, so the timing model can index its
   * state by it; its registers and control stacks are at that index in `file` and `control`)
   */
  constructor(
    private readonly file: RegFile,
    readonly id: number,
    private readonly control: ControlArena,
  ) {
    this.i32 = file.i32;
    this.f32 = file.f32;
    this.f64 = file.f64;
    this.i64 = file.i64;
    this.rb8 = file.base8(id);
    this.rb4 = 2 * this.rb8;
  }

  private readonly regViews: (RegArray | undefined)[] = [];
  /**
   * register `r` of the warp as one array, made on first use (compiled code reaches registers through
   * the views above): per register, as the instructions that take one as an array use a few of them
   * (a view of every register per warp was most of a launch's garbage)
   */
  reg(r: number): RegArray {
    return (this.regViews[r] ??= this.file.view(this.id, r));
  }

  /** its file serves another launch (RegFile.reuse): the views of registers are that launch's to make */
  forgetViews(): void {
    this.regViews.length = 0;
    this.regWords = -1;
  }

  // the control stacks' views are made on first use (see ControlArena)
  private stackView: Int32Array | null = null;
  private loopView: Int32Array | null = null;
  private predView: Int32Array | null = null;

  /** reconvergence stack: pairs of (pc, mask) */
  get stack(): Int32Array {
    if (this.stackView === null) this.openControl();
    return this.stackView as Int32Array;
  }
  /** stack indices of the enclosing loops' exit entries */
  get loopBase(): Int32Array {
    if (this.loopView === null) this.openControl();
    return this.loopView as Int32Array;
  }
  /** predicate-region save stack */
  get predStack(): Int32Array {
    if (this.predView === null) this.openControl();
    return this.predView as Int32Array;
  }

  private openControl(): void {
    const { buffer, offset: at } = this.control.of(this.id);
    this.stackView = new Int32Array(buffer, at, STACK_INTS);
    this.loopView = new Int32Array(buffer, at + STACK_INTS * 4, LOOP_INTS);
    this.predView = new Int32Array(buffer, at + (STACK_INTS + LOOP_INTS) * 4, PRED_INTS);
  }

  reset(valid: number): void {
    this.pc = 0;
    this.valid = valid;
    this.active = valid;
    this.mask = valid;
    this.activeCount = popc(valid);
    this.exited = 0;
    this.state = WarpState.Running;
    this.sp = 0;
    this.lsp = 0;
    this.psp = 0;
    this.steps = 0;
    this.afterLoad = 0;
    this.polled = false;
    this.slept = false;
    this.parked = false;
    this.readOld = false;
    this.lookSoon = false;
    this.peerRead = false;
    this.suspended = null;
    this.guard = null;
    this.switchWrites = -1;
    this.switchTries = 0;
  }

  /**
   * the store requests the SM may combine with this warp's (GlobalAccess.group): its block's, while
   * the warps of the block issue together; only its own once it has waited for a load
   */
  storeGroup(): number {
    return this.afterLoad !== 0 ? -1 - (this.blockLinear * 32 + this.warpInBlock) : this.blockLinear;
  }

  setActive(m: number): void {
    if (this.guard !== null) this.unguard(m);
    this.active = m;
    this.mask = m;
    this.activeCount = popc(m);
  }

  push(pc: number, mask: number): void {
    const i = this.sp << 1;
    this.stack[i] = pc;
    this.stack[i + 1] = mask;
    this.sp++;
  }

  /**
   * Resume the next pending path: pop entries until one still has live lanes. When the stack runs
   * out, the warp has finished.
   */
  resume(): void {
    for (;;) {
      // a path set aside at this depth runs again: the path that replaced it has reconverged or exited
      const s = this.suspended;
      if (s !== null && s.length > 0 && (s[s.length - 1] as SuspendedPath).depth === this.sp) {
        this.install(s.pop() as SuspendedPath);
        if (this.active !== 0) return;
        continue;
      }
      if (this.sp === 0) break;
      this.sp--;
      if (this.lsp > 0 && this.loopBase[this.lsp - 1] === this.sp) this.lsp--;
      const i = this.sp << 1;
      const m = (this.stack[i + 1] as number) & ~this.exited;
      if (m !== 0) {
        this.pc = this.stack[i] as number;
        this.setActive(m);
        return;
      }
    }
    this.setActive(0);
    this.state = WarpState.Exited;
  }

  /**
   * The diverged paths of this warp that independent thread scheduling could run instead of the
   * current one: how many are pending on the reconvergence stack (entries whose lanes are not the
   * current path's, at a pc that is not a reconvergence point, where lanes wait for the others as at
   * a BSYNC) and how many are set aside. `joins` marks the reconvergence slots.
   */
  otherPaths(joins: Uint8Array): number {
    return (this.pendingEntry(joins) >= 0 ? 1 : 0) + (this.suspended?.length ?? 0);
  }

  /** the topmost pending path's stack index, or -1 */
  private pendingEntry(joins: Uint8Array): number {
    for (let e = this.sp - 1; e >= 0; e--) {
      const i = e << 1;
      const m = (this.stack[i + 1] as number) & ~this.exited;
      if (m !== 0 && (m & this.active) === 0 && (joins[this.stack[i] as number] as number) === 0) return e;
    }
    return -1;
  }

  /**
   * Independent thread scheduling: set the current path aside and run another diverged path of the
   * warp (a pending one first, else the innermost path set aside). The scheduler calls it only for a
   * warp whose current path spins without effect (parkedWatch.ts), so code without intra-warp waiting
   * runs as before. False when there is no other path (or inside a predicated region).
   */
  switchPath(joins: Uint8Array): boolean {
    if (this.psp !== 0) return false;
    const e = this.pendingEntry(joins);
    let next: SuspendedPath;
    let depth: number;
    if (e >= 0) {
      // take the entry out of the stack: the current path's entries above it move down one
      const i = e << 1;
      next = { depth: e, pc: this.stack[i] as number, active: this.stack[i + 1] as number, entries: [], loops: [], inner: [] };
      this.stack.copyWithin(i, i + 2, this.sp << 1);
      this.sp--;
      for (let l = 0; l < this.lsp; l++) if ((this.loopBase[l] as number) > e) this.loopBase[l] = (this.loopBase[l] as number) - 1;
      // paths set aside above it sit one entry lower too
      const lower = (ps: SuspendedPath[]): void => {
        for (const p of ps)
          if (p.depth > e) {
            p.depth--;
            lower(p.inner);
          }
      };
      if (this.suspended !== null) lower(this.suspended);
      depth = e;
    } else {
      const s = this.suspended;
      if (s === null || s.length === 0) return false;
      next = s.pop() as SuspendedPath;
      depth = next.depth;
      // the current path's frame begins at that depth: it cannot lie below it (it was installed there)
      if (depth > this.sp) {
        s.push(next);
        return false;
      }
    }
    // the current path's frame: its entries and loops above `depth`
    const entries = Array.from(this.stack.subarray(depth << 1, this.sp << 1));
    let firstLoop = this.lsp;
    while (firstLoop > 0 && (this.loopBase[firstLoop - 1] as number) >= depth) firstLoop--;
    const loops: number[] = [];
    for (let l = firstLoop; l < this.lsp; l++) loops.push((this.loopBase[l] as number) - depth);
    this.suspended ??= [];
    // paths the current one set aside deeper than `depth` are part of its frame
    const inner: SuspendedPath[] = [];
    while (this.suspended.length > 0 && (this.suspended[this.suspended.length - 1] as SuspendedPath).depth > depth) inner.unshift(this.suspended.pop() as SuspendedPath);
    this.suspended.push({ depth, pc: this.pc, active: this.active, entries, loops, inner });
    this.sp = depth;
    this.lsp = firstLoop;
    this.install(next);
    return true;
  }

  /** int32 words of the warp's registers, and how many of them hold 8-byte registers (2 words a lane) */
  private regWords = -1;
  private wideWords = 0;
  private regShape(): void {
    const layout = this.file.layout;
    this.regWords = layout.bytesPerWarp / 4;
    for (let r = 0; r < layout.storages.length; r++) {
      const s = layout.storages[r];
      const at = layout.offset[r] as number;
      if (at >= 0 && (s === 'f64' || s === 'i64')) this.wideWords = Math.max(this.wideWords, (at + 32) * 2);
    }
  }

  /** copy `lanes`' words of the warp's registers from `from` into the register file */
  private restoreLanes(from: Int32Array, lanes: number): void {
    const regs = this.i32;
    const base = this.rb4;
    for (let i = 0; i < this.regWords; i++) {
      const lane = i < this.wideWords ? (i & 63) >> 1 : (i - this.wideWords) & 31;
      if ((lanes >>> lane) & 1) regs[base + i] = from[i] as number;
    }
  }

  /** lanes `m` run: guarded ones get their registers back */
  private unguard(m: number): void {
    const g = this.guard as { lanes: number; regs: Int32Array };
    const back = g.lanes & m;
    if (back === 0) return;
    this.restoreLanes(g.regs, back);
    g.lanes &= ~back;
    if (g.lanes === 0) this.guard = null;
  }

  /** a path runs out of program order: every other live lane's registers are kept until it runs again */
  private guardOthers(running: number): void {
    if (this.regWords < 0) this.regShape();
    const g = this.guard;
    // lanes still guarded have their kept registers back first (they have not run since)
    if (g !== null) this.restoreLanes(g.regs, g.lanes);
    const regs = g?.regs ?? new Int32Array(this.regWords);
    regs.set(this.i32.subarray(this.rb4, this.rb4 + this.regWords));
    this.guard = { lanes: this.valid & ~this.exited & ~running, regs };
  }

  /** run a path set aside: its frame goes back on the stacks at its depth (this.sp) */
  private install(p: SuspendedPath): void {
    this.guardOthers(p.active & ~this.exited);
    this.stack.set(p.entries, this.sp << 1);
    for (const l of p.loops) this.loopBase[this.lsp++] = this.sp + l;
    this.sp += p.entries.length >> 1;
    if (p.inner.length > 0) (this.suspended ??= []).push(...p.inner);
    this.pc = p.pc;
    this.setActive(p.active & ~this.exited);
  }

  /** lanes leave the enclosing loop: drop them from the entries pushed inside the loop */
  breakLanes(lanes: number): void {
    const base = this.lsp > 0 ? (this.loopBase[this.lsp - 1] as number) : -1;
    for (let e = base + 1; e < this.sp; e++) {
      const i = (e << 1) + 1;
      this.stack[i] = (this.stack[i] as number) & ~lanes;
    }
    this.setActive(this.active & ~lanes);
    if (this.active === 0) this.resume();
  }

  /** lanes exit the kernel */
  exitLanes(lanes: number): void {
    this.exited |= lanes;
    this.setActive(this.active & ~lanes);
    if (this.active === 0) this.resume();
  }
}
