/**
 * Grid execution: blocks are resident on SMs up to the occupancy limit, and the resident warps run
 * round-robin a quantum of instructions each, so that memory accesses reach the caches interleaved
 * roughly as on the GPU (this matters for what L1 and L2 keep). A warp's turn also ends at the first
 * instruction that uses a global load issued in that turn: on the GPU it stalls there for the memory
 * latency while the other resident warps issue, so its store reaches the L2 after their loads. A
 * slot freed by a finished block takes the next block in the same turn, so the resident blocks stay
 * out of step as on the GPU and the last loads of a kernel are followed by the stores of every
 * resident warp (in lock-step waves only those of the last, partial wave). The H200 shows this order
 * in what the L2 keeps dirty at a kernel's end
 * (test/fidelity/probes/l2_dirty_probe.cu): g_ld_u128_stride2 writes back 48.4 MB with 8 blocks per
 * SM, 55.0 / 55.2 MB with 2 / 1; at equal bytes the u64 kernel, whose warps have half the bytes in
 * flight, 53.9 MB. Barriers suspend warps; a block whose warps all wait at barriers that cannot
 * complete is a deadlock, reported with the warps and lines.
 *
 * A grid whose resident warps all spin on memory that none of them writes is a deadlock too (issue
 * 38: resident blocks waiting for a flag that a block which cannot become resident would set). A warp
 * that has run long is watched (parkedWatch.ts): it is parked when it comes back to the same state
 * (pc, masks, control stacks, registers) with no write anywhere in the grid in between. The
 * interpreter is deterministic, so a parked warp repeats itself as long as memory does not change;
 * when every resident warp is parked or waits at a barrier, nothing can ever write, no block can
 * finish, and the run stops with the spinning lines and the blocks that never started.
 */
import { KernelFault } from '../errors.js';
import { devicePagesMade, Page } from '../memory/deviceMemory.js';
import { CHECK_INSTRUCTIONS, CHECK_PAGES, checkMemory, instructionsBeforeCheck, noteUnchecked } from './memoryBudget.js';
import type { Program } from './compile.js';
import type { ExecEnv } from './env.js';
import { RegFile, type RegLayout } from './regFile.js';
import { ControlArena, popc, Warp, WarpState } from './warp.js';
import { slotDeps } from '../timing/deps.js';
import { ParkedWatch } from './parkedWatch.js';
import { RunTally } from './runTally.js';

/** per-slot flags: counted in inst_executed; a global load; reads a register some global load writes */
const COUNTED = 1;
const GLOBAL_LOAD = 2;
const USES_LOAD = 4;

export interface RunOptions {
  smCount: number;
  /** SM ids in the order a grid's first blocks are given to them (arch smDispatchOrder; default 0, 1, ...) */
  smOrder?: readonly number[];
  /** blocks resident per SM at once (from the occupancy calculator) */
  blocksPerSm: number;
  /** instructions a warp runs before the next warp gets its turn */
  quantum: number;
  /** a warp that executes more instructions than this is a runaway loop */
  maxWarpInstructions: number;
  /**
   * sampled simulation (profile/sample.ts): the blocks to run, by linear index, in dispatch order
   * (default: every block of the grid); the others do not run at all
   */
  blocks?: Int32Array;
  /** a block finished: its linear index and the warp instructions its warps executed (sampled runs' per-block figures) */
  onBlockDone?: (linear: number, warpInstructions: number) => void;
}

interface PendingBarrier {
  /** threads that arrived (bar.sync and bar.arrive) */
  arrived: number;
  /** thread count the barrier waits for; 0 = all non-exited threads of the block */
  count: number;
  waiting: Warp[];
  /** the last arrival of each warp (by warp index): where, and whether it was a bar.arrive */
  arrivals: Arrivals;
}

/**
 * The last arrival of each warp of a block at one barrier, in the order the warps first arrived
 * (the diagnostics name them so). Numbers in arrays that the block's barrier record keeps from one
 * barrier to the next: every warp of every block arrives, and an object per arrival was garbage.
 */
