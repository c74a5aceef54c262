/**
 * DRAM as seen from the L2: traffic only (the timing model turns it into time). Counts 32-B sectors
 * read (L2 fills) and written (L2 write-backs); ncu reports `dram__sectors_{read,write}.sum` and
 * `dram__bytes_{read,write}.sum` = sectors x 32. Also the DRAM bursts the traffic occupies, for the
 * timing model: a burst moves an aligned pair of sectors (arch dramFillGranularity), so a lone sector
 * costs as much DRAM time as two. [OBS] g_st_u32_stride32 (one 4-B store per 128-B line) reads and writes
 * 132 MB each, sector by sector, in 159.8 us: 1.65 TB/s, where kernels moving whole pairs reach 3.9-4.2
 * (g_st_u64_stride2, g_ld_u16_stride32; ../shared/groundtruth/h200/summary.json).
 */
export class Dram {
  readSectors = 0;
  writeSectors = 0;
  readBursts = 0;
  writeBursts = 0;
  /** traffic that belongs to no launch (ncu's pre-launch flush write-backs) goes here and is dropped */
  private muted = false;

  /** sectors read (L2 fills), counted or not: the read load the L2 sees */
  filled = 0;

  /** @param burstSectors sectors one DRAM burst moves (1 or 2) */
  constructor(readonly burstSectors: 1 | 2 = 1) {}

  /** read sectors `mask` (bits 0-3) of one line */
  read(mask: number): void {
    const n = popcount4(mask);
    this.filled += n;
    if (this.muted) return;
    this.readSectors += n;
    this.readBursts += this.bursts(mask, n);
  }

  /** write sectors `mask` (bits 0-3) of one line back */
  write(mask: number): void {
    if (this.muted) return;
    const n = popcount4(mask);
    this.writeSectors += n;
    this.writeBursts += this.bursts(mask, n);
  }

  private bursts(mask: number, sectors: number): number {
    return this.burstSectors === 1 ? sectors : (mask & 3 ? 1 : 0) + (mask & 12 ? 1 : 0);
  }

  /** runs `act` with its traffic not counted (ncu's flush before a launch, the L2's clean-down after one) */
  uncounted(act: () => void): void {
    this.muted = true;
    try {
      act();
    } finally {
      this.muted = false;
    }
  }

  /** the per-launch counters, to set aside while a co-running launch counts */
  saveCounters(): [number, number, number, number] {
    return [this.readSectors, this.writeSectors, this.readBursts, this.writeBursts];
  }

  restoreCounters(c: readonly [number, number, number, number]): void {
    [this.readSectors, this.writeSectors, this.readBursts, this.writeBursts] = c;
  }

  reset(): void {
    this.readSectors = this.writeSectors = this.readBursts = this.writeBursts = 0;
  }
}

/** sectors set in a line's 4-bit sector mask */
export function popcount4(m: number): number {
  return (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1);
}
