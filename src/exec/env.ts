/**
 * What compiled instructions see of the launch: device memory, the cache hierarchy, counters, the
 * arguments and the launch geometry. The block scheduler provides barriers.
 */
import type { KernelIR } from '../ir/types.js';
import type { AccessOutcome, GlobalAccess } from '../memory/hierarchy.js';
import type { DeviceMemory } from '../memory/deviceMemory.js';
import type { InstrCounters } from './counters.js';
import type { ExplainRecorder } from './explain.js';
import type { PeerEnv } from './peerEnv.js';
import type { Warp } from './warp.js';
import type { SyncVersions } from './memoryModel.js';

export type Dim3 = [number, number, number];
export type { AccessOutcome, GlobalAccess, MemOp } from '../memory/hierarchy.js';
/** the cache hierarchy as the executor uses it (src/memory/hierarchy.ts implements it) */
export interface MemorySystem {
  access(a: GlobalAccess): AccessOutcome;
  prefetchL2(lineAddress: number, prop: 'persisting' | 'normal'): void;
  discardL2(lineAddress: number): void;
  /** a scheduler round ended: every resident warp took a turn (about one memory latency) */
  endRound?(): void;
  /** CCTL.IVALL: the SM's L1 drops every global line (an acquire at gpu or sys scope) */
  invalidateL1?(sm: number): void;
  /** stale L1 copies (memory/l1Cache.ts): how many, one SM's copy of a line, keeping one */
  readonly staleLines?: number;
  staleCopy?(sm: number, line: number): Uint8Array | undefined;
  keepStale?(sm: number, line: number, before: Uint8Array): void;
  /** a load's lanes read an SM's stale copy (what makes a launch's values depend on the cache model) */
  noteStaleRead?(): void;
  /** after access(): lines written while another L1 holds them; (line, sectors) pairs of stale copies brought up to date */
  readonly sharedWrites?: readonly number[];
  readonly refreshes?: readonly number[];
}

/** hooks for the timing model; called only when set */
export interface ExecObserver {
  /** a warp instruction issued (index into the program's meta) */
  issue(w: Warp, index: number): void;
  /** the counted slots of a run (index .. index + len - 1) issued in order, as issue() of each */
  issueRun?(w: Warp, index: number, len: number): void;
  /**
   * a memory request: a global one's outcome, sectors and distinct 128-B lines; a shared one's
   * wavefronts as `sectors` and, as `lines`, the distinct 32-bit words it moves (its share of the 32
   * banks: a broadcast moves one; the timing model's shared replays weigh it). A global atomic's also: the operations it takes at its
   * L2 slice (`atomicOps`, memOps.ts atomicOps) and its first lane's 128-B line (which slice)
   */
  memory(w: Warp, index: number, outcome: AccessOutcome | null, sectors: number, lines: number, atomicOps?: number, line?: number): void;
  /**
   * a request to host-mapped memory (cudaHostAllocMapped): over the host link instead of the GPU's
   * caches; `load`: it returns data (a load or a fetching atomic), else a store acknowledged later
   */
  hostMemory?(w: Warp, index: number, sectors: number, load: boolean): void;
  /** the warp's clock (cycles): when its next instruction may issue */
  clockOf?(w: Warp): number;
  /** the issue cycle of the warp's latest instruction (the one executing now) */
  now?(w: Warp): number;
  /** when the warp's latest global request reached the L2 (cycles) */
  atL2?(w: Warp): number;
  /** the warp's latest instruction issued `by` cycles earlier, and all that follows it (a futile poll); `settle`: its block's end follows */
  rewind?(w: Warp, by: number, settle: boolean): void;
  /** the earliest clock of the warps that can issue, other than `w` (Infinity when none); `parked`: parked warps count too */
  minRunningClock?(w: Warp, parked?: boolean): number;
  /** the warp sleeps (NANOSLEEP) for `ns` nanoseconds as the arch rounds them */
  sleep?(w: Warp, ns: number): void;
  /** cycles → the GPU's global timer in nanoseconds */
  timerNs?(cycles: number): number;
}

/**
 * `warpsight check`'s view of a launch (src/check): told before every memory instruction and fence
 * runs, and of barrier arrivals and releases, so that it can order accesses by happens-before. Only a
 * checked launch has one (ExecEnv.check); without it compile.ts wraps nothing and the scheduler makes
 * two null tests per barrier, so a profile run and its report do not change.
 */
export interface AccessCheck {
  /** slot `index` (a ld, st, atom, cpasync or membar) is about to run for the warp's active lanes `w.mask` */
  before(w: Warp, index: number): void;
  /** a warp's lanes arrived at barrier `id` (bar.sync or bar.arrive) */
  barrierArrive(w: Warp, id: number): void;
  /** barrier `id` of block `blockLinear` completed: the waiting warps resume */
  barrierRelease(blockLinear: number, id: number, waiting: readonly Warp[]): void;
}

export interface ExecEnv {
  kernel: KernelIR;
  mem: DeviceMemory;
  memsys: MemorySystem | null;
  counters: InstrCounters;
  args: Record<string, number | bigint>;
  grid: Dim3;
  block: Dim3;
  /** byte offset of dynamic shared memory within the block's shared window */
  dynamicSharedBase: number;
  /** total shared bytes per block (static + dynamic) */
  sharedBytes: number;
  /** a warp reached bar.sync/bar.arrive: the scheduler decides whether it waits */
  barrier(w: Warp, id: number, count: number, arrive: boolean, index: number): void;
  observer: ExecObserver | null;
  /** `--explain`: captures a representative warp's lane addresses of the memory instructions asked about (absent: none) */
  explain?: ExplainRecorder | null;
  /** `warpsight check`: the access observer (absent: none, at no cost) */
  check?: AccessCheck | null;
  /**
   * the scheduler asks before a warp's turn: true holds it back this round (a warp that polls memory
   * waits while it is ahead in time of the warps that could write what it polls; memoryModel.ts)
   */
  hold?(w: Warp): boolean;
  /** timed visibility of strongly written locations (memoryModel.ts); absent without a timing model */
  syncVersions?: SyncVersions;
  /** the other PEs, in a multi-PE program (NVSHMEM device operations; absent: a single GPU) */
  peers?: PeerEnv;
}
