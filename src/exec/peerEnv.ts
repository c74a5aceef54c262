import type { RemoteLink } from '../arch/remoteLink.js';
import type { RemoteArrivals } from './remoteArrivals.js';

/**
 * What a kernel running on one PE (processing element: one emulated GPU of a multi-GPU program) sees
 * of the others, for NVSHMEM's device-initiated operations. All PEs' memories are one address space
 * (disjoint allocations), as peer heaps mapped over NVLink are: a remote put is a store to the peer's
 * copy of a symmetric object. The system layer (src/system) implements it; a kernel outside a
 * multi-PE program has none (an NVSHMEM operation there is an error).
 */
export interface PeerEnv {
  /** this PE's index and the number of PEs (nvshmem_my_pe / nvshmem_n_pes) */
  readonly myPe: number;
  readonly nPes: number;
  /**
   * the address on PE `pe` of the symmetric object that holds `address` (a symmetric address of the
   * calling PE) for `bytes` bytes; throws a located error when the address is not in the symmetric heap
   * or the range leaves its object, or `pe` is out of range
   */
  translate(address: number, bytes: number, pe: number, where: string | (() => string)): number;
  /** a remote operation's traffic, for the report's per-peer counts (kind: 'p', 'put', 'get', 'atomic', 'signal', ...) */
  traffic(kind: string, pe: number, bytes: number): void;
  /**
   * the kernel was launched with nvshmemx_collective_launch (all PEs' grids co-resident): device-side
   * collectives (barrier_all, sync_all) are valid only then. Absent: false.
   */
  readonly collective?: boolean;
  /**
   * the symmetric address of NVSHMEM's internal barrier area, zeroed at init: `nPes` 64-bit pSync
   * words (word j: the barrier count PE j signalled here) then this PE's 64-bit sync counter
   * (barriers completed). The device barrier's dissemination algorithm signals and waits on it
   * (src/ir/shmem.ts). Absent: device barriers fault.
   */
  readonly barrierArea?: number;
  /** what this PE's remote accesses cost (NVLink to its node's PEs, the network to other nodes'); absent: the arch's interconnect */
  readonly link?: RemoteLink;
  /**
   * the program's remote writes with their arrival times (remoteArrivals.ts), and the launch's start on
   * the system's clock (ns) that places this kernel's cycles on it: with both (and the timing model),
   * remote writes become visible to strong loads when they arrive. Absent: at once.
   */
  readonly arrivals?: RemoteArrivals;
  readonly startNs?: number;
}

/** bytes of the barrier area a PE needs (PeerEnv.barrierArea): nPes pSync words and the counter */
export function barrierAreaBytes(nPes: number): number {
  return 8 * (nPes + 1);
}

/** a site given as text or, by a kernel's lanes, as a function making it: the text is made only for an error (every remote access translates) */
export function siteText(site: string | (() => string)): string {
  return typeof site === 'string' ? site : site();
}
