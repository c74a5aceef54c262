/**
 * NVSHMEM's host API for one PE of a multi-PE program (ctx.shmem): the symmetric heap, the host
 * barrier, and the on-stream operations, which are stream work the system runs (runtime work kind
 * 'system'): they block their stream until done, and may wait for other PEs (seed 001: "a stream-based
 * nonlocal operation ... blocks the CUDA stream until it has completed"). Costs from the interconnect
 * arch data (src/arch/interconnect.ts, measured on two H200s).
 */
import { HostFault } from '../errors.js';
import type { DevicePtr } from '../memory/deviceMemory.js';
import type { ArgVals, KernelDef, LaunchConfig, LaunchOpts, ParamTypes } from '../kernel/define.js';
import type { OpHandle, Runtime } from '../runtime/runtime.js';
import { type CopyEnd, HostBuffer } from '../runtime/types.js';
import type { StreamHandle } from '../runtime/types.js';
import { copyBytes } from '../runtime/copyData.js';
import type { PeSystem } from './system.js';

export type SignalOp = 'set' | 'add';
/** NVSHMEM_CMP_* */
export type Comparator = 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le';

const COMPARE: Record<Comparator, (a: bigint, b: bigint) => boolean> = {
  eq: (a, b) => a === b,
  ne: (a, b) => a !== b,
  gt: (a, b) => a > b,
  ge: (a, b) => a >= b,
  lt: (a, b) => a < b,
  le: (a, b) => a <= b,
};
const CMP_TEXT: Record<Comparator, string> = { eq: '==', ne: '!=', gt: '>', ge: '>=', lt: '<', le: '<=' };

export interface ShmemContext {
  myPe(): number;
  nPes(): number;
  /** nvshmem_malloc: collective; every PE must make the same calls in the same order */
  malloc(bytes: number, name?: string): DevicePtr;
  /** nvshmem_free */
  free(p: DevicePtr): void;
  /** nvshmem_barrier_all from the host: every PE arrives, then all go on (await it) */
  barrierAll(): Promise<void>;
  putmemOnStream(dest: DevicePtr, src: DevicePtr, bytes: number, pe: number, stream?: StreamHandle): void;
  getmemOnStream(dest: DevicePtr, src: DevicePtr, bytes: number, pe: number, stream?: StreamHandle): void;
  /** putmem, then the signal word on the peer set or added to (nvshmemx_putmem_signal_on_stream) */
  putmemSignalOnStream(dest: DevicePtr, src: DevicePtr, bytes: number, sig: DevicePtr, value: number, op: SignalOp, pe: number, stream?: StreamHandle): void;
  /** the stream waits until the local signal word compares true (nvshmemx_signal_wait_until_on_stream) */
  signalWaitUntilOnStream(sig: DevicePtr, cmp: Comparator, value: number, stream?: StreamHandle): void;
  barrierAllOnStream(stream?: StreamHandle): void;
  syncAllOnStream(stream?: StreamHandle): void;
  quietOnStream(stream?: StreamHandle): void;
  /**
   * nvshmemx_collective_launch: the kernel on this PE, every block co-resident (an error when the grid
   * cannot be: cudaErrorCooperativeLaunchTooLarge), as the device-side barrier and waits need
   */
  collectiveLaunch<P extends ParamTypes>(def: KernelDef<P>, args: Partial<ArgVals<P>>, config?: Partial<LaunchConfig>, opts?: LaunchOpts): void;
}

/** an on-stream collective this PE enqueued (the team-overlap hazard) */
interface OnStreamCollective {
  op: OpHandle;
  name: string;
  where: string;
}

/** a cudaMemcpy/cudaMemset into this PE's symmetric memory (the implicit-asynchrony hazard) */
interface SyncCopy {
  api: string;
  where: string;
  from: number;
  to: number;
  /** the host's explicit synchronizes when it was made */
  syncs: number;
}

