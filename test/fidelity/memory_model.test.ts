/**
 * Family 7's flag handoffs (issue #39 acceptance) and the cross-SM round trips of
 * probes/memmodel/pingpong_probe.cu, profiled here and compared with the H200:
 * - stores exact, load requests (they count the polls) within 25 %, L1 load hit rate within 10 points,
 *   durations within 25 % with the system-scope seq_cst handoff the slowest;
 * - the round trips of a bare flag ping-pong by memory order within 30 %.
 * Measured when this was written (H200 / Warpsight): sys seq_cst 646.6 / 653.2 us, dev acq_rel
 * 414.3 / 342.8 us, wait/notify 405.2 / 346.5 us; load requests 7660 / 7627, 9333 / 9151, 9435 /
 * 9331. Known gap: the device-scope handoffs are 15-17 % short. The ping-pong probe shows where: a
 * bare release/acquire round trip is 2316 cycles on the H200 and 1967 here, and 1024 ints of data
 * per round add 1918 cycles there and 1361 here (the consumer's four dependent L2 loads of lines
 * another SM has just written take longer on the H200 than the 280-cycle L2 hit we charge). On the
 * H200 the acq_rel and wait/notify handoffs differ by 2 % (414.3 / 405.2, run-to-run noise per the
 * ground truth README); here by 1 %: their order is not asserted.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { profileFile } from '../../src/profile.js';
import { readNcuRawCsv } from '../../src/report/ncuCsv.js';
import type { KernelResult } from '../../types/report.schema.js';
import { PP_H200, PP_ROUNDS } from './probes/memmodel/pingpong.js';
import { getArch } from '../../src/arch/index.js';

const GROUNDTRUTH = join(import.meta.dirname, '..', '..', '..', 'shared', 'groundtruth', 'h200');
const KERNELS = join(import.meta.dirname, '..', '..', 'kernels', 'flag_handoff.ts');
const FAMILY7 = ['sync_flag_sys_seqcst', 'sync_flag_dev_acqrel', 'sync_flag_wait_notify'];

const h200 = new Map<string, Record<string, number>>();
for (const l of readNcuRawCsv(join(GROUNDTRUTH, 'ncu_raw_sync.csv'))) {
  const name = l.kernelName.replace(/\(.*$/, '');
  h200.set(name, Object.fromEntries(Object.entries(l.metrics).map(([id, v]) => [id, Number(v.value)])));
}

const LD = 'l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum';
const ST = 'l1tex__t_requests_pipe_lsu_mem_global_op_st.sum';
const HIT = 'l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct';
const DUR = 'gpu__time_duration.sum';

describe('family 7: flag handoffs between two blocks against the H200', async () => {
  const report = await profileFile({ file: KERNELS, kernel: FAMILY7 });
  const ours = new Map((report.kernels as KernelResult[]).map((k) => [k.name, k]));
  const both = (name: string, id: string): [number, number] => [Number(ours.get(name)?.metrics[id]), Number(h200.get(name)?.[id])];

  for (const name of FAMILY7) {
    describe(name, () => {
      it('computes the right sums (micro.cu check)', () => {
        expect(ours.get(name)?.check).toEqual({ passed: true });
      });
      it('stores exactly as many requests as the H200', () => {
        const [w, h] = both(name, ST);
        expect(w).toBe(h);
      });
      it('load requests (the polls) within 25 %', () => {
        const [w, h] = both(name, LD);
        expect(Math.abs(w - h) / h).toBeLessThan(0.25);
      });
      it('L1 load hit rate within 10 points (acquire polls and fresh data miss)', () => {
        const [w, h] = both(name, HIT);
        expect(Math.abs(w - h)).toBeLessThan(10);
      });
      it('duration within 25 %', () => {
        const [w, h] = both(name, DUR);
        expect(Math.abs(w - h) / h).toBeLessThan(0.25);
      });
    });
  }

  it('the system-scope seq_cst handoff is the slowest, as on the H200', () => {
    const [sys] = both('sync_flag_sys_seqcst', DUR);
    for (const other of ['sync_flag_dev_acqrel', 'sync_flag_wait_notify']) expect(sys).toBeGreaterThan(both(other, DUR)[0] * 1.4);
  });
});

describe('cross-SM flag round trips by memory order (probes/memmodel/pingpong_probe.cu)', async () => {
  const report = await profileFile({ file: join(import.meta.dirname, 'probes', 'memmodel', 'pingpong.ts') });
  const arch = getArch('h200');
  for (const k of report.kernels as KernelResult[]) {
    it(`${k.name}: cycles per round trip within 30 % of the H200's ${PP_H200[k.name]}`, () => {
      const cycles = ((Number(k.metrics[DUR]) - arch.launchOverheadNs) * arch.smClockHz) / 1e9 / PP_ROUNDS;
      const want = PP_H200[k.name] as number;
      expect(Math.abs(cycles - want) / want).toBeLessThan(0.3);
    });
  }
  it('orders them as the H200 does: relaxed < acq/rel < seq_cst device < seq_cst system', () => {
    const d = new Map((report.kernels as KernelResult[]).map((k) => [k.name, Number(k.metrics[DUR])]));
    expect(d.get('pp_relaxed')).toBeLessThan(d.get('pp_acqrel') as number);
    expect(d.get('pp_acqrel')).toBeLessThan(d.get('pp_seqcst_dev') as number);
    expect(d.get('pp_seqcst_dev')).toBeLessThan(d.get('pp_seqcst_sys') as number);
  });
});
