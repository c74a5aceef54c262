/**
 * The source view as a heat map: one row per kernel source line that executed something (the
 * per-instruction counters summed per line by `sourceLines.ts`, so the data stays as small as the
 * kernel, whatever the grid), one column per counter, each cell coloured by its share of the
 * column's largest value — the line with the bank conflicts glows.
 */
import type { KernelResult } from '../../../types/report.schema.js';
import { formatNumber } from '../format.js';
import { summarizeSourceLines, threadsPerInstruction, type SourceLineSummary } from '../sourceLines.js';
import { CHART_CONFIG, type ChartDef } from './types.js';

interface Column {
  label: string;
  value: (s: SourceLineSummary) => number;
  /** 0..1, hotter = worth a look; default value / column max */
  heat?: (s: SourceLineSummary) => number;
  /** shown only when some line has a non-zero value */
  optional: boolean;
}

const COLUMNS: readonly Column[] = [
  { label: 'Instructions', value: (s) => s.instructions, optional: false },
  // fewer active threads per instruction = more lanes idle: hotter
  { label: 'Threads/Inst', value: (s) => threadsPerInstruction(s), heat: (s) => (s.instructions > 0 ? 1 - threadsPerInstruction(s) / 32 : 0), optional: false },
  { label: 'Sectors', value: (s) => s.sectors, optional: true },
  { label: 'Excessive Sectors', value: (s) => s.excessiveSectors, optional: true },
  { label: 'Wavefronts', value: (s) => s.wavefronts, optional: true },
  { label: 'Bank Conflicts', value: (s) => s.excessiveWavefronts, optional: true },
  { label: 'Divergent Branches', value: (s) => s.divergentBranches, optional: true },
];

/** rows beyond this are left out of the chart (a note says so); kernels are far shorter */
export const MAX_SOURCE_ROWS = 400;
const SOURCE_LABEL_WIDTH = 72;

export interface HeatCell {
  row: string;
  line: number;
  column: string;
  value: number;
  text: string;
  heat: number;
}

function rowLabel(s: SourceLineSummary): string {
  const text = (s.text ?? '').trim();
  const short = text.length > SOURCE_LABEL_WIDTH ? `${text.slice(0, SOURCE_LABEL_WIDTH - 1)}…` : text;
  return `${String(s.line).padStart(4)}  ${short}`;
}

export function sourceHeatCells(kernel: Pick<KernelResult, 'instructions' | 'sourceLines'>): { cells: HeatCell[]; columns: string[]; rows: number; omitted: number } {
  const lines = summarizeSourceLines(kernel.instructions, kernel.sourceLines).filter((s) => s.instructions > 0 || s.sectors > 0 || s.wavefronts > 0);
  const shown = lines.slice(0, MAX_SOURCE_ROWS);
  const columns = COLUMNS.filter((c) => !c.optional || shown.some((s) => c.value(s) !== 0));
  const cells: HeatCell[] = [];
  for (const c of columns) {
    const max = Math.max(0, ...shown.map(c.value));
    for (const s of shown) {
      const value = c.value(s);
      const heat = c.heat ? c.heat(s) : max > 0 ? value / max : 0;
      cells.push({ row: rowLabel(s), line: s.line, column: c.label, value: Math.round(value * 100) / 100, text: formatNumber(Math.round(value * 100) / 100), heat: Math.round(heat * 1000) / 1000 });
    }
  }
  return { cells, columns: columns.map((c) => c.label), rows: shown.length, omitted: lines.length - shown.length };
}

export function sourceChart(kernel: Pick<KernelResult, 'id' | 'file' | 'instructions' | 'sourceLines'>): ChartDef | undefined {
  const { cells, columns, rows } = sourceHeatCells(kernel);
  if (rows === 0) return undefined;
  const title = `Source Counters per line: ${kernel.file}`;
  return {
    id: `k${kernel.id}-source`,
    kind: 'source',
    kernelIndex: kernel.id,
    section: 'SourceCounters',
    title,
    spec: {
      $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
      title,
      width: { step: 96 },
      height: { step: 18 },
      config: CHART_CONFIG,
      data: { values: cells },
      encoding: {
        x: { field: 'column', type: 'nominal', sort: columns, title: null, axis: { orient: 'top', labelAngle: 0 } },
        y: { field: 'row', type: 'nominal', sort: null, title: null, axis: { labelFont: 'DejaVu Sans Mono, monospace', labelLimit: 560 } },
      },
      layer: [
        {
          mark: { type: 'rect', stroke: 'white', strokeWidth: 1 },
          encoding: {
            color: { field: 'heat', type: 'quantitative', scale: { scheme: 'orangered', domain: [0, 1] }, legend: null },
            tooltip: [
              { field: 'row', title: 'Line' },
              { field: 'column', title: 'Counter' },
              { field: 'text', title: 'Value' },
            ],
          },
        },
        {
          mark: { type: 'text', fontSize: 10 },
          encoding: {
            text: { field: 'text' },
            color: { condition: { test: 'datum.heat > 0.6', value: 'white' }, value: 'black' },
          },
        },
      ],
    },
  };
}
