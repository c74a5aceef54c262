/**
 * The links between GPUs, and what NVSHMEM costs over them, as plain data (issue #43): NVLink 4 between two
 * H200s (measured here on two lent machines) and H100s (the same link generation: cited figures, NVSHMEM
 * costs taken from the H200), PCIe Gen5 for comparison, and InfiniBand NDR with NVSHMEM's two ways of
 * driving it (a CPU proxy thread, IBRC; GPU-initiated, IBGDA). No behaviour lives here: the multi-PE
 * runtime reads these numbers. Every field has its source in the matching `*_SOURCES` record, keyed by its
 * dotted path. Times in nanoseconds, bandwidths in bytes per nanosecond (= GB/s), per direction unless the
 * name says bidirectional. `null`: no citable figure was found (the source says where we looked); never guessed.
 *
 * Tags as in src/arch/sources.ts: [OBS] our own measurement (test/fidelity/probes/nvshmem/: source, script,
 * raw output, RESULTS.md), [DOC] NVIDIA documentation, [MEAS] third-party measurement, [SRC] NVIDIA source,
 * [INFER] our reasoning.
 */

/** the link between two GPUs of one node, or a node's network port */
export interface LinkFigures {
  kind: 'nvlink4' | 'pcie5' | 'infiniband-ndr';
  /** links (NVLink) joining the two GPUs; lanes for PCIe; ports for InfiniBand */
  links: number | null;
  /** one link's signalling rate, per direction */
  perLinkBytesPerNs: number | null;
  /** the vendor's total per GPU (or port), per direction */
  nominalBytesPerNs: number | null;
  /** cudaMemcpyPeerAsync (copy engine) at large sizes, one direction */
  copyEngineBytesPerNs: number | null;
  /** both directions at once, the two directions summed */
  copyEngineBidirBytesPerNs: number | null;
  /** a grid of SM threads storing into / loading from the peer's memory (16-byte accesses, many CTAs) */
  smWriteBytesPerNs: number | null;
  smReadBytesPerNs: number | null;
  /** spacing of back-to-back small (8 B) peer copies on one stream: the copy's fixed cost */
  copyFixedNs: number | null;
  /** one thread's dependent loads from the peer's memory (volatile, so never an L1 hit) */
  loadLatencyNs: number | null;
}

/** a put bandwidth curve: time per (put + quiet) = fixedNs + bytes / bytesPerNs, by the CTAs issuing */
export interface PutCurve {
  /** the 8-byte put + quiet: the part that does not scale with size */
  fixedNs: number;
  /** least-squares rate over 32 KiB..16 MiB, by the number of CTAs (1024 threads each) sharing the bytes */
  bytesPerNsByCtas: readonly { ctas: number; bytesPerNs: number }[];
}

