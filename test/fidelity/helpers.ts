/**
 * Fidelity tests run the same code as `warpsight validate`: profile a kernel file, compare every metric
 * both sides have with the H200's raw ncu export, judge by the tolerance table.
 */
import { join } from 'node:path';
import { validate } from '../../commands/validate.js';
import type { ValidationRow } from '../../src/validate/compare.js';
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
