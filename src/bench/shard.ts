/**
 * `warpsight bench --shard i/n` and `--merge`: a CI matrix runs the suite in n jobs, each profiling
 * one contiguous slice of the suite's entries (as Playwright's --shard splits its tests), and a last
 * job merges their reports into the report a single run writes, judged the same way.
 */
import type { KernelResult, Report } from '../../types/report.schema.js';
import { UserError } from '../errors.js';
import type { BenchEntryResult, BenchRun } from './run.js';
import { entryLabel, type Suite, type SuiteEntry } from './suite.js';

export interface Shard {
  /** 1-based, as --shard 1/3 */
  index: number;
  count: number;
}

/** `i/n` with 1 <= i <= n */
export function parseShard(text: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) throw new UserError(`--shard ${text}: expected i/n, the shard's number and the number of shards (--shard 1/3)`, 2);
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || index < 1 || index > count) throw new UserError(`--shard ${text}: the shard's number must be 1 to ${Math.max(1, count)} (i/n with 1 <= i <= n)`, 2);
  return { index, count };
}

/**
 * the entries of shard `index` of `count`: contiguous slices whose sizes differ by one at most, the
 * larger first. A shard beyond the entries (more shards than entries) gets none.
 */
export function shardEntries<T>(entries: readonly T[], shard: Shard): T[] {
  const base = Math.floor(entries.length / shard.count);
  const extra = entries.length % shard.count;
  const i = shard.index - 1;
  const start = i * base + Math.min(i, extra);
  return entries.slice(start, start + base + (i < extra ? 1 : 0));
}

/** whether a launch of the report came from the suite entry (its kernel name, or its regex:) */
export function entryMatches(entry: SuiteEntry, name: string): boolean {
  return entry.kernel.startsWith('regex:') ? new RegExp(entry.kernel.slice('regex:'.length)).test(name) : entry.kernel === name;
}

/** the suite entry that made a launch: the first entry whose kernel matches its name, -1 if none */
function entryOf(suite: Suite, k: KernelResult): number {
  return suite.kernels.findIndex((e) => entryMatches(e, k.name));
}

/**
 * The shard reports as one run: ordered by the suite entry of their first launch (the order the
 * arguments came in plays no part), their launches concatenated and renumbered 0.., as one run of the
 * whole suite numbers them. The time each entry took is not in a report: the merged run's entries
 * have none (NaN). `files` name the reports in errors.
 */
export function mergeShards(suite: Suite, reports: readonly Report[], files: readonly string[]): BenchRun {
  if (reports.length === 0) throw new UserError('--merge: give the shard reports to merge (--merge out/shard-1.json --merge out/shard-2.json ...)', 2);
  const firstEntry = reports.map((r, i) => {
    const k = r.kernels[0];
    if (!k) throw new UserError(`--merge ${files[i] ?? ''}: the report has no launches; a shard with no suite entries writes none (use no more shards than suite entries)`, 2);
    const e = entryOf(suite, k);
    if (e < 0) throw new UserError(`--merge ${files[i] ?? ''}: its launch ${k.name} is no entry of the suite; merge the reports of this suite's shards`, 2);
    return e;
  });
  const order = reports.map((_, i) => i).sort((a, b) => firstEntry[a]! - firstEntry[b]! || a - b);
  const kernels: KernelResult[] = [];
  for (const i of order) for (const k of reports[i]!.kernels) kernels.push({ ...k, id: kernels.length });
  const seen = new Set(kernels.map((k) => entryOf(suite, k)));
  const entries: BenchEntryResult[] = suite.kernels
    .map((entry, i) => ({ entry, i }))
    .filter(({ i }) => seen.has(i))
    .map(({ entry }) => {
      const failed = kernels.find((k) => entryMatches(entry, k.name) && k.check && !k.check.passed);
      return { entry, label: entryLabel(entry), seconds: Number.NaN, ...(failed ? { checkFailed: failed.check?.message ?? 'wrong result' } : {}) };
    });
  return { report: { ...reports[order[0]!]!, kernels }, entries };
}
