/**
 * The GPU's block scheduler (compute work distributor): places the blocks of every running grid on
 * the SMs as their resources allow — warps, registers, shared memory, block slots — so that two
 * kernels that each fill half the GPU run side by side, and the next kernel's blocks take the slots
 * the previous one's leave. A block holds its SM for the time the interpreter's timing model gave it
 * (its own warps' run, measured alone on the GPU); sharing SMs changes when blocks start, not how long
 * they run (shared L2 and DRAM bandwidth between concurrent kernels is not modelled).
 */
import type { Arch } from '../arch/types.js';
import type { EventQueue } from '../sim/eventQueue.js';

/** what one block of a grid occupies on its SM */
export interface BlockFootprint {
  warps: number;
  registers: number;
  sharedBytes: number;
}

export interface GridWork {
  footprint: BlockFootprint;
  /** blocks of this grid one SM can hold (the occupancy calculator's answer for the kernel alone) */
  maxPerSm: number;
  /** each block's time on its SM, ns, in launch order */
  durations: Float64Array;
  /** lower runs first (stream priority) */
  priority: number;
  /** the process's CUDA context: without MPS, the GPU time-slices between contexts (absent: 0) */
  context?: number;
  /** called once, when the grid's last block ends */
  onDone: (endNs: number) => void;
  /** called when the grid's first block starts */
  onStart?: (startNs: number) => void;
}

/** a parked grid's resident blocks: they keep their SMs until released (a spinning kernel holds them) */
export interface Hold {
  /** blocks placed, and on how many SMs */
  readonly blocks: number;
  readonly sms: number;
  /** give the SMs back (the grid is done); the next blocks of other grids may take them */
  release(): void;
}

interface LiveGrid {
  work: GridWork;
  seq: number;
  next: number;
  running: number;
  perSm: Int32Array;
  started: boolean;
}

export class BlockScheduler {
  private readonly warps: Int32Array;
  private readonly registers: Int32Array;
  private readonly shared: Int32Array;
  private readonly blocks: Int32Array;
  /** what holds (parked grids) occupy, also counted in the arrays above */
  private readonly heldWarps: Int32Array;
  private readonly heldRegisters: Int32Array;
  private readonly heldShared: Int32Array;
  private readonly heldBlocks: Int32Array;
  private holds = 0;
  private readonly order: readonly number[];
  private grids: LiveGrid[] = [];
  private seq = 0;
  /**
   * several processes on the GPU without MPS: one context's grids at a time (time-slicing; each grid
   * runs to its end, a simplification of the driver's time slices). With MPS (false) they share the SMs
   */
  exclusiveContexts = false;
  /** the place in the dispatch order after the SM that took the last block */
  private cursor = 0;
  /** SMs holding at least one block, and its changes over time (the timeline's occupancy track) */
  private busy = 0;
  readonly busySeries: { t: number; busySms: number }[] = [];

  constructor(
    private readonly arch: Arch,
    private readonly clock: EventQueue,
    private readonly retireNs: number,
  ) {
    const n = arch.smCount;
    this.warps = new Int32Array(n);
    this.registers = new Int32Array(n);
    this.shared = new Int32Array(n);
    this.blocks = new Int32Array(n);
    this.heldWarps = new Int32Array(n);
    this.heldRegisters = new Int32Array(n);
    this.heldShared = new Int32Array(n);
    this.heldBlocks = new Int32Array(n);
    // blocks go out in the order the H200 hands a grid's first blocks to its SMs (arch data)
    const seen = new Set(arch.smDispatchOrder);
    this.order = [...arch.smDispatchOrder, ...Array.from({ length: n }, (_, i) => i).filter((i) => !seen.has(i))];
  }

  /** no grid running or waiting */
  get idle(): boolean {
    return this.grids.length === 0;
  }

  submit(work: GridWork): void {
    if (work.durations.length === 0) {
      work.onStart?.(this.clock.now);
      work.onDone(this.clock.now);
      return;
    }
    this.grids.push({ work, seq: this.seq++, next: 0, running: 0, perSm: new Int32Array(this.arch.smCount), started: false });
    // higher priority (numerically lower) first, then arrival: the distributor drains grids in that order
    this.grids.sort((a, b) => a.work.priority - b.work.priority || a.seq - b.seq);
    this.place();
  }

  private fits(sm: number, g: LiveGrid): boolean {
    return (g.perSm[sm] as number) < g.work.maxPerSm && this.fitsIn(sm, g.work.footprint, this.blocks, this.warps, this.registers, this.shared);
  }

  private fitsIn(sm: number, f: BlockFootprint, blocks: Int32Array, warps: Int32Array, registers: Int32Array, shared: Int32Array): boolean {
    const a = this.arch;
    return (
      (blocks[sm] as number) < a.maxBlocksPerSm &&
      (warps[sm] as number) + f.warps <= a.maxWarpsPerSm &&
      (registers[sm] as number) + f.registers <= a.registersPerSm &&
      (shared[sm] as number) + f.sharedBytes <= a.sharedMemPerSmMax
    );
  }

  /** whether some SM could take a block of this shape once every running block but the held ones ended */
  roomBesideHolds(f: BlockFootprint): boolean {
    if (this.holds === 0) return true;
    for (let sm = 0; sm < this.arch.smCount; sm++) if (this.fitsIn(sm, f, this.heldBlocks, this.heldWarps, this.heldRegisters, this.heldShared)) return true;
    return false;
  }

  /** SMs that hold a parked grid's blocks now */
  heldSms(): number {
    let n = 0;
    for (let sm = 0; sm < this.arch.smCount; sm++) if ((this.heldBlocks[sm] as number) > 0) n++;
    return n;
  }

