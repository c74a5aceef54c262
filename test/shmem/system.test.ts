/**
 * k.shmem through the system layer (src/system): a 2-PE program whose kernels put into each other's
 * symmetric memory and wait on each other's signals (test/fixtures/shmem_ring.ts). Whichever kernel runs
 * first parks in its wait and wakes when the other PE's signal lands.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HostFault } from '../../src/errors.js';
import { profileFile } from '../../src/profile.js';

describe('k.shmem on two PEs', () => {
  it("put_signal into the next PE, signal_wait_until from the previous: each PE gets the other's data", async () => {
    const r = await profileFile({ file: 'test/fixtures/shmem_ring.ts', timing: false });
    const programs = r.programs ?? [];
    expect(programs.map((p) => p.name)).toEqual(['shmem_ring (PE 0 of 2)', 'shmem_ring (PE 1 of 2)']);
    const values = (pe: number): Record<string, number> => Object.fromEntries((programs[pe]?.values ?? []).map((v) => [v.name, Number(v.value)]));
    // PE 0 received PE 1's 1000 + i, PE 1 received PE 0's i
    expect(values(0)).toEqual({ 'PE 0 out[5]': 1005, 'PE 0 out[255]': 1255 });
    expect(values(1)).toEqual({ 'PE 1 out[5]': 5, 'PE 1 out[255]': 255 });
    // 256 floats in 16-byte chunks: 64 lanes, two warp stores; then the 8-byte signal
    for (const [pe, to] of [[0, 1], [1, 0]] as const)
      expect((programs[pe] as { traffic?: unknown }).traffic).toEqual([
        { to, kind: 'put', bytes: 1024, ops: 2 },
        { to, kind: 'signal', bytes: 8, ops: 1 },
      ]);
  });

  it("what a PE's program throws is located at the program's line, on one line, as a fault of the file (exit 3)", async () => {
    const file = 'kernels/nvshmem_pingpong.ts';
    const line = readFileSync(file, 'utf8').split('\n').findIndex((l) => l.includes('the ping-pong runs on 2 PEs')) + 1;
    const e = await profileFile({ file, kernel: 'pingpong_float', pes: 3, timing: false }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(HostFault);
    const msg = (e as Error).message;
    expect(msg).toMatch(new RegExp(`^kernels/nvshmem_pingpong\\.ts:${line}:\\d+: program 'pingpong_float' threw on PE 0: the ping-pong runs on 2 PEs \\(--pes 2\\), not 3$`));
  });
});
