/**
 * A program's block at the top of the report page, as Nsight Systems shows a run: the timeline chart
 * (with the SMs in use under it), then beside it the rule results, the figures the program reported
 * and the `nsys stats`-like summaries (kernels, memory operations by time and size, CUDA API calls,
 * streams with their hardware queues, GPU idle time) from the same `runtimeSummary` the terminal
 * prints. Every name comes from user code, so every one goes through escapeHtml.
 */
import type { ProgramRun, Report } from '../../../types/report.schema.js';
import { runtimeSummary, type SummaryRow, type Timeline } from '../../runtime/timeline.js';
import { formatNumber } from '../format.js';
import { escapeHtml } from './escape.js';

/** the section id a program's timeline chart is filed under (always shown, like the rules) */
export const TIMELINE_SECTION = 'Timeline';

const int = (n: number): string => formatNumber(Math.round(n));
const td = (text: string): string => `<td class="num">${escapeHtml(text)}</td>`;

function table(caption: string, head: readonly string[], rows: readonly string[], cls = 'grid'): string {
  if (rows.length === 0) return '';
  return `<table class="${cls}"><caption>${escapeHtml(caption)}</caption><thead><tr>${head.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function statTable(caption: string, rows: readonly SummaryRow[], countLabel: string, nameLabel: string): string {
  return table(
    caption,
    ['Time (%)', 'Total Time (ns)', countLabel, 'Avg (ns)', 'Med (ns)', 'Min (ns)', 'Max (ns)', 'StdDev (ns)', nameLabel],
    rows.map(
      (r) =>
        `<tr>${td(r.pct.toFixed(1))}${td(int(r.totalNs))}${td(int(r.count))}${td(int(r.avgNs))}${td(int(r.medNs))}${td(int(r.minNs))}${td(int(r.maxNs))}${td(int(r.stdDevNs))}<td>${escapeHtml(r.name)}</td></tr>`,
    ),
  );
}

/** an operation of a finding: linked to its kernel's section when the launch was profiled */
function opRef(p: ProgramRun, id: number): string {
  const op = p.timeline.ops.find((o) => o.id === id);
  if (!op) return `op ${id}`;
  const text = `${escapeHtml(op.name)} (op ${id}${op.where ? `, ${escapeHtml(op.where)}` : ''})`;
  return op.kernel === undefined ? text : `<a href="#kernel-${op.kernel}">${text}</a>`;
}

function findingsHtml(p: ProgramRun): string {
  if (p.findings.length === 0) return '<p class="note">No runtime rule fired.</p>';
  return table(
    'Findings',
    ['Severity', 'Rule', 'Est. Saving', 'Message', 'Operations'],
    p.findings.map(
      (f) =>
        `<tr data-rule="${escapeHtml(f.rule)}"><td><span class="tag ${f.severity === 'warning' ? 'wrn' : 'inf'}">${escapeHtml(f.severity.toUpperCase())}</span></td>` +
        `<td>${escapeHtml(f.rule)}</td>${td(f.estimatedSavingNs === undefined ? '' : `${int(f.estimatedSavingNs)} ns`)}` +
        `<td class="message">${escapeHtml(f.message)}</td><td>${(f.ops ?? []).map((id) => opRef(p, id)).join('<br>')}</td></tr>`,
    ),
    'grid findings',
  );
}

function valuesHtml(p: ProgramRun): string {
  return table(
    'Values reported by the program',
    ['Name', 'Value', 'Unit'],
    p.values.map((v) => `<tr><td>${escapeHtml(v.name)}</td>${td(Number.isInteger(v.value) ? formatNumber(v.value) : formatNumber(Math.round(v.value * 1000) / 1000))}<td>${escapeHtml(v.unit)}</td></tr>`),
  );
}

export function programHtml(report: Report, p: ProgramRun, index: number, chartHtml: string): string {
  const t = p.timeline as Timeline;
  const s = runtimeSummary(t);
  const streams = new Set(t.ops.map((o) => o.stream)).size;
  const idlePct = s.spanNs > 0 ? ((100 * s.gpuIdleNs) / s.spanNs).toFixed(1) : '0.0';
  const summaries = [
    statTable('CUDA GPU Kernel Summary (cuda_gpu_kern_sum)', s.kernels, 'Instances', 'Name'),
    statTable('CUDA GPU MemOps Summary (by Time) (cuda_gpu_mem_time_sum)', s.memops, 'Count', 'Operation'),
    table(
      'CUDA GPU MemOps Summary (by Size) (cuda_gpu_mem_size_sum)',
      ['Total (MB)', 'Count', 'Operation'],
      s.memops.map((r) => `<tr>${td(((r.bytes ?? 0) / 1e6).toFixed(3))}${td(int(r.count))}<td>${escapeHtml(r.name)}</td></tr>`),
    ),
    statTable('CUDA API Summary (cuda_api_sum)', s.api, 'Num Calls', 'Name'),
    table(
      'Streams',
      ['Stream', 'Hardware queue', 'Operations', 'Busy (ns)'],
      s.streams.map((r) => `<tr><td>${escapeHtml(r.name)}</td>${td(String(t.streams.find((x) => x.id === r.stream)?.queue ?? ''))}${td(int(r.ops))}${td(int(r.busyNs))}</tr>`),
    ),
  ].filter((h) => h !== '');
  return (
    `<section class="program" id="program-${index}" data-program="${index}">` +
    `<h2>Program <span class="pname">${escapeHtml(p.name)}</span></h2>` +
    `<p class="program-line">${formatNumber(t.ops.length)} GPU operations on ${streams} stream(s), ${t.hwQueues} hardware queues, ${formatNumber(t.api.length)} CUDA API calls; ` +
    `${escapeHtml((t.endNs / 1000).toFixed(1))} us of simulated time on ${escapeHtml(report.device.name)}</p>` +
    `<section class="section" id="p${index}-${TIMELINE_SECTION}" data-section="${TIMELINE_SECTION}"><h3>Timeline</h3>${chartHtml}` +
    `<div class="tables">${findingsHtml(p)}${valuesHtml(p)}</div>` +
    `<p class="gpu-idle">GPU idle: ${int(s.gpuIdleNs)} ns of ${int(s.spanNs)} ns between the first and the last GPU operation (${idlePct} %)</p>` +
    `<div class="tables">${summaries.join('')}</div></section></section>`
  );
}