/** NVSHMEM over a P2P (NVLink) transport, one PE per GPU, 2 PEs */
export interface NvshmemP2pFigures {
  /** nvshmem_float_p seen by a peer spinning on the word: half the ping-pong round trip */
  pOneWayNs: number;
  /** nvshmemx_signal_op(SET) seen by nvshmem_signal_wait_until: half the round trip */
  signalOneWayNs: number;
  /** what nvshmem_T_wait_until adds per wait over a bare spin (its trailing __threadfence) */
  waitUntilExtraNs: number;
  /** one thread issuing nvshmem_int_p back to back (no quiet): the issue interval */
  pIssueNs: number;
  /** nvshmem_int_p then nvshmem_quiet, repeated */
  pQuietNs: number;
  /** nvshmem_quiet / nvshmem_fence with nothing outstanding (a system-scope fence on P2P) */
  quietNs: number;
  fenceNs: number;
  /** nvshmem_int_g of a line not read before: from the peer, and from the PE's own memory */
  gRemoteNs: number;
  gLocalNs: number;
  /** nvshmem_int_g of the same word again (served by a cache on the way) */
  gCachedNs: number;
  /** nvshmem_int_atomic_fetch_add on the peer, one thread, dependent */
  atomicFetchAddNs: number;
  put: {
    /** nvshmem_putmem by every thread of its own chunk */
    thread: PutCurve;
    /** nvshmemx_putmem_nbi_warp by every warp */
    warp: PutCurve;
    /** nvshmemx_putmem_nbi_block by every CTA */
    block: PutCurve;
    /** nvshmemx_putmem_on_stream (a cudaMemcpyAsync on the copy engine), back to back on one stream */
    onStream: { fixedNs: number; bytesPerNs: number };
  };
  sync: {
    /** back-to-back calls on one stream, both PEs, per call (GPU-side spacing, CUDA events) */
    barrierAllOnStreamNs: number;
    /**
     * barrier_all_on_stream when on-stream puts went before it since the stream's last barrier: it
     * completes them first (barrier_all is a quiet and a sync), which takes far longer than a barrier alone
     */
    barrierAllOnStreamAfterPutNs: number;
    syncAllOnStreamNs: number;
    quietOnStreamNs: number;
    /** nvshmem_barrier_all / nvshmem_sync_all called from the host, per call */
    barrierAllHostNs: number;
    syncAllHostNs: number;
    /** nvshmem_barrier_all by one thread inside a collectively launched kernel, per call */
    barrierAllDeviceNs: number;
    /** signal_op_on_stream then signal_wait_until_on_stream, ping-pong between the PEs: one round trip */
    signalOnStreamRoundTripNs: number;
    /** an empty kernel + barrier_all_on_stream per iteration (the Jacobi loop's skeleton) */
    kernelPlusBarrierOnStreamNs: number;
    /** host time per call (submit only) */
    hostSubmit: { barrierAllOnStreamNs: number; putmemOnStreamNs: number; quietOnStreamNs: number };
  };
}

export interface Interconnect {
  /** h200-nvlink4, h100-nvlink4, pcie5 */
  id: string;
  name: string;
  link: LinkFigures;
  /** null where NVSHMEM over this link was not measured and nothing citable was found */
  nvshmem: NvshmemP2pFigures | null;
}

/**
 * NVSHMEM's remote (inter-node) transports over InfiniBand. Every message (a thread's p/g/AMO/signal,
 * a group's put/get) passes one serial server before the wire: IBRC's CPU proxy thread, which takes
 * each request off the ring buffer the GPU threads wrote and posts it to the NIC; or, with IBGDA, the
 * NIC itself, the GPU threads having written the work requests and rung its doorbell.
 */
export interface RemoteTransport {
  id: 'ibrc' | 'ibgda';
  /** who builds the network work requests: a CPU proxy thread (IBRC) or the GPU threads (IBGDA) */
  initiator: 'cpu-proxy' | 'gpu';
  link: LinkFigures;
  /** small (8 B) puts per second one PE can sustain: the serial server's rate (proxy thread or NIC) */
  smallPutMessagesPerS: number | null;
  /** one small put's latency, issue to remote visibility (a quiet waits for twice this: the write and its acknowledgement) */
  smallPutLatencyNs: number | null;
  /** large puts' data rate on the wire, one direction */
  largePutBytesPerNs: number | null;
}

const PROBE = 'test/fidelity/probes/nvshmem';
const RAW = `${PROBE}/raw/run{1,2}`;
const SUM = `${PROBE}/summary.md (median of 14: 7 reps on each of two nvidia-h200-x2 machines; min..max there)`;
const SUM2 = `${PROBE}/summary.md (median of 7 reps, run 2 only)`;
const RTREF = '../shared/reference/runtime-system.md';

// ---------------------------------------------------------------------------------------------- H200 NVLink 4

