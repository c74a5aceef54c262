import type { Arch } from '../arch/types.js';
import {
  HINT_UNCHANGED,
  WindowClassifier,
  resolveHint,
  type AccessPolicyWindow,
  type AccessProperty,
  type L2Hint,
} from './accessProperty.js';
import { Dram, popcount4 } from './dram.js';
import { L1Cache } from './l1Cache.js';
import { L2Cache } from './l2Cache.js';
import { StoreCombiner } from './storeCombiner.js';

export type { AccessPolicyWindow, AccessProperty } from './accessProperty.js';

export type MemOp = 'ld' | 'st' | 'atom' | 'red';
/** PTX cache operators: loads ca (default) cg cs lu cv; stores wb (default) cg cs wt; 'strong' = volatile/atomic/relaxed.gpu loads that bypass L1 */
export type CacheOp = 'ca' | 'cg' | 'cs' | 'lu' | 'cv' | 'wb' | 'wt' | 'strong' | 'nc';

export interface GlobalAccess {
  /** SM the warp runs on (its own L1) */
  sm: number;
  /**
   * stores: the requests issued close enough in time for the SM to combine their partial sectors
   * (StoreCombiner): the warps of one block, or only the warp itself once it has waited for a load
   */
  group: number;
  op: MemOp;
  /** distinct 32-byte sector indices (byte address / 32), ascending; only [0, count) valid */
  sectors: Float64Array;
  count: number;
  /** for stores: bit i set = byte i of that sector written (0xFFFFFFFF = full sector); absent = all full */
  writeMasks?: Uint32Array;
  cacheOp: CacheOp;
  property: AccessProperty;
}

/** deepest level any sector of the request reached: 0 = L1 hit only, 1 = L2, 2 = DRAM */
export interface AccessOutcome {
  level: 0 | 1 | 2;
  l1HitSectors: number;
  l2HitSectors: number;
  dramSectors: number;
  /** dirty sectors the request pushed out of L2 to DRAM (write-backs) */
  dramWriteSectors: number;
}

/** address of the memory whose dirty lines ncu's replay leaves behind (below the heap: never a kernel's) */
const PROFILER_RESIDUE_ADDRESS = 0x7e00_0000_0000;

export interface HierarchyOptions {
  /** L2 associativity (default 16) */
  l2Ways?: number;
  /** L1 associativity (default 4) */
  l1Ways?: number;
  /** see L2Options.dirtyWays (default 7.71), idleDirtyWays (default 7.40) and cleanWays (default 4) */
  dirtyWays?: number;
  idleDirtyWays?: number;
  cleanWays?: number;
  /**
   * see L2Options.inflightRequests (default 4096: a near request for the unrequested half of a
   * recent 64-B fill is a merged miss; with the fabric lookups in lts__t_sector_hit_rate this gives
   * g_ld_u8_coalesced / u8_misaligned / u16_misaligned 58.3 / 58.8 / 58.6 % vs 58.7 / 60.1 / 57.1 %)
   */
  inflightRequests?: number;
  /** see L2Options.replacement (default 'sc') */
  l2Replacement?: 'lru' | 'sc';
  /** see L2Options.partialLinesPerSet (default 2) */
  partialLinesPerSet?: number;
  /** see L2Options.partialDirtyWeight (default 2) */
  partialDirtyWeight?: number;
  /**
   * Write-back avoidance under DRAM read load (L2Options.dirtyVictimSkip, set every scheduler round): a
   * dirty replacement victim is passed over with probability min(maxSkip, x^n / (1 + x^n)),
   * x = R / halfReadBytes, R the DRAM bytes read (fills) in the last round, in which every resident warp
   * took one turn: about the reads in flight; n = steepness. The busier the DRAM is with reads, the more
   * the L2 holds its write-backs back. Default maxSkip 0.7, halfReadBytes 4 MB, steepness 4, [INFER] from
   * family 1 and four H200 probes (the reads per round below are Warpsight's):
   * - test/fidelity/probes/l2_drain_probe.cu: with 8 blocks per SM the u128 copies leave 25.4 MB (coalesced,
   *   ~4 MB read per round, skip 0.49) and 20.5 MB (stride 2, ~8 MB, 0.7) of their 67 MB stored dirty,
   *   with 1 block per SM (0.5-1 MB, no skip) 20.5 and 13.5: plain LRU; the u64 copies 22.2 / 20.9 (~2 /
   *   0.3 MB, skip 0.06 / 0): LRU too. A store-only kernel leaves 28.4 either way (the dirty cap binds);
   * - l2_copy_probe.cu: R written outlives R read behind a read stream (~4 MB per round, skip 0.5);
   * - l2_copy_sweep_probe.cu and family 1: the 4- and 8-byte copies (1-2 MB per round) write back about
   *   as plain LRU does (a skip of 0.36 there, as a skip rising from a floor with all DRAM traffic gave,
   *   left family 1's 8-byte copies 1.9 MB short of the H200's 14.0 MB written; now 1.1);
   * - family 1: the stride-32 loads (8-16 MB per round) still write back nearly all they store: a dirty
   *   line at the bottom of a set is drawn again at every eviction there and goes within a few draws
   *   unless the skip nears 1 (hence maxSkip).
   */
  writeBackAvoidance?: WriteBackAvoidance;
  /** see L2Options.partitions (default 2: GH100's two L2 halves, hardware-rules §1.6) */
  l2Partitions?: 1 | 2;
}

