/**
 * The report page: one self-contained HTML document (inlined CSS, vega, vega-embed and the charts'
 * precompiled vega specs; no request leaves it). Per program first: its timeline, summaries and
 * rule results (`program.ts`); then per launch: its header line, every section with
 * its tables, charts and rules (sections as data, in ncu's order), the source heat map and hot
 * spots; with several launches a chart of any metric across them and a summary table first, each
 * launch folded (the first open) when there are more than three. A bar of links at the top; every
 * section folds. Deterministic: the same report and charts
 * give the same bytes. A Content-Security-Policy allows only the page's own scripts (by hash), so
 * even markup that slipped through escaping could neither run nor fetch anything.
 */
import { createHash } from 'node:crypto';
import type { KernelResult, Report, RuleResult } from '../../../types/report.schema.js';
import { SECTIONS, ccNumber, type SectionDef } from '../../metrics/sections.js';
import { TIMING_ONLY } from '../../timing/only.js';
import type { ChartDef } from '../charts/types.js';
import { formatMetric, formatNumber, formatSpeedup } from '../format.js';
import { hotSpots, summarizeSourceLines, threadsPerInstruction } from '../sourceLines.js';
import { kernelHeaderLine } from '../terminal.js';
import type { Bundles } from './bundles.js';
import { documentStart } from './document.js';
import { escapeHtml, jsonForScript } from './escape.js';
import { EXPLAIN_SECTION, explainHtml, explainLineId, explainedLines } from './explain.js';
import { programHtml, TIMELINE_SECTION } from './program.js';
import { ruleHtml, sectionBodyHtml } from './sections.js';
import { PAGE_CSS } from './style.js';

export interface CompiledChart {
  readonly def: ChartDef;
  /** the vega spec compiled from def.spec */
  readonly vega: unknown;
}

export interface PageOptions {
  /** section identifiers to show (default: the report's `options.sections`, else all) */
  readonly sections?: readonly string[];
  /** rows of each hot-spot table (default 10) */
  readonly hotSpots?: number;
  /** a line shown under the title, e.g. why there are no occupancy graphs */
  readonly notes?: readonly string[];
}

/** the section id of the overview block holding the rules chart and every rule of a launch */
export const RULES_SECTION = 'Rules';
/** the section id of the chart across launches */
export const OVERVIEW_SECTION = 'Overview';

/** a multi-PE program's strong-scaling charts and tables (--pes 1,2,4,8) */
function scalingHtml(report: Report, charts: readonly ChartDef[]): string {
  const scaling = report.scaling ?? [];
  if (scaling.length === 0) return '';
  const tables = scaling.map(
    (sc) =>
      `<table class="scaling"><caption>${escapeHtml(sc.program)}: ${escapeHtml(sc.value)}${sc.unit ? ` (${escapeHtml(sc.unit)})` : ''}</caption><thead><tr><th>PEs</th><th>Value</th><th>Speed-up</th><th>Efficiency (%)</th></tr></thead><tbody>` +
      sc.points.map((p) => `<tr><td>${p.pes}</td><td>${p.value.toFixed(3)}</td><td>${p.speedup.toFixed(2)}</td><td>${(100 * p.efficiency).toFixed(1)}</td></tr>`).join('') +
      '</tbody></table>',
  );
  const figures = charts.filter((c) => c.kind === 'scaling').map(chartHtml).join('');
  return `<section class="scaling" id="scaling" data-section="Scaling"><h2>Strong scaling</h2>${figures}${tables.join('')}</section>`;
}

function overviewHtml(charts: readonly ChartDef[]): string {
  const figures = charts.filter((c) => c.section === OVERVIEW_SECTION).map(chartHtml).join('');
  return figures === '' ? '' : `<section class="overview" id="overview" data-section="${OVERVIEW_SECTION}"><h2>Across launches</h2>${figures}</section>`;
}

function chartHtml(chart: ChartDef): string {
  return `<figure class="chart" data-chart="${chart.id}" data-kind="${chart.kind}"><div class="vega" id="chart-${chart.id}"></div></figure>`;
}

/** a section that folds: its heading is the summary of an open <details> */
function sectionHtml(kernelIndex: number, id: string, name: string, inner: string): string {
  return (
    `<section class="section" id="k${kernelIndex}-${escapeHtml(id)}" data-section="${escapeHtml(id)}">` +
    `<details open><summary><h3>${escapeHtml(name)}</h3></summary>${inner}</details></section>`
  );
}

