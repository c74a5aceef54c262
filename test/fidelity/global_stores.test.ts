/**
 * Every g_st_* launch of the H200 ground truth: global store instructions, requests and sectors
 * exactly as ncu counted them, through `warpsight validate`.
 */
import { describe, expect, it } from 'vitest';
import { EXACT_GLOBAL, failures, table, validateAgainstH200 } from './helpers.js';

describe('global stores vs the H200 (ncu_raw_g.csv)', () => {
  it('matches every g_st_* launch exactly', async () => {
    const rows = await validateAgainstH200('global_stores', 'ncu_raw_g.csv', { kernel: ['regex:^g_st_'] });
    expect(table(rows, EXACT_GLOBAL).length).toBe(10 * EXACT_GLOBAL.length);
    expect(failures(rows, EXACT_GLOBAL)).toEqual([]);
  }, 600_000);
});
