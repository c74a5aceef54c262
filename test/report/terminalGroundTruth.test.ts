/**
 * The whole console report against real ncu: every metric real ncu 2025.3 collected for two H200
 * kernels (full_raw_*.csv) goes through Warpsight's sections, rules and renderer, and the text must
 * equal ncu's `--page details` output (details_*.txt) byte for byte, trailing blanks included,
 * once the parts Warpsight does not model are cut from ncu's side: the process and clock-warning
 * lines, the Roofline / PM Sampling / Memory Chart sections, and the HighPipeUtilization rule.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { InstructionCounters, KernelResult, MetricValue } from '../../types/report.schema.js';
import { applyRules } from '../../src/metrics/rules/index.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { G_LD_U32_STRIDE32_INSTRUCTIONS, H200_DEVICE, reportOf } from './terminalFixtures.js';

const GT = resolve(import.meta.dirname, '../../../shared/groundtruth/h200');

/** RFC 4180 enough for ncu's CSV: quoted fields, doubled quotes, commas inside quotes */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else if (c !== '\r') cell += c;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}

/** ncu's raw page: identity columns, then one column per metric; values print with separators */
function metricsFromRawCsv(file: string): Record<string, MetricValue> {
  const [ids = [], , values = []] = parseCsv(readFileSync(file, 'utf8'));
  const metrics: Record<string, MetricValue> = {};
  ids.forEach((id, i) => {
    const text = values[i] ?? '';
    if (i < 11 || text === '') return;
    metrics[id] = /^-?[\d,]+(\.\d+)?$/.test(text) ? Number(text.replace(/,/g, '')) : text;
  });
  // the raw page rounds to 2 decimals; the rules need the issue rate unrounded (0.03 vs 0.0281)
  const pct = metrics['smsp__issue_active.avg.pct_of_peak_sustained_active'];
  if (typeof pct === 'number') metrics['smsp__issue_active.avg.per_cycle_active'] = pct / 100;
  return metrics;
}

const UNMODELED_SECTIONS = ['GPU Speed Of Light Roofline Chart', 'PM Sampling', 'Memory Workload Analysis Chart'];

/** ncu's text without what Warpsight does not model */
function ncuExpected(file: string): string {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => !l.startsWith('[') && !l.startsWith('    Warning: '));
  // drop whole sections: from their "Section:" line to the next one
  const kept: string[] = [];
  let skipping = false;
  for (const line of lines) {
    if (line.startsWith('    Section: ')) skipping = UNMODELED_SECTIONS.includes(line.slice('    Section: '.length));
    if (!skipping) kept.push(line);
  }
  // drop HighPipeUtilization's block: its speedup line, its text, the blank line after it
  const hpu = kept.findIndex((l, i) => l.startsWith('    OPT   ') && (kept[i + 1] ?? '').includes('All compute pipelines'));
  if (hpu >= 0) kept.splice(hpu, kept.indexOf('', hpu) - hpu + 1);
  return kept.join('\n');
}

function kernelFrom(name: string, grid: [number, number, number], block: [number, number, number], params: Record<string, string>, instructions: InstructionCounters[]): KernelResult {
  const metrics = metricsFromRawCsv(`${GT}/full_raw_${name}.csv`);
  const launch = { grid, block, dynamicSharedBytes: 0, staticSharedBytes: 0, registersPerThread: 16, params };
  return {
    id: 0,
    name,
    file: `kernels/${name}.ts`,
    launch,
    metrics,
    instructions,
    rules: applyRules({ metrics, instructions, launch, device: H200_DEVICE }),
    notes: [],
  };
}

/** the transpose's tile store (conflict-free) and transposed tile load (32-way conflicts) */
const TRANSPOSE_INSTRUCTIONS: InstructionCounters[] = [
  { index: 3, opcode: 'LDG.E', line: 9, metrics: { inst_executed: 524288, memory_l2_theoretical_sectors_global: 2097152, memory_l2_theoretical_sectors_global_ideal: 2097152 } },
  { index: 4, opcode: 'STS', line: 9, metrics: { inst_executed: 524288, memory_l1_wavefronts_shared: 524288, memory_l1_wavefronts_shared_ideal: 524288 } },
  { index: 7, opcode: 'LDS', line: 12, metrics: { inst_executed: 524288, memory_l1_wavefronts_shared: 16777216, memory_l1_wavefronts_shared_ideal: 524288 } },
  { index: 8, opcode: 'STG.E', line: 12, metrics: { inst_executed: 524288, memory_l2_theoretical_sectors_global: 2097152, memory_l2_theoretical_sectors_global_ideal: 2097152 } },
];

const available = existsSync(`${GT}/details_g_ld_u32_stride32.txt`);

describe.skipIf(!available)('console report equals real ncu output (H200 ground truth)', () => {
  it('g_ld_u32_stride32', () => {
    const kernel = kernelFrom('g_ld_u32_stride32', [16384, 1, 1], [256, 1, 1], { in: 'const unsigned int *', out: 'unsigned int *' }, G_LD_U32_STRIDE32_INSTRUCTIONS);
    const text = renderTerminal(reportOf(kernel), { hotSpots: 0 });
    expect(text).toBe(ncuExpected(`${GT}/details_g_ld_u32_stride32.txt`));
    expect(text.split('\n').length).toBeGreaterThan(150);
    expect(text).toContain('3670016 excessive sectors');
  });

  it('sh_transpose_32x32_bd32x8', () => {
    const kernel = kernelFrom(
      'sh_transpose_32x32_bd32x8',
      [128, 128, 1],
      [32, 8, 1],
      { odata: 'float *', idata: 'const float *', width: 'int' },
      TRANSPOSE_INSTRUCTIONS,
    );
    const text = renderTerminal(reportOf(kernel), { hotSpots: 0 });
    expect(text).toBe(ncuExpected(`${GT}/details_sh_transpose_32x32_bd32x8.txt`));
    expect(text).toContain('16252928 excessive wavefronts');
    expect(text).toContain('32.3 - way bank');
  });
});
