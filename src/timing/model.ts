/**
 * The timing model: cycles, duration, achieved occupancy, Speed-of-Light throughputs, issue-slot use
 * and warp stall reasons of one launch, from the interpreter's issue and memory events.
 *
 * How it works (first order, deterministic):
 *  - Every warp keeps its own clock. An instruction issues when its source registers are ready
 *    (a scoreboard per warp register: ready time and the kind of producer), when its warp has come
 *    out of a barrier, and when its scheduler (SMSP = warp index in block mod 4) has an issue slot.
 *    The gap before issue is charged to a stall reason: long_scoreboard (global/local load),
 *    short_scoreboard (shared memory, MUFU, S2R/LDC, shuffles), wait (fixed-latency ALU), barrier,
 *    not_selected (issue slot taken), mio/lg/math_pipe_throttle (a queue or pipe full).
 *  - Shared resources are reservation calendars (calendar.ts): per SMSP issue slots and MUFU/FP64
 *    pipes; per SM the LSU, the L1 tag stage (sectors) and the shared-memory data stage
 *    (wavefronts); for the GPU the L2 slices (sectors) and DRAM (bytes, at the sustained fraction of
 *    peak). A load completes at the later of its level's latency (L1/L2/DRAM, from the cache
 *    hierarchy's outcome; DRAM's spread over ± dramJitter/2 per request) and its service in those
 *    calendars plus the return trip; the L2 write-backs a request causes take DRAM time too. When a
 *    request is served much later than issued, the warp is throttled (the LSU queue is finite).
 *  - Blocks: the interpreter runs blocks a wave of resident slots at a time; this model keeps its
 *    own slots (blocksPerSm per SM) and gives each new block the slot that frees earliest, once the
 *    SM's block launcher (one block per ctaLaunch cycles) is free. A block ends when its last warp's
 *    clock does; its slot takes the next block blockRetire later. A warp stops being active at its
 *    EXIT. A block is known to be finished when the interpreter reuses its warps for the next block
 *    (or at the end).
 *  - Achieved occupancy = warp-resident cycles / (max warps × SM active cycles), per ncu.
 *  - Duration = the last SM's (or memory system's) end + a fixed launch overhead.
 * Cost per event: a typed-array lookup (warp id → dense index), a few typed-array reads/writes and one
 * or two calendar reservations.
 */
import { type Arch, DEFAULT_MEMORY_MODEL, type MemoryModelCosts } from '../arch/types.js';
import type { InstrClass, InstrMeta } from '../exec/compile.js';
import type { AccessOutcome, ExecObserver } from '../exec/env.js';
import { type Warp, WarpState } from '../exec/warp.js';
import { type Instr, type KernelIR, MAX_ASYNC_GROUPS, type Operand } from '../ir/types.js';
import { BUCKET, Calendars } from './calendar.js';
import type { RemoteLink } from '../arch/remoteLink.js';
import { slotDeps, type SlotDeps } from './deps.js';

/** stall reasons, in the order of the metric keys below */
export const REASONS = [
  'long_scoreboard',
  'short_scoreboard',
  'wait',
  'barrier',
  'not_selected',
  'selected',
  'mio_throttle',
  'lg_throttle',
  'math_pipe_throttle',
  'branch_resolving',
  'membar',
  'drain',
  'dispatch_stall',
  'no_instruction',
  'misc',
  'sleeping',
  'tex_throttle',
  'imc_miss',
  'gmma',
] as const;
const R_LONG = 0;
const R_SHORT = 1;
const R_WAIT = 2;
const R_BAR = 3;
const R_NOTSEL = 4;
const R_SEL = 5;
const R_MIO = 6;
const R_LG = 7;
const R_PIPE = 8;
const R_BRANCH = 9;
const R_MEMBAR = 10;
const R_DRAIN = 11;
const R_SLEEP = 15;


export interface TimingLaunch {
  grid: [number, number, number];
  block: [number, number, number];
  blocksPerSm: number;
  kernel: KernelIR;
  meta: readonly InstrMeta[];
  /** each block's first and last cycle as the model sees them (the runtime's block scheduler replays them) */
  onBlock?: (linear: number, start: number, end: number) => void;
  /** a PE of a multi-GPU program: what its remote accesses (NVSHMEM) cost over the link; absent: none */
  remote?: RemoteLink;
  /**
   * the launch's memory synchronization domain (device/syncDomains.ts), in cycles from the launch's
   * start: `inFlight(t)`: when the writes of other kernels of its domain in flight at t are
   * acknowledged (null: none in flight), which its fences of the scopes that do (arch
   * memoryModel.domainFenceScopes) and its completion flush wait for;
   * `slowWrite`: each of its own slow writes (remote stores), for the kernels after it. Absent: a
   * launch outside a program (no other kernels), no per-domain figures
   */
  syncDomain?: { domain: number; inFlight: ((cycle: number) => number) | null; slowWrite: (issue: number, ack: number) => void };
  /** bytes the L2 lets stay dirty during the launch (L2Cache.dirtyRoomBytes), for TimingParams.l2DirtyTurnover; absent: no limit */
  l2DirtyRoomBytes?: number;
}

/** what the launch's counters saw, for the figures the timing model's own observation lacks */
export interface LaunchTraffic {
  /** all DRAM traffic of the launch (write-backs included) and its writes, in bytes */
  dramBytes?: number;
  dramWriteBytes?: number;
  /**
   * every shared-pipe wavefront (l1tex__data_pipe_lsu_wavefronts_mem_shared: op_misc and LDGSTS
   * included), for the L1 data pipe's share; the timing model sees the shared loads and stores only
   */
  sharedWavefronts: number;
  /** SHFLs and S2Rs of per-thread registers (op_misc, one wavefront each): LSU work the timing model does not see */
  lsuMiscInstructions: number;
  /** ADU instructions (sm__inst_executed_pipe_adu: LDC, the shared window's S2UR, EXIT, BAR) */
  aduInstructions: number;
}

export interface TimingModel {
  observer: ExecObserver;
  /**
   * the extra shared wavefronts the launch's conflict-free shared accesses took where they met global
   * traffic or block starts on their SM (arch sharedReplay): LDS and STS, whole numbers;
   * known once the interpreter is done, before finish
   */
  sharedReplays(): { ld: number; st: number };
  /** ncu metrics of the launch, given what the counters saw (LaunchTraffic) */
  finish(traffic: LaunchTraffic): Record<string, number>;
  /** the launch is over (finished, its replays read): the calendars' arrays serve the next launch's (Calendars.release) */
  release(): void;
}

/** the numbers the model uses, from the arch data (defaults: hardware-rules.md §8, calibration notes in arch data) */
export interface TimingParams {
  clockHz: number;
  smCount: number;
  schedulers: number;
  maxWarpsPerSm: number;
  lat: Record<'alu' | 'fma' | 'fp64' | 'sfu' | 'special' | 'constant' | 'shared' | 'l1' | 'l2' | 'dram' | 'branch' | 'barrier', number>;
  ctaLaunch: number;
  blockRetire: number;
  dramJitter: number;
  lsuPerCycle: number;
  aduPerCycle: number;
  l1SectorsPerCycle: number;
  sharedWavefrontsPerCycle: number;
  l2SectorsPerCycle: number;
  dramBytesPerCycle: number;
  dramPeakBytesPerCycle: number;
  sfuPerCycle: number;
  fp64PerCycle: number;
  overheadCycles: number;
  /** DRAM time of a written byte relative to a read byte (read/write turnarounds) */
  dramWriteCost: number;
  /** cycles a memory request may wait for service before its warp is throttled */
  queueCycles: number;
  /** SM cycles the L2 takes to turn its dirty room over while it writes back (0: no limit; arch l2DirtyTurnoverNs) */
  l2DirtyTurnover: number;
  /** read bytes that follow a written-back byte and move at the write-back's rate (arch l2WriteBackShadow) */
  l2WriteBackShadow: number;
  /** L2 slices that count cycles (lts__cycles_*), and L2 cycles per SM cycle */
  l2Slices: number;
  l2CyclesPerCycle: number;
  dramClockHz: number;
  /** SM cycles an L2 slice takes per atomic operation, and per f32/f64 add */
  atomicOpCycles: number;
  atomicFloatOpCycles: number;
  /** the slices' atomic units take the waiting SMs in turn (arch throughput.l2AtomicSmTurns) */
  atomicSmTurns: boolean;
  /** fences, L1 invalidations and sleeps */
  mm: MemoryModelCosts;
  /** replays of shared accesses by global traffic on the SM (arch sharedReplay; null: none) */
  sharedReplay: NonNullable<Arch['sharedReplay']> | null;
}

export function timingParams(arch: Arch): TimingParams {
  const L = arch.latency;
  const T = arch.throughput;
  const clk = arch.smClockHz;
  const sectors = arch.sectorSize;
  return {
    clockHz: clk,
    smCount: arch.smCount,
    schedulers: arch.schedulersPerSm,
    maxWarpsPerSm: arch.maxWarpsPerSm,
    lat: {
      alu: L.alu,
      fma: L.fma,
      fp64: L.fp64 ?? 8,
      sfu: L.sfu,
      special: L.special ?? 20,
      constant: L.constant ?? 12,
      shared: L.shared,
      l1: L.l1Hit,
      l2: L.l2Hit,
      dram: L.dram,
      branch: L.branch,
      barrier: L.barrier,
    },
    ctaLaunch: L.ctaLaunch,
    blockRetire: L.blockRetire,
    dramJitter: L.dramJitter,
    lsuPerCycle: T.lsuInstPerCyclePerSm,
    aduPerCycle: T.aduInstPerCyclePerSm,
    l1SectorsPerCycle: T.l1BytesPerCyclePerSm / sectors,
    sharedWavefrontsPerCycle: T.sharedWavefrontsPerCyclePerSm ?? 1,
    l2SectorsPerCycle: T.l2BytesPerCycle / sectors,
    dramBytesPerCycle: (arch.dramBandwidth * (T.dramEfficiency ?? 0.81)) / clk,
    dramPeakBytesPerCycle: arch.dramBandwidth / clk,
    sfuPerCycle: (T.sfuLanesPerSm ?? 16) / arch.schedulersPerSm / arch.warpSize,
    fp64PerCycle: T.fp64LanesPerSm / arch.schedulersPerSm / arch.warpSize,
    overheadCycles: (arch.launchOverheadNs * clk) / 1e9,
    dramWriteCost: T.dramWriteCost,
    queueCycles: 2 * L.dram,
    l2DirtyTurnover: ((T.l2DirtyTurnoverNs ?? 0) * clk) / 1e9,
    l2WriteBackShadow: T.l2WriteBackShadow ?? 0,
    l2Slices: arch.l2SlicesActive,
    l2CyclesPerCycle: arch.l2ClockHz / clk,
    dramClockHz: arch.dramClockHz,
    atomicOpCycles: ((T.l2AtomicOpNs ?? 0.732) * clk) / 1e9,
    atomicFloatOpCycles: ((T.l2AtomicFloatOpNs ?? 1.78) * clk) / 1e9,
    atomicSmTurns: T.l2AtomicSmTurns ?? false,
    mm: arch.memoryModel ?? DEFAULT_MEMORY_MODEL,
    sharedReplay: arch.sharedReplay ?? null,
  };
}

