import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { KernelResult } from '../../types/report.schema.js';
import { TOLERANCES, errorBaseOf, formatTolerance, toleranceFor } from '../../src/metrics/tolerances.js';
import { readNcuRawCsv } from '../../src/report/ncuCsv.js';
import type { NcuLaunch } from '../../src/report/ncuCsv.js';
import { compareWithNcu, judge, renderValidation, summarize } from '../../src/validate/compare.js';
import type { ValidationRow } from '../../src/validate/compare.js';
import { kernel } from '../report/fakeReport.js';

const GT = fileURLToPath(new URL('../../../shared/groundtruth/h200/', import.meta.url));

function launch(id: number, kernelName: string, metrics: Record<string, number | string>): NcuLaunch {
  return {
    id,
    kernelName,
    signature: `${kernelName}(float *)`,
    block: [256, 1, 1],
    grid: [16384, 1, 1],
    identity: {},
    metrics: Object.fromEntries(Object.entries(metrics).map(([k, value]) => [k, { value, unit: '' }])),
  };
}

const row = (rows: readonly ValidationRow[], metric: string, instance = 0): ValidationRow | undefined =>
  rows.find((r) => r.metric === metric && r.instance === instance);

describe('tolerance table', () => {
  it('judges memory instruction, request and sector counts exactly', () => {
    for (const id of [
      'smsp__sass_inst_executed_op_global_ld.sum',
      'smsp__sass_inst_executed_op_shared_st.sum',
      'smsp__sass_inst_executed_op_local_ld.sum',
      'smsp__sass_inst_executed_op_global_atom.sum',
      'smsp__sass_inst_executed_op_global_red.sum',
      'l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum',
      'l1tex__t_requests_pipe_lsu_mem_global_op_red.sum',
      'l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum',
      'l1tex__t_requests_pipe_lsu_mem_global_op_st.sum',
      'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum',
      'l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum',
      'launch__occupancy_limit_registers',
      'launch__waves_per_multiprocessor',
    ]) {
      expect(toleranceFor(id)?.kind, id).toBe('exact');
    }
  });

  it('gives the rest relative or absolute tolerances, or none', () => {
    expect(toleranceFor('l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum')).toMatchObject({ kind: 'relative', value: 0.1 });
    expect(toleranceFor('gpu__time_duration.sum')).toMatchObject({ kind: 'relative', value: 0.3 });
    expect(toleranceFor('dram__bytes_read.sum')).toMatchObject({ kind: 'relative', value: 0.15 });
    expect(toleranceFor('lts__t_sector_hit_rate.pct')).toMatchObject({ kind: 'absolute', value: 5 });
    expect(toleranceFor('sm__warps_active.avg.pct_of_peak_sustained_active')).toMatchObject({ kind: 'absolute', value: 10 });
    // theoretical occupancy is arithmetic: the exact entry comes before the % rule
    expect(toleranceFor('sm__maximum_warps_per_active_cycle_pct')?.kind).toBe('exact');
    // bank conflicts: against the H200's wavefronts of the same op (its conflict counters carry noise)
    for (const op of ['_op_ld', '_op_st', '']) {
      const t = toleranceFor(`l1tex__data_bank_conflicts_pipe_lsu_mem_shared${op}.sum`);
      expect(t).toMatchObject({ kind: 'relative', value: 0.1, ofLabel: 'wavefronts' });
      expect(errorBaseOf(`l1tex__data_bank_conflicts_pipe_lsu_mem_shared${op}.sum`, t!)).toBe(`l1tex__data_pipe_lsu_wavefronts_mem_shared${op}.sum`);
    }
    expect(toleranceFor('l1tex__t_sectors_pipe_lsu_mem_global_op_ld.avg')).toBeUndefined();
  });

  it('says why for every entry and reads well in a table', () => {
    for (const t of TOLERANCES) expect(t.why.length).toBeGreaterThan(20);
    expect(formatTolerance({ kind: 'exact', value: 0 })).toBe('exact');
    expect(formatTolerance({ kind: 'relative', value: 0.15 })).toBe('±15%');
    expect(formatTolerance({ kind: 'relative', value: 0.1, ofLabel: 'wavefronts' })).toBe('±10% of wavefronts');
    expect(formatTolerance({ kind: 'absolute', value: 10 })).toBe('±10');
    expect(formatTolerance(undefined)).toBe('');
  });
});

