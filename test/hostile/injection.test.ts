/**
 * Injection through names and reports: a kernel named `=HYPERLINK(…)` reaches `--csv` as text a
 * spreadsheet will not evaluate (OWASP: a leading single quote; numbers like -5 stay numbers), and
 * terminal escape sequences in kernel names, kernel files or an untrusted report JSON are printed as
 * visible escapes by profile, report, compare, kernels and in error lines — HTML stays escaped.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../types/report.schema.js';
import { escapeControl } from '../../src/errors.js';
import { neutralizeCell } from '../../src/report/csv.js';
import { expectError, kernelFile, runCli, scratch, tinyKernel } from './harness.js';

const dir = scratch('inject');
const ESC = '\u001b';
/** no raw control character except newlines between lines */
const raw = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

describe('CSV formula injection', () => {
  const formulas = ['=HYPERLINK("http://evil","x")', '+cmd|/C calc', '-2+3+cmd|/C calc', '@SUM(A1:A2)', '\tleading tab', '\rleading CR'];
  for (const name of formulas) {
    it(`a kernel named ${JSON.stringify(name)} is quoted on every CSV page`, async () => {
      const file = kernelFile(dir, tinyKernel({ name: JSON.stringify(name) }));
      for (const page of ['details', 'raw', 'source']) {
        const r = await runCli(['profile', file, '--no-timing', '--csv', '--page', page]);
        expect(r.code, r.stderr).toBe(0);
        const cells = r.stdout.split('\n').flatMap((l) => l.split('","').map((c) => c.replace(/^"|"$/g, '')));
        // no cell opens with a formula character unless it is a number as ncu prints it
        const bad = cells.filter((c) => /^[=+\-@\t\r]/.test(c) && !/^-?[\d,]+(\.\d+)?$/.test(c));
        expect(bad, page).toEqual([]);
        if (page !== 'source') expect(r.stdout).toContain(`'${name.replaceAll('"', '""')}`);
      }
    });
  }
  it('keeps negative numbers, inf and nan as numbers', () => {
    for (const n of ['-5', '-1,024', '-2.50', '-1e-7', '-inf', 'nan', '+3']) expect(neutralizeCell(n)).toBe(n);
    for (const f of ['=1+1', '-x', '+a', '@a', '-', '- 5', '\t1']) expect(neutralizeCell(f)).toBe(`'${f}`);
  });
});

describe('terminal escape sequences', () => {
  const evil = `evil${ESC}]0;pwned${ESC}\\${ESC}[2J${ESC}[31m\nforged line\u009b`;
  let reportFile = '';
  let evilMetric = '';
  beforeAll(async () => {
    const file = kernelFile(dir, tinyKernel({ name: JSON.stringify(evil) }));
    const out = join(dir, 'evil.json');
    const r = await runCli(['profile', file, '--no-timing', '-o', out]);
    expect(r.code, r.stderr).toBe(0);
    // an untrusted report: escapes in a metric id, a rule and a unit-less custom metric too
    const rep = JSON.parse(readFileSync(out, 'utf8')) as Report;
    const k = rep.kernels[0];
    if (!k) throw new Error('no kernel');
    evilMetric = `smsp__inst_executed.sum${ESC}[8m`;
    k.metrics[evilMetric] = 1;
    reportFile = join(dir, 'evil-untrusted.json');
    writeFileSync(reportFile, JSON.stringify(rep));
  });

  it('profile prints the name escaped', async () => {
    const file = kernelFile(dir, tinyKernel({ name: JSON.stringify(evil) }));
    const r = await runCli(['profile', file, '--no-timing', '--section', 'LaunchStats']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(raw);
    expect(r.stdout).toContain(escapeControl(evil));
    expect(r.stdout.split('\n').some((l) => l.startsWith('forged line'))).toBe(false);
  });
  it('report prints an untrusted report escaped', async () => {
    const r = await runCli(['report', reportFile]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(raw);
    expect(r.stdout).toContain('evil\\x1b]0;pwned');
  });
  it('compare prints names and metric ids escaped', async () => {
    const r = await runCli(['compare', reportFile, reportFile]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(raw);
    expect(r.stdout).toContain('smsp__inst_executed.sum\\x1b[8m');
  });
  it('compare: a threshold naming the escaped id is checked, and its error line escaped', async () => {
    const r = await runCli(['compare', reportFile, reportFile, '--threshold', `${evilMetric}x=1`]);
    const line = expectError(r, 2, /^error: --threshold smsp__inst_executed\.sum\\x1b\[8mx=1: unknown metric/);
    expect(line).not.toMatch(raw);
  });
  it('kernels lists names escaped', async () => {
    const d = scratch('inject-dir');
    kernelFile(d, tinyKernel({ name: JSON.stringify(evil) }));
    const r = await runCli(['kernels', '--dir', d]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(raw);
  });
  it('an error naming a kernel escapes it', async () => {
    const file = kernelFile(dir, tinyKernel({ name: JSON.stringify(evil), setup: "() => { throw new Error('x\\u001b[31my'); }" }));
    const line = expectError(await runCli(['profile', file]), 3, /in setup\(\) of kernel 'evil\\x1b\]0;pwned.*threw Error: x\\x1b\[31my$/);
    expect(line).not.toMatch(raw);
  });
  it('an error naming a -k value escapes it', async () => {
    const line = expectError(await runCli(['profile', kernelFile(dir, tinyKernel()), '-k', `a${ESC}[2Jb`]), 2, /^error: no kernel named 'a\\x1b\[2Jb' in /);
    expect(line).not.toMatch(raw);
  });
  it('a warning (wrong result) escapes the check message', async () => {
    const file = kernelFile(dir, tinyKernel({ check: `() => 'wrong${'\\u001b'}[31m'` }));
    // a wrong result is the run's verdict (exit 1, --check-exit-code as in ncu), said in one warning
    const r = await runCli(['profile', file, '--no-timing', '--section', 'LaunchStats']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^warning: kernel 'tiny' computed a wrong result: wrong\\x1b\[31m\n$/);
  });
  it('HTML stays escaped', async () => {
    const html = join(dir, 'evil.html');
    const file = kernelFile(dir, tinyKernel({ name: JSON.stringify('<img src=x onerror=alert(1)>') }));
    const r = await runCli(['profile', file, '--no-timing', '--html', html, '--section', 'LaunchStats']);
    expect(r.code, r.stderr).toBe(0);
    const page = readFileSync(html, 'utf8');
    expect(page).not.toContain('<img src=x');
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });
});
