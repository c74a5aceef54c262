/**
 * What `--html FILE` and `--charts DIR` write, shared by `profile` and `report` so the two cannot
 * disagree. Heavy: import lazily.
 */
import type { Report } from '../../../types/report.schema.js';
import { makeFolders, writeOutput } from '../../cli/output.js';
import { UserError } from '../../errors.js';
import { reportCharts, renderHtml } from './index.js';

export interface OutputRequest {
  html?: string;
  charts?: string;
  sections?: readonly string[];
}

/** Writes the requested files; returns a line per file (or folder) for the user. */
export async function writeReportOutputs(report: Report, req: OutputRequest): Promise<string[]> {
  const said: string[] = [];
  if (req.html !== undefined) {
    const html = await renderHtml(report, req.sections ? { sections: req.sections } : {});
    writeOutput('--html', req.html, html);
    said.push(`HTML report: ${req.html}`);
  }
  if (req.charts !== undefined) {
    const { charts, notes } = await reportCharts(report);
    const { writeChartFiles } = await import('../charts/render.js');
    // one folder at a time, each failure named (Node's recursive mkdir can spin forever under /proc)
    makeFolders('--charts', req.charts, req.charts);
    let files: string[];
    try {
      files = await writeChartFiles(charts, req.charts);
    } catch (e) {
      if (e instanceof UserError) throw e;
      const code = (e as NodeJS.ErrnoException).code;
      if (code) throw new UserError(`--charts ${req.charts}: cannot write there (${code})`);
      throw e;
    }
    said.push(`charts: ${files.length / 2} charts as SVG and PNG in ${req.charts}`, ...notes);
  }
  return said;
}
