/**
 * A multi-PE program (issue #43; design guide §9 "system"): N processing elements, each an emulated GPU
 * with its own runtime (streams, hardware queues, SMs, L2) over one address space, like `nvshmrun -np N`.
 * The program's run() executes once per PE; host calls that wait (synchronize, cudaFree, the NVSHMEM host
 * barrier) suspend that PE's program, and the system resumes it when the wait is over, so the PEs'
 * programs interleave in one simulated time. Kernels spinning on memory park holding their SMs and wake
 * when any PE's work writes; on-stream NVSHMEM operations wait for signals and barriers. When no PE can
 * go on, the wait-for cycle is the diagnosis (deadlock.ts).
 */
import type { Arch } from '../arch/types.js';
import { HostFault, UserError, describeThrown } from '../errors.js';
import { userLocation } from '../kernel/guard.js';
import { barrierAreaBytes, type PeerEnv } from '../exec/peerEnv.js';
import { RemoteArrivals } from '../exec/remoteArrivals.js';
import type { ProgramDef, ScalarArgs } from '../kernel/define.js';
import { Host } from '../kernel/host.js';
import { DeviceMemory, type DevicePtr } from '../memory/deviceMemory.js';
import { u64 } from '../ir/typesys.js';
import { Session, type SessionOptions } from '../profile/session.js';
import { ProgramApi } from '../runtime/programApi.js';
import type { HostWait, Runtime, WriteEpoch } from '../runtime/runtime.js';
import { EventQueue } from '../sim/eventQueue.js';
import { BlockScheduler } from '../device/blockScheduler.js';
import { MemoryHierarchy } from '../memory/hierarchy.js';
import type { RuntimeFinding } from '../runtime/rules.js';
import { interconnectFor, type NvshmemP2pFigures } from './links.js';
import { type NodeLayout, SINGLE_NODE, networkFor, type PeNetwork } from './network.js';
import type { RemoteLink } from '../arch/remoteLink.js';
import { explainDeadlock, type OnStreamRecord } from './deadlock.js';
import { ShmemHost } from './shmemHost.js';
import { SymmetricHeap } from './symmetricHeap.js';

/** traffic between PEs by operation kind, for the report */
export interface PeTraffic {
  from: number;
  to: number;
  kind: string;
  bytes: number;
  ops: number;
  /** how the bytes travelled: NVLink within the node, InfiniBand through the remote transport between nodes */
  link: 'nvlink' | 'ibrc' | 'ibgda';
}

interface PendingWait extends HostWait {
  pe: number;
  resolve: () => void;
  reject: (e: unknown) => void;
}

export const MAX_PES = 8;

/** how the PEs map onto GPUs: one each, or processes sharing one (with MPS, or time-sliced without) */
export type GpuSharing = 'none' | 'mps' | 'timeslice';

export class PeSystem {
  readonly clock = new EventQueue();
  readonly epoch: WriteEpoch = { n: 0 };
  readonly mem = new DeviceMemory();
  readonly heap: SymmetricHeap;
  readonly net: NvshmemP2pFigures;
  /** where the PEs are: nodes, and the remote transport between them (network.ts) */
  readonly nodes: PeNetwork;
  readonly sessions: Session[] = [];
  /** the one GPU's caches when the PEs share it (MPS, time-slicing); null: each PE's session has its own */
  private readonly sharedMemsys: MemoryHierarchy | null;
  readonly runtimes: Runtime[] = [];
  readonly apis: ProgramApi[] = [];
  private readonly waits: PendingWait[] = [];
  private readonly writeWaiters: (() => boolean)[] = [];
  private readonly hostBarriers = new Map<number, Map<number, number>>();
  private readonly streamBarriers = new Map<number, Map<number, { t: number; costNs: number; done: (end: number) => void }>>();
  private readonly onStream: OnStreamRecord[][] = [];
  private readonly trafficMap = new Map<string, PeTraffic>();
  /** per PE: the seed's hazards found as the programs ran (findings in the report) */
  private readonly hazards: RuntimeFinding[][] = [];
  private readonly host: Host;
  /** the program's file, as the user named it */
  private readonly file: string;
  private waking = false;
  /** remote writes in flight to their peers, for the PEs' timed waits (exec/remoteArrivals.ts) */
  private readonly arrivals = new RemoteArrivals();

