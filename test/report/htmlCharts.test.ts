import { describe, expect, it } from 'vitest';
import { buildCharts } from '../../src/report/charts/index.js';
import { memoryGraph } from '../../src/report/charts/memory.js';
import { chartSvg, svgToPng } from '../../src/report/charts/render.js';
import { sourceHeatCells } from '../../src/report/charts/source.js';
import { throughputBars } from '../../src/report/charts/throughput.js';
import { fakeReport } from './fakeReport.js';
import { FAKE_OCCUPANCY, hostileReport } from './htmlFixtures.js';

describe('charts', () => {
  it('builds throughput, memory, occupancy, source and rules charts with unique ids', () => {
    const charts = buildCharts(fakeReport(), { occupancy: FAKE_OCCUPANCY });
    const kinds = new Set(charts.map((c) => c.kind));
    // two launches: the chart across them too
    expect([...kinds].sort()).toEqual(['memory', 'occupancy', 'overview', 'rules', 'source', 'throughput']);
    expect(new Set(charts.map((c) => c.id)).size).toBe(charts.length);
    expect(charts.filter((c) => c.kernelIndex === 0 && c.kind === 'occupancy')).toHaveLength(3);
  });

  it('reads the throughput bars from the SpeedOfLight section', () => {
    expect(throughputBars(fakeReport().kernels[0] as never).map((b) => b.label)).toEqual(['Compute (SM) Throughput']);
  });

  it('memory chart links carry instructions, requests and sectors', () => {
    const { links } = memoryGraph({
      'smsp__sass_inst_executed_op_global_ld.sum': 10,
      'l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum': 10,
      'lts__t_sectors_srcunit_tex_op_read.sum': 40,
      'dram__sectors_read.sum': 8,
    });
    const count = (from: string, to: string): number | undefined => links.find((l) => l.from === from && l.to === to)?.count;
    expect(count('kernel', 'global')).toBe(10);
    expect(count('global', 'l1')).toBe(10);
    expect(count('l1', 'l2')).toBe(40);
    expect(count('l2', 'dram')).toBe(8);
    expect(count('kernel', 'shared')).toBe(0);
  });

  it('source heat map: one row per line, bank conflicts hottest where they are', () => {
    const { cells, columns } = sourceHeatCells(hostileReport().kernels[1] as never);
    expect(columns).toContain('Bank Conflicts');
    const bc = cells.find((c) => c.column === 'Bank Conflicts');
    expect(bc?.value).toBe(310);
    expect(bc?.heat).toBe(1);
  });

  it('renders SVG in Node and PNG with the bundled font', async () => {
    const chart = buildCharts(fakeReport(), { occupancy: FAKE_OCCUPANCY }).find((c) => c.kind === 'throughput');
    if (!chart) throw new Error('no throughput chart');
    const svg = await chartSvg(chart);
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('Compute (SM) Throughput');
    const png = svgToPng(svg);
    expect([...png.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect(png.length).toBeGreaterThan(2000);
  });
});

describe('rules chart', () => {
  it('draws one bar per rule result: the two CPIStall results of a profiled kernel do not stack', async () => {
    const { profileFile } = await import('../../src/profile.js');
    const { rulesChart } = await import('../../src/report/charts/rules.js');
    const report = await profileFile({ file: 'kernels/warp_primitives.ts', kernel: 'warp_votes' });
    const k = report.kernels[0];
    if (!k) throw new Error('no kernel');
    const cpi = k.rules.filter((r) => r.id === 'CPIStall' && r.speedup !== undefined);
    expect(cpi).toHaveLength(2);
    const rows = (rulesChart(k)?.spec as { data: { values: { rule: string; speedup: number }[] } }).data.values;
    const labels = rows.map((r) => r.rule);
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels.filter((l) => l.startsWith('CPIStall (WarpStateStats)')).sort()).toEqual(['CPIStall (WarpStateStats)', 'CPIStall (WarpStateStats) #2']);
    // each bar keeps its own speedup
    expect(rows.filter((r) => r.rule.startsWith('CPIStall')).map((r) => r.speedup).sort()).toEqual(cpi.map((r) => Math.round((r.speedup?.value ?? 0) * 100) / 100).sort());
  });
});
