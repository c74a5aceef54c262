/**
 * Warpsight's counters beside real ncu's, metric by metric, judged by `metrics/tolerances.ts`.
 * `compareWithNcu` is pure data in, data out; `renderValidation` draws the terminal table.
 */
import Table from 'cli-table3';
import type { KernelResult } from '../../types/report.schema.js';
import { escapeControl } from '../errors.js';
import { metricInfo } from '../metrics/registry.js';
import { TOLERANCES, errorBaseOf, formatTolerance, toleranceFor } from '../metrics/tolerances.js';
import type { Tolerance, ToleranceKind } from '../metrics/tolerances.js';
import { formatNcuNumber, roundAsNcuPrints } from '../report/csv.js';
import type { NcuLaunch } from '../report/ncuCsv.js';

export type ValidationStatus = 'ok' | 'FAIL' | 'info';

export interface ValidationRow {
  kernel: string;
  /** 0, 1, 2… among the launches of the same kernel name, in order of appearance */
  instance: number;
  /** ncu metric id; '' on a row about the launch itself (unmatched, or a different launch configuration) */
  metric: string;
  label: string;
  unit: string;
  ncu: number | null;
  warpsight: number | null;
  /**
   * relative tolerance (and unjudged rows): |warpsight − ncu| / |ncu| (Infinity when ncu is 0 and we are not),
   * or / the ncu value of the tolerance's `of` metric (bank conflicts: / ncu's wavefronts);
   * exact and absolute: |warpsight − ncu|, after rounding ours as ncu prints it for exact.
   * JSON has no Infinity: `--json` prints it as null.
   */
  error: number | null;
  /** `ofLabel`: the error is a fraction of that other metric's ncu value (bank conflicts: of the wavefronts) */
  tolerance: { kind: ToleranceKind; value: number; ofLabel?: string } | null;
  status: ValidationStatus;
  /** why a launch-level row exists */
  note?: string;
}

export interface CompareOptions {
  /** the tolerance table (default: metrics/tolerances.ts) */
  tolerances?: readonly Tolerance[];
  /** compare only these metric ids */
  metrics?: readonly string[];
}

/** Groups launches by kernel name, keeping the order of appearance within each name. */
function byName<T>(items: readonly T[], name: (t: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const it of items) {
    const list = groups.get(name(it)) ?? [];
    list.push(it);
    groups.set(name(it), list);
  }
  return groups;
}

/** what ncu prints for a metric it did not collect */
const NOT_AVAILABLE = /^(n\/a|nan)$/i;
export const NA_NOTE = 'ncu reports n/a: not compared';

function launchRow(kernel: string, instance: number, note: string): ValidationRow {
  return { kernel, instance, metric: '', label: '', unit: '', ncu: null, warpsight: null, error: null, tolerance: null, status: 'info', note };
}

/** Judges one metric: the error by the tolerance's kind, and whether it is inside. */
export function judge(
  ncu: number,
  ours: number,
  tolerance: Pick<Tolerance, 'kind' | 'value'> | undefined,
  /** what a relative error is a fraction of, when not ncu's value itself (a tolerance's `of` metric) */
  base: number = ncu,
): { error: number; status: ValidationStatus } {
  const relative = (): number => (ncu === ours ? 0 : Math.abs(ours - ncu) / Math.abs(base));
  if (!tolerance) return { error: relative(), status: 'info' };
  // float noise from the arithmetic that produced `ours` must not turn a boundary case into a FAIL
  const eps = 1e-9;
  switch (tolerance.kind) {
    case 'exact': {
      const error = Math.abs(roundAsNcuPrints(ours) - ncu);
      return { error, status: error <= eps ? 'ok' : 'FAIL' };
    }
    case 'absolute': {
      const error = Math.abs(ours - ncu);
      return { error, status: error <= tolerance.value + eps ? 'ok' : 'FAIL' };
    }
    case 'relative': {
      const error = relative();
      return { error, status: error <= tolerance.value + eps ? 'ok' : 'FAIL' };
    }
  }
}

/** a tolerance as a row carries it: kind and value, and what a relative error is of when not the metric itself */
function toleranceShown(t: Tolerance): NonNullable<ValidationRow['tolerance']> {
  return t.ofLabel === undefined ? { kind: t.kind, value: t.value } : { kind: t.kind, value: t.value, ofLabel: t.ofLabel };
}

