/**
 * Two reports side by side (`warpsight compare base.json new.json`): kernels matched by name and
 * launch order, every numeric metric with base, new, delta and % change, rules that appeared or
 * vanished, and thresholds (`metric=pct`) whose crossing in the worse direction is a regression
 * (the registry says which way is worse; `+pct` / `-pct` / `±pct` say it outright); float changes
 * below a noise floor are no change. Pure data in, data out;
 * `renderComparison` draws the terminal tables.
 */
import Table from 'cli-table3';
import type { KernelResult, MetricValue, Report, RuleResult } from '../../types/report.schema.js';
import { UserError, escapeControl } from '../errors.js';
import { checkMetricId } from '../metrics/known.js';
import { type Better, betterDirection, metricInfo } from '../metrics/registry.js';
import { formatNumber } from './format.js';

/**
 * Which change of a metric fails a threshold: `up` (it may not grow by more than pct), `down` (may
 * not shrink by more), `both`; `auto` takes the worse direction from the registry (a lower-is-better
 * metric fails going up), and both ways for a metric without one.
 */
export type ThresholdDirection = 'auto' | 'up' | 'down' | 'both';

export interface Threshold {
  /** an exact metric id, or a pattern where `*` matches any run of characters */
  readonly metric: string;
  /** the largest allowed change, in percent of |base| */
  readonly pct: number;
  /** absent: auto */
  readonly direction?: ThresholdDirection;
}

/**
 * The percentage of a threshold: `5` or `5%` (the worse direction, from the registry), `+5%` (fail
 * when it grows by more), `-5%` (fail when it shrinks by more), `±5%` or `+-5%` (either way).
 */
export function parseThresholdValue(raw: string): { pct: number; direction: ThresholdDirection } | undefined {
  const m = /^\s*(\+-|±|\+|-)?\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(raw);
  if (!m) return undefined;
  const sign = m[1];
  const direction: ThresholdDirection = sign === '+' ? 'up' : sign === '-' ? 'down' : sign === undefined ? 'auto' : 'both';
  return { pct: Number(m[2]), direction };
}

/** `l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum=+1%` → { metric, pct: 1, direction: 'up' } */
export function parseThreshold(text: string): Threshold {
  const eq = text.lastIndexOf('=');
  const metric = eq > 0 ? text.slice(0, eq).trim() : '';
  const value = eq > 0 ? parseThresholdValue(text.slice(eq + 1)) : undefined;
  if (metric === '' || value === undefined)
    throw new UserError(
      `--threshold ${text}: expected metric=percent, e.g. --threshold l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum=1 (the worse direction from the registry), =+5% (fail on a rise), =-5% (on a fall), =±5% (either)`,
      2,
    );
  return { metric, pct: value.pct, ...(value.direction === 'auto' ? {} : { direction: value.direction }) };
}

/** the direction a threshold checks for a metric: its own, else the registry's worse direction */
export function effectiveDirection(t: Threshold, metric: string): Exclude<ThresholdDirection, 'auto'> {
  const d = t.direction ?? 'auto';
  if (d !== 'auto') return d;
  const better: Better | undefined = betterDirection(metric);
  return better === 'lower' ? 'up' : better === 'higher' ? 'down' : 'both';
}

/**
 * Floating-point noise: a change of a non-integer value below this fraction of it is no change
 * (two runs of one model may differ in the last bits of a sum taken in another order), nor is one
 * that ncu would print the same (two decimals). A floor of 0 counts every difference.
 */
export const DEFAULT_NOISE_FLOOR_PCT = 1e-4;

export function isNoise(base: number, next: number, floorPct = DEFAULT_NOISE_FLOOR_PCT): boolean {
  if (base === next) return true;
  if (Number.isInteger(base) && Number.isInteger(next)) return false;
  // a floor of 0 turns it off: every difference counts
  if (floorPct === 0 || !Number.isFinite(base) || !Number.isFinite(next)) return false;
  if (base.toFixed(2) === next.toFixed(2)) return true;
  return Math.abs(next - base) <= (floorPct / 100) * Math.max(Math.abs(base), Math.abs(next));
}

/**
 * Thresholds checked against what they can apply to, before comparing: an id (or pattern) no known
 * metric matches is a typo (exit 2, nearest ids suggested); one the reports both lack cannot be checked
 * (exit 2 too: a gate that checks nothing must not pass). `texts` are the flags as typed, for messages.
 */
