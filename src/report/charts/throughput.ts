/**
 * GPU Throughput: the Speed-of-Light percentages as horizontal bars (0–100 %), from the
 * SpeedOfLight section's header entries (sections as data: a new % metric there shows up here).
 */
import type { KernelResult } from '../../../types/report.schema.js';
import { appliesTo, sectionById } from '../../metrics/sections.js';
import { CHART_CONFIG, type ChartDef } from './types.js';

export interface ThroughputBar {
  label: string;
  metric: string;
  value: number;
}

export function throughputBars(kernel: Pick<KernelResult, 'metrics'>, cc?: number): ThroughputBar[] {
  const section = sectionById('SpeedOfLight');
  if (!section) return [];
  const bars: ThroughputBar[] = [];
  for (const entry of section.header) {
    if (entry.unit !== '%' || !appliesTo(entry, cc)) continue;
    const v = kernel.metrics[entry.metric];
    if (typeof v === 'number') bars.push({ label: entry.label, metric: entry.metric, value: v });
  }
  return bars;
}

export function throughputChart(kernel: Pick<KernelResult, 'id' | 'metrics'>, cc?: number): ChartDef | undefined {
  const bars = throughputBars(kernel, cc);
  if (bars.length === 0) return undefined;
  return {
    id: `k${kernel.id}-throughput`,
    kind: 'throughput',
    kernelIndex: kernel.id,
    section: 'SpeedOfLight',
    title: 'GPU Throughput',
    spec: {
      $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
      title: 'GPU Throughput',
      width: 520,
      height: { step: 22 },
      config: CHART_CONFIG,
      data: { values: bars.map((b) => ({ ...b, value: Math.round(b.value * 100) / 100 })) },
      layer: [
        {
          mark: { type: 'bar', color: '#4c78a8' },
          encoding: {
            y: { field: 'label', type: 'nominal', sort: null, title: null },
            x: { field: 'value', type: 'quantitative', scale: { domain: [0, 100] }, title: 'Speed Of Light [%]' },
            tooltip: [
              { field: 'label', title: 'Metric' },
              { field: 'metric', title: 'Id' },
              { field: 'value', title: '%', format: '.2f' },
            ],
          },
        },
        {
          mark: { type: 'text', align: 'left', dx: 4 },
          encoding: {
            y: { field: 'label', type: 'nominal', sort: null },
            x: { field: 'value', type: 'quantitative' },
            text: { field: 'value', type: 'quantitative', format: '.2f' },
          },
        },
      ],
    },
  };
}
