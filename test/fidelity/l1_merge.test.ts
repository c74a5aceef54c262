/**
 * Loads of one sector by several warps at about the same time (issue #40 item 4), against our own H200
 * probes (test/fidelity/probes/l1merge/: sources, scripts, raw ncu CSVs, README; the kernels in
 * test/fidelity/probes/kernels/l1_merge.ts). Every launch ran twice on the H200; both are compared.
 *
 * What the H200 shows, and Warpsight does (l1Cache.ts allocates a missing sector at the miss):
 *  - in one SM there is no miss merging to model: a warp loading a sector another warp of the SM
 *    requested is an L1 hit, whether that request is still in flight (warps of a block issuing
 *    together) or long done (warps 100-10,000 clock cycles apart count the same); the L2 sees exactly
 *    the L1's misses, one request per line.
 * Across SMs the H200's L2 counts fewer read sectors than the L1s missed (each L1 still receives all
 * it missed: l1tex__m_xbar2l1tex_read_sectors equals the misses): the two SMs of a TPC sending the
 * identical request (line and sectors) together are counted once (exactly half when the pairs read the
 * same lines, cold or warm L2), not when one is 20,000 cycles late nor when one reads half of each
 * line; SMs of different TPCs merge partly (66 or 132 SMs reading the same lines: 26-27 % of the
 * misses reach the L2); the GEMMs 63-70 %. Warpsight forwards every miss (its L2 read sectors equal
 * its L1 misses): exact where the H200 does not merge, the gap marked by the last test (it fails once
 * the merging is modelled). Why it is not modelled: it depends on time (the late pair is not merged),
 * and the interpreter's order is no stand-in for it: merging a TPC pair's identical reads issued in
 * the same scheduler round makes the group probes exact but halves the L2 read hits of the near/far
 * probe's partition-table reads (2,344 vs the H200's 5,058-5,137) and takes 5 % off uniform_add's L2
 * requests, which the H200 does not merge (probes/l1merge/README.md).
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readNcuRawCsv } from '../../src/report/ncuCsv.js';
import { fidelityReport } from './reports.js';

const REQ = 'l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum';
const SEC = 'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum';
const HIT = 'l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum';
const MISS = 'l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum';
const L2 = 'lts__t_sectors_srcunit_tex_op_read.sum';
const L2REQ = 'lts__t_requests_srcunit_tex_op_read.sum';
const XBAR = 'l1tex__m_xbar2l1tex_read_sectors_mem_lg_op_ld.sum';
const COUNTERS = [REQ, SEC, HIT, MISS, L2, L2REQ] as const;

type Counts = Record<string, number>;

/** a probe's CSV: our kernel -> its launch IDs in the first repetition, `repeat` launches apart */
interface Probe {
  csv: string;
  repeat: number;
  launches: Record<string, number[]>;
}

const SAME_SM: Probe = {
  csv: 'l1merge_probe_h200.csv',
  repeat: 12,
  launches: {
    l1m_bs1: [0],
    l1m_bs2: [1],
    l1m_bs4: [2],
    l1m_bs8: [3],
    l1m_bs32: [4],
    // the probe's warp delays of 100, 500, 2000 and 10000 clock cycles
    l1m_bs8_late: [5, 6, 7, 8],
    l1m_smshare: [9],
    l1m_rows: [10],
    l1m_rows_rot: [11],
  },
};
const GEMM: Probe = { csv: 'l1merge_gemm_probe_h200.csv', repeat: 3, launches: { l1m_gemm_naive: [0], l1m_gemm_tiled32: [1], l1m_gemm_tiled16: [2] } };
const GROUP: Probe = {
  csv: 'l1merge_group_probe_h200.csv',
  repeat: 8,
  launches: { l1m_grp_own: [0], l1m_grp_tpc: [1], l1m_grp_tpc2: [2], l1m_grp_sm16: [3], l1m_grp_parity: [4], l1m_grp_all: [5], l1m_grp_tpc_late: [6], l1m_grp_all_late: [7] },
};
const MASK: Probe = { csv: 'l1merge_mask_probe_h200.csv', repeat: 5, launches: { l1m_msk_tpc_lo: [1], l1m_msk_tpc_hi: [2] } };
/** the mask probe with every line in the L2 (--cache-control none): TPC pairs, even / odd SMs */
const WARM: Probe = { csv: 'l1merge_mask_probe_warm_h200.csv', repeat: 5, launches: { warm_tpc: [0], warm_parity: [3] } };
/** the kernels whose loads of the same lines come from several SMs */
const CROSS = [...Object.keys(GEMM.launches), ...Object.keys(GROUP.launches), ...Object.keys(MASK.launches)];
/** where the H200's L2 sees every L1 miss: no sharing, a late TPC partner, a partner reading other sectors */
const NOT_MERGED = ['l1m_grp_own', 'l1m_grp_tpc_late', 'l1m_msk_tpc_lo', 'l1m_msk_tpc_hi'];

let ours = new Map<string, Counts>();
const h200 = new Map<string, Counts[]>();

function readProbe(p: Probe): void {
  const byId = new Map(readNcuRawCsv(join(import.meta.dirname, 'probes', 'l1merge', p.csv)).map((l) => [l.id, l.metrics]));
  for (const [k, ids] of Object.entries(p.launches)) {
    const runs: Counts[] = [];
    for (const id of ids)
      for (const at of [id, id + p.repeat]) {
        const m = byId.get(at);
        if (!m) throw new Error(`${p.csv}: no launch ${at}`);
        runs.push(Object.fromEntries([...COUNTERS, XBAR].map((c) => [c, Number(m[c]!.value)])));
      }
    h200.set(k, runs);
  }
}

