/**
 * `compare a.json b.json --html`: the comparison as one self-contained page (no script at all; the
 * Content-Security-Policy forbids any). Per kernel a table of the metrics that changed, each row
 * coloured by what the change means — better or worse in the metric's direction (the registry's,
 * as thresholds judge it), a crossed threshold in red whatever else — then the rules that appeared
 * or vanished; the unchanged metrics fold away under the table. Deterministic.
 */
import { betterDirection } from '../../metrics/registry.js';
import { type Comparison, type KernelComparison, type MetricDelta, formatPct, summarizeComparison } from '../compare.js';
import { formatNumber } from '../format.js';
import { documentStart } from './document.js';
import { escapeHtml } from './escape.js';
import { PAGE_CSS } from './style.js';

const COMPARE_CSS = `
tr.worse td { background: #fde8e6; } tr.better td { background: #e6f4e6; } tr.changed td { background: #fdf6dc; }
tr.regression td { background: #f8c9c4; font-weight: 600; }
.verdict.fail { color: #c0392b; font-weight: bold; } .verdict.ok { color: #2e7d32; }
.legend span { display: inline-block; padding: 1px 8px; margin-right: 8px; border: 1px solid var(--line); font-size: 12px; }
.summary { font-weight: 600; }
td .label { color: var(--muted); font-size: 12px; } .verdict { white-space: nowrap; }
`;

/** what a change means: a crossed threshold, better or worse in the metric's direction, or just changed */
export function changeClass(m: MetricDelta): 'regression' | 'better' | 'worse' | 'changed' | 'same' {
  if (m.regression) return 'regression';
  if (m.pct === 0 || (m.pct === null && m.base === m.new)) return 'same';
  const better = betterDirection(m.metric);
  if (better === undefined || m.delta === null) return 'changed';
  return (m.delta < 0) === (better === 'lower') ? 'better' : 'worse';
}

const cell = (v: number | null): string => (v === null ? '-' : escapeHtml(formatNumber(v)));
const signed = (v: number | null): string => (v === null ? '-' : escapeHtml(`${v > 0 ? '+' : ''}${formatNumber(v)}`));

function rowHtml(m: MetricDelta): string {
  const cls = changeClass(m);
  const sign = m.direction === 'up' ? '+' : m.direction === 'down' ? '-' : '±';
  const verdict = m.threshold === undefined ? '' : `<span class="verdict ${m.regression ? 'fail' : 'ok'}">${m.regression ? 'FAIL' : 'ok'} (${sign}${escapeHtml(formatNumber(m.threshold))}%)</span>`;
  return (
    // the label under the id, where the registry has one: a fifth column of ids repeated would widen the page
    `<tr class="${cls}" data-metric="${escapeHtml(m.metric)}"><td><code>${escapeHtml(m.metric)}</code>${m.label !== m.metric ? `<div class="label">${escapeHtml(m.label)}</div>` : ''}</td><td class="unit">${escapeHtml(m.unit)}</td>` +
    `<td class="num">${cell(m.base)}</td><td class="num">${cell(m.new)}</td><td class="num">${signed(m.delta)}</td><td class="num">${escapeHtml(formatPct(m.pct))}</td><td>${verdict}</td></tr>`
  );
}

const HEAD = '<thead><tr><th>Metric</th><th>Unit</th><th>Base</th><th>New</th><th>Delta</th><th>%</th><th>Threshold</th></tr></thead>';

function kernelHtml(k: KernelComparison, i: number): string {
  const title = `${k.name}${k.instance > 0 ? ` [${k.instance}]` : ''}${k.newName !== undefined ? ` → ${k.newName}` : ''}`;
  if (k.status !== 'matched')
    return `<section class="section" id="kernel-${i}" data-kernel="${escapeHtml(k.name)}"><h3>${escapeHtml(title)}</h3><p>only in the ${k.status === 'base-only' ? 'base' : 'new'} report</p></section>`;
  const changed = k.metrics.filter((m) => changeClass(m) !== 'same');
  const same = k.metrics.filter((m) => changeClass(m) === 'same');
  const rules = [
    ...k.rulesAppeared.map((r) => `<li>+ appeared: <span class="tag ${r.type.toLowerCase()}">${r.type}</span> ${escapeHtml(r.id)} (${escapeHtml(r.section)})${r.speedup === undefined ? '' : `, est. speedup ${escapeHtml(formatNumber(Math.round(r.speedup * 100) / 100))}%`}</li>`),
    ...k.rulesVanished.map((r) => `<li>− vanished: <span class="tag ${r.type.toLowerCase()}">${r.type}</span> ${escapeHtml(r.id)} (${escapeHtml(r.section)})</li>`),
  ].join('');
  const status = k.regressions === 0 ? 'ok' : `${k.regressions} regression${k.regressions === 1 ? '' : 's'}`;
  return (
    `<section class="section" id="kernel-${i}" data-kernel="${escapeHtml(k.name)}"><h3>${escapeHtml(title)}: ${status}</h3>` +
    `<div class="scroll"><table class="grid changed"><caption>${changed.length} metric${changed.length === 1 ? '' : 's'} changed</caption>${HEAD}<tbody>${changed.map(rowHtml).join('')}</tbody></table></div>` +
    (rules === '' ? '' : `<ul class="rules">${rules}</ul>`) +
    (same.length === 0 ? '' : `<details><summary>${same.length} unchanged</summary><div class="scroll"><table class="grid same">${HEAD}<tbody>${same.map(rowHtml).join('')}</tbody></table></div></details>`) +
    `</section>`
  );
}

export function renderCompareHtml(c: Comparison, names: { base: string; new: string }): string {
  const title = `Warpsight comparison: ${names.base} → ${names.new}`;
  const csp = ["default-src 'none'", "style-src 'unsafe-inline'", "base-uri 'none'", "form-action 'none'"].join('; ');
  const links = c.kernels.map((k, i) => `<a href="#kernel-${i}">${escapeHtml(k.name)}</a>`).join('');
  return [
    ...documentStart(title, csp, `${PAGE_CSS}${COMPARE_CSS}`),
    `<header><h1>${escapeHtml(title)}</h1>`,
    `<p class="summary">${escapeHtml(summarizeComparison(c))}</p>`,
    '<p class="legend"><span style="background:#f8c9c4">threshold crossed</span><span style="background:#fde8e6">worse</span><span style="background:#e6f4e6">better</span><span style="background:#fdf6dc">changed (no better direction)</span></p>',
    ...c.unusedThresholds.map((t) => `<p class="note">--threshold ${escapeHtml(t)}: neither report has this metric</p>`),
    '</header>',
    `<nav class="toc" aria-label="Kernels">${links}</nav>`,
    '<main>',
    ...c.kernels.map(kernelHtml),
    '</main></body></html>',
    '',
  ].join('\n');
}
