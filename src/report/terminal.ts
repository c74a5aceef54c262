/**
 * The console report, laid out as Nsight Compute's `--page details` prints it (see
 * ../shared/groundtruth/h200/details_*.txt): a header line per kernel, then per section a dashed
 * Metric Name / Metric Unit / Metric Value table whose columns fit their content, then the rule
 * results of the section wrapped at ncu's width. After the ncu sections comes one Warpsight extra:
 * the kernel's source lines that deserve a look first.
 *
 * Plain text only (no colour, no ANSI codes), and deterministic: the same report renders byte for
 * byte the same. Lines keep ncu's trailing blanks in rule blocks so that output diffs against real
 * ncu output cleanly.
 */
import type { Device, KernelResult, MetricValue, Report, RuleResult } from '../../types/report.schema.js';
import { TIMING_ONLY } from '../timing/only.js';
import { SECTIONS, appliesTo, ccNumber, type BodyTable, type GridTable, type MetricEntry, type SectionDef } from '../metrics/sections.js';
import { unitOf as registryUnitOf } from '../metrics/registry.js';
import { escapeControl } from '../errors.js';
import { type PrintUnits, RULE_TEXT_WIDTH, formatMetric, formatNumber, formatSpeedup, pyFixed, wrapNcu } from './format.js';
import { programLines, scalingLines } from './programSummary.js';
import { hotSpots, summarizeSourceLines, threadsPerInstruction, type SourceLineSummary } from './sourceLines.js';
import { isNotSampledNote, sampledNote } from './sampled.js';

export interface TerminalOptions {
  /** section identifiers to print (ncu's `--section`); default: the report's, else all */
  readonly sections?: readonly string[];
  /**
   * ncu's `--print-details`: `header` (default) prints each section's header table; `body` adds
   * the body tables (memory tables, warp states, ...); `all` also adds the hidden metrics.
   */
  readonly details?: 'header' | 'body' | 'all';
  /** rows of the source hot-spot table; 0 leaves it out (default 5) */
  readonly hotSpots?: number;
  /**
   * ncu's `--metrics`: metric ids printed in a "Command line profiler metrics" section (labelled
   * by id, as ncu does). Given without `sections`, it is the only section, as in ncu.
   * Default: the report's `options.metrics`.
   */
  readonly metrics?: readonly string[];
  /** base unit of a metric a section entry gives none for; default: the metric registry */
  readonly unitOf?: (metricId: string) => string | undefined;
  /** ncu's `--print-units`: `auto` scales (1.02 Kbyte), `base` prints the base unit (1,024 byte) */
  readonly units?: PrintUnits;
  /** ncu's `--print-metric-name`: the label (default), the metric id, or both (`Duration (gpu__time_duration.sum)`) */
  readonly metricName?: 'label' | 'name' | 'label-name';
}

/** a metric's row name as `--print-metric-name` asks */
export function metricRowName(label: string, id: string, mode: TerminalOptions['metricName'] = 'label'): string {
  return mode === 'name' ? id : mode === 'label-name' && label !== id ? `${label} (${id})` : label;
}

const INDENT = '    ';
/** a rule line is 120 columns: 4 indent + 6 for the type tag + 110 text */
const RULE_LINE_WIDTH = INDENT.length + 6 + RULE_TEXT_WIDTH;
const RULE_SEPARATOR = `${INDENT}----- ${'-'.repeat(RULE_TEXT_WIDTH)}`;
/** ncu's kernel line always shows the default stream of a single-context program as 7 */
const DEFAULT_STREAM = 7;

type Metrics = Readonly<Record<string, MetricValue>>;

interface Row {
  readonly label: string;
  readonly unit: string;
  readonly value: string;
}

const byId = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function unitOf(entry: MetricEntry, opts: TerminalOptions): string {
  return entry.unit ?? opts.unitOf?.(entry.metric) ?? registryUnitOf(entry.metric);
}

/** ncu's temporary section for `--metrics`; sorted by id like every header table */
export function commandLineMetricsSection(ids: readonly string[]): SectionDef {
  return { id: 'CommandLineMetrics', name: 'Command line profiler metrics', order: 0, header: ids.map((id) => ({ metric: id, label: id })) };
}

/**
 * The entries whose metric the kernel has (and that apply to its arch), formatted. ncu's console
 * prints a section's metrics sorted by metric id, not in the section file's order.
 */
