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
  if (f.csv) {
    if (f.page === 'session') return pages.writeSessionCsv(report);
    if (f.page === 'raw') return csv.writeRawCsv(report);
    if (f.page === 'source') return csv.writeSourceCsv(report);
    return csv.writeDetailsCsv(report, csv.detailsSectionsFor(chosen));
  }
  // --explain's lane maps follow the page they explain (CSV has no place for them: the JSON has)
  const { renderExplain } = await import('../report/explain.js');
  if (f.page === 'session') return pages.renderSessionPage(report);
  if (f.page === 'raw') return pages.renderRawPage(report, { units: f.units }) + renderExplain(report);
  if (f.page === 'source') return pages.renderSourcePage(report) + renderExplain(report);
  const { renderTerminal } = await import('../report/terminal.js');
  return renderTerminal(report, { ...chosen, units: f.units, metricName: f.metricName }) + renderExplain(report);
}
