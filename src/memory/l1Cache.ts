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

  constructor(
    private readonly smCount: number,
    bytes: number,
    lineSize = 128,
    ways = 4,
  ) {
    this.lineSize = lineSize;
    this.ways = ways;
    this.setCapacity(bytes);
  }

  /** resize (per launch: unified SRAM minus the shared-memory carveout); invalidates everything */
  setCapacity(bytes: number): void {
    const lines = Math.max(this.ways, Math.floor(bytes / this.lineSize));
    const sets = Math.max(1, Math.floor(lines / this.ways));
    if (sets !== this.sets || this.tag.length === 0) {
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

  private victim(base: number): number {
    const t = this.tag;
    const s = this.stamp;
    let best = base;
    let bestStamp = Infinity;
    for (let i = base, end = base + this.ways; i < end; i++) {
      if (t[i] === -1) return i;
      const v = s[i]!;
      if (v < bestStamp) {
        bestStamp = v;
        best = i;
      }
    }
    return best;
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
    const base = this.setBase(sm, line);
    let w = this.find(base, line);
    if (w >= 0) {
      const hit = this.valid[w]! & mask;
      if (allocate) {
        this.valid[w]! |= mask;
        this.stamp[w] = evictFirst ? 0 : ++this.clock;
      }
      return hit;
    }
    if (allocate) {
      w = this.victim(base);
      this.tag[w] = line;
      this.valid[w] = mask;
      this.stamp[w] = evictFirst ? 0 : ++this.clock;
    }
    return 0;
  }

  /**
   * Store of sectors `mask` (`fullMask` = sectors written completely). Write-through; the line's tag
   * is allocated. Returns true when the tag was present (all the request's sectors in it count as hits).
   */
  store(sm: number, line: number, mask: number, fullMask: number): boolean {
    const base = this.setBase(sm, line);
    let w = this.find(base, line);
    if (w >= 0) {
      this.valid[w]! |= fullMask;
      this.stamp[w] = ++this.clock;
      return true;
    }
    w = this.victim(base);
    this.tag[w] = line;
    this.valid[w] = fullMask & mask;
    this.stamp[w] = ++this.clock;
    return false;
  }

  /** drop one line (atomics are performed in L2; an L1 copy would be stale) */
  invalidateLine(sm: number, line: number): void {
    const w = this.find(this.setBase(sm, line), line);
    if (w >= 0) {
      this.tag[w] = -1;
      this.valid[w] = 0;
    }
  }
}