export const H200_NVLINK4: Interconnect = {
  id: 'h200-nvlink4',
  name: 'NVIDIA H200 NVLink 4 (2 GPUs, NV18)',
  link: {
    kind: 'nvlink4',
    links: 18,
    perLinkBytesPerNs: 26.562,
    nominalBytesPerNs: 450,
    copyEngineBytesPerNs: 395.8,
    copyEngineBidirBytesPerNs: 780.5,
    smWriteBytesPerNs: 369.4,
    smReadBytesPerNs: 373.7,
    copyFixedNs: 1750,
    loadLatencyNs: 887.5,
  },
  nvshmem: {
    pOneWayNs: 754,
    signalOneWayNs: 778,
    waitUntilExtraNs: 510,
    pIssueNs: 128.3,
    pQuietNs: 1167,
    quietNs: 688.7,
    fenceNs: 694.3,
    gRemoteNs: 1011,
    gLocalNs: 357.1,
    gCachedNs: 113.4,
    atomicFetchAddNs: 991.1,
    put: {
      thread: {
        fixedNs: 1430,
        bytesPerNsByCtas: [
          { ctas: 1, bytesPerNs: 9.94 },
          { ctas: 8, bytesPerNs: 81.62 },
          { ctas: 32, bytesPerNs: 169.1 },
        ],
      },
      warp: {
        fixedNs: 1461,
        bytesPerNsByCtas: [
          { ctas: 1, bytesPerNs: 45.11 },
          { ctas: 8, bytesPerNs: 351.2 },
          { ctas: 32, bytesPerNs: 366.6 },
        ],
      },
      block: {
        fixedNs: 1690,
        bytesPerNsByCtas: [
          { ctas: 1, bytesPerNs: 45.05 },
          { ctas: 8, bytesPerNs: 342.1 },
          { ctas: 32, bytesPerNs: 360.6 },
        ],
      },
      onStream: { fixedNs: 2610, bytesPerNs: 375.3 },
    },
    sync: {
      barrierAllOnStreamNs: 5052,
      barrierAllOnStreamAfterPutNs: 10900,
      syncAllOnStreamNs: 5109,
      quietOnStreamNs: 91.95,
      barrierAllHostNs: 14010,
      syncAllHostNs: 13780,
      barrierAllDeviceNs: 2545,
      signalOnStreamRoundTripNs: 6922,
      kernelPlusBarrierOnStreamNs: 9906,
      hostSubmit: { barrierAllOnStreamNs: 5001, putmemOnStreamNs: 3290, quietOnStreamNs: 84.94 },
    },
  },
};

type Paths<T, P extends string = ''> = {
  [K in keyof T & string]-?: NonNullable<T[K]> extends number | string | readonly unknown[]
    ? `${P}${K}`
    : Paths<NonNullable<T[K]>, `${P}${K}.`>;
}[keyof T & string];

/** one source per leaf field of an interconnect (id and name excepted) */
export type InterconnectSources = Record<Exclude<Paths<Interconnect>, 'id' | 'name'>, string>;
export type RemoteTransportSources = Record<Exclude<Paths<RemoteTransport>, 'id' | 'initiator'>, string>;

