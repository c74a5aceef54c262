/**
 * A program's story across its launches (the L2 hit rate of a persistence sweep going 33 % → 95 % →
 * 99.6 %): one line over the launches of any metric every launch has, chosen in a menu on the page
 * (a vega-lite parameter bound to a select). Starts on the L2 hit rate, else the duration.
 */
import type { Report } from '../../../types/report.schema.js';
import { metricInfo } from '../../metrics/registry.js';
import { CHART_CONFIG, type ChartDef } from './types.js';

/** the metric the chart opens on: the first of these every launch has */
const FIRST_SHOWN = ['lts__t_sector_hit_rate.pct', 'gpu__time_duration.sum', 'dram__bytes_read.sum', 'smsp__inst_executed.sum'];

/** numeric metric ids every launch has, by id */
export function overviewMetrics(report: Pick<Report, 'kernels'>): string[] {
  const [first, ...rest] = report.kernels;
  if (!first) return [];
  return Object.keys(first.metrics)
    .filter((id) => [first, ...rest].every((k) => typeof k.metrics[id] === 'number' && Number.isFinite(k.metrics[id])))
    .sort();
}

export function overviewChart(report: Pick<Report, 'kernels'>): ChartDef | undefined {
  if (report.kernels.length < 2) return undefined;
  const ids = overviewMetrics(report);
  const initial = FIRST_SHOWN.find((id) => ids.includes(id)) ?? ids[0];
  if (initial === undefined) return undefined;
  const values = report.kernels.flatMap((k, launch) =>
    ids.map((metric) => ({ launch, kernel: k.name, metric, unit: metricInfo(metric).unit, value: k.metrics[metric] as number })),
  );
  return {
    id: 'overview',
    kind: 'overview',
    kernelIndex: -1,
    section: 'Overview',
    title: 'Launches',
    spec: {
      $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
      // the chosen metric's id names the chart
      title: { text: { expr: 'metric' } },
      width: 900,
      height: 240,
      config: CHART_CONFIG,
      params: [{ name: 'metric', value: initial, bind: { input: 'select', options: ids, name: 'Metric ' } }],
      data: { values },
      transform: [{ filter: 'datum.metric === metric' }],
      mark: { type: 'line', point: { filled: true, size: 60 } },
      encoding: {
        x: { field: 'launch', type: 'ordinal', title: 'Launch', axis: { labelAngle: 0 } },
        y: { field: 'value', type: 'quantitative', title: null, scale: { zero: false } },
        tooltip: [
          { field: 'launch', title: '#' },
          { field: 'kernel', title: 'Kernel' },
          { field: 'metric', title: 'Metric' },
          { field: 'value', title: 'Value', format: ',.2f' },
          { field: 'unit', title: 'Unit' },
        ],
      },
    },
  };
}