  /**
   * place a parked grid's resident blocks (up to `blocks`, `maxPerSm` per SM, where they fit now) and
   * keep them placed until released: the runtime's view of a kernel that spins holding its SMs
   */
  hold(f: BlockFootprint, maxPerSm: number, blocks: number): Hold {
    const n = this.order.length;
    const perSm = new Int32Array(this.arch.smCount);
    let placed = 0;
    let misses = 0;
    const now = this.clock.now;
    while (placed < blocks && misses < n) {
      const sm = this.order[this.cursor] as number;
      this.cursor = (this.cursor + 1) % n;
      if ((perSm[sm] as number) >= maxPerSm || !this.fitsIn(sm, f, this.blocks, this.warps, this.registers, this.shared)) {
        misses++;
        continue;
      }
      misses = 0;
      placed++;
      perSm[sm] = (perSm[sm] as number) + 1;
      this.take(sm, f, 1, now);
    }
    this.holds++;
    let sms = 0;
    for (const c of perSm) if (c > 0) sms++;
    let released = false;
    return {
      blocks: placed,
      sms,
      release: () => {
        if (released) return;
        released = true;
        this.holds--;
        for (let sm = 0; sm < perSm.length; sm++) if ((perSm[sm] as number) > 0) this.take(sm, f, -(perSm[sm] as number), this.clock.now);
        this.place();
      },
    };
  }

  /** add (n > 0) or remove (n < 0) n held blocks of shape f on an SM */
  private take(sm: number, f: BlockFootprint, n: number, t: number): void {
    const was = this.blocks[sm] as number;
    this.blocks[sm] = was + n;
    this.warps[sm] = (this.warps[sm] as number) + n * f.warps;
    this.registers[sm] = (this.registers[sm] as number) + n * f.registers;
    this.shared[sm] = (this.shared[sm] as number) + n * f.sharedBytes;
    this.heldBlocks[sm] = (this.heldBlocks[sm] as number) + n;
    this.heldWarps[sm] = (this.heldWarps[sm] as number) + n * f.warps;
    this.heldRegisters[sm] = (this.heldRegisters[sm] as number) + n * f.registers;
    this.heldShared[sm] = (this.heldShared[sm] as number) + n * f.sharedBytes;
    if (was === 0 && n > 0) this.setBusy(this.busy + 1, t);
    if (was + n === 0 && n < 0) this.setBusy(this.busy - 1, t);
  }

  private place(): void {
    const now = this.clock.now;
    const order = this.order;
    const nSm = order.length;
    // time-slicing: the context whose grid holds the GPU keeps it until its grids are done
    const owner = this.exclusiveContexts ? (this.grids.find((g) => g.running > 0)?.work.context ?? this.grids[0]?.work.context ?? 0) : null;
    for (const g of this.grids) {
      const n = g.work.durations.length;
      if (g.next >= n) continue;
      if (owner !== null && (g.work.context ?? 0) !== owner) continue;
      // the distributor deals blocks out round-robin in dispatch order, going on from where it last
      // placed one: a full grid fills the GPU in that order, and small kernels that run together
      // land on different SMs (the runtime probe's 66 + 66 blocks shared no SM)
      let misses = 0;
      while (g.next < n && misses < nSm) {
        const sm = order[this.cursor] as number;
        this.cursor = (this.cursor + 1) % nSm;
        if (!this.fits(sm, g)) {
          misses++;
          continue;
        }
        this.start(g, sm, now);
        misses = 0;
      }
    }
  }

  private start(g: LiveGrid, sm: number, now: number): void {
    const f = g.work.footprint;
    const dur = g.work.durations[g.next] as number;
    g.next++;
    g.running++;
    g.perSm[sm] = (g.perSm[sm] as number) + 1;
    if ((this.blocks[sm] as number) === 0) this.setBusy(this.busy + 1, now);
    this.blocks[sm] = (this.blocks[sm] as number) + 1;
    this.warps[sm] = (this.warps[sm] as number) + f.warps;
    this.registers[sm] = (this.registers[sm] as number) + f.registers;
    this.shared[sm] = (this.shared[sm] as number) + f.sharedBytes;
    if (!g.started) {
      g.started = true;
      g.work.onStart?.(now);
    }
    const end = now + dur;
    this.clock.at(end, () => this.finish(g, sm, end));
  }

  private finish(g: LiveGrid, sm: number, end: number): void {
    g.running--;
    const last = g.running === 0 && g.next >= g.work.durations.length;
    // the slot turns over a little after the block's last warp (latency.blockRetire)
    this.clock.at(end + this.retireNs, () => {
      const f = g.work.footprint;
      g.perSm[sm] = (g.perSm[sm] as number) - 1;
      this.blocks[sm] = (this.blocks[sm] as number) - 1;
      this.warps[sm] = (this.warps[sm] as number) - f.warps;
      this.registers[sm] = (this.registers[sm] as number) - f.registers;
      this.shared[sm] = (this.shared[sm] as number) - f.sharedBytes;
      if ((this.blocks[sm] as number) === 0) this.setBusy(this.busy - 1, this.clock.now);
      this.place();
    });
    if (last) {
      this.grids = this.grids.filter((x) => x !== g);
      g.work.onDone(end);
    }
  }

  private setBusy(n: number, t: number): void {
    this.busy = n;
    const s = this.busySeries;
    const last = s[s.length - 1];
    if (last && last.t === t) last.busySms = n;
    else s.push({ t, busySms: n });
  }
}
