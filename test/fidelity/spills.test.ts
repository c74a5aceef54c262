/**
 * Register spills (issue #40 item 2), against our H200 probes (test/fidelity/probes/spills/ and
 * spills2/: sources, scripts, raw ncu CSVs, READMEs; the kernels in probes/kernels/spills.ts). On the
 * H200, K accumulators live across a loop under a register limit below what the loop needs are
 * spilled: local stores and loads of 4 sectors each, nearly all L1 hits. Warpsight takes the limit for
 * occupancy and does not spill: the last test is the gap, and fails once spills are emulated. Why not
 * yet: the spill code's count depends on the loop's shape, not on the excess alone (spills2/README.md:
 * at K = 32 and 32 registers the ring, the independent and the far-read loops run 9.4, 16.9 and 14.9
 * local loads a trip), so a model has to allocate registers as ptxas does.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { profileDefinitions } from '../../src/profile.js';
import { readNcuRawCsv } from '../../src/report/ncuCsv.js';
import { accumulators, PROBE_BLOCKS, type SpillShape } from './probes/kernels/spills.js';

const LD = 'smsp__sass_inst_executed_op_local_ld.sum';
const ST = 'smsp__sass_inst_executed_op_local_st.sum';
const SEC = 'l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum';
const REQ = 'l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum';
const REGS = 'launch__registers_per_thread';
const PROBES = join(import.meta.dirname, 'probes');

interface Launch {
  k: number;
  limit: number;
  shape: SpillShape;
  /** the H200's metrics */
  h200: Record<string, number>;
}

/** the launches of a probe's CSV for one build, in launch order: its (shape, K) per row */
function launches(csv: string, limit: number, rows: [SpillShape, number][]): Launch[] {
  const read = readNcuRawCsv(join(PROBES, csv));
  if (read.length !== rows.length) throw new Error(`${csv}: ${read.length} launches, expected ${rows.length}`);
  return rows.map(([shape, k], i) => ({
    k,
    limit,
    shape,
    h200: Object.fromEntries(Object.entries(read[i]!.metrics).map(([id, v]) => [id, Number(v.value)])),
  }));
}

/** the spilling launches of both probes' limited builds (probe 1: the ring at K = 16-48; probe 2: shapes 0-3 at K = 24-48) */
const SPILLING = [32, 24]
  .flatMap((limit) => [
    ...launches(`spills/raw/spill_probe_r${limit}_h200.csv`, limit, [16, 24, 32, 48].map((k) => [0, k])),
    ...launches(`spills2/raw/spill_probe2_r${limit}_h200.csv`, limit, ([0, 1, 2, 3] as const).flatMap((s) => [24, 32, 48].map((k): [SpillShape, number] => [s, k]))),
  ])
  .filter((l) => l.h200[LD]! > 0);

const key = (l: { k: number; limit: number; shape: number }): string => `K=${l.k}/shape ${l.shape}/${l.limit} registers`;

/** warps of a launch: the probes' 1,024, and the 16 of the two blocks Warpsight runs (every warp runs the same code) */
const H200_WARPS = PROBE_BLOCKS * 8;
const BLOCKS = 2;
const ours = new Map<string, Record<string, number>>();
for (const l of SPILLING) {
  if (ours.has(key(l))) continue;
  const r = profileDefinitions([accumulators(l.k, l.limit, l.shape, BLOCKS)], { file: import.meta.filename }).kernels[0];
  if (!r) throw new Error('no kernel');
  ours.set(key(l), { [LD]: Number(r.metrics[LD]) / (BLOCKS * 8), [REGS]: Number(r.metrics[REGS]) });
}

describe('register spills: the H200 spills under a register limit, Warpsight does not (yet)', () => {
  it('the H200 runs each build with its limit and spills: local loads of 4 sectors, one request each', () => {
    // probe 1's five spilling builds, and 22 of probe 2's 24 limited launches (K = 24 at 32 registers
    // fits the ring and the far reads)
    expect(SPILLING.length).toBe(5 + 22);
    for (const l of SPILLING) {
      expect(l.h200[REGS], key(l)).toBe(l.limit);
      expect(l.h200[ST], key(l)).toBeGreaterThan(0);
      if (l.h200[REQ] !== undefined && !Number.isNaN(l.h200[REQ])) expect(l.h200[SEC], key(l)).toBe(4 * l.h200[REQ]!);
    }
  });

  it('Warpsight takes the limit for occupancy and emulates no local traffic for it', () => {
    for (const l of SPILLING) {
      const o = ours.get(key(l))!;
      expect(o[REGS], key(l)).toBe(l.limit);
      expect(o[LD], key(l)).toBe(0);
    }
  });

  // the gap: flips to a failure (remove `.fails`) once spills are emulated
  it.fails('known gap: local loads per warp within 25 % of the H200 where the limit is below the need', () => {
    for (const l of SPILLING) expect(Math.abs(ours.get(key(l))![LD]! / (l.h200[LD]! / H200_WARPS) - 1), key(l)).toBeLessThan(0.25);
  });
});
