import { type Dram, popcount4 } from './dram.js';
import { modIndex } from './lineIndex.js';
import { HINT_DEMOTE, HINT_FIRST, HINT_LAST, HINT_UNCHANGED, hash32, type L2Hint } from './accessProperty.js';

/** eviction classes of a resident line: victims are taken from FIRST before NORMAL before LAST */
export const CLS_FIRST = 0;
export const CLS_NORMAL = 1;
export const CLS_LAST = 2;

export interface L2Options {
  /** bytes the cache holds (arch.l2Size scaled to the active slices) */
  bytes: number;
  /**
   * bytes the driver reports (arch.l2Size, default `bytes`): the persisting limits are fractions of it
   * (the H200's default and maximum are 3/16 and 10/16 of 60 MiB), taken as that many ways per set
   */
  nominalBytes?: number;
  /** the set-aside for persisting lines to start with (setPersistingBytes; default 0) */
  persistingBytes?: number;
  lineSize: number;
  sectorSize: number;
  /** associativity (undocumented; 16 as in hardware-rules §5.3 [INFER]) */
  ways?: number;
  /** DRAM read granularity for read misses (arch.dramFillGranularity, 64 B on the H200) */
  fillGranularity: number;
  /**
   * Dirty non-persisting lines allowed per set while a kernel runs: min(dirtyWays, ways - set-aside
   * ways - cleanWays); beyond it the set's LRU dirty line is cleaned (written back, kept valid). A
   * fractional cap is dithered over the sets. [MEAS] test/fidelity/probes/l2_copy_sweep_probe.cu: 8-byte
   * stores of 32 / 40 / 48 MiB from a clean L2 write 3.6 / 12.1 / 20.6 MB back, so 29.9 / 29.9 / 29.8 MB
   * stay dirty during the kernel (7.71 ways of the 16 in the sets of the H200's 94 active slices);
   * l2_setaside_probe.cu (sweep): with 6 / 8 / 10 sixteenths of the L2 set aside ~4 ways fewer than
   * the ways left outside the set-aside (family 5's `setaside`, 10/16: 7.7 MB left dirty for the evict
   * kernel, pass 2 writing 13 MB back per rep).
   * Default: the ways outside the set-aside.
   */
  dirtyWays?: number;
  /**
   * The dirty cap once the kernel has ended (settleDirty), the same way: the L2 writes the excess back
   * between kernels, counted by none. [MEAS] the same store kernels leave 28.8 / 28.7 / 28.7 MB dirty for
   * the next kernel (7.40 ways), ~1.1 MB less than they held; l2_setaside_probe.cu: 28.5 / 28.6 / 28.5 /
   * 28.1 MB after 64 MiB of stores with 0-4 sixteenths set aside. Between kernels it binds dirty
   * persisting lines as well (settleDirty). Default: dirtyWays.
   */
  idleDirtyWays?: number;
  /** see dirtyWays (default 0) */
  cleanWays?: number;
  /**
   * L2 line requests during which a sector filled as the unrequested half of a 64-B DRAM granule is
   * still in flight: a request for it then counts as a lookup miss (merged into the pending fill, no
   * DRAM traffic). [INFER] from g_ld_u8_coalesced / u*_misaligned: neighbouring warps request the
   * partner sector a few requests later and the H200 counts ~0-15 % read hits, not 50 %.
   */
  inflightRequests?: number;
  /**
   * Lines per set that may hold partially written sectors awaiting their DRAM fill (byte-masked
   * data). A partial write to an absent sector does not fill it: the line keeps the written bytes
   * and a later write that completes the sector cancels the fill (g_st_u32_misaligned: a warp of the
   * next block completes the boundary sectors the SM did not combine (storeCombiner.ts), 0 DRAM reads). A further line needing that
   * state makes the set's oldest such line fill its partial sectors (read-merge); eviction, a read
   * and a flush do too. Lines still waiting at the end of a kernel are filled later, outside it.
   * [INFER] from g_st_u32_stride2 / u64_stride2 / u128_stride2 / u32_stride32: 206k / 186k / 219k /
   * 63k written sectors never filled inside the kernel (DRAM reads below the written sectors by a
   * constant ~50-60k lines = ~2 of 16 ways per set, whatever the footprint).
   */
  partialLinesPerSet?: number;
  /**
   * Weight of a line with unfilled partial sectors in the per-set dirty cap (dirtyWays): the
   * byte masks take storage of their own. [INFER] from the same kernels: they keep 150k / 122k /
   * 132k lines dirty at the end (of which ~50k unfilled), full-sector stores 210k
   * (g_st_u64_coalesced / u128_coalesced), and g_st_u32_stride32 writes back every filled sector.
   */
  partialDirtyWeight?: number;
  /**
   * L2 partitions (GH100: two halves, each near half of the GPCs; hardware-rules §1.6). Every line has
   * a home partition (address hash); an SM looks lines up in its near partition, where lines homed in
   * the far one are kept as clean copies ("far data may be duplicated into the near partition").
   * A near miss of a far line is served by its home partition over the L2 fabric (no DRAM traffic if
   * the home has it) and counted by ncu as a tex lookup miss. 1 = one flat L2.
   */
  partitions?: 1 | 2;
  /**
   * which partition each line is homed in (arch l2PartitionHash); default: consecutive lines alternate
   * (unit one line, address bit log2(lineSize))
   */
  partitionHash?: { unitBytes: number; xorBits: readonly number[]; regionBytes: number };
  /**
   * Write-back avoidance: when a set's replacement victim (its LRU normal line) is dirty, with this
   * probability the set's oldest clean normal line is evicted instead, if it has one. The H200 does
   * so more the busier its DRAM is with reads: the memory hierarchy sets it every scheduler round from
   * the DRAM bytes read (setDirtyVictimSkip; src/memory/hierarchy.ts writeBackAvoidance has the evidence).
   * 0 = plain LRU.
   */
  dirtyVictimSkip?: number;
  /**
   * Replacement within each eviction class of a set ('lru' by default). 'sc', second chance: the victim
   * is the least recently used line, but a line read again (a read finding its data, not a merged miss:
   * inflightRequests) or written whole since it was last passed over is passed over once; a dirty line
   * passed over is written back then (unless write-back avoidance holds it back) and kept. Written whole:
   * a store or L2 atomic that leaves all four sectors valid (none waiting for a fill), a line written
   * entirely or a resident line written in part. [MEAS] l2_survival_probe.cu `words`: a copy loses
   * 3-5 % of lines written entirely by 16-B or 4-B stores or by atomics (on every word, or on one word of
   * each sector, the sectors fetched for them), 2.7-4.0 % of lines read and then written one word by an
   * atomic or a store, but 28-35 % of lines of which only the first sector was written (stores or
   * atomics; the other sectors never fetched), 11-13 % of lines read once, whole or their first 64 bytes.
   * [MEAS] test/fidelity/probes/l2_survival_probe.cu (which lines of a 2.25 MiB dirty seed a kernel
   * leaves, line by line): a 16 MiB copy / a 36 MiB read lose 4 / 16 % of a seed written by a kernel and
   * 12 / 27 % of one only read (LRU here: 10-12 / 38-39 % of both; 'sc' 5 / 18 and 13 / 39 %); a written
   * line read again is kept no better than one only written; the workload writes back 2.5-3x the seed
   * lines it evicts (0.32 MB for 730 lines, 1.02 MB for 2,900). [MEAS] test/fidelity/probes/
   * l2_request_probe.cu (8 runs of each): micro.cu's 4-byte copy writes back 0.58-0.59 MB of what ncu's
   * replay left dirty; with a quarter / half / all of its lines read once more by the same SM (.cg, after
   * the first read was served) 0.65 / 0.67 / 0.76-0.77 MB ('sc' 0.66 / 0.69 / 0.78; LRU 0.64 with all
   * read again).
   */
  replacement?: 'lru' | 'sc';
  /** SM -> partition (default sm % partitions; arch smL2Partition) */
  partitionOfSm?: (sm: number) => number;
}

