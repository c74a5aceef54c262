/**
 * What the L2 keeps dirty at the end of a load-then-store kernel, against our own H200 probe
 * (test/fidelity/probes/l2_dirty_probe.cu, raw ncu CSV beside it; test/fidelity/probes/kernels/l2_dirty_retention.ts):
 * DRAM bytes written = bytes stored - dirty bytes left in L2. On the H200 that depends on how many
 * bytes the resident warps have in flight: fewer resident warps (dynamic shared memory the kernel
 * never touches) or half the bytes per warp (the 8-byte kernel on twice the grid) leave less dirty
 * data. The interpreter reproduces it by ending a warp's turn where it waits for its load and by
 * giving a freed block slot its next block at once (src/exec/scheduler.ts): a store reaches the L2
 * after the other resident warps' loads, and a kernel ends with the stores of every resident warp.
 * A dirty replacement victim is often passed over for a clean line, the more often the more DRAM
 * reads are in flight (src/memory/hierarchy.ts writeBackAvoidance, measured in drain.test.ts): the
 * occupancy effect is largest for the 16-byte stride-2 kernel (48.4 -> 55.2 MB on the H200 from 8
 * blocks per SM to 1). Every launch also writes back the ~2.3 MB ncu's replay left dirty
 * (replay_residue.test.ts): the u8 kernel writes 5.1-5.5 MB for 4.2 MB stored.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readNcuRawCsv } from '../../src/report/ncuCsv.js';
import { fidelityReport } from './reports.js';

const PROBE = join(import.meta.dirname, 'probes', 'l2_dirty_probe_h200.csv');
const WR = 'dram__bytes_write.sum';

/** our kernel -> the probe's launch ID */
const LAUNCH: Record<string, number> = {
  l2d_u128_stride2_smem0k: 1,
  l2d_u128_stride2_smem100k: 2,
  l2d_u128_stride2_smem200k: 3,
  l2d_u128_coalesced_smem0k: 4,
  l2d_u128_coalesced_smem100k: 5,
  l2d_u128_coalesced_smem200k: 6,
  l2d_u64_coalesced_smem0k: 7,
  l2d_u64_coalesced_smem100k: 8,
  l2d_u64_coalesced_smem200k: 9,
  l2d_u64_stride2_smem0k: 10,
  l2d_u64_stride2_smem100k: 11,
  l2d_u64_stride2_smem200k: 12,
  l2d_u8_stride32_smem0k: 13,
  l2d_u8_stride32_smem100k: 14,
  l2d_u8_stride32_smem200k: 15,
  l2d_u128_stride2_indep: 16,
  l2d_u128_coalesced_indep: 17,
  l2d_u64_coalesced_indep: 18,
  l2d_u64_stride2_x2: 21,
  l2d_u64_coalesced_x2: 22,
};

let ours = new Map<string, number>();
let h200 = new Map<string, number>();
beforeAll(() => {
  ours = new Map(fidelityReport('l2_dirty_retention').kernels.map((k) => [k.name, Number(k.metrics[WR])]));
  const byId = new Map(readNcuRawCsv(PROBE).map((l) => [l.id, Number(l.metrics[WR]?.value)]));
  h200 = new Map(Object.entries(LAUNCH).map(([k, id]) => [k, byId.get(id)!]));
});


const mb = (b: number) => (b / 1e6).toFixed(1);

describe('L2 dirty retention vs the H200 probe', () => {
  it('profiles every probe launch', () => {
    expect([...ours.keys()].sort()).toEqual(Object.keys(LAUNCH).sort());
    for (const v of h200.values()) expect(v).toBeGreaterThan(0);
  });

  it('DRAM bytes written within 10 % or 2 MB', () => {
    const off: string[] = [];
    for (const [k, h] of h200) {
      const o = ours.get(k)!;
      console.log(`${k.padEnd(30)} H200 ${mb(h).padStart(5)} MB  warpsight ${mb(o).padStart(5)} MB`);
      if (Math.abs(o - h) > Math.max(0.1 * h, 2e6)) off.push(`${k}: H200 ${mb(h)} MB, warpsight ${mb(o)} MB`);
    }
    expect(off).toEqual([]);
  });

  it('more resident warps leave more dirty data in L2 (fewer bytes written), as on the H200', () => {
    for (const k of ['u128_stride2', 'u128_coalesced', 'u64_stride2', 'u64_coalesced']) {
      const full = `l2d_${k}_smem0k`;
      const one = `l2d_${k}_smem200k`;
      expect(h200.get(full)!, k).toBeLessThan(h200.get(one)!);
      expect(ours.get(full)!, k).toBeLessThan(ours.get(one)!);
    }
  });

  it('twice the bytes per warp leaves more dirty data at equal bytes: u128 stride 2 vs u64 stride 2 on twice the grid', () => {
    expect(h200.get('l2d_u128_stride2_smem0k')!).toBeLessThan(h200.get('l2d_u64_stride2_x2')! - 3e6);
    expect(ours.get('l2d_u128_stride2_smem0k')!).toBeLessThan(ours.get('l2d_u64_stride2_x2')!);
  });
});
