/**
 * The sm_70+ global-memory coalescer: one request per warp instruction; its sectors are the distinct
 * aligned 32-byte sectors covered by the active lanes' [addr, addr + size) (hardware-rules.md §1.2-1.3,
 * confirmed on the H200 for 1-16 byte accesses: ground truth surprise 1).
 */

export const SECTOR_BYTES = 32;

export class Coalescer {
  /** distinct sector indices (byte address / 32), ascending, [0, count) valid */
  readonly sectors = new Float64Array(64);
  /** per sector: bit i set = byte i written/read by some lane */
  readonly byteMasks = new Uint32Array(64);
  count = 0;

  /**
   * Coalesce the lanes of `mask` that access `size` bytes at addrs[lane]. Accesses are naturally
   * aligned (the executor checks), so a lane never straddles a sector.
   */
  run(addrs: Float64Array, mask: number, size: number): number {
    const sectors = this.sectors;
    const masks = this.byteMasks;
    const laneBytes = size >= 32 ? 0xffffffff : ((1 << size) - 1) >>> 0;
    let n = 0;
    let prev = -1;
    let sorted = true;
    for (let l = 0; l < 32; l++) {
      if (((mask >>> l) & 1) === 0) continue;
      const a = addrs[l] as number;
      const s = Math.floor(a / SECTOR_BYTES);
      const bits = (laneBytes << (a - s * SECTOR_BYTES)) >>> 0;
      if (s === prev) {
        masks[n - 1] = ((masks[n - 1] as number) | bits) >>> 0;
        continue;
      }
      if (s < prev) sorted = false;
      sectors[n] = s;
      masks[n] = bits;
      n++;
      prev = s;
    }
    if (!sorted) n = this.sortUnique(n);
    this.count = n;
    return n;
  }

  /** sectors filled in lane order but not ascending: sort and merge them (returns the count) */
  merge(n: number): number {
    this.count = this.sortUnique(n);
    return this.count;
  }

  /** sort sectors ascending and merge duplicates (non-monotonic lane addresses) */
  private sortUnique(n: number): number {
    // insertion sort in place (at most 32 entries, on the interpreter's path: no allocation)
    const sectors = this.sectors;
    const masks = this.byteMasks;
    for (let i = 1; i < n; i++) {
      const sv = sectors[i] as number;
      const mv = masks[i] as number;
      let j = i - 1;
      while (j >= 0 && (sectors[j] as number) > sv) {
        sectors[j + 1] = sectors[j] as number;
        masks[j + 1] = masks[j] as number;
        j--;
      }
      sectors[j + 1] = sv;
      masks[j + 1] = mv;
    }
    let out = 0;
    for (let i = 0; i < n; i++) {
      if (out > 0 && sectors[out - 1] === sectors[i]) masks[out - 1] = ((masks[out - 1] as number) | (masks[i] as number)) >>> 0;
      else {
        sectors[out] = sectors[i] as number;
        masks[out] = masks[i] as number;
        out++;
      }
    }
    return out;
  }
}

/** the fewest sectors that `lanes` accesses of `size` bytes could need (ncu's "ideal") */
export function idealSectors(lanes: number, size: number): number {
  return Math.ceil((lanes * size) / SECTOR_BYTES);
}

/** distinct 128-byte lines among the sectors (L1 tag lookups) */
export function distinctLines(sectors: Float64Array, count: number): number {
  let n = 0;
  let prev = -1;
  for (let i = 0; i < count; i++) {
    const line = Math.floor((sectors[i] as number) / 4);
    if (line !== prev) {
      n++;
      prev = line;
    }
  }
  return n;
}
