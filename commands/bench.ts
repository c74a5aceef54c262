import { existsSync } from 'node:fs';
import { Args, Flags } from '@oclif/core';
import { WarpsightCommand } from '../src/cli/base.js';
import { checkWritable, writeOutput } from '../src/cli/output.js';
import { EXIT, UserError, escapeControl } from '../src/errors.js';

interface BenchResult {
  passed: boolean;
  updated: boolean;
  regressions: number;
  unmatched: number;
  report: string;
}

const writeFile = writeOutput;

export default class Bench extends WarpsightCommand {
  static override summary = 'Profile the kernel suite and compare it with the committed baseline; exit 1 on a regression';
  static override description = `Profiles every kernel of the suite (reports/bench-suite.json: file, kernel, parameters, and the per-metric thresholds in %: a number fails a change in the metric's worse direction, "+5%" / "-5%" / "±5%" a rise / fall / either), writes the fresh report, and compares it with the baseline like \`warpsight compare\`. A crossed threshold, a kernel missing from either side, or a kernel computing a wrong result fails the run (exit 1). --markdown and --junit write a summary and JUnit XML for CI; --update rewrites the baseline instead of comparing. Kernel names given as arguments run only those suite entries.`;
  static override examples = [
    '<%= config.bin %> bench --baseline reports/baseline.json',
    '<%= config.bin %> bench --baseline reports/baseline.json --junit out/bench-junit.xml --markdown out/bench-summary.md',
    '<%= config.bin %> bench --baseline reports/baseline.json --update',
    '<%= config.bin %> bench sh_transpose_32x33_bd32x8 --baseline reports/baseline.json',
    '<%= config.bin %> bench --jobs 2 --baseline reports/baseline.json',
    '<%= config.bin %> bench --shard 1/2 --out out/bench-1.json',
    '<%= config.bin %> bench --merge out/bench-1.json --merge out/bench-2.json --junit out/bench-junit.xml',
  ];
  static override strict = false;
  static override enableJsonFlag = true;
  static override args = {
    kernels: Args.string({ description: 'suite kernels to run (default: all)' }),
  };
  static override flags = {
    baseline: Flags.string({ default: 'reports/baseline.json', description: 'the committed baseline report' }),
    suite: Flags.string({ default: 'reports/bench-suite.json', description: 'the suite: kernels, parameters and thresholds' }),
    out: Flags.string({ default: 'out/bench-report.json', description: 'where to write the fresh report' }),
    update: Flags.boolean({ description: 'write the fresh report as the new baseline instead of comparing' }),
    markdown: Flags.string({ description: 'write a markdown summary to this file' }),
    junit: Flags.string({ description: 'write JUnit XML to this file' }),
    shard: Flags.string({ description: 'profile one slice of the suite, i/n (1/3: the first third), judged against the same slice of the baseline; --merge joins the slices' }),
    jobs: Flags.integer({ min: 1, max: 64, default: 1, description: 'profile this many suite entries at a time, each in a process of its own (the report and the output are the same as one at a time; the times are taken under the load the jobs make)' }),
    merge: Flags.string({ multiple: true, description: "the shards' --out reports to merge into the whole suite's report (repeatable): written to --out and judged as one run, nothing profiled" }),
  };

