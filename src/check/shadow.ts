/**
 * Shadow memory for the race checker: per 4-byte word of memory an access touched, a summary of who
 * touched it last (not its history), in pages of SHADOW_WORDS words made on first touch, so that it
 * grows with the bytes touched, not with the allocation. A word keeps:
 *   - the last write: agent, its clock at the access, and an info word (instruction, lane, bytes, kind);
 *   - at most two reads since that write that are unordered with each other (FastTrack's read epoch,
 *     with one extra slot: broadcast reads by many warps are common); a third concurrent reader
 *     replaces the second, so a later write racing only with the replaced read is missed.
 * Sub-word accesses keep the bytes they touched: accesses to other bytes of the word do not conflict.
 * A write of other bytes by an unordered agent replaces the last writer (the earlier writer of the
 * other bytes is forgotten: a race with it can be missed). Agents are stored plus one (0: none).
 */

/** fields per word */
export const F = 9;
export const W_AGENT = 0;
export const W_CLOCK = 1;
export const W_INFO = 2;
export const R1_AGENT = 3;
export const R1_CLOCK = 4;
export const R1_INFO = 5;
export const R2_AGENT = 6;
export const R2_CLOCK = 7;
export const R2_INFO = 8;

/** words per shadow page: 64 words (256 bytes of memory, 2.25 KiB of shadow) */
export const SHADOW_SHIFT = 6;
export const SHADOW_WORDS = 1 << SHADOW_SHIFT;
/** bytes one shadow page takes */
export const SHADOW_PAGE_BYTES = SHADOW_WORDS * F * 4;

/**
 * The info word of an access: its program slot, lane, byte mask within the word, whether it is strong
 * (atomic or volatile) and at which scope, and whether it is a polling load.
 */
export function packInfo(slot: number, lane: number, mask: number, scopeCode: number, poll: boolean): number {
  return (slot << 13) | (lane << 8) | (mask << 4) | (scopeCode << 1) | (poll ? 1 : 0);
}
export const infoSlot = (i: number): number => i >>> 13;
export const infoLane = (i: number): number => (i >>> 8) & 31;
export const infoMask = (i: number): number => (i >>> 4) & 15;
export const infoScope = (i: number): number => (i >>> 1) & 3;
export const infoPoll = (i: number): boolean => (i & 1) === 1;

/** shadow pages shared by every space of a launch, under one budget */
export class ShadowBudget {
  pages = 0;
  /** the most pages held at once */
  peak = 0;
  /** an access needed a page past the budget: what it touched is not checked */
  exceeded = false;
  constructor(readonly maxPages: number) {}
}

/** the shadow of one address space (an allocation, or a block's shared memory), by word index */
export class ShadowSpace {
  private readonly pages = new Map<number, Int32Array>();
  constructor(private readonly budget: ShadowBudget) {}

  /** the page holding word `word` (null past the budget) */
  page(word: number): Int32Array | null {
    const key = word >>> SHADOW_SHIFT;
    let p = this.pages.get(key);
    if (p) return p;
    if (this.budget.pages >= this.budget.maxPages) {
      this.budget.exceeded = true;
      return null;
    }
    p = new Int32Array(SHADOW_WORDS * F);
    this.pages.set(key, p);
    if (++this.budget.pages > this.budget.peak) this.budget.peak = this.budget.pages;
    return p;
  }

  /** forget everything (a new block in a slot; a new launch) */
  clear(): void {
    this.budget.pages -= this.pages.size;
    this.pages.clear();
  }
}

/** which bytes have been written (initcheck): one bit per byte, in pages of 4 KiB made on first write */
export class InitBits {
  private readonly pages = new Map<number, Uint8Array>();
  private static readonly PAGE = 4096;

  mark(offset: number, bytes: number): void {
    for (let b = offset, end = offset + bytes; b < end; ) {
      const key = Math.floor(b / InitBits.PAGE);
      let p = this.pages.get(key);
      if (!p) this.pages.set(key, (p = new Uint8Array(InitBits.PAGE / 8)));
      const pageEnd = Math.min(end, (key + 1) * InitBits.PAGE);
      // whole bytes of the bitmap at once where the range covers them (a memset of megabytes)
      for (; b < pageEnd; ) {
        const i = b - key * InitBits.PAGE;
        if ((i & 7) === 0 && b + 8 <= pageEnd) {
          const n = (pageEnd - b) >> 3;
          p.fill(0xff, i >> 3, (i >> 3) + n);
          b += n * 8;
          continue;
        }
        p[i >> 3] = (p[i >> 3] as number) | (1 << (i & 7));
        b++;
      }
    }
  }

  /** the first byte of [offset, offset+bytes) never written, or -1 */
  firstUnset(offset: number, bytes: number): number {
    for (let b = offset; b < offset + bytes; b++) {
      const key = Math.floor(b / InitBits.PAGE);
      const p = this.pages.get(key);
      const i = b - key * InitBits.PAGE;
      if (!p || ((p[i >> 3] as number) & (1 << (i & 7))) === 0) return b;
    }
    return -1;
  }

  clear(): void {
    this.pages.clear();
  }
}
