/**
 * Shared accesses replayed by global traffic on their SM (issue #40, the scan's last gap), end to end
 * from profiled kernels against the H200's raw CSVs:
 *  - test/fidelity/probes/wavefronts probes 3-4 (ported: test/fidelity/probes/kernels/wavefronts_probe.ts):
 *    conflict-free shared loops in one block per SM, alone or beside a block streaming global data or
 *    beside blocks starting, one wave. The H200 adds wavefronts to an STS beside 128-bit load data
 *    (none beside 32-bit loads) and to an LDS beside store data or block starts.
 *  - the scan's variants of test/fidelity/probes/spread (test/fidelity/probes/kernels/scan_variants.ts):
 *    one wave of 1,056 blocks, and the scan without its load. The H200 adds nothing in one wave.
 *
 * Warpsight counts a replay where the timing model has the two meet on an SM while the stage is busy
 * with that op (arch sharedReplay: rates fitted on these probes and the scan; the
 * scan's ±3 % is cuda_samples.test.ts's). The timing model's view of these probes' time is not the
 * H200's (the starts-only launches take 67-73 us in it, 45-107 us on the H200), so each launch is held
 * to the band below, stated from what it gives today: the mechanism's sign and size, not the 3 %.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { KernelResult } from '../../types/report.schema.js';
import { readNcuRawCsv } from '../../src/report/ncuCsv.js';
import { LAUNCHES } from './probes/kernels/wavefronts_probe.js';
import { fidelityReport } from './reports.js';

const PROBES = join(import.meta.dirname, 'probes', 'wavefronts', 'h200');
const SPREAD = join(import.meta.dirname, 'probes', 'spread', 'h200');

const INST = { ld: 'smsp__sass_inst_executed_op_shared_ld.sum', st: 'smsp__sass_inst_executed_op_shared_st.sum' } as const;
const WF = { ld: 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum', st: 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum' } as const;
const REQUESTS = ['l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum', 'l1tex__t_requests_pipe_lsu_mem_global_op_st.sum', 'sm__ctas_launched.sum'];

type Op = 'ld' | 'st';
type Metrics = Record<string, number>;

/** the H200's metrics of row `row` of a raw ncu CSV (launch order) */
function h200(file: string, row: number): Metrics {
  const launch = readNcuRawCsv(file)[row];
  if (!launch) throw new Error(`${file} has no row ${row}`);
  const out: Metrics = {};
  for (const [id, v] of Object.entries(launch.metrics)) if (typeof v.value === 'number') out[id] = v.value;
  return out;
}

const ours = (k: KernelResult): Metrics => k.metrics as Metrics;
/** wavefronts above one per instruction (every access here is 32-bit and conflict-free) */
const excess = (m: Metrics, op: Op): number => (m[WF[op]] as number) - (m[INST[op]] as number);

/**
 * Per probe launch (in LAUNCHES' order): the op it loops, and Warpsight's excess as a share of the
 * H200's ([lo, hi]; null: both are 0)
 */
const PROBE_BANDS: { op: Op; what: string; band: [number, number] | null }[] = [
  { op: 'st', what: 'STS alone', band: null },
  { op: 'st', what: 'STS (16 warps) beside LDG.E.128', band: [0.9, 1.3] },
  { op: 'st', what: 'STS (4 warps) beside LDG.E.128', band: [0.7, 1.1] },
  { op: 'st', what: 'STS beside LDG.E', band: null },
  { op: 'ld', what: 'LDS beside STG.E.128', band: [1.4, 2] },
  { op: 'ld', what: 'LDS beside STG.E', band: [0.85, 1.3] },
  { op: 'ld', what: 'LDS beside 8,448 block starts', band: [0.7, 1.05] },
];

