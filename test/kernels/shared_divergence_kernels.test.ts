/**
 * Every kernel of issue 3 computes the right answer (its own CPU check, after micro.cu's host checks):
 * the ground-truth kernels on a reduced grid (their checks sample the first blocks), the warp-primitive
 * examples at their own size.
 */
import { describe, expect, it } from 'vitest';
import { profileFile } from '../../src/profile.js';
import type { Dim3 } from '../../src/kernel/define.js';

const cases: [string, { grid?: Dim3; params?: Record<string, string> }][] = [
  ['kernels/transpose.ts', { params: { width: '256' } }],
  ['kernels/shared_loads.ts', { grid: [64, 1, 1] }],
  ['kernels/divergence.ts', { grid: [16, 1, 1] }],
  ['kernels/reductions.ts', { grid: [64, 1, 1] }],
  ['kernels/warp_specialization.ts', { grid: [8, 1, 1] }],
  ['kernels/warp_primitives.ts', {}],
];

describe('shared-memory, divergence and warp-primitive kernels check their output', () => {
  for (const [file, opts] of cases)
    it(file, async () => {
      const r = await profileFile({ file, ...opts });
      expect(r.kernels.length).toBeGreaterThan(0);
      expect(r.kernels.map((k) => `${k.name}: ${k.check?.passed ? 'ok' : (k.check?.message ?? 'no check')}`)).toEqual(r.kernels.map((k) => `${k.name}: ok`));
    }, 120_000);
});

describe('rules on the transposes', () => {
  it('shows the bank-conflict rule on the unpadded tile, at the column read, and not on the padded one', async () => {
    const r = await profileFile({ file: 'kernels/transpose.ts', kernel: ['sh_transpose_32x32_bd32x8', 'sh_transpose_32x33_bd32x8'], params: { width: '256' } });
    const [unpadded, padded] = r.kernels;
    const rule = unpadded?.rules.find((x) => x.id === 'SharedMemoryConflicts');
    expect(rule?.message).toContain('causes on average a 32.0 - way bank conflict');
    const columnRead = (unpadded?.sourceLines ?? []).findIndex((l) => l.includes('// the column read:')) + 1;
    expect(rule?.lines).toEqual([columnRead]);
    expect(padded?.rules.find((x) => x.id === 'SharedMemoryConflicts')).toBeUndefined();
    expect(padded?.rules.find((x) => x.id === 'UncoalescedSharedAccess')).toBeUndefined();
  }, 120_000);

  it('shows ThreadDivergence on div_loop_lane_trip, not on div_inter_warp', async () => {
    const r = await profileFile({ file: 'kernels/divergence.ts', kernel: ['div_loop_lane_trip', 'div_inter_warp'], grid: [16, 1, 1] });
    const byName = Object.fromEntries(r.kernels.map((k) => [k.name, k]));
    expect(byName.div_loop_lane_trip?.rules.some((x) => x.id === 'ThreadDivergence')).toBe(true);
    expect(byName.div_inter_warp?.rules.some((x) => x.id === 'ThreadDivergence')).toBe(false);
  }, 120_000);
});
