/**
 * Reservation calendars: the capacity of a shared resource (an issue slot, the LSU, L1 data banks,
 * L2 slices, DRAM) over time, in buckets of BUCKET cycles. A request of `amount` units arriving at
 * cycle t takes capacity from the first buckets at or after t that still have some, and learns when
 * it is served. The interpreter does not deliver events in time order (it runs warps round-robin, a
 * quantum at a time), so a FIFO "busy until" clock would push early requests behind late ones; a
 * calendar lets a request find room wherever its own time falls. Full buckets are skipped with a
 * path-compressed "next bucket with room" link, so a request costs O(1) amortised.
 *
 * Many calendars of one kind share typed arrays (one row per instance), grown on demand.
 */
export const BUCKET = 64;

export class Calendars {
  private used: Float32Array;
  private next: Int32Array;
  private buckets: number;
  /** capacity per bucket */
  readonly cap: number;

  constructor(
    readonly count: number,
    /** units per cycle */
    readonly rate: number,
    initialBuckets = 256,
  ) {
    this.cap = rate * BUCKET;
    this.buckets = initialBuckets;
    this.used = new Float32Array(count * initialBuckets);
    this.next = new Int32Array(count * initialBuckets);
    for (let i = 0; i < this.next.length; i++) this.next[i] = i % initialBuckets;
  }

  private grow(minBuckets: number): void {
    let nb = this.buckets;
    while (nb <= minBuckets) nb *= 2;
    const used = new Float32Array(this.count * nb);
    const next = new Int32Array(this.count * nb);
    for (let c = 0; c < this.count; c++) {
      used.set(this.used.subarray(c * this.buckets, (c + 1) * this.buckets), c * nb);
      const row = c * nb;
      for (let b = 0; b < nb; b++) next[row + b] = b < this.buckets ? (this.next[c * this.buckets + b] as number) : b;
    }
    this.used = used;
    this.next = next;
    this.buckets = nb;
  }

  /** first bucket >= b of calendar row `row` with room (path compression) */
  private find(row: number, b: number): number {
    const next = this.next;
    let r = b;
    while ((next[row + r] as number) !== r) r = next[row + r] as number;
    // compress
    let x = b;
    while ((next[row + x] as number) !== r) {
      const n = next[row + x] as number;
      next[row + x] = r;
      x = n;
    }
    return r;
  }

  /**
   * Reserve `amount` units on calendar `c` no earlier than cycle `t`; returns the cycle at which the
   * last unit starts being served (>= t; t itself when there is room).
   */
  reserve(c: number, t: number, amount: number): number {
    if (amount <= 0) return t;
    let b = (t / BUCKET) | 0;
    if (b + 2 >= this.buckets) this.grow(b + 2);
    let row = c * this.buckets;
    const cap = this.cap;
    // fast path: the request fits in its own bucket
    if ((this.next[row + b] as number) === b) {
      const nu = (this.used[row + b] as number) + amount;
      if (nu < cap - 1e-6) {
        this.used[row + b] = nu;
        const end = b * BUCKET + (nu / cap) * BUCKET - 1 / this.rate;
        return end > t ? end : t;
      }
    }
    let left = amount;
    let served = t;
    for (;;) {
      b = this.find(row, b);
      if (b + 2 >= this.buckets) {
        this.grow(b + 2);
        row = c * this.buckets;
      }
      const u = this.used[row + b] as number;
      const room = cap - u;
      const take = left < room ? left : room;
      const nu = u + take;
      this.used[row + b] = nu;
      left -= take;
      // within a bucket, units are served in arrival order: the request's last unit starts one unit
      // before the bucket's fill ends
      const end = b * BUCKET + (nu / cap) * BUCKET - 1 / this.rate;
      served = end > t ? end : t;
      if (nu >= cap - 1e-6) this.next[row + b] = b + 1;
      if (left <= 1e-9) return served;
      b++;
    }
  }

  /** total units reserved on calendar c (for utilisation) */
  total(c: number): number {
    let s = 0;
    const row = c * this.buckets;
    for (let b = 0; b < this.buckets; b++) s += this.used[row + b] as number;
    return s;
  }
}
