/**
 * `--html`: a report to one self-contained HTML file. Builds the charts (with the report GPU's
 * occupancy calculator), compiles them to vega here in Node, inlines the bundles, assembles the
 * page. Heavy (vega, vega-lite): import this module lazily.
 */
import { compile } from 'vega-lite';
import type { Report } from '../../../types/report.schema.js';
import { buildCharts, type ChartDef, type OccupancyGraphs } from '../charts/index.js';
import { loadBundles } from './bundles.js';
import { buildPage, type PageOptions } from './page.js';

export interface HtmlOptions extends PageOptions {
  /** override the occupancy graphs (tests); default: the report GPU's calculator; null: none */
  readonly occupancy?: OccupancyGraphs | null;
}

/** The report's charts, with the arch calculator's occupancy graphs unless told otherwise (null: none). */
export async function reportCharts(report: Report, occupancy?: OccupancyGraphs | null): Promise<{ charts: ChartDef[]; notes: string[] }> {
  const notes: string[] = [];
  let graphs: OccupancyGraphs | undefined;
  if (occupancy === undefined) {
    const { occupancyGraphsFor } = await import('../charts/occupancyModel.js');
    const found = occupancyGraphsFor(report);
    graphs = found.graphs;
    if (found.note) notes.push(found.note);
  } else {
    graphs = occupancy ?? undefined;
  }
  return { charts: buildCharts(report, graphs ? { occupancy: graphs } : {}), notes };
}

export async function renderHtml(report: Report, opts: HtmlOptions = {}): Promise<string> {
  const { charts, notes } = await reportCharts(report, opts.occupancy);
  const compiled = charts.map((def) => ({ def, vega: compile(def.spec).spec }));
  return buildPage(report, compiled, loadBundles(), { ...opts, notes: [...(opts.notes ?? []), ...notes] });
}
