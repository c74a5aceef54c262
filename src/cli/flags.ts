/**
 * Flag parsing shared by commands: dim3 values (`--grid 128,1,1`), `--param name=value` lists,
 * byte sizes (`8k`). Errors name the flag and say what is expected.
 */
import { UserError } from '../errors.js';
import type { Dim3 } from '../kernel/define.js';
import { checkMetricId } from '../metrics/known.js';
import { checkWritable } from './output.js';

export function parseDim3(flag: string, raw: string | undefined): Dim3 | undefined {
  if (raw === undefined) return undefined;
  const parts = raw.split(/[,x]/).map((s) => s.trim());
  const nums = parts.map(Number);
  if (parts.length < 1 || parts.length > 3 || nums.some((n) => !Number.isInteger(n) || n < 1))
    throw new UserError(`--${flag} ${raw}: expected 1 to 3 positive integers separated by commas, e.g. --${flag} 128,1,1`, 2);
  return [nums[0] as number, nums[1] ?? 1, nums[2] ?? 1];
}

export function parseParams(list: readonly string[] | undefined): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const item of list ?? []) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw new UserError(`--param ${item}: expected name=value, e.g. --param width=4096`, 2);
    const name = item.slice(0, eq).trim();
    if (name in out) throw new UserError(`--param ${item}: '${name}' is given twice (${name}=${out[name] ?? ''} and ${item}); give it once`, 2);
    out[name] = item.slice(eq + 1).trim();
  }
  return out;
}

/** 8k, 8K, 8kb, 1.5k, 49152, 2m → bytes (k = 1024) */
export function parseBytes(flag: string, raw: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kKmM]?)[bB]?\s*$/.exec(raw);
  if (!m) throw new UserError(`--${flag} ${raw}: expected a byte size like 49152, 8k or 1.5k`, 2);
  const unit = (m[2] ?? '').toLowerCase();
  const v = Number(m[1]) * (unit === 'k' ? 1024 : unit === 'm' ? 1024 * 1024 : 1);
  if (!Number.isInteger(v)) throw new UserError(`--${flag} ${raw}: ${v} is not a whole number of bytes`, 2);
  return v;
}

/** `-k` values: exact names, or `regex:<expr>` (checked here: a bad expression used to throw raw) */
export function checkKernelFilters(list: readonly string[] | undefined): void {
  for (const k of list ?? []) {
    if (!k.startsWith('regex:')) continue;
    try {
      new RegExp(k.slice('regex:'.length));
    } catch (e) {
      throw new UserError(`-k ${k}: not a valid regular expression (${e instanceof Error ? e.message : String(e)})`, 2);
    }
  }
}

/**
 * `profile`'s inputs that can be checked before any emulation: -k expressions, --metrics ids against
 * the registry, and that -o / --html / --charts can be written.
 */
export function checkProfileFlags(f: { kernel?: readonly string[]; metricIds?: readonly string[]; output?: string; html?: string; charts?: string }): void {
  checkKernelFilters(f.kernel);
  if (f.metricIds !== undefined && f.metricIds.length === 0) throw new UserError('--metrics: no metric ids in the list; give comma-separated ids, e.g. --metrics smsp__inst_executed.sum', 2);
  for (const id of f.metricIds ?? []) checkMetricId(id, `--metrics ${id}`, [], false);
  if (f.output !== undefined) checkWritable('--output (-o)', f.output);
  if (f.html !== undefined) checkWritable('--html', f.html);
  if (f.charts !== undefined) checkWritable('--charts', f.charts, 'folder');
}