export class ShmemHost implements ShmemContext {
  private barriers = 0;
  /** on-stream barriers started, and enqueued (the deadlock explanation pairs the k-th of each PE) */
  private streamBarriers = 0;
  private enqueuedBarriers = 0;
  private readonly collectives: OnStreamCollective[] = [];
  private syncCopies: SyncCopy[] = [];
  /** streams (null: the default) whose on-stream puts ran since their last barrier_all_on_stream, which completes them */
  private readonly putsInFlight = new Set<StreamHandle | null>();

  constructor(
    private readonly sys: PeSystem,
    private readonly pe: number,
    private readonly rt: Runtime,
    private readonly site: () => string,
    private readonly launch: (def: KernelDef, args: Partial<ArgVals<ParamTypes>>, config: Partial<LaunchConfig> | undefined, opts: LaunchOpts) => void,
  ) {}

  collectiveLaunch<P extends ParamTypes>(def: KernelDef<P>, args: Partial<ArgVals<P>>, config?: Partial<LaunchConfig>, opts?: LaunchOpts): void {
    const where = this.site();
    for (const v of Object.values(args)) if (v && typeof v === 'object' && 'address' in v) this.reads(`nvshmemx_collective_launch of '${def.name}'`, where, (v as DevicePtr).address, (v as DevicePtr).allocation.bytes);
    this.launch(def as unknown as KernelDef, args as Partial<ArgVals<ParamTypes>>, config, { ...opts, attributes: { ...opts?.attributes, cooperative: true } });
  }

  myPe(): number {
    return this.pe;
  }
  nPes(): number {
    return this.sys.nPes;
  }

  malloc(bytes: number, name?: string): DevicePtr {
    const where = this.site();
    this.hostCollective('nvshmem_malloc', where);
    return this.sys.heap.malloc(this.pe, bytes, name ?? `nvshmem_malloc (${where})`, where, (b, n) => this.sys.mem.alloc(b, n));
  }

  free(p: DevicePtr): void {
    this.hostCollective('nvshmem_free', this.site());
    this.sys.heap.free(this.pe, p, this.site(), (q) => this.sys.mem.free(q.allocation));
  }

  barrierAll(): Promise<void> {
    const where = this.site();
    this.hostCollective('nvshmem_barrier_all', where);
    const gen = this.barriers++;
    return this.sys.hostBarrier(this.pe, gen, where);
  }

  private on(stream: StreamHandle | undefined, name: string, where: string, start: (t: number, done: (end: number) => void) => void, waiting: () => string | null, meta: OnStreamMeta = {}): OpHandle | null {
    const op = this.rt.submitSystem(stream, { kind: 'system', name, start, waiting }, where);
    this.sys.noteOnStream(this.pe, { name, where, stream, ...meta });
    return op;
  }

  // ---- hazards the seed names (reported as findings, with both lines and the seed's fix) ----

  /** a host collective on NVSHMEM_TEAM_WORLD while an on-stream collective the host has not waited for may run */
  private hostCollective(name: string, where: string): void {
    // what the host has waited for stays ordered before everything it does later: no longer kept
    this.dropCollectives((c) => this.rt.hostOrdered(c.op));
    for (const c of this.collectives) {
      this.sys.hazard(this.pe, 'NvshmemCollectiveOverlap', `${where}: ${name} (a collective on NVSHMEM_TEAM_WORLD) may run while ${c.name} (${c.where}) runs on its stream: collectives of one team must not run in parallel; synchronize that stream before the host collective (seed 001, "on-stream operations have thread-like semantics")`);
    }
  }

  /** an on-stream collective that no CUDA dependence orders after an earlier one on another stream */
  private streamCollective(op: OpHandle, name: string, where: string): void {
    const ordered = new Set<OnStreamCollective>();
    for (const c of this.collectives) {
      if (this.rt.dependsOn(op, c.op) || this.rt.hostOrdered(c.op)) {
        ordered.add(c);
        continue;
      }
      this.sys.hazard(this.pe, 'NvshmemCollectiveOverlap', `${where}: ${name} and ${c.name} (${c.where}) use the same team on two streams with no ordering between them, so they may run in parallel; make one stream wait for the other (an event) or use one stream (seed 001, "on-stream operations have thread-like semantics")`);
    }
    // a collective this one is ordered after is ordered before whatever is ordered after this one: this
    // one stands for it (a stream's barrier per iteration keeps one entry, not one per iteration); a
    // later collective unordered with both is reported once, with this one
    this.dropCollectives((c) => ordered.has(c));
    this.collectives.push({ op, name, where });
  }

