/**
 * The console pages besides `details` (terminal.ts), as ncu's `--page` prints them, the per-kernel
 * summary (`--print-summary per-kernel`) and the listings (`--list-sets`, `--list-sections`,
 * `--query-metrics`). Plain text, deterministic.
 */
import type { KernelResult, Report } from '../../types/report.schema.js';
import { type Better, METRICS, betterDirection, metricInfo, unitOf } from '../metrics/registry.js';
import { SECTIONS, SECTION_SETS, appliesTo, ccNumber, sectionById, sectionMetricIds } from '../metrics/sections.js';
import { formatNcuNumber, sourceHeader, sourceRows } from './csv.js';
import { type PrintUnits, formatMetric, formatNumber, scaleUnit } from './format.js';
import { gridLines, kernelHeaderLine, metricRowName, metricTableLines, type TerminalOptions } from './terminal.js';

const INDENT = '    ';

const byId = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** `--page raw`: every metric of each launch by id, with its unit */
export function renderRawPage(report: Report, opts: { units?: PrintUnits } = {}): string {
  const lines: string[] = [];
  for (const k of report.kernels) {
    lines.push(kernelHeaderLine(k, report.device));
    const rows = Object.keys(k.metrics)
      .sort(byId)
      .map((id) => {
        const cell = formatMetric(k.metrics[id] ?? '', unitOf(id), opts.units);
        return { label: id, unit: cell.unit, value: cell.value };
      });
    if (rows.length > 0) lines.push(...metricTableLines(rows), '');
  }
  return `${lines.join('\n')}\n`;
}

/** `--page source`: per launch, every instruction with its counters and the kernel file:line that built it */
export function renderSourcePage(report: Report): string {
  const header = sourceHeader(report);
  // Location reads best beside the opcode on a terminal
  const columns = ['Address', 'Location', 'Source', ...header.slice(2, -1)];
  const lines: string[] = [];
  for (const k of report.kernels) {
    lines.push(kernelHeaderLine(k, report.device));
    const rows = sourceRows(report, k);
    if (rows.length === 0) {
      lines.push(`${INDENT}no source counters (profile with --section SourceCounters)`, '');
      continue;
    }
    const body = rows.map((r) => [r.address, r.location, r.opcode, ...r.values.map(formatNumber)]);
    lines.push(...gridLines(columns, body, new Set([1, 2])), '');
  }
  return `${lines.join('\n')}\n`;
}

/** `--page session`'s attributes: what ran, how, and on which (emulated) device */
export function sessionAttributes(report: Report): { title: string; rows: [string, string][] }[] {
  const files = [...new Set(report.kernels.map((k) => k.file))];
  return [
    {
      title: 'Session',
      rows: [
        ['Tool', `${report.tool.name} ${report.tool.version}`],
        ['Kernel Files', files.join(', ') || '-'],
        ['Launches', String(report.kernels.length)],
        ['Cache Control', report.options.cacheControl],
        ['Timing Model', report.options.timing === false ? 'off (--no-timing)' : 'on'],
        ['Sections', report.options.sections?.join(', ') ?? 'all'],
        ['Metrics', report.options.metrics?.join(', ') ?? '-'],
      ],
    },
    {
      title: 'Device Attributes',
      rows: [
        ['Arch', report.device.arch],
        ['Name', report.device.name],
        ['Compute Capability', report.device.cc],
        ['# SMs', String(report.device.smCount)],
      ],
    },
  ];
}

export function renderSessionPage(report: Report): string {
  const lines = sessionAttributes(report).flatMap((t) => [`  ${t.title}`, ...gridLines(['Attribute', 'Value'], t.rows, new Set([1])), '']);
  return `${lines.join('\n')}\n`;
}

/** `--csv --page session`: one "Section","Attribute","Value" row per attribute */
export function writeSessionCsv(report: Report): string {
  const rows = [['Section', 'Attribute', 'Value'], ...sessionAttributes(report).flatMap((t) => t.rows.map(([k, v]) => [t.title, k, v]))];
  return `${rows.map((r) => r.map((c) => `"${c.replaceAll('"', '""')}"`).join(',')).join('\n')}\n`;
}

