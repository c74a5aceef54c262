/**
 * PEs on two nodes (--pes-per-node 1): seed 003's lesson in numbers. Jacobi's float_p halos are one
 * network message per element; through IBRC every message passes one CPU proxy thread, so an iteration
 * takes their count times the proxy's time per message more than put_nbi_block's (one message per edge
 * row); with IBGDA the NIC's message rate makes the same float_p traffic nearly free. The expectations are
 * derived by hand from the arch data (src/arch/interconnect.ts IBRC, IBGDA), not read from a run.
 */
import { describe, expect, it } from 'vitest';
import { H200_NVLINK4, IBGDA, IBRC } from '../../src/arch/interconnect.js';
import { networkFor } from '../../src/system/network.js';
import { UserError } from '../../src/errors.js';
import { profileFile } from '../../src/profile.js';
import { programLines } from '../../src/report/programSummary.js';

const FILE = 'kernels/jacobi_nvshmem.ts';
const NX = 256;
const params = { nx: String(NX), ny: '256', iterations: '4' };

async function run(variant: 'p' | 'block', transport: 'ibrc' | 'ibgda' | null) {
  const r = await profileFile({ file: FILE, kernel: `jacobi_${variant}`, params, timing: true, ...(transport ? { pesPerNode: 1, transport } : {}) });
  const programs = r.programs ?? [];
  for (const p of programs) expect(p.values.find((v) => v.name === 'max |difference| from the single-GPU reference')?.value).toBe(0);
  const t = programs[0]?.values.find((v) => v.name === 'time per iteration')?.value ?? NaN;
  return { r, programs, us: t };
}

const perMessageNs = (t: typeof IBRC): number => 1e9 / (t.smallPutMessagesPerS as number);