class Arrivals {
  /** per warp: the arrival's slot * 2 + 1 for a bar.arrive; -1 none */
  private readonly last: Int32Array;
  private readonly order: Int32Array;
  private n = 0;
  constructor(warps: number) {
    this.last = new Int32Array(warps).fill(-1);
    this.order = new Int32Array(warps);
  }
  set(warp: number, index: number, arrive: boolean): void {
    if (this.last[warp] === -1) this.order[this.n++] = warp;
    this.last[warp] = index * 2 + (arrive ? 1 : 0);
  }
  entries(): [number, { index: number; arrive: boolean }][] {
    return Array.from(this.order.subarray(0, this.n), (w) => {
      const v = this.last[w] as number;
      return [w, { index: v >> 1, arrive: (v & 1) === 1 }];
    });
  }
  clear(): void {
    for (let i = 0; i < this.n; i++) this.last[this.order[i] as number] = -1;
    this.n = 0;
  }
}

/** "0-3,6" for warp indices */
function warpList(ws: readonly number[]): string {
  const sorted = [...new Set(ws)].sort((a, b) => a - b);
  const out: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && (sorted[j + 1] as number) === (sorted[j] as number) + 1) j++;
    out.push(j > i ? `${sorted[i]}-${sorted[j]}` : `${sorted[i]}`);
    i = j + 1;
  }
  return out.join(',');
}

/** "warp 3 waits" / "warps 0-3 wait" */
function warpsWord(ws: readonly number[], one: string, many: string): string {
  return ws.length === 1 ? `warp ${ws[0]} ${one}` : `warps ${warpList(ws)} ${many}`;
}

/** "0-15" for a lane mask */
function laneRanges(mask: number): string {
  const lanes: number[] = [];
  for (let l = 0; l < 32; l++) if ((mask >>> l) & 1) lanes.push(l);
  return warpList(lanes);
}

class BlockSlot {
  readonly warps: Warp[] = [];
  readonly shared: Page;
  linear = -1;
  threads = 0;
  readonly barriers = new Map<number, PendingBarrier>();
  /** a completed barrier's record, emptied for the block's next one (a block passes many) */
  spareBarrier: PendingBarrier | null = null;
  constructor(
    readonly slot: number,
    readonly sm: number,
    warpsPerBlock: number,
    /** the launch's registers and warp control stacks */
    regs: RegFile,
    control: ControlArena,
    /** the block's shared memory (one empty page serves every slot of a kernel without any) */
    shared: Page,
  ) {
    for (let i = 0; i < warpsPerBlock; i++) {
      const w = new Warp(regs, slot * warpsPerBlock + i, control);
      w.warpInBlock = i;
      w.sm = sm;
      this.warps.push(w);
    }
    this.shared = shared;
  }
  exitedThreads(): number {
    let n = 0;
    for (const w of this.warps) n += popc(w.exited & w.valid);
    return n;
  }
  done(): boolean {
    for (const w of this.warps) if (w.state !== WarpState.Exited) return false;
    return true;
  }
}

/** a grid's block slots with their warps, registers and control stacks */
interface GridFrame {
  /** the launch shape it serves: register bytes a warp, slots, warps a block, shared bytes, the slots' SMs */
  readonly key: string;
  readonly regs: RegFile;
  readonly slots: BlockSlot[];
}

/**
 * Finished grids' frames, for the next launches of their shape: a program's repeated launches (a
 * solver's iterations: the 8-PE Jacobi's are 8,448 warp objects each, with their stacks' views and
 * the blocks' shared pages) take one instead of making and collecting it. At most SPARE_FRAMES are
 * kept, the newest (memory stays bounded whatever the shapes); a reused frame is as a new one:
 * registers and shared memory zeroed.
 */
const spareFrames: GridFrame[] = [];
const SPARE_FRAMES = 4;