/** the launches of one kernel as `--print-summary per-kernel` groups them: same name, grid and block */
interface KernelGroup {
  first: KernelResult;
  launches: KernelResult[];
}

function groupKernels(report: Report, perGpu: boolean): KernelGroup[] {
  const groups = new Map<string, KernelGroup>();
  for (const k of report.kernels) {
    // one device: per-gpu is every launch in one group
    const key = perGpu ? 'gpu' : `${k.signature ?? k.name}|${k.launch.grid.join(',')}|${k.launch.block.join(',')}`;
    const g = groups.get(key);
    if (g) g.launches.push(k);
    else groups.set(key, { first: k, launches: [k] });
  }
  return [...groups.values()];
}

interface SummaryRow {
  section: string;
  id: string;
  label: string;
  unit: string;
  min: number;
  max: number;
  avg: number;
}

/** per section, the numeric header metrics every launch of the group has: minimum, maximum, average */
function summaryRows(report: Report, g: KernelGroup, sectionIds: readonly string[] | undefined, metrics: readonly string[]): SummaryRow[] {
  const cc = ccNumber(report.device.cc);
  const rows: SummaryRow[] = [];
  const add = (section: string, id: string, label: string, unit: string): void => {
    const values = g.launches.map((k) => k.metrics[id]);
    if (!values.every((v): v is number => typeof v === 'number')) return;
    rows.push({ section, id, label, unit, min: Math.min(...values), max: Math.max(...values), avg: values.reduce((a, b) => a + b, 0) / values.length });
  };
  for (const id of [...metrics].sort(byId)) add('Command line profiler metrics', id, id, unitOf(id));
  const wanted = sectionIds ?? (metrics.length > 0 ? [] : SECTIONS.map((s) => s.id));
  for (const s of SECTIONS) {
    if (!wanted.includes(s.id)) continue;
    for (const e of [...s.header].filter((e) => appliesTo(e, cc)).sort((a, b) => byId(a.metric, b.metric))) add(s.name, e.metric, e.label, e.unit ?? unitOf(e.metric));
  }
  return rows;
}

/** `--print-summary per-kernel` on the console: one block per kernel with its invocation count */
export function renderSummary(
  report: Report,
  opts: Pick<TerminalOptions, 'units' | 'metricName'> & { sections?: readonly string[]; metrics?: readonly string[]; perGpu?: boolean } = {},
): string {
  const lines: string[] = [];
  for (const g of groupKernels(report, opts.perGpu === true)) {
    const head = opts.perGpu === true ? `  ${report.device.name}, Device 0, CC ${report.device.cc}` : kernelHeaderLine(g.first, report.device);
    lines.push(`${head}, Invocations ${g.launches.length}`);
    const rows = summaryRows(report, g, opts.sections, opts.metrics ?? []);
    let section = '';
    let table: string[][] = [];
    const flush = (): void => {
      if (table.length > 0) lines.push(`${INDENT}Section: ${section}`, ...gridLines(['Metric Name', 'Metric Unit', 'Minimum', 'Maximum', 'Average'], table), '');
      table = [];
    };
    for (const r of rows) {
      if (r.section !== section) {
        flush();
        section = r.section;
      }
      // one unit for the three values: the one the average scales to
      const scaled = opts.units === 'base' ? { value: r.avg, unit: r.unit } : scaleUnit(r.avg, r.unit);
      const unit = scaled.unit;
      const factor = r.avg === 0 ? 1 : scaled.value / r.avg;
      const cell = (v: number): string => formatNumber(v * factor);
      table.push([metricRowName(r.label, r.id, opts.metricName), unit, cell(r.min), cell(r.max), cell(r.avg)]);
    }
    flush();
  }
  return `${lines.join('\n')}\n`;
}