describe('PEs on two nodes over InfiniBand (2 nodes x 1 PE)', () => {
  it('jacobi_p over IBRC is slow, over IBGDA about as fast as put_nbi_block, put_nbi_block fine either way', async () => {
    const pIbrc = await run('p', 'ibrc');
    const pIbgda = await run('p', 'ibgda');
    const bIbrc = await run('block', 'ibrc');
    const bIbgda = await run('block', 'ibgda');
    const bNvlink = await run('block', null);
    // per iteration and PE: float_p sends both edge rows element by element, 2 x (nx - 2) messages;
    // put_nbi_block one message per edge row (the block's call, posted once): 2
    const pMessages = 2 * (NX - 2);
    const blockMessages = 2;
    const ibrcNs = perMessageNs(IBRC);
    const ibgdaNs = perMessageNs(IBGDA);
    // IBRC: the proxy serialises the extra messages (89.1 us at 176 ns each); the rest of the iteration is the same
    const ibrcExtraUs = ((pMessages - blockMessages) * ibrcNs) / 1000;
    expect(pIbrc.us - bIbrc.us).toBeGreaterThan(ibrcExtraUs * 0.9);
    expect(pIbrc.us - bIbrc.us).toBeLessThan(ibrcExtraUs * 1.1);
    // IBGDA: the same 508 messages at the NIC's rate take at most 2.4 us (less where they overlap the stencil)
    expect(pIbgda.us - bIbgda.us).toBeLessThan(((pMessages * ibgdaNs) / 1000) * 1.1);
    expect(pIbgda.us).toBeLessThan(pIbrc.us / 3);
    // put_nbi_block: two messages either way, the transports differ by their service times only
    expect(Math.abs(bIbrc.us - bIbgda.us)).toBeLessThan((blockMessages * ibrcNs) / 1000 + 0.1);
    // against the same run on one node, op by op on the timeline: barrier_all_on_stream pays one
    // dissemination round between the nodes (one network latency); the kernel ends when its halos are
    // acknowledged, a round trip after they leave: at least that, at most the NVLink kernel (its stencil
    // and posting) plus the two messages, the rows on the wire and the round trip
    const first = (r: Awaited<ReturnType<typeof run>>, kind: string): number => {
      const op = r.programs[0]?.timeline.ops.find((o) => o.kind === kind);
      return op ? op.endNs - op.startNs : NaN;
    };
    const latency = IBRC.smallPutLatencyNs as number;
    expect(first(bIbrc, 'nvshmem') - first(bNvlink, 'nvshmem')).toBeCloseTo(latency, 6);
    const network = blockMessages * ibrcNs + (2 * (NX - 2) * 4) / (IBRC.largePutBytesPerNs as number) + 2 * latency;
    expect(first(bIbrc, 'kernel')).toBeGreaterThan(2 * latency);
    expect(first(bIbrc, 'kernel')).toBeLessThan(first(bNvlink, 'kernel') + network);
    // the ordering seed 003 teaches
    expect(pIbrc.us).toBeGreaterThan(pIbgda.us);
    expect(pIbgda.us).toBeGreaterThanOrEqual(bIbgda.us);
  });

  it('the report names each PE\'s node, the transport, and its traffic per peer with the link it took', async () => {
    const { programs } = await run('p', 'ibrc');
    expect(programs.map((p) => [p.name, p.node, p.transport])).toEqual([
      ['jacobi_p (PE 0 of 2)', 0, 'ibrc'],
      ['jacobi_p (PE 1 of 2)', 1, 'ibrc'],
    ]);
    // 4 iterations x 2 rows x 254 floats to the other node
    expect(programs[0]?.traffic).toEqual([{ to: 1, kind: 'p', bytes: 4 * 2 * (NX - 2) * 4, ops: 4 * 2 * 8, link: 'ibrc' }]);
    const text = programs.flatMap((p) => programLines(p)).join('\n');
    expect(text).toContain('NVSHMEM traffic from this PE (node 1; IBRC: through a CPU proxy thread between nodes)');
    expect(text).toMatch(/To PE\s+Link\s+Operation/);
  });

  it('four PEs, two per node: neighbours on the node over NVLink, across nodes over IBGDA', async () => {
    const r = await profileFile({ file: FILE, kernel: 'jacobi_block', params, pes: 4, pesPerNode: 2, transport: 'ibgda', timing: false });
    const programs = r.programs ?? [];
    expect(programs.map((p) => p.node)).toEqual([0, 0, 1, 1]);
    for (const p of programs) expect(p.values.find((v) => v.name === 'max |difference| from the single-GPU reference')?.value).toBe(0);
    // PE 1's neighbours: PE 0 (its node) and PE 2 (the other)
    expect((programs[1]?.traffic ?? []).map((t) => [t.to, t.link])).toEqual([
      [0, 'nvlink'],
      [2, 'ibgda'],
    ]);
  });

  it('the layout: PE q on node floor(q / K); each PE\'s off-node peers; barrier rounds that cross nodes', () => {
    const n = networkFor(H200_NVLINK4, 4, { pesPerNode: 2, transport: 'ibgda' }, 'none');
    expect([0, 1, 2, 3].map((q) => n.nodeOf(q))).toEqual([0, 0, 1, 1]);
    expect([n.route(0, 1), n.route(1, 2), n.route(3, 0)]).toEqual(['nvlink', 'ibgda', 'ibgda']);
    expect(Array.from(n.linkOf(1)?.network?.offNode ?? [])).toEqual([0, 0, 1, 1]);
    expect(n.linkOf(1)?.network?.messageNs).toBeCloseTo(1e9 / 215e6, 9);
    // dissemination rounds d = 1 (PE 1 -> 2 crosses) and d = 2 (PE 0 -> 2 crosses): two network latencies
    expect(n.barrierExtraNs).toBe(2 * (IBGDA.smallPutLatencyNs as number));
    // four PEs on 4 nodes: both rounds cross; on one node: none, and no network link
    expect(networkFor(H200_NVLINK4, 4, { pesPerNode: 1, transport: 'ibrc' }, 'none').barrierExtraNs).toBe(2 * (IBRC.smallPutLatencyNs as number));
    const one = networkFor(H200_NVLINK4, 4, { pesPerNode: 4, transport: 'ibrc' }, 'none');
    expect([one.nodeCount, one.barrierExtraNs, one.linkOf(0)?.network]).toEqual([1, 0, undefined]);
  });

  it('a bad layout is a one-line error naming the flag', async () => {
    await expect(profileFile({ file: FILE, kernel: 'jacobi_p', params, pesPerNode: 0 })).rejects.toThrow(/--pes-per-node 0: PEs per node is a whole number/);
    await expect(profileFile({ file: FILE, kernel: 'jacobi_p', params, pesPerNode: 1, transport: 'ucx' })).rejects.toThrow(UserError);
    await expect(profileFile({ file: FILE, kernel: 'jacobi_p', params, pesPerNode: 1, shareGpu: 'mps' })).rejects.toThrow(/--share-gpu with --pes-per-node 1/);
  });
});

describe('a program that declares its nodes', () => {
  it('pesPerNode and transport in the program: each PE on its node, the put over IBGDA', async () => {
    const r = await profileFile({ file: 'test/fixtures/two_nodes.ts', kernel: 'two_nodes', timing: false });
    const programs = r.programs ?? [];
    expect(programs.map((p) => [p.node, p.transport, p.values[0]?.value])).toEqual([
      [0, 'ibgda', 101],
      [1, 'ibgda', 100],
    ]);
    expect(programs[0]?.traffic).toEqual([{ to: 1, kind: 'p', bytes: 4, ops: 1, link: 'ibgda' }]);
    // the flag wins over the program's field
    const flagged = await profileFile({ file: 'test/fixtures/two_nodes.ts', kernel: 'two_nodes', transport: 'ibrc', timing: false });
    expect(flagged.programs?.[0]?.transport).toBe('ibrc');
  });

  it("a transport NVSHMEM does not have is an error naming the program's file and field", async () => {
    await expect(profileFile({ file: 'test/fixtures/two_nodes.ts', kernel: 'two_nodes_bad', timing: false })).rejects.toThrow(/two_nodes\.ts: program 'two_nodes_bad': transport 'ucx' is not ibrc/);
  });
});