const EMPTY = -1;
/** no way (the ends of a set's recency list) */
const NONE = 255;
/** the bits of ways [lo, hi) of a set */
const wayRange = (lo: number, hi: number): number => ((hi >= 31 ? -1 : (1 << hi) - 1) & ~((1 << lo) - 1));
/** the number of the lowest bit set in x (x not 0) */
const lowestBit = (x: number): number => 31 - Math.clz32(x & -x);
/** the sectors of the 64-B granules (aligned sector pairs) that sectors `m` of a line fall in */
const pairOf = (m: number): number => (m | ((m & 5) << 1) | ((m & 10) >> 1)) & 15;

/**
 * The GPU's L2: one cache (address-sliced in hardware; modelled as one set-associative array with a
 * hashed set index), 128-B lines of four 32-B sectors with per-sector valid/dirty bits, write-back.
 *
 * Replacement: evict_first victims before normal before evict_last; within a class LRU or second
 * chance (L2Options.replacement). Set-aside for persisting lines = whole ways: the limit quantised per set
 * (the H200's limits are way multiples: default 11,796,480 B = 3/16 and max 39,321,600 B = 10/16 of
 * 62,914,560 B). Persisting (evict_last) lines live only in the set-aside ways of their set; beyond
 * that one of the set's persisting lines is evicted, chosen as in any class ("evicted to keep the most
 * recently used", [DOC] §5.1; family 5's annotated and window variants' hit rates move by 0.4 points
 * at most between the policies tried: LRU, re-reference intervals, second chance).
 * Non-persisting lines use any way, set-aside ways only after the set's free normal ways ([DOC]: "only
 * when persisting lines are not using it"), and persisting insertions take set-aside ways back from
 * them first. With a set-aside of 0, persisting accesses behave as normal.
 *
 * All state in typed arrays indexed by set * ways + way.
 */
/** the per-launch counters (resetCounters zeroes them; a co-running launch sets them aside) */
const L2_COUNTERS = [
  'readHit', 'readMiss', 'readSectors', 'readRequests', 'readGranules',
  'fabricSectors', 'fabricHit', 'fabricDataSectors', 'fabricRequests',
  'writeRequests', 'atomRequests',
  'reusedEvictedByUnhinted', 'persistingLineHits', 'persistingPrefetches',
  'writeHit', 'writeMiss', 'writeSectors', 'writeFills', 'writeFabric',
  'atomSectors', 'atomHit', 'atomMiss', 'atomFabric',
] as const satisfies readonly (keyof L2Cache)[];

/**
 * The per-way and per-set arrays of an L2 of one shape (30,720 sets of 16 ways on the H200: 28 MB).
 * A profile makes one L2 per session; a test run or a bench makes a thousand sessions, and allocating
 * and collecting 28 MB each (touched anew, page by page) was a third of a small launch's time. A
 * released cache's arrays, set back to a new cache's state, serve the next one of the same shape.
 */
class L2Arrays {
  private static readonly spare = new Map<string, L2Arrays[]>();
  /** kept per shape: a multi-GPU run's PEs release one each */
  private static readonly SPARE_PER_SHAPE = 2;

  readonly tag: Float64Array;
  readonly valid: Uint8Array;
  readonly dirty: Uint8Array;
  readonly cls: Uint8Array;
  readonly older: Uint8Array;
  readonly newer: Uint8Array;
  readonly partner: Uint8Array;
  readonly fillStamp: Float64Array;
  readonly lastFill: Float64Array;
  readonly partial: Uint8Array;
  readonly partialBytes: Uint32Array;
  readonly partialStamp: Float64Array;
  readonly copy: Uint8Array;
  readonly reused: Uint8Array;
  readonly chance: Uint8Array;
  readonly lruWay: Uint8Array;
  readonly mruWay: Uint8Array;
  readonly live: Int32Array;
  readonly firstWays: Int32Array;
  readonly lastWays: Int32Array;
  /** set by L2Cache.setPersistingBytes for every set before any use: never reset here */
  readonly quota: Uint8Array;
  readonly dirtyCap: Uint8Array;
  readonly idleDirtyCap: Uint8Array;
  readonly idleAnyCap: Uint8Array;
  readonly touchedSet: Uint8Array;
  readonly liveSet: Uint8Array;

  private constructor(
    private readonly sets: number,
    private readonly ways: number,
  ) {
    const n = sets * ways;
    this.tag = new Float64Array(n);
    this.valid = new Uint8Array(n);
    this.dirty = new Uint8Array(n);
    this.cls = new Uint8Array(n);
    this.older = new Uint8Array(n);
    this.newer = new Uint8Array(n);
    this.partner = new Uint8Array(n);
    this.fillStamp = new Float64Array(n);
    this.lastFill = new Float64Array(n);
    this.partial = new Uint8Array(n);
    this.partialBytes = new Uint32Array(n * 4);
    this.partialStamp = new Float64Array(n);
    this.copy = new Uint8Array(n);
    this.reused = new Uint8Array(n);
    this.chance = new Uint8Array(n);
    this.lruWay = new Uint8Array(sets);
    this.mruWay = new Uint8Array(sets);
    this.live = new Int32Array(sets);
    this.firstWays = new Int32Array(sets);
    this.lastWays = new Int32Array(sets);
    this.quota = new Uint8Array(sets);
    this.dirtyCap = new Uint8Array(sets);
    this.idleDirtyCap = new Uint8Array(sets);
    this.idleAnyCap = new Uint8Array(sets);
    this.touchedSet = new Uint8Array(sets);
    this.liveSet = new Uint8Array(sets);
    // no line (tag EMPTY, recency list ends NONE); empty ways are of the normal class, as a flush
    // leaves them (an empty way's class is never read)
    this.tag.fill(EMPTY);
    this.cls.fill(CLS_NORMAL);
    this.older.fill(NONE);
    this.newer.fill(NONE);
    this.lruWay.fill(NONE);
    this.mruWay.fill(NONE);
  }

  /** arrays for an L2 of `sets` x `ways`, in a new cache's state: a released one's if there is one */
  static take(sets: number, ways: number): L2Arrays {
    return L2Arrays.spare.get(`${sets}x${ways}`)?.pop() ?? new L2Arrays(sets, ways);
  }

  /** kept for the next cache of this shape, which takes it as it is (L2Cache.release leaves it as a flush does) */
  release(): void {
    const key = `${this.sets}x${this.ways}`;
    const list = L2Arrays.spare.get(key) ?? [];
    if (list.length >= L2Arrays.SPARE_PER_SHAPE || list.includes(this)) return;
    list.push(this);
    L2Arrays.spare.set(key, list);
  }
}

