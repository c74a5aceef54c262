/**
 * What `profile` and `report` print, from one report and ncu's console flags, so the two commands
 * cannot disagree: `--print-summary`, then `--page session | raw | source | details`, as CSV with
 * `--csv` (base units, as ncu's --csv implies) or as console text.
 */
import type { Report } from '../../types/report.schema.js';

export interface RenderFlags {
  csv: boolean;
  page: 'details' | 'raw' | 'source' | 'session';
  summary: 'none' | 'per-kernel' | 'per-gpu';
  units: 'auto' | 'base';
  metricName: 'label' | 'name' | 'label-name';
  sections?: readonly string[] | undefined;
  metrics?: readonly string[] | undefined;
}

export async function renderReport(report: Report, f: RenderFlags): Promise<string> {
  const pages = await import('../report/pages.js');
  const csv = await import('../report/csv.js');
  const chosen = { ...(f.sections ? { sections: f.sections } : {}), ...(f.metrics ? { metrics: f.metrics } : {}) };
  if (f.summary !== 'none') {
    const perGpu = f.summary === 'per-gpu';
    return f.csv ? pages.writeSummaryCsv(report, { ...chosen, perGpu }) : pages.renderSummary(report, { ...chosen, perGpu, units: f.units, metricName: f.metricName });
  }
  if (f.page === 'session') return f.csv ? pages.writeSessionCsv(report) : pages.renderSessionPage(report);
  if (f.page === 'raw') return f.csv ? csv.writeRawCsv(report) : pages.renderRawPage(report, { units: f.units });
  if (f.page === 'source') return f.csv ? csv.writeSourceCsv(report) : pages.renderSourcePage(report);
  if (f.csv) return csv.writeDetailsCsv(report, csv.detailsSectionsFor(chosen));
  const { renderTerminal } = await import('../report/terminal.js');
  return renderTerminal(report, { ...chosen, units: f.units, metricName: f.metricName });
}
