/**
 * What a kernel's remote accesses (NVSHMEM's P2P path: stores, loads and atomics on a peer GPU's
 * memory) cost, as the timing model sees them (src/timing/model.ts TimingLaunch.remote), derived from
 * the interconnect's data (src/arch/interconnect.ts, measured on two H200s). The system layer hands the
 * PEs' link to each launch.
 */
import type { Interconnect, RemoteTransport } from './interconnect.js';

export interface RemoteLink {
  /** a remote load's (or fetching atomic's) latency from issue to data, ns */
  loadNs: number;
  /** from a remote store's (or non-fetching atomic's) issue until the peer has acknowledged it, ns: a quiet waits for it */
  storeAckNs: number;
  /** bytes per ns one SM's remote accesses move (its share of the link) */
  smBytesPerNs: number;
  /** bytes per ns the GPU's links carry to the peers, one direction */
  linkBytesPerNs: number;
  /** a system-scope fence (MEMBAR.SC.SYS: nvshmem_quiet / fence with nothing outstanding) in a multi-GPU job, ns */
  sysFenceNs: number;
  /** the shortest interval between one warp's remote stores (a thread's back-to-back nvshmem_int_p), ns */
  storeIssueNs: number;
  /** PEs on other nodes, reached over InfiniBand through NVSHMEM's remote transport; absent: every peer is on the node */
  network?: NetworkLink;
}

/**
 * The path to PEs on other nodes (src/arch/interconnect.ts RemoteTransport): every message passes one
 * serial server (IBRC: the CPU proxy thread; IBGDA: the NIC), then the wire. A message is a thread's
 * p, g, atomic or signal, or a whole group's put or get (NVSHMEM posts one work request per call).
 */
export interface NetworkLink {
  transport: RemoteTransport['id'];
  /** per PE: 1 when this PE reaches it over the network */
  offNode: Uint8Array;
  /** the serial server's time per message, ns */
  messageNs: number;
  /** the wire's data rate, bytes per ns */
  bytesPerNs: number;
  /** a message's one-way latency, ns: a put lands after it, and is acknowledged (what quiet waits for) after twice it */
  latencyNs: number;
}

/** how each RemoteLink figure follows from the interconnect's (the sources of those are in interconnect.ts) */
export const REMOTE_LINK_DERIVATION: Record<Exclude<keyof RemoteLink, 'network'>, string> = {
  loadNs: 'nvshmem.gRemoteNs: a dependent nvshmem_int_g of a line not read before (the translation, the load over the link)',
  storeAckNs: 'nvshmem.pQuietNs - nvshmem.quietNs: what a preceding nvshmem_int_p adds to the quiet that completes it',
  smBytesPerNs: 'nvshmem.put.block.bytesPerNsByCtas at 1 CTA: one SM\'s put rate (one CTA of 1024 threads per SM)',
  linkBytesPerNs: 'link.smWriteBytesPerNs: SM stores into the peer from a full grid (else link.nominalBytesPerNs)',
  sysFenceNs: 'nvshmem.quietNs: nvshmem_quiet with nothing outstanding (__threadfence_system over P2P)',
  storeIssueNs: 'nvshmem.pIssueNs: one thread issuing nvshmem_int_p back to back (no quiet)',
};

export const NETWORK_LINK_DERIVATION: Record<Exclude<keyof NetworkLink, 'transport' | 'offNode'>, string> = {
  messageNs: 'RemoteTransport.smallPutMessagesPerS: 1e9 / messages per second',
  bytesPerNs: 'RemoteTransport.largePutBytesPerNs (else link.nominalBytesPerNs)',
  latencyNs: 'RemoteTransport.smallPutLatencyNs',
};

/** the network part of a PE's link: null when the transport has no figures for it */
export function networkLinkOf(t: RemoteTransport, offNode: Uint8Array): NetworkLink | null {
  const rate = t.smallPutMessagesPerS;
  const bytes = t.largePutBytesPerNs ?? t.link.nominalBytesPerNs;
  if (rate === null || bytes === null || t.smallPutLatencyNs === null) return null;
  return { transport: t.id, offNode, messageNs: 1e9 / rate, bytesPerNs: bytes, latencyNs: t.smallPutLatencyNs };
}

/** the timing model's view of a link; null when NVSHMEM over it has no figures (interconnect.nvshmem null) */
export function remoteLinkOf(ic: Interconnect): RemoteLink | null {
  const nv = ic.nvshmem;
  if (!nv) return null;
  const oneCta = nv.put.block.bytesPerNsByCtas.find((c) => c.ctas === 1);
  const link = ic.link.smWriteBytesPerNs ?? ic.link.nominalBytesPerNs;
  if (!oneCta || link === null) return null;
  return {
    loadNs: nv.gRemoteNs,
    storeAckNs: nv.pQuietNs - nv.quietNs,
    smBytesPerNs: oneCta.bytesPerNs,
    linkBytesPerNs: link,
    sysFenceNs: nv.quietNs,
    storeIssueNs: nv.pIssueNs,
  };
}
