import { Args, Flags } from '@oclif/core';
import type { Report } from '../types/report.schema.js';
import { WarpsightCommand } from '../src/cli/base.js';
import { checkWritable } from '../src/cli/output.js';
import { UserError } from '../src/errors.js';

export default class ReportCommand extends WarpsightCommand {
  static override summary = 'Render a saved report (profile -o) again: terminal, HTML, charts or CSV';
  static override description = `Reads a Warpsight report JSON and renders it the way \`profile\` would have, without running anything: the console report by default (any --page, --print-summary, --print-units, --print-metric-name), --html for a self-contained page with charts, --charts for SVG and PNG files, --csv in ncu's CSV shapes; --section / --metrics select what all of them show.`;
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
    metrics: Flags.string({ description: 'comma-separated metric ids to show (alone: instead of sections)' }),
    page: Flags.option({ options: ['details', 'raw', 'source', 'session'] as const, default: 'details', description: 'page to print: details, raw (every metric), source (per instruction, with file:line), session' })(),
    'print-summary': Flags.option({ options: ['none', 'per-kernel', 'per-gpu'] as const, default: 'none', description: 'minimum, maximum and average per kernel or for the whole run instead of each launch' })(),
    'print-units': Flags.option({ options: ['auto', 'base'] as const, default: 'auto', description: 'auto: scale units; base: the base unit' })(),
    'print-metric-name': Flags.option({ options: ['label', 'name', 'label-name'] as const, default: 'label', description: 'show metrics by label, by metric id, or both' })(),
  };

  async run(): Promise<Report> {
    const { args, flags } = await this.parse(ReportCommand);
    const { readReport } = await import('../src/report/schema.js');
    const { sectionById } = await import('../src/metrics/sections.js');
    for (const s of flags.section ?? [])
      if (!sectionById(s)) throw new UserError(`--section ${s}: unknown section; try LaunchStats, Occupancy, SpeedOfLight, MemoryWorkloadAnalysis, MemoryWorkloadAnalysis_Tables, SchedulerStats, WarpStateStats, InstructionStats, SourceCounters`, 2);
    if (flags.html !== undefined) checkWritable('--html', flags.html);
    if (flags.charts !== undefined) checkWritable('--charts', flags.charts, 'folder');
    const metrics = flags.metrics?.split(',').map((x) => x.trim()).filter(Boolean);
    const saved = readReport(args.file);
    // the same selection profile makes: console, CSV and JSON show what --section / --metrics name
    const { selectReport } = await import('../src/report/select.js');
    const report = selectReport(saved, { ...(flags.section ? { sections: flags.section } : {}), ...(metrics ? { metrics } : {}) });
    if (flags.html !== undefined || flags.charts !== undefined) {
      const { writeReportOutputs } = await import('../src/report/html/outputs.js');
      const said = await writeReportOutputs(saved, { ...(flags.html !== undefined ? { html: flags.html } : {}), ...(flags.charts !== undefined ? { charts: flags.charts } : {}), ...(flags.section ? { sections: flags.section } : {}) });
      if (!this.jsonEnabled()) for (const line of said) process.stderr.write(`${line}\n`);
    }
    if (this.jsonEnabled()) return report;
    // the files are what was asked for: print the console report only when nothing else was
    if (flags.csv || (flags.html === undefined && flags.charts === undefined)) {
      const { renderReport } = await import('../src/cli/render.js');
      process.stdout.write(
        await renderReport(report, {
          csv: flags.csv,
          page: flags.page,
          summary: flags['print-summary'],
          units: flags['print-units'],
          metricName: flags['print-metric-name'],
          sections: flags.section ?? saved.options.sections,
          metrics: metrics ?? saved.options.metrics,
        }),
      );
    }
    return report;
  }
}
