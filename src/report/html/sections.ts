/**
 * Sections as HTML, from the same section data the terminal renders (`metrics/sections.ts`): the
 * header metrics as a Metric Name / Unit / Value table, body tables (memory tables, warp states) as
 * tables, then the rules filed under the section. Values are formatted as ncu prints them.
 */
import type { KernelResult, MetricValue, RuleResult } from '../../../types/report.schema.js';
import { unitOf as registryUnitOf } from '../../metrics/registry.js';
import { appliesTo, type BodyTable, type GridTable, type MetricEntry, type SectionDef } from '../../metrics/sections.js';
import { formatMetric, formatSpeedup } from '../format.js';
import { escapeHtml } from './escape.js';

type Metrics = Readonly<Record<string, MetricValue>>;

export interface MetricRow {
  metric: string;
  label: string;
  unit: string;
  value: string;
}

/** The entries the kernel has (first of each metric id), formatted, in section order. */
export function metricRows(entries: readonly MetricEntry[], metrics: Metrics, cc: number | undefined): MetricRow[] {
  const seen = new Set<string>();
  const rows: MetricRow[] = [];
  for (const entry of entries) {
    const value = metrics[entry.metric];
    if (value === undefined || seen.has(entry.metric) || !appliesTo(entry, cc)) continue;
    seen.add(entry.metric);
    const cell = formatMetric(value, entry.unit ?? registryUnitOf(entry.metric));
    rows.push({ metric: entry.metric, label: entry.label, unit: cell.unit, value: cell.value });
  }
  return rows;
}

export function metricTableHtml(rows: readonly MetricRow[], caption?: string): string {
  if (rows.length === 0) return '';
  const body = rows
    .map(
      (r) =>
        `<tr><td title="${escapeHtml(r.metric)}">${escapeHtml(r.label)}</td><td class="unit">${escapeHtml(r.unit)}</td><td class="num">${escapeHtml(r.value)}</td></tr>`,
    )
    .join('');
  const cap = caption === undefined ? '' : `<caption>${escapeHtml(caption)}</caption>`;
  return `<table class="metrics">${cap}<thead><tr><th>Metric Name</th><th>Metric Unit</th><th>Metric Value</th></tr></thead><tbody>${body}</tbody></table>`;
}

function gridTableHtml(table: GridTable, metrics: Metrics): string {
  const has = (id: string | null | undefined): boolean => id !== null && id !== undefined && metrics[id] !== undefined;
  const columns = table.columns.map((column, c) => ({ column, c })).filter(({ c }) => table.rows.some((row) => has(row.cells[c])));
  const rows = table.rows.filter((row) => columns.some(({ c }) => has(row.cells[c])));
  if (rows.length === 0) return '';
  const head = [table.rowHeader, ...columns.map(({ column }) => column.label)].map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const body = rows
    .map((row) => {
      const cells = columns.map(({ column, c }) => {
        const id = row.cells[c];
        const value = id === null || id === undefined ? undefined : metrics[id];
        if (value === undefined || id === null || id === undefined) return '<td class="num">-</td>';
        const cell = formatMetric(value, column.unit ?? '');
        const text = column.showUnit && cell.unit !== '' ? `${cell.value} ${cell.unit}` : cell.value;
        return `<td class="num" title="${escapeHtml(id)}">${escapeHtml(text)}</td>`;
      });
      return `<tr><td>${escapeHtml(row.label)}</td>${cells.join('')}</tr>`;
    })
    .join('');
  return `<table class="grid"><caption>${escapeHtml(table.label)}</caption><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

function bodyTableHtml(table: BodyTable, metrics: Metrics, cc: number | undefined): string {
  if (table.kind === 'grid') return gridTableHtml(table, metrics);
  const rows = metricRows(table.entries, metrics, cc);
  if (table.sort === 'value-desc') {
    const v = (r: MetricRow): number => {
      const x = metrics[r.metric];
      return typeof x === 'number' ? x : Number.NEGATIVE_INFINITY;
    };
    rows.sort((a, b) => v(b) - v(a) || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
  }
  return metricTableHtml(rows, table.label);
}

const RULE_CLASS: Readonly<Record<RuleResult['type'], string>> = { INF: 'inf', OPT: 'opt', WRN: 'wrn', ERR: 'err' };

export function ruleHtml(rule: RuleResult): string {
  const speedup =
    rule.speedup === undefined
      ? ''
      : `<span class="speedup">Est. ${rule.speedup.type === 'local' ? 'Local ' : ''}Speedup: ${escapeHtml(formatSpeedup(rule.speedup.value))}%</span>`;
  const title = rule.title === undefined ? '' : `<span class="rule-title">${escapeHtml(rule.title)}</span>`;
  const lines = rule.lines === undefined || rule.lines.length === 0 ? '' : `<div class="rule-lines">source lines: ${rule.lines.map((l) => escapeHtml(String(l))).join(', ')}</div>`;
  const message = escapeHtml(rule.message).replace(/\n/g, '<br>');
  return (
    `<div class="rule ${RULE_CLASS[rule.type]}" data-rule="${escapeHtml(rule.id)}">` +
    `<div class="rule-head"><span class="tag">${rule.type}</span><span class="rule-id">${escapeHtml(rule.id)}</span>${title}${speedup}</div>` +
    `<p>${message}</p>${lines}</div>`
  );
}

/**
 * One section's inner HTML (header table, body tables, then `extra` — the charts — and the rules),
 * or '' when it has nothing to show.
 */
export function sectionBodyHtml(
  section: SectionDef,
  kernel: Pick<KernelResult, 'metrics'>,
  rules: readonly RuleResult[],
  cc: number | undefined,
  extra = '',
): string {
  const header = metricTableHtml(metricRows(section.header, kernel.metrics, cc));
  const body = (section.body ?? [])
    .map((group) => {
      const tables = group.tables.map((t) => bodyTableHtml(t, kernel.metrics, cc)).filter((t) => t !== '');
      if (tables.length === 0) return '';
      const name = group.name === undefined ? '' : `<h4>${escapeHtml(group.name)}</h4>`;
      return `${name}<div class="tables">${tables.join('')}</div>`;
    })
    .join('');
  const ruleBlock = rules.map(ruleHtml).join('');
  if (header === '' && body === '' && extra === '' && ruleBlock === '') return '';
  return `${header}${extra}${body}${ruleBlock}`;
}