function rowsOf(
  entries: readonly MetricEntry[],
  metrics: Metrics,
  opts: TerminalOptions,
  cc: number | undefined,
  sort: 'id' | 'value-desc' = 'id',
): Row[] {
  const seen = new Set<string>();
  const present: { entry: MetricEntry; value: MetricValue }[] = [];
  for (const entry of entries) {
    if (!appliesTo(entry, cc)) continue;
    const value = metrics[entry.metric];
    if (value === undefined || seen.has(entry.metric)) continue;
    seen.add(entry.metric);
    present.push({ entry, value });
  }
  if (sort === 'id') {
    present.sort((a, b) => byId(a.entry.metric, b.entry.metric));
  } else {
    // by the value as printed (so 0.001 and 0 tie, as in ncu's Warp State table), then by label
    const shown = (v: MetricValue): number => (typeof v === 'number' ? Number(pyFixed(v, 2)) : Number.NEGATIVE_INFINITY);
    present.sort((a, b) => shown(b.value) - shown(a.value) || byId(a.entry.label, b.entry.label));
  }
  return present.map(({ entry, value }) => {
    const cell = formatMetric(value, unitOf(entry, opts), opts.units);
    return { label: metricRowName(entry.label, entry.metric, opts.metricName), unit: cell.unit, value: cell.value };
  });
}

/** The dashed Metric Name / Metric Unit / Metric Value table. */
export function metricTableLines(rows: readonly Row[]): string[] {
  const nameWidth = Math.max('Metric Name'.length, ...rows.map((r) => r.label.length));
  const unitWidth = Math.max('Metric Unit'.length, ...rows.map((r) => r.unit.length));
  const valueWidth = Math.max('Metric Value'.length, ...rows.map((r) => r.value.length));
  const line = (name: string, unit: string, value: string): string =>
    `${INDENT}${name.padEnd(nameWidth)} ${unit.padStart(unitWidth)} ${value.padStart(valueWidth)}`;
  const dashes = `${INDENT}${'-'.repeat(nameWidth)} ${'-'.repeat(unitWidth)} ${'-'.repeat(valueWidth)}`;
  return [
    dashes,
    line('Metric Name', 'Metric Unit', 'Metric Value'),
    dashes,
    ...rows.map((r) => line(r.label, r.unit, r.value)),
    dashes,
  ];
}

/**
 * A table in ncu's dashed style. Columns are right-aligned (numbers) except the first and those
 * named in `leftAligned` (text).
 */
