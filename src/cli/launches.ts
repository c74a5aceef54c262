/**
 * ncu's launch filters: `--kernel-id context:stream:[name-operator:]name:invocation`,
 * `-s/--launch-skip N` and `-c/--launch-count N` (which count only the launches that match the
 * kernel filters). An emulated program has one context (1); a launch without a stream is on ncu's
 * default stream (7).
 */
import type { KernelResult } from '../../types/report.schema.js';
import { UserError } from '../errors.js';

const DEFAULT_STREAM = 7;

export interface KernelId {
  context?: number;
  stream?: number;
  name?: (name: string) => boolean;
  /** 1-based invocation of that kernel name */
  invocation?: number;
}

function intPart(raw: string, what: string, flag: string): number | undefined {
  if (raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new UserError(`--kernel-id ${flag}: the ${what} '${raw}' is not a whole number; e.g. --kernel-id 1:7:g_ld_u32_stride32:1 or ::regex:^g_ld:2`, 2);
  return n;
}

/** `1:7:name:1`, `::name:`, `::regex:^g_ld:2` (empty parts match anything) */
export function parseKernelId(raw: string): KernelId {
  const parts = raw.split(':');
  if (parts.length !== 4 && parts.length !== 5)
    throw new UserError(`--kernel-id ${raw}: expected context:stream:[name-operator:]kernel-name:invocation, e.g. --kernel-id 1:7:g_ld_u32_stride32:1 or ::regex:^g_ld:2`, 2);
  const [context = '', stream = '', ...rest] = parts;
  const invocation = rest.pop() ?? '';
  const [op, name] = rest.length === 2 ? [rest[0] ?? '', rest[1] ?? ''] : ['', rest[0] ?? ''];
  if (op !== '' && op !== 'regex') throw new UserError(`--kernel-id ${raw}: the name operator '${op}' is not known; use regex: or give the name alone`, 2);
  let match: ((n: string) => boolean) | undefined;
  if (name !== '') {
    if (op === 'regex') {
      let re: RegExp;
      try {
        re = new RegExp(name);
      } catch {
        throw new UserError(`--kernel-id ${raw}: '${name}' is not a valid regular expression`, 2);
      }
      match = (n) => re.test(n);
    } else match = (n) => n === name;
  }
  const inv = intPart(invocation, 'invocation', raw);
  if (inv === 0) throw new UserError(`--kernel-id ${raw}: invocations count from 1`, 2);
  const ctx = intPart(context, 'context', raw);
  const str = intPart(stream, 'stream', raw);
  return { ...(ctx === undefined ? {} : { context: ctx }), ...(str === undefined ? {} : { stream: str }), ...(match ? { name: match } : {}), ...(inv === undefined ? {} : { invocation: inv }) };
}

export interface LaunchFilter {
  kernelId?: KernelId;
  /** matching launches to leave out first (-s) */
  skip?: number;
  /** matching launches to keep at most (-c) */
  count?: number;
}

/** Whether a filter keeps every launch (nothing to do). */
export function filtersNothing(f: LaunchFilter): boolean {
  return f.kernelId === undefined && (f.skip ?? 0) === 0 && f.count === undefined;
}

/**
 * A streaming matcher: called once per launch in order, says whether to keep it, and whether every
 * launch it will keep has been seen (the rest of the run can stop).
 */
export function launchMatcher(f: LaunchFilter): { keep(k: Pick<KernelResult, 'name' | 'launch'>): boolean; done(): boolean } {
  const invocations = new Map<string, number>();
  let matched = 0;
  let kept = 0;
  const id = f.kernelId;
  return {
    keep(k) {
      const inv = (invocations.get(k.name) ?? 0) + 1;
      invocations.set(k.name, inv);
      if (id) {
        if (id.context !== undefined && id.context !== 1) return false;
        if (id.stream !== undefined && id.stream !== (k.launch.stream ?? DEFAULT_STREAM)) return false;
        if (id.name && !id.name(k.name)) return false;
        if (id.invocation !== undefined && id.invocation !== inv) return false;
      }
      matched += 1;
      if (matched <= (f.skip ?? 0)) return false;
      if (f.count !== undefined && kept >= f.count) return false;
      kept += 1;
      return true;
    },
    done: () => f.count !== undefined && kept >= f.count,
  };
}
