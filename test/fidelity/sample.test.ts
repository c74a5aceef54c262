/**
 * Sampled simulation (`profile --sample`, src/profile/sample.ts) against the exact run of the same
 * kernel at its full ground-truth size (16,384 blocks): a streaming load, a transpose through shared
 * memory, a divergent kernel. The exact runs of the first two are the shared fidelity reports (made
 * by the test setup, as `warpsight profile` makes them); the divergent one is profiled here.
 * What must hold, by metric class (src/profile/sampleCompare.ts, README "Sampled simulation"):
 * occupancy, limits and device attributes equal; every other counter, rate, ratio and time within
 * 2 %, except the DRAM write-backs (within 2.5x), stall reasons (5 % where they hold >= 1 % of the warp
 * cycles) and the L2's active cycles (15 %).
 */
import { describe, expect, it } from 'vitest';
import type { KernelResult } from '../../types/report.schema.js';
import { profileFile } from '../../src/profile.js';
import { compareSampled, exactMismatches, type MetricError, sampleClass } from '../../src/profile/sampleCompare.js';
import { fidelityKernel } from './reports.js';

interface Case {
  kind: string;
  file: string;
  kernel: string;
  exact: () => Promise<KernelResult>;
}

const CASES: Case[] = [
  { kind: 'streaming loads', file: 'kernels/global_loads.ts', kernel: 'g_ld_u32_coalesced', exact: async () => fidelityKernel('global_loads', 'g_ld_u32_coalesced') },
  { kind: 'transpose through shared memory', file: 'kernels/transpose.ts', kernel: 'sh_transpose_32x32_bd32x8', exact: async () => fidelityKernel('transpose', 'sh_transpose_32x32_bd32x8') },
  {
    kind: 'divergent',
    file: 'kernels/divergence.ts',
    kernel: 'div_intra_warp',
    exact: async () => (await profileFile({ file: 'kernels/divergence.ts', kernel: 'div_intra_warp' })).kernels[0] as KernelResult,
  },
];

const show = (errs: MetricError[]): string[] => errs.map((e) => `${e.id}: exact ${e.exact}, sampled ${e.sampled} (${(100 * e.error).toFixed(2)} %)`);

describe.each(CASES)('--sample on $kernel ($kind, 16,384 blocks)', ({ file, kernel, exact: exactRun }) => {
  it('runs a tenth of the blocks or fewer, and says so in the report', async () => {
    const exact = await exactRun();
    const sampled = (await profileFile({ file, kernel, sample: true })).kernels[0] as KernelResult;
    const s = sampled.sampled;
    expect(s).toBeDefined();
    expect(exact.sampled).toBeUndefined();
    expect(s?.blocks).toBe(16384);
    expect((s?.blocksSimulated ?? Infinity) / 16384).toBeLessThanOrEqual(0.1);
    expect(sampled.notes[0]).toMatch(/^Sampled \(--sample\): \d+ of 16,384 blocks/);
    // the unrun blocks' outputs are not there: no check result rather than a false failure
    expect(sampled.check).toBeUndefined();
    expect(exact.check?.passed).toBe(true);

    // occupancy, launch limits, device attributes: the whole launch's
    expect(exactMismatches(exact, sampled)).toEqual([]);
    const errs = compareSampled(exact, sampled);
    const warpCycles = Number(exact.metrics['smsp__warps_active.sum']);
    const outside = errs.filter((e) => {
      switch (sampleClass(e.id)) {
        case 'exact':
          return e.error !== 0;
        case 'writeBacks':
          return !(e.sampled <= 2.5 * e.exact && e.sampled >= e.exact / 2.5);
        case 'stall':
          // a reason's share of the warp cycles: its .sum, or its per-issue ratio's .sum beside it
          return e.id.endsWith('.sum') && e.exact >= 0.01 * warpCycles && e.error > 0.05;
        case 'l2Active':
          return e.error > 0.15;
        case 'counter':
          return e.error > 0.02;
      }
    });
    expect(show(outside)).toEqual([]);
    // the instructions and the L1/L2 traffic, and the duration, are much closer than 2 %
    for (const id of ['smsp__inst_executed.sum', 'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum', 'lts__t_sectors.sum', 'dram__bytes_read.sum', 'gpu__time_duration.sum'])
      expect(errs.find((e) => e.id === id)?.error, id).toBeLessThan(0.01);
  });
});