function takeFrame(layout: RegLayout, slotsCount: number, warpsPerBlock: number, sharedBytes: number, smOf: (slot: number) => number): GridFrame {
  const sms = Array.from({ length: slotsCount }, (_, s) => smOf(s));
  const key = `${layout.bytesPerWarp}|${warpsPerBlock}|${sharedBytes}|${sms.join()}`;
  const at = spareFrames.findLastIndex((f) => f.key === key);
  if (at >= 0) {
    const [kept] = spareFrames.splice(at, 1) as [GridFrame];
    kept.regs.reuse(layout);
    for (const b of kept.slots) {
      b.barriers.clear();
      if (sharedBytes > 0) b.shared.u8.fill(0);
      for (const w of b.warps) w.forgetViews();
    }
    return kept;
  }
  const regs = new RegFile(layout, slotsCount * warpsPerBlock);
  const control = new ControlArena(slotsCount * warpsPerBlock);
  // every access to a block's shared memory is bounds-checked against env.sharedBytes first: without
  // any, no byte of the page is ever read or written, and one page serves all slots
  const sharedPage = (): Page => new Page(new ArrayBuffer(Math.max(16, Math.ceil(sharedBytes / 8) * 8)));
  const noShared = sharedBytes > 0 ? null : sharedPage();
  const slots = sms.map((sm, s) => new BlockSlot(s, sm, warpsPerBlock, regs, control, noShared ?? sharedPage()));
  return { key, regs, slots };
}

/** the grid is done: its frame may serve a later launch (no warp of this one runs again); the oldest kept goes */
function releaseFrame(f: GridFrame): void {
  spareFrames.push(f);
  if (spareFrames.length > SPARE_FRAMES) (spareFrames.shift() as GridFrame).regs.release();
}

export interface RunStats {
  blocks: number;
  warps: number;
  warpInstructions: number;
}

function slotFlags(prog: Program): Uint8Array {
  const d = slotDeps(prog.meta);
  // an LDGSTS is a global load too (its token register waits for memory)
  const isLoad = prog.meta.map((m) => m.cls === 'ldg' || m.cls === 'ldgsts');
  const loaded = new Set<number>();
  prog.meta.forEach((_, s) => {
    if (isLoad[s]) for (const r of d.writes[s]!) loaded.add(r);
  });
  return new Uint8Array(
    prog.meta.map((m, s) => (m.counted ? COUNTED : 0) | (isLoad[s] ? GLOBAL_LOAD : 0) | (d.reads[s]!.some((r) => loaded.has(r)) ? USES_LOAD : 0)),
  );
}

/**
 * A grid being run: `advance()` runs rounds until every block is done ('done'), or until every
 * resident warp is parked or waits at a barrier ('parked': nothing in the grid can change memory).
 * Alone on the GPU that is a deadlock (runGrid); beside other work (the runtime's co-running grids)
 * another kernel, a copy or the host may still write what the parked warps read, so the grid keeps
 * its state and resident blocks and is advanced again after such a write.
 */
export interface GridRun {
  advance(): 'done' | 'parked';
  readonly stats: RunStats;
  /** why it is parked: the spinning lines, the waiting warps, the blocks that never started (`alone` false: as one part of a program's deadlock) */
  describeSpin(alone?: boolean): string;
  /** blocks resident now (what the grid holds on the SMs while parked) */
  residentBlocks(): number;
  /** threads that have executed a writing instruction (the grid's share of the write epoch) */
  writeCount(): number;
}

/** run a grid alone to its end; a grid whose resident warps all park is a deadlock */
export function runGrid(prog: Program, env: ExecEnv, opts: RunOptions): RunStats {
  const g = startGrid(prog, env, opts);
  if (g.advance() === 'parked') throw new KernelFault('deadlock', g.describeSpin());
  return g.stats;
}

