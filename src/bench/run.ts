/**
 * `warpsight bench`: profile every kernel of the suite into one report, then judge it against the
 * committed baseline with the suite's thresholds. The profiler is passed in, so tests can run the
 * logic on fake reports.
 */
import type { KernelResult, Report } from '../../types/report.schema.js';
import type { ProfileRequest } from '../profile.js';
import { compareReports, type Comparison } from '../report/compare.js';
import { type Done, inOrder } from './inOrder.js';
import type { Progress } from './progress.js';
import { entryLabel, type Suite, type SuiteEntry } from './suite.js';

export type Profiler = (req: ProfileRequest) => Promise<Report>;

export interface BenchEntryResult {
  entry: SuiteEntry;
  label: string;
  /** time the entry took to profile; NaN in a merged run (--merge: the shard reports do not hold it) */
  seconds: number;
  /** the kernel's wrong-result message, when its check failed */
  checkFailed?: string;
}

export interface BenchRun {
  report: Report;
  entries: BenchEntryResult[];
}

/**
 * Profiles the suite's kernels; their results, in suite order and renumbered 0.., make one report.
 * With `jobs` > 1, that many entries are profiled at a time (the profiler must allow it: pool.ts);
 * results and progress lines still come in suite order, so the output is that of one at a time.
 */
export async function runSuite(suite: Suite, profile: Profiler, progress?: Progress, jobs = 1): Promise<BenchRun> {
  const total = suite.kernels.length;
  const kernels: KernelResult[] = [];
  const entries: BenchEntryResult[] = [];
  let first: Report | undefined;
  const results = inOrder(total, jobs, (i) => {
    const entry = suite.kernels[i] as SuiteEntry;
    return profile({
      file: entry.file,
      kernel: entry.kernel,
      params: entry.params ?? {},
      ...(entry.grid ? { grid: entry.grid } : {}),
      ...(entry.block ? { block: entry.block } : {}),
    });
  });
  for (const [i, entry] of suite.kernels.entries()) {
    const label = entryLabel(entry);
    progress?.start(i, total, label);
    const { result: report, seconds } = (await results.next()).value as Done<Report>;
    first ??= report;
    const failed = report.kernels.find((k) => k.check && !k.check.passed);
    for (const k of report.kernels) kernels.push({ ...k, id: kernels.length });
    entries.push({ entry, label, seconds, ...(failed ? { checkFailed: failed.check?.message ?? 'wrong result' } : {}) });
    progress?.done(i, total, label, seconds);
  }
  progress?.finish();
  if (!first) throw new Error('empty suite');
  return { report: { ...first, kernels }, entries };
}

export interface BenchVerdict {
  comparison: Comparison;
  /** kernels whose result check failed */
  wrongResults: BenchEntryResult[];
  passed: boolean;
}

/** Regressions: a threshold crossed, a kernel missing from either report, or a wrong result. */
export function judgeBench(run: BenchRun, baseline: Report, suite: Suite): BenchVerdict {
  const comparison = compareReports(baseline, run.report, { thresholds: suite.thresholds });
  const wrongResults = run.entries.filter((e) => e.checkFailed !== undefined);
  return { comparison, wrongResults, passed: comparison.regressions === 0 && comparison.unmatched === 0 && wrongResults.length === 0 };
}
