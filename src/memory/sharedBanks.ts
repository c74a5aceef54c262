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
  /** the distinct 32-bit words the lanes read or write */
  words: number;
}

const BANKS = 32;

/** slots of the set of distinct words (at most 128 per instruction: a quarter full) */
const SLOT_BITS = 9;
const SLOTS = 1 << SLOT_BITS;

export class SharedBanks {
  /**
   * The distinct words of this instruction: an open-addressing set whose slots are current when
   * their generation is this run's, and the distinct words per bank likewise, so that nothing is
   * cleared per run and a 32-way conflict costs no more than a conflict-free access.
   */
  private readonly keys = new Int32Array(SLOTS);
  private readonly keyGen = new Int32Array(SLOTS);
  private readonly counts = new Int32Array(BANKS);
  private readonly countGen = new Int32Array(BANKS);
  private gen = 0;
  /** the result of the last run (one object, read at once by the caller) */
  private readonly result: BankResult = { wavefronts: 0, ideal: 0, words: 0 };

  /**
   * wavefronts for lanes in `mask` accessing `size` bytes at byte offsets offs[lane] (valid offsets
   * into a block's shared memory: non-negative integers)
   */
  run(offs: Float64Array, mask: number, size: number): BankResult {
    if (this.gen === 0x7fffffff) {
      this.gen = 0;
      this.keyGen.fill(0);
      this.countGen.fill(0);
    }
    const wordsPerLane = size <= 4 ? 1 : size / 4;
    // the common case first: a whole warp on consecutive elements of whole words (4, 8, 16 bytes) covers
    // 32 x wordsPerLane consecutive words, wordsPerLane in every bank (what the pass below finds)
    if (mask === -1 && size >= 4 && (size & 3) === 0 && contiguous(offs, size)) {
      const r = this.result;
      const minimum = size >= 16 ? 2 : 1;
      r.words = 32 * wordsPerLane;
      r.wavefronts = r.ideal = Math.max(minimum, wordsPerLane);
      return r;
    }
    const g = ++this.gen;
    const { keys, keyGen, counts, countGen } = this;
    let unique = 0;
    let worst = 0;
    for (let l = 0; l < 32; l++) {
      if (((mask >>> l) & 1) === 0) continue;
      const first = (offs[l] as number) >>> 2;
      for (let k = 0; k < wordsPerLane; k++) {
        const word = first + k;
        let h = Math.imul(word, 0x9e3779b1) >>> (32 - SLOT_BITS);
        while (keyGen[h] === g && keys[h] !== word) h = (h + 1) & (SLOTS - 1);
        if (keyGen[h] === g) continue;
        keyGen[h] = g;
        keys[h] = word;
        const bank = word & (BANKS - 1);
        const c = countGen[bank] === g ? (counts[bank] as number) + 1 : 1;
        countGen[bank] = g;
        counts[bank] = c;
        unique++;
        if (c > worst) worst = c;
      }
    }
    const r = this.result;
    r.words = unique;
    if (unique === 0) {
      r.wavefronts = r.ideal = 0;
      return r;
    }
    const minimum = size >= 16 ? 2 : 1;
    r.wavefronts = Math.max(minimum, worst);
    r.ideal = Math.max(minimum, Math.ceil((unique * 4) / 128));
    return r;
  }
}

/** whether offs[l] = offs[0] + l * size for every lane, from the start of a word */
function contiguous(offs: Float64Array, size: number): boolean {
  const o = offs[0] as number;
  if ((o & 3) !== 0) return false;
  for (let l = 1; l < 32; l++) if ((offs[l] as number) !== o + l * size) return false;
  return true;
}