export const H200_NVLINK4_SOURCES: InterconnectSources = {
  'link.kind': `[OBS] ${RAW}/env.txt: nvidia-smi topo -m shows GPU0-GPU1 "NV18" on both machines`,
  'link.links': `[OBS] ${RAW}/env.txt: NV18 and nvidia-smi nvlink -s lists links 0-17 per GPU`,
  'link.perLinkBytesPerNs': `[OBS] ${RAW}/env.txt: nvidia-smi nvlink -s "Link N: 26.562 GB/s" for all 18 links (18 x 26.562 = 478 GB/s raw per direction)`,
  'link.nominalBytesPerNs': `[DOC] ${RTREF} 8: H100/H200 NVLink 4 "900 GB/s bidirectional per GPU" (nvidia.com hopper-architecture page), i.e. 450 per direction`,
  'link.copyEngineBytesPerNs': `[OBS] ${SUM}: ce memcpyPeer_0to1 at 512 MiB 395.8 GB/s (1to0 395.8; 347.8 at 8 MiB, 270 at 2 MiB)`,
  'link.copyEngineBidirBytesPerNs': `[OBS] ${SUM}: ce memcpyPeer_bidir 2 x 512 MiB 780.5 GB/s summed (732.9 at 2 x 32 MiB)`,
  'link.smWriteBytesPerNs': `[OBS] ${SUM}: sm peer_write_0to1 (528 CTAs x 512 threads, float4 stores) at 1 GiB 369.4 GB/s (352.4 at 16 MiB)`,
  'link.smReadBytesPerNs': `[OBS] ${SUM}: sm peer_read_1to0 at 1 GiB 373.7 GB/s (348.2 at 16 MiB)`,
  'link.copyFixedNs': `[OBS] ${SUM}: back-to-back 8 B cudaMemcpyPeerAsync 1.75 us apart (1to0 1.80); the same order as a local D2D copy's 2 us (src/arch/runtimeCosts.ts)`,
  'link.loadLatencyNs': `[OBS] ${SUM}: lat peer_load_chain 887.5 ns per dependent volatile load from GPU 1 (local_load_chain 145 ns)`,
  'nvshmem.pOneWayNs': `[OBS] ${SUM}: pingpong_rtt float_p 1508 ns round trip (nvshmem_float_p, receiver spins on a volatile load), halved`,
  'nvshmem.signalOneWayNs': `[OBS] ${SUM}: pingpong_rtt signal_op 1555 ns (nvshmemx_signal_op SET + nvshmem_signal_wait_until GE), halved`,
  'nvshmem.waitUntilExtraNs': `[OBS] ${SUM}: pingpong_rtt int_p (nvshmem_int_p + nvshmem_int_wait_until) 2527 ns vs float_p's 1508: (2527 - 1508) / 2 per wait; ${RTREF} 7.2: wait_until ends with __threadfence(), signal_wait_until does not`,
  'nvshmem.pIssueNs': `[OBS] ${SUM}: solo int_p_issue 128.3 ns per nvshmem_int_p, one thread, 100000 back to back then one quiet`,
  'nvshmem.pQuietNs': `[OBS] ${SUM}: solo int_p+quiet 1167 ns per pair`,
  'nvshmem.quietNs': `[OBS] ${SUM}: solo quiet_empty 688.7 ns (P2P quiet = __threadfence_system, ${RTREF} 7.2)`,
  'nvshmem.fenceNs': `[OBS] ${SUM}: solo fence_empty 694.3 ns`,
  'nvshmem.gRemoteNs': `[OBS] ${SUM2}: solo int_g_chase_new_lines(remote) 1011 ns per dependent nvshmem_int_g, each to a 128-byte line not read before`,
  'nvshmem.gLocalNs': `[OBS] ${SUM2}: solo int_g_chase_new_lines(local) 357.1 ns (the same chase on the PE's own memory)`,
  'nvshmem.gCachedNs': `[OBS] ${SUM}: solo int_g_chain 113.4 ns: dependent nvshmem_int_g of one word again and again (a cache serves it; not the link's latency)`,
  'nvshmem.atomicFetchAddNs': `[OBS] ${SUM}: solo int_atomic_fetch_add 991.1 ns per dependent nvshmem_int_atomic_fetch_add on the peer`,
  'nvshmem.put.thread.fixedNs': `[OBS] ${PROBE}/summary.md "Fitted": putmem_thread 8 B + quiet 1430 ns (1 CTA; 1423 with 32)`,
  'nvshmem.put.thread.bytesPerNsByCtas': `[OBS] ${PROBE}/summary.md "Fitted": putmem_thread least squares over 32 KiB..16 MiB: 1 CTA 9.94, 8 CTAs 81.6, 32 CTAs 169.1 GB/s (16 MiB medians 9.92 / 80.7 / 163)`,
  'nvshmem.put.warp.fixedNs': `[OBS] ${PROBE}/summary.md "Fitted": putmem_nbi_warp 8 B + quiet 1461 ns`,
  'nvshmem.put.warp.bytesPerNsByCtas': `[OBS] ${PROBE}/summary.md "Fitted": putmem_nbi_warp 1 / 8 / 32 CTAs 45.1 / 351 / 367 GB/s (16 MiB medians 44.9 / 331 / 347)`,
  'nvshmem.put.block.fixedNs': `[OBS] ${PROBE}/summary.md "Fitted": putmem_nbi_block 8 B + quiet 1690 ns (two __syncthreads of 1024 threads around the quiet)`,
  'nvshmem.put.block.bytesPerNsByCtas': `[OBS] ${PROBE}/summary.md "Fitted": putmem_nbi_block 1 / 8 / 32 CTAs 45.1 / 342 / 361 GB/s (16 MiB medians 44.9 / 331 / 348); 132 CTAs left out (chunks not 16-B aligned: 278 GB/s)`,
  'nvshmem.put.onStream.fixedNs': `[OBS] ${PROBE}/summary.md "Fitted": putmem_on_stream 8 B 2610 ns apart on the GPU, bounded by the host's submit rate (host_submit:putmem_on_stream 3290 ns/call)`,
  'nvshmem.put.onStream.bytesPerNs': `[OBS] ${PROBE}/summary.md "Fitted": putmem_on_stream 375.3 GB/s (357 at 16 MiB): the copy engine, as ${RTREF} 7.3 says (cudaMemcpyAsync)`,
  'nvshmem.sync.barrierAllOnStreamAfterPutNs': `[OBS] ${PROBE}/raw/hostseq/bench.csv (RESULTS.md, 7 reps of 1000 iterations on two H200s): an empty kernel, putmem_on_stream of 8 KB and barrier_all_on_stream take 16.5 us per iteration against 5.6 without the barrier (10.9 us for the barrier); two puts and the barrier 15.9 against 3.4 for the puts (12.4); kernel + two puts + barrier 17.6 (10.3); a barrier after a kernel alone ~3.3`,
  'nvshmem.sync.barrierAllOnStreamNs': `[OBS] ${SUM}: sync barrier_all_on_stream(events) 5052 ns per call back to back; the host submits one per 5001 ns (hostSubmit), so this is an upper bound on the GPU's cost`,
  'nvshmem.sync.syncAllOnStreamNs': `[OBS] ${SUM}: sync sync_all_on_stream(events) 5109 ns per call (host-submit bound as above)`,
  'nvshmem.sync.quietOnStreamNs': `[OBS] ${SUM}: sync quiet_on_stream(events) 91.95 ns per call with nothing outstanding (host submit 84.9 ns: nothing is enqueued on a P2P-only job, our inference)`,
  'nvshmem.sync.barrierAllHostNs': `[OBS] ${SUM}: sync barrier_all(host) 14.01 us per call`,
  'nvshmem.sync.syncAllHostNs': `[OBS] ${SUM}: sync sync_all(host) 13.78 us per call`,
  'nvshmem.sync.barrierAllDeviceNs': `[OBS] ${SUM}: sync device_barrier_all(1 thread) 2545 ns per nvshmem_barrier_all in a kernel launched by nvshmemx_collective_launch (<<<1,1>>>)`,
  'nvshmem.sync.signalOnStreamRoundTripNs': `[OBS] ${SUM}: sync signal_on_stream_rtt(events) 6922 ns per round trip (signal_op_on_stream + signal_wait_until_on_stream on each PE)`,
  'nvshmem.sync.kernelPlusBarrierOnStreamNs': `[OBS] ${SUM}: sync empty_kernel+barrier_all_on_stream(events) 9906 ns per iteration (an empty kernel alone: 4696, host-launch bound)`,
  'nvshmem.sync.hostSubmit.barrierAllOnStreamNs': `[OBS] ${SUM2}: host_submit:barrier_all_on_stream 5001 ns/call`,
  'nvshmem.sync.hostSubmit.putmemOnStreamNs': `[OBS] ${SUM2}: host_submit:putmem_on_stream(8B) 3290 ns/call`,
  'nvshmem.sync.hostSubmit.quietOnStreamNs': `[OBS] ${SUM2}: host_submit:quiet_on_stream 84.94 ns/call`,
};

