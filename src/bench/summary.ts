/**
 * What CI keeps of a bench run: a markdown summary (for a job summary or a PR comment) and JUnit
 * XML (one test case per kernel, a failure per crossed threshold), both deterministic apart from
 * the timings they are given.
 */
import type { KernelComparison, MetricDelta } from '../report/compare.js';
import { formatPct } from '../report/compare.js';
import { formatNumber } from '../report/format.js';
import type { BenchRun, BenchVerdict } from './run.js';

const cell = (v: number | null): string => (v === null ? '-' : formatNumber(v));

/** markdown table cells: no pipes or newlines from kernel strings */
const md = (text: string): string => text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ').replace(/</g, '&lt;');

function kernelStatus(k: KernelComparison): string {
  if (k.status === 'base-only') return 'missing from this run';
  if (k.status === 'new-only') return 'not in the baseline (run bench --update)';
  return k.regressions === 0 ? 'ok' : `${k.regressions} regression${k.regressions === 1 ? '' : 's'}`;
}

function failingRows(k: KernelComparison): MetricDelta[] {
  return k.metrics.filter((m) => m.regression);
}

export function benchMarkdown(run: BenchRun, verdict: BenchVerdict, baselineFile: string): string {
  const c = verdict.comparison;
  const out: string[] = [
    `## Warpsight bench: ${verdict.passed ? 'passed' : 'FAILED'}`,
    '',
    `Baseline \`${md(baselineFile)}\`; thresholds: ${c.thresholds.length === 0 ? 'none' : c.thresholds.map((t) => `\`${md(t.metric)}\` ±${formatNumber(t.pct)}%`).join(', ')}.`,
    '',
    '| kernel | status | changed metrics | rules appeared | rules vanished |',
    '|---|---|---:|---|---|',
  ];
  for (const k of c.kernels) {
    const changed = k.metrics.filter((m) => m.pct !== 0).length;
    out.push(
      `| \`${md(k.name)}\` | ${kernelStatus(k)} | ${changed} | ${k.rulesAppeared.map((r) => md(r.id)).join(', ')} | ${k.rulesVanished.map((r) => md(r.id)).join(', ')} |`,
    );
  }
  const failing = c.kernels.filter((k) => failingRows(k).length > 0);
  if (failing.length > 0) {
    out.push('', '### Thresholds crossed', '', '| kernel | metric | base | new | change | allowed |', '|---|---|---:|---:|---:|---:|');
    for (const k of failing)
      for (const m of failingRows(k))
        out.push(`| \`${md(k.name)}\` | \`${md(m.metric)}\` | ${cell(m.base)} | ${cell(m.new)} | ${formatPct(m.pct)} | ±${formatNumber(m.threshold ?? 0)}% |`);
  }
  if (verdict.wrongResults.length > 0) {
    out.push('', '### Wrong results', '');
    for (const w of verdict.wrongResults) out.push(`- \`${md(w.label)}\`: ${md(w.checkFailed ?? '')}`);
  }
  for (const t of c.unusedThresholds) out.push('', `Warning: threshold \`${md(t)}\` matches no metric.`);
  out.push('', '| run | seconds |', '|---|---:|', ...run.entries.map((e) => `| \`${md(e.label)}\` | ${Number.isFinite(e.seconds) ? e.seconds.toFixed(1) : '—'} |`), '');
  return out.join('\n');
}

/** XML 1.0 text: escaped, and without the control characters XML cannot hold */
export function xmlText(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

export function benchJunit(run: BenchRun, verdict: BenchVerdict): string {
  const c = verdict.comparison;
  const seconds = new Map<string, number>();
  const files = new Map<string, string>();
  for (const e of run.entries) {
    // a merged run (--merge) has no times: JUnit's time attribute is a number, 0 then
    seconds.set(e.entry.kernel, (seconds.get(e.entry.kernel) ?? 0) + (Number.isFinite(e.seconds) ? e.seconds : 0));
    files.set(e.entry.kernel, e.entry.file);
  }
  const cases = c.kernels.map((k) => {
    const failures: string[] = [];
    for (const m of failingRows(k))
      failures.push(`${m.metric}: ${cell(m.base)} -> ${cell(m.new)} (${formatPct(m.pct)}, allowed ±${formatNumber(m.threshold ?? 0)}%)`);
    if (k.status !== 'matched') failures.push(kernelStatus(k));
    const wrong = verdict.wrongResults.find((w) => w.entry.kernel === k.name);
    if (wrong) failures.push(`wrong result: ${wrong.checkFailed ?? ''}`);
    const name = k.instance > 0 ? `${k.name} [${k.instance}]` : k.name;
    const time = (seconds.get(k.name) ?? 0).toFixed(3);
    const classname = files.get(k.name) ?? 'warpsight.bench';
    const body =
      failures.length === 0
        ? ''
        : `\n      <failure message="${xmlText(`${failures.length} problem${failures.length === 1 ? '' : 's'}: ${failures[0] ?? ''}`)}" type="regression">${xmlText(failures.join('\n'))}</failure>\n    `;
    return { failed: failures.length > 0, xml: `    <testcase classname="${xmlText(classname)}" name="${xmlText(name)}" time="${time}">${body}</testcase>` };
  });
  const failures = cases.filter((t) => t.failed).length;
  const total = run.entries.reduce((s, e) => s + (Number.isFinite(e.seconds) ? e.seconds : 0), 0).toFixed(3);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="warpsight bench" tests="${cases.length}" failures="${failures}" time="${total}">`,
    `  <testsuite name="warpsight bench" tests="${cases.length}" failures="${failures}" errors="0" skipped="0" time="${total}">`,
    ...cases.map((t) => t.xml),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