const SUMMARY_COLUMNS = ['Process ID', 'Process Name', 'Host Name', 'Kernel Name', 'Block Size', 'Grid Size', 'Device', 'CC', 'Invocations', 'Section Name', 'Metric Name', 'Metric Unit', 'Minimum', 'Maximum', 'Average'];

/** `--csv --print-summary per-kernel`, in ncu's columns (nsight-compute.md §3.3); base units */
export function writeSummaryCsv(report: Report, opts: { sections?: readonly string[]; metrics?: readonly string[]; perGpu?: boolean } = {}): string {
  const line = (cells: readonly string[]): string => cells.map((c) => `"${c.replaceAll('"', '""')}"`).join(',');
  const dim = (d: readonly number[]): string => `(${d.join(', ')})`;
  const out = [line(SUMMARY_COLUMNS)];
  for (const g of groupKernels(report, opts.perGpu === true)) {
    const k = g.first;
    const identity = ['0', report.tool.name, 'localhost', opts.perGpu === true ? '' : (k.signature ?? k.name), dim(k.launch.block), dim(k.launch.grid), '0', report.device.cc, String(g.launches.length)];
    for (const r of summaryRows(report, g, opts.sections, opts.metrics ?? []))
      out.push(line([...identity, r.section, r.label, r.unit, formatNcuNumber(r.min), formatNcuNumber(r.max), formatNcuNumber(r.avg)]));
  }
  return `${out.join('\n')}\n`;
}

// ── listings ───────────────────────────────────────────────────────────────────────────────────

export interface SetListing {
  id: string;
  description: string;
  sections: string[];
  metrics: number;
}

export function listSets(): SetListing[] {
  return SECTION_SETS.map((s) => ({
    id: s.id,
    description: s.description,
    sections: [...s.sections],
    metrics: new Set(s.sections.flatMap((id) => { const d = sectionById(id); return d ? sectionMetricIds(d) : []; })).size,
  }));
}

export function renderSets(sets: readonly SetListing[]): string {
  const body = sets.map((s) => [s.id, s.sections.join(', '), s.id === 'full' ? 'yes' : 'no', String(s.metrics)]);
  return `${gridLines(['Identifier', 'Sections', 'Enabled', 'Estimated Metrics'], body, new Set([1, 2])).join('\n')}\n`;
}

export interface SectionListing {
  id: string;
  name: string;
  metrics: number;
  sets: string[];
}

export function listSections(): SectionListing[] {
  return SECTIONS.map((s) => ({ id: s.id, name: s.name, metrics: sectionMetricIds(s).length, sets: SECTION_SETS.filter((set) => set.sections.includes(s.id)).map((set) => set.id) }));
}

export function renderSections(sections: readonly SectionListing[]): string {
  const body = sections.map((s) => [s.id, s.name, 'yes', s.sets.join(', '), String(s.metrics)]);
  return `${gridLines(['Identifier', 'Display Name', 'Enabled', 'Sets', 'Metrics'], body, new Set([1, 2, 3])).join('\n')}\n`;
}

export interface MetricListing {
  id: string;
  label: string;
  unit: string;
  description: string;
  section?: string;
  /** which way it improves, as compare/bench thresholds judge it; absent: neither */
  better?: Better;
}

/** `--query-metrics`: the registry, by id; `filter` keeps ids containing any of its words */
export function listMetrics(filter: readonly string[] = []): MetricListing[] {
  return [...METRICS]
    .filter((m) => filter.length === 0 || filter.some((f) => m.id.includes(f)))
    .sort((a, b) => byId(a.id, b.id))
    .map((m) => {
      const better = betterDirection(m.id);
      return { ...metricInfo(m.id), ...(m.section ? { section: m.section } : {}), ...(better ? { better } : {}) };
    });
}

export function renderMetrics(metrics: readonly MetricListing[], device: string): string {
  const body = metrics.map((m) => [m.id, m.unit, m.better ?? '', m.description || m.label]);
  return `Device ${device}\n${gridLines(['Metric Name', 'Metric Unit', 'Better', 'Metric Description'], body, new Set([1, 2, 3])).join('\n')}\n`;
}