// ---------------------------------------------------------------------------------------------- H100 NVLink 4

/** the H100 has the same NVLink 4 (18 links, 900 GB/s): the link's cited figures are the H100's own, the
 * NVSHMEM costs are the H200's (same SM clock and link; not measured on an H100) */
export const H100_NVLINK4: Interconnect = {
  id: 'h100-nvlink4',
  name: 'NVIDIA H100 SXM NVLink 4',
  link: {
    kind: 'nvlink4',
    links: 18,
    perLinkBytesPerNs: 25,
    nominalBytesPerNs: 450,
    copyEngineBytesPerNs: 374,
    copyEngineBidirBytesPerNs: 756,
    smWriteBytesPerNs: null,
    smReadBytesPerNs: null,
    copyFixedNs: null,
    loadLatencyNs: null,
  },
  nvshmem: H200_NVLINK4.nvshmem,
};

const H200_NV = (path: string): string => `[INFER] the H200's figure (same NVLink 4, same SM clock); not measured on an H100: ${H200_NVLINK4_SOURCES[path as keyof InterconnectSources]}`;

export const H100_NVLINK4_SOURCES: InterconnectSources = {
  ...(Object.fromEntries(Object.keys(H200_NVLINK4_SOURCES).map((k) => [k, H200_NV(k)])) as InterconnectSources),
  'link.kind': `[DOC] ${RTREF} 8: H100 NVLink 4`,
  'link.links': `[MEAS] ${RTREF} 8: H100 18 links (hwloc issue 574); nvidia-smi topo NV18 on an 8-GPU node (ucx-py issue 1088)`,
  'link.perLinkBytesPerNs': `[MEAS] ${RTREF} 8: NVLink v3/v4 sub-link 25 GB/s per direction (hwloc maintainer's reading, hwloc issue 574); the H200 reports 26.562 raw`,
  'link.nominalBytesPerNs': `[DOC] ${RTREF} 8: 900 GB/s bidirectional per GPU, i.e. 450 per direction`,
  'link.copyEngineBytesPerNs': `[MEAS] ${RTREF} 8: p2pBandwidthLatencyTest on an 8-GPU H100 SXM HGX, unidirectional P2P writes ~371-377 GB/s (nccl issue 1264); midpoint`,
  'link.copyEngineBidirBytesPerNs': `[MEAS] ${RTREF} 8: same test, bidirectional 739-773 GB/s; midpoint`,
  'link.smWriteBytesPerNs': 'not found: no published SM-driven peer-store bandwidth for the H100 (the H200 measured 369.4)',
  'link.smReadBytesPerNs': 'not found (the H200 measured 373.7)',
  'link.copyFixedNs': 'not found (the H200 measured 1750)',
  'link.loadLatencyNs': 'not found (the H200 measured 887.5)',
};

