/**
 * Register spills (issue #40 item 2), against our H200 probe (test/fidelity/probes/spills/: source,
 * script, raw ncu CSVs, README; the kernels in probes/kernels/spills.ts). On the H200, K accumulators
 * live across a loop under a register limit below what the loop needs are spilled: local stores and
 * loads of 4 sectors each, nearly all L1 hits. Warpsight takes the limit for occupancy and does not
 * spill: the last test is the gap, and fails once spills are emulated. Why not yet: ptxas reloads
 * 1.7-2.5x what optimal replacement over the loop would (README), a factor a model would have to fit.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { profileDefinitions } from '../../src/profile.js';
import { readNcuRawCsv } from '../../src/report/ncuCsv.js';
import { accumulators } from './probes/kernels/spills.js';

const LD = 'smsp__sass_inst_executed_op_local_ld.sum';
const ST = 'smsp__sass_inst_executed_op_local_st.sum';
const SEC = 'l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum';
const REQ = 'l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum';
const REGS = 'launch__registers_per_thread';

/** the probe's launches in each CSV: K = 16, 24, 32, 48 */
const KS = [16, 24, 32, 48];
/** the spilling builds: K and the register limit */
const SPILLING: [number, number][] = [
  [24, 24],
  [32, 24],
  [48, 24],
  [32, 32],
  [48, 32],
];

function h200(k: number, limit: number): Record<string, number> {
  const launches = readNcuRawCsv(join(import.meta.dirname, 'probes', 'spills', 'raw', `spill_probe_r${limit}_h200.csv`));
  const m = launches[KS.indexOf(k)]?.metrics;
  if (!m) throw new Error(`spill_probe_r${limit}_h200.csv: no launch for K = ${k}`);
  return Object.fromEntries([LD, ST, SEC, REQ, REGS].map((c) => [c, Number(m[c]?.value)]));
}

const ours = new Map(
  SPILLING.map(([k, limit]) => {
    const r = profileDefinitions([accumulators(k, limit)], { file: import.meta.filename }).kernels[0];
    if (!r) throw new Error('no kernel');
    return [`${k}/${limit}`, Object.fromEntries([LD, REGS].map((c) => [c, Number(r.metrics[c])]))];
  }),
);

describe('register spills: the H200 spills under a register limit, Warpsight does not (yet)', () => {
  it('the H200 runs each build with its limit and spills: local loads of 4 sectors, one request each', () => {
    for (const [k, limit] of SPILLING) {
      const h = h200(k, limit);
      expect(h[REGS], `${k}/${limit}`).toBe(limit);
      expect(h[LD], `${k}/${limit}`).toBeGreaterThan(1024 * 16 * 8);
      expect(h[SEC], `${k}/${limit}`).toBe(4 * (h[REQ] as number));
    }
  });

  it('Warpsight takes the limit for occupancy and emulates no local traffic for it', () => {
    for (const [k, limit] of SPILLING) {
      const o = ours.get(`${k}/${limit}`)!;
      expect(o[REGS], `${k}/${limit}`).toBe(limit);
      expect(o[LD], `${k}/${limit}`).toBe(0);
    }
  });

  // the gap: flips to a failure (remove `.fails`) once spills are emulated
  it.fails('known gap: local loads within 25 % of the H200 where the limit is below the need', () => {
    for (const [k, limit] of SPILLING) expect(Math.abs(ours.get(`${k}/${limit}`)![LD]! / h200(k, limit)[LD]! - 1), `${k}/${limit}`).toBeLessThan(0.25);
  });
});