export interface WriteBackAvoidance {
  maxSkip: number;
  halfReadBytes: number;
  steepness: number;
}

export interface LaunchOptions {
  /** 'all' (ncu default): L1 and L2 flushed before the launch, write-backs not counted; 'none': L2 kept */
  cacheControl: 'all' | 'none';
  /** L1 bytes for global data this launch (unified SRAM minus the shared-memory carveout) */
  l1Bytes?: number;
}

/**
 * The memory hierarchy behind the LSU: per-SM L1s, the L2, DRAM. The executor calls `access` once per
 * warp-level global memory instruction, after coalescing. Counters are kept per launch and returned by
 * `endLaunch` under their ncu metric names.
 */
/** one launch's counters while another co-running launch counts (MemoryHierarchy.swapCounters) */
export interface HierarchyCounters {
  l1: [number, number, number, number];
  l2: Float64Array;
  dram: [number, number, number, number];
}

export class MemoryHierarchy {
  readonly dram: Dram;
  readonly l1: L1Cache;
  readonly l2: L2Cache;
  private readonly combiner: StoreCombiner;
  private readonly sectorsPerLine: number;
  private readonly lineSize: number;
  private limit: number;
  private window: WindowClassifier | null = null;
  private windowSpec: AccessPolicyWindow | null = null;
  /** persisting lines resident when the launch began */
  private persistingAtStart = 0;
  private readonly avoidance: WriteBackAvoidance;
  /** DRAM sectors read when the last scheduler round began */
  private filledAtRound = 0;

  // L1 counters (sectors)
  private l1LdHit = 0;
  private l1LdMiss = 0;
  private l1StHit = 0;
  private l1StMiss = 0;

  private readonly lineBytes = new Uint32Array(4);
  /**
   * the last access's lines whose stale copies change (memoryModel: the executor, which has the data,
   * applies them): lines written while another L1 holds them, and (line, sectors) pairs of this SM's
   * stale copies that a fill or its own write brought up to date
   */
  readonly sharedWrites: number[] = [];
  readonly refreshes: number[] = [];
  private readonly outcome: AccessOutcome = { level: 0, l1HitSectors: 0, l2HitSectors: 0, dramSectors: 0, dramWriteSectors: 0 };