// ---------------------------------------------------------------------------------------------- PCIe Gen5

/** two GPUs on PCIe Gen5 x16 (no NVLink), for comparison; NVSHMEM over it not measured nor found */
export const PCIE5_X16: Interconnect = {
  id: 'pcie5',
  name: 'PCIe Gen5 x16',
  link: {
    kind: 'pcie5',
    links: 16,
    perLinkBytesPerNs: 4,
    nominalBytesPerNs: 64,
    copyEngineBytesPerNs: 55.5,
    copyEngineBidirBytesPerNs: null,
    smWriteBytesPerNs: null,
    smReadBytesPerNs: null,
    copyFixedNs: 2600,
    loadLatencyNs: null,
  },
  nvshmem: null,
};

export const PCIE5_X16_SOURCES: InterconnectSources = {
  'link.kind': `[OBS] ${RAW}/env.txt: the H200s' host link reads pcie.link.gen.current 5, width 16`,
  'link.links': `[OBS] ${RAW}/env.txt: pcie.link.width.current 16 lanes`,
  'link.perLinkBytesPerNs': `[MEAS] ${RTREF} 8: "per lane 4 GB/s" (ai-infra-index networking-interconnects page)`,
  'link.nominalBytesPerNs': `[MEAS] ${RTREF} 8: "x16 Bandwidth 64 GB/s" per direction (ai-infra-index), "theoretical maximum of 128 GB/s" both directions (scaleway docs PR 5834); NVIDIA: NVLink 4's 900 GB/s is "over 7X" PCIe Gen5`,
  'link.copyEngineBytesPerNs': '[OBS] test/fidelity/probes/runtime_probe_h200.txt: pinned host-to-device copy on an H200 over PCIe Gen5 x16, 55.5 GB/s at 256 MiB (GPU-to-GPU over PCIe not measured; the host link is the same generation and width)',
  'link.copyEngineBidirBytesPerNs': 'not found: no cited bidirectional Gen5 GPU-to-GPU figure',
  'link.smWriteBytesPerNs': 'not found',
  'link.smReadBytesPerNs': 'not found',
  'link.copyFixedNs': '[OBS] src/arch/runtimeCosts.ts copy.h2dLatencyNs: pinned H2D copies queued back to back 2.6 us each + bytes / 55 GB/s (host link, not GPU-to-GPU)',
  'link.loadLatencyNs': 'not found: no cited PCIe peer load latency for Hopper',
  ...(Object.fromEntries(Object.keys(H200_NVLINK4_SOURCES).filter((k) => k.startsWith('nvshmem.')).map((k) => [k, 'not found: NVSHMEM over PCIe P2P not measured; no published figure (nvshmem: null)'])) as Record<string, string>),
} as InterconnectSources;

