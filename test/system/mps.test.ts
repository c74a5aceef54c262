/**
 * Processes sharing one GPU (#37, seed 002's "share the GPU with multiple processes: MPS"): two
 * processes' half-GPU kernels run side by side through MPS (as fast as on a GPU each), and one
 * process at a time when the GPU time-slices between their contexts.
 */
import { describe, expect, it } from 'vitest';
import { profileFile } from '../../src/profile.js';

async function kernelTimes(shareGpu?: 'mps' | 'timeslice'): Promise<number[]> {
  const r = await profileFile({ file: 'kernels/mps.ts', ...(shareGpu ? { shareGpu } : {}) });
  return (r.programs ?? []).map((p) => p.values[0]?.value ?? NaN);
}

describe('processes on one GPU', () => {
  it('through MPS their half-GPU kernels share the SMs; time-sliced they take turns', async () => {
    const own = await kernelTimes();
    const mps = await kernelTimes('mps');
    const slices = await kernelTimes('timeslice');
    // 66 + 66 blocks fit the 132 SMs: MPS gives each process what a GPU of its own gives
    expect(mps).toEqual(own);
    // without MPS a process's kernels wait for the other's: each process takes far longer
    for (let i = 0; i < 2; i++) expect(slices[i] as number).toBeGreaterThan(1.6 * (mps[i] as number));
    // and the GPU's block scheduler shows one process's kernels at a time: the busy SMs never exceed 66
    const r = await profileFile({ file: 'kernels/mps.ts', timing: false, shareGpu: 'timeslice' });
    const busy = Math.max(...(r.programs?.[0]?.timeline.smBusy ?? []).map((b) => b.busySms));
    expect(busy).toBe(66);
    const r2 = await profileFile({ file: 'kernels/mps.ts', timing: false, shareGpu: 'mps' });
    expect(Math.max(...(r2.programs?.[0]?.timeline.smBusy ?? []).map((b) => b.busySms))).toBe(132);
  });
});
