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
