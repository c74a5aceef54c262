/**
 * A warp: 32 lanes of registers in typed arrays, the active mask, and a SIMT reconvergence stack.
 * Structured control flow reconverges at the immediate post-dominator (the end of an if/else, the exit
 * of a loop), which is what nvcc's BSSY/BSYNC pairs enforce on Volta+.
 */
import type { Storage } from '../ir/types.js';
import type { Page } from '../memory/deviceMemory.js';

export type RegArray = Int32Array | Float32Array | Float64Array | BigInt64Array;

interface RegArrayType {
  new (length: number): RegArray;
  new (buffer: ArrayBuffer, byteOffset: number, length: number): RegArray;
  readonly BYTES_PER_ELEMENT: number;
}
/** the typed array that holds a register of each storage class */
export const REG_ARRAY: Record<Storage, RegArrayType> = { i32: Int32Array, f32: Float32Array, f64: Float64Array, i64: BigInt64Array };

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

/** bytes of one register (32 lanes) */
const regBytes = (s: Storage): number => 32 * REG_ARRAY[s].BYTES_PER_ELEMENT;

/**
 * Register files of `count` warps: typed-array views into one buffer, warp after warp, so that the
 * warps the scheduler visits in turn sit next to each other in memory (thousands of warps are
 * resident; scattered small arrays thrash the host's caches). Registers in `shared` (launch
 * constants) are one array for all warps.
 */
export function allocRegFiles(storages: Storage[], count: number, shared: ReadonlyMap<number, RegArray> = new Map()): RegArray[][] {
  // 8-byte registers first keeps every view aligned
  const own = storages
    .map((s, i) => ({ s, i }))
    .filter(({ i }) => !shared.has(i))
    .sort((a, b) => regBytes(b.s) - regBytes(a.s));
  const perWarp = own.reduce((n, { s }) => n + regBytes(s), 0);
  const buffer = new ArrayBuffer(Math.max(8, perWarp * count));
  const files: RegArray[][] = [];
  for (let w = 0; w < count; w++) {
    let off = w * perWarp;
    const out = storages.map((_, i) => shared.get(i) as RegArray);
    for (const { s, i } of own) {
      out[i] = new REG_ARRAY[s](buffer, off, 32);
      off += regBytes(s);
    }
    files.push(out);
  }
  return files;
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
  /** reconvergence stack: pairs of (pc, mask) */
  readonly stack = new Int32Array(256);
  sp = 0;
  /** stack indices of the enclosing loops' exit entries */
  readonly loopBase = new Int32Array(64);
  lsp = 0;
  /** predicate-region save stack */
  readonly predStack = new Int32Array(32);
  psp = 0;
  steps = 0;
  /** warp index within its block */
  warpInBlock = 0;
  /** linear block index and SM of the block */
  blockLinear = 0;
  sm = 0;
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

  constructor(readonly regs: RegArray[]) {}

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
