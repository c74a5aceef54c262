import { existsSync } from 'node:fs';
import { Args, Flags } from '@oclif/core';
import type { Report } from '../types/report.schema.js';
import { WarpsightCommand, kernelJobsFlag } from '../src/cli/base.js';
import { checkProfileFlags, parseDim3, parseParams } from '../src/cli/flags.js';
import { checkWritable, writeOutput } from '../src/cli/output.js';
import { UserError } from '../src/errors.js';
import type { MetricListing, SectionListing, SetListing } from '../src/report/pages.js';
import { TIMING_ONLY } from '../src/timing/only.js';

type Listing = { sets: SetListing[] } | { sections: SectionListing[] } | { metrics: MetricListing[] };

export default class Profile extends WarpsightCommand {
  static override summary = 'Profile a kernel file on the emulated GPU and print what Nsight Compute would';
  static override description = `Runs every kernel (or program) of the file — or those chosen with -k / --kernel-id, -s and -c — warp by warp on the emulated GPU, and prints ncu's sections and the rules that fire. The kernel file is TypeScript importing from 'warpsight' (see kernels/ for examples). The flags are ncu's where they mean something for an emulator: --set / --section / --metrics choose what is collected (console, CSV and JSON alike), --page details|raw|source|session, --print-summary, --print-units, --print-metric-name; the exit status is 1 when a kernel computes a wrong result (--no-check-exit-code: 0). A progress line per launch goes to stderr on a terminal (plain lines when CI is set). --explain <file:line> prints, after the report, each memory instruction of the line as one warp ran it: its lanes mapped to the 32-byte sectors (global) or the banks and distinct words (shared) they touch, with the ideal count (in the JSON as kernels[].explain; an --html page explains every memory line). For data races, scope races, polled plain flags and uninitialised reads (compute-sanitizer's racecheck, synccheck, initcheck, memcheck) run \`warpsight check\` on the same file.`;
  static override examples = [
    '<%= config.bin %> profile kernels/global_loads.ts -k g_ld_u32_stride32',
    '<%= config.bin %> profile kernels/transpose.ts --section MemoryWorkloadAnalysis_Tables --section SourceCounters',
    '<%= config.bin %> profile kernels/global_loads.ts --set basic --kernel-id ::regex:^g_ld_u32:1',
    '<%= config.bin %> profile kernels/l2_persistence.ts -k l2_plain --cache-control none -s 2 -c 3 --print-summary per-kernel',
    '<%= config.bin %> profile kernels/global_loads.ts -k g_ld_u8_coalesced --metrics l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum --csv --page raw',
    '<%= config.bin %> profile kernels/global_stores.ts -o report.json --html report.html',
    '<%= config.bin %> profile kernels/global_loads.ts --jobs 2',
    '<%= config.bin %> profile kernels/transpose.ts -k sh_transpose_32x32_bd32x32 --section SourceCounters --explain 62',
    '<%= config.bin %> profile --query-metrics',
  ];
  static override enableJsonFlag = true;
  static override args = {
    // optional for the listings (--list-sets, --list-sections, --query-metrics); checked in run()
    file: Args.string({ description: 'kernel file (.ts)' }),
  };
  static override flags = {
    'kernel-name': Flags.string({ char: 'k', aliases: ['kernel'], multiple: true, description: 'kernel or program name to profile (repeatable; regex:<expr> matches)' }),
    'kernel-id': Flags.string({ description: 'one launch as ncu names it: context:stream:[regex:]name:invocation, parts may be empty (::g_ld_u32_stride32:1)' }),
    'launch-skip': Flags.integer({ char: 's', min: 0, description: 'skip this many matching launches before profiling' }),
    'launch-count': Flags.integer({ char: 'c', min: 1, description: 'profile at most this many matching launches (the run stops after them)' }),
    arch: Flags.string({ default: 'h200', description: 'GPU to emulate: h200, h100, a100, or an H200 MIG instance h200-mig-1g|2g|3g|4g|7g' }),
    param: Flags.string({ multiple: true, description: 'scalar kernel parameter, name=value (repeatable)' }),
    grid: Flags.string({ description: 'override the grid, x[,y[,z]]' }),
    block: Flags.string({ description: 'override the block, x[,y[,z]]' }),
    set: Flags.string({ description: 'section set to collect: basic, detailed, full (default: every section; see --list-sets)' }),
    section: Flags.string({ multiple: true, description: 'ncu section identifier to collect (repeatable), e.g. LaunchStats, MemoryWorkloadAnalysis_Tables, SourceCounters' }),
    metrics: Flags.string({ description: 'comma-separated ncu metric ids to collect (alone: instead of sections)' }),
    'list-sets': Flags.boolean({ description: 'list the section sets and exit' }),
    'list-sections': Flags.boolean({ description: 'list the sections and exit' }),
    'query-metrics': Flags.boolean({ description: 'list the metric ids Warpsight knows, with units and descriptions, and exit (--metrics filters by substring)' }),
    output: Flags.string({ char: 'o', description: 'write the report as JSON to this file (refuses to overwrite without -f)' }),
    force: Flags.boolean({ char: 'f', description: 'overwrite the -o and --html files if they exist' }),
    html: Flags.string({ description: 'write a self-contained HTML report with charts to this file' }),
    charts: Flags.string({ description: 'write every chart as SVG and PNG into this folder' }),
    csv: Flags.boolean({ description: "print CSV in ncu's shapes instead of the console report (base units)" }),
    page: Flags.option({ options: ['details', 'raw', 'source', 'session'] as const, default: 'details', description: 'page to print: details (sections and rules), raw (every metric), source (per instruction, with file:line), session (run and device)' })(),
    'print-summary': Flags.option({ options: ['none', 'per-kernel', 'per-gpu'] as const, default: 'none', description: 'instead of each launch: per kernel (name, grid, block) or for the whole run, the minimum, maximum and average of each metric' })(),
    'print-units': Flags.option({ options: ['auto', 'base'] as const, default: 'auto', description: 'auto: scale units (1.02 Kbyte); base: the base unit (1,024 byte)' })(),
    'print-metric-name': Flags.option({ options: ['label', 'name', 'label-name'] as const, default: 'label', description: 'show metrics by label, by metric id, or both' })(),
    'check-exit-code': Flags.boolean({ default: true, allowNo: true, description: 'exit 1 when a kernel computes a wrong result (its check fails)' }),
    'cache-control': Flags.option({ options: ['all', 'none'] as const, default: 'all', description: 'all: flush caches before each launch (ncu default); none: keep L2 between launches' })(),
    explore: Flags.boolean({ description: "also run programs under every schedule the CUDA runtime may legally choose (one in-order hardware queue, reversed start order): a deadlock in any is an error naming the schedule" }),
    'share-gpu': Flags.option({ options: ['mps', 'timeslice'] as const, description: "run a multi-PE program's PEs as processes on one GPU: through MPS (their kernels share the SMs) or time-sliced without it (one process's kernels at a time)" })(),
    pes: Flags.string({ description: "run a multi-PE program on this many PEs (GPUs, 1-8), once per PE as nvshmrun -np N (overrides its pes); a list (1,2,4,8) runs it on each count and adds a strong-scaling table and chart" }),
    'pes-per-node': Flags.integer({ min: 1, max: 8, description: "PEs per node: a multi-PE program's PEs span nodes (PE q on node floor(q / K)), NVLink within a node, InfiniBand NDR between nodes (overrides the program's pesPerNode)" }),
    transport: Flags.option({ options: ['ibrc', 'ibgda'] as const, description: "NVSHMEM's transport between nodes: ibrc, a CPU proxy thread posts every message (NVSHMEM's default); ibgda, GPU threads post to the NIC (NVSHMEM_IB_ENABLE_IBGDA=1)" })(),
    'hw-queues': Flags.integer({ min: 1, max: 32, description: 'hardware work queues of a program\'s GPU (CUDA_DEVICE_MAX_CONNECTIONS; default 8)' }),
    trace: Flags.string({ description: 'write the programs\' timelines in the Chrome Trace Event Format (Perfetto, chrome://tracing) to this file' }),
    explain: Flags.string({
      multiple: true,
      description: "explain a number: one warp's lanes mapped to the sectors (global) or banks (shared) of each memory instruction of a line: file:line, a line of the kernel file, or all (repeatable)",
    }),
    'max-warp-instructions': Flags.integer({ min: 1, default: 50_000_000, description: 'instructions one warp may execute before the run stops as a runaway loop' }),
    sample: Flags.boolean({
      description:
        "sampled simulation for big grids (TBPoint/Sieve-style): run ~6 % of a kernel's blocks (two windows of consecutive blocks in each of 2 strata of the grid) in full detail on a slice of 8 of the GPU's SMs, and extrapolate the counters; the report says it was sampled, with an error bound per counter class. The other blocks are not run: the kernel's check is skipped. Grids under ~2 waves per slice SM, programs' launches and cooperative launches run exact",
    }),
    jobs: kernelJobsFlag,
    timing: Flags.boolean({
      default: true,
      allowNo: true,
      description: `run the timing model; --no-timing leaves out ${TIMING_ONLY} (every counter stays the same) and profiles a memory-bound kernel about a quarter faster`,
    }),
  };