  constructor(
    private readonly arch: Arch,
    opts: HierarchyOptions = {},
  ) {
    this.lineSize = arch.l2LineSize;
    this.dram = new Dram(arch.dramFillGranularity >= 2 * arch.sectorSize ? 2 : 1);
    this.sectorsPerLine = arch.l2LineSize / arch.sectorSize;
    if (this.sectorsPerLine !== 4) throw new Error(`memory hierarchy: 4 sectors per line expected, arch ${arch.id} has ${this.sectorsPerLine}`);
    this.avoidance = opts.writeBackAvoidance ?? { maxSkip: 0.7, halfReadBytes: 4e6, steepness: 4 };
    this.l1 = new L1Cache(arch.smCount, defaultL1Bytes(arch), arch.l2LineSize, opts.l1Ways ?? 4);
    this.limit = this.clampLimit(arch.persistingL2CacheDefaultLimit);
    this.l2 = new L2Cache(
      {
        bytes: (arch.l2Size * arch.l2SlicesActive) / arch.l2Slices,
        nominalBytes: arch.l2Size,
        persistingBytes: this.limit,
        lineSize: arch.l2LineSize,
        sectorSize: arch.sectorSize,
        ways: opts.l2Ways ?? 16,
        fillGranularity: arch.dramFillGranularity,
        dirtyWays: opts.dirtyWays ?? 7.71,
        idleDirtyWays: opts.idleDirtyWays ?? 7.4,
        cleanWays: opts.cleanWays ?? 4,
        inflightRequests: opts.inflightRequests ?? 4096,
        replacement: opts.l2Replacement ?? 'sc',
        partialLinesPerSet: opts.partialLinesPerSet ?? 2,
        partialDirtyWeight: opts.partialDirtyWeight ?? 2,
        partitions: opts.l2Partitions ?? 2,
        partitionHash: arch.l2PartitionHash,
        partitionOfSm: (sm) => arch.smL2Partition[sm] ?? sm % 2,
      },
      this.dram,
    );
    this.combiner = new StoreCombiner(arch.smCount, (line, mask, bytes, hint, sm) => {
      this.l2.write(line, mask, 0, hint, bytes, sm);
    });
  }

  /** cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize): clamps to persistingL2CacheMaxSize */
  setPersistingLimit(bytes: number): void {
    this.limit = this.clampLimit(bytes);
    this.l2.setPersistingBytes(this.limit);
  }

  private clampLimit(bytes: number): number {
    return Math.max(0, Math.min(bytes, this.arch.persistingL2CacheMaxSize));
  }

  /** the session is over: the L2's and L1's arrays serve the next hierarchy (L2Cache.release, L1Cache.release); nothing may use this one afterwards */
  release(): void {
    this.l2.release();
    this.l1.release();
  }

  persistingLimit(): number {
    return this.limit;
  }

  /** stream/launch access-policy window, or null */
  setAccessPolicyWindow(w: AccessPolicyWindow | null): void {
    this.window = w && w.bytes > 0 ? new WindowClassifier(w, this.lineSize) : null;
    this.windowSpec = this.window ? w : null;
  }

  /** cudaCtxResetPersistingL2Cache: all persisting lines become normal */
  resetPersistingLines(): void {
    this.l2.resetPersisting();
  }

  /**
   * Start of a kernel launch: L1s invalidated always (the driver does between grids); with
   * cacheControl 'all' (ncu default) L2 is flushed too, its write-backs not counted in this launch,
   * and left holding the dirty lines ncu's multi-pass replay leaves on the H200 (arch ncuReplayDirtyBytes).
   */
  beginLaunch(opts: LaunchOptions): void {
    // what a launch that ended in a fault left held
    this.combiner.flushAll();
    const l1Bytes = opts.l1Bytes ?? defaultL1Bytes(this.arch);
    if (l1Bytes !== this.l1.capacityBytes()) this.l1.setCapacity(l1Bytes);
    else this.l1.invalidateAll();
    if (opts.cacheControl === 'all') {
      this.dram.uncounted(() => this.l2.flush());
      this.l2.seedDirty(PROFILER_RESIDUE_ADDRESS / this.lineSize, Math.round(this.arch.ncuReplayDirtyBytes / this.lineSize));
    }
    this.dram.reset();
    // a launch starts with no DRAM reads in flight
    this.filledAtRound = this.dram.filled;
    this.l2.setDirtyVictimSkip(0);
    this.l2.resetCounters();
    this.persistingAtStart = this.limit > 0 ? this.l2.persistingLines() : 0;
    this.l1LdHit = this.l1LdMiss = this.l1StHit = this.l1StMiss = 0;
  }

