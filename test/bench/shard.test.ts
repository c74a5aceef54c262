/**
 * `warpsight bench --shard i/n` and `--merge`: slices of the suite as a CI matrix runs them, and the
 * merged report equal to one run of the whole suite, byte for byte, whatever order the shards come in.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../types/report.schema.js';
import type { ProfileRequest } from '../../src/profile.js';
import { judgeBench, runSuite } from '../../src/bench/run.js';
import { mergeShards, parseShard, shardEntries } from '../../src/bench/shard.js';
import { benchJunit, benchMarkdown } from '../../src/bench/summary.js';
import { parseSuite, type Suite } from '../../src/bench/suite.js';
import { reportJson } from '../../src/report/schema.js';
import { UserError } from '../../src/errors.js';
import { fakeReport, kernel } from '../report/fakeReport.js';
import { kernelFile, runCli, scratch, tinyKernel } from '../hostile/harness.js';

/** a profiler answering each entry with one launch named after it, its metrics from the entry's place */
async function profile(req: ProfileRequest): Promise<Report> {
  const name = String(req.kernel);
  const n = Number(name.slice(1));
  return { ...fakeReport(), kernels: [kernel({ id: 0, name, metrics: { 'smsp__inst_executed.sum': 1000 + n } })] };
}

const suiteOf = (n: number): Suite =>
  parseSuite({ kernels: Array.from({ length: n }, (_, i) => ({ file: 'kernels/micro.ts', kernel: `k${i}` })), thresholds: { 'smsp__inst_executed.sum': 1 } }, 'suite.json');

describe('--shard i/n', () => {
  it('parses i/n and says what is wrong with anything else', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, count: 3 });
    expect(parseShard(' 1 / 1 ')).toEqual({ index: 1, count: 1 });
    for (const bad of ['', '3', '0/2', '3/2', '1/0', 'a/b', '1/2/3', '-1/2'])
      expect(() => parseShard(bad), bad).toThrow(UserError);
    expect(() => parseShard('3/2')).toThrow('--shard 3/2: the shard\'s number must be 1 to 2 (i/n with 1 <= i <= n)');
    expect(() => parseShard('x')).toThrow('--shard x: expected i/n');
  });

  it('splits the entries into contiguous slices differing by one at most, the larger first, covering each once', () => {
    const entries = [0, 1, 2, 3, 4, 5, 6];
    const slices = [1, 2, 3].map((index) => shardEntries(entries, { index, count: 3 }));
    expect(slices).toEqual([[0, 1, 2], [3, 4], [5, 6]]);
    expect(shardEntries(entries, { index: 1, count: 1 })).toEqual(entries);
    // more shards than entries: the last ones get none
    expect([1, 2, 3].map((index) => shardEntries([0, 1], { index, count: 3 }))).toEqual([[0], [1], []]);
  });
});

describe('--merge', () => {
  it("the shards' reports, in any order, merge into the whole run's report byte for byte, and are judged alike", async () => {
    const suite = suiteOf(7);
    const whole = await runSuite(suite, profile);
    const shards = await Promise.all([1, 2, 3].map((index) => runSuite({ ...suite, kernels: shardEntries(suite.kernels, { index, count: 3 }) }, profile)));
    const reports = shards.map((s) => s.report);
    const merged = mergeShards(suite, [reports[2]!, reports[0]!, reports[1]!], ['c.json', 'a.json', 'b.json']);
    expect(reportJson(merged.report)).toBe(reportJson(whole.report));
    expect(merged.entries.map((e) => e.label)).toEqual(whole.entries.map((e) => e.label));
    expect(merged.entries.every((e) => Number.isNaN(e.seconds))).toBe(true);
    const verdict = judgeBench(merged, whole.report, suite);
    expect(verdict.passed).toBe(true);
    expect(benchMarkdown(merged, verdict, 'base.json')).toContain('| `kernels/micro.ts -k k0` | — |');
    expect(benchJunit(merged, verdict)).toContain('<testcase classname="kernels/micro.ts" name="k0" time="0.000">');
  });

  it('a missing shard leaves its kernels unmatched: the merged run fails', async () => {
    const suite = suiteOf(4);
    const whole = await runSuite(suite, profile);
    const first = await runSuite({ ...suite, kernels: shardEntries(suite.kernels, { index: 1, count: 2 }) }, profile);
    const verdict = judgeBench(mergeShards(suite, [first.report], ['a.json']), whole.report, suite);
    expect(verdict.passed).toBe(false);
    expect(verdict.comparison.unmatched).toBe(2);
  });

  it('a report of another suite, or none, is refused with a message naming the file', async () => {
    const other = await runSuite(suiteOf(9), profile);
    const lastOnly = { ...other.report, kernels: other.report.kernels.slice(8) };
    expect(() => mergeShards(suiteOf(3), [lastOnly], ['x.json'])).toThrow('--merge x.json: its launch k8 is no entry of the suite');
    expect(() => mergeShards(suiteOf(3), [], [])).toThrow('--merge: give the shard reports to merge');
    expect(() => mergeShards(suiteOf(3), [{ ...other.report, kernels: [] }], ['e.json'])).toThrow('--merge e.json: the report has no launches');
  });
});

describe('warpsight bench --shard / --merge', () => {
  it('two shards and their merge through the command: the merged report is the whole run\'s, the verdict passes', async () => {
    const dir = scratch('shard');
    const files = ['a', 'b'].map((n) => kernelFile(dir, tinyKernel({ name: `'${n}'` }), n));
    const suite = join(dir, 'suite.json');
    writeFileSync(suite, JSON.stringify({ kernels: files.map((file, i) => ({ file, kernel: ['a', 'b'][i] })), thresholds: { 'smsp__inst_executed.sum': 1 } }));
    const base = join(dir, 'base.json');
    expect((await runCli(['bench', '--suite', suite, '--baseline', base, '--update', '--out', join(dir, 'whole.json')])).code).toBe(0);
    for (const i of [1, 2]) {
      const r = await runCli(['bench', '--suite', suite, '--baseline', base, '--shard', `${i}/2`, '--out', join(dir, `s${i}.json`)]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('bench passed');
    }
    const shard1 = JSON.parse(readFileSync(join(dir, 's1.json'), 'utf8')) as Report;
    expect(shard1.kernels.map((k) => k.name)).toEqual(['a']);
    const m = await runCli(['bench', '--suite', suite, '--baseline', base, '--merge', join(dir, 's2.json'), '--merge', join(dir, 's1.json'), '--out', join(dir, 'merged.json')]);
    expect(m.code, m.stderr).toBe(0);
    expect(m.stdout).toContain('bench passed');
    expect(readFileSync(join(dir, 'merged.json'), 'utf8')).toBe(readFileSync(join(dir, 'whole.json'), 'utf8'));
    const both = await runCli(['bench', '--suite', suite, '--shard', '1/2', '--merge', join(dir, 's1.json')]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--shard profiles a slice and --merge joins slices: give one of them');
    const tooMany = await runCli(['bench', '--suite', suite, '--baseline', base, '--shard', '3/3']);
    expect(tooMany.code).toBe(2);
    expect(tooMany.stderr).toContain('--shard 3/3: the suite has only 2 entries, so this shard has none; use at most 2 shards');
  });
});
