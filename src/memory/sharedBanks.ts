/**
 * Shared-memory bank model of sm_70+ as the H200 confirmed it (hardware-rules.md §2, ground truth
 * surprise 2): 32 banks of 4 bytes; lanes reading the same 32-bit word are served together; a warp
 * instruction takes as many wavefronts as the most distinct words any one bank must deliver, and at
 * least 2 for 16-byte accesses (a 128-bit broadcast took 2 on the H200). The ideal is what the
 * distinct data needs at 128 bytes per wavefront, with the same minimum; conflicts = wavefronts − ideal.
 */

export interface BankResult {
  wavefronts: number;
  ideal: number;
}

const BANKS = 32;

export class SharedBanks {
  /** distinct word addresses seen per bank in this instruction */
  private readonly words = new Float64Array(BANKS * 128);
  private readonly counts = new Int32Array(BANKS);

  /** wavefronts for lanes in `mask` accessing `size` bytes at byte offsets offs[lane] */
  run(offs: Float64Array, mask: number, size: number): BankResult {
    const counts = this.counts;
    counts.fill(0);
    const words = this.words;
    const wordsPerLane = size <= 4 ? 1 : size / 4;
    let unique = 0;
    let worst = 0;
    for (let l = 0; l < 32; l++) {
      if (((mask >>> l) & 1) === 0) continue;
      const first = Math.floor((offs[l] as number) / 4);
      for (let k = 0; k < wordsPerLane; k++) {
        const word = first + k;
        const bank = word & (BANKS - 1);
        const base = bank * 128;
        const c = counts[bank] as number;
        let seen = false;
        for (let j = 0; j < c; j++) {
          if (words[base + j] === word) {
            seen = true;
            break;
          }
        }
        if (seen) continue;
        words[base + c] = word;
        counts[bank] = c + 1;
        unique++;
        if (c + 1 > worst) worst = c + 1;
      }
    }
    if (unique === 0) return { wavefronts: 0, ideal: 0 };
    const minimum = size >= 16 ? 2 : 1;
    return {
      wavefronts: Math.max(minimum, worst),
      ideal: Math.max(minimum, Math.ceil((unique * 4) / 128)),
    };
  }
}