// ---------------------------------------------------------------------------------------------- InfiniBand

const NDR: LinkFigures = {
  kind: 'infiniband-ndr',
  links: 1,
  perLinkBytesPerNs: 50,
  nominalBytesPerNs: 50,
  copyEngineBytesPerNs: null,
  copyEngineBidirBytesPerNs: null,
  smWriteBytesPerNs: null,
  smReadBytesPerNs: null,
  copyFixedNs: null,
  loadLatencyNs: null,
};

const NDR_SOURCES = {
  'link.kind': `[MEAS] ${RTREF} 8: InfiniBand NDR, ConnectX-7`,
  'link.links': '[INFER] one port per PE (one NIC per GPU, as on DGX/HGX H100 nodes); not a measurement',
  'link.perLinkBytesPerNs': `[MEAS] ${RTREF} 8: NDR 400 Gb/s per port (ai-infra-index) = 50 GB/s per direction`,
  'link.nominalBytesPerNs': `[MEAS] ${RTREF} 8: 400 Gb/s per port = 50 GB/s`,
  'link.copyEngineBytesPerNs': 'not found (no network measured here)',
  'link.copyEngineBidirBytesPerNs': 'not found',
  'link.smWriteBytesPerNs': 'not found',
  'link.smReadBytesPerNs': 'not found',
  'link.copyFixedNs': 'not found',
  'link.loadLatencyNs': 'not found',
} as const;

const GIN = 'NVIDIA (Hamidouche et al.), "GPU-Initiated Networking for NCCL", arXiv:2511.15076, as its summaries quote it (emergentmind.com/papers/2511.15076, rajatbisht.net/paper_summaries/detailed_summary/0016_GPU_Initiated_net_NCCL.html; the paper itself not read): "16.7 us round-trip latency for small messages" with the GPU-initiated GDAKI backend on H100s, "closely matching NVSHMEM"';

