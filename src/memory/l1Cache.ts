/**
 * The per-SM L1 data cache (global-memory part of the unified L1/TEX/shared SRAM).
 *
 * Geometry: 128-B lines of four 32-B sectors with per-sector valid bits ([DOC]/[NV], hardware-rules
 * §1.5-1.6); capacity = unified SRAM minus the launch's shared-memory carveout; `ways`-way set
 * associative, LRU (associativity undocumented; 4 by default). All SMs' state lives in flat typed
 * arrays indexed by (sm * lines + set * ways + way): no object per line.
 *
 * Policy, each choice checked against the H200 ground truth (groundtruth/README.md surprise 3):
 *  - loads allocate per sector; a lookup hits only sectors already valid: `g_ld_u8_coalesced` (4 warps
 *    read 4 different sectors of one line) has 0 load hits, `g_ld_u32_misaligned` hits only the
 *    boundary sector shared with the previous warp of the block (17.5 %), `blockshared` 7/8;
 *  - stores are write-through and allocate the line's tag (fully written sectors become valid); a
 *    store's sectors hit when the line's tag was present before the request: `g_st_u8_coalesced`
 *    shows `l1tex__t_sector_hit_rate` 72.4 % (3 of the 4 warps writing one line hit), u16 47.8 %
 *    (1 of 2), u32 0 % (one warp per line) -- a line-level, not sector-level, store hit;
 *  - everything is invalidated between kernels (the driver does so between grids, [DOC] §1.5).
 */
import { modIndex } from './lineIndex.js';

/** the hashed line index of the holder counts (lines 128 MB apart share a count: a false "maybe") */
const HOLDER_MASK = (1 << 20) - 1;

/** an L1's arrays, for the next L1 made once its session is over (L1Cache.release) */
interface L1Arrays {
  tag: Float64Array<ArrayBuffer>;
  valid: Uint8Array<ArrayBuffer>;
  stamp: Float64Array<ArrayBuffer>;
  holders: Uint16Array<ArrayBuffer>;
}
/**
 * Released L1s' arrays (at most two: a multi-GPU run's PEs release one each). A session's L1 of all
 * SMs is 6.5 MB of arrays on the H200: allocating them afresh cost 10-30 ms a session in page faults
 * and the collections their external memory set off; a new L1 clears the arrays it takes anyway
 * (setCapacity invalidates everything).
 */
const spareArrays: L1Arrays[] = [];
const SPARE_ARRAYS = 2;

export class L1Cache {
  readonly lineSize: number;
  private sets = 1;
  private ways: number;
  private linesPerSm = 0;
  private tag = new Float64Array(0);
  private valid = new Uint8Array(0);
  private stamp = new Float64Array(0);
  private clock = 0;
  /** SMs whose lines changed since the last invalidateAll: only they need clearing (a 1-block kernel touches one) */
  private touchedSm = new Uint8Array(0);
  private touchedSms: number[] = [];
  private touchedAll = true;
  /**
   * Stale copies: the SMs' L1s are not coherent, so when one SM writes a line another SM's L1 holds,
   * the holder keeps the old bytes: its weak loads that hit read them, until an acquire's CCTL.IVALL
   * or an eviction drops the line. Kept only for such lines (key line * 256 + sm: the line's 128
   * bytes as that L1 has them). `holders` counts, per hashed line, the L1s holding valid sectors of
   * it, so that a store looks for other holders only when there may be some (a tag a partial store
   * allocated, with no valid sector, keeps nothing stale: neighbouring blocks writing the two ends of
   * one line, as a stencil's do, are not holders of each other's line).
   */
  private readonly stale = new Map<number, Uint8Array>();
  /** per SM, its stale copies: an SM with none answers staleCopy without a look-up (whose key, a double, is boxed) */
  private readonly staleOfSm: Int32Array;
  private readonly holders: Uint16Array<ArrayBuffer>;

  constructor(
    private readonly smCount: number,
    bytes: number,
    lineSize = 128,
    ways = 4,
  ) {
    this.lineSize = lineSize;
    this.ways = ways;
    this.staleOfSm = new Int32Array(smCount);
    const spare = spareArrays.pop();
    if (spare) {
      this.tag = spare.tag;
      this.valid = spare.valid;
      this.stamp = spare.stamp;
    }
    this.holders = spare?.holders ?? new Uint16Array(1 << 20);
    // everything invalid, the holder counts zero, whatever the arrays held before
    this.setCapacity(bytes);
  }

