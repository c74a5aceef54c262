/**
 * The cache counters of the global-memory family (micro.cu g_ld_* / g_st_*, caches flushed before
 * each kernel: ncu --cache-control all) through `warpsight validate` against ncu_raw_g.csv:
 * L1 load hit rate and L2 hit rate within 5 points, DRAM bytes read and written within 10 %
 * (issue #5; write-backs below 20 MB within 2 MB). One known deviation, judged against a looser
 * bound and printed so that a change that fixes (or worsens) it shows:
 *  - g_ld_u128_stride2 writes back ~54 MB vs 48.4: the H200 keeps 18.7 MB dirty at the end against
 *    13.4 MB in g_ld_u64_stride2, the same 2:1 read/write mix, where a steady-state replacement model
 *    gives both the same (u64_stride2 is within 10 %). Stores that trail their loads by the loads in
 *    flight (longer with 1-KB-per-warp loads) would explain part of it: the order of the accesses,
 *    not the L2. Measured since (test/fidelity/probes/timing_probe_h200.csv, E4/E4b: the u128 kernels
 *    on 1/4-4/4 of the grid): at equal bytes read and written the u128 kernels keep 1.7-2.8 MB more
 *    dirty data than the u32/u64 ones. Parking each store in a queue until the other resident warps'
 *    stores had passed brought u128_stride2 to +6 % but u64_coalesced to -24 % (the replacement
 *    knobs were fitted without it); half as long, with a dirty cap of 0.45, left two others out
 *    (g_ld_u8_stride32 -2.1 MB, g_st_u32_stride2 +24 %). Not kept: the store lag and the L2's
 *    dirty-line policy need fitting together.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ValidationRow } from '../../src/validate/compare.js';
import { validateAgainstH200 } from './helpers.js';

const L1 = 'l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct';
const L2 = 'lts__t_sector_hit_rate.pct';
const RD = 'dram__bytes_read.sum';
const WR = 'dram__bytes_write.sum';
/** kernel -> relative bound on DRAM bytes written (see above) */
const KNOWN_WRITE_GAPS: Record<string, number> = { g_ld_u128_stride2: 0.15 };

let rows: ValidationRow[] = [];
beforeAll(async () => {
  rows = [
    ...(await validateAgainstH200('global_loads', 'ncu_raw_g.csv', { kernel: ['regex:^g_ld_'] })),
    ...(await validateAgainstH200('global_stores', 'ncu_raw_g.csv', { kernel: ['regex:^g_st_'] })),
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

  it('L2 hit rate within 5 points', () => {
    expect(off(L2, () => 5, abs)).toEqual([]);
  });

  it('DRAM bytes read within 10 %', () => {
    expect(off(RD, (r) => 0.1 * r.ncu! + 0.1e6, abs)).toEqual([]);
  });

  it('DRAM bytes written within 10 % or 2 MB', () => {
    for (const r of rows)
      if (r.metric === WR && r.kernel in KNOWN_WRITE_GAPS)
        console.log(`known gap: ${r.kernel} DRAM bytes written H200 ${(r.ncu! / 1e6).toFixed(1)} MB vs ${(r.warpsight! / 1e6).toFixed(1)} MB`);
    expect(off(WR, (r) => Math.max((KNOWN_WRITE_GAPS[r.kernel] ?? 0.1) * r.ncu!, 2e6), abs)).toEqual([]);
  });
});
