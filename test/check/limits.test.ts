/**
 * The checker's bounds: shadow memory grows with the words touched (pages of 64 words, 9 fields of 4
 * bytes each), never past its budget, and a launch that reaches the budget is named in a note.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkFile } from '../../src/check/run.js';
import { SHADOW_PAGE_BYTES } from '../../src/check/shadow.js';

const file = join(import.meta.dirname, 'kernels', 'global_disjoint_blocks.ts');

describe('warpsight check: bounded shadow memory', () => {
  it('holds one page per 64 words touched', async () => {
    const r = await checkFile({ file });
    // out: 256 u32 = 256 words, 4 pages; bytes[1..256]: words 0-64, 2 pages
    expect(SHADOW_PAGE_BYTES).toBe(64 * 9 * 4);
    expect(r.shadow.peakBytes).toBe(6 * SHADOW_PAGE_BYTES);
    expect(r.notes).toEqual([]);
  });

  it('stops at its budget and says so', async () => {
    const r = await checkFile({ file, shadowBytes: 2 * SHADOW_PAGE_BYTES });
    expect(r.shadow.peakBytes).toBe(2 * SHADOW_PAGE_BYTES);
    expect(r.notes).toHaveLength(1);
    expect(r.notes[0]).toMatch(/kernel 'global_disjoint_blocks' \(launch 0\): the shadow memory reached its budget/);
    expect(r.findings).toEqual([]);
  });
});
