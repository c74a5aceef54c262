/**
 * The shared-memory wavefronts of kernels that use no shared memory (ncu's op_misc), against our H200
 * probe (test/fidelity/probes/shared_misc_probe.cu, test/fidelity/probes/kernels/shared_misc_probe.ts): one per warp for
 * each S2R of a per-thread register (SR_TID.X, SR_TID.Y, SR_LANEID), none for the block index, the SM
 * id, VOTE, MATCH or a kernel without special registers; a SHFL counts one (the H200 1.17-1.41). Every
 * block does the same, so 64 blocks stand for 1,024.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type Metrics, probeMetrics } from './helpers.js';

const TOTAL = 'l1tex__data_pipe_lsu_wavefronts_mem_shared.sum';
const MISC = 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_misc.sum';
const WARPS = 'smsp__warps_launched.sum';

const perWarp = (m: Metrics, id: string): number => (m[id] ?? NaN) / (m[WARPS] ?? NaN);

let h200: Map<string, Metrics>;
let ours: Map<string, Metrics>;

beforeAll(async () => {
  ({ h200, ours } = await probeMetrics('shared_misc_probe_h200.csv', 'test/fidelity/probes/kernels/shared_misc_probe.ts', 64));
}, 60_000);

describe('shared-pipe wavefronts of special-register reads and warp primitives vs the H200 probe', () => {
  it('per warp, the total and op_misc, kernel by kernel: exact without shuffles', () => {
    expect([...ours.keys()]).toEqual([...h200.keys()].filter((name) => name !== 'k_syncwarp' && name !== 'k_bar'));
    const want: Record<string, number> = { k_empty: 0, k_st: 1, k_ld2: 1, k_alu: 1, k_halfexit: 1, k_tid2: 2, k_ctaid: 0, k_laneid: 1, k_vote: 1, k_match: 1, k_smid: 0 };
    for (const [name, wf] of Object.entries(want)) {
      const h = h200.get(name) as Metrics;
      const m = ours.get(name) as Metrics;
      expect(perWarp(h, TOTAL), `${name} H200`).toBe(wf);
      expect(perWarp(h, MISC), `${name} H200 op_misc`).toBe(wf);
      expect(perWarp(m, TOTAL), `${name} ours`).toBe(wf);
      expect(perWarp(m, MISC), `${name} ours op_misc`).toBe(wf);
    }
  });

  it('a shuffle: one wavefront per SHFL, the H200 1-1.5', () => {
    for (const [name, shfls] of [['k_shfl', 1], ['k_shfl3', 3]] as const) {
      const h = (perWarp(h200.get(name) as Metrics, MISC) - 1) / shfls;
      expect(h, `${name} H200 per SHFL`).toBeGreaterThanOrEqual(1);
      expect(h, `${name} H200 per SHFL`).toBeLessThan(1.5);
      expect(perWarp(ours.get(name) as Metrics, MISC), `${name} ours`).toBe(1 + shfls);
      expect(perWarp(ours.get(name) as Metrics, TOTAL), `${name} ours`).toBe(1 + shfls);
    }
  });
});