  private dropCollectives(drop: (c: OnStreamCollective) => boolean): void {
    for (let i = this.collectives.length - 1; i >= 0; i--) if (drop(this.collectives[i] as OnStreamCollective)) this.collectives.splice(i, 1);
  }

  /** cudaMemcpy / cudaMemset into symmetric memory: noted, for the NVSHMEM operation that reads it next */
  noteSyncCopy(dst: CopyEnd, bytes: number, where: string, api: string): void {
    if (dst instanceof HostBuffer || !this.sys.heap.isSymmetric(this.pe, dst.address, bytes)) return;
    this.syncCopies.push({ api, where, from: dst.address, to: dst.address + bytes, syncs: this.rt.explicitSyncs });
  }

  /** an NVSHMEM operation reads [address, address + bytes): after an implicitly asynchronous copy into it, a race */
  private reads(name: string, where: string, address: number, bytes: number): void {
    const keep: SyncCopy[] = [];
    for (const c of this.syncCopies) {
      if (c.syncs !== this.rt.explicitSyncs) continue; // synchronized since: ordered
      if (address < c.to && c.from < address + bytes) {
        this.sys.hazard(this.pe, 'ImplicitlyAsyncMemcpy', `${where}: ${name} reads symmetric memory that ${c.api} (${c.where}) writes; ${c.api} to NVSHMEM's symmetric heap may complete asynchronously (its VMM allocations lack CU_POINTER_ATTRIBUTE_SYNC_MEMOPS), so the operation may read it before it lands; use ${c.api}Async on a stream and cudaStreamSynchronize it first (seed 001, "Implicitly Asynchronous cudaMemcpy")`);
        continue;
      }
      keep.push(c);
    }
    this.syncCopies = keep;
  }

  private remote(dest: DevicePtr, bytes: number, pe: number, where: string): number {
    return this.sys.heap.translate(this.pe, dest.address, bytes, pe, where);
  }

  putmemOnStream(dest: DevicePtr, src: DevicePtr, bytes: number, pe: number, stream?: StreamHandle): void {
    const where = this.site();
    const to = this.remote(dest, bytes, pe, where);
    this.reads('nvshmemx_putmem_on_stream', where, src.address, bytes);
    this.on(stream, 'nvshmemx_putmem_on_stream', where, (t, done) => {
      this.putsInFlight.add(stream ?? null);
      copyBytes(this.sys.ptrAt(to, bytes), 0, src, 0, bytes);
      this.sys.traffic(this.pe, pe, 'put', bytes);
      this.sys.after(t + this.sys.onStreamCopyNs(this.pe, pe, bytes), done);
    }, () => null);
  }

  getmemOnStream(dest: DevicePtr, src: DevicePtr, bytes: number, pe: number, stream?: StreamHandle): void {
    const where = this.site();
    const from = this.remote(src, bytes, pe, where);
    this.on(stream, 'nvshmemx_getmem_on_stream', where, (t, done) => {
      copyBytes(dest, 0, this.sys.ptrAt(from, bytes), 0, bytes);
      this.sys.traffic(this.pe, pe, 'get', bytes);
      this.sys.after(t + this.sys.onStreamCopyNs(this.pe, pe, bytes), done);
    }, () => null);
  }

