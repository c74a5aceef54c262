/**
 * Family-1 address streams (micro.cu g_ld_* / g_st_*) replayed into the hierarchy with ncu's
 * --cache-control all, compared with the H200 (groundtruth/h200/summary.json).
 * These streams issue each warp's store right after its load; on the GPU it follows the other
 * resident warps' loads, and the kernel ends with the stores of every resident warp (the
 * interpreter's order, asserted in test/fidelity/caches.test.ts and dirty_retention.test.ts). They
 * end a scheduler round per wave of resident warps, so the L2 sees the DRAM load as in the interpreter.
 */
import { describe, expect, it } from 'vitest';
import { MemoryHierarchy } from '../../src/memory/hierarchy.js';
import { H200, gt } from './fixtures.js';
import { runGld, runGst, type Pattern } from './streams.js';

const SIZE: Record<string, number> = { u8: 1, u16: 2, u32: 4, u64: 8, u128: 16 };
const m = new MemoryHierarchy(H200);

/** the kernel's stream replayed from a flushed L2 (m holds its end state) */
function replay(kernel: string): Record<string, number> {
  const [, kind, t, p] = /^g_(ld|st)_(u\d+)_(\w+)$/.exec(kernel)!;
  m.beginLaunch({ cacheControl: 'all' });
  if (kind === 'ld') runGld(m, SIZE[t!]!, p as Pattern);
  else runGst(m, SIZE[t!]!, p as Pattern);
  return m.endLaunch();
}

// several tests judge the same launch: a flushed launch's counters do not depend on what ran before
const done = new Map<string, Record<string, number>>();
function run(kernel: string): Record<string, number> {
  let o = done.get(kernel);
  if (!o) done.set(kernel, (o = replay(kernel)));
  return o;
}

const L1_HIT = 'l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct';
const L2_HIT = 'lts__t_sector_hit_rate.pct';
const RD = 'dram__bytes_read.sum';
const WR = 'dram__bytes_write.sum';

describe('family 1 vs H200', () => {
  it.each([
    'g_ld_u32_coalesced',
    'g_ld_u8_misaligned',
    'g_ld_u16_misaligned',
    'g_ld_u32_misaligned',
    'g_ld_u64_misaligned',
    'g_ld_u128_misaligned',
    'g_ld_u32_blockshared',
  ])('%s: L1 load hit rate', (k) => {
    expect(Math.abs(run(k)[L1_HIT]! - gt(k)[L1_HIT]!)).toBeLessThan(0.5);
  });

  it.each([
    'g_ld_u16_coalesced',
    'g_ld_u32_coalesced',
    'g_ld_u32_misaligned',
    'g_ld_u32_stride2',
    'g_ld_u64_stride2',
    'g_ld_u128_stride2',
    'g_ld_u32_stride32',
    'g_ld_u8_stride32',
    'g_ld_u16_stride32',
    'g_ld_u32_broadcast',
    'g_ld_u64_coalesced',
    'g_ld_u64_misaligned',
    'g_ld_u64_broadcast',
    'g_ld_u128_coalesced',
    'g_ld_u128_stride32',
    'g_ld_u128_broadcast',
    'g_ld_u32_blockshared',
    'g_st_u32_coalesced',
    'g_st_u32_misaligned',
    'g_st_u64_coalesced',
    'g_st_u128_coalesced',
  ])('%s: L2 hit within 5 points, DRAM read within 10 %, DRAM write within 10 % or 2 MB', (k) => {
    const o = run(k);
    const g = gt(k);
    expect(Math.abs(o[L2_HIT]! - g[L2_HIT]!)).toBeLessThan(5);
    expect(Math.abs(o[RD]! - g[RD]!)).toBeLessThanOrEqual(0.1 * g[RD]! + 1e4);
    expect(Math.abs(o[WR]! - g[WR]!)).toBeLessThanOrEqual(Math.max(0.1 * g[WR]!, 2e6));
  });

  it("a flushed launch starts with the dirty lines ncu's replay leaves; a kept L2 does not get them", () => {
    const h = new MemoryHierarchy(H200);
    h.beginLaunch({ cacheControl: 'none' });
    expect(h.l2.dirtySectors()).toBe(0);
    h.beginLaunch({ cacheControl: 'all' });
    expect(h.l2.dirtySectors() * 32).toBe(H200.ncuReplayDirtyBytes);
  });

  it('stride 32: DRAM reads twice the requested sectors (64-B fills), u8 stride 32 exactly them', () => {
    const u32 = run('g_ld_u32_stride32');
    expect(u32['dram__sectors_read.sum']).toBe(2 * 4194304);
    expect(u32['lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum']).toBe(2 * 4194304);
    const u8 = run('g_ld_u8_stride32');
    expect(u8['dram__sectors_read.sum']).toBe(4194304);
  });

  it.each(['g_st_u32_stride2', 'g_st_u32_stride32', 'g_st_u64_stride2', 'g_st_u128_stride2'])(
    '%s (partial-sector stores): DRAM read-merge fills and write-backs within 10 percent, L2 hit within 5 points',
    (k) => {
      const o = run(k);
      const g = gt(k);
      expect(Math.abs(o[RD]! / g[RD]! - 1)).toBeLessThan(0.1);
      expect(Math.abs(o[WR]! / g[WR]! - 1)).toBeLessThan(0.1);
      expect(Math.abs(o[L2_HIT]! - g[L2_HIT]!)).toBeLessThan(5);
    },
  );

  it('partial sectors still waiting at the end of a kernel are not filled inside it', () => {
    const o = replay('g_st_u32_stride2');
    const waiting = m.l2.partialSectors();
    // ~2 lines of 4 partial sectors per set (H200: 206k of the 1,048,576 written sectors)
    expect(waiting).toBeGreaterThan(150_000);
    expect(waiting).toBeLessThan(260_000);
    expect(o['dram__sectors_read.sum']! + waiting).toBe(1_048_576);
  });
});
