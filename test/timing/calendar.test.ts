import { describe, expect, it } from 'vitest';
import { BUCKET, Calendars, MAX_WINDOW_BUCKETS } from '../../src/timing/calendar.js';

describe('reservation calendars', () => {
  it('serves a request at its own time when there is room', () => {
    const c = new Calendars(2, 1);
    expect(c.reserve(0, 10, 1)).toBe(10);
    expect(c.reserve(1, 500, 1)).toBe(500);
  });

  it('enforces the rate: N units at rate r take about N/r cycles', () => {
    const c = new Calendars(1, 2);
    let last = 0;
    for (let i = 0; i < 10_000; i++) last = c.reserve(0, 0, 1);
    expect(last).toBeGreaterThanOrEqual(5000 - BUCKET);
    expect(last).toBeLessThanOrEqual(5000 + BUCKET);
  });

  it('lets an early request use room before a later, full stretch (order-insensitive)', () => {
    const c = new Calendars(1, 1);
    c.reserve(0, 10 * BUCKET, 4 * BUCKET); // buckets 10-13 full
    expect(c.reserve(0, 0, 1)).toBe(0);
    // a request inside the full stretch is pushed past it
    expect(c.reserve(0, 11 * BUCKET, 1)).toBeGreaterThanOrEqual(14 * BUCKET);
  });

  it('grows past its initial horizon', () => {
    const c = new Calendars(3, 1, 4);
    expect(c.reserve(2, 1e6, 1)).toBe(1e6);
    expect(c.reserve(0, 0, 1)).toBe(0);
    expect(c.total(2)).toBe(1);
  });

  it('with a horizon, serves every request as a calendar that keeps its whole past does', () => {
    // a seeded stream of requests at or after a rising floor: now and then far ahead of it (past the
    // window's end), now and then with the floor jumping by more than a window
    let seed = 1;
    const rnd = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
    for (let trial = 0; trial < 40; trial++) {
      let floor = 0;
      const whole = new Calendars(3, 0.5, 4);
      const windowed = new Calendars(3, 0.5, 4, () => floor);
      for (let i = 0; i < 2000; i++) {
        floor += rnd() < 0.01 ? rnd() * 50_000 : rnd() * 20;
        const t = floor + (rnd() < 0.05 ? rnd() * 100_000 : rnd() * 500);
        const c = (rnd() * 3) | 0;
        const amount = rnd() < 0.1 ? rnd() * 200 : rnd() * 3;
        expect(windowed.reserve(c, t, amount)).toBe(whole.reserve(c, t, amount));
      }
      for (let c = 0; c < 3; c++) {
        expect(windowed.activeCycles(c)).toBe(whole.activeCycles(c));
        expect(windowed.total(c)).toBe(whole.total(c));
      }
    }
  });

  it('keeps a window as long as the spread of live times, not the run (issue 38)', () => {
    let floor = 0;
    const c = new Calendars(4, 1, 256, () => floor);
    // 10 M cycles of requests within 1,000 cycles of the floor
    for (let t = 0; t < 10_000_000; t += 3) {
      floor = t;
      c.reserve((t / 3) & 3, t + 1000, 1);
    }
    expect(c.windowBuckets).toBeLessThanOrEqual(256);
    expect(c.total(0) + c.total(1) + c.total(2) + c.total(3)).toBe(Math.ceil(10_000_000 / 3));
  });

  it('refuses a request before the horizon it was promised', () => {
    let floor = 0;
    const c = new Calendars(1, 1, 4, () => floor);
    floor = 100 * BUCKET;
    c.reserve(0, 100 * BUCKET, 1);
    c.reserve(0, 104 * BUCKET, 1); // past the window's end: the buckets before the floor go
    expect(() => c.reserve(0, 10 * BUCKET, 1)).toThrowError(/internal error: a reservation at cycle 640 .* dropped/);
  });

  it('cuts a window longer than MAX_WINDOW_BUCKETS as far as the running warps allow', () => {
    // the horizon stays at 0 (a warp waits at a barrier for ever), the running warps' follows the requests
    let running = 0;
    const c = new Calendars(2, 1, 256, () => 0, () => running);
    const end = 3 * MAX_WINDOW_BUCKETS * BUCKET;
    for (let t = 0; t < end; t += 16) {
      running = t;
      c.reserve(0, t, 1);
    }
    expect(c.windowBuckets).toBeLessThanOrEqual(MAX_WINDOW_BUCKETS);
    expect(c.total(0)).toBe(end / 16);
    // the waiting warp resumes late: served at the window's start, not an error
    const served = c.reserve(1, 0, 1);
    expect(served).toBeGreaterThanOrEqual(end - MAX_WINDOW_BUCKETS * BUCKET);
    expect(served).toBeLessThan(end);
  });

  it('never cuts past a running warp, however long the window', () => {
    // a running warp far behind the others (a memory-bound warp beside ALU-bound ones) keeps its past
    const c = new Calendars(2, 1, 256, () => 0, () => 0);
    const end = 2 * MAX_WINDOW_BUCKETS * BUCKET;
    for (let t = 0; t < end; t += 64) c.reserve(0, t, 1);
    expect(c.windowBuckets).toBeGreaterThan(MAX_WINDOW_BUCKETS);
    expect(c.reserve(1, 0, 1)).toBe(0);
  });

  it('reads back what each bucket holds (a tally of events, as the shared replays keep them)', () => {
    let horizon = 0;
    const c = new Calendars(2, 1 << 20, 4, () => horizon);
    c.reserve(0, 10, 3);
    c.reserve(0, 63, 2);
    c.reserve(0, 64, 5);
    c.reserve(1, 20, 0.25);
    expect(c.usedAt(0, 0)).toBe(5);
    expect(c.usedAt(0, 100)).toBe(5);
    expect(c.usedAt(1, 40)).toBe(0.25);
    // a bucket nobody reserved in, before or after the window
    expect(c.usedAt(0, 128)).toBe(0);
    expect(c.usedAt(0, 1e6)).toBe(0);
    // once the horizon has passed them, the window drops old buckets: they read 0 (no event may come there)
    horizon = 100 * BUCKET;
    c.reserve(0, 100 * BUCKET, 1);
    expect(c.usedAt(0, 0)).toBe(0);
    expect(c.usedAt(0, 100 * BUCKET)).toBe(1);
  });
});

