/**
 * The shared-memory side of cp.async (LDGSTS) as ncu counts it, against our H200 probe
 * (test/fidelity/probes/ldgsts_probe.cu, test/fidelity/probes/kernels/ldgsts_probe.ts): per copy instruction, the shared
 * total (l1tex__data_pipe_lsu_wavefronts_mem_shared.sum, less op_ld/op_st and the per-warp baseline
 * of `ctrl`) and the bank conflicts. Every block does the same work, so 64 blocks stand for 1,024.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type Metrics, probeMetrics } from './helpers.js';

const TOTAL = 'l1tex__data_pipe_lsu_wavefronts_mem_shared.sum';
const LD = 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum';
const ST = 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum';
const CONFLICTS = 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum';
const REQUESTS = 'l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum';
const WARPS = 'smsp__warps_launched.sum';


/** per copy: the shared total's LDGSTS part (less the ctrl kernel's per-warp rest), and the conflicts */
function perCopy(m: Metrics, baselinePerWarp: number, conflictsPerWarp: number) {
  const rest = (m[TOTAL] ?? 0) - (m[LD] ?? 0) - (m[ST] ?? 0) - baselinePerWarp * (m[WARPS] ?? 0);
  const req = m[REQUESTS] ?? 0;
  return { wavefronts: rest / req, conflicts: ((m[CONFLICTS] ?? 0) - conflictsPerWarp * (m[WARPS] ?? 0)) / req };
}

let h200: Map<string, Metrics>;
let ours: Map<string, Metrics>;

beforeAll(async () => {
  ({ h200, ours } = await probeMetrics('ldgsts_probe_h200.csv', 'test/fidelity/probes/kernels/ldgsts_probe.ts', 64));
}, 60_000);

describe('cp.async (LDGSTS) shared-memory wavefronts vs the H200 probe', () => {
  it('per copy: 3, plus through L1 the data (write bank wavefronts or lanes per source word), within 0.15', () => {
    const base = (m: Map<string, Metrics>) => {
      const c = m.get('ctrl') as Metrics;
      return [((c[TOTAL] ?? 0) - (c[LD] ?? 0) - (c[ST] ?? 0)) / (c[WARPS] ?? 1), (c[CONFLICTS] ?? 0) / (c[WARPS] ?? 1)] as const;
    };
    const [hb, hc] = base(h200);
    const [ob, oc] = base(ours);
    const want: Record<string, number> = { ca4_contig: 4, ca4_pairs: 5, ca4_onesector: 7, ca4_conflict: 35, ca8_contig: 5, ca16_contig: 7, cg16_contig: 3, cg16_oneline: 3 };
    for (const [name, wf] of Object.entries(want)) {
      const h = perCopy(h200.get(name) as Metrics, hb, hc);
      const o = perCopy(ours.get(name) as Metrics, ob, oc);
      expect(Math.abs(h.wavefronts - wf), `${name} H200 ${h.wavefronts}`).toBeLessThan(0.15);
      expect(Math.abs(o.wavefronts - h.wavefronts), `${name} ours ${o.wavefronts} H200 ${h.wavefronts}`).toBeLessThan(0.15);
      expect(Math.abs(o.conflicts - h.conflicts), `${name} conflicts ours ${o.conflicts} H200 ${h.conflicts}`).toBeLessThan(0.15);
    }
  });

  it('copies count as global-load requests, not as shared stores', () => {
    for (const [name, m] of ours) {
      if (name === 'ctrl') continue;
      expect(m[REQUESTS], name).toBe(64 * 8 * 16);
      expect(m['smsp__sass_inst_executed_op_ldgsts.sum'], name).toBe(64 * 8 * 16);
      expect(m['smsp__sass_inst_executed_op_global_ld.sum'], name).toBe(0);
      expect(m[ST], name).toBe(0);
      expect((h200.get(name) as Metrics)[ST], name).toBe(0);
    }
  });
});
