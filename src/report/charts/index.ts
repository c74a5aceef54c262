/**
 * Every chart of a report, in page order: each program's timeline, with several launches one across
 * them, then per kernel throughput, memory chart, occupancy graphs, source heat map, rules. Pure:
 * report (and the occupancy calculator) in, vega-lite specs out.
 */
import type { Report } from '../../../types/report.schema.js';
import { ccNumber } from '../../metrics/sections.js';
import { memoryChart } from './memory.js';
import { occupancyCharts, type OccupancyGraphs } from './occupancy.js';
import { overviewChart } from './overview.js';
import { rulesChart } from './rules.js';
import { scalingCharts } from './scaling.js';
import { sourceChart } from './source.js';
import { throughputChart } from './throughput.js';
import { timelineChart } from './timeline.js';
import type { ChartDef } from './types.js';

export type { ChartDef } from './types.js';
export type { GraphSeries, OccupancyGraphs } from './occupancy.js';

export interface ChartOptions {
  /** the occupancy graphs' series per kernel (the arch calculator's); without it there are none */
  readonly occupancy?: OccupancyGraphs;
}

export function buildCharts(report: Report, opts: ChartOptions = {}): ChartDef[] {
  const cc = ccNumber(report.device.cc);
  // builders name charts `k<id>-…`; give them the position so ids stay unique in merged reports
  const programs = (report.programs ?? []).map((_, index) => timelineChart(report, index));
  const perKernel = report.kernels.flatMap((kernel, index) => {
    const k = { ...kernel, id: index };
    return [throughputChart(k, cc), memoryChart(k), ...occupancyCharts(k, opts.occupancy?.(kernel)), sourceChart(k), rulesChart(k)].filter(
      (c): c is ChartDef => c !== undefined,
    );
  });
  // several launches: the chart across them comes first (after the programs' timelines)
  const overview = overviewChart(report);
  return [...programs, ...scalingCharts(report), ...(overview ? [overview] : []), ...perKernel];
}
