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
  /** the parked watch last found the warp spinning without effect (parkedWatch.ts) */
  parked = false;
  /** a strong load read a value that a store not yet visible in time has replaced (memoryModel.ts) */
  readOld = false;
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

  private regViews: RegArray[] | null = null;
  /** the warp's registers as one array each, made on first use (compiled code reaches them through the views above) */
  get regs(): RegArray[] {
    this.regViews ??= this.file.views(this.id);
    return this.regViews;
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
    this.parked = false;
    this.readOld = false;
  }

  /**
   * the store requests the SM may combine with this warp's (GlobalAccess.group): its block's, while
   * the warps of the block issue together; only its own once it has waited for a load
   */
  storeGroup(): number {
    return this.afterLoad !== 0 ? -1 - (this.blockLinear * 32 + this.warpInBlock) : this.blockLinear;
  }

  setActive(m: number): void {
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
    while (this.sp > 0) {
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
