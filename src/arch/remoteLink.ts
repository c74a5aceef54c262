/**
 * What a kernel's remote accesses (NVSHMEM's P2P path: stores, loads and atomics on a peer GPU's
 * memory over NVLink) cost, as the timing model sees them. The system layer hands the figures of
 * the PEs' link to the launch (src/timing/model.ts TimingLaunch.remote); the interconnect's own
 * arch data (src/arch/interconnect.ts, when it lands) is where they should come from.
 */
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
  /** where each figure comes from */
  sources: Record<Exclude<keyof RemoteLink, 'sources'>, string>;
}

const PROBES = 'test/fidelity/probes/nvshmem/summary.md (two H200s, 18 NVLink 4 links, NVSHMEM 3.4.5, 2 runs x 7 samples; issue #43 item 8)';

/** two H200s over NVLink 4 (NV18), measured with NVSHMEM's P2P transport at SM clock 1980 MHz */
export const H200_NVLINK4: RemoteLink = {
  loadNs: 1011,
  storeAckNs: 478,
  smBytesPerNs: 45.05,
  linkBytesPerNs: 369.4,
  sysFenceNs: 689,
  sources: {
    loadNs: `[OBS] ${PROBES}: solo int_g_chase_new_lines(remote), a chain of nvshmem_int_g on 128-byte lines never read before, 1011 ns per load (357 ns on the PE's own memory)`,
    storeAckNs: `[OBS] ${PROBES}: solo int_p+quiet 1167 ns minus quiet_empty 689 ns: the quiet waits 478 ns for the p's acknowledgement`,
    smBytesPerNs: `[OBS] ${PROBES}: putmem_nbi_block with 1 CTA, fitted rate 45.05 GB/s (44.9 GB/s at 16 MiB); 8 CTAs reach 342 GB/s`,
    linkBytesPerNs: `[OBS] ${PROBES}: SM peer_write_0to1 (528 CTAs of float4 stores into the peer) 369.4 GB/s at 1 GiB; copy engines reach 395.8 GB/s`,
    sysFenceNs: `[OBS] ${PROBES}: solo quiet_empty 689 ns, fence_empty 694 ns per call (__threadfence_system with nothing outstanding)`,
  },
};
