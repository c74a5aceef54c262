/**
 * The timing model's network path (RemoteLink.network, src/timing/model.ts) on the loopback 2-PE with PE 1
 * on another node: messages pass the transport's serial server one after another, then the wire, and
 * the kernel ends when the last is acknowledged (a round trip after it left). Expected times derived by
 * hand from the arch data: IBRC's proxy thread (5.677 M messages/s), IBGDA's NIC (215 M/s), 8.35 us one way.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defineKernel, f32, i32, ptr } from '../../src/api.js';
import { getArch } from '../../src/arch/index.js';
import { H200_NVLINK4, IBGDA, IBRC, type RemoteTransport } from '../../src/arch/interconnect.js';
import { networkLinkOf, remoteLinkOf, type RemoteLink } from '../../src/arch/remoteLink.js';
import type { DevicePtr } from '../../src/memory/deviceMemory.js';
import { Loopback } from './loopback.js';

const FILE = fileURLToPath(import.meta.url);
const N = 256;

function linkFor(t: RemoteTransport): RemoteLink {
  const base = remoteLinkOf(H200_NVLINK4);
  const network = networkLinkOf(t, Uint8Array.from([0, 1]));
  if (!base || !network) throw new Error('figures');
  return { ...base, network };
}

/** 32 threads each send N / 32 floats to PE 1: by float_p (one message each) or by one put_nbi_block (one message) */
function time(mode: 'p' | 'block', link: RemoteLink): number {
  const lb = new Loopback();
  const dest = lb.symmetric(f32, N, 'dest');
  const src = lb.host.alloc(f32, N, 'src', (i) => i + 0.5);
  const k = defineKernel({
    name: `send_${mode}`,
    params: { dest: ptr('global', f32), src: ptr('global', f32) },
    launch: { grid: 1, block: 32 },
    setup: () => ({}),
    body: (k, { dest, src }) => {
      if (mode === 'p') k.for(k.threadIdx.x.cast(i32), N, 32, (i) => k.shmem.p(dest.add(i), src.at(i).get(), 1));
      else k.shmem.put_nbi_block(dest, src, N, 1);
      k.shmem.quiet();
    },
  });
  const r = lb.run(k, FILE, { dest: dest.copies[0] as DevicePtr, src }, [1, 1, 1], [32, 1, 1], { link });
  for (const i of [0, 77, N - 1]) expect(lb.host.readNumber(dest.copies[1] as DevicePtr, f32, i)).toBe(i + 0.5);
  return (r.metrics?.['gpu__time_duration.sum'] as number) - getArch('h200').launchOverheadNs;
}

describe('remote accesses to another node: message rate, wire, round trip', () => {
  const rtt = 2 * (IBRC.smallPutLatencyNs as number);
  const nvlink = remoteLinkOf(H200_NVLINK4) as RemoteLink;
  it('float_p of 256 floats through IBRC: 256 proxy messages one after another, then the round trip', () => {
    // the proxy is the bottleneck: the warp's own work (loads, stores, the quiet's fence) hides behind it
    const expected = N * (1e9 / (IBRC.smallPutMessagesPerS as number)) + rtt;
    const t = time('p', linkFor(IBRC));
    expect(t).toBeGreaterThan(expected * 0.97);
    expect(t).toBeLessThan(expected * 1.05);
  });
  it('the same through IBGDA: the NIC takes 256 messages in 1.2 us; the round trip dominates', () => {
    // at least the NIC's 256 messages and the round trip; at most that plus all the warp does over NVLink
    const network = N * (1e9 / (IBGDA.smallPutMessagesPerS as number)) + rtt;
    const t = time('p', linkFor(IBGDA));
    expect(t).toBeGreaterThan(network);
    expect(t).toBeLessThan(network + time('p', nvlink));
    expect(t).toBeLessThan(time('p', linkFor(IBRC)) / 3);
  });
  it('one put_nbi_block of the same 1 KiB: one message through either transport, bytes at 50 GB/s', () => {
    for (const tr of [IBRC, IBGDA]) {
      const network = 1e9 / (tr.smallPutMessagesPerS as number) + (N * 4) / (tr.largePutBytesPerNs as number) + rtt;
      const t = time('block', linkFor(tr));
      expect(t).toBeGreaterThan(network);
      expect(t).toBeLessThan(network + time('block', nvlink));
    }
  });
});