// a warp's record in the model's per-warp state (doubles; the int32 fields hold exact integers)
/** the warp's clock: when its next instruction may issue */
const W_CLOCK = 0;
/** when it began running its current block */
const W_START = 1;
/** issue cycle of its latest instruction */
const W_LAST = 2;
/** when its outstanding stores are acknowledged (EXIT waits for them: 'drain') */
const W_DRAIN = 3;
/** the block it runs (linear index as int32; -1 none) and that block's record (-1 none) */
const W_LINEAR = 4;
const W_REC = 5;
/** its SM and scheduler (SMSP, global index) */
const W_SM = 6;
const W_SCHED = 7;
/** the barrier it waits at (record * 16 + id; -1 none) and the generation it arrived in */
const W_BAR_KEY = 8;
const W_BAR_GEN = 9;
/** when its latest global request reached the L2 (the memory model's timed visibility) */
const W_L2 = 10;
/**
 * the earliest cycle an instruction that ptxas may schedule earlier (hoist()) can issue at: one past
 * the warp's latest ordering instruction (a branch, a store, a barrier, a fence: hoistable below)
 */
const W_FLOOR = 11;
/** then one ready time per register */
const W_READY = 12;

// instruction kinds for the hot path
const K_ALU = 0;
const K_FMA = 1;
const K_FP64 = 2;
const K_SFU = 3;
const K_SPECIAL = 4;
const K_CONST = 5;
const K_LDG = 6;
const K_STG = 7;
const K_LDS = 8;
const K_STS = 9;
const K_ATOM = 10;
const K_ATOMS = 11;
const K_BRANCH = 12;
const K_EXIT = 13;
const K_BAR_SYNC = 14;
const K_BAR_ARV = 15;
const K_WARP = 16;
const K_MEMBAR = 17;
const K_OTHER = 18;

function kindOf(m: InstrMeta): number {
  const cls: InstrClass = m.cls;
  switch (cls) {
    case 'alu':
    case 'conv':
      return K_ALU;
    case 'fma':
      return K_FMA;
    case 'fp64':
      return K_FP64;
    case 'sfu':
      return K_SFU;
    case 'move':
      return m.opcode === 'S2R' ? K_SPECIAL : m.opcode === 'LDC' || m.opcode === 'LDC.64' || m.opcode.startsWith('ULDC') ? K_CONST : K_ALU;
    case 'ldg':
    // an async copy's data arrives as a load's does; what waits for it is the wait (DEPBAR), which reads
    // the token the copies write (requests complete about in order, so the last copy's time stands)
    case 'ldgsts':
    // a generic access is timed as a global one (genericOps.ts)
    case 'ldgen':
      return K_LDG;
    case 'stg':
    case 'stgen':
      return K_STG;
    // local accesses the model keeps in L1 (localOps.ts) take the L1 data path as shared ones do
    case 'lds':
    case 'ldl':
      return K_LDS;
    case 'sts':
    case 'stl':
      return K_STS;
    case 'atom':
      return K_ATOM;
    case 'atoms':
      return K_ATOMS;
    case 'branch':
      return K_BRANCH;
    case 'exit':
      return K_EXIT;
    case 'bar':
      return m.opcode === 'BAR.ARV' ? K_BAR_ARV : K_BAR_SYNC;
    case 'warp':
      return K_WARP;
    case 'membar':
      return K_MEMBAR;
    default:
      return K_OTHER;
  }
}

/**
 * A request's place in [0, 1) within the DRAM latency spread (row hit or miss, bank queue): a hash of
 * who asked and when (block, warp, issue cycle), so runs are repeatable and requests differ.
 */
function jitter(w: Warp, t: number): number {
  let h = Math.imul(w.blockLinear ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(w.warpInBlock + 1, 0xc2b2ae35) ^ Math.imul((t | 0) + 1, 0x27d4eb2f);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  return (h >>> 0) / 4294967296;
}

/** a small binary min-heap of (time, slot) pairs; ties broken by slot for determinism */
class SlotHeap {
  private t: Float64Array;
  private s: Int32Array;
  private n = 0;
  constructor(cap: number) {
    this.t = new Float64Array(cap);
    this.s = new Int32Array(cap);
  }
  private less(a: number, b: number): boolean {
    const ta = this.t[a] as number;
    const tb = this.t[b] as number;
    return ta < tb || (ta === tb && (this.s[a] as number) < (this.s[b] as number));
  }
  private swap(a: number, b: number): void {
    const t = this.t[a] as number;
    this.t[a] = this.t[b] as number;
    this.t[b] = t;
    const s = this.s[a] as number;
    this.s[a] = this.s[b] as number;
    this.s[b] = s;
  }
  push(time: number, slot: number): void {
    let i = this.n++;
    this.t[i] = time;
    this.s[i] = slot;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }
  /** pops the earliest; returns the slot, time in `lastTime` */
  lastTime = 0;
  pop(): number {
    const slot = this.s[0] as number;
    this.lastTime = this.t[0] as number;
    this.n--;
    if (this.n > 0) {
      this.t[0] = this.t[this.n] as number;
      this.s[0] = this.s[this.n] as number;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < this.n && this.less(l, m)) m = l;
        if (r < this.n && this.less(r, m)) m = r;
        if (m === i) break;
        this.swap(i, m);
        i = m;
      }
    }
    return slot;
  }
  get size(): number {
    return this.n;
  }
  /** the earliest time held (Infinity when empty) */
  get minTime(): number {
    return this.n > 0 ? (this.t[0] as number) : Infinity;
  }
}

