/**
 * Reservation calendars: the capacity of a shared resource (an issue slot, the LSU, L1 data banks,
 * L2 slices, DRAM) over time, in buckets of BUCKET cycles. A request of `amount` units arriving at
 * cycle t takes capacity from the first buckets at or after t that still have some, and learns when
 * it is served. The interpreter does not deliver events in time order (it runs warps round-robin, a
 * quantum at a time), so a FIFO "busy until" clock would push early requests behind late ones; a
 * calendar lets a request find room wherever its own time falls. Full buckets are skipped with a
 * path-compressed "next bucket with room" link, so a request costs O(1) amortised.
 *
 * Many calendars of one kind share typed arrays, grown on demand.
 */
export const BUCKET = 64;

export class Calendars {
  /**
   * Capacity used and the "next bucket with room" links, time-major: bucket b of calendar c at
   * b * count + c. The warps the interpreter runs one after another reserve at about the same time on
   * neighbouring calendars (the schedulers of one SM), so their entries share cache lines; a row per
   * calendar put each reservation on a line of its own, rarely still cached when the next warp of
   * that SM came round. A link is kept as the distance to the linked bucket, so 0 (a fresh array) is
   * "this bucket has room" and neither creating nor growing a calendar has links to write.
   */
  private used: Float32Array;
  private skip: Int32Array;
  private buckets: number;
  /** capacity per bucket */
  readonly cap: number;
  /** cycles per unit (1 / rate) */
  private readonly unit: number;

  constructor(
    readonly count: number,
    /** units per cycle */
    readonly rate: number,
    initialBuckets = 256,
  ) {
    this.cap = rate * BUCKET;
    this.unit = 1 / rate;
    this.buckets = initialBuckets;
    this.used = new Float32Array(count * initialBuckets);
    this.skip = new Int32Array(count * initialBuckets);
  }

  private grow(minBuckets: number): void {
    let nb = this.buckets;
    while (nb <= minBuckets) nb *= 2;
    const used = new Float32Array(this.count * nb);
    const skip = new Int32Array(this.count * nb);
    used.set(this.used);
    skip.set(this.skip);
    this.used = used;
    this.skip = skip;
    this.buckets = nb;
  }

  /** cycles of calendar c's buckets that have any capacity used (the unit was active in them) */
  activeCycles(c: number): number {
    let n = 0;
    for (let b = 0; b < this.buckets; b++) if ((this.used[b * this.count + c] as number) > 0) n++;
    return n * BUCKET;
  }

  /** first bucket >= b of calendar c with room (path compression) */
  private find(c: number, b: number): number {
    const skip = this.skip;
    const n = this.count;
    let r = b;
    while ((skip[r * n + c] as number) !== 0) r += skip[r * n + c] as number;
    // compress
    let x = b;
    while (x !== r) {
      const nx = x + (skip[x * n + c] as number);
      skip[x * n + c] = r - x;
      x = nx;
    }
    return r;
  }

  /**
   * Reserve `amount` units on calendar `c` no earlier than cycle `t`; returns the cycle at which the
   * last unit starts being served (>= t; t itself when there is room).
   */
  reserve(c: number, t: number, amount: number): number {
    // fast path, small enough for V8 to inline at the model's call sites (a call that is not inlined
    // boxes its double argument and result: two heap allocations per request)
    if (amount > 0) {
      const b = (t / BUCKET) | 0;
      const i = b * this.count + c;
      if (b + 2 < this.buckets && (this.skip[i] as number) === 0) {
        const nu = (this.used[i] as number) + amount;
        if (nu < this.cap - 1e-6) {
          this.used[i] = nu;
          const end = b * BUCKET + (nu / this.cap) * BUCKET - this.unit;
          return end > t ? end : t;
        }
      }
    }
    // `+`: typed as a number, the result stays an unboxed double in the inlined caller as well
    return +this.reserveSlow(c, t, amount);
  }

  /** the general case of reserve (growth, a full bucket); the fast path above changed nothing */
  private reserveSlow(c: number, t: number, amount: number): number {
    if (amount <= 0) return t;
    let b = (t / BUCKET) | 0;
    if (b + 2 >= this.buckets) this.grow(b + 2);
    const n = this.count;
    const cap = this.cap;
    // fast path: the request fits in its own bucket
    if ((this.skip[b * n + c] as number) === 0) {
      const nu = (this.used[b * n + c] as number) + amount;
      if (nu < cap - 1e-6) {
        this.used[b * n + c] = nu;
        const end = b * BUCKET + (nu / cap) * BUCKET - this.unit;
        return end > t ? end : t;
      }
    }
    let left = amount;
    let served = t;
    for (;;) {
      b = this.find(c, b);
      if (b + 2 >= this.buckets) this.grow(b + 2);
      const i = b * n + c;
      const u = this.used[i] as number;
      const room = cap - u;
      const take = left < room ? left : room;
      const nu = u + take;
      this.used[i] = nu;
      left -= take;
      // within a bucket, units are served in arrival order: the request's last unit starts one unit
      // before the bucket's fill ends
      const end = b * BUCKET + (nu / cap) * BUCKET - this.unit;
      served = end > t ? end : t;
      if (nu >= cap - 1e-6) this.skip[i] = 1;
      if (left <= 1e-9) return served;
      b++;
    }
  }

  /** total units reserved on calendar c (for utilisation) */
  total(c: number): number {
    let s = 0;
    for (let b = 0; b < this.buckets; b++) s += this.used[b * this.count + c] as number;
    return s;
  }
}