  constructor(
    readonly arch: Arch,
    opts: SessionOptions,
    readonly nPes: number,
    program: ProgramDef,
    /** 'none': a GPU per PE; 'mps': the PEs are processes sharing one GPU through MPS; 'timeslice': sharing it without MPS */
    readonly share: GpuSharing = 'none',
    /** PEs per node and the remote transport between nodes (--pes-per-node, --transport); default: all on one node */
    layout: NodeLayout = SINGLE_NODE,
  ) {
    if (!Number.isInteger(nPes) || nPes < 1 || nPes > MAX_PES) throw new UserError(`--pes ${nPes}: a program runs on 1 to ${MAX_PES} PEs (one GPU each, as nvshmrun -np N)`, 2);
    const links = interconnectFor(arch);
    if (!links.nvshmem) throw new UserError(`arch ${arch.id}: no NVSHMEM figures for its interconnect (${links.name}); run multi-PE programs on h200 or h100`, 2);
    this.net = links.nvshmem;
    this.file = opts.file;
    this.nodes = networkFor(links, nPes, layout, share);
    this.heap = new SymmetricHeap(nPes);
    const gpus = share === 'none' ? nPes : 1;
    this.mem.setCapacity(arch.globalMemBytes * gpus, `${gpus} x ${arch.name}`);
    this.host = new Host(this.mem);
    this.sharedMemsys = share === 'none' ? null : new MemoryHierarchy(arch);
    const shared = { mem: this.mem, results: [] as Session['results'], ...(this.sharedMemsys ? { memsys: this.sharedMemsys } : {}) };
    // one GPU's block scheduler for every process on it; without MPS its contexts take turns
    const blocks = share === 'none' ? undefined : new BlockScheduler(arch, this.clock, (arch.latency.blockRetire / arch.smClockHz) * 1e9);
    if (blocks) blocks.exclusiveContexts = share === 'timeslice';
    for (let pe = 0; pe < nPes; pe++) {
      const session = new Session(opts, { ...shared, pe });
      const rt = session.newRuntime(program, { clock: this.clock, epoch: this.epoch, onWrite: () => this.wake(), ...(blocks ? { blocks, context: pe } : {}) });
      rt.hostWaits = { wait: (w) => this.wait(w, pe) };
      rt.hostClockLimit = () => this.hostClockLimit();
      const api = new ProgramApi(rt, session, opts.file);
      api.attachPe(pe, nPes, (site) => {
        const sh = new ShmemHost(this, pe, rt, site, (def, args, config, o) => api.launch(def, args, config, o));
        api.onSyncCopy = (dst, bytes, where, name) => sh.noteSyncCopy(dst, bytes, where, name);
        return sh;
      });
      this.hazards.push([]);
      session.peers = this.peerEnv(pe, this.heap.reserve(pe, barrierAreaBytes(nPes), 'NVSHMEM barrier area', (b, n) => this.mem.alloc(b, n)).address);
      this.sessions.push(session);
      this.runtimes.push(rt);
      this.apis.push(api);
      this.onStream.push([]);
    }
  }

  /** the report entries of every PE's launches, in the order they were made */
  get results(): Session['results'] {
    return (this.sessions[0] as Session).results;
  }

  /** `barrierArea`: the PE's part of the symmetric object nvshmem_init makes for device barriers */
  private peerEnv(pe: number, barrierArea: number): PeerEnv {
    const link: RemoteLink | null = this.nodes.linkOf(pe);
    return {
      barrierArea,
      myPe: pe,
      nPes: this.nPes,
      ...(link ? { link } : {}),
      translate: (address, bytes, to, where) => this.heap.translate(pe, address, bytes, to, where),
      traffic: (kind, to, bytes) => this.traffic(pe, to, kind, bytes),
      arrivals: this.arrivals,
    };
  }

  // ---- what the NVSHMEM host API uses ----

  hazard(pe: number, rule: string, message: string): void {
    const list = this.hazards[pe] as RuntimeFinding[];
    if (!list.some((f) => f.message === message)) list.push({ rule, severity: 'warning', message });
  }

  traffic(from: number, to: number, kind: string, bytes: number): void {
    const key = `${from}|${to}|${kind}`;
    const t = this.trafficMap.get(key) ?? { from, to, kind, bytes: 0, ops: 0, link: this.nodes.route(from, to) };
    t.bytes += bytes;
    t.ops++;
    this.trafficMap.set(key, t);
  }

