import { Args, Flags } from '@oclif/core';
import type { Report } from '../types/report.schema.js';
import { WarpsightCommand, kernelJobsFlag } from '../src/cli/base.js';
import { UserError } from '../src/errors.js';
import { readNcuRawCsv } from '../src/report/ncuCsv.js';
import { compareWithNcu, renderValidation } from '../src/validate/compare.js';
import type { ValidationRow } from '../src/validate/compare.js';

/** What `validate` needs from the profiler: the subset of `src/profile.ts`'s ProfileRequest it sets. */
export type Profiler = (req: {
  file: string;
  kernel?: string | string[];
  arch?: string;
  cacheControl?: 'all' | 'none';
}) => Promise<Report>;

export interface ValidateInput {
  /** the kernel file to profile; or, with `report`, only a name for messages */
  file: string;
  ncu: string;
  /** a saved report (profile -o) to compare instead of profiling the file again */
  report?: string;
  /** -k values: exact function names, or `regex:<expr>` as ncu takes them */
  kernel?: readonly string[];
  arch: string;
  cacheControl: 'all' | 'none';
  json: boolean;
  /** draw the table with cli-table3's colours (stdout is a terminal) */
  tty: boolean;
}

export interface ValidateResult {
  rows: ValidationRow[];
  output: string;
  exitCode: 0 | 1;
}

function kernelMatcher(ks: readonly string[] | undefined): (name: string) => boolean {
  if (!ks || ks.length === 0) return () => true;
  const tests = ks.map((k) => {
    if (!k.startsWith('regex:')) return (name: string) => name === k;
    try {
      const re = new RegExp(k.slice('regex:'.length));
      return (name: string) => re.test(name);
    } catch {
      throw new UserError(`-k ${k}: not a valid regular expression`, 2);
    }
  });
  return (name) => tests.some((t) => t(name));
}

function names(list: readonly string[]): string {
  const unique = [...new Set(list)];
  return unique.length > 8 ? `${unique.slice(0, 8).join(', ')}, …` : unique.join(', ');
}

/**
 * The command's work, with the profiler passed in so tests can run it on a fake report:
 * read the CSV (first, so a bad path fails before any emulation), profile the file, compare the
 * kernels the CSV has, render. Exit code 1 when a metric misses its tolerance.
 */
export async function validate(input: ValidateInput, profile: Profiler): Promise<ValidateResult> {
  const selected = kernelMatcher(input.kernel);
  const all = readNcuRawCsv(input.ncu);
  const launches = all.filter((l) => selected(l.kernelName));
  if (launches.length === 0) {
    throw new UserError(
      all.length === 0
        ? `${input.ncu} holds no launches`
        : `no launch in ${input.ncu} matches -k ${(input.kernel ?? []).join(' -k ')} (it has: ${names(all.map((l) => l.kernelName))})`,
    );
  }
  // exact -k names go to the profiler; without them the whole file is profiled and the kernels the
  // CSV lacks are reported, since the profiler need not accept names the file does not define
  const exact = input.kernel?.filter((k) => !k.startsWith('regex:')) ?? [];
  // a saved report was profiled already: no emulation, its own launches
  const report =
    input.report !== undefined
      ? (await import('../src/report/schema.js')).readReport(input.report)
      : await profile({
          file: input.file,
          ...(exact.length > 0 && exact.length === input.kernel?.length ? { kernel: [...exact] } : {}),
          arch: input.arch,
          cacheControl: input.cacheControl,
        });
  const ours = report.kernels.filter((k) => selected(k.name));
  const ourNames = new Set(ours.map((k) => k.name));
  const compared = launches.filter((l) => ourNames.has(l.kernelName));
  if (compared.length === 0) {
    throw new UserError(
      `no kernel of ${input.file} (${names([...ourNames])}) appears in ${input.ncu} (it has: ${names(launches.map((l) => l.kernelName))})`,
    );
  }
  const rows = compareWithNcu(ours, compared);
  const skipped = launches.length - compared.length;
  const output = input.json
    ? `${JSON.stringify(rows, null, 2)}\n`
    : renderValidation(rows, { tty: input.tty }) +
      (skipped > 0 ? `${skipped} launch(es) of kernels not in ${input.file} skipped\n` : '');
  return { rows, output, exitCode: rows.some((r) => r.status === 'FAIL') ? 1 : 0 };
}

export default class Validate extends WarpsightCommand {
  static summary = "Compare Warpsight's counters with a real Nsight Compute raw-page CSV";

  static description =
    'Profiles the kernels of <file> that appear in the CSV (`ncu --csv --page raw`) — or reads them from a saved ' +
    'report with --report, without running the emulation — and prints each metric ' +
    'beside ncu\'s, with the error and the tolerance it is judged by. Exits 1 when a metric misses its tolerance.';

  static examples = [
    '<%= config.bin %> validate kernels/transpose.ts --ncu ncu_raw_sh.csv',
    '<%= config.bin %> validate kernels/global.ts --ncu ncu_raw_g.csv -k g_ld_u32_stride32 --json',
    '<%= config.bin %> validate --report out/transpose.json --ncu ncu_raw_sh.csv',
  ];

  static args = {
    // optional with --report; checked in run()
    file: Args.string({ description: 'kernel file (.ts); not needed with --report' }),
  };

  static flags = {
    ncu: Flags.string({ required: true, description: 'ncu CSV export: `ncu --csv --page raw ... > file.csv`' }),
    report: Flags.string({ description: 'a saved report (profile -o) to compare instead of profiling <file> again' }),
    kernel: Flags.string({ char: 'k', multiple: true, description: 'kernel name to compare (repeatable; `regex:<expr>` as in ncu)' }),
    arch: Flags.string({ default: 'h200', description: 'GPU to emulate (the one the CSV was measured on)' }),
    'cache-control': Flags.option({
      options: ['all', 'none'] as const,
      default: 'all' as const,
      description: "as ncu's --cache-control: 'all' flushes caches before each kernel",
    })(),
    json: Flags.boolean({ description: 'print the comparison rows as JSON' }),
    jobs: kernelJobsFlag,
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Validate);
    // errors go through WarpsightCommand.catch: one `error:` line with its class's exit code
    if (args.file === undefined && flags.report === undefined)
      throw new UserError('missing the kernel file: warpsight validate <file.ts> --ncu <csv>, or --report <saved.json> to compare a saved report', 2);
    const result: ValidateResult = await validate(
      {
        file: args.file ?? flags.report ?? '',
        ...(flags.report !== undefined ? { report: flags.report } : {}),
        ncu: flags.ncu,
        ...(flags.kernel ? { kernel: flags.kernel } : {}),
        arch: flags.arch,
        cacheControl: flags['cache-control'],
        json: flags.json,
        tty: process.stdout.isTTY === true,
      },
      // imported on first use: the emulator is the heavy part, and a bad CSV should fail without it
      async (req) => {
        // a line per launch on stderr, as profile prints it: a bar on a terminal, plain lines in CI
        const { createProgress, isInteractive } = await import('../src/bench/progress.js');
        const ci = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false';
        const progress = isInteractive(process.stderr, process.env) || ci ? createProgress(process.stderr, process.env, 'validate') : undefined;
        return (await import('../src/profile.js')).profileFile({ ...req, ...this.jobsOf(flags.jobs), ...(progress ? { progress } : {}) });
      },
    );
    process.stdout.write(result.output);
    if (result.exitCode !== 0) this.exit(result.exitCode);
  }
}