describe('shared accesses replayed by global traffic on the SM (test/fidelity/probes/wavefronts)', () => {
  it('probes 3-4: the ops and traffic that meet on the H200 meet in Warpsight; those that do not, do not', () => {
    const kernels = fidelityReport('wavefronts_probe').kernels;
    expect(kernels.length).toBe(LAUNCHES.length);
    expect(PROBE_BANDS.length).toBe(LAUNCHES.length);
    const table: string[] = [];
    const problems: string[] = [];
    for (const [i, q] of LAUNCHES.entries()) {
      const hw = h200(join(PROBES, q.csv, 'wv.csv'), q.row);
      const ws = ours(kernels[i] as KernelResult);
      const { op, what, band } = PROBE_BANDS[i]!;
      // the port issues what the H200 ran: the same shared instructions, global requests and blocks
      for (const id of [INST.ld, INST.st, ...REQUESTS]) if (ws[id] !== hw[id]) problems.push(`${what}: ${id} ${ws[id]} vs the H200's ${hw[id]}`);
      const other: Op = op === 'ld' ? 'st' : 'ld';
      const [e, h] = [excess(ws, op), excess(hw, op)];
      table.push(`  ${what.padEnd(34)} H200 +${h} (${q.csv} row ${q.row})  Warpsight +${e}${h > 0 ? ` (${(e / h).toFixed(2)}x)` : ''}`);
      // the other op's counts stay ideal on both sides (nothing of it runs)
      if (excess(ws, other) !== 0 || excess(hw, other) !== 0) problems.push(`${what}: ${other} excess ${excess(ws, other)} vs ${excess(hw, other)}`);
      if (band === null) {
        if (h !== 0 || e !== 0) problems.push(`${what}: +${e} where the H200 (+${h}) and the band say none`);
      } else if (!(h > 0 && e >= band[0] * h && e <= band[1] * h)) problems.push(`${what}: +${e} vs the H200's +${h}, outside ${band[0]}-${band[1]}x`);
    }
    console.log(`extra shared wavefronts, probes 3-4 (H200 vs Warpsight):\n${table.join('\n')}`);
    expect(problems).toEqual([]);
  });

  it("the scan's variants: one wave and no load, where Warpsight's meetings overestimate the H200's", () => {
    const kernels = fidelityReport('scan_variants').kernels;
    // the H200's (test/fidelity/probes/spread): one wave exactly ideal, no load +10,066 / +302 loads only
    const runs = [
      { csv: 'wf_g1056.csv', what: '1,056 blocks (one wave)' },
      { csv: 'wf_nl.csv', what: '4,096 blocks, no load' },
      { csv: 'wf_nl1056.csv', what: '1,056 blocks, no load' },
    ];
    expect(kernels.length).toBe(runs.length);
    const table: string[] = [];
    const over: Record<string, Record<Op, number>> = {};
    for (const [i, r] of runs.entries()) {
      const hw = h200(join(SPREAD, r.csv), 0);
      const ws = ours(kernels[i] as KernelResult);
      over[r.what] = { ld: 0, st: 0 };
      for (const op of ['ld', 'st'] as const) {
        expect(ws[INST[op]], `${r.what} ${op} instructions`).toBe(hw[INST[op]]);
        // above the H200's, as a share of its wavefronts
        over[r.what]![op] = (excess(ws, op) - excess(hw, op)) / (hw[WF[op]] as number);
        table.push(`  ${r.what.padEnd(26)} ${op}: H200 +${excess(hw, op)}  Warpsight +${excess(ws, op)} (${(100 * over[r.what]![op]).toFixed(1)} % of the H200's wavefronts above it)`);
      }
    }
    console.log(`extra shared wavefronts, the scan's variants:\n${table.join('\n')}`);
    // without a load there is no LDG.E.128 for an STS to meet: ideal, as on the H200
    expect(over['4,096 blocks, no load']!.st).toBe(0);
    expect(over['1,056 blocks, no load']!.st).toBe(0);
    // the known overestimate, held where it is (the timing model starts a wave's blocks on an SM 121
    // cycles apart, so one block's shared accesses meet the next ones' global data, which the H200's
    // one wave never shows): at most these shares of the wavefronts above the H200
    expect(over['1,056 blocks (one wave)']!.st).toBeLessThan(0.05);
    expect(over['1,056 blocks (one wave)']!.ld).toBeLessThan(0.05);
    expect(over['4,096 blocks, no load']!.ld).toBeLessThan(0.07);
    expect(over['1,056 blocks, no load']!.ld).toBeLessThan(0.09);
  });
});