  trafficTable(): PeTraffic[] {
    return [...this.trafficMap.values()].sort((a, b) => a.from - b.from || a.to - b.to || a.kind.localeCompare(b.kind));
  }

  /**
   * an on-stream put or get of `bytes` between two PEs: within a node the copy engine over NVLink (its
   * measured fixed cost and rate); to another node the same fixed cost, one message through the remote
   * transport's server, the bytes on the wire and the round trip that acknowledges them
   */
  onStreamCopyNs(from: number, to: number, bytes: number): number {
    const c = this.net.put.onStream;
    const network = this.nodes.route(from, to) === 'nvlink' ? undefined : this.nodes.linkOf(from)?.network;
    if (!network) return c.fixedNs + bytes / c.bytesPerNs;
    return c.fixedNs + network.messageNs + bytes / network.bytesPerNs + 2 * network.latencyNs;
  }

  ptrAt(address: number, bytes: number): DevicePtr {
    const a = this.mem.find(address, bytes);
    if (!a) throw new HostFault(`address 0x${address.toString(16)} is not allocated`);
    return { kind: 'devptr', address, allocation: a };
  }

  readU64(p: DevicePtr): bigint {
    return BigInt(this.host.read(p, u64, 0));
  }

  writeU64(p: DevicePtr, v: bigint): void {
    this.host.write(p, u64, 0, BigInt.asUintN(64, v));
  }

  /** call `done(at)` at simulated time `at` */
  after(at: number, done: (end: number) => void): void {
    this.clock.at(at, () => done(at));
  }

  /** `check` runs after every write until it returns true */
  waitForWrite(check: () => boolean): void {
    this.writeWaiters.push(check);
  }

  noteOnStream(pe: number, r: Omit<OnStreamRecord, 'pe'>): void {
    (this.onStream[pe] as OnStreamRecord[]).push({ ...r, pe });
  }

  streamBarrierArrive(pe: number, gen: number, t: number, costNs: number, done: (end: number) => void): void {
    let b = this.streamBarriers.get(gen);
    if (!b) this.streamBarriers.set(gen, (b = new Map()));
    b.set(pe, { t, costNs, done });
    if (b.size < this.nPes) return;
    let last = 0;
    for (const a of b.values()) last = Math.max(last, a.t);
    for (const a of b.values()) this.after(last + a.costNs, a.done);
    this.streamBarriers.delete(gen);
  }

  /** while a PE's k-th on-stream barrier waits: for whom */
  streamBarrierWaiting(pe: number, gen: number): string | null {
    const b = this.streamBarriers.get(gen);
    if (!b || !b.has(pe)) return null;
    const missing = Array.from({ length: this.nPes }, (_, i) => i).filter((i) => !b.has(i));
    return `waits for PE${missing.length === 1 ? '' : 's'} ${missing.join(', ')} to reach the same barrier`;
  }

  hostBarrier(pe: number, gen: number, where: string): Promise<void> {
    let b = this.hostBarriers.get(gen);
    if (!b) this.hostBarriers.set(gen, (b = new Map()));
    const rt = this.runtimes[pe] as Runtime;
    b.set(pe, rt.hostNow);
    const all = b;
    const resume = (): void => {
      let last = 0;
      for (const t of all.values()) last = Math.max(last, t);
      rt.hostNow = Math.max(rt.hostNow, last) + this.net.sync.barrierAllHostNs + this.nodes.barrierExtraNs;
    };
    return this.wait({ name: 'nvshmem_barrier_all', where, cond: () => all.size === this.nPes, resume }, pe);
  }

  // ---- scheduling the PEs ----

  /** PEs whose programs have ended */
  private readonly finished: boolean[] = [];

  /** the least host time of the PEs whose programs can run now (not waiting, not ended) */
  private hostClockLimit(): number {
    let t = Infinity;
    for (let pe = 0; pe < this.nPes; pe++) {
      // a PE whose wait is over but not yet resumed will run from its host time on: it bounds the clock too
      if (this.finished[pe] || this.waits.some((w) => w.pe === pe && !w.cond())) continue;
      t = Math.min(t, (this.runtimes[pe] as Runtime).hostNow);
    }
    return t;
  }

