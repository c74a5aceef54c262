import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HEADER_SECTIONS, METRICS, metricInfo, unitOf } from '../../src/metrics/registry.js';
import { readNcuRawCsv } from '../../src/report/ncuCsv.js';

const GT = fileURLToPath(new URL('../../../shared/groundtruth/h200/', import.meta.url));
const FAMILIES = ['g', 'sh', 'div', 'occ', 'cp', 'sync', 'ws', 'l2'];
const FULL = ['full_raw_g_ld_u32_stride32.csv', 'full_raw_sh_transpose_32x32_bd32x8.csv'];
/** our own H200 probes, for the ids the ground truth does not collect */
const PROBES = ['shared_misc_probe_h200.csv', 'cudaparts/parts_probe_h200.csv'].map((f) => fileURLToPath(new URL(`../fidelity/probes/${f}`, import.meta.url)));

/** metric id → unit, from the units rows of every ground-truth CSV */
function groundTruthUnits(paths: readonly string[]): Map<string, string> {
  const units = new Map<string, string>();
  for (const f of paths) {
    for (const l of readNcuRawCsv(f)) {
      for (const [id, m] of Object.entries(l.metrics)) units.set(id, m.unit);
    }
  }
  return units;
}
const rawUnits = groundTruthUnits(FAMILIES.map((f) => `${GT}ncu_raw_${f}.csv`));
const allUnits = new Map([...groundTruthUnits([...FULL.map((f) => GT + f), ...PROBES]), ...rawUnits]);

describe('metric registry', () => {
  it('has every metric id of summary.json', () => {
    const summary = JSON.parse(readFileSync(`${GT}summary.json`, 'utf8')) as { metrics: Record<string, unknown> }[];
    const ids = new Set(summary.flatMap((e) => Object.keys(e.metrics)));
    const registered = new Set(METRICS.map((m) => m.id));
    expect([...ids].filter((id) => !registered.has(id))).toEqual([]);
    expect(ids.size).toBe(84);
  });

  it('lists each id once, with a label and a description', () => {
    const ids = METRICS.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const m of METRICS) {
      expect(m.label, m.id).not.toBe('');
      expect(m.description, m.id).not.toBe('');
    }
  });

  it("takes every unit from ncu's units rows", () => {
    for (const m of METRICS) {
      expect(allUnits.has(m.id), `${m.id} appears in no ground-truth or probe CSV`).toBe(true);
      expect(m.unit, m.id).toBe(allUnits.get(m.id));
    }
  });

  it('gives the units row of every column of the raw pages, rollups included', () => {
    const units = JSON.parse(readFileSync(`${GT}metric_units.json`, 'utf8')) as Record<string, string>;
    for (const [id, unit] of Object.entries(units)) expect(unitOf(id), id).toBe(unit);
    for (const [id, unit] of rawUnits) expect(unitOf(id), id).toBe(unit);
  });

  it('covers the section headers and Source Counters metrics', () => {
    for (const s of HEADER_SECTIONS) {
      expect(METRICS.filter((m) => m.section === s.id).length, s.id).toBeGreaterThan(0);
    }
    expect(metricInfo('l1tex__t_sector_hit_rate.pct')).toMatchObject({ label: 'L1/TEX Hit Rate', unit: '%', section: 'MemoryWorkloadAnalysis' });
    expect(metricInfo('memory_l2_theoretical_sectors_global')).toMatchObject({ label: 'L2 Theoretical Sectors Global', unit: 'sectors' });
    expect(metricInfo('gpu__time_duration.sum')).toMatchObject({ label: 'Duration', unit: 'ns' });
  });

  it('falls back sensibly for ids it does not list', () => {
    expect(metricInfo('made__up_metric.sum')).toEqual({ id: 'made__up_metric.sum', label: 'made__up_metric.sum', unit: '', description: '' });
    // a rollup of a registered counter keeps the counter's unit
    expect(metricInfo('dram__bytes_read.max')).toMatchObject({ label: 'DRAM Bytes Read (max)', unit: 'byte' });
    expect(unitOf('sm__warps_active.min.per_cycle_active')).toBe('warp');
    // a different submetric is a different quantity: not borrowed, but the ground truth's units
    // row has it (data/ncuUnits.ts)
    expect(unitOf('dram__bytes_read.sum.per_second')).toBe('byte/s');
    expect(unitOf('l1tex__cycles_active.avg')).toBe('cycle');
  });

  it("infers the unit of an id nothing lists from ncu's naming, and leaves a ratio without one", () => {
    expect(unitOf('lts__t_bytes_srcunit_tex_op_read.sum')).toBe('byte');
    expect(unitOf('lts__d_sectors_fill_device.sum')).toBe('sector');
    expect(unitOf('lts__d_sectors.sum.peak_sustained')).toBe('sector/cycle');
    expect(unitOf('smsp__warps_issue_stalled_barrier.sum')).toBe('warp');
    expect(unitOf('lts__xbar2lts_cycles_active.sum')).toBe('cycle');
    expect(unitOf('lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed')).toBe('%');
    expect(unitOf('lts__average_t_sectors_per_request.ratio')).toBe('');
    expect(unitOf('warpsight__l2_window_hit_ratio')).toBe('');
  });
});