export class L2Cache {
  /** the arrays below, from one L2Arrays (release) */
  private readonly arrays: L2Arrays;
  readonly sets: number;
  readonly ways: number;
  readonly lineSize: number;
  private readonly nominalBytes: number;
  private readonly tag: Float64Array;
  private readonly valid: Uint8Array;
  private readonly dirty: Uint8Array;
  /** per way: eviction class (CLS_*) */
  private readonly cls: Uint8Array;
  /**
   * Recency: per set, a list of its valid ways from the least to the most recently used (the order
   * the access clock's stamps gave them: every use stamped a line with a new, larger clock, so the
   * order is total). `older`/`newer` hold the neighbours' way numbers within the set (NONE at the
   * ends), `lruWay`/`mruWay` the ends. Victim queries follow the list from its LRU end and stop at
   * the first way that qualifies, where a scan compared the stamps of all the set's ways.
   */
  private readonly older: Uint8Array;
  private readonly newer: Uint8Array;
  private readonly lruWay: Uint8Array;
  private readonly mruWay: Uint8Array;
  /**
   * per set, one bit per way: the ways holding a line (`live`: exactly the ways in the recency
   * list), and the ways whose eviction class (cls) is CLS_FIRST / CLS_LAST (whether or not they hold
   * a line): a free way, or the lowest class present, is a mask and a count of trailing zeros
   */
  private readonly live: Int32Array;
  private readonly firstWays: Int32Array;
  private readonly lastWays: Int32Array;
  /** set-aside ways of each set (persisting limit spread over the sets) */
  private readonly quota: Uint8Array;
  private clock = 1;
  private readonly pairFill: boolean;
  /** per line: sectors filled as an unrequested 64-B partner, and the request clock of that fill */
  private readonly partner: Uint8Array;
  private readonly fillStamp: Float64Array;
  /** per line: the request clock of its last DRAM (or, for a copy, fabric) fill */
  private readonly lastFill: Float64Array;
  private readonly inflight: number;
  /** per line: sectors partially written and not yet filled; per sector: bytes written so far */
  private readonly partial: Uint8Array;
  private readonly partialBytes: Uint32Array;
  /** per line: clock when it began waiting with partial sectors */
  private readonly partialStamp: Float64Array;
  private readonly partialLines: number;
  private readonly partialWeight: number;
  /** dirty-line cap per set (non-persisting lines) while a kernel runs, and once it has ended */
  private readonly dirtyCap: Uint8Array;
  private readonly idleDirtyCap: Uint8Array;
  /** the dirty caps' sum in bytes (dirtyRoomBytes), kept as setPersistingBytes sets them */
  private dirtyRoom = 0;
  /** dirty lines of any class per set once the kernel has ended (idleDirtyWays, dithered; settleDirty) */
  private readonly idleAnyCap: Uint8Array;
  private readonly dirtyWays: number;
  private readonly idleDirtyWays: number;
  private readonly cleanWays: number;
  /** request clock (one tick per line request) */
  private reqClock = 0;
  /** per way: 1 = a clean copy of a line homed in the other partition */
  private readonly copy: Uint8Array;
  /** per way: 1 = the line was hit at least once since it was inserted (reused data) */
  private readonly reused: Uint8Array;
  private readonly sc: boolean;
  /** per way (sc): the line is passed over once more before eviction (read again, or written) */
  private readonly chance: Uint8Array;
  /** hint of the access being served (who evicts whom, for the persistence advice) */
  private curHint: L2Hint = HINT_UNCHANGED;
  /** reused lines (home, not persisting) evicted by accesses without a streaming or persisting hint, this launch */
  reusedEvictedByUnhinted = 0;
  /** requests that found their line persisting, and lines prefetched with evict_last, this launch */
  persistingLineHits = 0;
  persistingPrefetches = 0;
  readonly partitions: number;
  /** partition hash (L2Options.partitionHash) in lines: unit, mask of the line-index bits, region */
  private readonly unitLines: number;
  private readonly xorMask: number;
  private readonly regionLines: number;
  /** sets per partition */
  private readonly partSets: number;
  private readonly smPart: Uint8Array;
  /** dirtyVictimSkip as a threshold on a 32-bit hash, and the count of dirty victims drawn for */
  private skipBelow = 0;
  private skipDraws = 0;

  // ---- counters (sectors), reset by resetCounters() ----
  readHit = 0;
  /** sectors fetched from DRAM by read misses (ncu's lookup_miss counts the 64-B partner too: surprise 5) */
  readMiss = 0;
  readSectors = 0;
  readRequests = 0;
  writeHit = 0;
  writeMiss = 0;
  writeSectors = 0;
  /**
   * near misses of far lines looked up again in their home partition (L2 fabric requests), and how
   * many hit there: ncu's lts__t_sector_op_read_hit_rate counts these lookups with the tex reads
   * (H200 window pass 2: tex lookup misses 40 %, no DRAM reads, read hit rate 71 % = the fabric
   * lookups hitting; plain pass 2: tex hits 39 %, read hit rate 32 %)
   */
  fabricSectors = 0;
  fabricHit = 0;
  /**
   * read data the home partition sent the near one over the fabric: the missing sectors in 64-B
   * granules when DRAM fills are 64 B ([MEAS] test/fidelity/probes/sol_breakdown_h200.csv and the
   * ground truth's --set full launches: g_ld_u32_stride32's one-sector far reads move 2 sectors each,
   * lts__t_sectors_srcunit_ltcfabric 4,507,329 for 2,097,152 far reads and 262,144 far write sectors;
   * the transpose's whole-line reads move their 4)
   */
  fabricDataSectors = 0;
  /**
   * requests a near partition passed to a line's home: reads missing the near copy, far writes and
   * atomics. Each takes two tag lookups besides the SM's own (the home's, and the near slice's when
   * the answer or acknowledgement comes back): [MEAS] sol_breakdown_h200.csv, lts__t_tag_requests =
   * tex requests + 2 x these within -0.6..+4 % in six launches (g_ld_u32_coalesced +16 %); the ground
   * truth's stride-32 lts__t_requests_srcunit_ltcfabric is 4,219,894 for 2,097,152 far reads
   */
  fabricRequests = 0;
  /**
   * 64-B granules the SMs' read requests asked for: the crossbar port into the L2 takes a read request
   * in half a cycle per granule ([MEAS] sol_breakdown_h200.csv: lts__xbar2lts_cycles_active = granules
   * / 2 + write sectors within 2.4 % in six launches, sync_reduce_shfl -12 %; 1-sector reads cost half
   * a whole line's)
   */
  readGranules = 0;
  /** write and atomic requests from the SMs (one per line of a warp's request) */
  writeRequests = 0;
  atomRequests = 0;
  private lastHomeHit = 0;
  /** unrequested partner sectors the last home read filled from DRAM */
  private lastPairExtra = 0;
  /** DRAM fills caused by partial-sector writes (counted with the write lookups: see hit rates) */
  writeFills = 0;
  /**
   * sectors written by an SM of the other partition: the near partition passes the write on to the
   * line's home over the L2 fabric, a second (hit) lookup (H200 g_st_*_coalesced: lts__t_sectors
   * = 1.5-1.7 x the tex write sectors, all hits)
   */
  writeFabric = 0;
  /** atomic sectors from an SM of the other partition: performed at the home, reached over the fabric */
  atomFabric = 0;
  atomSectors = 0;
  atomHit = 0;
  atomMiss = 0;
  /** hit / accessed sectors by hint: index = L2Hint (unchanged=evict_normal, first, last, demote) */
  readonly hintHit = new Float64Array(4);
  readonly hintSectors = new Float64Array(4);

