/**
 * Family 5 (L2 persistence, micro.cu run_l2()) through `warpsight validate` against the H200's
 * ncu_raw_l2.csv, measured with `--replay-mode application --cache-control none`: each variant is
 * one program (limit, reset, unprofiled 512 MiB flush, 4 x (pass1, pass2), reset, limit 0, evict).
 * Acceptance (issue #5): per-launch L2 read hit rate within 10 points, the variant's total DRAM read
 * and write bytes within 15 %, the ranking of the variants by pass-2 DRAM traffic, discard_memory
 * removing the write-back of tmp. (Profiling speed is `npm run bench`'s business, not a test's.)
 * Each variant's program is profiled once up front (test/fidelity/reports.ts, run `l2_<variant>`).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { validate } from '../../commands/validate.js';
import type { ValidationRow } from '../../src/validate/compare.js';
import { join } from 'node:path';
import { GROUNDTRUTH } from './helpers.js';
import { cachedProfiler } from './reports.js';

const VARIANTS = ['plain', 'setaside', 'annot', 'annotdiscard', 'window'] as const;
type Variant = (typeof VARIANTS)[number];
const RDHIT = 'lts__t_sector_op_read_hit_rate.pct';
const RD = 'dram__bytes_read.sum';
const WR = 'dram__bytes_write.sum';
const rows = new Map<Variant, ValidationRow[]>();

async function runVariant(v: Variant): Promise<void> {
  const result = await validate(
    { file: `l2_${v}`, ncu: join(GROUNDTRUTH, 'ncu_raw_l2.csv'), kernel: [`regex:^l2_${v}_`], arch: 'h200', cacheControl: 'none', json: true, tty: false },
    cachedProfiler(`l2_${v}`),
  );
  rows.set(v, result.rows);
}

beforeAll(async () => {
  for (const v of VARIANTS) await runVariant(v);
}, 900_000);

function metric(v: Variant, id: string): ValidationRow[] {
  return rows.get(v)!.filter((r) => r.metric === id);
}
function total(v: Variant, id: string, side: 'ncu' | 'warpsight', kernels = /./): number {
  return metric(v, id)
    .filter((r) => kernels.test(r.kernel))
    .reduce((s, r) => s + (r[side] ?? 0), 0);
}

describe('family 5 vs the H200 (ncu_raw_l2.csv, --cache-control none)', () => {
  it.each(VARIANTS)('%s: the 9 launches pair with ncu by name and order', (v) => {
    expect(rows.get(v)!.filter((r) => r.metric === '').map((r) => r.note)).toEqual([]);
    expect(metric(v, RDHIT).length).toBe(9);
  });

  it.each(VARIANTS)('%s: per-launch L2 read hit rate within 10 points', (v) => {
    const off = metric(v, RDHIT)
      .filter((r) => Math.abs(r.warpsight! - r.ncu!) > 10)
      .map((r) => `${r.kernel}#${r.instance}: ncu ${r.ncu} warpsight ${r.warpsight?.toFixed(1)}`);
    expect(off).toEqual([]);
  });

  it.each(VARIANTS)('%s: total DRAM read and write bytes within 15 percent', (v) => {
    for (const id of [RD, WR]) {
      const ncu = total(v, id, 'ncu');
      const ours = total(v, id, 'warpsight');
      expect(Math.abs(ours - ncu) / ncu, `${v} ${id}: ncu ${ncu} warpsight ${ours}`).toBeLessThan(0.15);
    }
  });

  it('ranks the variants by pass-2 DRAM traffic as the H200 does', () => {
    const p2 = (v: Variant, side: 'ncu' | 'warpsight') => total(v, RD, side, /pass2$/) + total(v, WR, side, /pass2$/);
    for (const side of ['ncu', 'warpsight'] as const) {
      const best = Math.max(p2('annot', side), p2('annotdiscard', side));
      const worst = Math.min(p2('plain', side), p2('setaside', side));
      // annot and annotdiscard best, window partial (between), plain and setaside worst
      expect(best, side).toBeLessThanOrEqual(p2('window', side) + 0.5e6);
      expect(p2('window', side), side).toBeLessThan(0.5 * worst);
      expect(best, side).toBeLessThan(0.1 * worst);
    }
    // window is partial in L2 read hits: between plain and annot
    const hit = (v: Variant) => metric(v, RDHIT).filter((r) => r.kernel.endsWith('pass2')).at(-1)!.warpsight!;
    expect(hit('window')).toBeGreaterThan(hit('plain') + 20);
    expect(hit('window')).toBeLessThan(hit('annot') - 10);
  });

  it('discard_memory removes the write-back of the discarded tmp lines (evict kernel DRAM writes drop)', () => {
    const evictWr = (v: Variant, side: 'ncu' | 'warpsight') => total(v, WR, side, /_evict$/);
    // H200: 29.5 MB (annot) -> 17.2 MB (annotdiscard): tmp's 16 MiB not written back
    const drop = evictWr('annot', 'warpsight') - evictWr('annotdiscard', 'warpsight');
    expect(drop).toBeGreaterThan(0.8 * 16 * 2 ** 20);
    expect(drop).toBeLessThan(1.2 * 16 * 2 ** 20);
    expect(Math.abs(evictWr('annotdiscard', 'warpsight') - evictWr('annotdiscard', 'ncu')) / evictWr('annotdiscard', 'ncu')).toBeLessThan(0.15);
  });
});