  /** the session is over: the arrays serve the next L1 made (spareArrays); nothing may use this one afterwards */
  release(): void {
    if (spareArrays.length >= SPARE_ARRAYS || spareArrays.some((a) => a.tag === this.tag)) return;
    spareArrays.push({ tag: this.tag, valid: this.valid, stamp: this.stamp, holders: this.holders });
  }

  /** resize (per launch: unified SRAM minus the shared-memory carveout); invalidates everything */
  setCapacity(bytes: number): void {
    const lines = Math.max(this.ways, Math.floor(bytes / this.lineSize));
    const sets = Math.max(1, Math.floor(lines / this.ways));
    if (sets !== this.sets || this.linesPerSm === 0) {
      this.sets = sets;
      this.linesPerSm = sets * this.ways;
      const n = this.linesPerSm * this.smCount;
      // arrays kept across launches: a carveout that changes between kernels uses a prefix of them
      if (n > this.tag.length) {
        this.tag = new Float64Array(n);
        this.valid = new Uint8Array(n);
        this.stamp = new Float64Array(n);
      }
    }
    this.touchedAll = true;
    this.invalidateAll();
  }

  capacityBytes(): number {
    return this.linesPerSm * this.lineSize;
  }

  invalidateAll(): void {
    this.holders.fill(0);
    if (this.stale.size > 0) {
      this.stale.clear();
      this.staleOfSm.fill(0);
    }
    if (this.touchedAll || this.touchedSm.length !== this.smCount) {
      const n = this.linesPerSm * this.smCount;
      this.tag.fill(-1, 0, n);
      this.valid.fill(0, 0, n);
      this.stamp.fill(0, 0, n);
      this.touchedSm = new Uint8Array(this.smCount);
    } else {
      const n = this.linesPerSm;
      for (const sm of this.touchedSms) {
        this.tag.fill(-1, sm * n, sm * n + n);
        this.valid.fill(0, sm * n, sm * n + n);
        this.stamp.fill(0, sm * n, sm * n + n);
        this.touchedSm[sm] = 0;
      }
    }
    this.touchedSms = [];
    this.touchedAll = false;
    this.clock = 0;
  }

  private find(base: number, line: number): number {
    const t = this.tag;
    for (let i = base, end = base + this.ways; i < end; i++) if (t[i] === line) return i;
    return -1;
  }

  /**
   * One pass over the set: the way holding `line`, else -1 - the victim: the first invalid way, else
   * the least recently used (the smallest stamp; among equal stamps, evict-first lines' 0, the first)
   */
  private lookup(base: number, line: number): number {
    const t = this.tag;
    const s = this.stamp;
    let empty = -1;
    let best = base;
    let bestStamp = Infinity;
    for (let i = base, end = base + this.ways; i < end; i++) {
      const v = t[i];
      if (v === line) return i;
      if (v === -1) {
        if (empty < 0) empty = i;
      } else if (s[i]! < bestStamp) {
        bestStamp = s[i]!;
        best = i;
      }
    }
    return -1 - (empty >= 0 ? empty : best);
  }

  private setBase(sm: number, line: number): number {
    if (this.touchedSm[sm] === 0) {
      this.touchedSm[sm] = 1;
      this.touchedSms.push(sm);
    }
    return sm * this.linesPerSm + this.setOf(line) * this.ways;
  }

  /** line % sets (lineIndex.ts: without a floating-point remainder) */
  private setOf(line: number): number {
    return modIndex(line, this.sets);
  }

  /**
   * Load lookup of the sectors `mask` (bit i = sector i) of one line. Returns the mask of sectors that
   * hit. With `allocate`, missing sectors are filled (evictFirst: inserted as LRU, `ld.cs`).
   */
  load(sm: number, line: number, mask: number, allocate: boolean, evictFirst: boolean): number {
    let w = this.lookup(this.setBase(sm, line), line);
    if (w >= 0) {
      const hit = this.valid[w]! & mask;
      if (allocate) {
        this.setValid(w, this.valid[w]! | mask);
        this.stamp[w] = evictFirst ? 0 : ++this.clock;
      }
      return hit;
    }
    if (allocate) {
      w = -1 - w;
      this.replace(sm, w, line);
      this.setValid(w, mask);
      this.stamp[w] = evictFirst ? 0 : ++this.clock;
    }
    return 0;
  }

