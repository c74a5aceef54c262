/**
 * A multi-PE program's strong scaling (--pes 1,2,4,8): each figure it reported against the PE count,
 * with the ideal (the fewest PEs' value divided in proportion) as a dashed line.
 */
import type { Report } from '../../../types/report.schema.js';
import { CHART_CONFIG, type ChartDef } from './types.js';

export function scalingCharts(report: Pick<Report, 'scaling'>): ChartDef[] {
  return (report.scaling ?? []).map((sc, i) => {
    const first = sc.points[0];
    const values = sc.points.flatMap((p) => [
      { pes: p.pes, series: 'measured', value: p.value, speedup: p.speedup, efficiency: 100 * p.efficiency },
      { pes: p.pes, series: 'ideal', value: first ? (first.value * first.pes) / p.pes : p.value, speedup: first ? p.pes / first.pes : 1, efficiency: 100 },
    ]);
    return {
      id: `scaling-${i}`,
      kind: 'scaling',
      kernelIndex: -1,
      section: 'Scaling',
      title: `Strong scaling: ${sc.program}`,
      spec: {
        $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
        title: `${sc.program}: ${sc.value}${sc.unit ? ` (${sc.unit})` : ''} by PEs`,
        width: 600,
        height: 240,
        config: CHART_CONFIG,
        data: { values },
        mark: { type: 'line', point: { filled: true, size: 60 } },
        encoding: {
          x: { field: 'pes', type: 'quantitative', title: 'PEs', scale: { type: 'log', base: 2 }, axis: { values: sc.points.map((p) => p.pes), format: 'd' } },
          y: { field: 'value', type: 'quantitative', title: sc.unit || sc.value, scale: { type: 'log' } },
          color: { field: 'series', type: 'nominal', title: null },
          strokeDash: { field: 'series', type: 'nominal', legend: null },
          tooltip: [
            { field: 'pes', title: 'PEs' },
            { field: 'series', title: 'Series' },
            { field: 'value', title: sc.value, format: ',.3f' },
            { field: 'speedup', title: 'Speed-up', format: '.2f' },
            { field: 'efficiency', title: 'Efficiency (%)', format: '.1f' },
          ],
        },
      },
    };
  });
}
