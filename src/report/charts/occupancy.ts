/**
 * ncu's "% Occupancy Graphs" (nsight-compute.md §1.6): theoretical occupancy as registers per
 * thread, block size, shared memory per block (and block barriers) vary, the others held at the
 * launch's values, with the launch's own point marked. The series come from the arch data's
 * occupancy calculator, recomputed from the report's launch config (`occupancyModel.ts`), which
 * keeps report JSON small; this module only draws them.
 */
import type { KernelResult } from '../../../types/report.schema.js';
import { CHART_CONFIG, type ChartDef } from './types.js';

export interface GraphPoint {
  x: number;
  /** theoretical active warps per SM */
  warps: number;
  /** ncu's % Occupancy at x */
  pct: number;
}

/** One graph's data; structurally the arch calculator's `OccupancySeries`. */
export interface GraphSeries {
  id: string;
  title: string;
  xLabel: string;
  xUnit: string;
  /** the launch's value of x */
  current: number;
  /** the point that stands for the launch */
  currentIndex: number;
  points: readonly GraphPoint[];
}

/** The occupancy graphs' series of a kernel, or undefined when they cannot be computed. */
export type OccupancyGraphs = (kernel: KernelResult) => readonly GraphSeries[] | undefined;

export function occupancyCharts(kernel: Pick<KernelResult, 'id'>, series: readonly GraphSeries[] | undefined): ChartDef[] {
  if (!series) return [];
  return series.map((s) => {
    const here = s.points[s.currentIndex] ?? s.points[0] ?? { x: s.current, warps: 0, pct: 0 };
    const xTitle = s.xUnit === '' ? s.xLabel : `${s.xLabel} [${s.xUnit}]`;
    return {
      id: `k${kernel.id}-occupancy-${s.id.replace(/[^A-Za-z0-9_-]/g, '_')}`,
      kind: 'occupancy' as const,
      kernelIndex: kernel.id,
      section: 'Occupancy',
      title: s.title,
      spec: {
        $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
        title: s.title,
        width: 340,
        height: 200,
        config: CHART_CONFIG,
        encoding: {
          x: { field: 'x', type: 'quantitative', title: xTitle },
          y: { field: 'pct', type: 'quantitative', title: '% Occupancy', scale: { domain: [0, 125] } },
        },
        layer: [
          {
            data: { values: s.points.map((p) => ({ ...p })) },
            mark: { type: 'line', interpolate: 'step-after', color: '#4c78a8' },
            encoding: {
              tooltip: [
                { field: 'x', title: s.xLabel },
                { field: 'pct', title: '% Occupancy' },
                { field: 'warps', title: 'Warps per SM' },
              ],
            },
          },
          {
            data: { values: [{ ...here, x: s.current, label: 'this launch' }] },
            mark: { type: 'point', filled: true, size: 90, color: '#e45756' },
            encoding: {
              tooltip: [
                { field: 'label', title: ' ' },
                { field: 'x', title: s.xLabel },
                { field: 'pct', title: '% Occupancy' },
              ],
            },
          },
          {
            data: { values: [{ ...here, x: s.current, label: `${here.pct}%` }] },
            mark: { type: 'text', dy: -12, color: '#e45756', fontWeight: 'bold' },
            encoding: { text: { field: 'label' } },
          },
        ],
      },
    };
  });
}
