/**
 * DRAM as seen from the L2: only traffic is modelled (no timing). Counts 32-B sectors read (L2 fills)
 * and written (L2 write-backs); ncu reports `dram__sectors_{read,write}.sum` and
 * `dram__bytes_{read,write}.sum` = sectors x 32.
 */
export class Dram {
  readSectors = 0;
  writeSectors = 0;
  /** traffic that belongs to no launch (ncu's pre-launch flush write-backs) goes here and is dropped */
  private muted = false;

  /** sectors read (L2 fills), counted or not: the read load the L2 sees */
  filled = 0;

  read(sectors: number): void {
    this.filled += sectors;
    if (!this.muted) this.readSectors += sectors;
  }

  write(sectors: number): void {
    if (!this.muted) this.writeSectors += sectors;
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

  reset(): void {
    this.readSectors = 0;
    this.writeSectors = 0;
  }
}
