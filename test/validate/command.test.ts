import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../types/report.schema.js';
import { validate } from '../../commands/validate.js';
import type { Profiler, ValidateInput } from '../../commands/validate.js';
import { UserError } from '../../src/errors.js';
import { writeRawCsv } from '../../src/report/csv.js';
import { fakeReport, kernel } from '../report/fakeReport.js';

const GT = fileURLToPath(new URL('../../../shared/groundtruth/h200/', import.meta.url));

/** "Measured" CSV: our writer's raw page of the fake report stands in for a real ncu export. */
const dir = mkdtempSync(join(tmpdir(), 'warpsight-validate-'));
const measured = join(dir, 'measured.csv');
writeFileSync(measured, writeRawCsv(fakeReport()));

function input(overrides: Partial<ValidateInput> = {}): ValidateInput {
  return { file: 'kernels/micro.ts', ncu: measured, arch: 'h200', cacheControl: 'all', json: false, tty: false, ...overrides };
}

/** A profiler that returns a fixed report and remembers what it was asked. */
function fakeProfiler(report: Report): Profiler & { calls: Parameters<Profiler>[0][] } {
  const calls: Parameters<Profiler>[0][] = [];
  return Object.assign(
    async (req: Parameters<Profiler>[0]) => {
      calls.push(req);
      return report;
    },
    { calls },
  );
}

describe('warpsight validate', () => {
  it('exits 0 when every metric is within tolerance', async () => {
    const profile = fakeProfiler(fakeReport());
    const result = await validate(input(), profile);
    expect(result.exitCode).toBe(0);
    expect(result.output).toMatch(/\n\d+ metrics compared, 0 outside tolerance\n$/);
    expect(profile.calls).toEqual([{ file: 'kernels/micro.ts', arch: 'h200', cacheControl: 'all' }]);
  });

  it('exits 1 when an exact metric is off by one', async () => {
    const report = fakeReport();
    const k = report.kernels[0];
    if (!k) throw new Error('fixture');
    k.metrics['l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum'] = 131073;
    const result = await validate(input(), fakeProfiler(report));
    expect(result.exitCode).toBe(1);
    expect(result.output).toMatch(/l1tex__t_sectors_pipe_lsu_mem_global_op_ld\.sum .* FAIL/);
    expect(result.output).toMatch(/, 1 outside tolerance\n$/);
  });

  it('prints the rows as JSON with --json', async () => {
    const result = await validate(input({ json: true }), fakeProfiler(fakeReport()));
    const rows = JSON.parse(result.output) as { kernel: string; metric: string; status: string }[];
    expect(rows.length).toBe(result.rows.length);
    expect(rows.find((r) => r.metric === 'smsp__sass_inst_executed_op_global_ld.sum')).toMatchObject({ kernel: 'g_ld_u8_coalesced', status: 'ok' });
  });

  it('passes exact -k names to the profiler and compares only those kernels', async () => {
    const profile = fakeProfiler(fakeReport());
    const result = await validate(input({ kernel: ['sh_transpose_32x32_bd32x8'] }), profile);
    expect(profile.calls[0]?.kernel).toEqual(['sh_transpose_32x32_bd32x8']);
    expect(new Set(result.rows.map((r) => r.kernel))).toEqual(new Set(['sh_transpose_32x32_bd32x8']));
  });

  it('takes regex: filters as ncu does, profiling the whole file', async () => {
    const profile = fakeProfiler(fakeReport());
    const result = await validate(input({ kernel: ['regex:^g_ld'] }), profile);
    expect(profile.calls[0]?.kernel).toBeUndefined();
    expect(new Set(result.rows.map((r) => r.kernel))).toEqual(new Set(['g_ld_u8_coalesced']));
  });

  it('compares against a real ncu export, skipping the kernels the file does not have', async () => {
    const report = fakeReport();
    report.kernels = [kernel({ id: 0, name: 'g_ld_u8_coalesced', metrics: { 'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum': 131072, 'lts__t_sector_hit_rate.pct': 55 } })];
    const result = await validate(input({ ncu: `${GT}ncu_raw_g.csv` }), fakeProfiler(report));
    expect(result.exitCode).toBe(0);
    expect(result.output).toContain('2 metrics compared, 0 outside tolerance\n35 launch(es) of kernels not in kernels/micro.ts skipped\n');
  });

  it('reports a kernel of the file that the CSV lacks', async () => {
    const report = fakeReport();
    report.kernels.push(kernel({ id: 7, name: 'not_measured' }));
    const result = await validate(input(), fakeProfiler(report));
    expect(result.rows.find((r) => r.kernel === 'not_measured')).toMatchObject({ status: 'info', note: 'not in the ncu CSV' });
    expect(result.exitCode).toBe(0);
  });

  it('fails in one line naming the path when the CSV is missing, before profiling', async () => {
    const profile = fakeProfiler(fakeReport());
    const run = validate(input({ ncu: '/nonexistent/real.csv' }), profile);
    await expect(run).rejects.toThrow(UserError);
    await expect(run).rejects.toThrow(/^cannot read ncu CSV \/nonexistent\/real\.csv: no such file[^\n]*$/);
    expect(profile.calls).toHaveLength(0);
  });

  it('says so when no kernel matches', async () => {
    await expect(validate(input({ kernel: ['nope'] }), fakeProfiler(fakeReport()))).rejects.toThrow(
      /no launch in .*measured\.csv matches -k nope \(it has: g_ld_u8_coalesced, sh_transpose_32x32_bd32x8\)/,
    );
    const other = fakeReport();
    other.kernels = [kernel({ id: 0, name: 'transpose_padded' })];
    await expect(validate(input(), fakeProfiler(other))).rejects.toThrow(
      /no kernel of kernels\/micro\.ts \(transpose_padded\) appears in .*measured\.csv/,
    );
  });
});