  constructor(
    opts: L2Options,
    private readonly dram: Dram,
  ) {
    this.ways = opts.ways ?? 16;
    this.lineSize = opts.lineSize;
    this.nominalBytes = opts.nominalBytes ?? opts.bytes;
    this.sets = Math.max(1, Math.floor(opts.bytes / opts.lineSize / this.ways));
    const a = L2Arrays.take(this.sets, this.ways);
    this.arrays = a;
    ({ tag: this.tag, valid: this.valid, dirty: this.dirty, cls: this.cls, older: this.older, newer: this.newer } = a);
    ({ lruWay: this.lruWay, mruWay: this.mruWay, live: this.live, firstWays: this.firstWays, lastWays: this.lastWays, quota: this.quota } = a);
    ({ partner: this.partner, fillStamp: this.fillStamp, lastFill: this.lastFill, partial: this.partial, partialBytes: this.partialBytes } = a);
    ({ partialStamp: this.partialStamp, dirtyCap: this.dirtyCap, idleDirtyCap: this.idleDirtyCap, idleAnyCap: this.idleAnyCap } = a);
    ({ touchedSet: this.touchedSet, liveSet: this.liveSet, copy: this.copy, reused: this.reused, chance: this.chance } = a);
    if (this.ways > 30) throw new Error(`L2: ${this.ways} ways per set; the replacement state packs a set's ways into 30 bits`);
    this.pairFill = opts.fillGranularity >= 2 * opts.sectorSize;
    this.inflight = opts.inflightRequests ?? 4096;
    this.partialLines = Math.max(1, Math.floor(opts.partialLinesPerSet ?? 2));
    this.partialWeight = opts.partialDirtyWeight ?? 1;
    this.dirtyWays = opts.dirtyWays ?? this.ways;
    this.idleDirtyWays = opts.idleDirtyWays ?? this.dirtyWays;
    this.cleanWays = opts.cleanWays ?? 0;
    this.sc = opts.replacement === 'sc';
    this.partitions = opts.partitions ?? 1;
    this.partSets = Math.max(1, Math.floor(this.sets / this.partitions));
    const lineBit = Math.log2(this.lineSize);
    const hash = opts.partitionHash ?? { unitBytes: this.lineSize, xorBits: [lineBit], regionBytes: 4194304 };
    this.unitLines = hash.unitBytes / this.lineSize;
    this.regionLines = hash.regionBytes / this.lineSize;
    const unitBit = Math.log2(hash.unitBytes);
    if (!Number.isInteger(unitBit) || unitBit < lineBit || !hash.xorBits.includes(unitBit) || hash.xorBits.some((b) => b < lineBit || 2 ** b >= hash.regionBytes))
      throw new Error(`L2 partition hash: the unit must be a power-of-two number of lines whose bit is an XOR bit, and every XOR bit below the region (${JSON.stringify(hash)})`);
    this.xorMask = hash.xorBits.reduce((m, b) => m | (1 << (b - lineBit)), 0);
    const pos = opts.partitionOfSm ?? ((sm: number) => sm % this.partitions);
    this.smPart = new Uint8Array(1024);
    for (let sm = 0; sm < 1024; sm++) this.smPart[sm] = pos(sm) % this.partitions;
    this.setDirtyVictimSkip(opts.dirtyVictimSkip ?? 0);
    this.setPersistingBytes(opts.persistingBytes ?? 0);
  }

  capacityBytes(): number {
    return this.sets * this.ways * this.lineSize;
  }

  /**
   * the cache is done with (its session ended): its arrays, emptied as a flush empties them but with
   * nothing written back, serve the next L2 of the same shape. A new cache and a flushed one behave
   * alike: what a flush leaves (fill and partial-write stamps, partial bytes, reuse marks) is written
   * before it is read again. Nothing may use this cache afterwards.
   */
  release(): void {
    this.clearWays(0, this.tag.length);
    this.liveSet.fill(0);
    this.liveSets = [];
    this.touchedSet.fill(0);
    this.touchedSets = [];
    this.arrays.release();
  }

  resetCounters(): void {
    for (const k of L2_COUNTERS) this[k] = 0;
    this.hintHit.fill(0);
    this.hintSectors.fill(0);
  }

  /** the counters as they stand, to set aside while a co-running launch counts (restoreCounters) */
  saveCounters(): Float64Array {
    const out = new Float64Array(L2_COUNTERS.length + this.hintHit.length + this.hintSectors.length);
    L2_COUNTERS.forEach((k, i) => (out[i] = this[k]));
    out.set(this.hintHit, L2_COUNTERS.length);
    out.set(this.hintSectors, L2_COUNTERS.length + this.hintHit.length);
    return out;
  }

  restoreCounters(saved: Float64Array): void {
    L2_COUNTERS.forEach((k, i) => (this[k] = saved[i] as number));
    const at = L2_COUNTERS.length;
    this.hintHit.set(saved.subarray(at, at + this.hintHit.length));
    this.hintSectors.set(saved.subarray(at + this.hintHit.length));
  }

  /**
   * Set-aside in bytes -> ways per set (floor(bytes / nominal bytes * ways * sets) ways spread evenly).
   * Persisting lines above a set's new quota become normal.
   */
  setPersistingBytes(bytes: number): void {
    this.touchedAll = true;
    const totalWays = Math.min(this.sets * this.ways, Math.floor((bytes / this.nominalBytes) * this.sets * this.ways + 1e-9));
    let capWays = 0;
    for (let s = 0; s < this.sets; s++) {
      const q = Math.floor(((s + 1) * totalWays) / this.sets) - Math.floor((s * totalWays) / this.sets);
      this.quota[s] = q;
      // a fractional cap is dithered over the sets (golden-ratio offsets), so the total is right on average
      const dither = (s * 0.6180339887498949) % 1;
      const room = this.ways - q - this.cleanWays;
      this.dirtyCap[s] = Math.max(1, Math.floor(Math.min(this.dirtyWays, room) + dither));
      capWays += this.dirtyCap[s]!;
      this.idleDirtyCap[s] = Math.max(1, Math.floor(Math.min(this.idleDirtyWays, room) + dither));
      this.idleAnyCap[s] = Math.floor(this.idleDirtyWays + dither);
      // (no way to look at while no line can be persisting: a new or flushed cache)
      if (this.maybeLast) {
        const base = s * this.ways;
        for (let w = q; w < this.ways; w++) if (this.cls[base + w] === CLS_LAST) this.setCls(base + w, CLS_NORMAL);
      }
    }
    this.dirtyRoom = capWays * this.lineSize;
  }

  /** cudaCtxResetPersistingL2Cache: every persisting line becomes normal */
  resetPersisting(): void {
    this.touchedAll = true;
    this.maybeLast = false;
    for (let i = 0; i < this.cls.length; i++) if (this.cls[i] === CLS_LAST) this.setCls(i, CLS_NORMAL);
  }

  /**
   * write every dirty sector back (counted by the DRAM unless uncounted) and invalidate everything.
   * Only the sets that took a line since the last flush can hold one (allocate records them): a launch
   * that touched a few sets clears those, not the whole 60 MB array (a flush per launch under
   * --cache-control all). The DRAM's counters are sums, so the order of the write-backs plays no part.
   */
  flush(): void {
    const live = this.liveSets;
    if (live.length * 4 > this.sets) {
      this.fillAllPartials();
      for (let i = 0; i < this.dirty.length; i++) if (this.dirty[i] !== 0) this.dram.write(this.dirty[i]!);
      this.clearWays(0, this.tag.length);
      this.liveSet.fill(0);
    } else {
      const ways = this.ways;
      for (const set of live) {
        const from = set * ways;
        const to = from + ways;
        for (let i = from; i < to; i++) if (this.partial[i] !== 0) this.fillPartial(i, this.partial[i]!);
        for (let i = from; i < to; i++) if (this.dirty[i] !== 0) this.dram.write(this.dirty[i]!);
        this.clearWays(from, to);
        this.liveSet[set] = 0;
      }
    }
    this.liveSets = [];
    // every set is empty now: none holds dirty lines for settleDirty to cap
    for (const set of this.touchedSets) this.touchedSet[set] = 0;
    this.touchedSets = [];
    this.touchedAll = false;
    this.maybeLast = false;
    this.skipDraws = 0;
  }