beforeAll(() => {
  ours = new Map(fidelityReport('l1_merge').kernels.map((k) => [k.name, Object.fromEntries(COUNTERS.map((c) => [c, Number(k.metrics[c])]))]));
  for (const p of [SAME_SM, GEMM, GROUP, MASK, WARM]) readProbe(p);
  for (const [k, o] of ours) {
    const h = h200.get(k)!;
    console.log(
      `${k.padEnd(18)} L1 hit/miss ${o[HIT]}/${o[MISS]} (H200 ${h.map((r) => `${r[HIT]}/${r[MISS]}`).join(', ')}); L2 sectors per L1 miss: warpsight ${(o[L2]! / o[MISS]!).toFixed(3)}, H200 ${h.map((r) => (r[L2]! / r[MISS]!).toFixed(3)).join(' / ')}`,
    );
  }
});

describe('same-sector loads of warps of one SM vs the H200 L1 merge probe', () => {
  it('profiles every probe kernel', () => {
    expect([...ours.keys()].sort()).toEqual([SAME_SM, GEMM, GROUP, MASK].flatMap((p) => Object.keys(p.launches)).sort());
  });

  it.each(Object.keys(SAME_SM.launches))('%s: L1 requests, sectors, hits, misses and L2 read sectors and requests exactly as the H200', (k) => {
    const o = ours.get(k)!;
    for (const h of h200.get(k)!) for (const c of COUNTERS) expect(o[c], `${k} ${c}`).toBe(h[c]);
  });

  it('in flight or not, a later warp of the SM hits: the H200 counts the same for every delay, and so does Warpsight', () => {
    for (const h of [...h200.get('l1m_bs8_late')!, ...h200.get('l1m_bs8')!]) expect(h[HIT]).toBe(7 * h[MISS]!);
    expect(ours.get('l1m_bs8_late')).toEqual(ours.get('l1m_bs8'));
    // W warps reading one line: (W - 1) / W of the sectors hit, one L2 request per line
    for (const [k, w] of [['l1m_bs1', 1], ['l1m_bs2', 2], ['l1m_bs4', 4], ['l1m_bs32', 32]] as const) {
      const o = ours.get(k)!;
      expect(o[HIT]).toBe((w - 1) * o[MISS]!);
      expect(o[L2REQ]).toBe(o[MISS]! / 4);
    }
  });
});

describe('same-sector loads of several SMs vs the H200 GEMM, SM-group and mask probes', () => {
  it('the L1 counters: requests and sectors exactly, the GEMMs’ misses within 3.5 %, the groups’ exactly', () => {
    for (const k of CROSS) {
      const o = ours.get(k)!;
      for (const h of h200.get(k)!) {
        expect(o[REQ], k).toBe(h[REQ]);
        expect(o[SEC], k).toBe(h[SEC]);
        if (k in GEMM.launches) expect(Math.abs(o[MISS]! / h[MISS]! - 1), k).toBeLessThan(0.035);
        else expect(o[MISS], k).toBe(h[MISS]);
      }
    }
  });

  it('the H200 merges below the L1: each L1 receives all it missed; the L2 counts a TPC pair’s identical requests once, cold or warm', () => {
    for (const k of [...CROSS, ...Object.keys(WARM.launches)]) for (const h of h200.get(k)!) expect(Math.abs(h[XBAR]! / h[MISS]! - 1), k).toBeLessThan(0.005);
    for (const h of [...h200.get('l1m_grp_tpc')!]) expect(h[L2]).toBe(h[MISS]! / 2);
    for (const h of h200.get('warm_tpc')!) expect(Math.abs(h[L2]! / h[MISS]! - 0.5)).toBeLessThan(0.02);
    for (const k of ['l1m_grp_own', 'l1m_grp_tpc_late', 'l1m_msk_tpc_lo', 'l1m_msk_tpc_hi']) for (const h of h200.get(k)!) expect(h[L2], k).toBe(h[MISS]);
    for (const k of ['l1m_grp_parity', 'l1m_grp_all', 'l1m_grp_all_late', 'warm_parity']) for (const h of h200.get(k)!) expect(h[L2]! / h[MISS]!, k).toBeLessThan(0.3);
  });

  it.each(NOT_MERGED)('%s: L2 read sectors and requests exactly as the H200, which merges nothing there', (k) => {
    const o = ours.get(k)!;
    for (const h of h200.get(k)!) {
      expect(o[L2], k).toBe(h[L2]);
      expect(o[L2REQ], k).toBe(h[L2REQ]);
    }
  });

  it('Warpsight forwards every L1 miss to the L2 (no merging across SMs modelled)', () => {
    for (const k of CROSS) expect(ours.get(k)![L2], k).toBe(ours.get(k)![MISS]);
  });

  // the gap: flips to a failure (remove `.fails`) once the merging is modelled
  it.fails('known gap: L2 read sectors within 5 % of the H200 where SMs read the same lines together', () => {
    for (const k of ['l1m_grp_tpc', 'l1m_grp_parity', 'l1m_gemm_tiled32']) for (const h of h200.get(k)!) expect(Math.abs(ours.get(k)![L2]! / h[L2]! - 1), k).toBeLessThan(0.05);
  });
});
