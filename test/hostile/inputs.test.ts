/**
 * Hostile inputs of every command that reads files — report JSON (report, compare), bench suites and
 * baselines, ncu CSVs (validate) — and hostile output paths. Each bad input is one `error:` line with
 * its place (file and JSON path, flag and path) and exit 2; a crossed threshold stays exit 1.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../types/report.schema.js';
import { writeRawCsv } from '../../src/report/csv.js';
import { type Case, expectError, kernelFile, runCli, scratch, tinyKernel } from './harness.js';

const dir = scratch('inputs');
const K = kernelFile(dir, tinyKernel());
const f = (name: string): string => join(dir, name);
const write = (name: string, text: string): string => (writeFileSync(f(name), text), f(name));
const INST = 'smsp__inst_executed.sum';

let base: Report;
beforeAll(async () => {
  const r = await runCli(['profile', K, '--no-timing', '-o', f('base.json')]);
  expect(r.code, r.stderr).toBe(0);
  base = JSON.parse(readFileSync(f('base.json'), 'utf8')) as Report;
  const k = base.kernels[0];
  if (!k) throw new Error('no kernel');
  // the case: a 3x instruction regression
  const tripled: Report = { ...base, kernels: [{ ...k, metrics: { ...k.metrics, [INST]: Number(k.metrics[INST]) * 3 } }] };
  write('tripled.json', JSON.stringify(tripled));
  write('not-json.json', '{ "version": 1, ');
  write('empty.json', '');
  write('array.json', '[1, 2, 3]');
  write('no-kernels.json', JSON.stringify({ ...base, kernels: undefined }));
  write('bad-metric.json', JSON.stringify({ ...base, kernels: [{ ...k, metrics: { ...k.metrics, [INST]: { nested: true } } }] }));
  write('bad-version.json', JSON.stringify({ ...base, version: 'one' }));
  mkdirSync(f('a-folder'), { recursive: true });
  // suites
  const entry = { file: K, kernel: 'tiny' };
  write('suite-typo.json', JSON.stringify({ kernels: [entry], thresholds: { 'smsp__inst_exectued.sum': 1 } }));
  write('suite-pattern.json', JSON.stringify({ kernels: [entry], thresholds: { 'smsp__inst_exectued*': 1 } }));
  write('suite-negative.json', JSON.stringify({ kernels: [entry], thresholds: { [INST]: -1 } }));
  write('suite-text-pct.json', JSON.stringify({ kernels: [entry], thresholds: { [INST]: 'one' } }));
  write('suite-empty.json', JSON.stringify({ kernels: [], thresholds: {} }));
  write('suite-no-file.json', JSON.stringify({ kernels: [{ kernel: 'tiny' }] }));
  write('suite-grid.json', JSON.stringify({ kernels: [{ ...entry, grid: [0, 1, 1] }] }));
  write('suite-params.json', JSON.stringify({ kernels: [{ ...entry, params: { n: [1] } }] }));
  write('suite-thresholds-array.json', JSON.stringify({ kernels: [entry], thresholds: [1] }));
  write('suite-regex.json', JSON.stringify({ kernels: [{ file: K, kernel: 'regex:(' }] }));
  write('suite-ok.json', JSON.stringify({ kernels: [entry], thresholds: { [INST]: 1 } }));
  // ncu CSVs: our raw page of the report stands in for an export
  const csv = writeRawCsv(base);
  write('ncu.csv', csv);
  write('ncu-no-units.csv', `${csv.split('\n')[0] ?? ''}\n`);
  write('ncu-empty.csv', '');
});

const cmp = (...args: string[]) => () => ['compare', f('base.json'), ...args];
const cases: Case[] = [
  // --- report ---------------------------------------------------------------------------------
  { title: 'report: a missing file', argv: () => ['report', f('nope.json')], code: 2, message: `report file not found: ${f('nope.json')}` },
  { title: 'report: not JSON', argv: () => ['report', f('not-json.json')], code: 2, message: new RegExp(`^error: ${f('not-json.json').replace(/[.]/g, '\\.')}: invalid JSON: `) },
  { title: 'report: an empty file', argv: () => ['report', f('empty.json')], code: 2, message: /empty\.json: invalid JSON: Unexpected end of JSON input$/ },
  { title: 'report: an array', argv: () => ['report', f('array.json')], code: 2, message: /array\.json is not a Warpsight report: \/ must be object/ },
  { title: 'report: no kernels', argv: () => ['report', f('no-kernels.json')], code: 2, message: /no-kernels\.json is not a Warpsight report: \/ must have required property 'kernels'/ },
  { title: 'report: a metric that is an object', argv: () => ['report', f('bad-metric.json')], code: 2, message: /bad-metric\.json is not a Warpsight report: \/kernels\/0\/metrics\/smsp__inst_executed\.sum must be/ },
  { title: 'report: a bad version', argv: () => ['report', f('bad-version.json')], code: 2, message: /bad-version\.json is not a Warpsight report: \/version must be/ },
  { title: 'report: a folder', argv: () => ['report', f('a-folder')], code: 2, message: `report file not found: ${f('a-folder')}` },
  { title: 'report: --section unknown', argv: () => ['report', f('base.json'), '--section', 'Bogus'], code: 2, message: /^error: --section Bogus: unknown section/ },
  { title: 'report: --html into a folder', argv: () => ['report', f('base.json'), '--html', f('a-folder')], code: 2, message: `--html ${f('a-folder')}: is a folder; give a file name` },
  { title: 'report: --charts onto a file', argv: () => ['report', f('base.json'), '--charts', f('base.json')], code: 2, message: `--charts ${f('base.json')}: is a file; give a folder` },
  { title: 'report: --html under a file', argv: () => ['report', f('base.json'), '--html', join(f('base.json'), 'x.html')], code: 2, message: `--html ${join(f('base.json'), 'x.html')}: ${f('base.json')} is a file, not a folder` },
  { title: 'report: --page bogus', argv: () => ['report', f('base.json'), '--csv', '--page', 'bogus'], code: 2, message: /^error: Expected --page=bogus to be one of: details, raw, source/ },
  { title: 'report: no file', argv: () => ['report'], code: 2, message: /^error: Missing 1 required arg: file/ },
  // --- compare --------------------------------------------------------------------------------
  { title: 'compare: a typo in --threshold fails instead of passing a 3x regression', argv: () => ['compare', f('base.json'), f('tripled.json'), '--threshold', 'smsp__inst_exectued.sum=1'], code: 2, message: /^error: --threshold smsp__inst_exectued\.sum=1: unknown metric 'smsp__inst_exectued\.sum'; did you mean 'smsp__inst_executed\.sum'/ },
  { title: 'compare: a pattern matching nothing', argv: cmp(f('tripled.json'), '--threshold', 'smsp__inst_exec*d_nope=1'), code: 2, message: /^error: --threshold smsp__inst_exec\*d_nope=1: the pattern 'smsp__inst_exec\*d_nope' matches no metric Warpsight knows; did you mean 'smsp__inst_exec/ },
  { title: 'compare: a metric neither report has', argv: cmp(f('tripled.json'), '--threshold', 'gpu__time_duration.sum=5'), code: 2, message: "--threshold gpu__time_duration.sum=5: neither report has the metric 'gpu__time_duration.sum' (a report profiled with --no-timing lacks durations, cycles and throughputs); the threshold could not be checked" },
  { title: 'compare: no =', argv: cmp(f('tripled.json'), '--threshold', INST), code: 2, message: `--threshold ${INST}: expected metric=percent, e.g. --threshold l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum=1 (the worse direction from the registry), =+5% (fail on a rise), =-5% (on a fall), =±5% (either)` },
  { title: 'compare: a percent that is not a number', argv: cmp(f('tripled.json'), '--threshold', `${INST}=1x`), code: 2, message: /^error: --threshold smsp__inst_executed\.sum=1x: expected metric=percent/ },
  { title: 'compare: a percent that is text', argv: cmp(f('tripled.json'), '--threshold', `${INST}=lots`), code: 2, message: /^error: --threshold smsp__inst_executed\.sum=lots: expected metric=percent/ },
  { title: 'compare: --threshold=', argv: cmp(f('tripled.json'), '--threshold='), code: 2, message: /^error: --threshold: the value is empty/ },
  { title: 'compare: a missing base', argv: () => ['compare', f('nope.json'), f('base.json')], code: 2, message: `report file not found: ${f('nope.json')}` },
  { title: 'compare: a malformed new report', argv: cmp(f('not-json.json')), code: 2, message: /not-json\.json: invalid JSON/ },
  { title: 'compare: a schema-invalid new report', argv: cmp(f('bad-metric.json')), code: 2, message: /bad-metric\.json is not a Warpsight report: \/kernels\/0\/metrics/ },
  { title: 'compare: one report only', argv: () => ['compare', f('base.json')], code: 2, message: /^error: Missing 1 required arg: new/ },
  // --- bench ----------------------------------------------------------------------------------
  { title: 'bench: a typo in a suite threshold', argv: () => ['bench', '--suite', f('suite-typo.json'), '--baseline', f('base.json'), '--out', f('out.json')], code: 2, message: /^error: .*suite-typo\.json: \/thresholds\/smsp__inst_exectued\.sum: unknown metric 'smsp__inst_exectued\.sum'; did you mean 'smsp__inst_executed\.sum'/ },
  { title: 'bench: a suite pattern matching nothing', argv: () => ['bench', '--suite', f('suite-pattern.json'), '--baseline', f('base.json')], code: 2, message: /suite-pattern\.json: \/thresholds\/smsp__inst_exectued\*: the pattern 'smsp__inst_exectued\*' matches no metric Warpsight knows/ },
  { title: 'bench: a negative threshold', argv: () => ['bench', '--suite', f('suite-negative.json')], code: 2, message: /suite-negative\.json: \/thresholds\/smsp__inst_executed\.sum: expected a percentage >= 0, or "\+5%" \(fail on a rise\)/ },
  { title: 'bench: a threshold that is text', argv: () => ['bench', '--suite', f('suite-text-pct.json')], code: 2, message: /suite-text-pct\.json: \/thresholds\/smsp__inst_executed\.sum: expected a percentage >= 0, or "\+5%" \(fail on a rise\)/ },
  { title: 'bench: an empty suite', argv: () => ['bench', '--suite', f('suite-empty.json')], code: 2, message: /suite-empty\.json: \/kernels: expected a non-empty array/ },
  { title: 'bench: an entry without a file', argv: () => ['bench', '--suite', f('suite-no-file.json')], code: 2, message: /suite-no-file\.json: \/kernels\/0\/file: expected the kernel file path$/ },
  { title: 'bench: a zero grid', argv: () => ['bench', '--suite', f('suite-grid.json')], code: 2, message: /suite-grid\.json: \/kernels\/0\/grid: expected \[x, y, z\] of positive integers$/ },
  { title: 'bench: a param that is an array', argv: () => ['bench', '--suite', f('suite-params.json')], code: 2, message: /suite-params\.json: \/kernels\/0\/params\/n: expected a string or number$/ },
  { title: 'bench: thresholds that are an array', argv: () => ['bench', '--suite', f('suite-thresholds-array.json')], code: 2, message: /suite-thresholds-array\.json: \/thresholds: expected \{ metric: percent \}$/ },
  { title: 'bench: a suite kernel regex that does not compile', argv: () => ['bench', '--suite', f('suite-regex.json')], code: 2, message: /suite-regex\.json: \/kernels\/0\/kernel: not a valid regular expression \(Invalid regular expression: \/\(\/: Unterminated group\)$/ },
  { title: 'bench: a missing suite', argv: () => ['bench', '--suite', f('nope.json')], code: 2, message: `bench suite not found: ${f('nope.json')}; give one with --suite (see reports/bench-suite.json)` },
  { title: 'bench: a malformed suite', argv: () => ['bench', '--suite', f('not-json.json')], code: 2, message: /not-json\.json: invalid JSON/ },
  { title: 'bench: a missing baseline', argv: () => ['bench', '--suite', f('suite-ok.json'), '--baseline', f('nope.json')], code: 2, message: `no baseline at ${f('nope.json')}: create it with \`warpsight bench --baseline ${f('nope.json')} --update\`` },
  { title: 'bench: a malformed baseline', argv: () => ['bench', '--suite', f('suite-ok.json'), '--baseline', f('array.json')], code: 2, message: /array\.json is not a Warpsight report/ },
  { title: 'bench: an unknown kernel argument', argv: () => ['bench', 'nope', '--suite', f('suite-ok.json'), '--baseline', f('base.json')], code: 2, message: /^error: no suite kernel named nope in .*suite-ok\.json; it has: tiny$/ },
  { title: 'bench: --update with kernel names', argv: () => ['bench', 'tiny', '--update', '--suite', f('suite-ok.json')], code: 2, message: '--update rewrites the whole baseline: run it without kernel names' },
  { title: 'bench: --out into a folder (before profiling)', argv: () => ['bench', '--suite', f('suite-ok.json'), '--baseline', f('base.json'), '--out', f('a-folder')], code: 2, message: `--out ${f('a-folder')}: is a folder; give a file name` },
  { title: 'bench: --junit under a file (before profiling)', argv: () => ['bench', '--suite', f('suite-ok.json'), '--baseline', f('base.json'), '--out', f('o.json'), '--junit', join(f('base.json'), 'j.xml')], code: 2, message: `--junit ${join(f('base.json'), 'j.xml')}: ${f('base.json')} is a file, not a folder` },
  { title: 'bench: --suite=', argv: () => ['bench', '--suite='], code: 2, message: /^error: --suite: the value is empty/ },
  { title: 'profile: --launch-count 0', argv: () => ['profile', K, '--launch-count', '0'], code: 2, message: /^error: --launch-count: expected an integer greater than or equal to 1 but received: 0 \(see --help\)$/ },
  // --- validate -------------------------------------------------------------------------------
  { title: 'validate: a missing CSV', argv: () => ['validate', K, '--ncu', f('nope.csv')], code: 2, message: /nope\.csv/ },
  { title: 'validate: a CSV without its units row', argv: () => ['validate', K, '--ncu', f('ncu-no-units.csv')], code: 2, message: /ncu-no-units\.csv.*the units row is missing/ },
  { title: 'validate: an empty CSV', argv: () => ['validate', K, '--ncu', f('ncu-empty.csv')], code: 2, message: /ncu-empty\.csv/ },
  { title: 'validate: -k regex:(', argv: () => ['validate', K, '--ncu', f('ncu.csv'), '-k', 'regex:('], code: 2, message: '-k regex:(: not a valid regular expression' },
  { title: 'validate: -k matching no launch', argv: () => ['validate', K, '--ncu', f('ncu.csv'), '-k', 'nope'], code: 2, message: /no launch in .*ncu\.csv matches -k nope \(it has: tiny\)$/ },
  { title: 'validate: --ncu=', argv: () => ['validate', K, '--ncu='], code: 2, message: /^error: --ncu: the value is empty/ },
  { title: 'validate: no --ncu', argv: () => ['validate', K], code: 2, message: /^error: missing required flag --ncu \(see --help\)$/ },
  { title: 'validate: a missing kernel file', argv: () => ['validate', f('nope.ts'), '--ncu', f('ncu.csv')], code: 2, message: /kernel file not found: .*nope\.ts/ },
  // --- output paths ---------------------------------------------------------------------------
  { title: 'profile: -o into a folder', argv: () => ['profile', K, '-o', f('a-folder')], code: 2, message: `--output (-o) ${f('a-folder')}: is a folder; give a file name` },
  { title: 'profile: -o under a file', argv: () => ['profile', K, '-o', join(K, 'r.json')], code: 2, message: `--output (-o) ${join(K, 'r.json')}: ${K} is a file, not a folder` },
  { title: 'profile: -o into a read-only path', argv: () => ['profile', K, '--no-timing', '-o', '/sys/warpsight.json'], code: 2, message: /^error: --output \(-o\) \/sys\/warpsight\.json: cannot write (the file|there) \(E(ACCES|ROFS|PERM)\); choose a writable path$/ },
  { title: 'profile: -o where no folder can be made', argv: () => ['profile', K, '--no-timing', '-o', '/proc/warpsight/r.json'], code: 2, message: /^error: --output \(-o\) \/proc\/warpsight\/r\.json: (cannot create the folder \/proc\/warpsight \(ENOENT\)|cannot write there)/ },
  { title: "profile: -o ''", argv: () => ['profile', K, '-o', ''], code: 2, message: /^error: --output \(-o\): the value is empty/ },
  { title: 'profile: --html into a folder', argv: () => ['profile', K, '--html', f('a-folder')], code: 2, message: `--html ${f('a-folder')}: is a folder; give a file name` },
  { title: 'profile: --charts onto a file', argv: () => ['profile', K, '--charts', K], code: 2, message: `--charts ${K}: is a file; give a folder` },
  { title: 'profile: --charts=', argv: () => ['profile', K, '--charts='], code: 2, message: /^error: --charts: the value is empty/ },
];

describe('hostile inputs and outputs', () => {
  for (const c of cases) it(c.title, async () => void expectError(await runCli(c.argv()), c.code, c.message));

  it('compare: the crossing says FAIL on stdout and exits 1', async () => {
    const r = await runCli(['compare', f('base.json'), f('tripled.json'), '--threshold', `${INST}=1`]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/smsp__inst_executed\.sum .*FAIL/);
  });

  it('profile: -o creates missing folders', async () => {
    const out = join(dir, 'made', 'for', 'you', 'r.json');
    const r = await runCli(['profile', K, '--no-timing', '-o', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toHaveProperty('kernels');
  });

  it('profile: -o into a folder without write permission (as a user; root may write anywhere)', async () => {
    const ro = join(dir, 'read-only');
    mkdirSync(ro, { recursive: true });
    chmodSync(ro, 0o555);
    const r = await runCli(['profile', K, '--no-timing', '-o', join(ro, 'r.json')]);
    if (process.getuid?.() === 0) expect(r.code).toBe(0);
    else expectError(r, 2, `--output (-o) ${join(ro, 'r.json')}: cannot write there (EACCES); choose a writable path`);
  });

  it('validate: a metric ncu reports as n/a is listed with a note, not dropped', async () => {
    const csv = readFileSync(f('ncu.csv'), 'utf8').split('\n');
    const ids = (csv[0] ?? '').split('","');
    const col = ids.findIndex((c) => c.replace(/"/g, '') === INST);
    const row = (csv[2] ?? '').split('","');
    row[col] = 'n/a';
    csv[2] = row.join('","');
    const na = write('ncu-na.csv', csv.join('\n'));
    const r = await runCli(['validate', K, '--ncu', na]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/smsp__inst_executed\.sum[\s│]+n\/a[\s│]+[\d,]+[\s│]+not compared/);
    expect(r.stdout).toMatch(/, 1 not compared \(ncu reports n\/a\)\n$/);
    const json = await runCli(['validate', K, '--ncu', na, '--json']);
    const rows = JSON.parse(json.stdout) as { metric: string; status: string; note?: string; ncu: number | null }[];
    expect(rows.find((x) => x.metric === INST)).toMatchObject({ status: 'info', note: 'ncu reports n/a: not compared', ncu: null });
  });
});
