import { describe, expect, it } from 'vitest';
import { type BankResult, SharedBanks } from '../../src/memory/sharedBanks.js';

/** the rule of sharedBanks.ts written out plainly: distinct words, the most any bank must deliver, 2 at least for 16 bytes */
function reference(offs: Float64Array, mask: number, size: number): BankResult {
  const words = new Set<number>();
  for (let l = 0; l < 32; l++) {
    if (((mask >>> l) & 1) === 0) continue;
    const first = Math.floor((offs[l] as number) / 4);
    for (let k = 0; k < (size <= 4 ? 1 : size / 4); k++) words.add(first + k);
  }
  if (words.size === 0) return { wavefronts: 0, ideal: 0, words: 0 };
  const perBank = new Array<number>(32).fill(0);
  for (const w of words) perBank[w % 32]!++;
  const minimum = size >= 16 ? 2 : 1;
  return { wavefronts: Math.max(minimum, ...perBank), ideal: Math.max(minimum, Math.ceil((words.size * 4) / 128)), words: words.size };
}

describe('shared-memory banks', () => {
  it('give the rule\'s wavefronts for consecutive, strided, broadcast and scattered lanes, whole warps or not', () => {
    const banks = new SharedBanks();
    let x = 99;
    const next = (): number => (x = (Math.imul(x, 1103515245) + 12345) >>> 0);
    let contiguousCases = 0;
    for (let t = 0; t < 3000; t++) {
      const size = [1, 2, 4, 8, 12, 16][t % 6] as number;
      const base = (next() % 1024) * size;
      const pattern = (t >> 3) % 4;
      const stride = pattern === 0 ? 1 : pattern === 1 ? 1 + (next() % 33) : pattern === 2 ? 0 : -1;
      const offs = new Float64Array(32);
      for (let l = 0; l < 32; l++) offs[l] = stride >= 0 ? base + l * stride * size : (next() % 2048) * size;
      const mask = (t >> 1) % 3 === 0 ? next() | 0 : -1;
      if (mask === -1 && stride === 1) contiguousCases++;
      expect({ ...banks.run(offs, mask, size) }, `size ${size}, stride ${stride}, mask ${mask}`).toEqual(reference(offs, mask, size));
    }
    // the whole-warp consecutive case (the model's shortcut) is among them
    expect(contiguousCases).toBeGreaterThan(300);
  });
});
