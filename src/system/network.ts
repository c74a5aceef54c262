/**
 * PEs across nodes (issue #43 item 1): `pesPerNode` PEs share a node and talk over its NVLink; PEs on
 * different nodes talk over InfiniBand NDR through NVSHMEM's remote transport, IBRC (a CPU proxy thread
 * posts every message) or IBGDA (the GPU threads post to the NIC themselves; NVSHMEM_IB_ENABLE_IBGDA=1).
 * PE q is on node floor(q / pesPerNode), as `nvshmrun`/`mpirun` fill nodes in rank order. This module
 * says which link each pair of PEs takes, builds each PE's RemoteLink for the timing model, and the extra
 * cost the host-side barriers pay for their rounds that cross nodes.
 *
 * Not modelled (known gaps): the SASS of the transport path (a kernel's instruction counts are NVSHMEM's
 * P2P path's, where the real code branches to the proxy or IBGDA routine); the GPU thread's own cost of
 * writing a work request (IBGDA) or a ring-buffer entry (IBRC), not found, so only the serial server and
 * the wire cost time; the proxy ring's back-pressure (its 4 MiB channel buffer holds far more requests
 * than the kernels here post); a kernel ends when its last network message is acknowledged, where the
 * real kernel may end first and the next quiet or barrier waits (the iteration's time is the same).
 */
import { IBGDA, IBRC, type Interconnect, type RemoteTransport } from '../arch/interconnect.js';
import { networkLinkOf, remoteLinkOf, type NetworkLink, type RemoteLink } from '../arch/remoteLink.js';
import { UserError } from '../errors.js';

export type TransportId = RemoteTransport['id'];

export interface NodeLayout {
  /** PEs on one node; at least the PE count: all on one node */
  pesPerNode: number;
  /** NVSHMEM's remote transport between nodes */
  transport: TransportId;
  /** where pesPerNode came from, for errors: '--pes-per-node' or the program's field */
  source?: string;
}

export const SINGLE_NODE: NodeLayout = { pesPerNode: Infinity, transport: 'ibrc' };

const TRANSPORTS: Record<TransportId, RemoteTransport> = { ibrc: IBRC, ibgda: IBGDA };

/** NVSHMEM's default remote transport is IBRC; NVSHMEM_IB_ENABLE_IBGDA=1 selects IBGDA (../shared/reference/runtime-system.md 7.1) */
export function parseTransport(raw: string, where: string): TransportId {
  if (raw === 'ibrc' || raw === 'ibgda') return raw;
  throw new UserError(`${where}: transport '${raw}' is not ibrc (a CPU proxy thread, NVSHMEM's default) or ibgda (GPU-initiated, NVSHMEM_IB_ENABLE_IBGDA=1)`, 2);
}

export interface PeNetwork {
  /** nodes the PEs span */
  readonly nodeCount: number;
  nodeOf(pe: number): number;
  /** the link between two PEs */
  route(from: number, to: number): 'nvlink' | TransportId;
  /** what PE `pe`'s kernels' remote accesses cost (null: no NVSHMEM figures for the node's link) */
  linkOf(pe: number): RemoteLink | null;
  /** what a host-side barrier (host, on-stream) adds for its rounds between nodes, ns (0 on one node) */
  readonly barrierExtraNs: number;
  /** the report's fields for PE `pe`: its node and the transport (absent on one node) */
  describe(pe: number): { node?: number; transport?: TransportId };
}

/**
 * the PEs' nodes and links. A barrier over several nodes: NVSHMEM's dissemination barrier (radix 2,
 * ../shared/reference/runtime-system.md 7.2) runs ceil(log2 N) rounds, in round r each PE signals PE
 * (q + 2^r) mod N; a round in which some PE's partner is on another node waits for one network message
 * (the transport's one-way latency), on top of the NVLink barrier measured on two H200s.
 */
export function networkFor(ic: Interconnect, nPes: number, layout: NodeLayout, share: 'none' | 'mps' | 'timeslice'): PeNetwork {
  const per = layout.pesPerNode;
  if (per !== Infinity && (!Number.isInteger(per) || per < 1))
    throw new UserError(`${layout.source ?? '--pes-per-node'} ${per}: PEs per node is a whole number from 1 (each PE on a node of its own) to the PE count (all on one node)`, 2);
  const nodeCount = per === Infinity ? 1 : Math.ceil(nPes / per);
  if (nodeCount > 1 && share !== 'none') throw new UserError(`--share-gpu with ${layout.source ?? '--pes-per-node'} ${per}: PEs sharing one GPU are on one node; drop --pes-per-node or --share-gpu`, 2);
  const nodeOf = (pe: number): number => (nodeCount === 1 ? 0 : Math.floor(pe / per));
  const transport = TRANSPORTS[layout.transport];
  const base = remoteLinkOf(ic);
  const links = Array.from({ length: nPes }, (_, pe): RemoteLink | null => {
    if (!base || nodeCount === 1) return base;
    const offNode = new Uint8Array(nPes);
    for (let q = 0; q < nPes; q++) offNode[q] = nodeOf(q) !== nodeOf(pe) ? 1 : 0;
    const network: NetworkLink | null = networkLinkOf(transport, offNode);
    return network ? { ...base, network } : base;
  });
  let barrierExtraNs = 0;
  if (nodeCount > 1 && transport.smallPutLatencyNs !== null)
    for (let d = 1; d < nPes; d *= 2) {
      let crosses = false;
      for (let q = 0; q < nPes; q++) if (nodeOf(q) !== nodeOf((q + d) % nPes)) crosses = true;
      if (crosses) barrierExtraNs += transport.smallPutLatencyNs;
    }
  return {
    nodeCount,
    nodeOf,
    route: (from, to) => (nodeOf(from) === nodeOf(to) ? 'nvlink' : layout.transport),
    linkOf: (pe) => links[pe] ?? null,
    barrierExtraNs,
    describe: (pe) => (nodeCount === 1 ? {} : { node: nodeOf(pe), transport: layout.transport }),
  };
}