  private hintFor(p: AccessProperty, line: number): L2Hint {
    if (p.kind === 'global' || p.kind === 'shared') {
      if (this.window === null) return HINT_UNCHANGED;
      const h = this.window.hintFor(line);
      return h === -1 ? HINT_UNCHANGED : h;
    }
    return resolveHint(p, line, this.lineSize);
  }

  /** HOT PATH: one warp-level global memory instruction after coalescing */
  access(a: GlobalAccess): AccessOutcome {
    const out = this.outcome;
    let l1Hit = 0;
    let l2Hit = 0;
    let dramSectors = 0;
    let reachedL2 = false;
    const written0 = this.dram.writeSectors;
    const sec = a.sectors;
    const n = a.count;
    const op = a.op;
    const sm = a.sm;
    const l1 = this.l1;
    const l2 = this.l2;
    const isLoad = op === 'ld';
    const isStore = op === 'st';
    // loads: ca/lu/cs allocate in L1; cg/cv/strong bypass (still an L1 tag lookup that misses)
    // ld.global.nc (__ldg) reads through the same L1 as ld.ca on sm_90 (the unified L1/texture cache)
    const l1Alloc = isLoad && (a.cacheOp === 'ca' || a.cacheOp === 'lu' || a.cacheOp === 'cs' || a.cacheOp === 'nc');
    const evictFirst = a.cacheOp === 'cs' || a.cacheOp === 'lu';
    const masks = a.writeMasks;
    const lb = this.lineBytes;
    const comb = this.combiner;
    // held partial sectors of the SM's previous store request (StoreCombiner); this request's own from `own` on
    let own = 0;
    if (isStore) {
      comb.begin(sm, a.group);
      own = comb.heldAt(sm);
    }
    // stale L1 copies (l1Cache.ts) exist only once a line one L1 holds was written by another SM
    const stale = l1.staleLines > 0;
    if (this.sharedWrites.length > 0) this.sharedWrites.length = 0;
    if (this.refreshes.length > 0) this.refreshes.length = 0;
    let i = 0;
    while (i < n) {
      // gather the sectors of one 128-B line
      const line = Math.floor(sec[i]! / 4);
      let mask = 0;
      let full = 0;
      while (i < n) {
        const s = sec[i]!;
        if (Math.floor(s / 4) !== line) break;
        const j = s - line * 4;
        const bit = 1 << j;
        mask |= bit;
        if (masks === undefined || masks[i] === 0xffffffff) full |= bit;
        else lb[j] = masks[i]!;
        i++;
      }
      const cnt = popcount4(mask);
      if (isLoad) {
        const hit = l1Alloc ? l1.load(sm, line, mask, true, evictFirst) : 0;
        if (stale && l1Alloc && hit !== mask && l1.staleCopy(sm, line) !== undefined) this.refreshes.push(line, mask & ~hit);
        const hc = popcount4(hit);
        l1Hit += hc;
        this.l1LdHit += hc;
        this.l1LdMiss += cnt - hc;
        const miss = mask & ~hit;
        if (miss !== 0) {
          reachedL2 = true;
          comb.beforeRead(sm, line);
          const rs0 = l2.readHit;
          dramSectors += l2.read(line, miss, this.hintFor(a.property, line), sm);
          l2Hit += l2.readHit - rs0;
        }
      } else if (isStore) {
        if (l1.heldElsewhere(sm, line)) this.sharedWrites.push(line);
        if (stale && l1.staleCopy(sm, line) !== undefined) this.refreshes.push(line, mask);
        if (a.cacheOp === 'cg' || a.cacheOp === 'cs') l1.invalidateLine(sm, line);
        const present = a.cacheOp === 'cg' || a.cacheOp === 'cs' ? false : l1.store(sm, line, mask, full);
        if (present) this.l1StHit += cnt;
        else this.l1StMiss += cnt;
        reachedL2 = true;
        const hint = this.hintFor(a.property, line);
        const whole = own !== 0 ? comb.merge(sm, own, line, mask, full, lb) : full;
        // partial sectors wait for the SM's next store request; whole ones go on now
        if (whole !== mask) comb.hold(sm, line, mask & ~whole, lb, hint);
        const f = whole !== 0 ? l2.write(line, whole, whole, hint, lb, sm) : 0;
        dramSectors += f;
        l2Hit += cnt - f;
      } else {
        // atom / red: performed at L2; the L1 copy is dropped (other L1s keep theirs: stale)
        if (l1.heldElsewhere(sm, line)) this.sharedWrites.push(line);
        l1.invalidateLine(sm, line);
        reachedL2 = true;
        comb.beforeRead(sm, line);
        const f = l2.atomic(line, mask, this.hintFor(a.property, line), sm);
        dramSectors += f;
        l2Hit += cnt - f;
      }
    }
    if (isStore) comb.end(sm, own);
    out.level = dramSectors > 0 ? 2 : reachedL2 ? 1 : 0;
    out.l1HitSectors = l1Hit;
    out.l2HitSectors = l2Hit;
    out.dramSectors = dramSectors;
    out.dramWriteSectors = this.dram.writeSectors - written0;
    return out;
  }