  /** ways [from, to) invalid, of the normal class, with no replacement or fill state */
  private clearWays(from: number, to: number): void {
    this.tag.fill(EMPTY, from, to);
    this.valid.fill(0, from, to);
    this.dirty.fill(0, from, to);
    this.cls.fill(CLS_NORMAL, from, to);
    this.chance.fill(0, from, to);
    // whole sets: their recency lists empty, no class masks
    for (let set = from / this.ways; set < to / this.ways; set++) {
      this.live[set] = 0;
      this.firstWays[set] = 0;
      this.lastWays[set] = 0;
      this.lruWay[set] = NONE;
      this.mruWay[set] = NONE;
    }
    this.partner.fill(0, from, to);
    this.partial.fill(0, from, to);
    this.copy.fill(0, from, to);
  }

  /** sets that took a line since the last flush (allocate) */
  private readonly liveSet: Uint8Array;
  private liveSets: number[] = [];

  /**
   * `lines` whole dirty lines from `firstLine` on, older than anything the kernel touches (memory
   * outside the kernel's buffers, dirty when it starts)
   */
  seedDirty(firstLine: number, lines: number): void {
    for (let l = firstLine; l < firstLine + lines; l++) {
      const set = this.setOf(l);
      const w = this.allocate(set, l, CLS_NORMAL);
      this.valid[w] = this.dirty[w] = 0xf;
      this.partner[w] = this.partial[w] = 0;
      this.use(w);
      this.capDirty(set, w, this.dirtyCap[set]!);
    }
  }

  /**
   * The kernel has ended: every set cleans its LRU dirty lines down to the idle cap (idleDirtyWays),
   * its persisting lines too: between kernels the L2 writes back whatever is dirty beyond that room,
   * whatever its class. [MEAS] family 5 (ncu_raw_l2.csv): after pass 2, annot and window hold their
   * 33.5 MB of dst and tmp dirty as persisting lines, and their evict kernels write back 29.5 / 29.7 MB,
   * the dirty room the store kernels leave (l2_setaside_probe.cu, 28.1-28.8 MB); within a kernel the
   * passes write back no more than 0.1-1.0 MB, so the cap binds persisting lines between kernels only.
   */
  settleDirty(): void {
    // in set order, as a scan of every set would (the write-backs' order reaches the DRAM counters)
    const list = this.touchedAll ? null : this.touchedSets.sort((a, b) => a - b);
    const n = list ? list.length : this.sets;
    for (let i = 0; i < n; i++) {
      const s = list ? (list[i] as number) : i;
      if (this.idleDirtyCap[s]! < this.dirtyCap[s]!) this.capDirty(s, -1, this.idleDirtyCap[s]!);
      if (this.quota[s]! > 0) this.capDirty(s, -1, this.idleAnyCap[s]!, true);
    }
    for (const s of this.touchedSets) this.touchedSet[s] = 0;
    this.touchedSets = [];
    this.touchedAll = false;
  }

  /** number of dirty sectors resident (tests / diagnostics) */
  dirtySectors(): number {
    let n = 0;
    for (let i = 0; i < this.dirty.length; i++) n += popcount4(this.dirty[i]!);
    return n;
  }

  /** bytes the L2 lets stay dirty while a kernel runs: the per-set dirty caps (dirtyWays, cleanWays, set-aside) */
  dirtyRoomBytes(): number {
    return this.dirtyRoom;
  }

  /** resident persisting (evict-last) lines */
  persistingLines(): number {
    if (!this.maybeLast) return 0;
    let n = 0;
    for (let i = 0; i < this.cls.length; i++) if (this.cls[i] === CLS_LAST && this.tag[i] !== EMPTY) n++;
    return n;
  }

  /** resident lines of each class [first, normal, last] (tests / diagnostics) */
  classCounts(): [number, number, number] {
    const r: [number, number, number] = [0, 0, 0];
    for (let i = 0; i < this.tag.length; i++) if (this.tag[i] !== EMPTY) r[this.cls[i] as 0 | 1 | 2]++;
    return r;
  }

  /**
   * home partition of a line: the parity of its address's XOR bits and of a hashed bit of its region
   * (L2Options.partitionHash); each aligned pair of units has one unit in each partition, so a
   * contiguous buffer splits evenly
   */
  homeOf(line: number): number {
    if (this.partitions === 1) return 0;
    const region = Math.floor(line / this.regionLines);
    let x = ((line - region * this.regionLines) & this.xorMask) ^ (hash32(region) & 1);
    x ^= x >>> 16;
    x ^= x >>> 8;
    x ^= x >>> 4;
    x ^= x >>> 2;
    return (x ^ (x >>> 1)) & 1;
  }

  /** partition the SM's requests look up first */
  partOfSm(sm: number): number {
    return this.smPart[sm & 1023]!;
  }

  /**
   * sets touched since the last settleDirty (only they can hold more dirty lines than the idle caps:
   * a settled set stays settled until an access or a change of quotas reaches it), and whether
   * any line may be persisting (persistingLines is then a scan; otherwise 0)
   */
  private readonly touchedSet: Uint8Array;
  private touchedSets: number[] = [];
  private touchedAll = true;
  private maybeLast = false;

  private touch_(set: number): number {
    if (this.touchedSet[set] === 0) {
      this.touchedSet[set] = 1;
      this.touchedSets.push(set);
    }
    return set;
  }

  /** the line's set in partition `part` */
  setIn(part: number, line: number): number {
    // hashed set index over the line's place among its partition's lines (a pair of units has one
    // unit in each): contiguous lines of a partition spread over all its sets exactly once per
    // `partSets`, and the offset of each such block is scrambled so that large power-of-two strides
    // do not alias
    const sets = this.partSets;
    const u = this.unitLines;
    const g = this.partitions === 1 ? line : Math.floor(line / (2 * u)) * u + modIndex(line, u);
    const blk = Math.floor(g / sets);
    let h = Math.imul(blk ^ (blk >>> 15), 0x2c1b3c6d);
    h = (h ^ (h >>> 12)) >>> 0;
    return this.touch_(part * sets + modIndex(g + h, sets));
  }

  /** the line's set in its home partition */
  setOf(line: number): number {
    return this.setIn(this.homeOf(line), line);
  }

  private find(base: number, line: number): number {
    const t = this.tag;
    for (let i = base, end = base + this.ways; i < end; i++) if (t[i] === line) return i;
    return -1;
  }

  /**
   * the victim among [from, to): the least recently used line of the lowest class, passing over once
   * the lines with a second chance (L2Options.replacement 'sc'; a dirty one is written back as it is
   * passed over, unless write-back avoidance holds it back), the oldest if every line had one; invalid
   * ways first, those from `emptyFrom` on before the others (a normal line takes a free way outside the
   * set-aside first). [from, to) lies in one set.
   */
  private pick(from: number, to: number, allowLast: boolean, emptyFrom = from): number {
    const set = (from / this.ways) | 0;
    const base = set * this.ways;
    const range = wayRange(from - base, to - base);
    const live = this.live[set]!;
    const empty = ~live & range;
    if (empty !== 0) {
      // the first free way from emptyFrom on, else the first free way
      const late = empty & ~((1 << (emptyFrom - base)) - 1);
      return base + lowestBit(late !== 0 ? late : empty);
    }
    const last = this.lastWays[set]!;
    const cand = allowLast ? live & range : live & range & ~last;
    if (cand === 0) return -1;
    // the lowest class present among the candidates
    const first = cand & this.firstWays[set]!;
    const normal = cand & ~last;
    const target = first !== 0 ? first : normal !== 0 ? normal : cand;
    const best = base + ((target & (target - 1)) === 0 ? lowestBit(target) : this.oldestOf(set, target));
    if (this.chance[best] === 0) return this.avoidDirtyVictim(best, from, to);
    return this.passOver(from, to, allowLast);
  }