  /**
   * Store of sectors `mask` (`fullMask` = sectors written completely). Write-through; the line's tag
   * is allocated. Returns true when the tag was present (all the request's sectors in it count as hits).
   */
  store(sm: number, line: number, mask: number, fullMask: number): boolean {
    let w = this.lookup(this.setBase(sm, line), line);
    if (w >= 0) {
      this.setValid(w, this.valid[w]! | fullMask);
      this.stamp[w] = ++this.clock;
      return true;
    }
    w = -1 - w;
    this.replace(sm, w, line);
    this.setValid(w, fullMask & mask);
    this.stamp[w] = ++this.clock;
    return false;
  }

  /**
   * CCTL.IVALL: every line of one SM's L1 is dropped (an acquire at gpu or sys scope: the SM's L1s are
   * not coherent with each other, so later loads must not hit what another SM may have overwritten)
   */
  invalidateSm(sm: number): void {
    if (this.touchedSm[sm] !== 1 && !this.touchedAll) return;
    const n = this.linesPerSm;
    for (let i = sm * n, e = sm * n + n; i < e; i++) if ((this.tag[i] as number) >= 0) this.replace(sm, i, -1);
    this.tag.fill(-1, sm * n, sm * n + n);
    this.valid.fill(0, sm * n, sm * n + n);
    this.stamp.fill(0, sm * n, sm * n + n);
  }

  /** drop one line (atomics are performed in L2; an L1 copy would be stale) */
  invalidateLine(sm: number, line: number): void {
    const w = this.find(this.setBase(sm, line), line);
    if (w >= 0) this.replace(sm, w, -1);
  }

  /** way `w` (of SM `sm`) takes `line` (-1: none) with no valid sector yet: the holder counts and stale copies follow */
  private replace(sm: number, w: number, line: number): void {
    const old = this.tag[w] as number;
    if (old >= 0) {
      this.setValid(w, 0);
      if (this.staleOfSm[sm] !== 0 && this.stale.delete(old * 256 + sm)) this.staleOfSm[sm]!--;
    }
    this.tag[w] = line;
  }

  /** way `w`'s valid sectors; its line's holder count follows whether it has any */
  private setValid(w: number, v: number): void {
    const was = this.valid[w] as number;
    this.valid[w] = v;
    if ((was === 0) === (v === 0)) return;
    const h = (this.tag[w] as number) & HOLDER_MASK;
    if (v !== 0) this.holders[h]!++;
    else if ((this.holders[h] as number) > 0) this.holders[h]!--;
  }

  /** how many lines some L1 holds stale (0: every weak load reads memory as it is) */
  get staleLines(): number {
    return this.stale.size;
  }

  /** SM `sm`'s stale copy of `line`, when its L1 holds one */
  staleCopy(sm: number, line: number): Uint8Array | undefined {
    if (this.staleOfSm[sm] === 0) return undefined;
    return this.stale.get(line * 256 + sm);
  }

  /** whether an L1 other than SM `sm`'s may hold `line` (a hashed count: true may be a collision) */
  heldElsewhere(sm: number, line: number): boolean {
    const count = this.holders[line & HOLDER_MASK] as number;
    if (count === 0) return false;
    if (this.touchedSm[sm] !== 1) return true;
    const w = this.find(sm * this.linesPerSm + this.setOf(line) * this.ways, line);
    return count > (w >= 0 && this.valid[w] !== 0 ? 1 : 0);
  }

  /** SM `sm` wrote `line`, whose bytes before were `before`: every other L1 with valid sectors of it keeps them */
  keepStale(sm: number, line: number, before: Uint8Array): void {
    for (let s = 0; s < this.smCount; s++) {
      if (s === sm || this.touchedSm[s] !== 1) continue;
      const w = this.find(s * this.linesPerSm + this.setOf(line) * this.ways, line);
      if (w < 0 || this.valid[w] === 0) continue;
      const key = line * 256 + s;
      if (!this.stale.has(key)) {
        this.stale.set(key, before.slice());
        this.staleOfSm[s]!++;
      }
    }
  }
}