/**
 * The two remote transports over NDR. IBGDA's message rate is the NIC's; IBRC's is one CPU thread
 * posting a verbs work request per message. Both latencies are the GPU-initiated round trip NVIDIA
 * published, halved (none published for IBRC: taken equal, see its source).
 */
export const IBRC: RemoteTransport = { id: 'ibrc', initiator: 'cpu-proxy', link: NDR, smallPutMessagesPerS: 5.677e6, smallPutLatencyNs: 8350, largePutBytesPerNs: 50 };
export const IBGDA: RemoteTransport = { id: 'ibgda', initiator: 'gpu', link: NDR, smallPutMessagesPerS: 215e6, smallPutLatencyNs: 8350, largePutBytesPerNs: 50 };

const LARGE = `[MEAS] deepseek-ai/DeepEP docs/legacy.md (commit dd758ca): H800 with one ConnectX-7 400 Gb/s NIC each ("~50 GB/s maximum bandwidth"), internode dispatch/combine bottleneck bandwidth 43-58 GB/s (16-64 ranks); its internode "normal" kernels send large chunks through IBRC (DeepEP issue 64: "the network transmission chunks are relatively large. Even with the use of IBRC, performance is sufficient"): large messages reach the port's 50 GB/s whatever the transport; the port's figure is used`;

export const IBRC_SOURCES: RemoteTransportSources = {
  ...NDR_SOURCES,
  smallPutMessagesPerS: `not found for NVSHMEM's proxy as a number (${RTREF} 7.4, 12); [INFER] derived: the proxy is one CPU thread that takes each request off the GPU's ring buffer and posts one verbs work request per message ([NV] SEED-003 "Reverse offloads network transfers from GPU to the CPU", "Ring buffer implementation"), so it sustains at most one CPU thread's post rate: [MEAS] 5.677 M messages/s, ib_send_bw by one thread (github.com/linux-rdma/perftest/issues/65, "MsgRate[Mpps] 5.677340" at 1024 B). An upper bound: the proxy also polls the ring and reaps completions`,
  smallPutLatencyNs: `not found for IBRC; [INFER] taken equal to IBGDA's (${GIN}, halved): the proxy's extra PCIe crossing (the request to host memory) and the GPU's slower WQE building under IBGDA (NVSHMEM performance guide, ${RTREF} 7.4) are both unquantified`,
  largePutBytesPerNs: LARGE,
};
export const IBGDA_SOURCES: RemoteTransportSources = {
  ...NDR_SOURCES,
  smallPutMessagesPerS: `[DOC] ConnectX-6 EN product brief (studylib.net/doc/25573930/pb-connectx-6-en-card): "215 million messages per second"; ConnectX-7's own figure not found (its "up to 330-370 million" was searched and not found in the stored pages); the older NIC's rate stands for the NIC's (a lower bound for CX-7). [NV] SEED-003: "With IBGDA NVSHMEM can achieve peak network message rates"; [DOC] ${RTREF} 7.4: "increased message rate for small messages"`,
  smallPutLatencyNs: `[MEAS] ${GIN}: 16.7 us round trip, halved; [DOC] ${RTREF} 7.4: a GPU thread fills a WQE slower than a CPU, so per-message latency is higher than the CPU's`,
  largePutBytesPerNs: LARGE,
};

/** every interconnect with its sources, by id */
export const INTERCONNECTS: readonly { data: Interconnect; sources: InterconnectSources }[] = [
  { data: H100_NVLINK4, sources: H100_NVLINK4_SOURCES },
  { data: H200_NVLINK4, sources: H200_NVLINK4_SOURCES },
  { data: PCIE5_X16, sources: PCIE5_X16_SOURCES },
];

export const REMOTE_TRANSPORTS: readonly { data: RemoteTransport; sources: RemoteTransportSources }[] = [
  { data: IBGDA, sources: IBGDA_SOURCES },
  { data: IBRC, sources: IBRC_SOURCES },
];