/** `external`: writes made outside this grid so far (other grids, copies, the host): a parked warp may see them */
export function startGrid(prog: Program, env: ExecEnv, opts: RunOptions, external?: () => number): GridRun {
  const [gx, gy, gz] = env.grid;
  const [bx, by, bz] = env.block;
  const blockThreads = bx * by * bz;
  const warpsPerBlock = Math.ceil(blockThreads / 32);
  const order = opts.blocks;
  // the blocks this run starts (a sampled run: the chosen ones only)
  const totalBlocks = order ? order.length : gx * gy * gz;
  const slotsCount = Math.max(1, Math.min(totalBlocks, opts.smCount * opts.blocksPerSm));
  const fns = prog.fns;
  const flags = slotFlags(prog);
  const { runLength, runFns } = prog;
  // per run start: its counted instructions, and its slots' flags together
  const runCounted = new Uint8Array(runLength.length);
  const runFlags = new Uint8Array(runLength.length);
  runLength.forEach((len, s) => {
    for (let j = s; j < s + len; j++) {
      runFlags[s]! |= flags[j]!;
      if ((flags[j]! & COUNTED) !== 0) runCounted[s]!++;
    }
  });
  const c = env.counters;
  const inst = c.inst;
  const thr = c.threads;
  const thrOn = c.threadsPredOn;
  const observer = env.observer;
  const issueRun = observer?.issueRun;
  let totalInstr = 0;

  const frame = takeFrame(prog.layout, slotsCount, warpsPerBlock, env.sharedBytes, (s) => opts.smOrder?.[s % opts.smCount] ?? s % opts.smCount);
  const { slots, regs } = frame;

  const lastLaneMask = blockThreads % 32 === 0 ? -1 : (1 << (blockThreads % 32)) - 1;
  let nextBlock = 0;
  const startBlock = (b: BlockSlot): boolean => {
    if (nextBlock >= totalBlocks) {
      b.linear = -1;
      return false;
    }
    const linear = order ? (order[nextBlock++] as number) : nextBlock++;
    b.linear = linear;
    b.threads = blockThreads;
    b.barriers.clear();
    const x = linear % gx;
    const y = Math.floor(linear / gx) % gy;
    const z = Math.floor(linear / (gx * gy));
    for (const w of b.warps) {
      w.reset(w.warpInBlock === warpsPerBlock - 1 ? lastLaneMask : -1);
      w.ctaX = x;
      w.ctaY = y;
      w.ctaZ = z;
      w.blockLinear = linear;
      w.shared = b.shared;
    }
    return true;
  };

  const lineOf = (index: number): number => prog.meta[index]?.line ?? 0;
  const barName = (id: number, count: number, arrive: boolean): string =>
    id === 0 && count === 0 && !arrive ? '__syncthreads()' : `bar.${arrive ? 'arrive' : 'sync'} ${id}${count ? `, ${count}` : ''}`;
  const blockName = (b: BlockSlot): string => `block (${b.warps[0]?.ctaX},${b.warps[0]?.ctaY},${b.warps[0]?.ctaZ})`;

  /** why a block's barriers can never complete: who waits where, who arrived, who cannot come */
  const describeBarrierWait = (b: BlockSlot): string => {
    const parts: string[] = [];
    const byId = new Map<number, Warp[]>();
    for (const w of b.warps) {
      if (w.state !== WarpState.Barrier) continue;
      const list = byId.get(w.barId) ?? [];
      list.push(w);
      byId.set(w.barId, list);
    }
    for (const [id, ws] of [...byId.entries()].sort((p, q) => p[0] - q[0])) {
      const bar = b.barriers.get(id);
      const expected = bar && bar.count > 0 ? bar.count : b.threads - b.exitedThreads();
      const lines = [...new Set(ws.map((w) => lineOf(w.barPc)))].sort((p, q) => p - q);
      const arrivedOnly = bar ? bar.arrivals.entries().filter(([, a]) => a.arrive) : [];
      const arriveText = arrivedOnly.length ? ` (bar.arrive at line ${[...new Set(arrivedOnly.map(([, a]) => lineOf(a.index)))].join(', ')} by warps ${warpList(arrivedOnly.map(([wi]) => wi))})` : '';
      parts.push(
        `${warpsWord(ws.map((w) => w.warpInBlock), 'waits', 'wait')} at barrier ${id} (${barName(id, bar?.count ?? 0, false)}, line ${lines.join(', ')}), ` +
          `${bar?.arrived ?? 0} of ${expected} threads arrived${arriveText}`,
      );
    }
    for (const w of b.warps) {
      if (w.state !== WarpState.Barrier) continue;
      const live = w.valid & ~w.exited;
      const rest = live & ~w.active;
      if (rest === 0) continue;
      // the lanes left behind resume at the top entry of the reconvergence stack
      const top = w.sp > 0 ? (w.stack[(w.sp - 1) << 1] as number) : w.barPc;
      parts.push(
        `warp ${w.warpInBlock} reached barrier ${w.barId} diverged: only lanes ${laneRanges(w.active)} arrived, lanes ${laneRanges(rest)} ` +
          `(held at line ${lineOf(top)}) cannot run until it completes (a barrier in a thread-dependent branch)`,
      );
    }
    const exited = b.warps.filter((w) => w.state === WarpState.Exited).map((w) => w.warpInBlock);
    if (exited.length) parts.push(`${warpsWord(exited, 'has', 'have')} exited`);
    return parts.join('; ');
  };

  env.barrier = (w, id, count, arrive, index) => {
    // a warp's id is its slot's index * warpsPerBlock + its index in the block (BlockSlot)
    const b = slots[Math.floor(w.id / warpsPerBlock)] as BlockSlot;
    // the site's text only for an error (every warp of every block arrives here)
    const where = (): string => `${prog.meta[index]?.file}:${prog.meta[index]?.line}`;
    if (!Number.isInteger(id) || id < 0 || id > 15)
      throw new KernelFault('deadlock', `${where()}: barrier id ${id} in kernel '${env.kernel.name}' is out of range: a block has 16 named barriers (0-15)`);
    if (count % 32 !== 0 || count > b.threads || count < 0)
      throw new KernelFault('deadlock', `${where()}: bar.${arrive ? 'arrive' : 'sync'} ${id}, ${count} in kernel '${env.kernel.name}': the thread count must be a multiple of 32 and at most the block's ${b.threads} threads, or the barrier can never complete`);
    // a predicated-off bar (`@!P0 BAR.ARV`) does nothing; otherwise the predicated-on threads arrive
    const lanes = w.mask & ~w.exited;
    if (lanes === 0) return;
    let bar = b.barriers.get(id);
    if (!bar) {
      bar = b.spareBarrier ?? { arrived: 0, count, waiting: [], arrivals: new Arrivals(warpsPerBlock) };
      b.spareBarrier = null;
      bar.count = count;
      b.barriers.set(id, bar);
    } else if (bar.count !== count) {
      const aliasing = id === 0 && (bar.count === 0 || count === 0);
      const first = bar.arrivals.entries()[0];
      const firstText = first ? `warp ${first[0]} reached it as ${barName(id, bar.count, first[1].arrive)} at line ${lineOf(first[1].index)}` : `it is pending with count ${bar.count || 'all'}`;
      throw new KernelFault(
        'deadlock',
        `${where()}: barrier ${id} in kernel '${env.kernel.name}', ${blockName(b)}: warp ${w.warpInBlock} arrives as ${barName(id, count, arrive)} while ${firstText}: ` +
          `thread counts ${bar.count || 'all'} and ${count || 'all'} on one barrier can never complete consistently` +
          (aliasing ? '; named barrier 0 aliases the one __syncthreads() uses: number named barriers from 1 (as CudaDMA does)' : '; give each use its own barrier id'),
      );
    }
    env.check?.barrierArrive(w, id);
    bar.arrived += popc(lanes);
    bar.arrivals.set(w.warpInBlock, index, arrive);
    if (!arrive) {
      w.state = WarpState.Barrier;
      w.barId = id;
      w.barPc = index;
      bar.waiting.push(w);
    }
    tryRelease(b, id);
  };

  const tryRelease = (b: BlockSlot, id: number): boolean => {
    const bar = b.barriers.get(id);
    if (!bar) return false;
    const expected = bar.count > 0 ? bar.count : b.threads - b.exitedThreads();
    if (bar.arrived < expected) return false;
    for (const w of bar.waiting) w.state = WarpState.Running;
    env.check?.barrierRelease(b.linear, id, bar.waiting);
    b.barriers.delete(id);
    bar.arrived = 0;
    bar.waiting.length = 0;
    bar.arrivals.clear();
    b.spareBarrier = bar;
    return true;
  };

  /** slot `pc` issues: its instruction and thread counts, and the timing model's issue */
  const tally = (w: Warp, pc: number): void => {
    inst[pc] = (inst[pc] as number) + 1;
    thr[pc] = (thr[pc] as number) + w.activeCount;
    thrOn[pc] = (thrOn[pc] as number) + (w.mask === w.active ? w.activeCount : popc(w.mask));
    if (observer) observer.issue(w, pc);
  };

  const watch = new ParkedWatch(prog, slotsCount * warpsPerBlock, thrOn, external);
  // a run's counts go to its first slot and reach its slots when the grid stops (an observer without issueRun sees each slot's issue)
  const runTally = new RunTally(runLength, flags.map((f) => f & COUNTED));

  /**
   * Independent thread scheduling (Volta+): a warp whose current path spins without effect runs
   * another of its diverged paths, so that one lane can wait for another lane of the same warp. Only
   * a parked warp switches: code without intra-warp waiting runs (and counts) as before. A warp that
   * has tried each of its paths without any write in between stays parked (a deadlock, or a wait for
   * other work).
   */
  const joins = prog.joins;
  const switchPath = (w: Warp): void => {
    const others = w.otherPaths(joins);
    if (others === 0) return;
    const writes = watch.writes();
    if (w.switchWrites !== writes) {
      w.switchWrites = writes;
      w.switchTries = 0;
    }
    if (w.switchTries >= others) return;
    if (!w.switchPath(joins)) return;
    w.switchTries++;
    watch.unpark(w);
  };

  const runWarp = (w: Warp, budget: number): void => {
    let n = 0;
    // USES_LOAD once the warp issued a global load this turn: the turn ends at the first use of one
    let stopAt = 0;
    let waitsForLoad = 0;
    while (w.state === WarpState.Running && n < budget) {
      const pc = w.pc;
      const len = runLength[pc] as number;
      // a run of arithmetic the turn would run whole anyway: counted and issued, then executed at once
      if (len !== 0 && ((runFlags[pc] as number) & stopAt) === 0 && n + (runCounted[pc] as number) < budget) {
        if (observer && issueRun === undefined) {
          for (let j = pc, e = pc + len; j < e; j++) {
            if (((flags[j] as number) & COUNTED) === 0) continue;
            tally(w, j);
            n++;
          }
        } else {
          runTally.add(pc, w.activeCount, w.mask === w.active ? w.activeCount : popc(w.mask));
          n += runCounted[pc] as number;
          // the timing model issues the run's slots in one call (the same as one by one)
          if (issueRun !== undefined) issueRun(w, pc, len);
        }
        w.pc = pc + len;
        (runFns[pc] as (w: Warp) => void)(w);
        continue;
      }
      const f = flags[pc] as number;
      if ((f & stopAt) !== 0) {
        waitsForLoad = 1;
        break;
      }
      if ((f & GLOBAL_LOAD) !== 0) stopAt = USES_LOAD;
      w.pc = pc + 1;
      if ((f & COUNTED) !== 0) {
        tally(w, pc);
        n++;
      }
      (fns[pc] as (w: Warp) => void)(w);
    }
    w.steps += n;
    w.afterLoad = waitsForLoad;
    totalInstr += n;
    // one compare per turn; the watch itself runs every few hundred instructions of a long-running warp
    if (w.steps >= watch.nextCheck(w.id) || w.lookSoon) {
      w.lookSoon = false;
      watch.check(w);
      if (w.parked) switchPath(w);
    }
    if (w.steps > opts.maxWarpInstructions) {
      const loc = prog.meta[w.pc] ?? prog.meta[0];
      throw new KernelFault(
        'runaway',
        `${loc?.file}:${loc?.line}: runaway loop: warp ${w.warpInBlock} of block (${w.ctaX},${w.ctaY},${w.ctaZ}) in kernel '${env.kernel.name}' executed more than ${opts.maxWarpInstructions.toLocaleString('en-US')} instructions without finishing; fix the loop condition or raise --max-warp-instructions`,
      );
    }
  };

  /** one turn for each running warp of the block; false when none could run */
  const hold = env.hold;
  const runBlock = (b: BlockSlot): boolean => {
    let progressed = false;
    for (const w of b.warps) {
      if (w.state !== WarpState.Running) continue;
      // a polling warp ahead in time waits (memoryModel.ts); it is not stuck: the warps behind it run
      if (hold !== undefined && hold(w)) {
        progressed = true;
        continue;
      }
      runWarp(w, opts.quantum);
      progressed = true;
    }
    return progressed;
  };

  /**
   * the no-progress deadlock: who spins where, who waits at barriers, and which blocks never started;
   * `alone` false: the grid is parked beside other work (the runtime names the deadlock)
   */
  const describeSpin = (alone = true): string => {
    const spinners: Warp[] = [];
    const waiters: Warp[] = [];
    for (const b of active)
      for (const w of b.warps) {
        if (w.state === WarpState.Running) spinners.push(w);
        else if (w.state === WarpState.Barrier) waiters.push(w);
      }
    const lines = (ws: Warp[], pcOf: (w: Warp) => number): string => [...new Set(ws.map((w) => lineOf(pcOf(w))))].sort((p, q) => p - q).join(', ');
    const first = spinners[0] as Warp;
    const loc = prog.meta[watch.parkedPc(first)];
    const blocksOf = (ws: Warp[]): number[] => [...new Set(ws.map((w) => w.blockLinear))];
    const coords = (linear: number): string => `(${linear % gx},${Math.floor(linear / gx) % gy},${Math.floor(linear / (gx * gy))})`;
    const blockRanges = (ls: number[]): string => {
      const sorted = [...ls].sort((p, q) => p - q);
      const out: string[] = [];
      for (let i = 0; i < sorted.length; ) {
        let j = i;
        while (j + 1 < sorted.length && (sorted[j + 1] as number) === (sorted[j] as number) + 1) j++;
        out.push(j > i ? `${coords(sorted[i] as number)}-${coords(sorted[j] as number)}` : coords(sorted[i] as number));
        i = j + 1;
      }
      return out.length > 6 ? `${out.slice(0, 6).join(', ')} and ${out.length - 6} more ranges` : out.join(', ');
    };
    const spinBlocks = blocksOf(spinners);
    const waitText = waiters.length
      ? `; ${waiters.length} other warp${waiters.length === 1 ? '' : 's'} of ${blocksOf(waiters).length === 1 ? 'that block wait' : 'those blocks wait'} at barriers (line ${lines(waiters, (w) => w.barPc)})`
      : '';
    const never = nextBlock < totalBlocks ? Array.from({ length: totalBlocks - nextBlock }, (_, i) => (order ? (order[nextBlock + i] as number) : nextBlock + i)) : [];
    const neverText = never.length
      ? `; block${never.length === 1 ? '' : 's'} ${blockRanges(never)} never started: ${never.length === 1 ? 'it needs' : 'they need'} a resident block to finish first (${slotsCount} block${slotsCount === 1 ? ' is' : 's are'} resident at once). ` +
        `A block must not wait for a block launched after it unless all are co-resident: launch at most ${slotsCount} blocks (a cooperative launch), or pass the value through a later kernel`
      : alone
        ? '; no other block is left to start: the value they wait for is never written'
        : '';
    const spinText = `${spinners.length} warp${spinners.length === 1 ? '' : 's'} of block${spinBlocks.length === 1 ? '' : 's'} ${blockRanges(spinBlocks)} re-read memory that no running warp writes (line ${lines(spinners, (w) => watch.parkedPc(w))})`;
    if (!alone) return `${spinText}${waitText}${neverText}`;
    return `${loc ? `${loc.file}:${loc.line}: ` : ''}deadlock in kernel '${env.kernel.name}': every resident warp spins without progress: ${spinText}${waitText}${neverText}`;
  };

  const active: BlockSlot[] = [];
  for (const b of slots) if (startBlock(b)) active.push(b);

  const memsys = env.memsys;
  // the emulator's memory budget (memoryBudget.ts), checked between rounds as instructions run and pages are made
  /** totalInstr at the next check: set as each advance() begins (the interval is carried across launches) */
  let memCheckAt = 0;
  /** totalInstr at this grid's last check (or start, or last park) */
  let checkedAt = 0;
  let memPagesAt = devicePagesMade() + CHECK_PAGES;
  const running = (): string => {
    const loc = prog.meta[0];
    return `${loc ? `${loc.file}: ` : ''}kernel '${env.kernel.name}', after ${totalInstr.toLocaleString('en-US')} warp instructions (blocks ${nextBlock} of ${totalBlocks} started)`;
  };
  const advance = (): 'done' | 'parked' => {
    // a resumed grid's next check: after what the launches run meanwhile left of the interval
    memCheckAt = totalInstr + instructionsBeforeCheck();
    try {
      const state = advanceRounds();
      if (state === 'done') releaseFrame(frame);
      return state;
    } finally {
      runTally.flush(inst, thr, thrOn);
      noteUnchecked(totalInstr - checkedAt);
      checkedAt = totalInstr;
    }
  };
  const advanceRounds = (): 'done' | 'parked' => {
    while (active.length > 0) {
      memsys?.endRound?.();
      if (watch.takeNewlyParked() && watch.allParked(active)) return 'parked';
      for (let s = 0; s < active.length; s++) {
        const b = active[s] as BlockSlot;
        // per block turn: a round of thousands of warps may make many pages
        if (totalInstr >= memCheckAt || devicePagesMade() >= memPagesAt) {
          memCheckAt = totalInstr + CHECK_INSTRUCTIONS;
          memPagesAt = devicePagesMade() + CHECK_PAGES;
          checkedAt = totalInstr;
          checkMemory(running);
        }
        const progressed = runBlock(b);
        if (b.done()) {
          if (opts.onBlockDone) {
            let n = 0;
            for (const w of b.warps) n += w.steps;
            opts.onBlockDone(b.linear, n);
          }
          // the freed slot's next block takes its first turn at once, as the GPU's block scheduler
          // refills a slot when it frees: the slots do not fall into lock-step waves
          if (startBlock(b)) runBlock(b);
          else active.splice(s--, 1);
          continue;
        }
        if (!progressed) {
          // every live warp waits at a barrier: a barrier counting all threads may complete now that others exited
          let released = false;
          for (const id of [...b.barriers.keys()]) released = tryRelease(b, id) || released;
          if (!released) {
            const first = b.warps.find((w) => w.state === WarpState.Barrier);
            const loc = first ? prog.meta[first.barPc] : undefined;
            throw new KernelFault(
              'deadlock',
              `${loc ? `${loc.file}:${loc.line}: ` : ''}deadlock in kernel '${env.kernel.name}', ${blockName(b)}: ${describeBarrierWait(b)}; no other thread of the block can arrive`,
            );
          }
        }
      }
    }
    return 'done';
  };
  return {
    advance,
    get stats(): RunStats {
      return { blocks: totalBlocks, warps: totalBlocks * warpsPerBlock, warpInstructions: totalInstr };
    },
    describeSpin,
    residentBlocks: () => active.length,
    writeCount: () => watch.ownWrites(),
  };
}
