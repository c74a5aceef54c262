/**
 * The rules that fired with an estimated speedup, as bars (largest first), coloured by rule type.
 * Rules without a speedup are listed in the page text, not here.
 */
import type { KernelResult } from '../../../types/report.schema.js';
import { CHART_CONFIG, type ChartDef } from './types.js';

export function rulesChart(kernel: Pick<KernelResult, 'id' | 'rules'>): ChartDef | undefined {
  // one bar per result: a rule that fires twice (CPIStall names two stall reasons) gets "#2" on its
  // second label, else vega-lite stacks both results into one bar of their summed speedups
  const seen = new Map<string, number>();
  const rows = kernel.rules
    .flatMap((r, i) => {
      if (r.speedup === undefined) return [];
      const base = `${r.id} (${r.section})`;
      const n = (seen.get(base) ?? 0) + 1;
      seen.set(base, n);
      const rule = n === 1 ? base : `${base} #${n}`;
      return [{ rule, order: i, type: r.type, speedupType: r.speedup.type, speedup: Math.round(r.speedup.value * 100) / 100, title: r.title ?? '' }];
    })
    .sort((a, b) => b.speedup - a.speedup || a.order - b.order);
  if (rows.length === 0) return undefined;
  return {
    id: `k${kernel.id}-rules`,
    kind: 'rules',
    kernelIndex: kernel.id,
    section: 'Rules',
    title: 'Estimated Speedups',
    spec: {
      $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
      title: 'Estimated Speedups',
      width: 480,
      height: { step: 22 },
      config: CHART_CONFIG,
      data: { values: rows },
      encoding: {
        y: { field: 'rule', type: 'nominal', sort: null, title: null, axis: { labelLimit: 360 } },
        x: { field: 'speedup', type: 'quantitative', scale: { domain: [0, 100] }, title: 'Est. Speedup [%]' },
      },
      layer: [
        {
          mark: { type: 'bar' },
          encoding: {
            color: { field: 'type', type: 'nominal', scale: { domain: ['OPT', 'WRN', 'ERR', 'INF'], range: ['#f58518', '#e45756', '#b279a2', '#72b7b2'] }, title: 'Type' },
            tooltip: [
              { field: 'rule', title: 'Rule' },
              { field: 'type', title: 'Type' },
              { field: 'speedupType', title: 'Speedup type' },
              { field: 'speedup', title: 'Est. Speedup %' },
            ],
          },
        },
        {
          mark: { type: 'text', align: 'left', dx: 4 },
          encoding: { text: { field: 'speedup', type: 'quantitative', format: '.2f' } },
        },
      ],
    },
  };
}