  get staleLines(): number {
    return this.l1.staleLines;
  }
  staleCopy(sm: number, line: number): Uint8Array | undefined {
    return this.l1.staleCopy(sm, line);
  }
  /** loads that read a stale L1 copy, over the hierarchy's life (Session: may a repeated launch skip the caches) */
  staleReads = 0;
  noteStaleRead(): void {
    this.staleReads++;
  }
  keepStale(sm: number, line: number, before: Uint8Array): void {
    this.l1.keepStale(sm, line, before);
  }

  /** CCTL.IVALL (an acquire at gpu/sys scope): the SM's L1 drops its lines */
  invalidateL1(sm: number): void {
    this.l1.invalidateSm(sm);
  }

  /** cuda::apply_access_property / prefetch.global.L2::evict_last|evict_normal on one 128-B line */
  prefetchL2(lineAddress: number, prop: 'persisting' | 'normal'): void {
    this.combiner.flushAll();
    this.l2.prefetch(Math.floor(lineAddress / this.lineSize), prop === 'persisting' ? 2 : 3);
  }

  /** a scheduler round ended: the DRAM bytes it read set how readily the L2 writes dirty victims back */
  endRound(): void {
    this.combiner.flushAll();
    const { maxSkip, halfReadBytes, steepness } = this.avoidance;
    const x = ((this.dram.filled - this.filledAtRound) * this.arch.sectorSize) / halfReadBytes;
    this.filledAtRound = this.dram.filled;
    const xn = Math.pow(x, steepness);
    this.l2.setDirtyVictimSkip(Math.min(maxSkip, xn / (1 + xn)));
  }

  /** cuda::discard_memory: drop a whole 128-B line without write-back (discard.global.L2) */
  discardL2(lineAddress: number): void {
    this.combiner.flushAll();
    this.l2.discard(Math.floor(lineAddress / this.lineSize));
  }

  /**
   * set the running launch's counters aside and start another's from `next` (fresh: zeros): kernels
   * that run at once on the GPU each count what they did (design guide §9, counters stay per launch)
   */
  swapCounters(next: HierarchyCounters | null): HierarchyCounters {
    this.combiner.flushAll();
    const saved: HierarchyCounters = { l1: [this.l1LdHit, this.l1LdMiss, this.l1StHit, this.l1StMiss], l2: this.l2.saveCounters(), dram: this.dram.saveCounters() };
    if (next) {
      [this.l1LdHit, this.l1LdMiss, this.l1StHit, this.l1StMiss] = next.l1;
      this.l2.restoreCounters(next.l2);
      this.dram.restoreCounters(next.dram);
    } else {
      this.l1LdHit = this.l1LdMiss = this.l1StHit = this.l1StMiss = 0;
      this.l2.resetCounters();
      this.dram.reset();
    }
    return saved;
  }