  /** the least recently used way (within the set) of the set's ways in `mask` (not 0, live ways only) */
  private oldestOf(set: number, mask: number): number {
    const newer = this.newer;
    const base = set * this.ways;
    let i = this.lruWay[set]!;
    while (((mask >>> i) & 1) === 0) i = newer[base + i]!;
    return i;
  }

  /**
   * The LRU line of the lowest class has a second chance: the lines are passed over in victim order
   * (class, then age) -- each losing its chance, a dirty one written back unless write-back avoidance
   * holds it back -- until one without a chance, the victim; the first if all had one. The set's
   * recency list in age order once per class. The set holds no invalid way (pick returned it).
   */
  private passOver(from: number, to: number, allowLast: boolean): number {
    const set = (from / this.ways) | 0;
    const base = set * this.ways;
    const last = this.lastWays[set]!;
    const first = this.firstWays[set]!;
    const cand = this.live[set]! & wayRange(from - base, to - base) & (allowLast ? -1 : ~last);
    const newer = this.newer;
    let head = -1;
    for (let k = CLS_FIRST; k <= CLS_LAST; k++) {
      const target = k === CLS_FIRST ? cand & first : k === CLS_NORMAL ? cand & ~first & ~last : cand & last;
      if (target === 0) continue;
      for (let i = this.lruWay[set]!; i !== NONE; i = newer[base + i]!) {
        if (((target >>> i) & 1) === 0) continue;
        const w = base + i;
        if (head < 0) head = w;
        if (this.chance[w] === 0) return this.avoidDirtyVictim(w, from, to);
        this.chance[w] = 0;
        if (this.dirty[w] !== 0 && this.partial[w] === 0 && !(this.skipBelow > 0 && this.skipDirty())) {
          this.dram.write(this.dirty[w]!);
          this.dirty[w] = 0;
        }
      }
    }
    return head;
  }

  /** write-back avoidance: a dirty normal victim gives way to the set's oldest clean normal line (dirtyVictimSkip) */
  private avoidDirtyVictim(best: number, from: number, to: number): number {
    if (this.cls[best] === CLS_NORMAL && this.dirty[best] !== 0 && this.skipBelow > 0 && this.skipDirty()) {
      const clean = this.oldestClean(from, to);
      if (clean >= 0) return clean;
    }
    return best;
  }

  /** the oldest clean normal line of [from, to) (one set, every way of it valid), or -1 */
  private oldestClean(from: number, to: number): number {
    const set = (from / this.ways) | 0;
    const base = set * this.ways;
    const normal = this.live[set]! & wayRange(from - base, to - base) & ~this.firstWays[set]! & ~this.lastWays[set]!;
    const newer = this.newer;
    for (let i = this.lruWay[set]!; i !== NONE; i = newer[base + i]!) if (((normal >>> i) & 1) !== 0 && this.dirty[base + i] === 0) return base + i;
    return -1;
  }

  /** way `w` is used now: the most recent of its set (a stamp of the access clock, as before the lists) */
  private use(w: number): void {
    this.clock++;
    const set = (w / this.ways) | 0;
    const base = set * this.ways;
    const i = w - base;
    const bit = 1 << i;
    const live = this.live[set]!;
    if ((live & bit) !== 0) {
      if (this.mruWay[set] === i) return;
      this.unlink(set, base, i);
    }
    const m = this.mruWay[set]!;
    this.older[w] = m;
    this.newer[w] = NONE;
    if (m !== NONE) this.newer[base + m] = i;
    else this.lruWay[set] = i;
    this.mruWay[set] = i;
    this.live[set] = live | bit;
  }

  /** way `i` of the set leaves its recency list */
  private unlink(set: number, base: number, i: number): void {
    const w = base + i;
    const o = this.older[w]!;
    const n = this.newer[w]!;
    if (o !== NONE) this.newer[base + o] = n;
    else this.lruWay[set] = n;
    if (n !== NONE) this.older[base + n] = o;
    else this.mruWay[set] = o;
    this.live[set]! &= ~(1 << i);
  }

  /** way `w` holds no line any more */
  private drop(w: number): void {
    this.tag[w] = EMPTY;
    const set = (w / this.ways) | 0;
    const base = set * this.ways;
    if ((this.live[set]! & (1 << (w - base))) !== 0) this.unlink(set, base, w - base);
  }

  /** way `w`'s eviction class (the set's class masks follow) */
  private setCls(w: number, k: number): void {
    this.cls[w] = k;
    const set = (w / this.ways) | 0;
    const bit = 1 << (w - set * this.ways);
    this.firstWays[set] = k === CLS_FIRST ? this.firstWays[set]! | bit : this.firstWays[set]! & ~bit;
    this.lastWays[set] = k === CLS_LAST ? this.lastWays[set]! | bit : this.lastWays[set]! & ~bit;
  }

  /** probability a dirty victim is passed over (L2Options.dirtyVictimSkip) from now on */
  setDirtyVictimSkip(p: number): void {
    this.skipBelow = Math.round(Math.min(1, Math.max(0, p)) * 4294967296);
  }

  /** a deterministic draw (hash of a counter) with probability dirtyVictimSkip */
  private skipDirty(): boolean {
    return hash32(++this.skipDraws) < this.skipBelow;
  }

  private evict(i: number): void {
    if (this.tag[i] === EMPTY) return;
    if (this.copy[i] !== 0) {
      this.copy[i] = 0;
      this.drop(i);
      this.valid[i] = 0;
      return;
    }
    if (this.reused[i] !== 0) {
      this.reused[i] = 0;
      if (this.curHint === HINT_UNCHANGED || this.curHint === HINT_DEMOTE) this.reusedEvictedByUnhinted++;
    }
    if (this.partial[i] !== 0) this.fillPartial(i, this.partial[i]!);
    const d = this.dirty[i]!;
    if (d !== 0) this.dram.write(d);
    this.drop(i);
    this.valid[i] = 0;
    this.dirty[i] = 0;
    this.partner[i] = 0;
  }

  /** DRAM fill of partially written sectors `m` of way i (read-merge) */
  private fillPartial(i: number, m: number): void {
    this.dram.read(m);
    this.writeFills += popcount4(m);
    this.partial[i]! &= ~m;
  }

  /** fill every waiting partial sector (flush; tests) */
  fillAllPartials(): void {
    const p = this.partial;
    for (let i = 0; i < p.length; i++) if (p[i] !== 0) this.fillPartial(i, p[i]!);
  }

  /** sectors written partially and still waiting for their fill (tests / diagnostics) */
  partialSectors(): number {
    let n = 0;
    for (let i = 0; i < this.partial.length; i++) n += popcount4(this.partial[i]!);
    return n;
  }

  /** way `w` of `set` starts waiting with partial sectors: the set's oldest waiting line beyond the limit is filled */
  private admitPartial(set: number, w: number): void {
    const base = set * this.ways;
    const p = this.partial;
    let n = 0;
    let old = -1;
    let st = Infinity;
    for (let i = base; i < base + this.ways; i++)
      if (p[i] !== 0 && i !== w) {
        n++;
        if (this.partialStamp[i]! < st) {
          st = this.partialStamp[i]!;
          old = i;
        }
      }
    if (n >= this.partialLines && old >= 0) this.fillPartial(old, p[old]!);
    this.partialStamp[w] = this.clock;
  }

