/**
 * Fidelity tests run the same code as `warpsight validate`: profile a kernel file, compare every metric
 * both sides have with the H200's raw ncu export, judge by the tolerance table.
 */
import { join } from 'node:path';
import { validate } from '../../commands/validate.js';
import { profileFile } from '../../src/profile.js';
import { readNcuRawCsv } from '../../src/report/ncuCsv.js';
import type { ValidationRow } from '../../src/validate/compare.js';
import type { KernelResult } from '../../types/report.schema.js';
import { cachedProfiler } from './reports.js';

export const GROUNDTRUTH = join(import.meta.dirname, '..', '..', '..', 'shared', 'groundtruth', 'h200');

/** `warpsight validate` of a shared full-size profile (test/fidelity/reports.ts) against an H200 raw CSV */
export async function validateAgainstH200(run: string, csv: string, opts: { kernel?: string[] } = {}): Promise<ValidationRow[]> {
  const result = await validate(
    { file: run, ncu: join(GROUNDTRUTH, csv), ...(opts.kernel ? { kernel: opts.kernel } : {}), arch: 'h200', cacheControl: 'all', json: false, tty: false },
    cachedProfiler(run),
  );
  return result.rows;
}

export type Metrics = Record<string, number>;

/**
 * A probe kernel by kernel, on both sides: the H200's metrics from the probe's raw CSV
 * (test/fidelity/probes/<csv>) and Warpsight's from profiling its IR twin on `blocks` blocks (the
 * probes' blocks all do the same work, so per-warp figures do not depend on the grid)
 */
export async function probeMetrics(csv: string, file: string, blocks: number): Promise<{ h200: Map<string, Metrics>; ours: Map<string, Metrics> }> {
  const h200 = new Map<string, Metrics>();
  for (const l of readNcuRawCsv(join(import.meta.dirname, 'probes', csv)))
    h200.set(l.kernelName, Object.fromEntries(Object.entries(l.metrics).map(([id, v]) => [id, Number(v.value)])));
  const report = await profileFile({ file, grid: [blocks, 1, 1] });
  const ours = new Map<string, Metrics>();
  for (const k of report.kernels as KernelResult[]) ours.set(k.name, k.metrics as Metrics);
  return { h200, ours };
}

/** rows of the given metrics, as "kernel metric ncu ours status" lines for readable failures */
export function table(rows: readonly ValidationRow[], metrics: readonly string[]): string[] {
  return rows
    .filter((r) => metrics.includes(r.metric))
    .map((r) => `${r.kernel}#${r.instance} ${r.metric}: ncu ${r.ncu} warpsight ${r.warpsight} ${r.status}`);
}

export function failures(rows: readonly ValidationRow[], metrics: readonly string[]): string[] {
  return table(rows.filter((r) => r.status === 'FAIL'), metrics);
}

/** the counts issue 2 requires to be exact */
export const EXACT_GLOBAL = [
  'smsp__sass_inst_executed_op_global_ld.sum',
  'smsp__sass_inst_executed_op_global_st.sum',
  'l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum',
  'l1tex__t_requests_pipe_lsu_mem_global_op_st.sum',
  'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum',
  'l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum',
];
