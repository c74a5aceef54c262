/**
 * Waits timed across PEs (src/exec/remoteArrivals.ts): two PEs' kernels bounce a value, each waiting
 * in its kernel for the other's write (kernels/nvshmem_pingpong.ts, the probe's k_pingpong_* on two
 * NVLink-connected H200s: test/fidelity/probes/nvshmem/, median of 14 runs of 2,000 round trips).
 * Before, a waiting kernel woke at its writer's end and the round trip was not timed at all (700 us
 * per round trip at 50 iterations, the spins the interpreter ran before it noticed the wait).
 *
 * int_p + int_wait_until: the wait's only difference from the volatile spin is the call after it,
 * nvshmemi_transfer_syncapi_update_mem, a fence.sc.gpu and a return on P2P (read from libnvshmem_device.a:
 * nvshmem_device_sass/README.md). A fence right after a poll that saw a peer's write takes 425-494 ns on
 * the H200s (the pingfence probe: test/fidelity/probes/nvshmem/RESULTS.md), twice the one-GPU probe's,
 * and the timing model takes that figure there (memoryModel.membarGpuAfterPeerRead): 1.91 -> 2.25 us
 * per round trip, the H200s 2.53.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { profileFile } from '../../src/profile.js';

const measured = JSON.parse(readFileSync('test/fidelity/probes/nvshmem/nvshmem_h200x2.json', 'utf8')) as { figures: Record<string, { median: number }> };

/** each PE's value `name` of a profiled program */
async function values(kernel: string, file: string, name: string, params: Record<string, string> = {}): Promise<number[]> {
  const r = await profileFile({ file, kernel, params });
  return (r.programs ?? []).map((p) => p.values.find((v) => v.name === name)?.value ?? NaN);
}

describe('cross-PE waits on two H200s', () => {
  it.each([
    ['float', 'pingpong_rtt/float_p'],
    ['signal', 'pingpong_rtt/signal_op'],
    ['int', 'pingpong_rtt/int_p'],
  ] as const)('pingpong_%s: round trip within 20 percent of the H200s (%s)', async (kind, key) => {
    const h200 = measured.figures[key]?.median as number;
    const rtts = await values(`pingpong_${kind}`, 'kernels/nvshmem_pingpong.ts', 'round trip');
    expect(rtts).toHaveLength(2);
    const ours = rtts[0] as number;
    const err = (ours - h200) / h200;
    console.log(`pingpong_${kind}: ${ours.toFixed(0)} ns per round trip, H200s ${h200.toFixed(0)} (${(100 * err).toFixed(1)} %)`);
    // both PEs see the same round trips (each waits for the other's answer)
    expect(Math.abs((rtts[1] as number) - ours) / ours).toBeLessThan(0.05);
    expect(Math.abs(err)).toBeLessThan(0.2);
  });

  it('the fused Jacobi (in-kernel waits on the neighbours) is timed on 2 PEs, faster per iteration than jacobi_p with its launch and barrier per iteration', async () => {
    const params = { nx: '512', ny: '512', iterations: '4' };
    const fused = await values('jacobi_fused', 'kernels/jacobi_nvshmem.ts', 'time per iteration', params);
    const p = await values('jacobi_p', 'kernels/jacobi_nvshmem.ts', 'time per iteration', params);
    const diffs = await values('jacobi_fused', 'kernels/jacobi_nvshmem.ts', 'max |difference| from the single-GPU reference', params);
    console.log(`jacobi 512² on 2 PEs: fused ${fused.map((v) => v.toFixed(2)).join(' / ')} us per iteration, jacobi_p ${p.map((v) => v.toFixed(2)).join(' / ')}`);
    expect(diffs).toEqual([0, 0]);
    for (const v of fused) expect(v).toBeGreaterThan(0);
    expect(Math.max(...fused)).toBeLessThan(Math.min(...p));
  });
});
