/**
 * What a run collected, as ncu decides it: `--section` / `--set` collect their sections' metrics
 * and run their rules, `--metrics` adds its ids (alone, only those: ncu's temporary "Command line
 * profiler metrics" section). One filtered report feeds the console, the CSV pages and the JSON, so
 * `--csv --section LaunchStats` shows what the console shows. Without any of them (or with every
 * section) nothing is filtered.
 */
import type { Report } from '../../types/report.schema.js';
import { SECTIONS, sectionById, sectionMetricIds } from '../metrics/sections.js';

export interface Selection {
  readonly sections?: readonly string[];
  readonly metrics?: readonly string[];
}

/** the metric ids a selection collects; undefined = everything */
export function collectedMetrics(sel: Selection): Set<string> | undefined {
  const sections = sel.sections ?? [];
  const metrics = sel.metrics ?? [];
  if (sections.length === 0 && metrics.length === 0) return undefined;
  if (SECTIONS.every((s) => sections.includes(s.id))) return undefined;
  const ids = new Set(metrics);
  for (const id of sections) {
    const s = sectionById(id);
    if (s) for (const m of sectionMetricIds(s)) ids.add(m);
  }
  return ids;
}

/** the report as the selection collected it: metrics, rules of the chosen sections, source counters */
export function selectReport(report: Report, sel: Selection): Report {
  const ids = collectedMetrics(sel);
  const sections = sel.sections ?? [];
  const metrics = sel.metrics ?? [];
  const options = {
    ...report.options,
    ...(sections.length > 0 ? { sections: [...sections] } : {}),
    ...(metrics.length > 0 ? { metrics: [...metrics] } : {}),
  };
  if (ids === undefined) return { ...report, options };
  const wanted = new Set(sections);
  return {
    ...report,
    options,
    kernels: report.kernels.map((k) => ({
      ...k,
      metrics: Object.fromEntries(Object.entries(k.metrics).filter(([id]) => ids.has(id))),
      rules: k.rules.filter((r) => wanted.has(r.section)),
      // per-instruction counters are the Source Counters section's
      instructions: wanted.has('SourceCounters') ? k.instructions : [],
    })),
  };
}
