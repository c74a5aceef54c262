/**
 * Issue #40 item 3e: stall attribution checked against the ground truth's stall breakdowns, the two
 * launches ncu profiled with `--set full` (../shared/groundtruth/h200/full_raw_*.csv), from the shared
 * full-size reports (test/fidelity/reports.ts).
 *  - g_ld_u32_stride32: each warp's one load waits behind DRAM; the H200 charges the wait to long
 *    scoreboard at the store that uses the value (443 cycles per instruction; lg_throttle 0.00), not to
 *    the LSU's queue, so the advice is about the access pattern, not the number of memory instructions.
 *  - sh_transpose_32x32_bd32x8: the bank-conflicted shared reads fill the MIO queue (mio_throttle 80.8,
 *    the largest), then long scoreboard (30.9).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readNcuRawCsv } from '../../src/report/ncuCsv.js';
import { GROUNDTRUTH } from './helpers.js';
import { fidelityReport } from './reports.js';

const PREFIX = 'smsp__average_warps_issue_stalled_';
const SUFFIX = '_per_issue_active.ratio';

/** stall reason -> cycles per issued instruction */
function stalls(metrics: Record<string, number>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [id, v] of Object.entries(metrics)) if (id.startsWith(PREFIX) && id.endsWith(SUFFIX)) out.set(id.slice(PREFIX.length, -SUFFIX.length), v);
  return out;
}

function h200(kernel: string): Map<string, number> {
  const [l] = readNcuRawCsv(join(GROUNDTRUTH, `full_raw_${kernel}.csv`));
  if (!l) throw new Error(`no launch in full_raw_${kernel}.csv`);
  return stalls(Object.fromEntries(Object.entries(l.metrics).map(([id, v]) => [id, Number(v.value)])));
}

function ours(run: string, kernel: string): Map<string, number> {
  const k = fidelityReport(run).kernels.find((x) => x.name === kernel);
  if (!k) throw new Error(`${kernel} not in the ${run} report`);
  return stalls(Object.fromEntries(Object.entries(k.metrics).map(([id, v]) => [id, Number(v)])));
}

const ranked = (s: Map<string, number>): string[] => [...s.entries()].filter(([r]) => r !== 'selected').sort((a, b) => b[1] - a[1]).map(([r]) => r);

describe('stall reasons vs the H200 (--set full launches)', () => {
  it('g_ld_u32_stride32: the wait for DRAM is long scoreboard, not LG throttle', () => {
    const gt = h200('g_ld_u32_stride32');
    const us = ours('global_loads', 'g_ld_u32_stride32');
    console.log(`g_ld_u32_stride32 stalls per instruction: H200 ${ranked(gt).slice(0, 4).map((r) => `${r} ${gt.get(r)?.toFixed(1)}`).join(', ')}; Warpsight ${ranked(us).slice(0, 4).map((r) => `${r} ${us.get(r)?.toFixed(1)}`).join(', ')}`);
    expect(ranked(us)[0]).toBe(ranked(gt)[0]);
    expect(ranked(gt)[0]).toBe('long_scoreboard');
    expect(us.get('lg_throttle') ?? 0).toBeLessThan(1);
    const long = (s: Map<string, number>) => s.get('long_scoreboard') as number;
    expect(Math.abs(long(us) / long(gt) - 1)).toBeLessThan(0.25);
  });

  it('sh_transpose_32x32_bd32x8: MIO throttle first, then long scoreboard, as on the H200', () => {
    const gt = h200('sh_transpose_32x32_bd32x8');
    const us = ours('transpose', 'sh_transpose_32x32_bd32x8');
    console.log(`sh_transpose_32x32_bd32x8 stalls per instruction: H200 ${ranked(gt).slice(0, 4).map((r) => `${r} ${gt.get(r)?.toFixed(1)}`).join(', ')}; Warpsight ${ranked(us).slice(0, 4).map((r) => `${r} ${us.get(r)?.toFixed(1)}`).join(', ')}`);
    expect(ranked(us).slice(0, 2)).toEqual(ranked(gt).slice(0, 2));
  });
});
