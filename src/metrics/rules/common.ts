/**
 * Helpers shared by the rules: metric lookup, ncu's message building blocks, speedup objects and
 * the per-instruction excess sums of the uncoalesced-access rules.
 */
import type { InstructionCounters, MetricValue, RuleResult } from '../../../types/report.schema.js';
import { pyFixed } from '../../report/format.js';

/** A metric's value when it is a finite number. */
export function num(metrics: Readonly<Record<string, MetricValue>>, id: string): number | undefined {
  const v = metrics[id];
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** Several metrics at once; undefined unless every one is a finite number. */
export function nums<K extends string>(
  metrics: Readonly<Record<string, MetricValue>>,
  ids: Readonly<Record<K, string>>,
): Record<K, number> | undefined {
  const out: Partial<Record<K, number>> = {};
  for (const key of Object.keys(ids) as K[]) {
    const v = num(metrics, ids[key]);
    if (v === undefined) return undefined;
    out[key] = v;
  }
  return out as Record<K, number>;
}

/** Python's `'{:.Nf}'.format(x)`, the formatting of every number in ncu's rule texts. */
export const f = pyFixed;

/** Python's `'{}'.format(n)` of an integer counter (no separators). */
export function int(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Math.round(n));
}

/**
 * ncu's `@url:label:address@` markup as its console renders it. Messages are stored rendered, so
 * every renderer (terminal, CSV, HTML) shows the same text.
 */
export function link(label: string, url: string): string {
  return `${label} (${url})`;
}

export const HARDWARE_MODEL_REF = `See the ${link(
  'Hardware Model',
  'https://docs.nvidia.com/nsight-compute/ProfilingGuide/index.html#metrics-hw-model',
)} description for more details on launch configurations.`;

export function speedup(type: 'local' | 'global', value: number): NonNullable<RuleResult['speedup']> {
  return { type, value };
}

/** Sorted, distinct source lines. */
export function sortedLines(lines: Iterable<number>): number[] {
  return [...new Set(lines)].sort((a, b) => a - b);
}

export interface ExcessTotals {
  /** Σ actual over the instructions that carry the metric */
  readonly total: number;
  /** Σ ideal */
  readonly ideal: number;
  /** Σ |actual − ideal| over instructions where they differ: the number ncu's message prints */
  readonly differing: number;
  /** Σ (actual − ideal): ncu's `derived__…_excessive`, the number its speedup uses */
  readonly excess: number;
  /** lines of the instructions whose actual exceeds ideal */
  readonly lines: number[];
  /** false when an instruction has one of the pair without the other (ncu then skips the rule) */
  readonly paired: boolean;
}

/**
 * Sums an actual/ideal pair of source metrics (`memory_l2_theoretical_sectors_global` and
 * `…_ideal`, or the shared-wavefront pair) over a kernel's instructions.
 */
export function excessTotals(
  instructions: readonly InstructionCounters[],
  actualKey: string,
  idealKey: string,
): ExcessTotals {
  let total = 0;
  let ideal = 0;
  let differing = 0;
  let paired = true;
  const lines: number[] = [];
  for (const inst of instructions) {
    const a = inst.metrics[actualKey];
    const i = inst.metrics[idealKey];
    if (a === undefined && i === undefined) continue;
    if (a === undefined || i === undefined) {
      paired = false;
      continue;
    }
    total += a;
    ideal += i;
    if (a !== i) differing += Math.abs(a - i);
    if (a > i) lines.push(inst.line);
  }
  return { total, ideal, differing, excess: total - ideal, lines: sortedLines(lines), paired };
}

/**
 * The uncoalesced-access rules' estimate: the unit's active share of the elapsed cycles × excess /
 * total (global); a local 0 % when the unit's cycles were not collected (profile --no-timing)
 */
export function excessSpeedup(metrics: Readonly<Record<string, MetricValue>>, unit: 'lts' | 'l1tex', t: ExcessTotals): NonNullable<RuleResult['speedup']> {
  const active = num(metrics, `${unit}__cycles_active.sum`) ?? 0;
  const elapsed = num(metrics, `${unit}__cycles_elapsed.sum`) ?? 0;
  return elapsed > 0 && t.total > 0 ? speedup('global', (active / elapsed) * (t.excess / t.total) * 100) : speedup('local', 0);
}
