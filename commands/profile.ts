import { Args, Flags } from '@oclif/core';
import type { Report } from '../types/report.schema.js';
import { WarpsightCommand } from '../src/cli/base.js';
import { checkProfileFlags, parseDim3, parseParams } from '../src/cli/flags.js';
import { writeOutput } from '../src/cli/output.js';
import { UserError } from '../src/errors.js';
import { TIMING_ONLY } from '../src/timing/only.js';

export default class Profile extends WarpsightCommand {
  static override summary = 'Profile a kernel file on the emulated GPU and print what Nsight Compute would';
  static override description = `Runs every kernel (or program) of the file — or those chosen with -k — warp by warp on the emulated GPU, and prints ncu's sections and the rules that fire. The kernel file is TypeScript built with Warpsight's IR builder (see kernels/ for examples).`;
  static override examples = [
    '<%= config.bin %> profile kernels/global_loads.ts -k g_ld_u32_stride32',
    '<%= config.bin %> profile kernels/transpose.ts --section MemoryWorkloadAnalysis_Tables --section SourceCounters',
    '<%= config.bin %> profile kernels/global_loads.ts -k g_ld_u8_coalesced --metrics l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum --json',
    '<%= config.bin %> profile kernels/global_stores.ts -o report.json --html report.html',
  ];
  static override enableJsonFlag = true;
  static override args = {
    file: Args.string({ required: true, description: 'kernel file (.ts)' }),
  };
  static override flags = {
    kernel: Flags.string({ char: 'k', multiple: true, description: 'kernel or program name to profile (repeatable; regex:<expr> matches)' }),
    arch: Flags.string({ default: 'h200', description: 'GPU to emulate: h200, h100, a100' }),
    param: Flags.string({ multiple: true, description: 'scalar kernel parameter, name=value (repeatable)' }),
    grid: Flags.string({ description: 'override the grid, x[,y[,z]]' }),
    block: Flags.string({ description: 'override the block, x[,y[,z]]' }),
    section: Flags.string({ multiple: true, description: 'ncu section identifier to print (repeatable), e.g. LaunchStats, MemoryWorkloadAnalysis_Tables, SourceCounters' }),
    metrics: Flags.string({ description: 'comma-separated ncu metric ids to print instead of sections' }),
    output: Flags.string({ char: 'o', description: 'write the report as JSON to this file' }),
    html: Flags.string({ description: 'write a self-contained HTML report with charts to this file' }),
    charts: Flags.string({ description: 'write every chart as SVG and PNG into this folder' }),
    csv: Flags.boolean({ description: 'print CSV in ncu\'s shapes instead of the console report' }),
    page: Flags.option({ options: ['details', 'raw', 'source'] as const, default: 'details', description: 'CSV page (with --csv)' })(),
    'cache-control': Flags.option({ options: ['all', 'none'] as const, default: 'all', description: 'all: flush caches before each launch (ncu default); none: keep L2 between launches' })(),
    'max-warp-instructions': Flags.integer({ min: 1, default: 50_000_000, description: 'instructions one warp may execute before the run stops as a runaway loop' }),
    timing: Flags.boolean({
      default: true,
      allowNo: true,
      description: `run the timing model; --no-timing leaves out ${TIMING_ONLY} (every counter stays the same) and profiles a memory-bound kernel about a quarter faster`,
    }),
  };

  async run(): Promise<Report> {
    const { args, flags } = await this.parse(Profile);
    const metrics = flags.metrics?.split(',').map((s) => s.trim()).filter(Boolean);
    checkProfileFlags({ ...flags, ...(metrics ? { metricIds: metrics } : {}) });
    const { profileFile } = await import('../src/profile.js');
    const { sectionById } = await import('../src/metrics/sections.js');
    for (const s of flags.section ?? [])
      if (!sectionById(s)) throw new UserError(`--section ${s}: unknown section; try LaunchStats, Occupancy, SpeedOfLight, MemoryWorkloadAnalysis, MemoryWorkloadAnalysis_Tables, SchedulerStats, WarpStateStats, InstructionStats, SourceCounters`, 2);
    const report = await profileFile({
      file: args.file,
      ...(flags.kernel ? { kernel: flags.kernel } : {}),
      arch: flags.arch,
      params: parseParams(flags.param),
      ...(flags.grid !== undefined ? { grid: parseDim3('grid', flags.grid) } : {}),
      ...(flags.block !== undefined ? { block: parseDim3('block', flags.block) } : {}),
      cacheControl: flags['cache-control'],
      maxWarpInstructions: flags['max-warp-instructions'],
      timing: flags.timing,
      ...(flags.section ? { sections: flags.section } : {}),
      ...(metrics ? { metrics } : {}),
    });
    const { checkReport, reportJson } = await import('../src/report/schema.js');
    checkReport(report, 'the generated report');
    if (flags.output !== undefined) writeOutput('--output (-o)', flags.output, reportJson(report));
    if (flags.html !== undefined || flags.charts !== undefined) {
      const { writeReportOutputs } = await import('../src/report/html/outputs.js');
      const said = await writeReportOutputs(report, {
        ...(flags.html !== undefined ? { html: flags.html } : {}),
        ...(flags.charts !== undefined ? { charts: flags.charts } : {}),
        ...(flags.section ? { sections: flags.section } : {}),
      });
      // stderr: stdout stays the console report (or CSV / JSON) it always is
      if (!this.jsonEnabled()) for (const line of said) process.stderr.write(`${line}\n`);
    }
    if (this.jsonEnabled()) return report;
    if (flags.csv) {
      const csv = await import('../src/report/csv.js');
      const text = flags.page === 'raw' ? csv.writeRawCsv(report) : flags.page === 'source' ? csv.writeSourceCsv(report) : csv.writeDetailsCsv(report);
      process.stdout.write(text);
      return report;
    }
    const { renderTerminal } = await import('../src/report/terminal.js');
    process.stdout.write(renderTerminal(report, { ...(flags.section ? { sections: flags.section } : {}), ...(metrics ? { metrics } : {}) }));
    for (const k of report.kernels) if (k.check && !k.check.passed) this.warn(`kernel '${k.name}' computed a wrong result: ${k.check.message ?? ''}`);
    return report;
  }
}
