/**
 * Timing fidelity: every ground-truth launch profiled by the shared full-size fidelity runs
 * (test/fidelity/reports.ts), and the table of durations (H200 µs, Warpsight µs, ratio) and achieved
 * occupancies is printed. Asserted (issue #4):
 *  - global-memory family (g_ld_*, g_st_*): median |ratio - 1| <= 30 %, and within each element
 *    type a stride-32 access is slower than the coalesced one; g_st_u32_stride32 (lone DRAM sectors)
 *    within 15 %; the padded transposes faster than the unpadded ones when kernels/transpose.ts is there;
 *  - achieved occupancy (sm__warps_active.avg.pct_of_peak_sustained_active) within 10 points of the
 *    H200 and in its order for occ_grid_80blocks vs occ_grid_full, occ_regs_* and occ_smem_*.
 * Launches of more than MAX_INSTR warp instructions (the divergence loops) are too slow to interpret in
 * a test at full size and are listed as skipped. The occ_regs_* kernels run on 4 waves of blocks
 * instead (their achieved occupancy, a per-SM average, is asserted; their duration is not comparable
 * and not shown).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { KernelResult } from '../../types/report.schema.js';
import { getArch } from '../../src/arch/index.js';
import { GROUNDTRUTH } from './helpers.js';
import { fidelityKernels } from './reports.js';

interface GtLaunch {
  kernel: string;
  instance: number;
  family: string;
  metrics: Record<string, number>;
}
const GT = (JSON.parse(readFileSync(join(GROUNDTRUTH, 'summary.json'), 'utf8')) as GtLaunch[]).filter((g) => g.instance === 0);
const MAX_INSTR = 20e6;
const DUR = 'gpu__time_duration.sum';
const OCC = 'sm__warps_active.avg.pct_of_peak_sustained_active';
const H200 = getArch('h200');

/** occ_regs_*: 4 waves of their 4/2/1 blocks per SM */
const REDUCED: Record<string, number> = { occ_regs_32: 4 * 4 * 132, occ_regs_64: 4 * 2 * 132, occ_regs_128: 4 * 1 * 132 };

interface Row {
  kernel: string;
  family: string;
  gtUs: number;
  usUs: number | null;
  gtOcc: number;
  usOcc: number | null;
  note: string;
}

function printTable(rows: Row[]): void {
  const f = (x: number | null, d = 1) => (x === null ? '-' : x.toFixed(d));
  const lines = ['kernel                          H200 µs   ours µs  ratio   H200 occ  ours occ  note'];
  for (const r of rows)
    lines.push(
      `${r.kernel.padEnd(30)} ${f(r.gtUs).padStart(8)} ${f(r.usUs).padStart(9)} ${(r.usUs === null ? '-' : (r.usUs / r.gtUs).toFixed(2)).padStart(6)} ${f(r.gtOcc).padStart(10)} ${f(r.usOcc).padStart(9)}  ${r.note}`,
    );
  console.log(lines.join('\n'));
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n === 0 ? NaN : n % 2 ? (s[(n - 1) / 2] as number) : ((s[n / 2 - 1] as number) + (s[n / 2] as number)) / 2;
};

describe('timing vs the H200', () => {
  it('durations and achieved occupancy of the ground-truth launches', async () => {
    const shared = fidelityKernels();
    const rows: Row[] = [];
    for (const g of GT) {
      const base = { kernel: g.kernel, family: g.family, gtUs: g.metrics[DUR]! / 1000, gtOcc: g.metrics[OCC]! };
      const found = shared.get(g.kernel);
      if (!found) {
        const big = g.metrics['smsp__inst_executed.sum']! > MAX_INSTR;
        rows.push({ ...base, usUs: null, usOcc: null, note: big ? `skipped: ${(g.metrics['smsp__inst_executed.sum']! / 1e6).toFixed(0)}M warp instructions` : 'not profiled (no kernel file, or not in the shared fidelity runs)' });
        continue;
      }
      const reduced = REDUCED[g.kernel];
      const k: KernelResult = found.kernel;
      const dur = Number(k.metrics[DUR]) / 1000;
      rows.push({ ...base, usUs: reduced ? null : dur, usOcc: Number(k.metrics[OCC]), note: reduced ? `${reduced} blocks (4 waves)` : k.check?.passed === false ? 'CHECK FAILED' : '' });
    }
    printTable(rows);
    const get = (name: string) => rows.find((r) => r.kernel === name);
    const dur = (name: string) => get(name)?.usUs ?? null;
    const occ = (name: string) => get(name)?.usOcc ?? null;

    // --- durations: the global-memory family ---
    const global = rows.filter((r) => /^g_(ld|st)_/.test(r.kernel) && r.usUs !== null);
    expect(global.length).toBeGreaterThanOrEqual(36);
    const errs = global.map((r) => Math.abs((r.usUs as number) / r.gtUs - 1));
    const med = median(errs);
    console.log(`global family: median |error| ${(100 * med).toFixed(1)} % over ${global.length} launches (clock ${H200.smClockHz / 1e6} MHz)`);
    expect(med).toBeLessThanOrEqual(0.3);
    for (const t of ['u8', 'u16', 'u32', 'u64', 'u128']) expect(dur(`g_ld_${t}_stride32`)!).toBeGreaterThan(dur(`g_ld_${t}_coalesced`)!);
    expect(dur('g_st_u32_stride32')!).toBeGreaterThan(dur('g_st_u32_coalesced')!);
    // DRAM bursts: one 4-B store per line reads and writes lone sectors, each a whole burst (memory/dram.ts)
    const loneSectors = get('g_st_u32_stride32');
    expect(Math.abs((loneSectors?.usUs as number) / (loneSectors?.gtUs as number) - 1), 'g_st_u32_stride32 duration').toBeLessThan(0.15);
    // transposes, when their kernels exist: padding removes the bank conflicts
    for (const bd of ['bd32x8', 'bd32x32']) {
      const padded = dur(`sh_transpose_32x33_${bd}`);
      const unpadded = dur(`sh_transpose_32x32_${bd}`);
      if (padded !== null && unpadded !== null) expect(padded).toBeLessThan(unpadded);
    }

    // --- achieved occupancy ---
    const near = (name: string) => {
      const r = get(name);
      expect(r?.usOcc, `${name} ran`).not.toBeNull();
      const gap = Math.abs((r!.usOcc as number) - r!.gtOcc);
      expect(gap, `${name}: H200 ${r!.gtOcc} % vs ${r!.usOcc} %`).toBeLessThanOrEqual(10);
    };
    for (const name of ['occ_grid_80blocks', 'occ_grid_full', 'occ_regs_32', 'occ_regs_64', 'occ_regs_128', 'occ_smem_8k', 'occ_smem_48k', 'occ_smem_64k', 'occ_smem_100k', 'occ_smem_200k']) near(name);
    expect(occ('occ_grid_80blocks')!).toBeLessThan(occ('occ_grid_full')!);
    expect(occ('occ_regs_32')!).toBeGreaterThan(occ('occ_regs_64')!);
    expect(occ('occ_regs_64')!).toBeGreaterThan(occ('occ_regs_128')!);
    expect(occ('occ_smem_64k')!).toBeGreaterThan(occ('occ_smem_100k')!);
    expect(occ('occ_smem_100k')!).toBeGreaterThan(occ('occ_smem_200k')!);
  }, 1_800_000);
});
