/**
 * cp.async groups: commitAsyncCopies (LDGDEPBAR) and waitPrior(N) (DEPBAR.LE SB0, N), the parts a
 * multi-stage pipeline is written with, on the bundled kernels/pipelined_copy.ts. The counts are
 * derived by hand from the kernels; the time checks the mechanism: a wait for all but the newest group
 * does not wait for the copy just issued.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defineKernel, f32, ptr } from '../../src/api.js';
import { profileDefinitions } from '../../src/profile.js';
import { tilesKernel } from '../../kernels/pipelined_copy.js';

const FILE = fileURLToPath(import.meta.url);
const TILES = 32;
const BLOCKS = 4;
const WARPS = BLOCKS * 8;

function run() {
  const report = profileDefinitions([tilesKernel('tiles_1stage', 1, BLOCKS), tilesKernel('tiles_2stage', 2, BLOCKS), tilesKernel('tiles_pipeline', 'pipeline', BLOCKS)], { file: FILE });
  for (const k of report.kernels) expect(k.check, k.name).toEqual({ passed: true });
  return report.kernels;
}

describe('a 2-stage cp.async pipeline (commit groups, wait_prior<N>)', () => {
  const [one, two, pipe] = run();
  const count = (k: typeof one, opcode: string): number =>
    (k?.instructions ?? []).filter((x) => x.opcode === opcode).reduce((s, x) => s + (x.metrics.inst_executed ?? 0), 0);

  it('executes one LDGSTS, one LDGDEPBAR and one DEPBAR.LE per tile and warp in both kernels', () => {
    for (const k of [one, two, pipe]) {
      expect(count(k, 'LDGSTS.E'), k?.name).toBe(TILES * WARPS);
      expect(count(k, 'LDGDEPBAR'), k?.name).toBe(TILES * WARPS);
      expect(count(k, 'DEPBAR.LE'), k?.name).toBe(TILES * WARPS);
      // the copies are global loads of 256 floats per tile and block: 8 requests of 4 sectors
      expect(k?.metrics['l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum'], k?.name).toBe(TILES * WARPS);
      expect(k?.metrics['l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum'], k?.name).toBe(TILES * WARPS * 4);
    }
  });

  it('overlaps the next tile\'s copy with this tile\'s use: the 2-stage kernel takes less time', () => {
    const d1 = one?.metrics['gpu__time_duration.sum'] as number;
    const d2 = two?.metrics['gpu__time_duration.sum'] as number;
    console.log(`tiles_1stage ${d1} ns, tiles_2stage ${d2} ns`);
    expect(d2).toBeLessThan(d1 * 0.8);
  });

  it("runs cuda::pipeline's stages: consumer_wait branches to the DEPBAR.LE of its run-time count, and overlaps as the 2-stage kernel does", () => {
    // every trip waits with one tile in flight behind the one it uses (count 1), the last with none
    // (count 0): one DEPBAR per trip, reached through nvcc's binary search over the count
    const leaves = (pipe?.instructions ?? []).filter((x) => x.opcode === 'DEPBAR.LE' && (x.metrics.inst_executed ?? 0) > 0);
    expect(leaves.map((x) => x.metrics.inst_executed).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual([WARPS, (TILES - 1) * WARPS]);
    const d2 = two?.metrics['gpu__time_duration.sum'] as number;
    const dp = pipe?.metrics['gpu__time_duration.sum'] as number;
    console.log(`tiles_pipeline ${dp} ns, branches per warp ${(pipe?.metrics['smsp__sass_inst_executed_op_branch.sum'] as number) / WARPS}`);
    expect(Math.abs(dp - d2) / d2).toBeLessThan(0.15);
  });

  it('refuses a count of groups it does not track', () => {
    const bad = defineKernel({
      name: 'wait_prior_99',
      params: { o: ptr('global', f32) },
      launch: { grid: 1, block: 32 },
      setup: (h) => ({ o: h.alloc(f32, 32, 'o') }),
      body: (k) => k.waitPrior(99),
    });
    expect(() => profileDefinitions([bad], { file: FILE })).toThrow(/asyncPipeline\.test\.ts:\d+: waitPrior\(99\): the count of groups left in flight is an integer from 0 to 15/);
  });
});
