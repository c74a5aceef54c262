/**
 * A chart of a report: a vega-lite spec built from one kernel's (or program's) data, with where it belongs.
 * Builders are pure (report in, spec out); compiling and rendering live in `render.ts`.
 */
import type { TopLevelSpec } from 'vega-lite';

export type ChartKind = 'throughput' | 'memory' | 'occupancy' | 'source' | 'rules' | 'overview' | 'timeline' | 'scaling';

export interface ChartDef {
  /** unique in a report and safe in an id attribute or a file name: `k0-throughput` */
  readonly id: string;
  readonly kind: ChartKind;
  /** the kernel's position in report.kernels (ids may repeat in merged reports; positions do not); -1: the whole report or a program */
  readonly kernelIndex: number;
  /** a program's chart (its timeline): the program's position in report.programs */
  readonly programIndex?: number;
  /** ncu section identifier the chart belongs to (`Rules` for the rules chart, `Overview` for the launches') */
  readonly section: string;
  readonly title: string;
  readonly spec: TopLevelSpec;
}

/** Look shared by every chart: DejaVu Sans first (the font the PNGs bundle), no border. */
export const CHART_CONFIG = {
  font: 'DejaVu Sans, Verdana, sans-serif',
  view: { stroke: null },
  axis: { labelFontSize: 11, titleFontSize: 11 },
  title: { fontSize: 13, anchor: 'start' as const },
  background: 'white',
};