  /** keep at most `cap` dirty non-persisting lines (with `persisting`, dirty lines of any class) in the set: clean the LRU one(s) */
  private capDirty(set: number, keep: number, cap: number, persisting = false): void {
    const base = set * this.ways;
    const pw = this.partialWeight;
    // the class no line is of when every class counts
    const exempt = persisting ? -1 : CLS_LAST;
    let n = 0;
    for (let i = base; i < base + this.ways; i++) if (this.dirty[i] !== 0 && this.cls[i] !== exempt) n += this.partial[i] !== 0 ? pw : 1;
    while (n > cap) {
      // the LRU dirty line whose sectors are all whole (waiting partial lines are left to admitPartial);
      // a way without a line is never dirty
      let lru = -1;
      for (let i = this.lruWay[set]!; i !== NONE; i = this.newer[base + i]!) {
        const w = base + i;
        if (w !== keep && this.dirty[w] !== 0 && this.partial[w] === 0 && this.cls[w] !== exempt) {
          lru = w;
          break;
        }
      }
      if (lru < 0) return;
      this.dram.write(this.dirty[lru]!);
      this.dirty[lru] = 0;
      n--;
    }
  }

  /** a way for a new line of class `k` in set `set` (evicting as needed) */
  private allocate(set: number, line: number, k: number): number {
    if (this.liveSet[set] === 0) {
      this.liveSet[set] = 1;
      this.liveSets.push(set);
    }
    const base = set * this.ways;
    const q = this.quota[set]!;
    let w: number;
    if (k === CLS_LAST) {
      w = this.pick(base, base + q, true);
    } else {
      w = this.pick(base, base + this.ways, false, base + q);
      if (w < 0) w = this.pick(base, base + this.ways, true);
    }
    this.evict(w);
    this.tag[w] = line;
    this.setCls(w, k);
    if (k === CLS_LAST) this.maybeLast = true;
    this.copy[w] = 0;
    this.reused[w] = 0;
    this.chance[w] = 0;
    this.lastFill[w] = -Infinity;
    return w;
  }

  /** apply the hint of an access to the resident line in way w; returns its (possibly moved) way */
  private touch(set: number, w: number, hint: L2Hint): number {
    const c = this.cls[w];
    if (hint === HINT_LAST) {
      const base = set * this.ways;
      const q = this.quota[set]!;
      this.maybeLast = true;
      if (w - base < q) this.setCls(w, CLS_LAST);
      else {
        // move into the set-aside ways
        const t = this.pick(base, base + q, true);
        this.evict(t);
        this.tag[t] = this.tag[w]!;
        this.valid[t] = this.valid[w]!;
        this.dirty[t] = this.dirty[w]!;
        this.partner[t] = this.partner[w]!;
        this.fillStamp[t] = this.fillStamp[w]!;
        this.partial[t] = this.partial[w]!;
        this.partialStamp[t] = this.partialStamp[w]!;
        for (let j = 0; j < 4; j++) this.partialBytes[t * 4 + j] = this.partialBytes[w * 4 + j]!;
        this.setCls(t, CLS_LAST);
        this.chance[t] = this.chance[w]!;
        this.lastFill[t] = this.lastFill[w]!;
        this.drop(w);
        this.valid[w] = 0;
        this.dirty[w] = 0;
        this.partner[w] = 0;
        this.partial[w] = 0;
        w = t;
      }
    } else if (hint === HINT_FIRST) {
      if (c === CLS_NORMAL) this.setCls(w, CLS_FIRST);
    } else if (hint === HINT_DEMOTE) {
      if (c !== CLS_NORMAL) this.setCls(w, CLS_NORMAL);
    }
    this.reused[w] = 1;
    this.use(w);
    return w;
  }

  /** a store or atomic has written way `w`: its second chance if the line is now whole (L2Options.replacement) */
  private writtenWhole(w: number): void {
    if (this.sc && this.valid[w] === 15 && this.partial[w] === 0) this.chance[w] = 1;
  }

  /**
   * a read found `hitMask` sectors of way w valid: data read again (sc: a second chance), unless the
   * line's fill is still in flight (inflightRequests): that read is part of its miss
   */
  private rereference(w: number, hitMask: number): void {
    if (this.sc && hitMask !== 0 && this.reqClock - this.lastFill[w]! >= this.inflight) this.chance[w] = 1;
  }

  private lastSet = 0;

  private lookup(line: number, hint: L2Hint): number {
    return this.lookupSet(this.setOf(line), line, hint);
  }

  private lookupSet(set: number, line: number, hint: L2Hint): number {
    this.curHint = hint;
    this.lastSet = set;
    this.reqClock++;
    const base = set * this.ways;
    if (hint === HINT_LAST && this.quota[set] === 0) hint = HINT_UNCHANGED;
    const w = this.find(base, line);
    if (w >= 0) {
      if (this.cls[w] === CLS_LAST) this.persistingLineHits++;
      return this.touch(set, w, hint);
    }
    const k = hint === HINT_FIRST ? CLS_FIRST : hint === HINT_LAST ? CLS_LAST : CLS_NORMAL;
    const n = this.allocate(set, line, k);
    this.use(n);
    this.partner[n] = 0;
    this.partial[n] = 0;
    return n;
  }

  /**
   * read `mask` sectors of `line` for a request from SM `sm` (-1: from the home partition); returns
   * the number of sectors that had to come from DRAM
   */
  read(line: number, mask: number, hint: L2Hint, sm = -1): number {
    const n = popcount4(mask);
    this.readSectors += n;
    this.readRequests++;
    this.readGranules += popcount4(pairOf(mask)) / 2;
    this.hintSectors[hint]! += n;
    if (this.partitions > 1 && sm >= 0) {
      const near = this.smPart[sm & 1023]!;
      if (near !== this.homeOf(line)) return this.readFar(line, mask, hint, near);
    }
    return this.readHome(line, mask, hint, true);
  }

  /** a far line requested from partition `near`: its clean copy there, else the home over the fabric */
  private readFar(line: number, mask: number, hint: L2Hint, near: number): number {
    const set = this.setIn(near, line);
    const base = set * this.ways;
    let w = this.find(base, line);
    // copies are never persisting (they live outside the set-aside); streaming marks them evict-first
    const k = hint === HINT_FIRST ? CLS_FIRST : CLS_NORMAL;
    let hitMask = 0;
    if (w >= 0) {
      hitMask = this.valid[w]! & mask;
      if (hint === HINT_FIRST) {
        if (this.cls[w] === CLS_NORMAL) this.setCls(w, CLS_FIRST);
      } else if (hint === HINT_DEMOTE || hint === HINT_LAST) this.setCls(w, CLS_NORMAL);
      this.use(w);
      this.rereference(w, hitMask);
    }
    const hit = popcount4(hitMask);
    this.readHit += hit;
    this.hintHit[hint]! += hit;
    const miss = mask & ~hitMask;
    if (miss === 0) return 0;
    const nm = popcount4(miss);
    this.readMiss += nm;
    const f = this.readHome(line, miss, hint, false);
    this.fabricSectors += nm;
    this.fabricRequests++;
    this.fabricDataSectors += this.pairFill ? popcount4(pairOf(miss)) : nm;
    this.fabricHit += this.lastHomeHit;
    // ncu's lookup misses include the 64-B partner of a DRAM fill (surprise 5)
    this.readMiss += this.lastPairExtra;
    if (w < 0 || this.tag[w] !== line) {
      w = this.allocate(set, line, k);
      this.valid[w] = 0;
      this.dirty[w] = 0;
      this.partner[w] = 0;
      this.partial[w] = 0;
      this.copy[w] = 1;
    }
    this.valid[w]! |= miss;
    this.lastFill[w] = this.reqClock;
    this.use(w);
    return f;
  }

