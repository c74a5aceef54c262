/**
 * Partial-sector stores of neighbouring warps reaching the L2 as one write, against our own H200 probe
 * (test/fidelity/probes/l2_store_merge_probe.cu, raw ncu CSV beside it, two repetitions;
 * test/fidelity/probes/kernels/l2_store_merge.ts): L2 write sectors per L1 store sector for misaligned u32 stores with 256 /
 * 32 / 1024 threads per block, in reverse warp order, with late odd warps, as a copy, two stride-2
 * stores of one warp, and u8 stores. The model combines the partial sectors of a block's warps issued
 * together and of one warp's consecutive stores (src/memory/storeCombiner.ts); the H200 combines 82-88 %
 * of the sectors two warps of a block share, the model all of them (at most 0.06 of the L1 sectors
 * apart). ncu's replay residue is not in the probe (one pass), so DRAM writes are not compared here.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readNcuRawCsv } from '../../src/report/ncuCsv.js';
import { fidelityReport } from './reports.js';

const L1_ST = 'l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum';
const L2_WR = 'lts__t_sectors_srcunit_tex_op_write.sum';
const FILLS = 'lts__t_sectors_srcunit_tex_op_write_lookup_miss.sum';

/** our kernel -> the probe's launch ID in its first repetition (9 launches each) */
const LAUNCH: Record<string, number> = {
  sm_mis_256: 0,
  sm_mis_32: 1,
  sm_mis_1024: 2,
  sm_mis_rev: 3,
  sm_mis_delay: 4,
  sm_copy_mis: 6,
  sm_two_half: 7,
  sm_mis_u8: 8,
};
const REPEAT = 9;

type Ratio = { l1: number; l2: number; fills: number };
let ours = new Map<string, Ratio>();
let h200 = new Map<string, Ratio[]>();

beforeAll(() => {
  ours = new Map(
    fidelityReport('l2_store_merge').kernels.map((k) => {
      const m = k.metrics as Record<string, number>;
      const l1 = m['l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum']! + m['l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_miss.sum']!;
      return [k.name, { l1, l2: m[L2_WR]!, fills: m[FILLS]! }];
    }),
  );
  const byId = new Map(readNcuRawCsv(join(import.meta.dirname, 'probes', 'l2_store_merge_probe_h200.csv')).map((l) => [l.id, l.metrics]));
  const at = (id: number): Ratio => {
    const m = byId.get(id)!;
    return { l1: Number(m[L1_ST]!.value), l2: Number(m[L2_WR]!.value), fills: Number(m[FILLS]!.value) };
  };
  h200 = new Map(Object.entries(LAUNCH).map(([k, id]) => [k, [at(id), at(id + REPEAT)]]));
  for (const [k, o] of ours) console.log(`${k.padEnd(14)} L2 write / L1 store sectors: H200 ${h200.get(k)?.map((r) => (r.l2 / r.l1).toFixed(3)).join(' / ')}, warpsight ${(o.l2 / o.l1).toFixed(3)}`);
});

describe('partial-sector stores combined on the way to the L2 vs the H200 store-merge probe', () => {
  it('profiles every probe kernel, with the L1 store sectors the H200 counts', () => {
    expect([...ours.keys()].sort()).toEqual(Object.keys(LAUNCH).sort());
    for (const [k, o] of ours) for (const h of h200.get(k)!) expect(o.l1, k).toBe(h.l1);
  });

  it.each(Object.keys(LAUNCH))('%s: L2 write sectors per L1 store sector within 0.06, no write fills', (k) => {
    const o = ours.get(k)!;
    for (const h of h200.get(k)!) {
      expect(Math.abs(o.l2 / o.l1 - h.l2 / h.l1)).toBeLessThan(0.06);
      expect(h.fills).toBe(0);
    }
    expect(o.fills).toBe(0);
  });

  it('warps of different blocks, late warps and warps that waited for a load are not combined; one warp always is', () => {
    for (const k of ['sm_mis_32', 'sm_mis_delay']) expect(ours.get(k)!.l2).toBe(ours.get(k)!.l1);
    const copy = ours.get('sm_copy_mis')!;
    expect(copy.l2 / copy.l1).toBeGreaterThan(0.95);
    const two = ours.get('sm_two_half')!;
    expect(two.l2).toBe(two.l1 / 2);
  });
});
