/**
 * Every g_ld_* launch of the H200 ground truth: global load/store instructions, requests and sectors
 * exactly as ncu counted them, through `warpsight validate`.
 */
import { describe, expect, it } from 'vitest';
import { EXACT_GLOBAL, failures, table, validateAgainstH200 } from './helpers.js';

describe('global loads vs the H200 (ncu_raw_g.csv)', () => {
  it('matches every g_ld_* launch exactly', async () => {
    const rows = await validateAgainstH200('global_loads', 'ncu_raw_g.csv', { kernel: ['regex:^g_ld_'] });
    const judged = table(rows, EXACT_GLOBAL);
    expect(judged.length).toBe(26 * EXACT_GLOBAL.length);
    expect(failures(rows, EXACT_GLOBAL)).toEqual([]);
  }, 600_000);
});
