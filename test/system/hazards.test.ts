/**
 * Seed 001's on-stream NVSHMEM hazards (kernels/nvshmem_hazards.ts): each is a finding on every PE with
 * both operations' lines and the seed's fix; the fixed forms have none.
 */
import { describe, expect, it } from 'vitest';
import { profileFile } from '../../src/profile.js';

const FILE = 'kernels/nvshmem_hazards.ts';

async function findings(kernel: string, fixed: boolean): Promise<{ pe: string; rule: string; message: string }[]> {
  const r = await profileFile({ file: FILE, kernel, params: { fixed: fixed ? '1' : '0' }, timing: false });
  return (r.programs ?? []).flatMap((p) => p.findings.filter((f) => f.severity === 'warning' && /Nvshmem|Implicitly/.test(f.rule)).map((f) => ({ pe: p.name, rule: f.rule, message: f.message })));
}

describe('NVSHMEM hazards', () => {
  it('a host nvshmem_malloc while a barrier_all_on_stream may run', async () => {
    const f = await findings('malloc_during_barrier', false);
    expect(f.map((x) => x.pe)).toEqual(['malloc_during_barrier (PE 0 of 2)', 'malloc_during_barrier (PE 1 of 2)']);
    expect(f[0]?.rule).toBe('NvshmemCollectiveOverlap');
    expect(f[0]?.message).toMatch(/^kernels\/nvshmem_hazards\.ts:23: nvshmem_malloc .* while nvshmemx_barrier_all_on_stream \(kernels\/nvshmem_hazards\.ts:21\) runs/);
    expect(await findings('malloc_during_barrier', true)).toEqual([]);
  });

  it('collectives of one team on two unordered streams', async () => {
    const f = await findings('collectives_two_streams', false);
    expect(f).toHaveLength(2);
    expect(f[0]?.message).toMatch(/^kernels\/nvshmem_hazards\.ts:42: nvshmemx_barrier_all_on_stream and nvshmemx_barrier_all_on_stream \(kernels\/nvshmem_hazards\.ts:36\) use the same team on two streams with no ordering/);
    expect(await findings('collectives_two_streams', true)).toEqual([]);
  });

  it('cudaMemcpy into symmetric memory read by the next NVSHMEM operation; the put lands on the peer either way', async () => {
    const f = await findings('memcpy_then_put', false);
    expect(f.map((x) => x.rule)).toEqual(['ImplicitlyAsyncMemcpy', 'ImplicitlyAsyncMemcpy']);
    expect(f[0]?.message).toMatch(/^kernels\/nvshmem_hazards\.ts:62: nvshmemx_putmem_on_stream reads symmetric memory that cudaMemcpy \(kernels\/nvshmem_hazards\.ts:61\) writes; .* use cudaMemcpyAsync on a stream and cudaStreamSynchronize it first/);
    expect(await findings('memcpy_then_put', true)).toEqual([]);
    const r = await profileFile({ file: FILE, kernel: 'memcpy_then_put', params: { fixed: '1' }, timing: false });
    // each PE put its value (100 + pe) into the next PE's `final`
    expect(r.programs?.map((p) => p.values[0]?.value)).toEqual([101, 100]);
  });

  it('an event synchronize orders the host after the on-stream barrier the event follows (the Jacobi: no finding)', async () => {
    const r = await profileFile({ file: 'kernels/jacobi_nvshmem.ts', kernel: 'jacobi_p', params: { nx: '64', ny: '64', iterations: '2' }, pes: 2, timing: false });
    const rules = (r.programs ?? []).flatMap((p) => p.findings.map((f) => f.rule));
    expect(rules.filter((x) => /Nvshmem|Implicitly/.test(x))).toEqual([]);
    expect(r.programs).toHaveLength(2);
  });

  it('a stream of many barriers and one unordered barrier on another stream: one finding per PE, naming the newest', async () => {
    const r = await profileFile({ file: 'test/fixtures/collectives_many.ts', params: { n: '50' }, timing: false });
    const f = (r.programs ?? []).flatMap((p) => p.findings.filter((x) => x.rule === 'NvshmemCollectiveOverlap').map((x) => x.message));
    expect(f).toHaveLength(2);
    expect(f[0]).toMatch(/^test\/fixtures\/collectives_many\.ts:17: nvshmemx_barrier_all_on_stream and nvshmemx_barrier_all_on_stream \(test\/fixtures\/collectives_many\.ts:16\) use the same team on two streams/);
  });
});

