import { describe, expect, it } from 'vitest';
import { BUCKET, Calendars } from '../../src/timing/calendar.js';

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
});