  /** drop the copies of `line` outside its home partition (a write or atomic at the home) */
  private dropCopies(line: number, home: number, keep: number): void {
    for (let p = 0; p < this.partitions; p++) {
      if (p === home || p === keep) continue;
      const w = this.find(this.setIn(p, line) * this.ways, line);
      if (w >= 0) {
        this.drop(w);
        this.valid[w] = 0;
        this.copy[w] = 0;
      }
    }
  }

  /** the home partition's read; `count` false for fabric requests from the far partition (not tex lookups) */
  private readHome(line: number, mask: number, hint: L2Hint, count: boolean): number {
    const w = this.lookup(line, hint);
    let v = this.valid[w]!;
    // partially written sectors need their fill now (read-merge)
    const pm = this.partial[w]! & mask;
    if (pm !== 0) this.fillPartial(w, pm);
    let hitMask = v & mask & ~pm;
    this.lastHomeHit = popcount4(hitMask);
    this.lastPairExtra = 0;
    if (count) {
      // the unrequested half of a recent 64-B fill is still in flight: a miss merged into that fill
      const pa = this.partner[w]! & hitMask;
      if (pa !== 0) {
        if (this.reqClock - this.fillStamp[w]! < this.inflight) {
          hitMask &= ~pa;
          this.readMiss += popcount4(pa);
        }
        this.partner[w]! &= ~pa;
      }
      const hit = popcount4(hitMask);
      this.readHit += hit;
      this.hintHit[hint]! += hit;
    }
    this.rereference(w, hitMask);
    let miss = mask & ~v;
    if (miss === 0) return 0;
    // 64-B DRAM granule: a miss fills the aligned sector pair (surprise 5)
    if (this.pairFill) {
      const pair = pairOf(miss) & ~v;
      const extra = pair & ~miss;
      if (!count) this.lastPairExtra = popcount4(extra);
      if (extra !== 0) {
        this.partner[w]! |= extra;
        this.fillStamp[w] = this.reqClock;
      }
      miss = pair;
    }
    const f = popcount4(miss);
    if (count) this.readMiss += f;
    v |= miss;
    this.valid[w] = v;
    this.lastFill[w] = this.reqClock;
    this.dram.read(miss);
    return f;
  }

  /** a write from `near` to a far line also updates (allocates) the near copy: whole sectors valid, partial ones invalid */
  private writeCopy(line: number, mask: number, fullMask: number, hint: L2Hint, near: number): void {
    const set = this.setIn(near, line);
    let w = this.find(set * this.ways, line);
    if (w < 0) {
      w = this.allocate(set, line, hint === HINT_FIRST ? CLS_FIRST : CLS_NORMAL);
      this.valid[w] = 0;
      this.dirty[w] = 0;
      this.partner[w] = 0;
      this.partial[w] = 0;
      this.copy[w] = 1;
    }
    this.valid[w] = (this.valid[w]! | fullMask) & ~(mask & ~fullMask);
    this.use(w);
  }

  /**
   * write sectors `mask` of `line`; `fullMask` of them completely, the others with byte masks
   * `bytes[j]` (sector j of the line). Full-sector writes allocate without fill and count as hits
   * (surprise 4). A partial write to an absent sector is a hit too, but the sector waits for a DRAM
   * fill (partialFillDelay) that a completing write cancels; those fills are returned by `endLaunch`
   * as extra write-lookup misses. Returns the sectors read from DRAM now.
   */
  write(line: number, mask: number, fullMask: number, hint: L2Hint, bytes?: ArrayLike<number>, sm = -1): number {
    this.writeRequests++;
    if (this.partitions > 1 && sm >= 0) {
      const near = this.smPart[sm & 1023]!;
      const home = this.homeOf(line);
      if (near !== home) {
        this.writeCopy(line, mask, fullMask, hint, near);
        this.writeFabric += popcount4(mask);
        this.fabricRequests++;
      }
      this.dropCopies(line, home, near);
    }
    const w = this.lookup(line, hint);
    const set = this.lastSet;
    const v = this.valid[w]!;
    const n = popcount4(mask);
    this.writeSectors += n;
    this.writeHit += n;
    this.hintSectors[hint]! += n;
    this.hintHit[hint]! += n;
    const before = this.writeFills;
    // full writes complete pending partial sectors
    const done = this.partial[w]! & fullMask;
    if (done !== 0) this.partial[w]! &= ~done;
    const part = mask & ~fullMask;
    if (part !== 0) {
      for (let j = 0; j < 4; j++) {
        const bit = 1 << j;
        if ((part & bit) === 0) continue;
        const b = bytes === undefined ? 0 : bytes[j]! >>> 0;
        if ((this.partial[w]! & bit) !== 0) {
          const merged = (this.partialBytes[w * 4 + j]! | b) >>> 0;
          this.partialBytes[w * 4 + j] = merged;
          if (merged === 0xffffffff) this.partial[w]! &= ~bit;
        } else if ((v & bit) === 0) {
          if (this.partial[w] === 0) this.admitPartial(set, w);
          this.partial[w]! |= bit;
          this.partialBytes[w * 4 + j] = b;
        }
      }
    }
    this.valid[w] = v | mask;
    this.partner[w]! &= ~mask;
    this.dirty[w]! |= mask;
    this.writtenWhole(w);
    if (this.cls[w] !== CLS_LAST && this.dirtyCap[set]! < this.ways) this.capDirty(set, w, this.dirtyCap[set]!);
    return this.writeFills - before;
  }

  /** atomic / reduction on `mask` sectors: performed in L2 (read-modify-write, sector fill on miss) */
  atomic(line: number, mask: number, hint: L2Hint, sm = -1): number {
    this.atomRequests++;
    if (this.partitions > 1) {
      const home = this.homeOf(line);
      if (sm >= 0 && this.smPart[sm & 1023] !== home) {
        this.atomFabric += popcount4(mask);
        this.fabricRequests++;
      }
      this.dropCopies(line, home, -1);
    }
    const w = this.lookup(line, hint);
    const v = this.valid[w]!;
    const pm = this.partial[w]! & mask;
    if (pm !== 0) this.fillPartial(w, pm);
    const fill = mask & ~v;
    const f = popcount4(fill);
    const n = popcount4(mask);
    this.atomSectors += n;
    this.atomHit += n - f;
    this.atomMiss += f;
    this.hintSectors[hint]! += n;
    this.hintHit[hint]! += n - f;
    if (f) this.dram.read(fill);
    this.valid[w] = v | mask;
    this.partner[w]! &= ~mask;
    this.dirty[w]! |= mask;
    this.writtenWhole(w);
    return f + popcount4(pm);
  }

  /**
   * prefetch.global.L2::evict_last / ::evict_normal (cuda::apply_access_property): the line is made
   * resident with that priority (its sectors fetched if missing; counted as DRAM reads, not as tex
   * lookups) -- evict_normal demotes a persisting line.
   */
  prefetch(line: number, hint: L2Hint): void {
    if (hint === HINT_LAST) this.persistingPrefetches++;
    const w = this.lookup(line, hint);
    const miss = ~this.valid[w]! & 15;
    if (miss) {
      this.dram.read(miss);
      this.valid[w] = 15;
    }
  }

  /** discard.global.L2: drop the line without write-back */
  discard(line: number): void {
    if (this.partitions > 1) this.dropCopies(line, this.homeOf(line), -1);
    const set = this.setOf(line);
    const w = this.find(set * this.ways, line);
    if (w < 0) return;
    this.drop(w);
    this.valid[w] = 0;
    this.dirty[w] = 0;
    this.partial[w] = 0;
    this.partner[w] = 0;
    this.setCls(w, CLS_NORMAL);
    this.chance[w] = 0;
  }
}

export { HINT_DEMOTE, HINT_FIRST, HINT_LAST, HINT_UNCHANGED };
