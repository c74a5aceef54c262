import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../types/report.schema.js';
import type { ProfileRequest } from '../../src/profile.js';
import { createProgress } from '../../src/bench/progress.js';
import { judgeBench, runSuite } from '../../src/bench/run.js';
import { benchJunit, benchMarkdown, xmlText } from '../../src/bench/summary.js';
import { parseSuite, readSuite, type Suite } from '../../src/bench/suite.js';
import { fakeReport } from '../report/fakeReport.js';

const BC = 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum';

/** a profiler that answers each request with that kernel of the fake report, optionally tampered */
function fakeProfiler(tamper: (r: Report) => void = () => {}) {
  const seen: ProfileRequest[] = [];
  const profile = async (req: ProfileRequest): Promise<Report> => {
    seen.push(req);
    const r = fakeReport();
    tamper(r);
    return { ...r, kernels: r.kernels.filter((k) => k.name === req.kernel) };
  };
  return { profile, seen };
}

const SUITE: Suite = parseSuite(
  {
    kernels: [
      { file: 'kernels/micro.ts', kernel: 'g_ld_u8_coalesced' },
      { file: 'kernels/micro.ts', kernel: 'sh_transpose_32x32_bd32x8', params: { n: 4096 } },
    ],
    thresholds: { 'l1tex__data_bank_conflicts*': 1 },
  },
  'suite.json',
);

describe('bench suite file', () => {
  it('the committed suite parses and names existing kernel files', () => {
    const suite = readSuite('reports/bench-suite.json');
    expect(suite.kernels.length).toBeGreaterThan(3);
    expect(suite.thresholds.length).toBeGreaterThan(3);
    for (const e of suite.kernels) expect(readFileSync(e.file, 'utf8').length).toBeGreaterThan(0);
  });
  it('the committed baseline has every suite kernel, each with a passing check', () => {
    const baseline = JSON.parse(readFileSync('reports/baseline.json', 'utf8')) as Report;
    expect(baseline.kernels.map((k) => k.name)).toEqual(readSuite('reports/bench-suite.json').kernels.map((e) => e.kernel));
    for (const k of baseline.kernels) expect(k.check?.passed, k.name).toBe(true);
  });
  it('errors name the file and the JSON path', () => {
    expect(() => parseSuite({ kernels: [{ file: 'a.ts' }] }, 's.json')).toThrow(/s\.json: \/kernels\/0\/kernel/);
    expect(() => parseSuite({ kernels: [{ file: 'a.ts', kernel: 'k' }], thresholds: { m: 'x' } }, 's.json')).toThrow(/\/thresholds\/m/);
    expect(() => parseSuite({}, 's.json')).toThrow(/\/kernels/);
  });
});

describe('bench run', () => {
  it('profiles every entry with its params into one report, renumbered', async () => {
    const { profile, seen } = fakeProfiler();
    const run = await runSuite(SUITE, profile);
    expect(seen.map((r) => r.params)).toEqual([{}, { n: '4096' }]);
    expect(run.report.kernels.map((k) => [k.id, k.name])).toEqual([
      [0, 'g_ld_u8_coalesced'],
      [1, 'sh_transpose_32x32_bd32x8'],
    ]);
  });

  it('passes against its own baseline, fails on a planted regression with markdown and JUnit saying why', async () => {
    const baseline = (await runSuite(SUITE, fakeProfiler().profile)).report;
    const same = await runSuite(SUITE, fakeProfiler().profile);
    expect(judgeBench(same, baseline, SUITE).passed).toBe(true);

    const worse = await runSuite(
      SUITE,
      fakeProfiler((r) => {
        const k = r.kernels[1];
        if (k) k.metrics[BC] = 32_000_000;
      }).profile,
    );
    const verdict = judgeBench(worse, baseline, SUITE);
    expect(verdict.passed).toBe(false);
    expect(verdict.comparison.regressions).toBe(1);
    const md = benchMarkdown(worse, verdict, 'reports/baseline.json');
    expect(md).toContain('## Warpsight bench: FAILED');
    expect(md).toContain(`| \`sh_transpose_32x32_bd32x8\` | \`${BC}\` | 16,400,550 | 32,000,000 |`);
    const xml = benchJunit(worse, verdict);
    expect(xml).toContain('tests="2" failures="1"');
    expect(xml).toMatch(/<testcase classname="kernels\/micro.ts" name="sh_transpose_32x32_bd32x8" time="[\d.]+">\n\s+<failure message="1 problem: l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum: 16,400,550 -&gt; 32,000,000/);
    expect(xml).toMatch(/<testcase classname="kernels\/micro.ts" name="g_ld_u8_coalesced" time="[\d.]+"><\/testcase>/);
  });

  it('a kernel missing from the baseline, or a wrong result, fails the run', async () => {
    const baseline = (await runSuite(SUITE, fakeProfiler().profile)).report;
    const partial = { ...baseline, kernels: baseline.kernels.slice(0, 1) };
    expect(judgeBench(await runSuite(SUITE, fakeProfiler().profile), partial, SUITE).passed).toBe(false);
    const wrong = await runSuite(
      SUITE,
      fakeProfiler((r) => {
        const k = r.kernels[0];
        if (k) k.check = { passed: false, message: 'out[3] = 1, expected 2' };
      }).profile,
    );
    const verdict = judgeBench(wrong, baseline, SUITE);
    expect(verdict.passed).toBe(false);
    expect(benchJunit(wrong, verdict)).toContain('wrong result: out[3] = 1, expected 2');
  });

  it('XML text drops what XML cannot hold', () => {
    expect(xmlText('a<b>&"\u0001')).toBe('a&lt;b&gt;&amp;&quot;');
  });
});

describe('bench progress', () => {
  const sink = (isTTY: boolean) => {
    const chunks: string[] = [];
    return { chunks, stream: { isTTY, columns: 80, write: (t: string) => chunks.push(t) } };
  };
  it('plain lines in CI', () => {
    const { chunks, stream } = sink(true);
    const p = createProgress(stream, { CI: 'true' });
    p.start(0, 2, 'a');
    p.done(0, 2, 'a', 1.25);
    p.finish();
    expect(chunks).toEqual(['bench [1/2] a: 1.3 s\n']);
  });
  it('a redrawn bar on a terminal', () => {
    const { chunks, stream } = sink(true);
    const p = createProgress(stream, {});
    p.start(0, 2, 'a');
    p.done(0, 2, 'a', 1);
    p.finish();
    expect(chunks[0]).toMatch(/^\r\[\.{24}\] 0\/2 a/);
    expect(chunks[1]).toMatch(/^\r\[#{12}\.{12}\] 1\/2 a/);
    expect(chunks[2]).toBe('\n');
  });
});