describe('Calendars arrays', () => {
  it("calendars made from released ones' arrays serve as new ones (a launch's calendars serve the next launch's)", () => {
    const arraysOf = (c: Calendars): Float32Array => (c as unknown as { used: Float32Array }).used;
    /** a fixed mix of reservations on 8 calendars, some far ahead (the window grows) */
    const traffic = (c: Calendars): number[] => {
      const out: number[] = [];
      let x = 4242;
      const next = (): number => (x = (Math.imul(x, 1103515245) + 12345) >>> 0);
      for (let i = 0; i < 5000; i++) out.push(c.reserve(next() % 8, next() % (i < 4000 ? 20000 : 90000), 1 + (next() % 3)));
      for (let k = 0; k < 8; k++) out.push(c.activeCycles(k));
      return out;
    };
    // a calendar that grew keeps its arrays from the pool (a new one takes arrays of its initial size only)
    const grown = new Calendars(8, 0.5, 64);
    traffic(grown);
    expect(grown.windowBuckets).toBeGreaterThan(64);
    const grownArrays = arraysOf(grown);
    grown.release();
    // one that did not: a calendar of its size takes its arrays, the next one new ones
    const first = new Calendars(8, 0.5, 2048);
    traffic(first);
    expect(first.windowBuckets).toBe(2048);
    const used = arraysOf(first);
    first.release();
    const reused = new Calendars(8, 0.5, 2048);
    const fresh = new Calendars(8, 0.5, 2048);
    expect(arraysOf(reused)).toBe(used);
    expect(arraysOf(fresh)).not.toBe(used);
    expect(arraysOf(new Calendars(8, 0.5, grownArrays.length / 8))).not.toBe(grownArrays);
    expect(traffic(reused)).toEqual(traffic(fresh));
  });
});