function sameDim(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

function compareLaunch(k: KernelResult, l: NcuLaunch, instance: number, opts: CompareOptions): ValidationRow[] {
  const rows: ValidationRow[] = [];
  if (!sameDim(k.launch.grid, l.grid) || !sameDim(k.launch.block, l.block)) {
    const dims = (g: readonly number[], b: readonly number[]): string => `grid (${g.join(', ')}) block (${b.join(', ')})`;
    rows.push(
      launchRow(
        k.name,
        instance,
        `launch configurations differ: ncu ${dims(l.grid, l.block)}, warpsight ${dims(k.launch.grid, k.launch.block)}`,
      ),
    );
  }
  const wanted = opts.metrics ? new Set(opts.metrics) : undefined;
  const ids = Object.keys(k.metrics)
    .filter((id) => l.metrics[id] !== undefined && (!wanted || wanted.has(id)))
    .sort();
  for (const id of ids) {
    const ours = k.metrics[id];
    const theirs = l.metrics[id]?.value;
    const found = toleranceFor(id, opts.tolerances ?? TOLERANCES);
    // a tolerance taken against another metric judges only where ncu has that metric too
    const baseValue = found?.of === undefined ? undefined : l.metrics[errorBaseOf(id, found)]?.value;
    const tolerance = found?.of !== undefined && typeof baseValue !== 'number' ? undefined : found;
    // ncu printed n/a (it could not collect the metric for this launch): say so rather than drop the row
    if (typeof ours === 'number' && typeof theirs === 'string' && NOT_AVAILABLE.test(theirs.trim())) {
      const info = metricInfo(id);
      rows.push({ kernel: k.name, instance, metric: id, label: info.label, unit: l.metrics[id]?.unit ?? info.unit, ncu: null, warpsight: ours, error: null, tolerance: tolerance ? toleranceShown(tolerance) : null, status: 'info', note: NA_NOTE });
      continue;
    }
    // text metrics (cache config, policy names) are not measurements
    if (typeof ours !== 'number' || typeof theirs !== 'number') continue;
    const { error, status } = judge(theirs, ours, tolerance, typeof baseValue === 'number' ? baseValue : theirs);
    const info = metricInfo(id);
    rows.push({
      kernel: k.name,
      instance,
      metric: id,
      label: info.label,
      // ncu's own units row is the authority for what it printed
      unit: l.metrics[id]?.unit ?? info.unit,
      ncu: theirs,
      warpsight: ours,
      error,
      tolerance: tolerance ? toleranceShown(tolerance) : null,
      status,
    });
  }
  return rows;
}

/**
 * Compares every metric both sides have as numbers, pairing launches by kernel name and, when a
 * name repeats, by order of appearance. Launches present on one side only become 'info' rows.
 * Output order: our kernels in report order, then ncu launches we have no counterpart for.
 */
export function compareWithNcu(ours: readonly KernelResult[], ncu: readonly NcuLaunch[], opts: CompareOptions = {}): ValidationRow[] {
  const theirs = byName(ncu, (l) => l.kernelName);
  const seen = new Map<string, number>();
  const rows: ValidationRow[] = [];
  for (const k of ours) {
    const instance = seen.get(k.name) ?? 0;
    seen.set(k.name, instance + 1);
    const match = theirs.get(k.name)?.[instance];
    if (match) rows.push(...compareLaunch(k, match, instance, opts));
    else rows.push(launchRow(k.name, instance, 'not in the ncu CSV'));
  }
  for (const [name, launches] of theirs) {
    launches.slice(seen.get(name) ?? 0).forEach((l, i) => {
      rows.push(launchRow(name, (seen.get(name) ?? 0) + i, `in the ncu CSV (ID ${l.id}) but not profiled by warpsight`));
    });
  }
  return rows;
}

function formatError(row: ValidationRow): string {
  if (row.error === null) return '';
  if (!Number.isFinite(row.error)) return 'inf';
  if (row.tolerance?.kind === 'exact' || row.tolerance?.kind === 'absolute') return formatNcuNumber(row.error);
  // one decimal place, always, so the column lines up and 8% never reads as less than 8.00%
  return `${(row.error * 100).toFixed(1)}%`;
}

function cell(v: number | null): string {
  return v === null ? '' : formatNcuNumber(v);
}

/** The summary line: how many metrics were compared and how many missed their tolerance. */
export function summarize(rows: readonly ValidationRow[]): string {
  const compared = rows.filter((r) => r.metric !== '' && r.note !== NA_NOTE).length;
  const failed = rows.filter((r) => r.status === 'FAIL').length;
  const na = rows.filter((r) => r.note === NA_NOTE).length;
  return `${compared} metrics compared, ${failed} outside tolerance${na > 0 ? `, ${na} not compared (ncu reports n/a)` : ''}`;
}

/**
 * A terminal table grouped by kernel launch: metric | ncu | warpsight | error | tolerance | status,
 * then the summary line. `tty: false` (pipes, CI logs) drops cli-table3's colours so the text is
 * the same byte for byte on every run.
 */
export function renderValidation(rows: readonly ValidationRow[], opts: { tty?: boolean } = {}): string {
  const table = new Table({
    head: ['metric', 'ncu', 'warpsight', 'error', 'tolerance', 'status'],
    colAligns: ['left', 'right', 'right', 'right', 'right', 'left'],
    // compact: no rule between rows, so a 100-metric comparison stays readable
    style: opts.tty ? { compact: true } : { head: [], border: [], compact: true },
  });
  // a kernel launched more than once is titled with its instance number, like ncu's launch IDs
  const repeated = new Set(rows.filter((r) => r.instance > 0).map((r) => r.kernel));
  const groups = byName(rows, (r) => `${r.kernel}\u0000${r.instance}`);
  for (const group of groups.values()) {
    const first = group[0];
    if (!first) continue;
    const title = repeated.has(first.kernel) ? `${first.kernel} [${first.instance}]` : first.kernel;
    // kernel names and metric ids come from the CSV, which may be anyone's
    table.push([{ colSpan: 6, content: escapeControl(title) }]);
    for (const r of group) {
      if (r.metric === '') {
        table.push([{ colSpan: 5, content: escapeControl(r.note ?? '') }, r.status]);
        continue;
      }
      if (r.note === NA_NOTE) {
        table.push([escapeControl(r.metric), 'n/a', cell(r.warpsight), 'not compared', formatTolerance(r.tolerance), r.status]);
        continue;
      }
      table.push([escapeControl(r.metric), cell(r.ncu), cell(r.warpsight), formatError(r), formatTolerance(r.tolerance), r.status]);
    }
  }
  return `${table.toString()}\n${summarize(rows)}\n`;
}