describe('judge', () => {
  it('exact: equal as ncu prints it', () => {
    expect(judge(131072, 131072, { kind: 'exact', value: 0 })).toEqual({ error: 0, status: 'ok' });
    expect(judge(131072, 131073, { kind: 'exact', value: 0 })).toEqual({ error: 1, status: 'FAIL' });
    expect(judge(15.52, 16384 / (132 * 8), { kind: 'exact', value: 0 }).status).toBe('ok');
    expect(judge(15.52, 15.53, { kind: 'exact', value: 0 }).status).toBe('FAIL');
  });

  it('relative and absolute, boundaries included', () => {
    expect(judge(100, 110, { kind: 'relative', value: 0.1 }).status).toBe('ok');
    expect(judge(100, 110.01, { kind: 'relative', value: 0.1 }).status).toBe('FAIL');
    expect(judge(0, 0, { kind: 'relative', value: 0.1 })).toEqual({ error: 0, status: 'ok' });
    expect(judge(0, 5, { kind: 'relative', value: 0.1 })).toEqual({ error: Infinity, status: 'FAIL' });
    expect(judge(58.72, 48.72, { kind: 'absolute', value: 10 }).status).toBe('ok');
    expect(judge(58.72, 48.7, { kind: 'absolute', value: 10 }).status).toBe('FAIL');
    expect(judge(200, 150, undefined)).toEqual({ error: 0.25, status: 'info' });
  });

  it('relative to another value: 817 conflicts where we count none is 0.6 % of 131,889 wavefronts', () => {
    expect(judge(817, 0, { kind: 'relative', value: 0.1 }, 131889)).toMatchObject({ status: 'ok' });
    expect(judge(817, 0, { kind: 'relative', value: 0.1 }, 131889).error).toBeCloseTo(817 / 131889, 12);
    // the unpadded transpose's 31 conflicts per LDS, not counted at all, is most of its wavefronts
    expect(judge(4_080_000, 0, { kind: 'relative', value: 0.1 }, 4_210_000).status).toBe('FAIL');
  });
});

describe('bank conflicts in compareWithNcu', () => {
  const wf = 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum';
  const bc = 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum';
  it('judges them against the H200 wavefronts of the launch', () => {
    const ncu = [launch(0, 'sh', { [wf]: 131889, [bc]: 817 })];
    const near = compareWithNcu([kernel({ id: 0, name: 'sh', metrics: { [wf]: 131072, [bc]: 0 } })], ncu);
    expect(row(near, bc)).toMatchObject({ status: 'ok', tolerance: { kind: 'relative', value: 0.1, ofLabel: 'wavefronts' } });
    const far = compareWithNcu([kernel({ id: 0, name: 'sh', metrics: { [wf]: 131072, [bc]: 40000 } })], ncu);
    expect(row(far, bc)?.status).toBe('FAIL');
    expect(renderValidation(far)).toContain('±10% of wavefronts');
  });
  it('leaves them unjudged when the CSV has no wavefronts', () => {
    const r = compareWithNcu([kernel({ id: 0, name: 'sh', metrics: { [bc]: 0 } })], [launch(0, 'sh', { [bc]: 817 })]);
    expect(row(r, bc)).toMatchObject({ status: 'info', tolerance: null });
  });
});

