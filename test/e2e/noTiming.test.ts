/**
 * `profile --no-timing`: the timing model only observes the interpreter, so leaving it out changes no
 * counter; only what it measures (durations, cycles, throughputs, stall reasons, achieved occupancy)
 * is missing, and the report says so. The fidelity runs of the L2 probes rely on this
 * (test/fidelity/reports.ts COUNTERS_ONLY).
 *
 * One exception, by design: a conflict-free shared access that meets other warps' 128-bit load data,
 * store data or a block start on its SM while the shared data stage is busy is replayed (one more
 * wavefront, counted as a bank conflict too; test/fidelity/probes/wavefronts). Whether they meet is a
 * matter of time, so only the timing model sees it: without it the shared wavefronts and conflicts
 * are the bank model's (the ideal, on conflict-free code). REPLAYED lists those counters.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../types/report.schema.js';
import { profileFile } from '../../src/profile.js';
import { renderHtml } from '../../src/report/html/index.js';
import { renderTerminal } from '../../src/report/terminal.js';

/** a cold-cache misaligned copy (L1 hits, the replay residue pushed out) and the seed's L2 hints program */
const RUNS = [
  { file: 'kernels/global_loads.ts', kernel: 'g_ld_u32_misaligned', grid: [2112, 1, 1] as [number, number, number] },
  { file: 'kernels/l2_hints.ts', kernel: 'l2_hints', cacheControl: 'none' as const },
];
const REPLAYED = [
  'l1tex__data_pipe_lsu_wavefronts_mem_shared.sum',
  'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum',
  'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum',
  'l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum',
  'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum',
  'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum',
];
const TIMED_ONLY = ['gpu__time_duration.sum', 'sm__cycles_elapsed.avg', 'lts__cycles_active.sum', 'sm__warps_active.avg.pct_of_peak_sustained_active', 'dram__throughput.avg.pct_of_peak_sustained_elapsed'];

describe('profile --no-timing', () => {
  const pairs: [Report, Report][] = [];
  beforeAll(async () => {
    for (const r of RUNS) pairs.push([await profileFile(r), await profileFile({ ...r, timing: false })]);
  }, 120_000);

  it('every counter equals the timed run; only the timing metrics are missing', () => {
    for (const [timed, untimed] of pairs) {
      expect(untimed.kernels.length).toBe(timed.kernels.length);
      for (const [i, k] of untimed.kernels.entries()) {
        const t = timed.kernels[i]!;
        expect(k.name).toBe(t.name);
        // the counters that decide the memory figures are there and equal
        for (const id of ['dram__bytes_write.sum', 'dram__bytes_read.sum', 'lts__t_sector_hit_rate.pct', 'l1tex__t_sector_hit_rate.pct', 'smsp__inst_executed.sum'])
          expect(k.metrics[id], `${k.name} ${id}`).toBeDefined();
        for (const [id, v] of Object.entries(k.metrics)) expect(v, `${k.name} ${id}`).toEqual(t.metrics[id]);
        expect(k.instructions).toEqual(t.instructions);
        for (const id of TIMED_ONLY) {
          expect(t.metrics[id], `${t.name} timed ${id}`).toBeDefined();
          expect(k.metrics[id], `${k.name} untimed ${id}`).toBeUndefined();
        }
      }
    }
  });

  it('shared accesses are replayed only with timing: the scan keeps the ideal without it, more with it; nothing else differs', async () => {
    const run = { file: 'kernels/cuda_samples/scan.ts' };
    const [timed, untimed] = [await profileFile(run), await profileFile({ ...run, timing: false })];
    const t = timed.kernels[0]!;
    const u = untimed.kernels[0]!;
    expect(t.name).toBe('scanExclusiveShared');
    for (const op of ['ld', 'st']) {
      const ideal = u.metrics[`smsp__sass_inst_executed_op_shared_${op}.sum`];
      // conflict-free 32-bit accesses: one wavefront each, no conflict, without timing
      expect(u.metrics[`l1tex__data_pipe_lsu_wavefronts_mem_shared_op_${op}.sum`]).toBe(ideal);
      expect(u.metrics[`l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_${op}.sum`]).toBe(0);
      const extra = (t.metrics[`l1tex__data_pipe_lsu_wavefronts_mem_shared_op_${op}.sum`] as number) - (ideal as number);
      expect(extra, op).toBeGreaterThan(0);
      expect(t.metrics[`l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_${op}.sum`]).toBe(extra);
    }
    for (const [id, v] of Object.entries(u.metrics)) if (!REPLAYED.includes(id)) expect(v, id).toEqual(t.metrics[id]);
  }, 60_000);

  it("the rules that weigh cycles fall back as ncu's do (the uncoalesced loads' speedup: local 0 %)", () => {
    const [timed, untimed] = pairs[0]!;
    const rule = (r: Report) => r.kernels[0]?.rules.find((x) => x.id === 'UncoalescedGlobalAccess');
    expect(rule(timed)?.speedup?.type).toBe('global');
    expect(rule(timed)?.speedup?.value).toBeGreaterThan(1);
    expect(rule(untimed)?.message).toBe(rule(timed)?.message);
    expect(rule(untimed)?.speedup).toEqual({ type: 'local', value: 0 });
  });

  it('the report records it, and the console and the HTML page say what was not collected', async () => {
    const [timed, untimed] = pairs[1]!;
    expect(untimed.options.timing).toBe(false);
    expect(timed.options.timing).toBeUndefined();
    expect(renderTerminal(untimed)).toMatch(/^==WARPSIGHT== profiled with --no-timing: durations, cycles/);
    expect(renderTerminal(timed)).not.toContain('--no-timing');
    expect(await renderHtml(untimed)).toContain('cache control: none · --no-timing: durations, cycles');
    expect(await renderHtml(timed)).not.toContain('--no-timing');
  }, 60_000);
});
