/** modIndex (the caches' set index without a floating-point remainder) against exact BigInt remainders */
import { describe, expect, it } from 'vitest';
import { modIndex } from '../../src/memory/lineIndex.js';

describe('modIndex', () => {
  it('equals x mod m for line numbers up to 2^52, at and around multiples of m', () => {
    const moduli = [1, 7, 32, 1880, 15040, 30080];
    // deterministic large integers: device line numbers (2^40-2^41) and the extremes
    const xs: number[] = [0, 1, 2 ** 52 - 1, 0x7f00_0000_0000 / 128];
    for (let k = 1; k <= 2000; k++) xs.push(Math.floor((k * 0x9e3779b97f4a / 2 ** 8) % 2 ** 52));
    for (const m of moduli) {
      for (const x0 of xs) {
        for (const x of [x0, x0 - (x0 % m), x0 - (x0 % m) + m - 1]) {
          if (x < 0 || x >= 2 ** 52) continue;
          expect(modIndex(x, m), `${x} mod ${m}`).toBe(Number(BigInt(x) % BigInt(m)));
        }
      }
    }
  });
});
