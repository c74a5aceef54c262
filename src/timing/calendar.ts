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
 *
 * The arrays hold a window of buckets, not the whole run: given a horizon (a cycle before which no
 * reservation can come any more, from the timing model's live warps and block slots), the buckets
 * before it are dropped when the window is full, their use kept only as the per-calendar sums that
 * activeCycles() and total() report. Memory then follows how far apart the live warps' clocks are,
 * not how long the kernel runs (issue 38: a loop of 16M warp instructions took 7.7 GB of buckets).
 * A warp that waits at a barrier holds the horizon at its block's barrier (a barrier counting the
 * block's live threads may release when the others exit), so a warp that spins or loops forever while
 * its siblings wait would hold it for ever. A window longer than MAX_WINDOW_BUCKETS is therefore cut,
 * as far as a second horizon that leaves out the warps waiting at barriers allows: running warps are
 * always served exactly, and a request from before a window so cut (a waiting warp resuming, its
 * barrier released by exits, over a million cycles behind) is served at the window's start.
 */
export const BUCKET = 64;
/** the window a calendar keeps beyond the running warps' horizon: 1,048,576 cycles (about 7.4 KB per bucket over all of a launch's calendars) */
export const MAX_WINDOW_BUCKETS = 1 << 14;

/**
 * Released calendars' arrays by length, for the next calendars made (Calendars.release): a launch's
 * calendars are about 5 MB on the H200, which allocated afresh cost page faults and the collections
 * their external memory set off in every launch. At most SPARE_BYTES are kept.
 */
interface CalendarArrays {
  used: Float32Array<ArrayBuffer>;
  skip: Int32Array<ArrayBuffer>;
}
const spare = new Map<number, CalendarArrays[]>();
const SPARE_BYTES = 64 << 20;
let spareBytes = 0;

function takeArrays(n: number): CalendarArrays {
  const a = spare.get(n)?.pop();
  if (a === undefined) return { used: new Float32Array(n), skip: new Int32Array(n) };
  spareBytes -= 8 * n;
  // as fresh arrays: no use, and a link 0 ("this bucket has room") everywhere
  a.used.fill(0);
  a.skip.fill(0);
  return a;
}

export class Calendars {
  /**
   * Capacity used and the "next bucket with room" links, time-major: bucket b of calendar c at
   * b * count + c. The warps the interpreter runs one after another reserve at about the same time on
   * neighbouring calendars (the schedulers of one SM), so their entries share cache lines; a row per
   * calendar put each reservation on a line of its own, rarely still cached when the next warp of
   * that SM came round. A link is kept as the distance to the linked bucket, so 0 (a fresh array) is
   * "this bucket has room" and neither creating nor growing a calendar has links to write.
   */
  private used: Float32Array<ArrayBuffer>;
  private skip: Int32Array<ArrayBuffer>;
  private buckets: number;
  /** the bucket the arrays start at: those before it are past, dropped (see the header) */
  private origin = 0;
  /** per calendar: dropped buckets that had use, and their use summed in bucket order */
  private readonly pastActive: Int32Array;
  private readonly pastTotal: Float64Array;
  /** a cut past the horizon has dropped buckets: a request before the window is late, not wrong */
  private capped = false;
  /** capacity per bucket */
  readonly cap: number;
  /** the arrays' length when made (release keeps arrays of that length only) */
  private readonly initialLength: number;

  /** the earliest cycle a reservation may still come at (the buckets before it are dropped) */
  get keptFrom(): number {
    return this.origin * BUCKET;
  }
  /** cycles per unit (1 / rate) */
  private readonly unit: number;

  constructor(
    readonly count: number,
    /** units per cycle */
    readonly rate: number,
    initialBuckets = 256,
    /**
     * the cycle before which no reservation will come any more (none: keep every bucket). A
     * reservation before it is a broken promise, and throws rather than corrupt the calendar.
     */
    private readonly horizon?: () => number,
    /**
     * the horizon leaving out warps that wait at barriers: how far a window longer than
     * MAX_WINDOW_BUCKETS may be cut (none: never cut)
     */
    private readonly runningHorizon?: () => number,
  ) {
    this.cap = rate * BUCKET;
    this.unit = 1 / rate;
    this.buckets = initialBuckets;
    this.initialLength = count * initialBuckets;
    ({ used: this.used, skip: this.skip } = takeArrays(this.initialLength));
    this.pastActive = new Int32Array(count);
    this.pastTotal = new Float64Array(count);
  }

  /**
   * Make window index `need` exist, keeping index `keep` (the request being served) and everything
   * after it: drop the buckets before the horizon, then grow if the window is still over half full
   * (so that a drop frees at least half of it, and the copying costs O(1) per bucket of time).
   * Returns how many buckets the window moved (window indices shrink by that much).
   */
  private makeRoom(keep: number, need: number): number {
    const n = this.count;
    let shift = 0;
    let cut = false;
    if (this.horizon) {
      const h = this.horizon();
      let hb = h === Infinity ? keep : Math.min(keep, ((h / BUCKET) | 0) - this.origin);
      if (need - hb >= MAX_WINDOW_BUCKETS && this.runningHorizon) {
        // keep half a window (the next cut is half a window of time away), and all the running warps may reach
        const r = this.runningHorizon();
        const rb = r === Infinity ? keep : Math.min(keep, ((r / BUCKET) | 0) - this.origin);
        const to = Math.min(need - (MAX_WINDOW_BUCKETS >> 1), rb);
        if (to > hb) {
          hb = to;
          cut = this.capped = true;
        }
      }
      if (hb > 0) {
        shift = hb;
        const used = this.used;
        // the request may lie past the window's end: then all of the window is past
        const gone = Math.min(shift, this.buckets);
        for (let b = 0; b < gone; b++)
          for (let c = 0; c < n; c++) {
            const v = used[b * n + c] as number;
            if (v > 0) {
              this.pastActive[c] = (this.pastActive[c] as number) + 1;
              this.pastTotal[c] = (this.pastTotal[c] as number) + v;
            }
          }
        // a link is a distance to a later bucket, so it moves with its bucket unchanged
        used.copyWithin(0, gone * n);
        used.fill(0, (this.buckets - gone) * n);
        this.skip.copyWithin(0, gone * n);
        this.skip.fill(0, (this.buckets - gone) * n);
        this.origin += shift;
      }
    }
    const left = need - shift;
    let nb = this.buckets;
    // without a horizon nothing is ever dropped: grow just past the need, as a plain array would
    // a cut window stays within MAX_WINDOW_BUCKETS
    const target = !this.horizon ? left : cut ? Math.min(2 * left, MAX_WINDOW_BUCKETS - 1) : 2 * left;
    while (nb <= target) nb *= 2;
    if (nb !== this.buckets) {
      const used = new Float32Array(n * nb);
      const skip = new Int32Array(n * nb);
      used.set(this.used);
      skip.set(this.skip);
      this.used = used;
      this.skip = skip;
      this.buckets = nb;
    }
    return shift;
  }

  /** the launch is over: the arrays serve the next calendars made (takeArrays); nothing may use this one afterwards */
  release(): void {
    const n = this.used.length;
    // grown arrays go to the collector: a new calendar takes arrays of its initial size only
    if (n !== this.initialLength || spareBytes + 8 * n > SPARE_BYTES) return;
    spareBytes += 8 * n;
    const list = spare.get(n) ?? [];
    list.push({ used: this.used, skip: this.skip });
    spare.set(n, list);
    this.used = new Float32Array(0);
    this.skip = new Int32Array(0);
    this.buckets = 0;
  }

  /** buckets (of BUCKET cycles) the window holds now, for tests of its size */
  get windowBuckets(): number {
    return this.buckets;
  }

  /** cycles of calendar c's buckets that have any capacity used (the unit was active in them) */
  activeCycles(c: number): number {
    let n = this.pastActive[c] as number;
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
      const ab = (t / BUCKET) | 0;
      const b = ab - this.origin;
      const i = b * this.count + c;
      if (b >= 0 && b + 2 < this.buckets && (this.skip[i] as number) === 0) {
        const nu = (this.used[i] as number) + amount;
        if (nu < this.cap - 1e-6) {
          this.used[i] = nu;
          const end = ab * BUCKET + (nu / this.cap) * BUCKET - this.unit;
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
    let ab = (t / BUCKET) | 0;
    if (ab < this.origin) {
      if (!this.capped)
        throw new Error(`internal error: a reservation at cycle ${t} on a calendar whose buckets before cycle ${this.origin * BUCKET} were dropped (the timing model's horizon was wrong)`);
      ab = this.origin;
      t = ab * BUCKET;
    }
    // b: the bucket's index in the window (absolute bucket b + origin)
    let b = ab - this.origin;
    if (b + 2 >= this.buckets) b -= this.makeRoom(b, b + 2);
    const n = this.count;
    const cap = this.cap;
    // fast path: the request fits in its own bucket
    if ((this.skip[b * n + c] as number) === 0) {
      const nu = (this.used[b * n + c] as number) + amount;
      if (nu < cap - 1e-6) {
        this.used[b * n + c] = nu;
        const end = (b + this.origin) * BUCKET + (nu / cap) * BUCKET - this.unit;
        return end > t ? end : t;
      }
    }
    let left = amount;
    let served = t;
    for (;;) {
      b = this.find(c, b);
      if (b + 2 >= this.buckets) b -= this.makeRoom(b, b + 2);
      const i = b * n + c;
      const u = this.used[i] as number;
      const room = cap - u;
      const take = left < room ? left : room;
      const nu = u + take;
      this.used[i] = nu;
      left -= take;
      // within a bucket, units are served in arrival order: the request's last unit starts one unit
      // before the bucket's fill ends
      const end = (b + this.origin) * BUCKET + (nu / cap) * BUCKET - this.unit;
      served = end > t ? end : t;
      if (nu >= cap - 1e-6) this.skip[i] = 1;
      if (left <= 1e-9) return served;
      b++;
    }
  }

  /**
   * Units reserved on calendar c in the bucket holding cycle t (0 outside the window: a bucket not yet
   * reached has none, and none can be asked for before the horizon). A calendar used as a tally of
   * events per bucket (a rate it never fills) reads its counts here.
   */
  usedAt(c: number, t: number): number {
    const b = ((t / BUCKET) | 0) - this.origin;
    return b >= 0 && b < this.buckets ? (this.used[b * this.count + c] as number) : 0;
  }

  /** total units reserved on calendar c (for utilisation) */
  total(c: number): number {
    let s = this.pastTotal[c] as number;
    for (let b = 0; b < this.buckets; b++) s += this.used[b * this.count + c] as number;
    return s;
  }
}