function hotSpotTableHtml(kernel: KernelResult, count: number, kernelIndex: number): string {
  const spots = hotSpots(summarizeSourceLines(kernel.instructions, kernel.sourceLines), count);
  if (spots.length === 0) return '';
  // a line with an explanation links to it (the page's script opens the fold a link points into)
  const explained = explainedLines(kernel);
  const lineCell = (line: number): string => (explained.has(line) ? `<a href="#${explainLineId(kernelIndex, line)}" title="explain this line">${line}</a>` : String(line));
  const rows = spots
    .map(
      (s) =>
        `<tr><td class="num">${lineCell(s.line)}</td><td class="num">${formatNumber(s.instructions)}</td><td class="num">${formatNumber(Math.round(threadsPerInstruction(s) * 100) / 100)}</td>` +
        `<td class="num">${formatNumber(s.sectors)}</td><td class="num">${formatNumber(s.excessiveSectors)}</td><td class="num">${formatNumber(s.wavefronts)}</td>` +
        `<td class="num">${formatNumber(s.excessiveWavefronts)}</td><td><code>${escapeHtml(s.opcodes.join(' '))}</code></td><td><code>${escapeHtml((s.text ?? '').trim())}</code></td></tr>`,
    )
    .join('');
  // in a box of the page's width: long source lines wrap or scroll there, not widen the page
  return (
    `<div class="scroll"><table class="grid hotspots"><caption>Source Hot Spots (Warpsight)</caption><thead><tr><th>Line</th><th>Instructions</th><th>Threads/Inst</th><th>Sectors</th>` +
    `<th>Excessive Sectors</th><th>Wavefronts</th><th>Bank Conflicts</th><th>Opcodes</th><th>Source</th></tr></thead><tbody>${rows}</tbody></table></div>`
  );
}

function rulesOverviewHtml(kernel: KernelResult, charts: readonly ChartDef[]): string {
  if (kernel.rules.length === 0) return '';
  const chart = charts.filter((c) => c.section === RULES_SECTION).map(chartHtml).join('');
  const ordered = kernel.rules
    .map((r, i) => ({ r, i }))
    .sort((a, b) => (b.r.speedup?.value ?? -1) - (a.r.speedup?.value ?? -1) || a.i - b.i);
  const rows = ordered
    .map(
      ({ r }) =>
        `<tr><td><span class="tag ${r.type.toLowerCase()}">${r.type}</span></td><td>${escapeHtml(r.id)}</td><td>${escapeHtml(r.section)}</td>` +
        `<td class="num">${r.speedup === undefined ? '' : `${escapeHtml(formatSpeedup(r.speedup.value))}% ${r.speedup.type}`}</td><td>${escapeHtml(r.title ?? '')}</td></tr>`,
    )
    .join('');
  return `${chart}<table class="grid"><caption>Rules</caption><thead><tr><th>Type</th><th>Rule</th><th>Section</th><th>Est. Speedup</th><th>Title</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** with more launches than this, each launch folds and only the first is open */
const FOLD_LAUNCHES_ABOVE = 3;

function kernelHtml(report: Report, kernel: KernelResult, index: number, charts: readonly ChartDef[], wanted: ReadonlySet<string> | undefined, opts: PageOptions): string {
  const cc = ccNumber(report.device.cc);
  const selected = (id: string): boolean => wanted === undefined || wanted.has(id);
  const rulesBySection = new Map<string, RuleResult[]>();
  for (const rule of kernel.rules) rulesBySection.set(rule.section, [...(rulesBySection.get(rule.section) ?? []), rule]);
  const chartsOf = (section: string): string => charts.filter((c) => c.section === section).map(chartHtml).join('');
  const parts: string[] = [];
  const overview = rulesOverviewHtml(kernel, charts);
  if (overview !== '') parts.push(sectionHtml(index, RULES_SECTION, 'Rules and Estimated Speedups', overview));
  for (const section of SECTIONS) {
    if (!selected(section.id)) continue;
    let extra = chartsOf(section.id);
    if (section.id === 'SourceCounters') extra += hotSpotTableHtml(kernel, opts.hotSpots ?? 10, index);
    const inner = sectionBodyHtml(section, kernel, rulesBySection.get(section.id) ?? [], cc, extra);
    if (inner !== '') parts.push(sectionHtml(index, section.id, section.name, inner));
  }
  // whatever sections were chosen: the report carries explanations only when they were asked for
  const explained = explainHtml(kernel, index);
  if (explained !== '') parts.push(sectionHtml(index, EXPLAIN_SECTION, 'Explained Memory Instructions (lanes → sectors / banks)', explained));
  const known = new Set(SECTIONS.map((s: SectionDef) => s.id));
  for (const [sectionId, rules] of rulesBySection) {
    if (known.has(sectionId) || !selected(sectionId)) continue;
    parts.push(sectionHtml(index, sectionId, sectionId, rules.map(ruleHtml).join('')));
  }
  const notes = kernel.notes.map((n) => `<li>${escapeHtml(n)}</li>`).join('');
  const check =
    kernel.check === undefined
      ? ''
      : `<p class="check ${kernel.check.passed ? 'passed' : 'failed'}">result check: ${kernel.check.passed ? 'passed' : 'FAILED'}${kernel.check.message ? ` — ${escapeHtml(kernel.check.message)}` : ''}</p>`;
  const fold = report.kernels.length > FOLD_LAUNCHES_ABOVE;
  const number = report.kernels.length > 1 ? `<span class="kindex">#${index}</span> ` : '';
  const heading = `<h2>${number}<span class="kname">${escapeHtml(kernel.name)}</span></h2>`;
  return (
    `<article class="kernel" id="kernel-${index}" data-kernel-index="${index}">` +
    (fold ? `<details class="launch"${index === 0 ? ' open' : ''}><summary>${heading}</summary>` : heading) +
    `<p class="launch-line"><code>${escapeHtml(kernelHeaderLine(kernel, report.device).trim())}</code></p>` +
    `<p class="file">file: <code>${escapeHtml(kernel.file)}</code> · registers/thread: ${kernel.launch.registersPerThread}${kernel.launch.registersSource ? ` (${kernel.launch.registersSource})` : ''}</p>` +
    check +
    (notes === '' ? '' : `<ul class="notes">${notes}</ul>`) +
    parts.join('') +
    (fold ? '</details>' : '') +
    `</article>`
  );
}