describe('compareWithNcu', () => {
  const ncu = [
    launch(0, 'g_ld', {
      'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum': 131072,
      'smsp__sass_inst_executed_op_global_ld.sum': 131072,
      'dram__bytes_read.sum': 4197120,
      'lts__t_sector_hit_rate.pct': 58.72,
      'l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum': 817,
      'launch__func_cache_config': 'CachePreferNone',
      'only__in_ncu.sum': 1,
    }),
  ];
  const ours = [
    kernel({
      id: 0,
      name: 'g_ld',
      metrics: {
        'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum': 131073,
        'smsp__sass_inst_executed_op_global_ld.sum': 131072,
        'dram__bytes_read.sum': 4500000,
        'lts__t_sector_hit_rate.pct': 55.02,
        'l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum': 0,
        'launch__func_cache_config': 'CachePreferNone',
        'only__in_ours.sum': 2,
      },
    }),
  ];
  const rows = compareWithNcu(ours, ncu);

  it('fails an exact metric off by one', () => {
    expect(row(rows, 'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum')).toMatchObject({
      kernel: 'g_ld',
      instance: 0,
      label: 'Global Load Sectors',
      ncu: 131072,
      warpsight: 131073,
      error: 1,
      tolerance: { kind: 'exact', value: 0 },
      status: 'FAIL',
    });
    expect(row(rows, 'smsp__sass_inst_executed_op_global_ld.sum')?.status).toBe('ok');
  });

  it('passes metrics within their tolerance and shows unjudged ones as info', () => {
    expect(row(rows, 'dram__bytes_read.sum')?.status).toBe('ok');
    expect(row(rows, 'dram__bytes_read.sum')?.error).toBeCloseTo(0.0722, 3);
    expect(row(rows, 'lts__t_sector_hit_rate.pct')).toMatchObject({ status: 'ok', tolerance: { kind: 'absolute', value: 5 } });
    expect(row(rows, 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum')).toMatchObject({ status: 'info', tolerance: null, error: 1 });
  });

  it('compares only numbers both sides have, sorted by id', () => {
    expect(rows.map((r) => r.metric)).toEqual([
      'dram__bytes_read.sum',
      'l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum',
      'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum',
      'lts__t_sector_hit_rate.pct',
      'smsp__sass_inst_executed_op_global_ld.sum',
    ]);
    expect(summarize(rows)).toBe('5 metrics compared, 1 outside tolerance');
  });

  it('pairs repeated kernel names by order and reports launches on one side only', () => {
    const csv = [0, 1, 2, 3].map((i) => launch(10 + i, 'pass1', { 'smsp__sass_inst_executed_op_global_ld.sum': 100 + i }));
    const mine: KernelResult[] = [
      kernel({ id: 0, name: 'pass1', metrics: { 'smsp__sass_inst_executed_op_global_ld.sum': 100 } }),
      kernel({ id: 1, name: 'pass1', metrics: { 'smsp__sass_inst_executed_op_global_ld.sum': 101 } }),
      kernel({ id: 2, name: 'other', metrics: {} }),
    ];
    const r = compareWithNcu(mine, csv);
    expect(row(r, 'smsp__sass_inst_executed_op_global_ld.sum', 0)?.status).toBe('ok');
    expect(row(r, 'smsp__sass_inst_executed_op_global_ld.sum', 1)?.status).toBe('ok');
    const notes = r.filter((x) => x.metric === '').map((x) => [x.kernel, x.instance, x.note, x.status]);
    expect(notes).toEqual([
      ['other', 0, 'not in the ncu CSV', 'info'],
      ['pass1', 2, 'in the ncu CSV (ID 12) but not profiled by warpsight', 'info'],
      ['pass1', 3, 'in the ncu CSV (ID 13) but not profiled by warpsight', 'info'],
    ]);
  });

  it('notes a different launch configuration', () => {
    const r = compareWithNcu([kernel({ id: 0, name: 'g_ld', launch: { ...ours[0]!.launch, grid: [128, 1, 1] } })], ncu);
    expect(r[0]?.note).toBe('launch configurations differ: ncu grid (16384, 1, 1) block (256, 1, 1), warpsight grid (128, 1, 1) block (256, 1, 1)');
  });

  it('can restrict the metrics and swap the tolerance table', () => {
    const r = compareWithNcu(ours, ncu, {
      metrics: ['l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum'],
      tolerances: [{ pattern: /sectors/, kind: 'relative', value: 0.01, why: 'test' }],
    });
    expect(r).toHaveLength(1);
    expect(r[0]?.status).toBe('ok');
  });

  it('finds nothing outside tolerance when ncu is compared with itself (H200 ground truth)', () => {
    const launches = readNcuRawCsv(`${GT}ncu_raw_g.csv`);
    const mirror = launches.map((l) =>
      kernel({
        id: l.id,
        name: l.kernelName,
        launch: { ...kernel({ id: 0, name: '' }).launch, grid: l.grid, block: l.block },
        metrics: Object.fromEntries(Object.entries(l.metrics).map(([id, m]) => [id, m.value])),
      }),
    );
    const r = compareWithNcu(mirror, launches);
    expect(r.filter((x) => x.status === 'FAIL')).toEqual([]);
    expect(r.filter((x) => x.metric === '')).toEqual([]);
    expect(r.filter((x) => x.status === 'ok').length).toBeGreaterThan(36 * 15);
  });
});

describe('renderValidation', () => {
  const rows = compareWithNcu(
    [kernel({ id: 0, name: 'g_ld', metrics: { 'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum': 131073, 'dram__bytes_read.sum': 4500000 } }), kernel({ id: 1, name: 'lonely' })],
    [launch(0, 'g_ld', { 'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum': 131072, 'dram__bytes_read.sum': 4197120 })],
  );
  const text = renderValidation(rows, { tty: false });

  it('draws plain text grouped by kernel, then the summary line', () => {
    // no ANSI colour codes when stdout is not a terminal
    expect(text).not.toMatch(/\u001b\[/);
    const lines = text.trimEnd().split('\n');
    expect(lines.at(-1)).toBe('2 metrics compared, 1 outside tolerance');
    expect(text).toMatch(/│ metric\s+│\s+ncu │\s+warpsight │\s+error │\s+tolerance │ status\s+│/);
    expect(text).toMatch(/│ g_ld\s+│/);
    expect(text).toMatch(/│ l1tex__t_sectors_pipe_lsu_mem_global_op_ld\.sum\s+│\s+131,072 │\s+131,073 │\s+1 │\s+exact │ FAIL\s+│/);
    expect(text).toMatch(/│ dram__bytes_read\.sum\s+│\s+4,197,120 │\s+4,500,000 │\s+7\.2% │\s+±15% │ ok\s+│/);
    expect(text).toMatch(/│ lonely\s+│\n.*│ not in the ncu CSV\s+│ info\s+│/);
    expect(text.indexOf('g_ld')).toBeLessThan(text.indexOf('lonely'));
  });

  it('is deterministic', () => {
    expect(renderValidation(rows, { tty: false })).toBe(text);
  });
});
