/**
 * The bench suite (`reports/bench-suite.json`): which kernels `warpsight bench` profiles, with what
 * parameters, and the per-metric thresholds (in %) a change must stay within.
 */
import { readFileSync } from 'node:fs';
import type { Dim3 } from '../../types/report.schema.js';
import { UserError } from '../errors.js';
import { checkMetricId } from '../metrics/known.js';
import { type Threshold, parseThresholdValue } from '../report/compare.js';

export interface SuiteEntry {
  /** kernel file, relative to the working directory */
  file: string;
  /** kernel name in the file */
  kernel: string;
  /** scalar parameters (`--param name=value`) */
  params?: Record<string, string>;
  grid?: Dim3;
  block?: Dim3;
}

export interface Suite {
  kernels: SuiteEntry[];
  /** metric id or `*` pattern → allowed change in % */
  thresholds: Threshold[];
}

function fail(file: string, where: string, what: string): never {
  throw new UserError(`${file}: ${where}: ${what}`);
}

function dim3(file: string, where: string, v: unknown): Dim3 | undefined {
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || v.length !== 3 || !v.every((n) => Number.isInteger(n) && (n as number) > 0)) fail(file, where, 'expected [x, y, z] of positive integers');
  return v as Dim3;
}

/** Validates a parsed suite file; `file` names it in errors. */
export function parseSuite(value: unknown, file: string): Suite {
  if (typeof value !== 'object' || value === null) fail(file, '/', 'expected an object with "kernels" and "thresholds"');
  const obj = value as Record<string, unknown>;
  if (!Array.isArray(obj.kernels) || obj.kernels.length === 0) fail(file, '/kernels', 'expected a non-empty array of { file, kernel, params? }');
  const kernels = obj.kernels.map((e: unknown, i): SuiteEntry => {
    const where = `/kernels/${i}`;
    if (typeof e !== 'object' || e === null) fail(file, where, 'expected { file, kernel, params? }');
    const entry = e as Record<string, unknown>;
    if (typeof entry.file !== 'string' || entry.file === '') fail(file, `${where}/file`, 'expected the kernel file path');
    if (typeof entry.kernel !== 'string' || entry.kernel === '') fail(file, `${where}/kernel`, 'expected the kernel name');
    if (entry.kernel.startsWith('regex:')) {
      try {
        new RegExp(entry.kernel.slice('regex:'.length));
      } catch (e) {
        fail(file, `${where}/kernel`, `not a valid regular expression (${e instanceof Error ? e.message : String(e)})`);
      }
    }
    const params: Record<string, string> = {};
    if (entry.params !== undefined) {
      if (typeof entry.params !== 'object' || entry.params === null || Array.isArray(entry.params)) fail(file, `${where}/params`, 'expected { name: value }');
      for (const [k, v] of Object.entries(entry.params as Record<string, unknown>)) {
        if (typeof v !== 'string' && typeof v !== 'number') fail(file, `${where}/params/${k}`, 'expected a string or number');
        params[k] = String(v);
      }
    }
    const grid = dim3(file, `${where}/grid`, entry.grid);
    const block = dim3(file, `${where}/block`, entry.block);
    return { file: entry.file, kernel: entry.kernel, ...(Object.keys(params).length > 0 ? { params } : {}), ...(grid ? { grid } : {}), ...(block ? { block } : {}) };
  });
  const thresholds: Threshold[] = [];
  if (obj.thresholds !== undefined) {
    if (typeof obj.thresholds !== 'object' || obj.thresholds === null || Array.isArray(obj.thresholds)) fail(file, '/thresholds', 'expected { metric: percent }');
    // a number: the worse direction from the registry; a string as --threshold takes it: "+5%", "-5%", "±5%"
    for (const [metric, pct] of Object.entries(obj.thresholds as Record<string, unknown>)) {
      // a typo here used to be ignored: the metric went unchecked and a regression passed CI
      checkMetricId(metric, `${file}: /thresholds/${metric}`);
      if (typeof pct === 'number' && pct >= 0) {
        thresholds.push({ metric, pct });
        continue;
      }
      const value = typeof pct === 'string' ? parseThresholdValue(pct) : undefined;
      if (value === undefined) fail(file, `/thresholds/${metric}`, 'expected a percentage >= 0, or "+5%" (fail on a rise), "-5%" (on a fall), "±5%" (either)');
      thresholds.push({ metric, pct: value.pct, ...(value.direction === 'auto' ? {} : { direction: value.direction }) });
    }
  }
  return { kernels, thresholds };
}

export function readSuite(file: string): Suite {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new UserError(`bench suite not found: ${file}; give one with --suite (see reports/bench-suite.json)`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new UserError(`${file}: invalid JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  return parseSuite(value, file);
}

/** `kernels/transpose.ts -k sh_transpose_32x33_bd32x8 --param width=1024`: how a user reruns one entry */
export function entryLabel(e: SuiteEntry): string {
  const params = Object.entries(e.params ?? {}).map(([k, v]) => ` --param ${k}=${v}`).join('');
  const grid = e.grid ? ` --grid ${e.grid.join(',')}` : '';
  const block = e.block ? ` --block ${e.block.join(',')}` : '';
  return `${e.file} -k ${e.kernel}${params}${grid}${block}`;
}
