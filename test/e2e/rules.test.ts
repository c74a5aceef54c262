/**
 * Rules that read `smsp__warps_active.avg.peak_sustained` fire from a real report: the metric is
 * derived from the device attributes every report carries (it used to need an attribute none did,
 * so TheoreticalOccupancy and IssueSlotUtilization could never fire outside hand-fed unit tests).
 * occ_smem_200k (kernels/occupancy.ts: 200 KiB of shared memory per 512-thread block, one block
 * per SM) runs at 25 % theoretical occupancy; fma_chain at 100 %, issuing on 84 % of its cycles.
 * Also here, since it needs a saved report: `validate --report` reads it without emulating.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../types/report.schema.js';
import { profileFile } from '../../src/profile.js';

const ROOT = join(import.meta.dirname, '..', '..');
const GT = fileURLToPath(new URL('../../../shared/groundtruth/h200/', import.meta.url));

let occ: Report;
let fma: Report;

beforeAll(async () => {
  occ = await profileFile({ file: 'kernels/occupancy.ts', kernel: 'occ_smem_200k' });
  fma = await profileFile({ file: 'kernels/fma_chain.ts', kernel: 'fma_chain' });
});

const rule = (r: Report, id: string) => r.kernels[0]?.rules.find((x) => x.id === id);

describe('occupancy rules from a profiled kernel', () => {
  it('derives the hardware maximum of 16 warps per scheduler (the H200: 64 warps, 4 schedulers)', () => {
    expect(occ.kernels[0]?.metrics['smsp__warps_active.avg.peak_sustained']).toBe(16);
    expect(occ.kernels[0]?.metrics['sm__maximum_warps_per_active_cycle_pct']).toBe(25);
  });

  it('TheoreticalOccupancy fires on occ_smem_200k: 4 of 16 warps per scheduler, limited by shared memory', () => {
    const r = rule(occ, 'TheoreticalOccupancy');
    expect(r).toMatchObject({ section: 'Occupancy', type: 'OPT' });
    expect(r?.message).toBe(
      'The 4.00 theoretical warps per scheduler this kernel can issue according to its occupancy are below the hardware maximum of 16. ' +
        "This kernel's theoretical occupancy (25.0%) is limited by the required amount of shared memory.",
    );
    expect(r?.speedup?.value).toBeGreaterThan(0);
    expect(r?.speedup?.value).toBeLessThanOrEqual(75);
  });

  it('TheoreticalOccupancy does not fire at 100 % theoretical occupancy (fma_chain)', () => {
    expect(fma.kernels[0]?.metrics['sm__maximum_warps_per_active_cycle_pct']).toBe(100);
    expect(rule(fma, 'TheoreticalOccupancy')).toBeUndefined();
  });

  it('IssueSlotUtilization fires on occ_smem_200k (few warps, little issue) and names the 16-warp maximum', () => {
    const issue = occ.kernels[0]?.metrics['smsp__issue_active.avg.per_cycle_active'] as number;
    expect(issue).toBeLessThan(0.6);
    const r = rule(occ, 'IssueSlotUtilization');
    expect(r).toMatchObject({ section: 'SchedulerStats', type: 'OPT' });
    expect(r?.message).toContain('Out of the maximum of 16 warps per scheduler, this workload allocates an average of');
  });

  it('IssueSlotUtilization does not fire when the schedulers issue on most cycles (fma_chain)', () => {
    expect(fma.kernels[0]?.metrics['smsp__issue_active.avg.per_cycle_active'] as number).toBeGreaterThan(0.6);
    expect(rule(fma, 'IssueSlotUtilization')).toBeUndefined();
  });
});

describe('validate --report', () => {
  it("compares a saved report with ncu's CSV without profiling (no kernel file given)", () => {
    const dir = mkdtempSync(join(tmpdir(), 'warpsight-validate-report-'));
    const saved = join(dir, 'occ.json');
    writeFileSync(saved, JSON.stringify(occ));
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bin', 'dev.js'), 'validate', '--report', saved, '--ncu', join(GT, 'ncu_raw_occ.csv'), '-k', 'occ_smem_200k', '--json'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as { metric: string; warpsight: number | null; ncu: number | null; status: string }[];
    const row = rows.find((x) => x.metric === 'sm__maximum_warps_per_active_cycle_pct');
    expect(row).toMatchObject({ warpsight: 25, ncu: 25, status: 'ok' });
    const missing = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bin', 'dev.js'), 'validate', '--ncu', join(GT, 'ncu_raw_occ.csv')], { cwd: ROOT, encoding: 'utf8' });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('error: missing the kernel file: warpsight validate <file.ts> --ncu <csv>, or --report <saved.json>');
  });
});