export function gridLines(header: readonly string[], body: readonly (readonly string[])[], leftAligned: ReadonlySet<number> = new Set()): string[] {
  const widths = header.map((h, c) => Math.max(h.length, ...body.map((r) => (r[c] ?? '').length)));
  const left = (c: number): boolean => c === 0 || leftAligned.has(c);
  const line = (cells: readonly string[]): string =>
    INDENT + cells.map((cell, c) => (left(c) ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join(' ');
  const dashes = INDENT + widths.map((w) => '-'.repeat(w)).join(' ');
  return [dashes, line(header), dashes, ...body.map(line), dashes];
}

function gridTableLines(table: GridTable, metrics: Metrics, units: PrintUnits = 'auto'): string[] {
  const columns = table.columns
    .map((column, c) => ({ column, c }))
    .filter(({ c }) => table.rows.some((row) => metrics[row.cells[c] ?? ''] !== undefined));
  const rows = table.rows.filter((row) => columns.some(({ c }) => metrics[row.cells[c] ?? ''] !== undefined));
  if (rows.length === 0) return [];
  const body = rows.map((row) => [
    row.label,
    ...columns.map(({ column, c }) => {
      const value = metrics[row.cells[c] ?? ''];
      if (value === undefined) return '-';
      const cell = formatMetric(value, column.unit ?? '', units);
      return column.showUnit && cell.unit !== '' ? `${cell.value} ${cell.unit}` : cell.value;
    }),
  ]);
  return gridLines([table.rowHeader, ...columns.map(({ column }) => column.label)], body);
}

function bodyTableLines(table: BodyTable, metrics: Metrics, opts: TerminalOptions, cc: number | undefined): string[] {
  if (table.kind === 'grid') return gridTableLines(table, metrics, opts.units);
  const rows = rowsOf(table.entries, metrics, opts, cc, table.sort ?? 'id');
  return rows.length === 0 ? [] : metricTableLines(rows);
}

function ruleLines(rule: RuleResult): string[] {
  const tag = `${INDENT}${rule.type.padEnd(6)}`;
  const text = wrapNcu(rule.message);
  const out: string[] = [];
  if (rule.speedup !== undefined) {
    const kind = rule.speedup.type === 'local' ? 'Local ' : '';
    out.push(`${tag}Est. ${kind}Speedup: ${formatSpeedup(rule.speedup.value)}%`);
    out.push(...text.map((t) => `${' '.repeat(tag.length)}${t}`));
  } else {
    const [first = '', ...rest] = text;
    out.push(`${tag}${first}`);
    out.push(...rest.map((t) => `${' '.repeat(tag.length)}${t}`));
  }
  return out.map((l) => l.padEnd(RULE_LINE_WIDTH));
}

/** Rule blocks of one section, separated as ncu separates them. */
export function ruleBlockLines(rules: readonly RuleResult[]): string[] {
  const out: string[] = [];
  rules.forEach((rule, i) => {
    if (i > 0) out.push(RULE_SEPARATOR);
    out.push(...ruleLines(rule));
  });
  return out;
}

/**
 * One section: its name, tables and rules, or nothing when it has nothing to show.
 * `cc` is the device's compute capability as ncu's filters compare it (90 for 9.0).
 */
export function sectionLines(
  section: SectionDef,
  kernel: Pick<KernelResult, 'metrics'>,
  rules: readonly RuleResult[],
  opts: TerminalOptions = {},
  cc?: number,
): string[] {
  const details = opts.details ?? 'header';
  const entries = details === 'all' ? [...section.header, ...(section.metrics ?? [])] : section.header;
  const rows = rowsOf(entries, kernel.metrics, opts, cc);
  const body: string[] = [];
  if (details !== 'header') {
    for (const group of section.body ?? []) {
      const tables = group.tables
        .map((table) => ({ table, lines: bodyTableLines(table, kernel.metrics, opts, cc) }))
        .filter((t) => t.lines.length > 0);
      if (tables.length === 0) continue;
      if (group.name !== undefined) body.push(`${INDENT}${group.name}`);
      for (const { table, lines } of tables) body.push(`${INDENT}Table Name : ${table.label}`, ...lines, '');
    }
  }
  if (rows.length === 0 && body.length === 0 && rules.length === 0) return [];
  const out = [`${INDENT}Section: ${section.name}`];
  if (rows.length > 0) out.push(...metricTableLines(rows), '');
  out.push(...body);
  if (rules.length > 0) out.push(...ruleBlockLines(rules), '');
  return out;
}

const HOT_SPOT_SOURCE_WIDTH = 60;

function sourceText(s: SourceLineSummary): string {
  const text = (s.text ?? '').trim();
  return text.length > HOT_SPOT_SOURCE_WIDTH ? `${text.slice(0, HOT_SPOT_SOURCE_WIDTH - 3)}...` : text;
}

/** Warpsight's extra: the kernel's hottest source lines, by excess traffic then by instructions. */
export function hotSpotLines(kernel: Pick<KernelResult, 'file' | 'instructions' | 'sourceLines'>, count: number): string[] {
  const spots = hotSpots(summarizeSourceLines(kernel.instructions, kernel.sourceLines), count);
  if (spots.length === 0) return [];
  const anySectors = spots.some((s) => s.sectors > 0);
  const anyWavefronts = spots.some((s) => s.wavefronts > 0);
  const anyDivergent = spots.some((s) => s.divergentBranches > 0);
  const columns: { header: string; cell: (s: SourceLineSummary) => string; on: boolean; text?: boolean }[] = [
    { header: 'Line', cell: (s) => String(s.line), on: true },
    { header: 'Instructions', cell: (s) => formatNumber(s.instructions), on: true },
    { header: 'Threads/Inst', cell: (s) => formatNumber(threadsPerInstruction(s)), on: true },
    { header: 'Sectors', cell: (s) => formatNumber(s.sectors), on: anySectors },
    { header: 'Ideal Sectors', cell: (s) => formatNumber(s.sectorsIdeal), on: anySectors },
    { header: 'Excessive Sectors', cell: (s) => formatNumber(s.excessiveSectors), on: anySectors },
    { header: 'Wavefronts', cell: (s) => formatNumber(s.wavefronts), on: anyWavefronts },
    { header: 'Ideal Wavefronts', cell: (s) => formatNumber(s.wavefrontsIdeal), on: anyWavefronts },
    { header: 'Bank Conflicts', cell: (s) => formatNumber(s.excessiveWavefronts), on: anyWavefronts },
    { header: 'Divergent Branches', cell: (s) => formatNumber(s.divergentBranches), on: anyDivergent },
    { header: 'Opcodes', cell: (s) => s.opcodes.join(' '), on: true, text: true },
  ];
  const shown = columns.filter((c) => c.on);
  const textColumns = new Set(shown.flatMap((c, i) => (c.text === true ? [i] : [])));
  // the source text goes last and unpadded, so a long line does not widen the table
  const table = gridLines(
    shown.map((c) => c.header),
    spots.map((s) => shown.map((c) => c.cell(s))),
    textColumns,
  ).map((line, i) => {
    if (i === 1) return `${line} Source`;
    const spot = i >= 3 ? spots[i - 3] : undefined;
    const text = spot === undefined ? '' : sourceText(spot);
    return text === '' ? line : `${line} ${text}`;
  });
  return [`${INDENT}Source Hot Spots (Warpsight): ${kernel.file}`, ...table, ''];
}

/** The kernel line ncu prints above a kernel's sections. */
export function kernelHeaderLine(kernel: Pick<KernelResult, 'name' | 'launch' | 'signature'>, device: Pick<Device, 'cc'>): string {
  const { launch } = kernel;
  const signature = kernel.signature ?? `${kernel.name}(${Object.values(launch.params).join(', ')})`;
  return (
    `  ${signature} (${launch.grid.join(', ')})x(${launch.block.join(', ')}), ` +
    `Context 1, Stream ${launch.stream ?? DEFAULT_STREAM}, Device 0, CC ${device.cc}`
  );
}

/** The lines of one kernel: header line, sections in ncu's order, then the source hot spots. */
export function renderKernelLines(
  kernel: KernelResult,
  device: Pick<Device, 'cc'>,
  opts: TerminalOptions = {},
  wanted?: ReadonlySet<string>,
): string[] {
  const selected = (id: string): boolean => wanted === undefined || wanted.has(id);
  const cc = ccNumber(device.cc);
  const out = [kernelHeaderLine(kernel, device)];
  // a sampled launch's numbers are extrapolated: said before any of them
  if (kernel.sampled) out.push(`    ==WARPSIGHT== ${sampledNote(kernel.sampled)}`);
  for (const n of kernel.notes) if (isNotSampledNote(n)) out.push(`    ==WARPSIGHT== ${n}`);
  if (opts.metrics !== undefined && opts.metrics.length > 0) {
    out.push(...sectionLines(commandLineMetricsSection(opts.metrics), kernel, [], opts, cc));
  }
  const rulesBySection = new Map<string, RuleResult[]>();
  for (const rule of kernel.rules) {
    const list = rulesBySection.get(rule.section) ?? [];
    list.push(rule);
    rulesBySection.set(rule.section, list);
  }
  for (const section of SECTIONS) {
    if (!selected(section.id)) continue;
    out.push(...sectionLines(section, kernel, rulesBySection.get(section.id) ?? [], opts, cc));
  }
  // rules filed under a section Warpsight has no table for still print, after the known sections
  const known = new Set(SECTIONS.map((s) => s.id));
  for (const [sectionId, rules] of rulesBySection) {
    if (known.has(sectionId) || !selected(sectionId)) continue;
    out.push(...sectionLines({ id: sectionId, name: sectionId, order: Number.POSITIVE_INFINITY, header: [] }, kernel, rules, opts, cc));
  }
  const count = opts.hotSpots ?? 5;
  if (count > 0 && selected('SourceCounters')) out.push(...hotSpotLines(kernel, count));
  return out;
}

/** The whole report as ncu's console would print it, plus Warpsight's source hot spots. */
export function renderTerminal(report: Report, opts: TerminalOptions = {}): string {
  const ids = opts.sections ?? report.options.sections;
  const metrics = opts.metrics ?? report.options.metrics;
  // like ncu: --metrics alone collects only its own section; otherwise no --section means all
  const wanted =
    ids !== undefined && ids.length > 0 ? new Set(ids) : metrics !== undefined && metrics.length > 0 ? new Set<string>() : undefined;
  const withMetrics: TerminalOptions = metrics === undefined ? opts : { ...opts, metrics };
  const lines = report.kernels.flatMap((kernel) => renderKernelLines(kernel, report.device, withMetrics, wanted));
  for (const p of report.programs ?? []) lines.push(...programLines(p));
  for (const sc of report.scaling ?? []) lines.push(...scalingLines(sc));
  // ncu's way of saying what a run did not collect
  if (report.options.timing === false) lines.unshift(`==WARPSIGHT== profiled with --no-timing: ${TIMING_ONLY} were not collected`);
  // kernel names, source lines, rule texts come from kernel files or an untrusted report JSON: their
  // control characters (a terminal escape sequence, a newline forging a line) are shown, not obeyed
  return `${lines.map(escapeControl).join('\n')}\n`;
}