export function checkThresholds(thresholds: readonly Threshold[], texts: readonly string[], reports: readonly Report[]): void {
  const ids = new Set(reports.flatMap((r) => r.kernels.flatMap((k) => Object.keys(k.metrics))));
  thresholds.forEach((t, i) => {
    const where = `--threshold ${texts[i] ?? `${t.metric}=${t.pct}`}`;
    checkMetricId(t.metric, where, ids);
    const re = patternOf(t.metric);
    if (re ? ![...ids].some((id) => re.test(id)) : !ids.has(t.metric))
      throw new UserError(`${where}: neither report has ${re ? 'a metric matching ' : 'the metric '}'${t.metric}' (a report profiled with --no-timing lacks durations, cycles and throughputs); the threshold could not be checked`);
  });
}

function patternOf(metric: string): RegExp | undefined {
  if (!metric.includes('*')) return undefined;
  return new RegExp(`^${metric.split('*').map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
}

/** The threshold for a metric: an exact id wins over a pattern; among patterns the first given. */
export function thresholdFor(metric: string, thresholds: readonly Threshold[]): Threshold | undefined {
  return thresholds.find((t) => t.metric === metric) ?? thresholds.find((t) => patternOf(t.metric)?.test(metric) ?? false);
}

export interface MetricDelta {
  metric: string;
  label: string;
  unit: string;
  /** null: the report has no numeric value for it */
  base: number | null;
  new: number | null;
  /** new − base */
  delta: number | null;
  /** 100 · (new − base) / |base|; Infinity when base is 0 and new is not (JSON: null) */
  pct: number | null;
  /** the allowed % change, when a threshold applies */
  threshold?: number;
  /** the change the threshold fails: up, down or both */
  direction?: Exclude<ThresholdDirection, 'auto'>;
  /** the change is floating-point noise (below the noise floor): reported as 0 % */
  noise?: boolean;
  regression: boolean;
}

export interface RuleRef {
  id: string;
  section: string;
  type: RuleResult['type'];
  speedup?: number;
}

export interface KernelComparison {
  name: string;
  /** 0, 1, 2… among launches of the same name */
  instance: number;
  /** matched: in both; base / new: only in that report */
  status: 'matched' | 'base-only' | 'new-only';
  /** the kernel's name in the new report when it differs (single-kernel reports pair up anyway) */
  newName?: string;
  metrics: MetricDelta[];
  rulesAppeared: RuleRef[];
  rulesVanished: RuleRef[];
  regressions: number;
}

export interface Comparison {
  thresholds: Threshold[];
  kernels: KernelComparison[];
  /** metrics that crossed their threshold, over all kernels */
  regressions: number;
  /** kernels found in only one report */
  unmatched: number;
  /** thresholds naming a metric neither report has (likely a typo) */
  unusedThresholds: string[];
}

export interface CompareOptions {
  thresholds?: readonly Threshold[];
  /** non-integer changes below this % are noise (default DEFAULT_NOISE_FLOOR_PCT) */
  noiseFloorPct?: number;
}

const num = (v: MetricValue | undefined): number | null => (typeof v === 'number' ? v : null);

export function percentChange(base: number, next: number): number {
  if (base === next) return 0;
  if (base === 0) return next > 0 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
  return (100 * (next - base)) / Math.abs(base);
}

function crosses(pct: number, limit: number, direction: Exclude<ThresholdDirection, 'auto'>): boolean {
  if (direction === 'up') return pct > limit;
  if (direction === 'down') return pct < -limit;
  return Math.abs(pct) > limit;
}

function metricDeltas(base: KernelResult | undefined, next: KernelResult | undefined, thresholds: readonly Threshold[], noiseFloorPct: number): MetricDelta[] {
  const ids = new Set<string>();
  for (const k of [base, next]) for (const [id, v] of Object.entries(k?.metrics ?? {})) if (typeof v === 'number') ids.add(id);
  return [...ids].sort().map((id) => {
    const b = num(base?.metrics[id]);
    const n = num(next?.metrics[id]);
    const info = metricInfo(id);
    const t = thresholdFor(id, thresholds);
    const noise = b !== null && n !== null && b !== n && isNoise(b, n, noiseFloorPct);
    const delta = b !== null && n !== null ? n - b : null;
    const pct = b !== null && n !== null ? (noise ? 0 : percentChange(b, n)) : null;
    const direction = t ? effectiveDirection(t, id) : undefined;
    // a metric under a threshold that one side lacks cannot be checked: that fails too
    const regression = t !== undefined && direction !== undefined && (pct === null ? b !== n : crosses(pct, t.pct, direction));
    return {
      metric: id,
      label: info.label,
      unit: info.unit,
      base: b,
      new: n,
      delta,
      pct,
      ...(t ? { threshold: t.pct, direction } : {}),
      ...(noise ? { noise } : {}),
      regression,
    };
  });
}

const ruleKey = (r: Pick<RuleResult, 'id' | 'section'>): string => `${r.section}\u0000${r.id}`;
const ruleRef = (r: RuleResult): RuleRef => ({ id: r.id, section: r.section, type: r.type, ...(r.speedup ? { speedup: r.speedup.value } : {}) });

function compareKernels(base: KernelResult | undefined, next: KernelResult | undefined, instance: number, thresholds: readonly Threshold[], noiseFloorPct: number): KernelComparison {
  const metrics = metricDeltas(base, next, thresholds, noiseFloorPct);
  const baseRules = new Set((base?.rules ?? []).map(ruleKey));
  const newRules = new Set((next?.rules ?? []).map(ruleKey));
  const name = base?.name ?? next?.name ?? '';
  return {
    name,
    instance,
    status: base && next ? 'matched' : base ? 'base-only' : 'new-only',
    ...(base && next && next.name !== base.name ? { newName: next.name } : {}),
    metrics,
    rulesAppeared: base && next ? next.rules.filter((r) => !baseRules.has(ruleKey(r))).map(ruleRef) : [],
    rulesVanished: base && next ? base.rules.filter((r) => !newRules.has(ruleKey(r))).map(ruleRef) : [],
    regressions: base && next ? metrics.filter((m) => m.regression).length : 0,
  };
}

function instances(kernels: readonly KernelResult[]): { kernel: KernelResult; instance: number }[] {
  const seen = new Map<string, number>();
  return kernels.map((kernel) => {
    const instance = seen.get(kernel.name) ?? 0;
    seen.set(kernel.name, instance + 1);
    return { kernel, instance };
  });
}

export function compareReports(base: Report, next: Report, opts: CompareOptions = {}): Comparison {
  const thresholds = [...(opts.thresholds ?? [])];
  const key = (name: string, instance: number): string => `${name}\u0000${instance}`;
  const baseList = instances(base.kernels);
  const newList = instances(next.kernels);
  const newByKey = new Map(newList.map((e) => [key(e.kernel.name, e.instance), e]));
  const pairs: { base?: KernelResult; next?: KernelResult; instance: number }[] = [];
  const used = new Set<string>();
  for (const b of baseList) {
    const k = key(b.kernel.name, b.instance);
    const n = newByKey.get(k);
    if (n) used.add(k);
    pairs.push({ base: b.kernel, ...(n ? { next: n.kernel } : {}), instance: b.instance });
  }
  for (const n of newList) if (!used.has(key(n.kernel.name, n.instance))) pairs.push({ next: n.kernel, instance: n.instance });
  // one launch on each side under different names (a renamed or variant kernel): compare them
  const baseOnly = pairs.filter((p) => p.next === undefined);
  const newOnly = pairs.filter((p) => p.base === undefined);
  if (base.kernels.length === 1 && next.kernels.length === 1 && baseOnly.length === 1 && newOnly.length === 1) {
    pairs.splice(0, pairs.length, { base: base.kernels[0] as KernelResult, next: next.kernels[0] as KernelResult, instance: 0 });
  }
  const noiseFloor = opts.noiseFloorPct ?? DEFAULT_NOISE_FLOOR_PCT;
  const kernels = pairs.map((p) => compareKernels(p.base, p.next, p.instance, thresholds, noiseFloor));
  const allIds = new Set([...base.kernels, ...next.kernels].flatMap((k) => Object.keys(k.metrics)));
  const unusedThresholds = thresholds
    .filter((t) => {
      const re = patternOf(t.metric);
      return re ? ![...allIds].some((id) => re.test(id)) : !allIds.has(t.metric);
    })
    .map((t) => t.metric);
  return {
    thresholds,
    kernels,
    regressions: kernels.reduce((s, k) => s + k.regressions, 0),
    unmatched: kernels.filter((k) => k.status !== 'matched').length,
    unusedThresholds,
  };
}

/** A metric value in a table cell: ncu's number format, '-' for none. */
function cell(v: number | null): string {
  return v === null ? '-' : formatNumber(v);
}

export function formatPct(pct: number | null): string {
  if (pct === null) return '-';
  if (!Number.isFinite(pct)) return pct > 0 ? '+inf%' : '-inf%';
  if (pct === 0) return '0%';
  return `${pct > 0 ? '+' : ''}${formatNumber(Math.round(pct * 100) / 100)}%`;
}

function formatDelta(d: number | null): string {
  if (d === null) return '-';
  return `${d > 0 ? '+' : ''}${formatNumber(d)}`;
}

export interface RenderCompareOptions {
  /** colours and borders for a terminal; off for pipes and CI logs (byte-stable text) */
  tty?: boolean;
  /** only rows that changed or crossed a threshold */
  changedOnly?: boolean;
}

function kernelTitle(k: KernelComparison, repeated: ReadonlySet<string>): string {
  const name = repeated.has(k.name) ? `${k.name} [${k.instance}]` : k.name;
  return escapeControl(k.newName === undefined ? name : `${name} → ${k.newName}`);
}

export function summarizeComparison(c: Comparison): string {
  const matched = c.kernels.filter((k) => k.status === 'matched');
  const changed = matched.reduce((s, k) => s + k.metrics.filter((m) => m.pct !== null && m.pct !== 0).length, 0);
  // a metric one side lacks (not collected there: profile --no-timing) is not a changed value
  const oneSided = matched.reduce((s, k) => s + k.metrics.filter((m) => m.pct === null).length, 0);
  const parts = [
    `${matched.length} kernels compared`,
    `${changed} metric value${changed === 1 ? '' : 's'} changed`,
    ...(oneSided > 0 ? [`${oneSided} metric${oneSided === 1 ? '' : 's'} in only one report`] : []),
    `${c.regressions} threshold${c.regressions === 1 ? '' : 's'} crossed`,
  ];
  if (c.unmatched > 0) parts.push(`${c.unmatched} kernel${c.unmatched === 1 ? '' : 's'} in only one report`);
  return parts.join(', ');
}

export function renderComparison(c: Comparison, opts: RenderCompareOptions = {}): string {
  const out: string[] = [];
  const repeated = new Set(c.kernels.filter((k) => k.instance > 0).map((k) => k.name));
  for (const k of c.kernels) {
    const title = kernelTitle(k, repeated);
    if (k.status !== 'matched') {
      out.push(`${title}: only in the ${k.status === 'base-only' ? 'base' : 'new'} report`, '');
      continue;
    }
    const rows = opts.changedOnly ? k.metrics.filter((m) => m.pct !== 0 || m.regression) : k.metrics;
    out.push(`${title}: ${k.regressions === 0 ? 'ok' : `${k.regressions} regression${k.regressions === 1 ? '' : 's'}`}`);
    if (rows.length > 0) {
      const table = new Table({
        head: ['metric', 'unit', 'base', 'new', 'delta', '%', 'threshold'],
        colAligns: ['left', 'left', 'right', 'right', 'right', 'right', 'left'],
        style: opts.tty ? { compact: true } : { head: [], border: [], compact: true },
      });
      for (const m of rows) {
        const sign = m.direction === 'up' ? '+' : m.direction === 'down' ? '-' : '±';
        const verdict = m.threshold === undefined ? '' : `${m.regression ? 'FAIL' : 'ok'} (${sign}${formatNumber(m.threshold)}%)`;
        // ids and units come from the reports' JSON, which may be anyone's: no control characters reach the terminal
        table.push([escapeControl(m.metric), escapeControl(m.unit), cell(m.base), cell(m.new), formatDelta(m.delta), formatPct(m.pct), verdict]);
      }
      out.push(table.toString());
    }
    for (const r of k.rulesAppeared) out.push(`  + rule appeared: ${escapeControl(`${r.type} ${r.id} (${r.section})`)}${r.speedup === undefined ? '' : `, est. speedup ${formatNumber(Math.round(r.speedup * 100) / 100)}%`}`);
    for (const r of k.rulesVanished) out.push(`  - rule vanished: ${escapeControl(`${r.type} ${r.id} (${r.section})`)}`);
    out.push('');
  }
  for (const t of c.unusedThresholds) out.push(`warning: --threshold ${escapeControl(t)}: neither report has this metric`);
  out.push(summarizeComparison(c));
  return `${out.join('\n')}\n`;
}