/** the bar at the top: the launches (several) or the sections of the one launch, as links */
function navHtml(report: Report, wanted: ReadonlySet<string> | undefined): string {
  const link = (href: string, text: string): string => `<a href="#${escapeHtml(href)}">${escapeHtml(text)}</a>`;
  const links =
    report.kernels.length > 1
      ? [link('overview', 'Overview'), ...report.kernels.map((k, i) => link(`kernel-${i}`, `#${i} ${k.name}`))]
      : [RULES_SECTION, ...SECTIONS.map((s) => s.id)]
          .filter((id) => wanted === undefined || wanted.has(id))
          .concat(report.kernels[0]?.explain?.length ? [EXPLAIN_SECTION] : [])
          .map((id) => link(`k0-${id}`, id === RULES_SECTION ? 'Rules' : id === EXPLAIN_SECTION ? 'Explain' : (SECTIONS.find((s) => s.id === id)?.name ?? id)));
  return `<nav class="toc" aria-label="Report contents">${links.join('')}</nav>`;
}

function metricText(kernel: KernelResult, id: string, unit: string): string {
  const v = kernel.metrics[id];
  if (v === undefined) return '';
  const cell = formatMetric(v, unit);
  return escapeHtml(cell.unit === '' ? cell.value : `${cell.value} ${cell.unit}`);
}

function launchesTableHtml(report: Report): string {
  const rows = report.kernels
    .map((k, i) => {
      const best = Math.max(-1, ...k.rules.map((r) => r.speedup?.value ?? -1));
      return (
        `<tr><td class="num">${i}</td><td><a href="#kernel-${i}">${escapeHtml(k.name)}</a></td><td><code>${escapeHtml(k.file)}</code></td>` +
        `<td>(${k.launch.grid.join(', ')})</td><td>(${k.launch.block.join(', ')})</td>` +
        `<td class="num">${metricText(k, 'gpu__time_duration.sum', 'ns')}</td>` +
        `<td class="num">${metricText(k, 'sm__throughput.avg.pct_of_peak_sustained_elapsed', '%')}</td>` +
        `<td class="num">${metricText(k, 'gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed', '%')}</td>` +
        `<td class="num">${k.rules.length}</td><td class="num">${best < 0 ? '' : `${escapeHtml(formatSpeedup(best))}%`}</td></tr>`
      );
    })
    .join('');
  return (
    `<section class="launches" data-section="Launches"><h2>Launches</h2><div class="scroll"><table class="grid"><thead><tr><th>#</th><th>Kernel</th><th>File</th><th>Grid</th><th>Block</th>` +
    `<th>Duration</th><th>Compute (SM) %</th><th>Memory %</th><th>Rules</th><th>Top Est. Speedup</th></tr></thead><tbody>${rows}</tbody></table></div></section>`
  );
}

