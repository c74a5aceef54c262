/**
 * The P100 arch (sm_60) and the seed's occupancy example on it (seeds/002: "80 blocks x 512 threads /
 * (56 SMs x 2048 threads) = 36 % of P100"): the kernels/occupancy.ts seed_example_80blocks launch
 * profiled with --arch p100, its limits derived by hand from cuda_occupancy.h's cc 6.0 rules.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getArch } from '../../src/arch/index.js';
import { loadDefinitions } from '../../src/kernel/load.js';
import { profileDefinitions } from '../../src/profile.js';

const FILE = join(import.meta.dirname, '..', '..', 'kernels', 'occupancy.ts');

describe('--arch p100', () => {
  it('has the occupancy numbers of compute capability 6.0', () => {
    const a = getArch('p100');
    expect([a.smCount, a.maxThreadsPerSm, a.maxBlocksPerSm, a.registersPerSm, a.sharedMemPerSmMax, a.sharedMemPerBlockOptin, a.sharedMemReservedPerBlock]).toEqual([56, 2048, 32, 65536, 65536, 49152, 0]);
  });

  it("runs the seed's occupancy example: 100 % theoretical, 80 blocks filling 36 % of the GPU", async () => {
    const defs = (await loadDefinitions(FILE)).filter((d) => d.name === 'seed_example_80blocks');
    const report = profileDefinitions(defs, { file: FILE, arch: 'p100' });
    const k = report.kernels[0];
    expect(k?.check).toEqual({ passed: true });
    const m = k?.metrics as Record<string, number>;
    // by hand: 16 warps per block, 64 per SM: 4 blocks (the limit); 8 registers launch as 16, 512 per
    // warp, 32,768 per sub-partition (2 on 6.0): 64 warps each, 128 per SM: 8 blocks; 8 KB of 64 KB
    // with no reserved kilobyte: 8 blocks
    expect(m['launch__sm_count']).toBe(56);
    expect(m['launch__occupancy_limit_warps']).toBe(4);
    expect(m['launch__occupancy_limit_registers']).toBe(8);
    expect(m['launch__occupancy_limit_shared_mem']).toBe(8);
    expect(m['launch__occupancy_limit_blocks']).toBe(32);
    expect(m['sm__maximum_warps_per_active_cycle_pct']).toBe(100);
    // the seed's 36 %: 80 blocks of the 56 x 4 the GPU holds at once
    expect(m['launch__waves_per_multiprocessor']).toBeCloseTo(80 / (56 * 4), 10);
    expect(Math.round(100 * (m['launch__waves_per_multiprocessor'] as number))).toBe(36);
    // every SM busy (24 with two blocks, 32 with one): achieved occupancy near the same 36 %, a little
    // under as warps finish at different times
    expect(m['sm__warps_active.avg.pct_of_peak_sustained_active']).toBeGreaterThan(32);
    expect(m['sm__warps_active.avg.pct_of_peak_sustained_active']).toBeLessThanOrEqual(36);
  });
});
