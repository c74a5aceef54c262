/**
 * The CI contract through the real CLI (bin/dev.js): `compare` exits 1 on a planted regression
 * (the transpose without padding against the padded baseline: bank conflicts up) and 0 on
 * identical reports; `bench` fails the same way and writes JUnit and markdown saying why.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../types/report.schema.js';
import { CLI_ENTRY } from '../setup/cli.js';

const OUT = resolve('out/e2e-cli');
const BC = 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum';
const baseline = JSON.parse(readFileSync('reports/baseline.json', 'utf8')) as Report;

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [...CLI_ENTRY, ...args], { encoding: 'utf8', env: { ...process.env, CI: 'true' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function kernelReport(name: string, rename?: string): string {
  const k = baseline.kernels.find((x) => x.name === name);
  if (!k) throw new Error(`baseline lacks ${name}`);
  const file = join(OUT, `${rename ?? name}${rename ? '-as' : ''}-${name}.json`);
  writeFileSync(file, JSON.stringify({ ...baseline, kernels: [{ ...k, name: rename ?? name }] }));
  return file;
}

describe('compare and bench exit codes', () => {
  mkdirSync(OUT, { recursive: true });
  const padded = kernelReport('sh_transpose_32x33_bd32x8');
  const unpadded = kernelReport('sh_transpose_32x32_bd32x8');

  it('compare: exit 1 when bank conflicts go up past the threshold', () => {
    const r = cli('compare', padded, unpadded, '--threshold', `${BC}=1`, '--changed');
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(new RegExp(`${BC.replace(/\./g, '\\.')}.*FAIL`));
    expect(r.stdout).toContain('1 threshold crossed');
  });

  it('compare: the padding that removes the bank conflicts is an improvement, not a regression', () => {
    // lower is better for bank conflicts (the registry): the worse direction is up
    const r = cli('compare', unpadded, padded, '--threshold', `${BC}=1`, '--json');
    expect(r.status, r.stdout).toBe(0);
    const json = JSON.parse(r.stdout) as { regressions: number; kernels: { metrics: { metric: string; pct: number; direction: string; regression: boolean }[] }[] };
    const row = json.kernels[0]?.metrics.find((m) => m.metric === BC);
    // the padding leaves only the replays of accesses that meet global traffic (1,635 of 1,015,981)
    const conflicts = (name: string): number => Number(baseline.kernels.find((x) => x.name === name)?.metrics[BC]);
    const pct = (100 * (conflicts('sh_transpose_32x33_bd32x8') - conflicts('sh_transpose_32x32_bd32x8'))) / conflicts('sh_transpose_32x32_bd32x8');
    expect(pct).toBeLessThan(-99);
    expect(row).toMatchObject({ pct, direction: 'up', regression: false });
    // ±: either way fails
    expect(cli('compare', unpadded, padded, '--threshold', `${BC}=±1`).status).toBe(1);
    // -pct fails only on a fall: the unpadded kernel's conflicts rose
    expect(cli('compare', padded, unpadded, '--threshold', `${BC}=-1%`).status).toBe(0);
  });

  it('compare: higher is better for achieved occupancy; duration fails only on a rise with +pct', () => {
    const occ = 'sm__warps_active.avg.pct_of_peak_sustained_active';
    // the unpadded transpose: 77.9 % -> 59.9 % achieved occupancy, 4.00 -> 7.64 us (the baseline's figures)
    const worse = cli('compare', padded, unpadded, '--threshold', `${occ}=5`, '--changed');
    expect(worse.status).toBe(1);
    expect(worse.stdout).toMatch(/sm__warps_active\.avg\.pct_of_peak_sustained_active.*-23\.04%.*FAIL \(-5%\)/);
    expect(cli('compare', unpadded, padded, '--threshold', `${occ}=5`).status).toBe(0);
    expect(cli('compare', padded, unpadded, '--threshold', 'gpu__time_duration.sum=+5%').status).toBe(1);
    expect(cli('compare', unpadded, padded, '--threshold', 'gpu__time_duration.sum=+5%').status).toBe(0);
  });

  it('compare: floating-point noise below the floor is no change', () => {
    const k = baseline.kernels.find((x) => x.name === 'sh_transpose_32x33_bd32x8');
    if (!k) throw new Error('baseline lacks the padded transpose');
    const duration = k.metrics['gpu__time_duration.sum'] as number;
    // the same run with the duration summed in another order: a few ulps apart
    const file = join(OUT, 'noisy.json');
    writeFileSync(file, JSON.stringify({ ...baseline, kernels: [{ ...k, metrics: { ...k.metrics, 'gpu__time_duration.sum': duration * (1 + 1e-12) } }] }));
    const r = cli('compare', padded, file, '--threshold', 'gpu__time_duration.sum=±0', '--json');
    expect(r.status, r.stdout).toBe(0);
    const row = (JSON.parse(r.stdout) as { kernels: { metrics: { metric: string; pct: number; noise?: boolean }[] }[] }).kernels[0]?.metrics.find((m) => m.metric === 'gpu__time_duration.sum');
    expect(row).toMatchObject({ pct: 0, noise: true });
    expect(cli('compare', padded, file, '--threshold', 'gpu__time_duration.sum=±0', '--noise-floor', '0').status).toBe(1);
  });

  it('compare --html: a page with the changes coloured better / worse and crossed thresholds; -f to overwrite', () => {
    const html = join(OUT, 'compare.html');
    rmSync(html, { force: true });
    const r = cli('compare', padded, unpadded, '--threshold', `${BC}=1`, '--html', html);
    expect(r.status).toBe(1);
    const page = readFileSync(html, 'utf8');
    const row = (metric: string): string => new RegExp(`<tr class="(\\w+)" data-metric="${metric.replace(/\./g, '\\.')}"`).exec(page)?.[1] ?? '';
    expect(row(BC)).toBe('regression');
    // the unpadded transpose: slower, lower achieved occupancy, no better direction for the SM's % of peak
    expect(row('gpu__time_duration.sum')).toBe('worse');
    expect(row('sm__warps_active.avg.pct_of_peak_sustained_active')).toBe('worse');
    expect(row('sm__throughput.avg.pct_of_peak_sustained_elapsed')).toBe('changed');
    expect(page).toContain('+ appeared: <span class="tag opt">OPT</span> SharedMemoryConflicts');
    expect(page).not.toContain('<script');
    // the other way round the padding is an improvement
    const back = cli('compare', unpadded, padded, '--html', html);
    expect(back.status).not.toBe(0);
    expect(back.stderr).toContain('--html');
    expect(cli('compare', unpadded, padded, '--html', html, '-f').status).toBe(0);
    const again = readFileSync(html, 'utf8');
    expect(/<tr class="(\w+)" data-metric="l1tex__data_bank_conflicts_pipe_lsu_mem_shared\.sum"/.exec(again)?.[1]).toBe('better');
  });

  it('compare: exit 0 on identical reports; --json is the comparison', () => {
    const r = cli('compare', padded, padded, '--threshold', `${BC}=1`, '--json');
    expect(r.status).toBe(0);
    const json = JSON.parse(r.stdout) as { regressions: number; kernels: unknown[] };
    expect(json.regressions).toBe(0);
    expect(json.kernels).toHaveLength(1);
  });

  it('bench: the unpadded transpose against a padded baseline fails, with JUnit and markdown', () => {
    const suite = join(OUT, 'suite.json');
    writeFileSync(suite, JSON.stringify({ kernels: [{ file: 'kernels/transpose.ts', kernel: 'sh_transpose_32x32_bd32x8', params: { width: '1024' } }], thresholds: { [BC]: 1 } }));
    const planted = kernelReport('sh_transpose_32x33_bd32x8', 'sh_transpose_32x32_bd32x8');
    const junit = join(OUT, 'junit.xml');
    const md = join(OUT, 'summary.md');
    const r = cli('bench', '--suite', suite, '--baseline', planted, '--out', join(OUT, 'bench.json'), '--junit', junit, '--markdown', md);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('bench [1/1] kernels/transpose.ts -k sh_transpose_32x32_bd32x8 --param width=1024');
    expect(readFileSync(junit, 'utf8')).toContain('failures="1"');
    expect(readFileSync(md, 'utf8')).toContain('## Warpsight bench: FAILED');
    // and against a baseline it just wrote (--update), the same run passes
    const fresh = join(OUT, 'fresh-baseline.json');
    expect(cli('bench', '--suite', suite, '--baseline', fresh, '--out', join(OUT, 'bench.json'), '--update').status).toBe(0);
    const ok = cli('bench', '--suite', suite, '--baseline', fresh, '--out', join(OUT, 'bench.json'));
    expect(ok.status, ok.stdout + ok.stderr).toBe(0);
  });

  it('report: renders a saved report to the terminal, and HTML', () => {
    const html = join(OUT, 'saved.html');
    const r = cli('report', unpadded, '--html', html, '--section', 'Occupancy');
    expect(r.status).toBe(0);
    expect(readFileSync(html, 'utf8')).toContain('data-section="Occupancy"');
    const t = cli('report', unpadded, '--section', 'LaunchStats');
    expect(t.stdout).toContain('Section: Launch Statistics');
    expect(cli('report', join(OUT, 'missing.json')).stderr).toContain('error: report file not found');
  });

  it("report: profile's pages and selection on a saved report (source with file:line, --metrics on the raw CSV)", () => {
    const source = cli('report', unpadded, '--page', 'source');
    expect(source.status).toBe(0);
    expect(source.stdout).toMatch(/Address\s+Location\s+Source/);
    expect(source.stdout).toMatch(/kernels\/transpose\.ts:\d+\s+LDS/);
    const raw = cli('report', unpadded, '--metrics', `${BC},smsp__inst_executed.sum`, '--csv', '--page', 'raw');
    const [head = '', units = ''] = raw.stdout.split('\n');
    expect(head.endsWith(`"${BC}","smsp__inst_executed.sum"`)).toBe(true);
    expect(units.endsWith('"","inst"')).toBe(true);
    expect(cli('report', unpadded, '--page', 'session').stdout).toMatch(/Launches\s+1/);
  });
});