export function createTimingModel(arch: Arch, launch: TimingLaunch, params: TimingParams = timingParams(arch)): TimingModel {
  const P = params;
  const meta = launch.meta;
  const nSlots = meta.length;
  const [bx, by, bz] = launch.block;
  const [gx, gy, gz] = launch.grid;
  const warpsPerBlock = Math.ceil((bx * by * bz) / 32);
  const totalBlocks = gx * gy * gz;
  const smCount = P.smCount;
  const S = P.schedulers;
  const blocksPerSm = Math.max(1, launch.blocksPerSm);
  const interpSlots = Math.max(1, Math.min(totalBlocks, smCount * blocksPerSm));
  const maxWarps = interpSlots * warpsPerBlock;
  const nRegs = Math.max(1, launch.kernel.regs.length);

  // ---- static per-slot tables ----
  const kind = new Uint8Array(nSlots);
  for (let i = 0; i < nSlots; i++) kind[i] = kindOf(meta[i] as InstrMeta);
  // the memory model's slots (memoryModel.ts): a fence's cost by scope, an L1 invalidation's
  const MM_NONE = 0;
  const MM_CTA = 1;
  const MM_GPU = 2;
  const MM_SYS = 3;
  const MM_IVALL = 4;
  const MM_IVALL_AFTER = 5;
  const mmKind = new Uint8Array(nSlots);
  for (let i = 0; i < nSlots; i++) {
    const r = (meta[i] as InstrMeta).mm;
    if (!r) mmKind[i] = MM_NONE;
    else if (r.role === 'membar') mmKind[i] = r.scope === 'cta' ? MM_CTA : r.scope === 'gpu' ? MM_GPU : MM_SYS;
    else if (r.role === 'ivall') mmKind[i] = r.afterMembar ? MM_IVALL_AFTER : MM_IVALL;
  }
  const MMC = P.mm;
  const deps: SlotDeps = slotDeps(meta);
  // cp.async groups (LDGDEPBAR closes one, DEPBAR.LE SB0, N waits for all but the newest N): per warp the
  // open group's latest completion and the committed groups' completions, oldest first. A wait-all
  // (waitAsyncCopies) waits through the copies' token register as before and forgets the groups.
  const A_COPY = 1;
  const A_COMMIT = 2;
  const A_WAIT = 3;
  const A_WAITALL = 4;
  const asyncRole = new Uint8Array(nSlots);
  const asyncPrior = new Uint8Array(nSlots);
  for (let i = 0; i < nSlots; i++) {
    const m = meta[i] as InstrMeta;
    if (m.cls === 'ldgsts') asyncRole[i] = A_COPY;
    else if (m.opcode === 'LDGDEPBAR') asyncRole[i] = A_COMMIT;
    else if (m.instr?.op === 'cpwaitprior') {
      asyncRole[i] = A_WAIT;
      asyncPrior[i] = m.instr.prior;
    } else if (m.instr?.op === 'cpwait') asyncRole[i] = A_WAITALL;
  }
  const G = MAX_ASYNC_GROUPS;
  let grpOpen = new Float64Array(0);
  let grpRing = new Float64Array(0);
  let grpCount = new Int32Array(0);
  const groupsOf = (wi: number): void => {
    if (wi < grpOpen.length) return;
    const n = Math.max(wi + 1, 2 * grpOpen.length, 64);
    const open = new Float64Array(n);
    open.set(grpOpen);
    const ring = new Float64Array(n * G);
    ring.set(grpRing);
    const count = new Int32Array(n);
    count.set(grpCount);
    grpOpen = open;
    grpRing = ring;
    grpCount = count;
  };
  /** an async-group instruction at issue time t: returns when it may issue (a wait) */
  const asyncGroups = (wi: number, role: number, pc: number, t: number): number => {
    groupsOf(wi);
    const at = wi * G;
    let n = grpCount[wi] as number;
    if (role === A_COMMIT) {
      if (n === G) {
        // the oldest two merge: a wait that covers one covers both
        grpRing[at + 1] = Math.max(grpRing[at] as number, grpRing[at + 1] as number);
        grpRing.copyWithin(at, at + 1, at + G);
        n--;
      }
      grpRing[at + n] = grpOpen[wi] as number;
      grpCount[wi] = n + 1;
      grpOpen[wi] = 0;
      return t;
    }
    if (role === A_WAITALL) {
      grpCount[wi] = 0;
      return t;
    }
    const keep = asyncPrior[pc] as number;
    if (n <= keep) return t;
    let done = t;
    for (let g = 0; g < n - keep; g++) done = Math.max(done, grpRing[at + g] as number);
    grpRing.copyWithin(at, at + n - keep, at + n);
    grpCount[wi] = keep;
    return done;
  };
  // the registers each slot reads and writes, flattened: slot s's are [at[s], at[s + 1]) of one array
  // (the hot path reads two typed arrays instead of one per slot)
  const flat = (lists: readonly Int32Array[]): { at: Int32Array; regs: Int32Array } => {
    const at = new Int32Array(nSlots + 1);
    for (let i = 0; i < nSlots; i++) at[i + 1] = (at[i] as number) + (lists[i] as Int32Array).length;
    const regs = new Int32Array(at[nSlots] as number);
    for (let i = 0; i < nSlots; i++) regs.set(lists[i] as Int32Array, at[i] as number);
    return { at, regs };
  };
  const { at: readAt, regs: readRegs } = flat(deps.reads);
  const { at: writeAt, regs: writeRegs } = flat(deps.writes);

  // ---- per-warp state (dense index per Warp object, in the order they first issue) ----
  /** Warp.id → dense index, -1 until the warp first issues (grown when ids exceed the launch's warps) */
  let indexOfId = new Int32Array(maxWarps).fill(-1);
  let nWarps = 0;
  /** the Warp object behind each dense index: its interpreter state says whether it can issue again */
  const warpOf: Warp[] = [];
  /**
   * One record of W_STRIDE doubles per warp (fields W_*, then its registers' ready times): an
   * instruction's bookkeeping touches one or two cache lines, where a typed array per field cost a
   * line each (thousands of warps are resident; their state does not stay in the host's caches)
   */
  const W_STRIDE = W_READY + nRegs;
  const ws = new Float64Array(maxWarps * W_STRIDE);
  for (let o = 0; o < ws.length; o += W_STRIDE) {
    ws[o + W_LINEAR] = -1;
    ws[o + W_REC] = -1;
    ws[o + W_BAR_KEY] = -1;
  }
  /** the stall reason a register's pending value is charged to, per warp register */
  const readyKind = new Uint8Array(maxWarps * nRegs);

  // ---- blocks (records pooled; a record is live from the block's first issue to its end) ----
  const nRec = interpSlots + 2;
  const bLinear = new Int32Array(nRec).fill(-1);
  const bSlot = new Int32Array(nRec);
  const bSm = new Int32Array(nRec);
  const bStart = new Float64Array(nRec);
  const bEnd = new Float64Array(nRec);
  const bDone = new Uint8Array(nRec).fill(1);
  /** warps that have begun the block (its start is still a time one of them may issue at until all have) */
  const bJoined = new Int32Array(nRec);
  /** completion of the block's latest load that missed (in-flight fills other warps' hits wait for) */
  const bMiss = new Float64Array(nRec);
  /** when the block's latest store is acknowledged by the L2: a gpu/sys fence waits for it (cumulativity through bar.sync) */
  const bDrain = new Float64Array(nRec);
  const barOpen = new Float64Array(nRec * 16);
  const barGen = new Int32Array(nRec * 16);
  const barRel = new Float64Array(nRec * 16);
  const freeRecs: number[] = [];
  for (let r = nRec - 1; r >= 0; r--) freeRecs.push(r);
  const liveByLinear = new Map<number, number>();

  // ---- timing slots ----
  const tSlots = smCount * blocksPerSm;
  const heap = new SlotHeap(tSlots + 1);
  for (let s = 0; s < tSlots; s++) heap.push(0, s);
  const smLauncher = new Float64Array(smCount);
  const smFirst = new Float64Array(smCount).fill(Infinity);
  const smLastEnd = new Float64Array(smCount);
  const smWarpCycles = new Float64Array(smCount);
  /** blocks begun so far: once all have, no block slot is taken again */
  let startedBlocks = 0;

  /**
   * The calendars' horizon: a cycle no later than any reservation still to come. Every reservation
   * is made by a warp at or after its latest issue (W_LAST: issue() reserves from its clock or, for an
   * instruction ptxas may move up, its floor W_FLOOR; memory() from W_LAST), and a warp's floor only
   * grows within its block; so the bound is the earliest of
   *  - the lesser of W_LAST and W_FLOOR of each warp that can still issue in its block (not exited,
   *    not moved on to another);
   *  - the start of each live block some of whose warps have not issued yet (they begin there);
   *  - while blocks remain to begin: the earliest free block slot, and each live block's end so far
   *    (the slot it frees, no earlier, takes a later block).
   * A warp waiting at a barrier counts at its W_LAST: a barrier counting the block's live threads
   * releases at the latest arrival, which may be earlier than the warps still running. Without the
   * waiting warps (`running`), the bound the calendars may cut a too-long window to (calendar.ts).
   * O(live warps + resident blocks); the calendars ask only when their window is full.
   */
  const horizonOf = (running: boolean): number => {
    let h = Infinity;
    for (let wi = 0; wi < nWarps; wi++) {
      const o = wi * W_STRIDE;
      if ((ws[o + W_REC] as number) < 0) continue;
      const w = warpOf[wi] as Warp;
      if (w.state === WarpState.Exited || (w.blockLinear | 0) !== (ws[o + W_LINEAR] as number)) continue;
      if (running && w.state === WarpState.Barrier) continue;
      // a hoisted instruction (hoist) may still issue back to the warp's floor
      const last = Math.min(ws[o + W_LAST] as number, ws[o + W_FLOOR] as number);
      if (last < h) h = last;
    }
    const more = startedBlocks < totalBlocks;
    for (let r = 0; r < nRec; r++) {
      if (bDone[r] !== 0) continue;
      if ((bJoined[r] as number) < warpsPerBlock && (bStart[r] as number) < h) h = bStart[r] as number;
      if (more && (bEnd[r] as number) < h) h = bEnd[r] as number;
    }
    if (more && heap.minTime < h) h = heap.minTime;
    return h;
  };
  const horizon = (): number => horizonOf(false);
  const runningHorizon = (): number => horizonOf(true);

  // ---- calendars ----
  /** every calendar of the launch, for release */
  const calendars: Calendars[] = [];
  const calendar = (...args: ConstructorParameters<typeof Calendars>): Calendars => {
    const c = new Calendars(...args);
    calendars.push(c);
    return c;
  };
  const issueCal = calendar(smCount * S, 1, undefined, horizon, runningHorizon);
  const sfuCal = calendar(smCount * S, P.sfuPerCycle, undefined, horizon, runningHorizon);
  const fp64Cal = calendar(smCount * S, P.fp64PerCycle, undefined, horizon, runningHorizon);
  const lsuCal = calendar(smCount, P.lsuPerCycle, undefined, horizon, runningHorizon);
  const l1Cal = calendar(smCount, P.l1SectorsPerCycle, undefined, horizon, runningHorizon);
  const shCal = calendar(smCount, P.sharedWavefrontsPerCycle, undefined, horizon, runningHorizon);
  /**
   * Shared-access replays (arch sharedReplay, test/fidelity/probes/wavefronts): on the H200
   * a conflict-free STS takes one more wavefront when it meets the data of a 128-bit global load
   * returning into its SM's L1, and an LDS when it meets global store data being read there or a
   * block starting on the SM; the more of the time the shared data stage is busy with that op, the
   * more of those events meet one. (On the H200 one wave of the scan, its loads all before its STS and
   * its stores all after its LDS, is exactly ideal; here its blocks, started on an SM a ctaLaunch
   * apart, still meet a little: 3-5 %, test/fidelity/wavefronts.test.ts.)
   * Per SM and 64-cycle bucket, a tally of each side: the shared op's wavefronts, weighed by the share
   * of the 32 banks they use, and each kind of global event. The meetings of a bucket are the events
   * times the share of the bucket the op keeps the stage busy (the expected coincidences of the two
   * spread over it); a rate per event at a stage busy all the time makes them replays. Kept as the
   * product grows with either side, the sum does not depend on the order the interpreter delivers the
   * events in. The tallies are calendars of a rate they never fill, kept as far back as the others.
   */
  const RP = P.sharedReplay;
  const CO_LDS = 0;
  const CO_STS = 1;
  const CO_LDG128 = 2;
  const CO_STG128 = 3;
  const CO_STGN = 4;
  const CO_START = 5;
  const CO_KINDS = 6;
  const coCal = calendar(RP ? smCount * CO_KINDS : 1, 1 << 20, RP ? undefined : 1, horizon, runningHorizon);
  /** per slot: the tally its accesses go to (-1: none) */
  const coKind = new Int8Array(nSlots).fill(-1);
  if (RP)
    for (let i = 0; i < nSlots; i++) {
      const m = meta[i] as InstrMeta;
      // shared memory proper, 32-bit (or narrower) as every access the probes and the scan measured:
      // the H200's ws_baseline_syncthreads, whose STS.128 follow its LDG.E.128, is exactly ideal (ground
      // truth family 8). Local accesses take the data stage too but are not shared wavefronts; LDGSTS
      // writes no register data (cp_cg_memcpy_async_a16: exactly ideal); a generic access's lanes may be either
      if (m.cls === 'lds' && m.bytes <= 4) coKind[i] = CO_LDS;
      else if (m.cls === 'sts' && m.bytes <= 4) coKind[i] = CO_STS;
      else if (m.cls === 'ldg' && m.bytes === 16) coKind[i] = CO_LDG128;
      else if (m.cls === 'stg') coKind[i] = m.bytes === 16 ? CO_STG128 : CO_STGN;
    }
  /** the meetings so far, per global kind (at its CO_ index): fractions, rounded once the rates make them replays */
  const meetings = new Float64Array(CO_KINDS);
  const perBucket = 1 / BUCKET;
  /**
   * an event of tally `co` on SM sm: at cycle coArg[0], of coArg[1] (bank-weighed wavefronts,
   * requests or a start). The two doubles go through a typed array: a call that is not inlined boxes
   * its double arguments (an allocation per access), the SM and the tally are small integers
   */
  const coArg = new Float64Array(2);
  const collide = (sm: number, co: number): void => {
    const t = coArg[0] as number;
    const amount = coArg[1] as number;
    const at = sm * CO_KINDS;
    const x = amount * perBucket;
    if (co === CO_LDS) {
      meetings[CO_STG128] = (meetings[CO_STG128] as number) + x * coCal.usedAt(at + CO_STG128, t);
      meetings[CO_STGN] = (meetings[CO_STGN] as number) + x * coCal.usedAt(at + CO_STGN, t);
      meetings[CO_START] = (meetings[CO_START] as number) + x * coCal.usedAt(at + CO_START, t);
    } else if (co === CO_STS) meetings[CO_LDG128] = (meetings[CO_LDG128] as number) + x * coCal.usedAt(at + CO_LDG128, t);
    else meetings[co] = (meetings[co] as number) + x * coCal.usedAt(at + (co === CO_LDG128 ? CO_STS : CO_LDS), t);
    coCal.reserve(at + co, t, amount);
  };
  const l2Cal = calendar(1, P.l2SectorsPerCycle, undefined, horizon, runningHorizon);
  const dramCal = calendar(1, P.dramBytesPerCycle, undefined, horizon, runningHorizon);
  // the L2's write-backs, and the fills in their wake, at (dirty room) / l2DirtyTurnover bytes per
  // cycle: only where that is below DRAM's sustained rate (a large persisting set-aside; with a
  // small one the dirty room turns over faster than DRAM could take it, and DRAM is the limit)
  const wbRoom = launch.l2DirtyRoomBytes ?? 0;
  const wbRate = P.l2DirtyTurnover > 0 ? wbRoom / P.l2DirtyTurnover : Infinity;
  const wbCal = wbRate < P.dramBytesPerCycle ? calendar(1, wbRate, undefined, horizon, runningHorizon) : null;
  /**
   * each L2 slice's atomic unit: one operation at a time (memOps.ts atomicOps), so the atomics of all
   * warps on one address serialise there (the H200: 0.73 ns each, test/fidelity/probes/atomics); in
   * operations of atomicOpCycles, an f32/f64 add counting atomicFloatOpCycles / atomicOpCycles
   */
  const atomCal = calendar(Math.max(1, P.l2Slices), 1 / P.atomicOpCycles, undefined, horizon, runningHorizon);
  const atomWeight = new Float64Array(nSlots).fill(1);
  /**
   * Per slice and SM: the earliest cycle the SM's next atomic there may be served. The unit takes the
   * SMs with atomics waiting in turn, so on a contended slice an SM gets one operation per turn of all
   * the waiting SMs and a block's warps, queued together, end a turn apart each rather than together
   * (the H200: 197 cycles between an SM's warps on one counter, 132 SMs x 0.732 ns; arch
   * throughput.l2AtomicSmTurns). The unit's own rate stays atomCal's.
   */
  const atomNext = new Float64Array(P.atomicSmTurns ? Math.max(1, P.l2Slices) * P.smCount : 0);
  /** per slice and SM: its current span of requests there, first arrival to last service (-Infinity: none yet) */
  const atomFirst = new Float64Array(atomNext.length).fill(-Infinity);
  const atomLast = new Float64Array(atomNext.length).fill(-Infinity);
  const atomNear = P.lat.dram;
  for (let i = 0; i < nSlots; i++) {
    const ins = (meta[i] as InstrMeta).instr;
    if (ins && ins.op === 'atom' && ins.fn === 'add' && ins.type.tag === 'scalar' && (ins.type.kind === 'f32' || ins.type.kind === 'f64')) atomWeight[i] = P.atomicFloatOpCycles / P.atomicOpCycles;
  }
  // remote accesses (NVSHMEM P2P: InstrMeta.instr.remote) take the link instead of the local L2 and
  // DRAM: each SM's share of it, then the GPU's links; a system-scope fence waits for the acknowledgements
  const link = launch.remote ?? null;
  const cyc = (ns: number): number => (ns * P.clockHz) / 1e9;
  const remoteSlot = new Uint8Array(nSlots);
  const sysFence = new Uint8Array(nSlots);
  for (let i = 0; i < nSlots; i++) {
    const m = meta[i] as InstrMeta;
    const ins = m.instr;
    if (link && ins && (ins.op === 'ld' || ins.op === 'st' || ins.op === 'atom') && ins.remote) remoteSlot[i] = 1;
    if (link && (m.opcode === 'MEMBAR.SC.SYS' || m.opcode === 'MEMBAR.SYS')) sysFence[i] = 1;
  }
  /**
   * Slots ptxas may schedule earlier than the C's order within a basic block (its list scheduler
   * moves loads and their address arithmetic up, so that a warp's independent loads are in flight
   * together and the scoreboard waits at the first use): register-to-register work and weak loads.
   * The rest orders: a branch ends the block; a store, atomic, fence or strong load is not passed by
   * a load (they may alias, or order memory); barriers, shuffles, waits and exits stay put. The H200
   * (test/fidelity/probes/mlp): a grid-stride sum with 1, 2, 4, 8 loads per trip (#pragma unroll 1,
   * SASS: the trip's loads first, then its adds) takes 200, 118, 68, 42 us at 64 x 128 threads.
   */
  const hoist = new Uint8Array(nSlots);
  for (let i = 0; i < nSlots; i++) {
    const m = meta[i] as InstrMeta;
    const k = kind[i] as number;
    if (mmKind[i] !== MM_NONE || remoteSlot[i] === 1) continue;
    if (k === K_ALU || k === K_FMA || k === K_FP64 || k === K_SFU || k === K_SPECIAL || k === K_CONST || k === K_LDS) hoist[i] = m.opcode === 'CS2R' ? 0 : 1;
    else if (k === K_LDG && m.cls === 'ldg' && !m.opcode.includes('STRONG')) hoist[i] = 1;
  }
  const linkSmCal = calendar(smCount, link ? link.smBytesPerNs / cyc(1) : 1, undefined, horizon, runningHorizon);
  const linkCal = calendar(1, link ? link.linkBytesPerNs / cyc(1) : 1, undefined, horizon, runningHorizon);
  const syncDomain = launch.syncDomain ?? null;
  const foreignInFlight = syncDomain ? syncDomain.inFlight : null;
  /** warp cycles at gpu/sys fences, and the part of them spent on other kernels' writes of the domain */
  const fenceWait = new Float64Array(1);
  const foreignWait = new Float64Array(1);
  let domainFences = false;
  for (let i = 0; i < nSlots; i++) if (mmKind[i] === MM_GPU || mmKind[i] === MM_SYS) domainFences = true;
  const domainGpu = MMC.domainFenceScopes.includes('gpu');
  const domainSys = MMC.domainFenceScopes.includes('sys');
  const remoteLoadCycles = link ? cyc(link.loadNs) : 0;
  const remoteAckCycles = link ? cyc(link.storeAckNs) : 0;
  // a remote access reaches the peer's memory half a remote load's round trip after it leaves (a
  // symmetric link: the measured g latency 1,011 ns puts it at ~505 ns, beside the store's 478 ns
  // acknowledgement); W_L2 of a remote access is that arrival (remoteArrivals.ts)
  const remoteArriveCycles = remoteLoadCycles / 2;
  const sysFenceCycles = link ? cyc(link.sysFenceNs) : 0;
  const storeIssueCycles = link ? cyc(link.storeIssueNs) : 0;
  /** per warp: when its next remote store may leave (a warp's remote stores go out one per storeIssueCycles) */
  let remoteStoreNext = new Float64Array(link ? maxWarps : 0);
  // PEs on other nodes (RemoteLink.network): each message takes the transport's serial server (IBRC's
  // proxy thread, IBGDA's NIC) when its call posts it, its bytes the wire; a put lands one latency
  // after the wire and is acknowledged (what quiet waits for) one more later
  const net = link?.network ?? null;
  const netServer = calendar(1, 1, undefined, horizon, runningHorizon);
  const netWire = calendar(1, net ? net.bytesPerNs / cyc(1) : 1, undefined, horizon, runningHorizon);
  const netMessageCycles = net ? cyc(net.messageNs) : 0;
  const netLatencyCycles = net ? cyc(net.latencyNs) : 0;
  /** per slot: the first slot of a peerptr (its call posts its messages there): 1 a thread's call, 2 a warp's, 3 a block's */
  const netPost = new Uint8Array(net ? nSlots : 0);
  if (net)
    for (let i = 0; i < nSlots; i++) {
      const ins = (meta[i] as InstrMeta).instr;
      if (ins?.op === 'peerptr' && (i === 0 || (meta[i - 1] as InstrMeta).instr !== ins)) netPost[i] = ins.call.endsWith('_block') ? 3 : ins.call.endsWith('_warp') ? 2 : 1;
    }
  /** per warp: when the last message it posted left the server (its data follows it onto the wire) */
  let netPosted = new Float64Array(net ? maxWarps : 0);

  /** an L2 slice per 128-B line (a hash, as the hardware spreads lines over the slices) */
  const nSlices = Math.max(1, P.l2Slices);
  const sliceOf = (line: number): number => {
    let h = Math.imul((line % 4294967296) | 0, 0x9e3779b1) ^ Math.imul(Math.floor(line / 4294967296) | 0, 0x85ebca6b);
    h ^= h >>> 16;
    return (h >>> 0) % nSlices;
  };

  // ---- totals ----
  const stall = new Float64Array(REASONS.length);
  let issued = 0;
  /** the latest store completion (a typed array: a double in a closure variable is boxed at every store) */
  const memEnd = new Float64Array(1);
  /** the L1 data pipe's global wavefronts: one per line a request touches */
  let l1Lines = 0;
  let dramBytesSeen = 0;
  /**
   * DRAM bytes written back by the launch's requests, the fill bytes they may still hold up (each
   * written byte up to l2WriteBackShadow read bytes that follow it), and the fill bytes held up
   */
  let wbBytes = 0;
  let wbShadow = 0;
  let wbHeldReads = 0;
  let lsuInstr = 0;

  const lat = P.lat;
  const halfL2 = lat.l2 / 2;
  const halfDram = (lat.dram - lat.l2) / 2;
  const queue = P.queueCycles;

  const onBlock = launch.onBlock;
  const finalizeBlock = (rec: number): void => {
    bDone[rec] = 1;
    const end = bEnd[rec] as number;
    if (onBlock) onBlock(bLinear[rec] as number, bStart[rec] as number, end);
    const sm = bSm[rec] as number;
    if (end > (smLastEnd[sm] as number)) smLastEnd[sm] = end;
    heap.push(end + P.blockRetire, bSlot[rec] as number);
    liveByLinear.delete(bLinear[rec] as number);
    freeRecs.push(rec);
  };

  const startBlock = (linear: number): number => {
    const rec = freeRecs.pop() as number;
    const slot = heap.pop();
    const free = heap.lastTime;
    const sm = slot % smCount;
    // the SM's launcher starts one block per ctaLaunch cycles; a slot takes its next block blockRetire after its last one ended
    const launchAt = Math.max(free, smLauncher[sm] as number);
    smLauncher[sm] = launchAt + P.ctaLaunch;
    if (RP) {
      coArg[0] = launchAt;
      coArg[1] = 1;
      collide(sm, CO_START);
    }
    bLinear[rec] = linear;
    bSlot[rec] = slot;
    bSm[rec] = sm;
    bStart[rec] = launchAt;
    bEnd[rec] = launchAt;
    bDone[rec] = 0;
    bJoined[rec] = 0;
    startedBlocks++;
    bMiss[rec] = 0;
    bDrain[rec] = 0;
    barOpen.fill(0, rec * 16, rec * 16 + 16);
    barGen.fill(0, rec * 16, rec * 16 + 16);
    if (launchAt < (smFirst[sm] as number)) smFirst[sm] = launchAt;
    liveByLinear.set(linear, rec);
    return rec;
  };

  /** the Warp object now runs block `linear`: close its previous life, open the new one */
  const switchBlock = (wi: number, w: Warp): void => {
    const o = wi * W_STRIDE;
    const old = ws[o + W_REC] as number;
    if (old >= 0) {
      {
        const s = ws[o + W_SM] as number;
        smWarpCycles[s] = (smWarpCycles[s] as number) + (ws[o + W_CLOCK] as number) - (ws[o + W_START] as number);
      }
      if (bDone[old] === 0 && bLinear[old] === ws[o + W_LINEAR]) finalizeBlock(old);
    }
    const linear = w.blockLinear;
    let rec = liveByLinear.get(linear);
    if (rec === undefined) rec = startBlock(linear);
    bJoined[rec] = (bJoined[rec] as number) + 1;
    ws[o + W_REC] = rec;
    // kept as int32, as the block records keep it
    ws[o + W_LINEAR] = linear | 0;
    const sm = bSm[rec] as number;
    ws[o + W_SM] = sm;
    ws[o + W_SCHED] = sm * S + (w.warpInBlock % S);
    const t = bStart[rec] as number;
    ws[o + W_CLOCK] = t;
    ws[o + W_START] = t;
    ws[o + W_LAST] = t;
    ws[o + W_FLOOR] = t;
    ws[o + W_BAR_KEY] = -1;
    ws[o + W_DRAIN] = 0;
    ws[o + W_L2] = t;
    // a new block's warp has no copies in flight
    if (wi < grpOpen.length) {
      grpOpen[wi] = 0;
      grpCount[wi] = 0;
    }
    // a loop: a handful of registers, where fill() costs a builtin call per warp
    for (let i = o + W_READY; i < o + W_STRIDE; i++) ws[i] = 0;
  };

  let lastW: Warp | null = null;
  let lastWi = 0;
  const idOf = (w: Warp): number => {
    if (w === lastW) return lastWi;
    const id = w.id;
    if (id >= indexOfId.length) {
      const grown = new Int32Array(Math.max(id + 1, 2 * indexOfId.length)).fill(-1);
      grown.set(indexOfId);
      indexOfId = grown;
    }
    let wi = indexOfId[id] as number;
    if (wi < 0) {
      wi = nWarps++;
      indexOfId[id] = wi;
      warpOf[wi] = w;
    }
    lastW = w;
    lastWi = wi;
    return wi;
  };

  /** a narrow pipe (FP64, MUFU) accepts one warp instruction at a time: waiting for it is a pipe-throttle stall */
  const throughPipe = (cal: Calendars, sched: number, ti: number, front: number): number => {
    const tp = cal.reserve(sched, ti, 1);
    if (tp <= ti + 1) return ti;
    // a hoisted instruction (hoist) delays its warp only past the in-order frontier
    const from = ti > front ? ti : front;
    if (tp - 1 > from) stall[R_PIPE] = (stall[R_PIPE] as number) + tp - 1 - from;
    return tp - 1;
  };

  const issue = (w: Warp, pc: number): void => {
    const wi = idOf(w);
    const o = wi * W_STRIDE;
    if ((ws[o + W_LINEAR] as number) !== w.blockLinear || (ws[o + W_REC] as number) < 0) {
      switchBlock(wi, w);
      rescan = true;
    }
    let t = ws[o + W_CLOCK] as number;
    // out of a barrier: the release is the last arrival (the first warp to resume closes the generation)
    const bk = ws[o + W_BAR_KEY] as number;
    if (bk >= 0) {
      if ((barGen[bk] as number) === (ws[o + W_BAR_GEN] as number)) {
        barRel[bk] = (barOpen[bk] as number) + lat.barrier;
        barGen[bk] = (barGen[bk] as number) + 1;
        barOpen[bk] = 0;
      }
      const rel = barRel[bk] as number;
      if (rel > t) {
        stall[R_BAR] = (stall[R_BAR] as number) + rel - t;
        t = rel;
      }
      if (rel > (ws[o + W_FLOOR] as number)) ws[o + W_FLOOR] = rel;
      ws[o + W_BAR_KEY] = -1;
    }
    // a commit closes the warp's group of copies; a wait for all but the newest N holds the warp until
    // the older groups have landed (long scoreboard: the copies are global loads)
    const role = asyncRole[pc] as number;
    if (role > A_COPY) {
      const tw = asyncGroups(wi, role, pc, t);
      if (tw > t) {
        stall[R_LONG] = (stall[R_LONG] as number) + tw - t;
        t = tw;
      }
    }
    // scoreboard: an instruction ptxas may move up starts from the floor, the rest from the clock
    // (the in-order frontier); only the part of a wait past the frontier stalls the warp
    const hoisted = hoist[pc] === 1;
    const base = wi * nRegs;
    const readyAt = o + W_READY;
    let why = -1;
    let tr = hoisted ? (ws[o + W_FLOOR] as number) : t;
    for (let j = readAt[pc] as number, end = readAt[pc + 1] as number; j < end; j++) {
      const r = readRegs[j] as number;
      const rt = ws[readyAt + r] as number;
      if (rt > tr) {
        tr = rt;
        why = readyKind[base + r] as number;
      }
    }
    if (why >= 0 && tr > t) stall[why] = (stall[why] as number) + tr - t;
    // issue slot on the warp's scheduler
    const sched = ws[o + W_SCHED] as number;
    let ti = issueCal.reserve(sched, tr, 1);
    if (ti > tr) {
      const from = tr > t ? tr : t;
      if (ti > from) stall[R_NOTSEL] = (stall[R_NOTSEL] as number) + ti - from;
    }
    if (net !== null && netPost[pc] !== 0) postMessages(w, wi, pc, ti);
    const k = kind[pc] as number;
    let resLat = lat.alu;
    let resKind = R_WAIT;
    switch (k) {
      case K_FMA:
        resLat = lat.fma;
        break;
      case K_FP64:
        ti = throughPipe(fp64Cal, sched, ti, t);
        resLat = lat.fp64;
        break;
      case K_SFU: {
        ti = throughPipe(sfuCal, sched, ti, t);
        resLat = lat.sfu;
        resKind = R_SHORT;
        break;
      }
      case K_SPECIAL:
        resLat = lat.special;
        resKind = R_SHORT;
        break;
      case K_CONST:
        resLat = lat.constant;
        resKind = R_SHORT;
        break;
      case K_LDG:
      case K_STG:
      case K_ATOM:
      case K_LDS:
      case K_STS:
      case K_ATOMS: {
        const sm = ws[o + W_SM] as number;
        const tl = lsuCal.reserve(sm, ti, 1);
        lsuInstr++;
        if (tl > ti + 1) {
          const r = k === K_LDS || k === K_STS || k === K_ATOMS ? R_MIO : R_LG;
          const from = ti > t ? ti : t;
          if (tl - 1 > from) stall[r] = (stall[r] as number) + tl - 1 - from;
          ti = tl - 1;
        }
        // the result time is set by memory(); until then a conservative placeholder
        resLat = k === K_LDS || k === K_ATOMS ? lat.shared : lat.dram;
        resKind = k === K_LDS || k === K_ATOMS ? R_SHORT : R_LONG;
        if (k === K_ATOM) resLat = lat.l2;
        break;
      }
      case K_WARP:
        resLat = lat.shared;
        resKind = R_SHORT;
        break;
      case K_BAR_SYNC:
      case K_BAR_ARV: {
        // it may release waiting warps: the least running clock scans every warp again
        rescan = true;
        const id = (deps.barrierId[pc] as number) & 15;
        const key = (ws[o + W_REC] as number) * 16 + id;
        if (ti > (barOpen[key] as number)) barOpen[key] = ti;
        if (k === K_BAR_SYNC) {
          ws[o + W_BAR_KEY] = key;
          ws[o + W_BAR_GEN] = barGen[key] as number;
        }
        break;
      }
      default:
        break;
    }
    // the 'selected' stall reason is one cycle per issue: finish() takes it from `issued`
    issued++;
    let next = ti + 1;
    if (k === K_BRANCH && lat.branch > 1) {
      stall[R_BRANCH] = (stall[R_BRANCH] as number) + lat.branch - 1;
      next = ti + lat.branch;
    } else if (k === K_EXIT) {
      const d = ws[o + W_DRAIN] as number;
      if (d > next) {
        stall[R_DRAIN] = (stall[R_DRAIN] as number) + d - next;
        next = d;
      }
    } else if (k === K_MEMBAR || mmKind[pc] !== MM_NONE) {
      // a fence: block scope costs a few cycles; gpu and sys scope wait for the block's writes in flight
      // to be acknowledged (the warp's own, and through bar.sync the block's: cumulativity) and then
      // take membarGpu; sys scope takes at least membarSys (memmodel probe: 1159 cycles flat)
      const mk = mmKind[pc] as number;
      const scoped = mk === MM_GPU || mk === MM_SYS;
      // memory synchronization domains: a fence of a scope that does (arch data: sys on the H200; a gpu
      // fence was measured not to) also waits for the writes of the other kernels of its domain still
      // in flight (a communication kernel's NVLink stores), and for no other domain's
      const foreign = scoped && foreignInFlight && (mk === MM_SYS ? domainSys : domainGpu) ? foreignInFlight(ti) : -Infinity;
      const start = next;
      let done = next;
      /** where the fence would end without the other kernels' writes (the foreign wait is the rest) */
      let own = next;
      if (mk === MM_CTA) done = ti + MMC.membarCta;
      else if (scoped) {
        const drain = bDrain[ws[o + W_REC] as number] as number;
        // right after a poll that saw a peer's write the fence takes longer (measured: memoryModel.membar*AfterPeerRead)
        const cost = w.peerRead ? (mk === MM_SYS ? MMC.membarSysAfterPeerRead : MMC.membarGpuAfterPeerRead) : mk === MM_SYS ? MMC.membarSys : MMC.membarGpu;
        w.peerRead = false;
        own = Math.max(next, ti + cost, drain + MMC.membarDrain);
        done = Math.max(own, foreign + MMC.membarDrain);
      } else if (mk === MM_IVALL_AFTER) done = ti + MMC.ivallAfterMembar;
      else if (mk === MM_IVALL) done = ti + MMC.ivall;
      else if (k === K_MEMBAR) done = ti + 1 + lat.l2;
      if (sysFence[pc] === 1) {
        // a PE's system-scope fence (nvshmem_quiet): the remote stores' acknowledgements (the warp's
        // own, and its domain's from other kernels), then the measured fence; no earlier than the
        // fence's own cost above
        const q = Math.max(ti + 1, ws[o + W_DRAIN] as number) + sysFenceCycles;
        own = Math.max(own, q);
        done = Math.max(done, q, foreign + sysFenceCycles);
      }
      if (done > next) {
        stall[R_MEMBAR] = (stall[R_MEMBAR] as number) + done - next;
        next = done;
      }
      if (scoped) {
        fenceWait[0] = (fenceWait[0] as number) + next - start;
        if (next > own) foreignWait[0] = (foreignWait[0] as number) + next - own;
      }
    }
    for (let j = writeAt[pc] as number, end = writeAt[pc + 1] as number; j < end; j++) {
      const r = writeRegs[j] as number;
      ws[readyAt + r] = ti + resLat;
      readyKind[base + r] = resKind;
    }
    if (hoisted) {
      // issued in the shadow of an earlier wait, it still takes one of the warp's issue cycles in
      // the in-order stream (ncu: that cycle is 'selected', not a stall)
      if (next <= t) next = t + 1;
    } else ws[o + W_FLOOR] = next;
    ws[o + W_CLOCK] = next;
    ws[o + W_LAST] = ti;
    const rec = ws[o + W_REC] as number;
    if (next > (bEnd[rec] as number)) bEnd[rec] = next;
  };

  /**
   * slots issueRun may take through issueLean: counted, of a kind whose issue is its scoreboard, its
   * issue slot, a pipe and its result's latency (no memory, branch, barrier, fence, async group or
   * remote message)
   */
  const lean = Uint8Array.from(meta, (m, i) => {
    const k = kind[i] as number;
    const simple = k === K_ALU || k === K_FMA || k === K_FP64 || k === K_SFU || k === K_SPECIAL || k === K_CONST || k === K_WARP || k === K_OTHER;
    return m.counted && simple && (asyncRole[i] as number) <= A_COPY && mmKind[i] === MM_NONE && sysFence[i] === 0 && (net === null || netPost[i] === 0) ? 1 : 0;
  });

  /**
   * issue() of a lean slot after the first instruction of a run: the run is straight-line code the
   * warp issues in one turn, so its block and barrier state are as the first left them. Its
   * scoreboard, issue slot and retirement are issue()'s lines, copied on purpose: the same steps as
   * functions that both call made issue() ~10 % slower on an ALU-bound kernel (V8 did not inline them)
   */
  const issueLean = (wi: number, pc: number): void => {
    const o = wi * W_STRIDE;
    const t = ws[o + W_CLOCK] as number;
    const hoisted = hoist[pc] === 1;
    const base = wi * nRegs;
    const readyAt = o + W_READY;
    let why = -1;
    let tr = hoisted ? (ws[o + W_FLOOR] as number) : t;
    for (let j = readAt[pc] as number, end = readAt[pc + 1] as number; j < end; j++) {
      const r = readRegs[j] as number;
      const rt = ws[readyAt + r] as number;
      if (rt > tr) {
        tr = rt;
        why = readyKind[base + r] as number;
      }
    }
    if (why >= 0 && tr > t) stall[why] = (stall[why] as number) + tr - t;
    const sched = ws[o + W_SCHED] as number;
    let ti = issueCal.reserve(sched, tr, 1);
    if (ti > tr) {
      const from = tr > t ? tr : t;
      if (ti > from) stall[R_NOTSEL] = (stall[R_NOTSEL] as number) + ti - from;
    }
    const k = kind[pc] as number;
    let resLat = lat.alu;
    let resKind = R_WAIT;
    if (k === K_FMA) resLat = lat.fma;
    else if (k === K_FP64) {
      ti = throughPipe(fp64Cal, sched, ti, t);
      resLat = lat.fp64;
    } else if (k === K_SFU) {
      ti = throughPipe(sfuCal, sched, ti, t);
      resLat = lat.sfu;
      resKind = R_SHORT;
    } else if (k === K_SPECIAL) {
      resLat = lat.special;
      resKind = R_SHORT;
    } else if (k === K_CONST) {
      resLat = lat.constant;
      resKind = R_SHORT;
    } else if (k === K_WARP) {
      resLat = lat.shared;
      resKind = R_SHORT;
    }
    issued++;
    let next = ti + 1;
    for (let j = writeAt[pc] as number, end = writeAt[pc + 1] as number; j < end; j++) {
      const r = writeRegs[j] as number;
      ws[readyAt + r] = ti + resLat;
      readyKind[base + r] = resKind;
    }
    if (hoisted) {
      if (next <= t) next = t + 1;
    } else ws[o + W_FLOOR] = next;
    ws[o + W_CLOCK] = next;
    ws[o + W_LAST] = ti;
    const rec = ws[o + W_REC] as number;
    if (next > (bEnd[rec] as number)) bEnd[rec] = next;
  };

  /**
   * the counted slots of a run the scheduler executes at once (slots pc .. pc + len - 1: arithmetic
   * and slots that only count), issued in order: the same as issue() one by one, the first through
   * it and the lean ones after it through issueLean (the call and the checks a run cannot need)
   */
  const issueRun = (w: Warp, pc: number, len: number): void => {
    let wi = -1;
    for (let j = pc, e = pc + len; j < e; j++) {
      if (!(meta[j] as InstrMeta).counted) continue;
      if (wi >= 0 && lean[j] === 1) issueLean(wi, j);
      else {
        issue(w, j);
        wi = idOf(w);
      }
    }
  };

  const setResult = (wi: number, pc: number, done: number, why: number): void => {
    const readyAt = wi * W_STRIDE + W_READY;
    const base = wi * nRegs;
    for (let j = writeAt[pc] as number, end = writeAt[pc + 1] as number; j < end; j++) {
      const r = writeRegs[j] as number;
      ws[readyAt + r] = done;
      readyKind[base + r] = why;
    }
  };

  /**
   * the warp loses `over` cycles to stall reason `why`, counted from the issue of its instruction at
   * `pc` (W_LAST): an instruction issued in order has the clock one past it; one ptxas moved up
   * (hoist) holds the warp only where its delay reaches past the clock
   */
  const throttle = (wi: number, pc: number, why: number, over: number): void => {
    if (hoist[pc] === 0) {
      stallWarp(wi, why, over);
      return;
    }
    const o = wi * W_STRIDE;
    const past = (ws[o + W_LAST] as number) + 1 + over - (ws[o + W_CLOCK] as number);
    if (past > 0) stallWarp(wi, why, past);
  };

  /** the warp loses `over` cycles to stall reason `why` */
  const stallWarp = (wi: number, why: number, over: number): void => {
    const o = wi * W_STRIDE;
    stall[why] = (stall[why] as number) + over;
    const clock = (ws[o + W_CLOCK] as number) + over;
    ws[o + W_CLOCK] = clock;
    const rec = ws[o + W_REC] as number;
    if (clock > (bEnd[rec] as number)) bEnd[rec] = clock;
  };

  /** the PE lane `l` of warp `w` addresses */
  const targetPe = (pe: Operand, w: Warp, l: number): number => ('imm' in pe ? Number(pe.imm) : Number((w.reg(pe.reg) as ArrayLike<number>)[l]));
  /** the active lanes of `w` whose PE operand names a PE on another node */
  const offNodeLanes = (pe: Operand, w: Warp): number => {
    const off = (net as NonNullable<typeof net>).offNode;
    const m = w.mask;
    let c = 0;
    for (let l = 0; l < 32; l++) if ((m >>> l) & 1 && off[targetPe(pe, w, l)] === 1) c++;
    return c;
  };
  /** a peerptr's call posts its messages to PEs on other nodes: one per thread (p, g, AMOs, signals, a thread's put), per warp (_warp) or per block (_block, by its warp 0) */
  const postMessages = (w: Warp, wi: number, pc: number, t: number): void => {
    const ins = (meta[pc] as InstrMeta).instr as Extract<Instr, { op: 'peerptr' }>;
    const group = netPost[pc] as number;
    if (group === 3 && w.warpInBlock !== 0) return;
    const off = offNodeLanes(ins.pe, w);
    const msgs = group === 1 ? off : off > 0 ? 1 : 0;
    if (msgs === 0) return;
    if (wi >= netPosted.length) {
      const grown = new Float64Array(Math.max(wi + 1, 2 * netPosted.length));
      grown.set(netPosted);
      netPosted = grown;
    }
    const left = netServer.reserve(0, t, msgs * netMessageCycles);
    if (left > (netPosted[wi] as number)) netPosted[wi] = left;
  };
  /** a remote access to a PE on another node: its bytes on the wire after its message left the server; data (a load) or the acknowledgement (a store) a round trip later */
  const networkMemory = (wi: number, o: number, pc: number, k: number, t: number, n: number): void => {
    const start = Math.max(t, wi < netPosted.length ? (netPosted[wi] as number) : 0);
    const landed = netWire.reserve(0, start, n * 32) + netLatencyCycles;
    const back = landed + netLatencyCycles;
    // W_L2 of a remote access: when it reaches the peer's memory (remoteArrivals.ts)
    ws[o + W_L2] = landed;
    if (k === K_LDG || (k === K_ATOM && (writeAt[pc + 1] as number) > (writeAt[pc] as number))) {
      setResult(wi, pc, back, R_LONG);
      return;
    }
    if (back > (ws[o + W_DRAIN] as number)) ws[o + W_DRAIN] = back;
    if (back > (memEnd[0] as number)) memEnd[0] = back;
    if (syncDomain) syncDomain.slowWrite(start, back);
  };

  /** a remote access's `n` sectors: through the SM's share of the link and the link; a load's data after the link's latency, a store acknowledged after its own */
  const remoteMemory = (wi: number, o: number, pc: number, k: number, t: number, sm: number, n: number): void => {
    const bytes = n * 32;
    const fetches = (writeAt[pc + 1] as number) > (writeAt[pc] as number);
    if (k === K_LDG || (k === K_ATOM && fetches)) {
      const tl = linkCal.reserve(0, linkSmCal.reserve(sm, t, bytes), bytes);
      setResult(wi, pc, tl + remoteLoadCycles, R_LONG);
      ws[o + W_L2] = tl + remoteArriveCycles;
      return;
    }
    // a store leaves at t or when the warp's previous one lets it (the warp waits for that), takes
    // the SM's share of the link and the link, and is acknowledged after the link's ack latency
    if (wi >= remoteStoreNext.length) {
      const grown = new Float64Array(Math.max(wi + 1, 2 * remoteStoreNext.length));
      grown.set(remoteStoreNext);
      remoteStoreNext = grown;
    }
    const leaves = Math.max(t, remoteStoreNext[wi] as number);
    remoteStoreNext[wi] = leaves + storeIssueCycles;
    if (leaves > t) stallWarp(wi, R_LG, leaves - t);
    const tl = linkCal.reserve(0, linkSmCal.reserve(sm, leaves, bytes), bytes);
    ws[o + W_L2] = tl + remoteArriveCycles;
    const ack = tl + remoteAckCycles;
    if (ack > (ws[o + W_DRAIN] as number)) ws[o + W_DRAIN] = ack;
    if (ack > (memEnd[0] as number)) memEnd[0] = ack;
    if (syncDomain) syncDomain.slowWrite(leaves, ack);
  };

  /**
   * a request to host-mapped memory: over the host link, not through L2 or DRAM. A load's data comes
   * after the measured zero-copy latency; a store is acknowledged after the host's (a system fence and
   * the warp's exit wait for it, as for a store to L2)
   */
  const hostMemory = (w: Warp, pc: number, _n: number, load: boolean): void => {
    const wi = idOf(w);
    const o = wi * W_STRIDE;
    const t = ws[o + W_LAST] as number;
    if (load) {
      setResult(wi, pc, t + MMC.hostMappedLoad, R_LONG);
      return;
    }
    const ack = t + MMC.hostMappedStoreAck;
    if (ack > (ws[o + W_DRAIN] as number)) ws[o + W_DRAIN] = ack;
    const rec = ws[o + W_REC] as number;
    if (ack > (bDrain[rec] as number)) bDrain[rec] = ack;
    if (ack > (memEnd[0] as number)) memEnd[0] = ack;
  };

  const memory = (w: Warp, pc: number, outcome: AccessOutcome | null, n: number, lines: number, atomicOps = 0, line = 0): void => {
    const wi = idOf(w);
    const o = wi * W_STRIDE;
    const t = ws[o + W_LAST] as number;
    const sm = ws[o + W_SM] as number;
    const k = kind[pc] as number;
    if (k === K_LDS || k === K_STS || k === K_ATOMS) {
      const ts = shCal.reserve(sm, t, n);
      // the access takes its share of the data stage's 32 banks (a broadcast one bank, a conflict-free
      // row all 32 per wavefront): a one-lane STS or a broadcast LDS hardly meets global data (the
      // H200's uniformUpdate: 155 extra wavefronts on 32,768 broadcast LDS beside as many STG.128)
      if ((coKind[pc] as number) >= 0) {
        coArg[0] = ts;
        coArg[1] = Math.min(n, lines / 32);
        collide(sm | 0, coKind[pc] as number);
      }
      if (k !== K_STS) setResult(wi, pc, ts + lat.shared, R_SHORT);
      // the MIO queue holds a few instructions' wavefronts
      const over = ts - t - 32;
      if (over > 0) throttle(wi, pc, R_MIO, over);
      return;
    }
    if (remoteSlot[pc] === 1) {
      // an access whose lanes reach a PE on another node goes over the network, all of it (lanes of one
      // instruction addressing PEs on and off the node are not split)
      const ins = (meta[pc] as InstrMeta).instr as Extract<Instr, { op: 'st' | 'ld' | 'atom' }>;
      if (net !== null && ins.remote && offNodeLanes(ins.remote.pe, w) > 0) networkMemory(wi, o, pc, k, t, n);
      else remoteMemory(wi, o, pc, k, t, sm, n);
      return;
    }
    // global / local
    const level = outcome ? outcome.level : 2;
    const l1Hit = outcome ? outcome.l1HitSectors : 0;
    const dramSec = outcome ? outcome.dramSectors : n;
    const dramWb = outcome ? outcome.dramWriteSectors : 0;
    l1Lines += lines;
    const t1 = l1Cal.reserve(sm, t, n);
    let done = t1 + lat.l1;
    let lastL2 = t1;
    if (level >= 1) {
      const toL2 = k === K_LDG ? n - l1Hit : n;
      const t2 = l2Cal.reserve(0, t1 + halfL2, toL2);
      lastL2 = t2;
      ws[o + W_L2] = t2;
      done = Math.max(done, t2 + halfL2);
      // write-backs leave when the fill that evicted them arrives; they take DRAM time from later requests
      if (dramWb > 0) {
        dramCal.reserve(0, t2 + halfDram, dramWb * 32 * P.dramWriteCost);
        // the bytes written back and the fills they hold up (l2DirtyTurnover); the request that
        // evicted the dirty line takes its way once the write-back has left
        wbBytes += dramWb * 32;
        wbShadow += dramWb * 32 * P.l2WriteBackShadow;
        if (wbCal) {
          // (a store is acknowledged then: its warp's exit waits for it, as the H200's drain stalls show)
          const tw = wbCal.reserve(0, t2, dramWb * 32);
          if (k === K_LDG || k === K_ATOM) done = Math.max(done, tw + halfL2);
          else if (tw > lastL2) lastL2 = tw;
        }
      }
      if (level === 2 && dramSec > 0) {
        dramBytesSeen += dramSec * 32;
        const held = Math.min(wbShadow, dramSec * 32);
        wbHeldReads += held;
        wbShadow -= held;
        if (wbCal && held > 0) done = Math.max(done, wbCal.reserve(0, t2, held) + halfDram + halfL2);
        const td = dramCal.reserve(0, t2 + halfDram, dramSec * 32);
        done = Math.max(done, td + halfDram + halfL2 + P.dramJitter * (jitter(w, t) - 0.5));
      }
      if (atomicOps > 0) {
        // the slice's atomic unit applies the request's operations once its line is there; the
        // result (or, for a reduction, the kernel's end) waits for the last
        const arrive = Math.max(t2, done - halfL2);
        const slice = sliceOf(line);
        const ops = atomicOps * (atomWeight[pc] as number);
        if (atomNext.length > 0) {
          const at = slice * smCount;
          const from = Math.max(arrive, atomNext[at + sm] as number);
          const ta = atomCal.reserve(slice, from, ops);
          // served without waiting: no other SM's turn came first; else the SMs with requests waiting
          // here while ours waited take their turns before our next: each counts for the part of our
          // wait its span of requests covers (an SM whose queue empties meanwhile stops taking turns)
          let turns = 1;
          const wait = ta - arrive;
          if (wait > ops * P.atomicOpCycles)
            for (let s = 0; s < smCount; s++) {
              if (s === sm) continue;
              const a = Math.max(arrive, atomFirst[at + s] as number);
              const b = Math.min(ta, atomLast[at + s] as number);
              if (b > a) turns += (b - a) / wait;
            }
          atomNext[at + sm] = ta + ops * P.atomicOpCycles * turns;
          // the SM's span here, from the arrival of its first request to the service of its last: one
          // span while its requests follow each other, a new one after a pause
          if ((atomLast[at + sm] as number) + atomNear < arrive || (atomFirst[at + sm] as number) - atomNear > ta) {
            atomFirst[at + sm] = arrive;
            atomLast[at + sm] = ta;
          } else {
            if (ta > (atomLast[at + sm] as number)) atomLast[at + sm] = ta;
            if (arrive < (atomFirst[at + sm] as number)) atomFirst[at + sm] = arrive;
          }
          done = Math.max(done, ta + P.atomicOpCycles + halfL2);
        } else {
          const ta = atomCal.reserve(slice, arrive, ops);
          done = Math.max(done, ta + P.atomicOpCycles + halfL2);
        }
      }
    }
    if ((coKind[pc] as number) >= 0) {
      // a load's data enters the L1's data stage as it returns; a store's is read there as the L1 takes the request
      coArg[0] = k === K_LDG ? done : t1;
      coArg[1] = 1;
      collide(sm | 0, coKind[pc] as number);
    }
    if (k === K_LDG || k === K_ATOM) {
      // with cold caches (ncu --cache-control all) a hit is mostly on a line a sibling warp is still
      // fetching (misaligned, broadcast, the partner sector of a 64-B fill): it waits for that fill
      const rec = ws[o + W_REC] as number;
      const inflight = bMiss[rec] as number;
      if (k === K_ATOM) {
        // performed at the L2, filling no L1 line: a reduction's result is nobody's to wait for, but
        // the kernel ends after it
        if (done > (memEnd[0] as number)) memEnd[0] = done;
      } else if (level < 2) {
        if (inflight > done) done = Math.min(inflight, t + lat.dram);
      } else if (done > inflight) bMiss[rec] = done;
      // setResult(wi, pc, done, R_LONG), written out here and below: this function already inlines its
      // calendars, and a call that is not inlined boxes its double arguments (an allocation per request)
      const readyAt = o + W_READY;
      const base = wi * nRegs;
      for (let j = writeAt[pc] as number, end = writeAt[pc + 1] as number; j < end; j++) {
        const r = writeRegs[j] as number;
        ws[readyAt + r] = done;
        readyKind[base + r] = R_LONG;
      }
      if (asyncRole[pc] === A_COPY) {
        groupsOf(wi);
        if (done > (grpOpen[wi] as number)) grpOpen[wi] = done;
      }
    } else {
      // a store is acknowledged once the L2 has taken it; the data's way to DRAM is the L2's business
      const ack = level >= 1 ? lastL2 : done;
      if (ack > (ws[o + W_DRAIN] as number)) ws[o + W_DRAIN] = ack;
      const rec = ws[o + W_REC] as number;
      if (ack > (bDrain[rec] as number)) bDrain[rec] = ack;
      if (done > (memEnd[0] as number)) memEnd[0] = done;
    }
    // the warp's issue is held back when its store or atomic waits too long in the memory queues (the
    // LSU's queue fills: lg_throttle). A load that waits behind the L2 or DRAM holds its warp at the
    // first use of its value instead: long scoreboard, as the H200 counts g_ld_u32_stride32 (443
    // cycles per instruction long scoreboard, lg_throttle 0.00: groundtruth full_raw_g_ld_u32_stride32.csv)
    const over = done - lat.dram - t - queue;
    if (over > 0 && k !== K_LDG) throttle(wi, pc, R_LG, over);
  };

  const finish = (traffic: LaunchTraffic): Record<string, number> => {
    // close the live blocks and warps
    for (let wi = 0; wi < nWarps; wi++) {
      const o = wi * W_STRIDE;
      const rec = ws[o + W_REC] as number;
      if (rec < 0) continue;
      {
        const s = ws[o + W_SM] as number;
        smWarpCycles[s] = (smWarpCycles[s] as number) + (ws[o + W_CLOCK] as number) - (ws[o + W_START] as number);
      }
      if (bDone[rec] === 0 && bLinear[rec] === ws[o + W_LINEAR]) finalizeBlock(rec);
      ws[o + W_REC] = -1;
    }
    let smEnd = 0;
    let activeSum = 0;
    let activeSms = 0;
    for (let s = 0; s < smCount; s++) {
      const first = smFirst[s] as number;
      if (!Number.isFinite(first)) continue;
      const a = (smLastEnd[s] as number) - first;
      activeSum += a;
      activeSms++;
      if ((smLastEnd[s] as number) > smEnd) smEnd = smLastEnd[s] as number;
    }
    const dramTotal = traffic?.dramBytes ?? dramBytesSeen;
    // all DRAM traffic, write-backs at their read-turnaround cost, must fit in the launch
    const dramWrites = traffic?.dramWriteBytes ?? 0;
    const dramBound = (dramTotal + (P.dramWriteCost - 1) * dramWrites) / P.dramBytesPerCycle + lat.dram;
    // the L2 writes back at most its dirty room per l2DirtyTurnover (arch l2DirtyTurnoverNs), and the
    // fills that follow a write-back in its wake move at that rate too; the other fills at DRAM's own
    // rate. A set-aside that shrinks the dirty room so slows every kernel that writes back.
    let wbBound = 0;
    if (wbCal && wbBytes > 0) wbBound = (wbBytes + wbHeldReads) / wbRate + (dramBytesSeen - wbHeldReads) / P.dramBytesPerCycle + lat.dram;
    let end = Math.max(smEnd, memEnd[0] as number, dramBound, wbBound);
    // the kernel's implicit flush at completion orders its domain's writes in flight (seed 000: the
    // local kernel waits for the communication kernel's NVLink writes when both share a domain)
    let flushWait = 0;
    if (foreignInFlight) {
      const f = foreignInFlight(end);
      if (f > end) {
        flushWait = f - end;
        end = f;
      }
    }
    const elapsed = end + P.overheadCycles;
    const warpCycles = smWarpCycles.reduce((a, b) => a + b, 0);
    const m: Record<string, number> = {};
    const ns = (elapsed / P.clockHz) * 1e9;
    m['gpu__time_duration.sum'] = ns;
    m['gpc__cycles_elapsed.max'] = elapsed;
    m['gpc__cycles_elapsed.avg.per_second'] = P.clockHz;
    m['dram__cycles_elapsed.avg.per_second'] = P.dramClockHz;
    m['sm__cycles_elapsed.avg'] = elapsed;
    m['sm__cycles_elapsed.sum'] = elapsed * smCount;
    m['smsp__cycles_elapsed.sum'] = elapsed * smCount * S;
    m['sm__cycles_active.avg'] = activeSum / smCount;
    m['sm__cycles_active.sum'] = activeSum;
    m['smsp__cycles_active.avg'] = activeSum / smCount;
    m['smsp__cycles_active.sum'] = activeSum * S;
    m['sm__warps_active.sum'] = warpCycles;
    m['smsp__warps_active.sum'] = warpCycles;
    const perCycle = activeSum > 0 ? warpCycles / activeSum : 0;
    m['sm__warps_active.avg.per_cycle_active'] = perCycle;
    m['sm__warps_active.avg.pct_of_peak_sustained_active'] = (100 * perCycle) / P.maxWarpsPerSm;
    m['smsp__warps_active.avg.per_cycle_active'] = perCycle / S;
    const smspActive = activeSum * S;
    stall[R_SEL] = issued;
    const eligible = issued + (stall[R_NOTSEL] as number);
    m['smsp__warps_eligible.sum'] = eligible;
    m['smsp__warps_eligible.avg.per_cycle_active'] = smspActive > 0 ? eligible / smspActive : 0;
    m['smsp__inst_issued.sum'] = issued;
    m['smsp__issue_active.sum'] = issued;
    const ia = smspActive > 0 ? issued / smspActive : 0;
    m['smsp__issue_active.avg.per_cycle_active'] = ia;
    m['smsp__issue_active.avg.pct_of_peak_sustained_active'] = 100 * ia;
    m['smsp__issue_inst0.avg.pct_of_peak_sustained_active'] = 100 * (1 - ia);
    m['sm__inst_executed.avg.per_cycle_active'] = activeSum > 0 ? issued / activeSum : 0;
    m['sm__inst_issued.avg.per_cycle_active'] = activeSum > 0 ? issued / activeSum : 0;
    m['smsp__average_warp_latency_per_inst_issued.ratio'] = issued > 0 ? warpCycles / issued : 0;
    m['smsp__average_warps_active_per_inst_executed.ratio'] = issued > 0 ? warpCycles / issued : 0;
    for (let r = 0; r < REASONS.length; r++) {
      const key = REASONS[r] as string;
      m[`smsp__warps_issue_stalled_${key}.sum`] = stall[r] as number;
      m[`smsp__average_warps_issue_stalled_${key}_per_issue_active.ratio`] = issued > 0 ? (stall[r] as number) / issued : 0;
    }
    // Speed of Light: each unit's work over its peak in the elapsed (or active) cycles
    const pct = (work: number, capacity: number): number => (capacity > 0 ? Math.min(100, (100 * work) / capacity) : 0);
    const smElapsed = elapsed * smCount;
    const issuePct = pct(issued, smElapsed * S);
    // the LSU's input: memory instructions, and the shuffles and per-thread S2Rs that pass the shared pipe
    const lsuPct = pct(lsuInstr + traffic.lsuMiscInstructions, smElapsed * P.lsuPerCycle);
    // the data pipe's wavefronts: a line of a global request (a stride-32 load's 32 lines take 32,
    // however few sectors: H200 g_ld_u32_stride32 24.1 % active) or a shared-memory wavefront
    const l1Work = (l1Lines + traffic.sharedWavefronts) / P.sharedWavefrontsPerCycle;
    const l1PctActive = pct(l1Work, activeSum);
    const l1PctElapsed = pct(l1Work, smElapsed);
    const dramPct = pct(dramTotal, elapsed * P.dramPeakBytesPerCycle);
    // the ADU takes half an instruction per cycle: in the g_ld_*/g_st_* launches its 3 per warp are the
    // SM's busiest pipe on the H200 (sol_breakdown_h200.csv: 24.6 % for g_ld_u32_coalesced, issue 18.3 %)
    const aduPct = pct(traffic.aduInstructions, smElapsed * P.aduPerCycle);
    m['sm__inst_executed_pipe_adu.avg.pct_of_peak_sustained_elapsed'] = aduPct;
    // Mem Pipes Busy, and the SM's busiest unit (issue slots or a memory pipe)
    m['sm__memory_throughput.avg.pct_of_peak_sustained_elapsed'] = Math.max(lsuPct, aduPct);
    m['sm__throughput.avg.pct_of_peak_sustained_elapsed'] = Math.max(issuePct, lsuPct, aduPct);
    m['sm__inst_issued.avg.pct_of_peak_sustained_elapsed'] = issuePct;
    m['l1tex__lsuin_requests.avg.pct_of_peak_sustained_elapsed'] = lsuPct;
    m['l1tex__throughput.avg.pct_of_peak_sustained_active'] = l1PctActive;
    m['l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_elapsed'] = l1PctElapsed;
    m['dram__throughput.avg.pct_of_peak_sustained_elapsed'] = dramPct;
    m['gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed'] = dramPct;
    m['dram__bytes.sum.per_second'] = ns > 0 ? (dramTotal * 1e9) / ns : 0;
    m['sm__active_sms'] = activeSms;
    // the units' cycles, as ncu's workload-distribution section and the uncoalesced-access rules take
    // them: L1TEX counts the SM's (the H200 reports identical numbers); an L2 slice is active in the
    // cycles the L2 served requests in (its calendar's buckets with traffic)
    m['l1tex__cycles_active.avg'] = activeSum / smCount;
    m['l1tex__cycles_active.sum'] = activeSum;
    m['l1tex__cycles_elapsed.sum'] = smElapsed;
    const l2Elapsed = elapsed * P.l2CyclesPerCycle;
    const l2Active = Math.min(elapsed, l2Cal.activeCycles(0)) * P.l2CyclesPerCycle;
    m['lts__cycles_active.avg'] = l2Active;
    m['lts__cycles_active.sum'] = l2Active * P.l2Slices;
    m['lts__cycles_elapsed.avg'] = l2Elapsed;
    m['lts__cycles_elapsed.sum'] = l2Elapsed * P.l2Slices;
    // Warpsight's own, per physical domain (the kernel's fences are all in its launch's domain): warp
    // cycles at gpu/sys fences, the part of them spent on other kernels' writes in flight in the
    // domain, and the completion flush's wait for them; only in programs' launches that fence or wait
    if (syncDomain && (domainFences || flushWait > 0)) {
      const d = syncDomain.domain;
      m[`warpsight__fence_wait_domain_${d}`] = fenceWait[0] as number;
      m[`warpsight__fence_wait_foreign_domain_${d}`] = foreignWait[0] as number;
      m[`warpsight__flush_wait_domain_${d}`] = flushWait;
    }
    return m;
  };

  // ---- the memory model's view of time (memoryModel.ts) ----
  const clockOf = (w: Warp): number => ws[idOf(w) * W_STRIDE + W_CLOCK] as number;
  const now = (w: Warp): number => ws[idOf(w) * W_STRIDE + W_LAST] as number;
  const atL2 = (w: Warp): number => ws[idOf(w) * W_STRIDE + W_L2] as number;
  /**
   * the warp's latest instruction issued `by` cycles earlier than modelled, and so everything after
   * it (remoteArrivals.ts: a poll that found nothing new costs no time); `settle`: the warp's block
   * ends with its warps' clocks again (the polls it took back had moved it)
   */
  const allCalendars = [issueCal, sfuCal, fp64Cal, lsuCal, l1Cal, shCal, coCal, l2Cal, dramCal, atomCal, linkSmCal, linkCal, netServer, netWire];
  const rewind = (w: Warp, by: number, settle: boolean): void => {
    const wi = idOf(w);
    const o = wi * W_STRIDE;
    // no further back than the calendars keep
    let kept = 0;
    for (const c of allCalendars) kept = Math.max(kept, c.keptFrom);
    by = Math.min(by, (ws[o + W_LAST] as number) - kept);
    if (by > 0) {
      const from = (ws[o + W_LAST] as number) - by;
      for (const f of [W_CLOCK, W_LAST, W_L2, W_FLOOR]) ws[o + f] = Math.max(from, (ws[o + f] as number) - by);
      for (let r = W_READY; r < W_STRIDE; r++) if ((ws[o + r] as number) > from) ws[o + r] = Math.max(from, (ws[o + r] as number) - by);
    }
    if (!settle) return;
    const rec = ws[o + W_REC] as number;
    let end = bStart[rec] as number;
    for (let j = 0; j < nWarps; j++) {
      const q = j * W_STRIDE;
      if (ws[q + W_REC] === rec && (ws[q + W_CLOCK] as number) > end) end = ws[q + W_CLOCK] as number;
    }
    bEnd[rec] = end;
  };
  /**
   * the earliest clock of the warps that can issue now (running, in their live block), `w` aside;
   * `parked`: count the warps the parked watch found spinning without effect too
   */
  // the least clock of the running warps, and the next least (for the warp that has the least), as of
  // `issued` instructions: held pollers ask for it in turn while nothing issues. The scan goes over the
  // warps that can be running (`candidates`), all of them again only after a barrier instruction (which
  // may release warps) or a warp's first issue in a block: a grid of thousands of warps waiting at
  // barriers made a scan of every warp per question quadratic (5.5 s to its deadlock, 1.1 s without)
  const least = [{ at: -1, min: Infinity, argmin: -1, second: Infinity }, { at: -1, min: Infinity, argmin: -1, second: Infinity }];
  let candidates = new Int32Array(64);
  let nCandidates = 0;
  let rescan = true;
  const minRunningClock = (w: Warp, parked = false): number => {
    const c = least[parked ? 1 : 0] as { at: number; min: number; argmin: number; second: number };
    if (c.at !== issued || rescan) {
      if (rescan) {
        rescan = false;
        least[0]!.at = least[1]!.at = -1;
        nCandidates = 0;
        // warps get their dense index as they are first seen: nWarps grows
        if (candidates.length < nWarps) candidates = new Int32Array(2 * nWarps);
        for (let wi = 0; wi < nWarps; wi++) if ((warpOf[wi] as Warp).state === WarpState.Running) candidates[nCandidates++] = wi;
      }
      c.at = issued;
      c.min = c.second = Infinity;
      c.argmin = -1;
      let keep = 0;
      for (let i = 0; i < nCandidates; i++) {
        const wi = candidates[i] as number;
        const x = warpOf[wi] as Warp;
        // a warp that left Running (a barrier, its exit) comes back only after a barrier instruction (rescan)
        if (x.state !== WarpState.Running) continue;
        candidates[keep++] = wi;
        if (x.parked && !parked) continue;
        const o = wi * W_STRIDE;
        if ((ws[o + W_REC] as number) < 0 || (x.blockLinear | 0) !== (ws[o + W_LINEAR] as number)) continue;
        const clk = ws[o + W_CLOCK] as number;
        if (clk < c.min) {
          c.second = c.min;
          c.min = clk;
          c.argmin = wi;
        } else if (clk < c.second) c.second = clk;
      }
      nCandidates = keep;
    }
    return c.argmin >= 0 && warpOf[c.argmin] === w ? c.second : c.min;
  };
  /**
   * NANOSLEEP of `ns`: as the H200 sleeps (memmodel probe): up to nanosleepExactNs as asked, longer
   * sleeps rounded up to a power of two, at most nanosleepMaxNs, never shorter than nanosleepMinCycles
   */
  const sleep = (w: Warp, ns: number): void => {
    let t = Math.min(Math.max(0, ns), MMC.nanosleepMaxNs);
    if (t > MMC.nanosleepExactNs) t = Math.min(MMC.nanosleepMaxNs, 2 ** Math.ceil(Math.log2(t)));
    const cycles = Math.max(MMC.nanosleepMinCycles, (t * P.clockHz) / 1e9 + MMC.nanosleepOverheadCycles);
    const wi = idOf(w);
    const o = wi * W_STRIDE;
    // the sleep starts at the NANOSLEEP's issue; the warp's clock is one past it
    const over = (ws[o + W_LAST] as number) + cycles - (ws[o + W_CLOCK] as number);
    if (over > 0) stallWarp(wi, R_SLEEP, over);
  };
  const timerNs = (cycles: number): number => (cycles * 1e9) / P.clockHz;

  const sharedReplays = (): { ld: number; st: number } => {
    if (!RP) return { ld: 0, st: 0 };
    const ld = RP.ldsPerStg128 * (meetings[CO_STG128] as number) + RP.ldsPerStgNarrow * (meetings[CO_STGN] as number) + RP.ldsPerBlockStart * (meetings[CO_START] as number);
    return { ld: Math.round(ld), st: Math.round(RP.stsPerLdg128 * (meetings[CO_LDG128] as number)) };
  };
  const release = (): void => {
    for (const c of calendars) c.release();
  };
  return { observer: { issue, issueRun, memory, hostMemory, clockOf, now, atL2, rewind, minRunningClock, sleep, timerNs }, finish, sharedReplays, release };
}