  putmemSignalOnStream(dest: DevicePtr, src: DevicePtr, bytes: number, sig: DevicePtr, value: number, op: SignalOp, pe: number, stream?: StreamHandle): void {
    const where = this.site();
    const to = this.remote(dest, bytes, pe, where);
    const sigAt = this.remote(sig, 8, pe, where);
    this.reads('nvshmemx_putmem_signal_on_stream', where, src.address, bytes);
    this.on(
      stream,
      'nvshmemx_putmem_signal_on_stream',
      where,
      (t, done) => {
        this.putsInFlight.add(stream ?? null);
        copyBytes(this.sys.ptrAt(to, bytes), 0, src, 0, bytes);
        const s = this.sys.ptrAt(sigAt, 8);
        const v = this.sys.readU64(s);
        this.sys.writeU64(s, op === 'set' ? BigInt(value) : v + BigInt(value));
        this.sys.traffic(this.pe, pe, 'put-signal', bytes + 8);
        this.sys.after(t + this.sys.onStreamCopyNs(this.pe, pe, bytes) + this.sys.net.signalOneWayNs, done);
      },
      () => null,
      { signals: { pe, address: sigAt } },
    );
  }

  signalWaitUntilOnStream(sig: DevicePtr, cmp: Comparator, value: number, stream?: StreamHandle): void {
    const where = this.site();
    if (!this.sys.heap.isSymmetric(this.pe, sig.address, 8)) throw new HostFault(`${where}: nvshmemx_signal_wait_until_on_stream on memory outside the symmetric heap: the signal must come from nvshmem_malloc`);
    const ptr = this.sys.ptrAt(sig.address, 8);
    const holds = (): boolean => COMPARE[cmp](this.sys.readU64(ptr), BigInt(value));
    let waiting = false;
    this.on(
      stream,
      'nvshmemx_signal_wait_until_on_stream',
      where,
      (t, done) => {
        if (holds()) {
          this.sys.after(t + this.sys.net.signalOneWayNs, done);
          return;
        }
        waiting = true;
        this.sys.waitForWrite(() => {
          if (!holds()) return false;
          waiting = false;
          this.sys.after(this.sys.clock.now + this.sys.net.signalOneWayNs, done);
          return true;
        });
      },
      () => (waiting ? `waits until its signal ${CMP_TEXT[cmp]} ${value} (now ${this.sys.readU64(ptr)})` : null),
      { waitsOn: { pe: this.pe, address: sig.address } },
    );
  }

  barrierAllOnStream(stream?: StreamHandle): void {
    const sync = this.sys.net.sync;
    // barrier_all is a quiet and a sync: after on-stream puts it completes them first (measured apart)
    this.streamBarrier(stream, 'nvshmemx_barrier_all_on_stream', () => {
      const afterPut = this.putsInFlight.delete(stream ?? null);
      return (afterPut ? sync.barrierAllOnStreamAfterPutNs : sync.barrierAllOnStreamNs) + this.sys.nodes.barrierExtraNs;
    });
  }

  syncAllOnStream(stream?: StreamHandle): void {
    this.streamBarrier(stream, 'nvshmemx_sync_all_on_stream', () => this.sys.net.sync.syncAllOnStreamNs + this.sys.nodes.barrierExtraNs);
  }

  /** `costNs`: asked when the barrier starts on its stream (what ran before it there decides it) */
  private streamBarrier(stream: StreamHandle | undefined, name: string, costNs: () => number): void {
    const where = this.site();
    // the k-th barrier a PE's streams start meets the k-th of every other PE (a graph replays one node many times)
    let gen = -1;
    const op = this.on(
      stream,
      name,
      where,
      (t, done) => {
        gen = this.streamBarriers++;
        this.sys.streamBarrierArrive(this.pe, gen, t, costNs(), done);
      },
      () => (gen < 0 ? null : this.sys.streamBarrierWaiting(this.pe, gen)),
      { barrier: this.enqueuedBarriers++ },
    );
    if (op) this.streamCollective(op, name, where);
  }

  quietOnStream(stream?: StreamHandle): void {
    const where = this.site();
    this.on(stream, 'nvshmemx_quiet_on_stream', where, (t, done) => this.sys.after(t + this.sys.net.sync.quietOnStreamNs, done), () => null);
  }
}

/** what the deadlock explanation needs to know of an on-stream operation */
export interface OnStreamMeta {
  /** it sets a signal on a peer */
  signals?: { pe: number; address: number };
  /** it waits for a signal word of its own PE */
  waitsOn?: { pe: number; address: number };
  /** the k-th on-stream barrier of its PE */
  barrier?: number;
}