  async run(): Promise<Report | Listing> {
    const { args, flags } = await this.parse(Profile);
    const metrics = flags.metrics?.split(',').map((s) => s.trim()).filter(Boolean);
    const pages = await import('../src/report/pages.js');
    // the listings need no kernel file
    if (flags['list-sets'] || flags['list-sections'] || flags['query-metrics']) {
      const { getArch } = await import('../src/arch/index.js');
      const listing: Listing = flags['list-sets']
        ? { sets: pages.listSets() }
        : flags['list-sections']
          ? { sections: pages.listSections() }
          : { metrics: pages.listMetrics(metrics ?? []) };
      if (!this.jsonEnabled())
        process.stdout.write(
          'sets' in listing ? pages.renderSets(listing.sets) : 'sections' in listing ? pages.renderSections(listing.sections) : pages.renderMetrics(listing.metrics, getArch(flags.arch).name),
        );
      return listing;
    }
    if (args.file === undefined) throw new UserError('missing the kernel file: warpsight profile <file.ts> (see `warpsight kernels`)', 2);
    checkProfileFlags({ ...(flags['kernel-name'] ? { kernel: flags['kernel-name'] } : {}), ...(metrics ? { metricIds: metrics } : {}), output: flags.output, html: flags.html, charts: flags.charts });
    if (flags.trace !== undefined) checkWritable('--trace', flags.trace);
    const { checkExplainFiles, parseExplainTargets, selectExplain } = await import('../src/report/explain.js');
    const explain = flags.explain ? parseExplainTargets(flags.explain) : null;
    if (explain !== null) checkExplainFiles(explain);
    const { sectionById, sectionSet, SECTION_SETS } = await import('../src/metrics/sections.js');
    for (const s of flags.section ?? [])
      if (!sectionById(s)) throw new UserError(`--section ${s}: unknown section; try LaunchStats, Occupancy, SpeedOfLight, MemoryWorkloadAnalysis, MemoryWorkloadAnalysis_Tables, SchedulerStats, WarpStateStats, InstructionStats, SourceCounters (see --list-sections)`, 2);
    let sections = flags.section;
    if (flags.set !== undefined) {
      const set = sectionSet(flags.set);
      if (!set) throw new UserError(`--set ${flags.set}: unknown section set; use ${SECTION_SETS.map((s) => s.id).join(', ')} (see --list-sets)`, 2);
      sections = [...new Set([...set.sections, ...(sections ?? [])])];
    }
    // before minutes of emulation: an existing file is not overwritten unless asked
    for (const [flag, file] of [['-o', flags.output], ['--html', flags.html]] as const)
      if (file !== undefined && !flags.force && existsSync(file)) throw new UserError(`${flag} ${file}: the file exists; pass -f (--force) to overwrite it, or choose another name`, 2);
    const { parseKernelId } = await import('../src/cli/launches.js');
    const { createProgress, isInteractive } = await import('../src/bench/progress.js');
    // a bar on a terminal, plain lines in CI logs, nothing in a pipe (stdout is the result either way)
    const ci = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false';
    const progress = isInteractive(process.stderr, process.env) || ci ? createProgress(process.stderr, process.env, 'profile') : undefined;
    const { profileFile } = await import('../src/profile.js');
    const full = await profileFile({
      file: args.file,
      ...(flags['kernel-name'] ? { kernel: flags['kernel-name'] } : {}),
      arch: flags.arch,
      params: parseParams(flags.param),
      ...(flags.grid !== undefined ? { grid: parseDim3('grid', flags.grid) } : {}),
      ...(flags.block !== undefined ? { block: parseDim3('block', flags.block) } : {}),
      cacheControl: flags['cache-control'],
      maxWarpInstructions: flags['max-warp-instructions'],
      timing: flags.timing,
      ...(flags.sample ? { sample: true } : {}),
      ...(flags['hw-queues'] !== undefined ? { hwQueues: flags['hw-queues'] } : {}),
      ...(flags.pes !== undefined ? { pes: parsePes(flags.pes) } : {}),
      ...(flags['share-gpu'] !== undefined ? { shareGpu: flags['share-gpu'] } : {}),
      ...(flags['pes-per-node'] !== undefined ? { pesPerNode: flags['pes-per-node'] } : {}),
      ...(flags.transport !== undefined ? { transport: flags.transport } : {}),
      ...(flags.explore ? { explore: true } : {}),
      ...this.jobsOf(flags.jobs),
      launches: {
        ...(flags['kernel-id'] !== undefined ? { kernelId: parseKernelId(flags['kernel-id']) } : {}),
        ...(flags['launch-skip'] !== undefined ? { skip: flags['launch-skip'] } : {}),
        ...(flags['launch-count'] !== undefined ? { count: flags['launch-count'] } : {}),
      },
      ...(progress ? { progress } : {}),
      // the page's source lines are all clickable: it explains every memory line (a capture per
      // instruction, nothing a normal run pays for)
      ...(explain !== null ? { explain } : flags.html !== undefined ? { explain: 'all' as const } : {}),
    });
    if (full.kernels.length === 0 && !full.programs?.length) throw new UserError(`no launch of ${args.file} matches the launch filters (-k, --kernel-id, -s, -c)`);
    const { checkReport, reportJson } = await import('../src/report/schema.js');
    const { selectReport } = await import('../src/report/select.js');
    const { withUnits } = await import('../src/metrics/units.js');
    // what was collected, as one report for the console, CSV, JSON and -o; units for every metric in it
    // the console and the JSON carry the explanations asked for, the page all it has
    const report = withUnits(selectReport(selectExplain(full, explain, args.file), { ...(sections ? { sections } : {}), ...(metrics ? { metrics } : {}) }));
    checkReport(report, 'the generated report');
    if (flags.output !== undefined) writeOutput('--output (-o)', flags.output, reportJson(report));
    if (flags.trace !== undefined) {
      if (!report.programs?.length) throw new UserError(`--trace ${flags.trace}: the profiled file ran no program, so there is no timeline to write; --trace needs a program (defineProgram)`, 2);
      const { traceEvents } = await import('../src/report/trace.js');
      writeOutput('--trace', flags.trace, `${JSON.stringify(traceEvents(report))}\n`);
    }
    if (flags.html !== undefined || flags.charts !== undefined) {
      const { writeReportOutputs } = await import('../src/report/html/outputs.js');
      const said = await writeReportOutputs(full, {
        ...(flags.html !== undefined ? { html: flags.html } : {}),
        ...(flags.charts !== undefined ? { charts: flags.charts } : {}),
        ...(sections ? { sections } : {}),
      });
      // stderr: stdout stays the console report (or CSV / JSON) it always is
      if (!this.jsonEnabled()) for (const line of said) process.stderr.write(`${line}\n`);
    }
    const wrong = report.kernels.filter((k) => k.check && !k.check.passed);
    // exit 1 (not a usage error): the kernel ran and computed a wrong result, as an application's
    // non-zero exit under ncu --check-exit-code yes
    if (flags['check-exit-code'] && wrong.length > 0) process.exitCode = 1;
    if (this.jsonEnabled()) return report;
    const { renderReport } = await import('../src/cli/render.js');
    process.stdout.write(
      await renderReport(report, { csv: flags.csv, page: flags.page, summary: flags['print-summary'], units: flags['print-units'], metricName: flags['print-metric-name'], sections, metrics }),
    );
    for (const k of wrong) this.warn(`kernel '${k.name}' computed a wrong result: ${k.check?.message ?? ''}`);
    return report;
  }
}

/** --pes: one count or a comma list, each 1..8 */
function parsePes(raw: string): number | number[] {
  const parts = raw.split(',').map((x) => x.trim());
  const counts = parts.map((x) => (/^\d+$/.test(x) ? Number(x) : NaN));
  const bad = parts.find((_, i) => !(Number.isInteger(counts[i]) && (counts[i] as number) >= 1 && (counts[i] as number) <= 8));
  if (bad !== undefined) throw new UserError(`--pes ${raw}: '${bad}' is not a PE count from 1 to 8; give one count or a list such as 1,2,4,8`, 2);
  return counts.length === 1 ? (counts[0] as number) : counts;
}
