/**
 * Memory synchronization domains end to end (issue 39 item 4; seed 000's fence interference,
 * kernels/sync_domains.ts): a local kernel that fences per iteration beside a communication kernel whose
 * NVLink stores are slow. Both in domain 0, the local kernel's system-scope fences wait for the other
 * kernel's stores too; the communication kernel in the remote domain (physical 1), they wait for the
 * local kernel's own writes only, as if it ran alone; a stream map sending the remote domain onto
 * physical 0 takes the benefit away. Device-scope fences wait for neither, as the H200 showed
 * (test/fidelity/probes/domains).
 */
import { describe, expect, it } from 'vitest';
import { profileFile } from '../../src/profile.js';

const FILE = 'kernels/sync_domains.ts';
type Report = Awaited<ReturnType<typeof profileFile>>;

async function run(program: string, params: Record<string, string> = {}): Promise<Report> {
  return profileFile({ file: FILE, kernel: program, params });
}

const kernel = (r: Report, name: string) => {
  const k = r.kernels.find((x) => x.name === name);
  if (!k) throw new Error(`no ${name} in the report`);
  return k;
};
const metric = (r: Report, name: string, id: string): number => {
  const v = kernel(r, name).metrics[id];
  if (typeof v !== 'number') throw new Error(`${name} has no ${id}`);
  return v;
};
/** the physical domain each kernel ran in, from PE 0's timeline */
const domains = (r: Report): Record<string, number | undefined> =>
  Object.fromEntries((r.programs?.[0]?.timeline.ops ?? []).filter((o) => o.kind === 'kernel').map((o) => [o.name, o.domain]));

const FENCE = 'warpsight__fence_wait_domain_0';
const FOREIGN = 'warpsight__fence_wait_foreign_domain_0';
const DURATION = 'gpu__time_duration.sum';

describe('memory synchronization domains: fence interference', async () => {
  const same = await run('fence_interference_same_domain');
  const remote = await run('fence_interference_remote_domain');
  const mapped = await run('fence_interference_remote_mapped_to_0');
  const alone = await run('fence_interference_same_domain', { comm: '0' });

  it('tags each kernel with its physical domain: remote -> 1 by the default map, -> 0 by the stream map', () => {
    expect(domains(same)).toEqual({ comm_put: 0, local_fence_sys: 0 });
    expect(domains(remote)).toEqual({ comm_put: 1, local_fence_sys: 0 });
    expect(domains(mapped)).toEqual({ comm_put: 0, local_fence_sys: 0 });
  });

  it('the kernels overlap in time and the local kernel computes the same result in every variant', () => {
    const ops = (same.programs?.[0]?.timeline.ops ?? []).filter((o) => o.kind === 'kernel');
    const [c, l] = [ops.find((o) => o.name === 'comm_put'), ops.find((o) => o.name === 'local_fence_sys')];
    expect(c && l && l.startNs < c.endNs && c.startNs < l.endNs).toBe(true);
    for (const r of [same, remote, mapped, alone]) expect(r.programs?.[0]?.values?.[0]?.value).toBe(32);
  });

  it("both in domain 0: the local kernel's fences take measurably longer than with the communication kernel remote", () => {
    // the part spent on the other kernel's NVLink stores is there in domain 0 and absent across domains
    expect(metric(same, 'local_fence_sys', FOREIGN)).toBeGreaterThan(0);
    expect(metric(remote, 'local_fence_sys', FOREIGN)).toBe(0);
    // a fence that the stores overlap waits for stores acknowledged ~480 ns after they leave before its
    // own ~690 ns (a PE's system fence, nvshmem_quiet's): measurably longer fences and kernel
    expect(metric(same, 'local_fence_sys', FENCE)).toBeGreaterThan(1.2 * metric(remote, 'local_fence_sys', FENCE));
    expect(metric(same, 'local_fence_sys', DURATION)).toBeGreaterThan(1.1 * metric(remote, 'local_fence_sys', DURATION));
    // the foreign part is all of the difference
    expect(metric(same, 'local_fence_sys', FENCE) - metric(same, 'local_fence_sys', FOREIGN)).toBeCloseTo(metric(remote, 'local_fence_sys', FENCE), -2);
    expect(metric(same, 'local_fence_sys', 'smsp__warps_issue_stalled_membar.sum')).toBeGreaterThan(metric(remote, 'local_fence_sys', 'smsp__warps_issue_stalled_membar.sum'));
  });

  it('in the remote domain the local kernel fences as if it ran alone', () => {
    for (const id of [FENCE, FOREIGN, DURATION, 'smsp__warps_issue_stalled_membar.sum']) expect(metric(remote, 'local_fence_sys', id)).toBe(metric(alone, 'local_fence_sys', id));
  });

  it('with the map sending both logical domains to physical 0, the benefit is gone', () => {
    for (const id of [FENCE, FOREIGN, DURATION, 'smsp__warps_issue_stalled_membar.sum']) expect(metric(mapped, 'local_fence_sys', id)).toBe(metric(same, 'local_fence_sys', id));
    expect(metric(mapped, 'local_fence_sys', FENCE)).toBeGreaterThan(1.2 * metric(remote, 'local_fence_sys', FENCE));
  });

  it('device-scope fences do not wait for the other kernel in any domain (H200: 570 / 573 / 577 cycles per fence)', async () => {
    const gpu = (r: Report) => metric(r, 'local_fence_gpu', 'warpsight__fence_wait_domain_0');
    const [s0, r0, a0] = await Promise.all([
      run('fence_interference_same_domain', { sysFence: '0' }),
      run('fence_interference_remote_domain', { sysFence: '0' }),
      run('fence_interference_same_domain', { sysFence: '0', comm: '0' }),
    ]);
    expect(gpu(s0)).toBe(gpu(a0));
    expect(gpu(r0)).toBe(gpu(a0));
    expect(metric(s0, 'local_fence_gpu', FOREIGN)).toBe(0);
    // they wait for their own block's stores: membarDrain (306) + the store's way to the L2, more than the bare 470
    expect(gpu(a0) / (32 * 32)).toBeGreaterThan(470);
  });

  it("the communication kernel's own figures do not depend on its domain (it fences nothing)", () => {
    expect(metric(remote, 'comm_put', DURATION)).toBe(metric(same, 'comm_put', DURATION));
    expect(kernel(same, 'comm_put').metrics[FENCE]).toBeUndefined();
  });
});
