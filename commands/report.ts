import { Args, Flags } from '@oclif/core';
import type { Report } from '../types/report.schema.js';
import { WarpsightCommand } from '../src/cli/base.js';
import { checkWritable } from '../src/cli/output.js';
import { UserError } from '../src/errors.js';

export default class ReportCommand extends WarpsightCommand {
  static override summary = 'Render a saved report (profile -o) again: terminal, HTML, charts or CSV';
  static override description = `Reads a Warpsight report JSON and renders it the way \`profile\` would have, without running anything: the console report by default, --html for a self-contained page with charts, --charts for SVG and PNG files, --csv in ncu's CSV shapes.`;
  static override examples = [
    '<%= config.bin %> report out/transpose.json',
    '<%= config.bin %> report out/transpose.json --html out/transpose.html',
    '<%= config.bin %> report out/transpose.json --charts out/charts',
    '<%= config.bin %> report out/transpose.json --csv --page raw > transpose.csv',
  ];
  static override enableJsonFlag = true;
  static override args = {
    file: Args.string({ required: true, description: 'report JSON written by `profile -o`' }),
  };
  static override flags = {
    section: Flags.string({ multiple: true, description: 'ncu section identifier to show (repeatable)' }),
    html: Flags.string({ description: 'write a self-contained HTML report with charts to this file' }),
    charts: Flags.string({ description: 'write every chart as SVG and PNG into this folder' }),
    csv: Flags.boolean({ description: "print CSV in ncu's shapes instead of the console report" }),
    page: Flags.option({ options: ['details', 'raw', 'source'] as const, default: 'details', description: 'CSV page (with --csv)' })(),
  };

  async run(): Promise<Report> {
    const { args, flags } = await this.parse(ReportCommand);
    const { readReport } = await import('../src/report/schema.js');
    const { sectionById } = await import('../src/metrics/sections.js');
    for (const s of flags.section ?? [])
      if (!sectionById(s)) throw new UserError(`--section ${s}: unknown section; try LaunchStats, Occupancy, SpeedOfLight, MemoryWorkloadAnalysis, MemoryWorkloadAnalysis_Tables, SchedulerStats, WarpStateStats, InstructionStats, SourceCounters`, 2);
    if (flags.html !== undefined) checkWritable('--html', flags.html);
    if (flags.charts !== undefined) checkWritable('--charts', flags.charts, 'folder');
    const report = readReport(args.file);
    if (flags.html !== undefined || flags.charts !== undefined) {
      const { writeReportOutputs } = await import('../src/report/html/outputs.js');
      const said = await writeReportOutputs(report, { ...(flags.html !== undefined ? { html: flags.html } : {}), ...(flags.charts !== undefined ? { charts: flags.charts } : {}), ...(flags.section ? { sections: flags.section } : {}) });
      if (!this.jsonEnabled()) for (const line of said) process.stderr.write(`${line}\n`);
    }
    if (this.jsonEnabled()) return report;
    if (flags.csv) {
      const csv = await import('../src/report/csv.js');
      process.stdout.write(flags.page === 'raw' ? csv.writeRawCsv(report) : flags.page === 'source' ? csv.writeSourceCsv(report) : csv.writeDetailsCsv(report));
      return report;
    }
    // the files are what was asked for: print the console report only when nothing else was
    if (flags.html === undefined && flags.charts === undefined) {
      const { renderTerminal } = await import('../src/report/terminal.js');
      process.stdout.write(renderTerminal(report, flags.section ? { sections: flags.section } : {}));
    }
    return report;
  }
}
