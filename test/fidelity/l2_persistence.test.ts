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
import { cachedProfiler, fidelityReport } from './reports.js';

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

/** the counters of launch `kernel` of rep `rep` (0-based) of a variant's program */
function launch(v: Variant, kernel: 'pass1' | 'pass2' | 'evict', rep = 3): Record<string, unknown> {
  const all = fidelityReport(`l2_${v}`).kernels.filter((k) => k.name === `l2_${v}_${kernel}`);
  return (kernel === 'evict' ? all[0] : all[rep])!.metrics;
}
const num = (v: Variant, kernel: 'pass1' | 'pass2' | 'evict', id: string, rep = 3) => Number(launch(v, kernel, rep)[id]);

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
    // H200: 29.5 MB (annot) -> 17.2 MB (annotdiscard): tmp's 16 MiB are not written back, but annot's
    // dst and tmp (33.5 MB) were already cleaned down to the L2's idle dirty room, so the drop is 12.3 MB
    const drop = (side: 'ncu' | 'warpsight') => evictWr('annot', side) - evictWr('annotdiscard', side);
    expect(drop('ncu')).toBeGreaterThan(12e6);
    expect(Math.abs(drop('warpsight') - drop('ncu')) / drop('ncu')).toBeLessThan(0.15);
    expect(Math.abs(evictWr('annotdiscard', 'warpsight') - evictWr('annotdiscard', 'ncu')) / evictWr('annotdiscard', 'ncu')).toBeLessThan(0.15);
  });

  it.each(VARIANTS)('%s pass 1: src streamed (0 %% read hits, 64 MiB from DRAM), whole-sector stores 100 %% hits', (v) => {
    expect(num(v, 'pass1', RDHIT)).toBeLessThan(0.5);
    expect(num(v, 'pass1', 'lts__t_sector_op_write_hit_rate.pct')).toBe(100);
    expect(num(v, 'pass1', RD)).toBe(64 * 2 ** 20);
    expect(num(v, 'pass1', 'lts__t_sectors_srcunit_tex_op_read.sum')).toBe(2_097_152);
    expect(num(v, 'pass1', 'lts__t_sectors_srcunit_tex_op_write.sum')).toBe(1_048_576);
  });

  // annotdiscard's pass 2 hits 94.7 % here (98.3 on the H200; 95.2 with LRU replacement): the extra
  // misses are of near copies (tex lookup misses served by the home over the fabric: 57k sectors, 51k)
  it('annotated_ptr: pass 2 hits its persisting lines (97-98 % on the H200) in the 37.5-MiB set-aside; src is evict-first', () => {
    for (const v of ['annot', 'annotdiscard'] as const) {
      expect(num(v, 'pass2', RDHIT)).toBeGreaterThan(94);
      expect(num(v, 'pass2', RD)).toBeLessThan(0.1e6);
      // no DRAM traffic in the loop: 2 MB written over 4 reps on the H200
      expect(total(v, WR, 'warpsight', /pass[12]$/)).toBeLessThan(5e6);
      expect(num(v, 'pass2', 'launch__persisting_l2_cache_size')).toBe(39_321_600);
      expect(num(v, 'pass2', 'lts__t_sectors_srcunit_tex_evict_last_lookup_hit.sum')).toBeGreaterThan(0);
    }
    expect(num('annot', 'pass1', 'lts__t_sectors_srcunit_tex_evict_first_lookup_miss.sum')).toBe(2_097_152);
  });

  it('evict kernel: the dirty bytes each variant left (H200: annot 29.5, window 29.7, plain 21.0, annotdiscard 17.2, setaside 7.7 MB)', () => {
    const tol: Record<Variant, number> = { annot: 0.15, window: 0.15, annotdiscard: 0.1, plain: 0.3, setaside: 0.3 };
    for (const v of VARIANTS) {
      const [ours, ncu] = (['warpsight', 'ncu'] as const).map((side) => total(v, WR, side, /_evict$/));
      expect(Math.abs(ours! - ncu!) / ncu!, v).toBeLessThan(tol[v]);
    }
  });

  it('bare set-aside: pass 2 writes ~13 MB back per rep (plain ~2.4 MB); the loop writes 172 vs 132 MB', () => {
    const s = num('setaside', 'pass2', WR);
    expect(Math.abs(s - 13.07e6) / 13.07e6).toBeLessThan(0.3);
    expect(num('plain', 'pass2', WR)).toBeLessThan(0.3 * s);
    const loop = (v: Variant) => total(v, WR, 'warpsight', /pass[12]$/);
    expect(Math.abs(loop('setaside') / loop('plain') / (172 / 132) - 1)).toBeLessThan(0.1);
  });

  it('bare set-aside: both passes take about twice as long as plain (H200 pass 1 71.3 vs 31.7 us, pass 2 31.4 vs 15.3), each within 20 %', () => {
    // the 37.5-MiB set-aside leaves the L2 7.7 MB of dirty room (2 ways per set) where plain has 29.7:
    // the write-backs (and the fills behind them) move at that room per 5.8 us (arch l2DirtyTurnoverNs,
    // test/fidelity/probes/setaside_time), 1.3 TB/s, whatever DRAM could do
    const DUR = 'gpu__time_duration.sum';
    const rep = (v: Variant, k: 'pass1' | 'pass2', side: 'ncu' | 'warpsight') => metric(v, DUR).filter((r) => r.kernel.endsWith(k)).at(-1)![side]!;
    for (const k of ['pass1', 'pass2'] as const) {
      const ours = rep('setaside', k, 'warpsight');
      const h200 = rep('setaside', k, 'ncu');
      expect(Math.abs(ours / h200 - 1), `${k}: H200 ${h200} warpsight ${ours.toFixed(0)} ns`).toBeLessThan(0.2);
      for (const side of ['ncu', 'warpsight'] as const) expect(rep('setaside', k, side) / rep('plain', k, side), `${side} ${k}`).toBeGreaterThan(1.8);
    }
  });

  it('window: dst and tmp stay in the L2 (no DRAM reads in pass 2, ~no writes in the loop)', () => {
    expect(num('window', 'pass2', RD)).toBeLessThan(0.1e6);
    expect(total('window', WR, 'warpsight', /pass[12]$/)).toBeLessThan(5e6);
  });

  it('pass 1 runs faster where it writes nothing back: annotated and window (H200 25-27 µs) vs plain (31-32 µs)', () => {
    // pass 1 streams 64 MiB from DRAM with its four loads in flight per warp; plain's also writes back
    // 23-33 MB of the previous rep's lines, which the persisting variants keep in the set-aside
    const DUR = 'gpu__time_duration.sum';
    for (const side of ['ncu', 'warpsight'] as const) {
      const mean = (v: Variant) => total(v, DUR, side, /pass1$/) / 4;
      for (const v of ['annot', 'annotdiscard', 'window'] as const) expect(mean(v), `${side} ${v}`).toBeLessThan(0.9 * mean('plain'));
    }
  });
});
