/**
 * Writers for Nsight Compute's CSV shapes (nsight-compute.md §3.3, §1.9), from a Report:
 * `--page raw` (one wide row per launch, units in row 2), `--page details` (one row per section
 * metric and per rule) and `--page source` (one row per IR instruction). Scripts written against
 * ncu's CSV should read ours unchanged; `ncuCsv.ts` reads the raw page back.
 */
import type { InstructionCounters, KernelResult, Report } from '../../types/report.schema.js';
import { HEADER_SECTIONS, METRICS, metricInfo, unitOf } from '../metrics/registry.js';
import { IDENTITY_COLUMNS } from './ncuCsv.js';

/**
 * ncu's CSV number format: thousands separators, integers as integers, anything else with exactly
 * 2 decimals ("2,732.50", "0.00", "-1,024"). ncu prints NaN as "nan" (full_raw_*.csv).
 */
export function formatNcuNumber(v: number): string {
  if (Number.isNaN(v)) return 'nan';
  if (!Number.isFinite(v)) return v > 0 ? 'inf' : '-inf';
  const fixed = Number.isInteger(v) ? v.toFixed(0) : v.toFixed(2);
  const [int = '', frac] = fixed.replace('-', '').split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  // toFixed can round a tiny negative to "-0.00"; ncu has no negative zero
  const sign = v < 0 && /[1-9]/.test(fixed) ? '-' : '';
  return sign + grouped + (frac === undefined ? '' : `.${frac}`);
}

/** A value as ncu would print it, read back: what "equal as printed" compares. */
export function roundAsNcuPrints(v: number): number {
  return Number.isInteger(v) || !Number.isFinite(v) ? v : Number(v.toFixed(2));
}

/** a cell that is a number as ncu prints it ("-1,024", "-2.50", "-inf"): a value, not a formula */
const NUMERIC = /^[-+]?((\d{1,3}(,\d{3})+|\d+)(\.\d+)?([eE][-+]?\d+)?|inf|nan)$/;

/**
 * OWASP's CSV-injection defence: a cell a spreadsheet would read as a formula (=, +, -, @, tab, CR
 * first) — a kernel named `=HYPERLINK(…)` — gets a leading single quote; negative numbers stay numbers.
 */
export function neutralizeCell(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) && !NUMERIC.test(cell) ? `'${cell}` : cell;
}

/** RFC 4180 with ncu's habit of quoting every cell. */
function csvLine(cells: readonly string[]): string {
  return cells.map((c) => `"${neutralizeCell(c).replaceAll('"', '""')}"`).join(',');
}

function formatValue(v: number | string): string {
  return typeof v === 'number' ? formatNcuNumber(v) : v;
}

function formatDim3(d: readonly [number, number, number]): string {
  return `(${d[0]}, ${d[1]}, ${d[2]})`;
}

/** The identity cells ncu gets from the process and driver, which an emulator has to pick. */
export interface CsvIdentity {
  processId?: number;
  /** default: the report's tool name (ncu prints the profiled executable's name) */
  processName?: string;
  hostName?: string;
  context?: number;
  device?: number;
  /** used when a launch names no stream; default 7, the number ncu gave the default stream in every ground-truth launch */
  defaultStream?: number;
}

export interface CsvOptions {
  identity?: CsvIdentity;
}

function identityCells(report: Report, k: KernelResult, opts: CsvOptions): string[] {
  const id = opts.identity ?? {};
  const byColumn: Record<(typeof IDENTITY_COLUMNS)[number], string> = {
    ID: String(k.id),
    'Process ID': String(id.processId ?? 0),
    'Process Name': id.processName ?? report.tool.name,
    'Host Name': id.hostName ?? 'localhost',
    // the kernel with its parameter types, as ncu prints it (the reader takes the name before '(')
    'Kernel Name': k.signature ?? k.name,
    Context: String(id.context ?? 1),
    Stream: String(k.launch.stream ?? id.defaultStream ?? 7),
    'Block Size': formatDim3(k.launch.block),
    'Grid Size': formatDim3(k.launch.grid),
    Device: String(id.device ?? 0),
    CC: report.device.cc,
  };
  return IDENTITY_COLUMNS.map((c) => byColumn[c]);
}