/** what the page runs after the bundles: render every chart with vega-embed, then mark the body */
const BOOT_SCRIPT = `(function () {
  var charts = JSON.parse(document.getElementById('warpsight-charts').textContent);
  var jobs = charts.map(function (c) {
    var el = document.getElementById('chart-' + c.id);
    return vegaEmbed(el, c.spec, { mode: 'vega', renderer: 'svg', actions: false, defaultStyle: false })
      .catch(function (e) { el.textContent = 'chart failed to render: ' + e.message; console.error(e); });
  });
  // a link to a folded launch or section opens it (and every fold around it)
  function reveal() {
    var el = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    for (var d = el; d; d = d.parentElement) if (d.tagName === 'DETAILS') d.open = true;
    var inner = el && el.querySelector('details');
    if (inner) inner.open = true;
    if (el) el.scrollIntoView();
  }
  window.addEventListener('hashchange', reveal);
  reveal();
  Promise.all(jobs).then(function () {
    // milliseconds from navigation start until every chart is drawn: what "opens in < 2 s" measures
    document.body.setAttribute('data-render-ms', String(Math.round(performance.now())));
    document.body.setAttribute('data-rendered', String(charts.length));
  });
})();`;

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

export function buildPage(report: Report, charts: readonly CompiledChart[], bundles: Bundles, opts: PageOptions = {}): string {
  const ids = opts.sections ?? report.options.sections;
  const wanted = ids !== undefined && ids.length > 0 ? new Set([...ids, RULES_SECTION, OVERVIEW_SECTION, TIMELINE_SECTION, 'Scaling']) : undefined;
  const byKernel = (i: number): ChartDef[] =>
    charts.map((c) => c.def).filter((c) => c.kernelIndex === i && (wanted === undefined || wanted.has(c.section)));
  const shownCharts = charts.filter((c) => wanted === undefined || wanted.has(c.def.section));
  const names = [...new Set(report.kernels.map((k) => k.name))];
  const programs = report.programs ?? [];
  // a program's report is named after the program: its launches may be many, or none profiled
  const title = `Warpsight report: ${
    programs.length > 0 ? `program ${programs.map((p) => p.name).join(', ')}` : names.length === 1 ? (names[0] ?? '') : `${report.kernels.length} launches`
  }`;
  const programChart = (i: number): string =>
    charts
      .map((c) => c.def)
      .filter((c) => c.programIndex === i)
      .map(chartHtml)
      .join('');
  const scripts = [bundles.vegaLiteStub, bundles.vega, bundles.vegaEmbed, BOOT_SCRIPT];
  // vega compiles its expressions with Function(): 'unsafe-eval' is needed, inline code is not
  const csp = [
    "default-src 'none'",
    `script-src ${scripts.map(sha256).join(' ')} 'unsafe-eval'`,
    "style-src 'unsafe-inline'",
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  const data = jsonForScript(shownCharts.map((c) => ({ id: c.def.id, spec: c.vega })));
  const { device, tool, options } = report;
  const pageNotes = (opts.notes ?? []).map((n) => `<p class="note">${escapeHtml(n)}</p>`).join('');
  return [
    ...documentStart(title, csp, PAGE_CSS),
    `<header><h1>${escapeHtml(title)}</h1>`,
    `<p class="device">${escapeHtml(device.name)} (CC ${escapeHtml(device.cc)}, ${device.smCount} SMs) · ${escapeHtml(tool.name)} ${escapeHtml(tool.version)} · cache control: ${escapeHtml(options.cacheControl)}${options.timing === false ? ` · --no-timing: ${TIMING_ONLY} not collected` : ''}</p>`,
    pageNotes,
    '</header>',
    // outside the header: sticky within the body, so it stays on screen while scrolling
    navHtml(report, wanted),
    '<main>',
    ...programs.map((p, i) => programHtml(report, p, i, programChart(i))),
    scalingHtml(report, shownCharts.map((c) => c.def)),
    overviewHtml(shownCharts.map((c) => c.def)),
    report.kernels.length > 1 ? launchesTableHtml(report) : '',
    ...report.kernels.map((k, i) => kernelHtml(report, k, i, byKernel(i), wanted, opts)),
    '</main>',
    `<script type="application/json" id="warpsight-charts">${data}</script>`,
    ...scripts.map((s) => `<script>${s}</script>`),
    '</body></html>',
    '',
  ].join('\n');
}
