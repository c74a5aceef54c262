/**
 * The cache counters of the global-memory family (micro.cu g_ld_* / g_st_*, caches flushed before
 * each kernel: ncu --cache-control all) through `warpsight validate` against ncu_raw_g.csv:
 * L1 load hit rate and L2 hit rate within 5 points, DRAM bytes read and written within 10 %
 * (issue #5; write-backs below 20 MB within 2 MB). What the L2 still holds dirty at the end depends
 * on the order in which loads and stores reach it (test/fidelity/dirty_retention.test.ts: warps
 * yield where they wait for their loads) and on the ~2.3 MB of dirty lines ncu's multi-pass replay
 * leaves in the L2 (test/fidelity/replay_residue.test.ts), which every kernel that streams past the L2 writes
 * back: why g_ld_u8/u16/u32_stride32 write 5.1 / 9.1 / 17.1 MB for 4.2 / 8.4 / 16.8 MB stored.
 * What stays dirty also depends on the L2's replacement: a dirty victim is often passed over for a
 * clean line (src/memory/l2Cache.ts dirtyVictimSkip, measured in copy_lifetime.test.ts), and a freed
 * block slot takes its next block at once, so a kernel ends with the stores of every resident warp
 * (src/exec/scheduler.ts). One known deviation, judged against a looser bound and printed so that a
 * change that fixes (or worsens) it shows: g_ld_u128_stride2 writes ~54 MB where the H200 writes
 * 48.4. With 64 warps per SM the H200 keeps 7 MB more of that kernel's stores dirty than with 8
 * (dirty_retention.test.ts), here 1.5; and on the H200 alone among the probed kernels it does not pay
 * the ~2.3 MB ncu's replay leaves dirty (replay_residue.test.ts). Its mechanism is not found.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ValidationRow } from '../../src/validate/compare.js';
import { validateAgainstH200 } from './helpers.js';

const L1 = 'l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct';
const L2 = 'lts__t_sector_hit_rate.pct';
const RD = 'dram__bytes_read.sum';
const WR = 'dram__bytes_write.sum';
/** kernel -> bound in bytes on the DRAM bytes written (see above) */
const KNOWN_WRITE_GAPS: Record<string, number> = { g_ld_u128_stride2: 7e6 };

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
    expect(off(WR, (r) => KNOWN_WRITE_GAPS[r.kernel] ?? Math.max(0.1 * r.ncu!, 2e6), abs)).toEqual([]);
  });
});
