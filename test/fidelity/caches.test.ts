/**
 * The cache counters of the global-memory family (micro.cu g_ld_* / g_st_*, caches flushed before
 * each kernel: ncu --cache-control all) through `warpsight validate` against ncu_raw_g.csv:
 * L1 load hit rate and L2 hit rate within 5 points, DRAM bytes read and written within 10 %
 * (issue #5). Known deviations, judged against a looser bound and listed here so a change that fixes
 * (or worsens) them shows:
 *  - partial-sector stores (g_st_u32_stride2/stride32, g_st_u64/u128_stride2): L2 hit ~50 % vs
 *    57-64 %, and DRAM reads of the read-merge fills up to 25 % high (the H200 merges more partial
 *    writes before filling);
 *  - DRAM write-backs of kernels that leave less than a few MB dirty are second order (the
 *    dirty-line cap is calibrated on the large ones): judged within 2 MB instead of 10 %.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ValidationRow } from '../../src/validate/compare.js';
import { validateAgainstH200 } from './helpers.js';

const L1 = 'l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct';
const L2 = 'lts__t_sector_hit_rate.pct';
const RD = 'dram__bytes_read.sum';
const WR = 'dram__bytes_write.sum';
const PARTIAL_STORES = /^g_st_(u32_stride(2|32)|u64_stride2|u128_stride2)$/;

let rows: ValidationRow[] = [];
beforeAll(async () => {
  rows = [
    ...(await validateAgainstH200('kernels/global_loads.ts', 'ncu_raw_g.csv', { kernel: ['regex:^g_ld_'] })),
    ...(await validateAgainstH200('kernels/global_stores.ts', 'ncu_raw_g.csv', { kernel: ['regex:^g_st_'] })),
  ];
}, 1_200_000);

function off(id: string, bound: (r: ValidationRow) => number, err: (r: ValidationRow) => number): string[] {
  return rows
    .filter((r) => r.metric === id && err(r) > bound(r))
    .map((r) => `${r.kernel}: ncu ${r.ncu} warpsight ${r.warpsight?.toFixed(2)} (bound ${bound(r)})`);
}
const abs = (r: ValidationRow) => Math.abs(r.warpsight! - r.ncu!);

describe('global family caches vs the H200 (cold caches)', () => {
  it('compares every g_ld_* and g_st_* launch', () => {
    expect(rows.filter((r) => r.metric === L2).length).toBe(26 + 10);
  });

  it('L1 load hit rate within 5 points', () => {
    expect(off(L1, () => 5, abs)).toEqual([]);
  });

  it('L2 hit rate within 5 points (partial-sector stores within 15)', () => {
    expect(off(L2, (r) => (PARTIAL_STORES.test(r.kernel) ? 15 : 5), abs)).toEqual([]);
  });

  it('DRAM bytes read within 10 % (partial-sector stores within 30 %)', () => {
    expect(off(RD, (r) => (PARTIAL_STORES.test(r.kernel) ? 0.3 : 0.1) * r.ncu! + 0.1e6, abs)).toEqual([]);
  });

  it('DRAM bytes written within 10 % or 2 MB', () => {
    expect(off(WR, (r) => Math.max(0.1 * r.ncu!, 2e6), abs)).toEqual([]);
  });
});