/** Lines joined by LF with a final newline, as ncu writes them. */
function joinLines(lines: readonly string[]): string {
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/**
 * `--csv --page raw`: the identity columns, then every metric id any kernel has, sorted by code
 * point as ncu sorts them; row 2 holds the units; a metric a kernel lacks is an empty cell.
 */
export function writeRawCsv(report: Report, opts: CsvOptions = {}): string {
  const ids = [...new Set(report.kernels.flatMap((k) => Object.keys(k.metrics)))].sort();
  const lines = [
    csvLine([...IDENTITY_COLUMNS, ...ids]),
    csvLine([...IDENTITY_COLUMNS.map(() => ''), ...ids.map(unitOf)]),
    ...report.kernels.map((k) =>
      csvLine([
        ...identityCells(report, k, opts),
        ...ids.map((id) => {
          const v = k.metrics[id];
          return v === undefined ? '' : formatValue(v);
        }),
      ]),
    ),
  ];
  return joinLines(lines);
}

/** A section as the details page lists it: display name, identifier (for rule rows), header metrics. */
export interface DetailsSection {
  id: string;
  name: string;
  metrics: readonly string[];
  /** name rows by metric id, as ncu's "Command line profiler metrics" section does */
  labelById?: boolean;
}

/** ncu's header sections with the registry's header metrics: the default for the details page. */
export const DEFAULT_DETAILS_SECTIONS: readonly DetailsSection[] = HEADER_SECTIONS.map((s) => ({
  ...s,
  metrics: METRICS.filter((m) => m.section === s.id).map((m) => m.id),
}));

/**
 * The details page for a selection: with `--metrics`, ncu's "Command line profiler metrics"
 * section first; the report is already filtered (report/select.ts), so sections it did not collect
 * print no rows.
 */
export function detailsSectionsFor(sel: { sections?: readonly string[]; metrics?: readonly string[] }): { sections: readonly DetailsSection[] } {
  const metrics = sel.metrics ?? [];
  const ids = sel.sections ?? [];
  // like the console: --metrics alone is its own section only; otherwise no --section means all
  const chosen = ids.length > 0 ? DEFAULT_DETAILS_SECTIONS.filter((s) => ids.includes(s.id)) : metrics.length > 0 ? [] : DEFAULT_DETAILS_SECTIONS;
  if (metrics.length === 0) return { sections: chosen };
  return { sections: [{ id: 'CommandLineMetrics', name: 'Command line profiler metrics', metrics, labelById: true }, ...chosen] };
}

export const DETAILS_COLUMNS = [
  ...IDENTITY_COLUMNS,
  'Section Name',
  'Metric Name',
  'Metric Unit',
  'Metric Value',
  'Rule Name',
  'Rule Type',
  'Rule Description',
  'Estimated Speedup Type',
  'Estimated Speedup',
] as const;

/**
 * `--csv` (`--page details`): per kernel, per section in ncu's order, one row per header metric the
 * kernel has (sorted by metric id, as ncu prints them), then one row per rule of that section.
 * Quirks kept from ncu [OBS]: metric rows use the section's display name and stop after "Metric
 * Value" with a trailing comma; rule rows use the section identifier and leave the metric cells empty.
 */
export function writeDetailsCsv(
  report: Report,
  opts: CsvOptions & { sections?: readonly DetailsSection[] } = {},
): string {
  const sections = opts.sections ?? DEFAULT_DETAILS_SECTIONS;
  const lines = [csvLine(DETAILS_COLUMNS)];
  for (const k of report.kernels) {
    const identity = identityCells(report, k, opts);
    const ruleRow = (r: KernelResult['rules'][number]): string =>
      csvLine([
        ...identity,
        r.section,
        '',
        '',
        '',
        r.id,
        r.type,
        r.message,
        r.speedup?.type ?? '',
        r.speedup ? formatNcuNumber(r.speedup.value) : '',
      ]);
    for (const s of sections) {
      for (const id of [...s.metrics].sort()) {
        const v = k.metrics[id];
        if (v === undefined) continue;
        lines.push(`${csvLine([...identity, s.name, s.labelById === true ? id : metricInfo(id).label, unitOf(id), formatValue(v)])},`);
      }
      lines.push(...k.rules.filter((r) => r.section === s.id).map(ruleRow));
    }
    // rules of sections the list does not name still belong in the report
    const listed = new Set(sections.map((s) => s.id));
    lines.push(...k.rules.filter((r) => !listed.has(r.section)).map(ruleRow));
  }
  return joinLines(lines);
}

type SourceMetrics = InstructionCounters['metrics'];

/** a / b, 0 when nothing executed (ncu prints 0 for instructions that never ran) */
function ratio(a: number, b: number): number {
  return b === 0 ? 0 : a / b;
}

/** A per-instruction value the emulator left out is a zero count. */
function get(m: SourceMetrics, id: string): number {
  return m[id] ?? 0;
}

/**
 * The Source Counters columns, in ncu's order (nsight-compute.md §1.9). The registry gives each its
 * header label; a derived column lists the counters it is computed from, for instructions that do
 * not carry it.
 */
const SOURCE_COLUMNS: readonly { id: string; from?: readonly string[]; derive?: (m: SourceMetrics) => number }[] = [
  { id: 'inst_executed' },
  { id: 'thread_inst_executed' },
  { id: 'thread_inst_executed_true' },
  {
    id: 'derived__avg_thread_executed',
    from: ['thread_inst_executed', 'inst_executed'],
    derive: (m) => ratio(get(m, 'thread_inst_executed'), get(m, 'inst_executed')),
  },
  {
    id: 'derived__avg_thread_executed_true',
    from: ['thread_inst_executed_true', 'inst_executed'],
    derive: (m) => ratio(get(m, 'thread_inst_executed_true'), get(m, 'inst_executed')),
  },
  { id: 'smsp__branch_targets_threads_divergent' },
  { id: 'memory_l1_tag_requests_global' },
  {
    id: 'derived__memory_l1_conflicts_shared_nway',
    from: ['memory_l1_wavefronts_shared', 'inst_executed'],
    derive: (m) => ratio(get(m, 'memory_l1_wavefronts_shared'), get(m, 'inst_executed')),
  },
  {
    id: 'derived__memory_l1_wavefronts_shared_excessive',
    from: ['memory_l1_wavefronts_shared', 'memory_l1_wavefronts_shared_ideal'],
    derive: (m) => get(m, 'memory_l1_wavefronts_shared') - get(m, 'memory_l1_wavefronts_shared_ideal'),
  },
  { id: 'memory_l1_wavefronts_shared' },
  { id: 'memory_l1_wavefronts_shared_ideal' },
  {
    id: 'derived__memory_l2_theoretical_sectors_global_excessive',
    from: ['memory_l2_theoretical_sectors_global', 'memory_l2_theoretical_sectors_global_ideal'],
    derive: (m) => get(m, 'memory_l2_theoretical_sectors_global') - get(m, 'memory_l2_theoretical_sectors_global_ideal'),
  },
  { id: 'memory_l2_theoretical_sectors_global' },
  { id: 'memory_l2_theoretical_sectors_global_ideal' },
];

/**
 * The columns this report has: a counter some instruction carries, or a derived column whose inputs
 * are all carried. A counter the emulator does not produce at all gets no column rather than a
 * column of zeros that would read as a measurement.
 */
function sourceColumns(report: Report): typeof SOURCE_COLUMNS {
  const carried = new Set(report.kernels.flatMap((k) => k.instructions.flatMap((i) => Object.keys(i.metrics))));
  return SOURCE_COLUMNS.filter((c) => carried.has(c.id) || (c.from?.every((id) => carried.has(id)) ?? false));
}

/**
 * The `--page source` header for a report: Address, Source, the source-metric labels it has, then
 * Location (the kernel file:line that built the instruction; last, so that ncu's columns keep
 * their places).
 */
export function sourceHeader(report: Report): string[] {
  return ['Address', 'Source', ...sourceColumns(report).map((c) => metricInfo(c.id).label), 'Location'];
}

/** one kernel's source-page rows: address, opcode, the counters as numbers, file:line */
export function sourceRows(report: Report, k: KernelResult): { address: string; opcode: string; values: number[]; location: string }[] {
  const columns = sourceColumns(report);
  return [...k.instructions]
    .sort((a, b) => a.index - b.index)
    .map((ins) => ({
      address: `0x${(ins.index * 16).toString(16).padStart(4, '0')}`,
      opcode: ins.opcode,
      // a counter missing on one instruction is a zero the emulator left out; ncu prints 0 there
      values: columns.map((c) => ins.metrics[c.id] ?? (c.derive ? c.derive(ins.metrics) : 0)),
      // line 0: no kernel line built it (the prologue's parameter loads)
      location: ins.line > 0 ? `${k.file}:${ins.line}` : '',
    }));
}

/**
 * `--page source --csv --print-source sass`: per kernel a `"Kernel Name","<name>",` line, the header,
 * then one row per IR instruction in program order. Address is the instruction's offset in the
 * kernel assuming 16-byte instructions (SASS on sm_70+); Source is its SASS-like opcode; Location
 * its kernel file:line.
 */
export function writeSourceCsv(report: Report): string {
  const header = csvLine(sourceHeader(report));
  const lines: string[] = [];
  for (const k of report.kernels) {
    lines.push(`${csvLine(['Kernel Name', k.name])},`);
    lines.push(header);
    for (const row of sourceRows(report, k)) lines.push(csvLine([row.address, row.opcode, ...row.values.map(formatNcuNumber), row.location]));
  }
  return joinLines(lines);
}
