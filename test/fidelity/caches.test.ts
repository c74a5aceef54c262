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
 * clean line, the more often the busier the DRAM with reads (src/memory/hierarchy.ts writeBackAvoidance,
 * measured in drain.test.ts and copy_lifetime.test.ts: why g_ld_u128_stride2, whose warps have the
 * most DRAM bytes in flight, keeps the most of its stores dirty), and a freed block slot takes its
 * next block at once, so a kernel ends with the stores of every resident warp (src/exec/scheduler.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ValidationRow } from '../../src/validate/compare.js';
import { validateAgainstH200 } from './helpers.js';
import { fidelityKernel } from './reports.js';

const L1 = 'l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct';
const L2 = 'lts__t_sector_hit_rate.pct';
const RD = 'dram__bytes_read.sum';
const WR = 'dram__bytes_write.sum';
const L2_WR = 'lts__t_sectors_srcunit_tex_op_write.sum';

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

  it('L1 load hit rate within 0.5 points (acceptance: 5): hits only from sectors the warps of one SM share (misaligned 43.8 / 29.2 / 17.5 / 9.7 / 5.2 %, blockshared 7/8)', () => {
    expect(off(L1, () => 0.5, abs)).toEqual([]);
  });

  it('L2 hit rate within 5 points', () => {
    expect(off(L2, () => 5, abs)).toEqual([]);
  });

  it('DRAM bytes read within 10 %', () => {
    expect(off(RD, (r) => 0.1 * r.ncu! + 0.1e6, abs)).toEqual([]);
  });

  it("L2 write sectors within 2 % (a block's neighbouring warps write their shared partial sectors once: store_merge.test.ts)", () => {
    expect(rows.filter((r) => r.metric === L2_WR).length).toBe(26 + 10);
    expect(off(L2_WR, (r) => 0.02 * r.ncu!, abs)).toEqual([]);
  });

  it('DRAM bytes written within 10 % or 2 MB', () => {
    expect(off(WR, (r) => Math.max(0.1 * r.ncu!, 2e6), abs)).toEqual([]);
  });

  it('partial-sector stores: their read-merge fills (DRAM reads) and write-backs within 10 %', () => {
    const partial = (r: ValidationRow) => /^g_st_(u32_stride(2|32)|u64_stride2|u128_stride2)$/.test(r.kernel);
    const judged = rows.filter((r) => partial(r) && (r.metric === RD || r.metric === WR));
    expect(judged.length).toBe(8);
    expect(judged.filter((r) => abs(r) > 0.1 * r.ncu!).map((r) => `${r.kernel} ${r.metric}: ncu ${r.ncu} warpsight ${r.warpsight}`)).toEqual([]);
  });

  it('partial sectors still waiting at the end of a kernel are not filled inside it (g_st_u32_stride2: 206k of 1,048,576 on the H200)', () => {
    const filled = Number(fidelityKernel('global_stores', 'g_st_u32_stride2').metrics['dram__sectors_read.sum']);
    // ~2 lines of 4 partial sectors per set wait
    expect(1_048_576 - filled).toBeGreaterThan(150_000);
    expect(1_048_576 - filled).toBeLessThan(260_000);
  });

  it('stride 32: DRAM reads twice the requested sectors (64-B fills), u8 stride 32 exactly them', () => {
    const u32 = fidelityKernel('global_loads', 'g_ld_u32_stride32').metrics;
    expect(u32['dram__sectors_read.sum']).toBe(2 * 4_194_304);
    expect(u32['lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum']).toBe(2 * 4_194_304);
    expect(fidelityKernel('global_loads', 'g_ld_u8_stride32').metrics['dram__sectors_read.sum']).toBe(4_194_304);
  });
});
