import { describe, expect, it } from 'vitest';
import { L1Cache } from '../../src/memory/l1Cache.js';

describe('L1Cache', () => {
  it('load hits are per sector, stores hit per line tag', () => {
    const l1 = new L1Cache(2, 32 * 1024);
    expect(l1.load(0, 7, 0b0001, true, false)).toBe(0);
    expect(l1.load(0, 7, 0b0011, true, false)).toBe(0b0001);
    expect(l1.load(1, 7, 0b0001, true, false)).toBe(0); // other SM
    expect(l1.store(0, 9, 0b0001, 0b0001)).toBe(false);
    expect(l1.store(0, 9, 0b0010, 0b0010)).toBe(true);
    expect(l1.load(0, 9, 0b0011, true, false)).toBe(0b0011);
  });

  it('bypassing loads do not allocate; invalidation empties every SM', () => {
    const l1 = new L1Cache(2, 32 * 1024);
    l1.load(0, 1, 15, false, false);
    expect(l1.load(0, 1, 15, true, false)).toBe(0);
    expect(l1.load(0, 1, 15, true, false)).toBe(15);
    l1.invalidateAll();
    expect(l1.load(0, 1, 15, true, false)).toBe(0);
  });

  it('capacity follows the carveout', () => {
    const l1 = new L1Cache(1, 224 * 1024);
    expect(l1.capacityBytes()).toBe(224 * 1024);
    for (let line = 0; line < 4096; line++) l1.load(0, line, 15, true, false);
    let hits = 0;
    for (let line = 0; line < 4096; line++) if (l1.load(0, line, 15, true, false)) hits++;
    expect(hits).toBeLessThan(4096);
  });
});

describe('L1Cache arrays', () => {
  it("an L1 made from a released one's arrays behaves as a new one (a session's L1 serves the next)", () => {
    const tagOf = (l1: L1Cache): Float64Array => (l1 as unknown as { tag: Float64Array }).tag;
    /** a fixed mix of loads, partial and full stores and stale copies over 4 SMs: what a launch leaves */
    const traffic = (l1: L1Cache): (number | boolean | string)[] => {
      const out: (number | boolean | string)[] = [];
      let x = 777;
      const next = (): number => (x = (Math.imul(x, 1103515245) + 12345) >>> 0);
      for (let i = 0; i < 20000; i++) {
        const sm = next() % 4;
        const line = next() % 900;
        const mask = 1 + (next() % 15);
        const op = next() % 5;
        if (op < 2) out.push(l1.load(sm, line, mask, op === 0, next() % 9 === 0));
        else if (op < 4) out.push(l1.store(sm, line, mask, op === 2 ? mask : 0));
        else {
          out.push(l1.heldElsewhere(sm, line));
          if (next() % 3 === 0) l1.keepStale(sm, line, new Uint8Array(128).fill(i & 255));
          out.push(String(l1.staleCopy(sm, line)?.[0]));
        }
      }
      return out;
    };
    const first = new L1Cache(4, 32 * 1024);
    traffic(first);
    const used = tagOf(first);
    first.release();
    const reused = new L1Cache(4, 32 * 1024);
    const fresh = new L1Cache(4, 32 * 1024);
    // the second L1 took the first one's arrays, the third new ones
    expect(tagOf(reused)).toBe(used);
    expect(tagOf(fresh)).not.toBe(used);
    expect(traffic(reused)).toEqual(traffic(fresh));
  });
});