  /** suspend PE `pe`'s program until `cond` (its runtime's host waits, the host barrier) */
  private wait(w: HostWait, pe: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waits.push({ ...w, pe, resolve, reject });
    });
  }

  /** something wrote: parked kernels on every PE and waiting on-stream operations may go on */
  private wake(): void {
    if (this.waking) return;
    this.waking = true;
    try {
      for (let again = true; again; ) {
        const e = this.epoch.n;
        for (const rt of this.runtimes) rt.retryParked();
        for (let i = 0; i < this.writeWaiters.length; i++) if ((this.writeWaiters[i] as () => boolean)()) this.writeWaiters.splice(i--, 1);
        again = this.epoch.n !== e;
      }
    } finally {
      this.waking = false;
    }
  }

  /** run the program on every PE to its end; a state in which no PE can go on is a deadlock */
  async run(p: ProgramDef, scalars: ScalarArgs): Promise<void> {
    const finished = this.finished;
    for (let pe = 0; pe < this.nPes; pe++) finished[pe] = false;
    let failure: { pe: number; e: unknown } | null = null;
    for (let pe = 0; pe < this.nPes; pe++) {
      const api = this.apis[pe] as ProgramApi;
      Promise.resolve()
        .then(() => p.run(api, scalars))
        .then(
          () => void (finished[pe] = true),
          (e: unknown) => void (failure ??= { pe, e }),
        );
      await settle();
    }
    for (;;) {
      await settle();
      if (failure) throw this.located(failure, p);
      const ready = this.waits.filter((w) => w.cond());
      if (ready.length) {
        for (const w of ready) {
          this.waits.splice(this.waits.indexOf(w), 1);
          try {
            w.resume();
            w.resolve();
          } catch (e) {
            w.reject(e);
          }
          await settle();
        }
        continue;
      }
      if (this.clock.step()) continue;
      const e = this.epoch.n;
      this.epoch.n++;
      this.wake();
      if (this.clock.size > 0 || this.waits.some((w) => w.cond()) || this.epoch.n !== e + 1) continue;
      const pending = this.runtimes.some((rt) => rt.busy());
      if (finished.every(Boolean) && !pending) break;
      throw new HostFault(explainDeadlock(this.deadlockState(finished)));
    }
    this.heap.checkComplete();
  }

  /** what a PE's program threw, at the line of the program that threw it (else the call it was in) */
  private located(f: { pe: number; e: unknown }, p: ProgramDef): unknown {
    if (f.e instanceof UserError) return f.e;
    const at = userLocation(f.e, this.file) ?? (this.apis[f.pe] as ProgramApi).site();
    return new HostFault(`${at}: program '${p.name}' threw on PE ${f.pe}: ${f.e instanceof Error ? f.e.message : describeThrown(f.e)}`);
  }

  private deadlockState(finished: readonly boolean[]) {
    return {
      nPes: this.nPes,
      pes: this.runtimes.map((rt, pe) => ({
        pe,
        finished: finished[pe] as boolean,
        hostWait: this.waits.find((w) => w.pe === pe) ?? null,
        device: rt.blockedWork(),
        onStream: this.onStream[pe] as OnStreamRecord[],
      })),
    };
  }

  /** the run is over (its results made): the caches' arrays serve the next run's (Session.close) */
  close(): void {
    for (const s of this.sessions) s.close();
    this.sharedMemsys?.release();
  }

  /** each PE's timeline, the report's programs */
  finish(p: ProgramDef): void {
    this.sessions.forEach((s, pe) => {
      s.finishProgram(p, this.runtimes[pe] as Runtime, this.apis[pe] as ProgramApi, 0, `${p.name} (PE ${pe} of ${this.nPes})`, this.hazards[pe], this.trafficTable().filter((t) => t.from === pe).map(({ to, kind, bytes, ops, link }) => ({ to, kind, bytes, ops, ...(this.nodes.nodeCount > 1 ? { link } : {}) })));
      Object.assign(s.programs[s.programs.length - 1] as object, { pe, pes: this.nPes, ...this.nodes.describe(pe) });
    });
  }
}

/** let every ready continuation of the PEs' programs run */
function settle(): Promise<void> {
  return new Promise((r) => setImmediate(r));
}
