/**
 * Timed visibility across PEs: the interpreter runs one PE's kernel until it waits, then another's, so
 * a remote store or atomic (NVSHMEM p, put, signal, atomic_inc) lands in the peer's memory when it is
 * interpreted, not when it arrives. For the locations such writes reach, a strong load on the peer
 * (a wait_until's poll, a volatile spin) reads the value the location held before the write until the
 * load's own time passes the write's arrival — the cross-PE counterpart of memoryModel.ts's
 * SyncVersions, on the system's clock (ns) since each PE's kernel counts cycles from its own start.
 * A waiting kernel thus waits as long as its writer takes to get there, and its modelled time says so.
 */

interface Arrival {
  /** the value before the write (what the peer's loads read until `atNs`) */
  old: number | bigint;
  /** when the write arrives at the peer's memory, system clock ns */
  atNs: number;
}

/** addresses kept before the oldest go (a flag or a signal per PE pair is the usual) */
const ADDRESSES_KEPT = 4096;
/** writes kept per address (a writer that runs ahead of its reader by a few rounds) */
const WRITES_KEPT = 8;

/** the latest remote writes to each address, shared by every PE of a program (one address space) */
export class RemoteArrivals {
  private readonly map = new Map<number, Arrival[]>();

  /** a remote write to `addr` that replaced `old` arrives at `atNs` */
  record(addr: number, old: number | bigint, atNs: number): void {
    let list = this.map.get(addr);
    if (list) this.map.delete(addr);
    else list = [];
    list.push({ old, atNs });
    if (list.length > WRITES_KEPT) list.shift();
    this.map.set(addr, list);
    if (this.map.size > ADDRESSES_KEPT) {
      const first = this.map.keys().next();
      if (!first.done) this.map.delete(first.value);
    }
  }

  /** when the latest write to `addr` that has arrived by `atNs` arrived (undefined: none known) */
  arrivedAt(addr: number, atNs: number): number | undefined {
    const list = this.map.get(addr);
    if (list === undefined) return undefined;
    let latest: number | undefined;
    for (const a of list) if (a.atNs <= atNs && (latest === undefined || a.atNs > latest)) latest = a.atNs;
    return latest;
  }

  /**
   * what a load reaching `addr` at `atNs` reads while a remote write there has not arrived: the value
   * before the earliest such write (writes are interpreted in their writer's order); else undefined
   * (memory's value)
   */
  read(addr: number, atNs: number): number | bigint | undefined {
    if (this.map.size === 0) return undefined;
    const list = this.map.get(addr);
    if (list === undefined) return undefined;
    let pending: Arrival | undefined;
    for (const a of list) if (atNs < a.atNs && (pending === undefined || a.atNs < pending.atNs)) pending = a;
    return pending?.old;
  }
}
