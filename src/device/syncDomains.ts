/**
 * Memory synchronization domains (sm_90; CUDA Programming Guide §4.14, seed 000): every kernel launch
 * carries a physical domain (its launch attributes: memSyncDomain through memSyncDomainMap,
 * runtime/attributes.ts physicalDomain), its writes and fences are tagged with it, and a gpu- or
 * sys-scope fence orders (waits for) the writes in flight *of its own domain* only. This is the device's
 * record of those writes: per physical domain, the slow writes (remote NVLink stores: what the timing
 * model knows is long in flight) of every kernel that ran, placed in absolute simulated time by the
 * kernel's start, so that a fence of a later-run kernel at its absolute time waits for the ones still
 * in flight in its domain, and not for another domain's.
 *
 * Kernels run in the interpreter one at a time, at dispatch: a kernel sees the writes of the kernels
 * dispatched (interpreted) before it, not of those dispatched after it while it still runs; a program
 * that starts its communication kernel first, as NCCL's are, is modelled both ways round.
 *
 * Bounded memory: a launch's writes are kept as the latest acknowledgement per bin of issue time
 * (at most MAX_BINS bins; a longer launch takes wider bins), so a fence at T waits for the writes
 * issued before the end of T's bin: conservative by less than one bin (BIN_NS at first).
 */

/** the first bin width, ns: a few dozen cycles, well under a remote store's acknowledgement (~480 ns) */
const BIN_NS = 32;
/** bins a launch's log keeps at most (then bins double in width) */
const MAX_BINS = 4096;

/** one launch's slow writes, times relative to the launch's start (ns) */
export class SlowWriteLog {
  private binNs = BIN_NS;
  private acks = new Float64Array(64).fill(-Infinity);
  private used = 0;
  /** writes noted */
  count = 0;

  /** a write issued at `issueNs` acknowledged at `ackNs` (both from the launch's start) */
  note(issueNs: number, ackNs: number): void {
    this.count++;
    let b = Math.floor(Math.max(0, issueNs) / this.binNs);
    while (b >= MAX_BINS) {
      this.coarsen();
      b = Math.floor(Math.max(0, issueNs) / this.binNs);
    }
    if (b >= this.acks.length) {
      const grown = new Float64Array(Math.min(MAX_BINS, Math.max(b + 1, 2 * this.acks.length))).fill(-Infinity);
      grown.set(this.acks);
      this.acks = grown;
    }
    if (ackNs > (this.acks[b] as number)) this.acks[b] = ackNs;
    if (b + 1 > this.used) this.used = b + 1;
  }

  /** bins twice as wide: pairs merge (their latest acknowledgement) */
  private coarsen(): void {
    const half = Math.ceil(this.acks.length / 2);
    const next = new Float64Array(Math.max(64, half)).fill(-Infinity);
    for (let i = 0; i < this.used; i++) {
      const j = i >> 1;
      if ((this.acks[i] as number) > (next[j] as number)) next[j] = this.acks[i] as number;
    }
    this.acks = next;
    this.used = Math.ceil(this.used / 2);
    this.binNs *= 2;
  }

  /** the latest acknowledgement of the writes issued in each bin so far, and up to each bin (prefix maximum) */
  frozen(): { binNs: number; upTo: Float64Array; lastAckNs: number } {
    const upTo = new Float64Array(this.used);
    let m = -Infinity;
    for (let i = 0; i < this.used; i++) {
      if ((this.acks[i] as number) > m) m = this.acks[i] as number;
      upTo[i] = m;
    }
    return { binNs: this.binNs, upTo, lastAckNs: m };
  }
}

interface Placed {
  domain: number;
  startNs: number;
  binNs: number;
  /** absolute ns: the latest acknowledgement of the writes issued up to the end of each bin */
  upTo: Float64Array;
  lastAckNs: number;
}

/** what one launch is given: its domain, its start, and the other kernels' writes in flight in its domain */
export interface DomainLaunch {
  domain: number;
  startNs: number;
  /**
   * the latest acknowledgement (absolute ns) of the writes of earlier kernels in this domain issued
   * at or before `atNs`; -Infinity when none. Null when nothing of this domain is in flight after
   * the launch's start (the launch's timing then cannot depend on them)
   */
  inFlightNs: ((atNs: number) => number) | null;
}

/** one GPU's writes in flight per physical domain */
export class SyncDomains {
  private placed: Placed[] = [];
  constructor(readonly domainCount: number) {}

  /** a launch's slow writes, its blocks having started at `startNs` (absolute) */
  record(domain: number, startNs: number, log: SlowWriteLog): void {
    if (log.count === 0) return;
    const f = log.frozen();
    const upTo = new Float64Array(f.upTo.length);
    for (let i = 0; i < upTo.length; i++) upTo[i] = startNs + (f.upTo[i] as number);
    this.placed.push({ domain, startNs, binNs: f.binNs, upTo, lastAckNs: startNs + f.lastAckNs });
  }

  /** a launch of `domain` starting at `startNs`: its view of the writes in flight (clock time only grows: older ones go) */
  launch(domain: number, startNs: number): DomainLaunch {
    this.placed = this.placed.filter((p) => p.lastAckNs > startNs);
    const mine = this.placed.filter((p) => p.domain === domain);
    if (mine.length === 0) return { domain, startNs, inFlightNs: null };
    const inFlightNs = (atNs: number): number => {
      let m = -Infinity;
      for (const p of mine) {
        if (atNs < p.startNs) continue;
        const b = Math.min(p.upTo.length - 1, Math.floor((atNs - p.startNs) / p.binNs));
        const v = p.upTo[b] as number;
        if (v > m) m = v;
      }
      return m;
    };
    return { domain, startNs, inFlightNs };
  }
}