  /** counters of this launch, keyed by ncu metric id */
  endLaunch(): Record<string, number> {
    this.combiner.flushAll();
    const l2 = this.l2;
    // partial sectors still waiting for their fill stay so: the fill happens in whichever later
    // launch (or flush) evicts or reads the line, not in this one (the H200's g_st_*_stride2 read
    // ~200k fewer sectors than they wrote partially)
    const d = this.dram;
    const pct = (a: number, b: number): number => (b > 0 ? (100 * a) / b : 0);
    const ldSect = this.l1LdHit + this.l1LdMiss;
    const stSect = this.l1StHit + this.l1StMiss;
    const hh = l2.hintHit;
    const hs = l2.hintSectors;
    // ncu's L2 hit rate is over every L2 lookup: the tex requests at their first partition, the
    // fabric lookups at the home of far lines (reads: hit when the home has the sector; writes: hits),
    // and a partial-sector write's DRAM fill as a (missing) write sector. The H200's partial stores
    // fit hit = 1 - fills / lookups: g_st_u32_stride2 64.0 %, u64/u128_stride2 60.6 / 58.9 %,
    // u32_stride32 56.9 %. The 64-B partner fills of read misses are extra lookup misses but not extra
    // requests (g_ld_u32_stride32: 11.1 % vs 9.7 %).
    const reqSectors = l2.readSectors + l2.writeSectors + l2.atomSectors;
    const lookups = reqSectors + l2.fabricSectors + l2.writeFabric + l2.writeFills;
    const lookupHits = l2.readHit + l2.fabricHit + l2.writeHit + l2.writeFabric + l2.atomHit;
    const fabric = l2.fabricDataSectors + l2.writeFabric + l2.atomFabric;
    const slices = this.arch.l2SlicesActive;
    const m: Record<string, number> = {
      'l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum': this.l1LdHit,
      'l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum': this.l1LdMiss,
      'l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum': this.l1StHit,
      'l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_miss.sum': this.l1StMiss,
      'l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct': pct(this.l1LdHit, ldSect),
      'l1tex__t_sector_pipe_lsu_mem_global_op_st_hit_rate.pct': pct(this.l1StHit, stSect),
      'l1tex__t_sector_hit_rate.pct': pct(this.l1LdHit + this.l1StHit, ldSect + stSect),
      'lts__t_sectors_srcunit_tex_op_read.sum': l2.readSectors,
      'lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum': l2.readHit,
      'lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum': l2.readMiss,
      'lts__t_sectors_srcunit_tex_op_write.sum': l2.writeSectors,
      'lts__t_sectors_srcunit_tex_op_write_lookup_hit.sum': l2.writeHit,
      'lts__t_sectors_srcunit_tex_op_write_lookup_miss.sum': l2.writeFills,
      'lts__t_sectors_srcunit_tex_op_atom.sum': l2.atomSectors,
      // what the partitions passed each other for far lines: read data for near misses (64-B granules),
      // writes and atomics (near copies' hits stay near); the interface is busy a few cycles per sector
      'lts__t_sectors_srcunit_ltcfabric.sum': fabric,
      'lts__ltcfabric2ltc_cycles_active.sum': fabric * this.arch.l2FabricCyclesPerSector,
      'lts__ltcfabric2ltc_cycles_active.sum.peak_sustained': slices,
      'lts__d_sectors_fill_device.sum': d.readSectors,
      'lts__d_sectors_fill_device.sum.peak_sustained': slices,
      'lts__t_requests_srcunit_tex_op_read.sum': l2.readRequests,
      'lts__t_requests_srcunit_tex_op_write.sum': l2.writeRequests,
      'lts__t_requests_srcunit_ltcfabric.sum': 2 * l2.fabricRequests,
      'lts__t_requests.sum': l2.readRequests + l2.writeRequests + l2.atomRequests + 2 * l2.fabricRequests,
      'lts__t_tag_requests.sum.peak_sustained': slices,
      // the data stage: a sector for every one the SMs read or wrote, the fabric carried, DRAM filled
      // or took back, and every far read's data written into its near copy ([MEAS] lts__d_sectors of the
      // seven launches of sol_breakdown_h200.csv it models within 0.8 %)
      'lts__d_sectors.sum': reqSectors + fabric + d.readSectors + d.writeSectors + l2.fabricDataSectors,
      'lts__d_sectors.sum.peak_sustained': slices * this.arch.l2DataSectorsPerCycle,
      // the SMs' port into the slices: read requests, and write and atomic data a sector a cycle
      'lts__xbar2lts_cycles_active.sum': l2.readGranules / 2 + l2.writeSectors + l2.atomSectors,
      'lts__xbar2lts_cycles_active.sum.peak_sustained': slices,
      // the tag stage's sectors: the SMs', the fabric's and the fills of partly written sectors (the
      // H200's --set full launches: tex + fabric = 98.7 % and 99.7 % of lts__t_sectors; its g_st_*
      // launches within -13..+9 %)
      'lts__t_sectors.sum': reqSectors + fabric + l2.writeFills,
      'lts__t_sectors.sum.peak_sustained': slices * this.arch.l2TagSectorsPerCycle,
      'lts__t_sector_hit_rate.pct': pct(lookupHits, lookups),
      'lts__t_sector_op_read_hit_rate.pct': pct(l2.readHit + l2.fabricHit, l2.readSectors + l2.fabricSectors),
      'lts__t_sector_op_write_hit_rate.pct': pct(l2.writeHit + l2.writeFabric, l2.writeSectors + l2.writeFabric + l2.writeFills),
      'dram__sectors_read.sum': d.readSectors,
      'dram__sectors_write.sum': d.writeSectors,
      'dram__bytes_read.sum': d.readSectors * this.arch.sectorSize,
      'dram__bytes_write.sum': d.writeSectors * this.arch.sectorSize,
      'launch__persisting_l2_cache_size': this.limit,
      // Warpsight's own (no ncu counterpart): the L2 residency controls of this launch, for the
      // persistence advice rule
      'warpsight__l2_window_bytes': this.windowSpec?.bytes ?? 0,
      'warpsight__l2_window_hit_ratio': this.windowSpec?.hitRatio ?? 0,
      'warpsight__l2_window_hit_persisting': this.windowSpec?.hitProp === 'persisting' ? 1 : 0,
      'warpsight__l2_persisting_bytes_at_start': this.persistingAtStart * this.lineSize,
      'warpsight__l2_reused_evicted_bytes': l2.reusedEvictedByUnhinted * this.lineSize,
      'warpsight__l2_size': l2.capacityBytes(),
      'warpsight__l2_persisting_line_hits': l2.persistingLineHits,
      'warpsight__l2_persisting_prefetch_bytes': l2.persistingPrefetches * this.lineSize,
    };
    // ncu's L2 eviction-policy table: evict_first / evict_last / evict_normal / evict_normal_demote
    const names = ['evict_normal', 'evict_first', 'evict_last', 'evict_normal_demote'] as const;
    for (let h = 0; h < 4; h++) {
      const hit = hh[h]!;
      const miss = hs[h]! - hit;
      m[`lts__t_sectors_srcunit_tex_${names[h]}_lookup_hit.sum`] = hit;
      m[`lts__t_sectors_srcunit_tex_${names[h]}_lookup_miss.sum`] = miss;
      m[`lts__t_sectors_${names[h]}_lookup_hit.sum`] = hit;
      m[`lts__t_sectors_${names[h]}_lookup_miss.sum`] = miss;
    }
    // once the kernel is done the L2 writes its dirty lines beyond the idle cap back, counted by no launch
    d.uncounted(() => l2.settleDirty());
    return m;
  }
}

/** default L1 capacity: unified SRAM minus the 32 KB carveout the driver picks for small-smem kernels
 *  (`launch__shared_mem_config_size` = 32768 on the H200 family-1 launches) */
export function defaultL1Bytes(arch: Arch): number {
  return Math.max(arch.l2LineSize * 4, arch.l1SharedSizePerSm - 32 * 1024);
}