  async run(): Promise<BenchResult> {
    const { argv, flags } = await this.parse(Bench);
    const { readSuite } = await import('../src/bench/suite.js');
    const { runSuite, judgeBench } = await import('../src/bench/run.js');
    const { createProgress } = await import('../src/bench/progress.js');
    const { readReport, reportJson } = await import('../src/report/schema.js');
    const { profileFile } = await import('../src/profile.js');
    const suite = readSuite(flags.suite);
    if (flags.update && (argv as string[]).some((a) => a !== '')) throw new UserError('--update rewrites the whole baseline: run it without kernel names', 2);
    let wanted = (argv as string[]).filter((a) => a !== '');
    const { mergeShards, parseShard, shardEntries } = await import('../src/bench/shard.js');
    if (flags.shard !== undefined && flags.merge !== undefined) throw new UserError('--shard profiles a slice and --merge joins slices: give one of them', 2);
    if ((flags.shard !== undefined || flags.merge !== undefined) && (flags.update || wanted.length > 0))
      throw new UserError(`${flags.shard !== undefined ? '--shard' : '--merge'} runs slices of the whole suite: give it without kernel names and without --update`, 2);
    if (wanted.length > 0) {
      const unknown = wanted.filter((w) => !suite.kernels.some((e) => e.kernel === w));
      if (unknown.length > 0) throw new UserError(`no suite kernel named ${unknown.join(', ')} in ${flags.suite}; it has: ${suite.kernels.map((e) => e.kernel).join(', ')}`, 2);
      suite.kernels = suite.kernels.filter((e) => wanted.includes(e.kernel));
    }
    // a shard is judged as a run of its entries' names would be
    const whole = suite.kernels;
    if (flags.shard !== undefined) {
      suite.kernels = shardEntries(suite.kernels, parseShard(flags.shard));
      if (suite.kernels.length === 0) throw new UserError(`--shard ${flags.shard}: the suite has only ${whole.length} entries, so this shard has none; use at most ${whole.length} shards`, 2);
      wanted = suite.kernels.map((e) => e.kernel);
    }
    // read the baseline first: a missing one should fail before minutes of profiling
    const baseline = flags.update ? undefined : existsSync(flags.baseline) ? readReport(flags.baseline) : undefined;
    if (!flags.update && !baseline) throw new UserError(`no baseline at ${flags.baseline}: create it with \`warpsight bench --baseline ${flags.baseline} --update\``);
    // the outputs are checked before minutes of profiling, not after
    for (const [flag, path] of [['--out', flags.out], ['--markdown', flags.markdown], ['--junit', flags.junit], ...(flags.update ? [['--baseline', flags.baseline]] : [])] as const)
      if (path !== undefined) checkWritable(flag, path);
    const run =
      flags.merge !== undefined
        ? mergeShards(
            suite,
            flags.merge.map((f) => readReport(f)),
            flags.merge,
          )
        : flags.jobs > 1
          ? await (async () => {
              const { createProfilePool } = await import('../src/bench/pool.js');
              const pool = createProfilePool(Math.min(flags.jobs, suite.kernels.length));
              try {
                return await runSuite(suite, (req) => pool.profile(req), createProgress(), flags.jobs);
              } finally {
                pool.close();
              }
            })()
          : await runSuite(suite, profileFile, createProgress());
    const { checkReport } = await import('../src/report/schema.js');
    checkReport(run.report, 'the bench report');
    writeFile('--out', flags.out, reportJson(run.report));
    if (flags.update) {
      if (wanted.length > 0) throw new UserError('--update rewrites the whole baseline: run it without kernel names', 2);
      const wrong = run.entries.filter((e) => e.checkFailed !== undefined);
      if (wrong.length > 0) throw new UserError(`not updating the baseline: ${wrong[0]?.label ?? ''} computed a wrong result (${wrong[0]?.checkFailed ?? ''})`, EXIT.CHECK_FAILED);
      writeFile('--baseline', flags.baseline, reportJson(run.report));
      if (!this.jsonEnabled()) process.stdout.write(`baseline updated: ${flags.baseline} (${run.report.kernels.length} kernels)\n`);
      return { passed: true, updated: true, regressions: 0, unmatched: 0, report: flags.out };
    }
    // a subset run is judged against the same subset of the baseline
    const base = baseline as NonNullable<typeof baseline>;
    const names = new Set(suite.kernels.map((e) => e.kernel));
    const scoped = wanted.length > 0 ? { ...base, kernels: base.kernels.filter((k) => names.has(k.name)) } : base;
    const verdict = judgeBench(run, scoped, suite);
    const { benchJunit, benchMarkdown } = await import('../src/bench/summary.js');
    if (flags.markdown) writeFile('--markdown', flags.markdown, benchMarkdown(run, verdict, flags.baseline));
    if (flags.junit) writeFile('--junit', flags.junit, benchJunit(run, verdict));
    if (!this.jsonEnabled()) {
      const { renderComparison } = await import('../src/report/compare.js');
      process.stdout.write(renderComparison(verdict.comparison, { tty: process.stdout.isTTY === true, changedOnly: true }));
      for (const w of verdict.wrongResults) process.stdout.write(`wrong result: ${escapeControl(`${w.label}: ${w.checkFailed ?? ''}`)}\n`);
      process.stdout.write(`bench ${verdict.passed ? 'passed' : 'FAILED'} against ${flags.baseline}\n`);
    }
    if (!verdict.passed) process.exitCode = 1;
    return { passed: verdict.passed, updated: false, regressions: verdict.comparison.regressions, unmatched: verdict.comparison.unmatched, report: flags.out };
  }
}
