/**
 * `warpsight kernels`: the listing of the bundled kernels fits the terminal (120 columns off one):
 * the description column wraps instead of stretching the table to the longest description.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fitColumns } from '../../src/cli/fit.js';
import { CLI_ENTRY } from '../setup/cli.js';

const ROOT = join(import.meta.dirname, '..', '..');

describe('warpsight kernels', () => {
  it('fits 120 columns off a terminal, every kernel listed', () => {
    const r = spawnSync(process.execPath, [...CLI_ENTRY, 'kernels'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status).toBe(0);
    const lines = r.stdout.split('\n').filter((l) => l !== '');
    expect(Math.max(...lines.map((l) => [...l].length))).toBeLessThanOrEqual(120);
    expect(r.stdout).toContain('occ_smem_200k');
    expect(lines.at(-1)).toMatch(/^\d+ kernels in \d+ files\./);
  });

  it('gives the last column what the terminal leaves, at least 20', () => {
    const rows = [['kernels/a.ts', 'k', 'kernel', 'x'.repeat(300)]];
    const widths = fitColumns(['file', 'name', 'kind', 'description'], rows, 80);
    expect(widths.slice(0, 3)).toEqual([14, 6, 8]);
    expect(widths.reduce((a, b) => a + b, 0) + 5).toBe(80);
    expect(fitColumns(['file', 'name', 'kind', 'description'], rows, 30)[3]).toBe(20);
  });
});
