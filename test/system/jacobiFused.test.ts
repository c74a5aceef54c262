/**
 * Seed 003's fused multi-step Jacobi (kernels/jacobi_nvshmem.ts jacobi_fused): the whole loop in one
 * collective launch per PE, halos by put_nbi_block, then quiet, atomic_inc on both neighbours and
 * wait_until their increments. On 1, 2 and 4 PEs every PE's rows equal the single-GPU reference; one
 * kernel per PE on the timeline (no barrier, no launch per iteration); the traffic is the halo rows and
 * the flag increments, counted by hand.
 */
import { describe, expect, it } from 'vitest';
import { profileFile } from '../../src/profile.js';

const FILE = 'kernels/jacobi_nvshmem.ts';
const NX = 128;
const ITER = 5;
const params = { nx: String(NX), ny: '128', iterations: String(ITER) };

describe('fused multi-step Jacobi (in-kernel synchronisation, one collective launch)', () => {
  it.each([1, 2, 4])('on %i PE(s): every PE equals the single-GPU reference; one kernel per PE', async (pes) => {
    const r = await profileFile({ file: FILE, kernel: 'jacobi_fused', params, pes, timing: false });
    const programs = r.programs ?? [];
    expect(programs).toHaveLength(pes);
    for (const p of programs) {
      expect(p.values.find((v) => v.name === 'max |difference| from the single-GPU reference')?.value).toBe(0);
      const kernels = p.timeline.ops.filter((o) => o.kind === 'kernel');
      expect(kernels.map((o) => o.name)).toEqual(['jacobi_fused']);
      // no on-stream barrier between iterations: the kernel synchronises with its neighbours itself
      expect(p.timeline.ops.filter((o) => o.kind === 'nvshmem')).toEqual([]);
    }
    // per iteration a PE puts its two edge rows (NX - 2 floats each, one block per row at NX = 128) and
    // increments one flag on each neighbour (8-byte atomics): on 2 PEs both go to the one neighbour
    const traffic = programs[0]?.traffic ?? [];
    const per = pes === 1 ? [0] : pes === 2 ? [1] : [1, 3];
    const rowsTo = pes <= 2 ? 2 : 1;
    expect(traffic).toEqual(
      per.flatMap((to) => [
        { to, kind: 'atomic', bytes: ITER * rowsTo * 8, ops: ITER * rowsTo },
        // 126 floats by a block of 1024 threads: 4 warps with lanes in the row, one store each (a_new + 1 is not 16-byte aligned)
        { to, kind: 'put', bytes: ITER * rowsTo * (NX - 2) * 4, ops: ITER * rowsTo * 4 },
      ]),
    );
  });

  it('the loop is timed on every PE count: the PEs wait for each other each iteration, so on 2 and 4 PEs they report the same time', async () => {
    const perPe = async (pes: number): Promise<number[]> => {
      const r = await profileFile({ file: FILE, kernel: 'jacobi_fused', params, pes });
      return (r.programs ?? []).map((p) => p.values.find((v) => v.name === 'time per iteration')?.value ?? NaN);
    };
    const [one] = await perPe(1);
    expect(one).toBeGreaterThan(0);
    for (const pes of [2, 4]) {
      const t = await perPe(pes);
      expect(t).toHaveLength(pes);
      // lockstep: a PE's iteration ends when its neighbours' flags arrive
      expect((Math.max(...t) - Math.min(...t)) / Math.min(...t)).toBeLessThan(0.05);
      // each iteration holds at least a quiet (nvshmem.quietNs 689 ns) and the flag's way over the link
      // (half the remote load's 1,011 ns): src/arch/remoteLink.ts
      expect(Math.min(...t)).toBeGreaterThan(0.689 + 1.011 / 2);
    }
  });
});
