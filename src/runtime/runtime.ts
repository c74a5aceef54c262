/**
 * One GPU's CUDA runtime as a discrete-event model. The host program runs on its own clock: every API
 * call costs host time (arch runtime costs) and enqueues work with the time it was submitted. Streams
 * feed a fixed number of FIFO hardware work queues (CUDA_DEVICE_MAX_CONNECTIONS); a queue's head starts
 * once the work before it in its stream, and every event it waits for, is done — so two streams that
 * share a queue serialise behind each other's dependencies. Kernels go to the block scheduler (SMs are
 * shared between concurrent kernels), copies to the copy engine of their direction, graphs run their
 * nodes as their dependencies complete. Synchronising calls advance the device until the awaited work
 * is done. Everything is recorded on the timeline.
 *
 * Kernels run in the interpreter (every counter) when the device starts them, so results follow the
 * stream order; the runtime decides when each starts and which SMs it may use.
 */
import type { Arch } from '../arch/types.js';
import type { RuntimeCosts } from '../arch/runtimeCosts.js';
import { BlockScheduler, type BlockFootprint, type Hold } from '../device/blockScheduler.js';
import { CopyEngine, type EngineId } from '../device/copyEngine.js';
import { HostFault } from '../errors.js';
import type { Dim3 } from '../kernel/define.js';
import type { DeviceMemory, DevicePtr } from '../memory/deviceMemory.js';
import { EventQueue } from '../sim/eventQueue.js';
import { type LaunchAttributes, physicalDomain } from './attributes.js';
import { type DomainLaunch, type SlowWriteLog, SyncDomains } from '../device/syncDomains.js';
import { copyBytes, setBytes } from './copyData.js';
import { checkAllocUse, Graph, type GraphNode, type NodeType, topoOrder } from './graph.js';
import { MemPool } from './memPool.js';
import type { ApiCall, Timeline, TimelineKind, TimelineOp } from './timeline.js';
import { type CopyEnd, copyKindOf, type EventHandle, type GraphExecHandle, HostBuffer, type StreamHandle, type StreamOptions, type WorkSpec } from './types.js';

/** a kernel run by the interpreter: its blocks' times and what each block occupies */
export interface KernelRun {
  name: string;
  grid: Dim3;
  block: Dim3;
  /** each block's time on its SM, ns */
  durations: Float64Array;
  footprint: BlockFootprint;
  /** blocks per SM the occupancy calculator allows it */
  maxPerSm: number;
  /** its report entry, when profiled */
  kernelIndex: number | null;
  /** its slow writes (remote stores) in time from its start, for its memory synchronization domain (device/syncDomains.ts) */
  slowWrites?: SlowWriteLog;
}

/**
 * a kernel whose resident warps all spin on memory nothing in it writes: it keeps its SMs, and is
 * resumed after other work writes (another kernel, a copy, the host, another PE)
 */
export interface ParkedKernel {
  parked: true;
  name: string;
  grid: Dim3;
  block: Dim3;
  footprint: BlockFootprint;
  maxPerSm: number;
  /** blocks resident while it spins */
  resident: number;
  /** run it again: its run once its grid is done, null while it is still parked */
  resume(): KernelRun | null;
  /** threads of it that have executed a writing instruction (its part of the write epoch) */
  writes(): number;
  /** the spinning lines, the waiting warps, the blocks that never started */
  describeSpin(): string;
  /**
   * its waits are timed against the writes that end them (a PE's waits on remote writes:
   * exec/remoteArrivals.ts), so its blocks' modelled times hold; else they count spins until the
   * interpreter noticed the wait and the kernel ends when the waking write reaches it
   */
  timedWaits: boolean;
}

/** what the runtime needs from the profiling session: run a kernel in the interpreter now */
export interface KernelRunner {
  /**
   * `stream`: the id of the stream it runs on (its report entry's launch.stream); `external`: the
   * write epoch (writes by other work so far), which may wake its parked warps
   */
  run(work: Extract<WorkSpec, { kind: 'kernel' }>, where: string, stream: number, external: () => number, sync?: DomainLaunch): KernelRun | ParkedKernel;
  /** what one of its blocks occupies on an SM */
  footprintOf(work: Extract<WorkSpec, { kind: 'kernel' }>): BlockFootprint;
}

/** a kernel parked on the device, holding its SMs */
interface Parked {
  kernel: ParkedKernel;
  hold: Hold;
  rec: TimelineOp;
  stream: Stream;
  where: string;
  startNs: number;
  /** the write epoch it last ran at */
  seen: number;
  priority: number;
  done: (end: number) => void;
}

/** a kernel that cannot start: no SM has room for a block beside the parked kernels' */
interface WaitingForSms {
  work: Extract<WorkSpec, { kind: 'kernel' }>;
  stream: Stream;
  where: string;
  rec: Partial<TimelineOp>;
  done: (end: number) => void;
}

/** a host wait the system resumes once `cond` holds (`resume` does the call's bookkeeping) */
export interface HostWait {
  name: string;
  where: string;
  cond: () => boolean;
  resume: () => void;
}
export interface HostWaits {
  wait(w: HostWait): Promise<void>;
}

/** an enqueued op, opaque outside the runtime (the system layer asks about its ordering) */
export type OpHandle = object;

/** writes made by work that ends (kernels, copies, host functions, host calls): they may wake a parked kernel */
export interface WriteEpoch {
  n: number;
}

export interface RuntimeOptions {
  /** hardware work queues (CUDA_DEVICE_MAX_CONNECTIONS) */
  hwQueues?: number;
  /** the clock and write epoch of a multi-PE system (absent: the runtime's own) */
  clock?: EventQueue;
  epoch?: WriteEpoch;
  /** work ended that may have written memory: the system wakes every PE's parked kernels (absent: this runtime's) */
  onWrite?: () => void;
  /** one of the schedules the CUDA runtime is free to choose (absent: the default); `--explore` tries them */
  schedule?: Schedule;
  /** processes sharing one GPU (MPS or time-slicing): the GPU's block scheduler, and this process's context id */
  blocks?: BlockScheduler;
  context?: number;
}

/**
 * The runtime's freedom (seed 001): which hardware queue a stream's work goes to, whether a queue's
 * next work may start before the previous ends (the runtime "may insert a device synchronization
 * between kernels"), and in which order independent queue heads start.
 */
export interface Schedule {
  /** what `--explore` prints */
  name: string;
  /** every stream's work in one hardware queue */
  oneQueue?: boolean;
  /** a queue's next work starts only once the one before it in the queue has ended */
  inOrder?: boolean;
  /** independent queue heads start from the last queue to the first */
  reverse?: boolean;
}

/** the schedules `--explore` tries, the default first */
export const SCHEDULES: readonly Schedule[] = [
  { name: 'the default (streams dealt round-robin to the hardware queues, heads started as they become ready)' },
  { name: 'queue heads started last queue first', reverse: true },
  { name: 'every stream in one hardware work queue, each work item after the one before it ends', oneQueue: true, inOrder: true },
];

class Stream implements StreamHandle {
  readonly kind = 'stream';
  last: Op | null = null;
  destroyed = false;
  attrs: LaunchAttributes = {};
  capture: Capture | null = null;
  constructor(
    readonly id: number,
    readonly name: string,
    readonly nonBlocking: boolean,
    readonly priority: number,
    readonly queue: number,
    /** the legacy default stream: synchronises with every blocking stream */
    readonly legacy: boolean,
  ) {}
}

class Event implements EventHandle {
  readonly kind = 'event';
  /** the record op of the last cudaEventRecord (null: never recorded: an empty set of work) */
  op: Op | null = null;
  /** recorded inside a stream capture: the capture and the nodes it stands for */
  captured: { capture: Capture; nodes: GraphNode[] } | null = null;
  destroyed = false;
  constructor(
    readonly id: number,
    readonly disableTiming: boolean,
    readonly where: string,
  ) {}
}

class Capture {
  readonly graph = new Graph();
  readonly frontier = new Map<Stream, GraphNode[]>();
  constructor(
    readonly origin: Stream,
    readonly mode: 'global' | 'threadLocal' | 'relaxed',
    readonly where: string,
  ) {}
}

interface ExecNode {
  node: GraphNode;
  work: WorkSpec;
  deps: number[];
  dependents: number[];
  type: NodeType;
}

class GraphExec implements GraphExecHandle {
  readonly kind = 'graphExec';
  destroyed = false;
  /** the previous launch, which the next one follows */
  lastLaunch: Op | null = null;
  constructor(
    readonly id: number,
    readonly graph: Graph,
    readonly nodes: ExecNode[],
    readonly where: string,
  ) {}
}

interface Op {
  id: number;
  work: WorkSpec;
  stream: Stream;
  where: string;
  submitNs: number;
  /** when the GPU's front end sees it */
  visibleNs: number;
  prev: Op | null;
  deps: Op[];
  state: 0 | 1 | 2;
  startNs: number;
  endNs: number;
  /** called when it completes (graph nodes waiting on an event recorded in a stream) */
  waiters?: (() => void)[];
  /** dependencies the legacy default stream added (nobody wrote them) */
  implicit: Op[];
  /** its timeline entry, once started */
  recId?: number;
}

const SYNC_APIS_DURING_CAPTURE = 'cudaErrorStreamCaptureUnsupported';

export class Runtime {
  readonly clock: EventQueue;
  readonly epoch: WriteEpoch;
  private readonly parked: Parked[] = [];
  /** this GPU's writes in flight per memory synchronization domain */
  private readonly syncDomains: SyncDomains;
  private readonly waitingForSms: WaitingForSms[] = [];
  private retrying = false;
  private readonly onWrite: (() => void) | null;
  readonly blocks: BlockScheduler;
  private readonly engines: Record<EngineId, CopyEngine>;
  private readonly queues: Op[][];
  private readonly heads: number[];
  /** the last ops each queue started */
  private readonly recent: Op[][];
  private readonly streams: Stream[] = [];
  private events = 0;
  private userStreams = 0;
  private execs = 0;
  private ops = 0;
  private lastLegacy: Op | null = null;
  private latestEnd = 0;
  private inHostFn = false;
  private pumping = false;
  private pumpAgain = false;
  private readonly pool = new MemPool();
  /** cudaMalloc'd allocations and their sizes; sizes cudaFree gave back to the driver's cache */
  private readonly mallocSizes = new Map<object, number>();
  private readonly freedSizes = new Map<number, number>();
  private readonly captures = new Set<Capture>();
  private readonly pending = new Set<Op>();
  private readonly record: TimelineOp[] = [];
  private readonly api: ApiCall[] = [];
  /** the host thread's clock, ns */
  hostNow = 0;
  /** a multi-PE system's scheduler of host waits (absent: the runtime runs the device itself) */
  hostWaits: HostWaits | null = null;
  /**
   * a multi-PE system: how far the shared clock may go while this host runs (the least host time of the
   * PEs whose programs run: one PE's program must not move device time past another's submissions)
   */
  hostClockLimit: (() => number) | null = null;

  /** run the device up to the host's time (in a system: no further than any running PE's host) */
  private advanceToHost(): void {
    this.clock.runUntil(this.hostClockLimit ? Math.min(this.hostNow, this.hostClockLimit()) : this.hostNow);
  }
  private readonly schedule: Omit<Schedule, 'name'>;
  /** this process's CUDA context on a shared GPU (0 alone) */
  private readonly context: number;
  readonly legacyStream: Stream;
  readonly perThreadStream: Stream;
  readonly hwQueues: number;

  constructor(
    readonly arch: Arch,
    readonly costs: RuntimeCosts,
    private readonly mem: DeviceMemory,
    private readonly runner: KernelRunner,
    opts: RuntimeOptions = {},
  ) {
    this.clock = opts.clock ?? new EventQueue();
    this.epoch = opts.epoch ?? { n: 0 };
    this.onWrite = opts.onWrite ?? null;
    this.schedule = opts.schedule ?? {};
    const q = this.schedule.oneQueue ? 1 : (opts.hwQueues ?? costs.hwQueuesDefault);
    if (!Number.isInteger(q) || q < 1 || q > costs.hwQueuesMax) throw new HostFault(`hardware queues (CUDA_DEVICE_MAX_CONNECTIONS) must be an integer from 1 to ${costs.hwQueuesMax}, not ${q}`);
    this.hwQueues = q;
    this.queues = Array.from({ length: q }, () => []);
    this.heads = new Array<number>(q).fill(0);
    this.recent = Array.from({ length: q }, () => []);
    this.blocks = opts.blocks ?? new BlockScheduler(arch, this.clock, (arch.latency.blockRetire / arch.smClockHz) * 1e9);
    this.context = opts.context ?? 0;
    this.syncDomains = new SyncDomains(costs.memSyncDomainCount);
    this.engines = { h2d: new CopyEngine('h2d', this.clock), d2h: new CopyEngine('d2h', this.clock), d2d: new CopyEngine('d2d', this.clock) };
    // the default streams share queue 0 with the first stream created (inference: not measured)
    // ids as CUDA's tools number streams: the legacy default stream 7, created streams from 13 on
    // (as ncu and nsys show them; the per-thread default stream's number is our choice)
    this.legacyStream = this.newStream(7, 'Default stream 7', false, 0, true, 0);
    this.perThreadStream = this.newStream(8, 'Per-thread default stream 8', false, 0, false, 0);
  }

  // ---- streams and events ------------------------------------------------------------------

  private newStream(id: number, name: string, nonBlocking: boolean, priority: number, legacy: boolean, queue: number): Stream {
    const s = new Stream(id, name, nonBlocking, priority, queue, legacy);
    this.streams.push(s);
    return s;
  }

  streamCreate(opts: StreamOptions | undefined, where: string): StreamHandle {
    this.apiCall('cudaStreamCreateWithPriority', this.costs.host.streamCreateNs, where);
    const p = opts?.priority ?? 0;
    if (!Number.isInteger(p)) throw new HostFault(`${where}: stream priority must be an integer, not ${p}`);
    // out-of-range priorities are clamped, as cudaStreamCreateWithPriority does
    const prio = Math.min(this.costs.priorityLeast, Math.max(this.costs.priorityGreatest, p));
    const id = 13 + this.userStreams;
    // created streams are dealt to the hardware queues round-robin ([MEAS] runtime probe: stream i on queue i mod C)
    const queue = this.userStreams++ % this.hwQueues;
    return this.newStream(id, opts?.name ?? `Stream ${id}`, opts?.nonBlocking ?? false, prio, false, queue);
  }

  streamDestroy(h: StreamHandle, where: string): void {
    const s = this.stream(h, where, 'cudaStreamDestroy');
    if (s.legacy || s === this.perThreadStream) throw new HostFault(`${where}: cudaStreamDestroy of a default stream (cudaErrorInvalidResourceHandle)`);
    this.apiCall('cudaStreamDestroy', this.costs.host.syncCallNs, where);
    // pending work still completes; the handle is dead at once
    s.destroyed = true;
  }

  streamSetAttributes(h: StreamHandle, attrs: LaunchAttributes, where: string): void {
    const s = this.stream(h, where, 'cudaStreamSetAttribute');
    s.attrs = { ...s.attrs, ...attrs };
  }

  eventCreate(disableTiming: boolean, where: string): EventHandle {
    this.apiCall('cudaEventCreate', this.costs.host.syncCallNs, where);
    return new Event(this.events++, disableTiming, where);
  }

  eventDestroy(h: EventHandle, where: string): void {
    this.event(h, where, 'cudaEventDestroy').destroyed = true;
    this.apiCall('cudaEventDestroy', this.costs.host.syncCallNs, where);
  }

  eventRecord(h: EventHandle, sh: StreamHandle | undefined, where: string): void {
    const e = this.event(h, where, 'cudaEventRecord');
    const s = this.streamOrDefault(sh, where, 'cudaEventRecord');
    this.apiCall('cudaEventRecord', this.costs.host.eventRecordNs, where);
    if (s.capture) {
      // recorded in a capture: the event stands for the capture's current frontier of this stream
      e.captured = { capture: s.capture, nodes: [...(s.capture.frontier.get(s) ?? [])] };
      e.op = null;
      return;
    }
    e.captured = null;
    e.op = this.enqueue(s, { kind: 'eventRecord', event: e }, where);
  }

  streamWaitEvent(sh: StreamHandle | undefined, h: EventHandle, where: string): void {
    const s = this.streamOrDefault(sh, where, 'cudaStreamWaitEvent');
    const e = this.event(h, where, 'cudaStreamWaitEvent');
    this.apiCall('cudaStreamWaitEvent', this.costs.host.eventRecordNs, where);
    if (e.captured) {
      const cap = e.captured.capture;
      if (s.capture && s.capture !== cap) throw new HostFault(`${where}: cudaStreamWaitEvent joins two different stream captures (cudaErrorStreamCaptureMerge)`);
      if (!s.capture) {
        // the stream joins the capture: its next work depends on the event's nodes
        s.capture = cap;
        cap.frontier.set(s, [...e.captured.nodes]);
      } else {
        const cur = cap.frontier.get(s) ?? [];
        cap.frontier.set(s, [...cur, ...e.captured.nodes.filter((n) => !cur.includes(n))]);
      }
      return;
    }
    if (s.capture) throw new HostFault(`${where}: stream '${s.name}' is capturing and waits on an event recorded outside the capture (made at ${e.where}); record it inside the capture (cudaErrorStreamCaptureIsolation)`);
    if (!e.op) return; // never recorded: an empty set of work, nothing to wait for
    this.enqueue(s, { kind: 'eventWait', event: e }, where, [e.op]);
  }

  eventQuery(h: EventHandle, where: string): boolean {
    const e = this.event(h, where, 'cudaEventQuery');
    if (e.captured) this.captureViolation('cudaEventQuery of an event recorded in a capture', where, 'cudaErrorCapturedEvent');
    this.apiCall('cudaEventQuery', this.costs.host.syncCallNs, where);
    this.advanceToHost();
    return !e.op || e.op.state === 2;
  }

  eventSynchronize(h: EventHandle, where: string): void | Promise<void> {
    const e = this.event(h, where, 'cudaEventSynchronize');
    this.noCapture('cudaEventSynchronize', where);
    const op = e.op;
    return this.waitHost('cudaEventSynchronize', where, () => !op || op.state === 2, () => op?.endNs ?? 0, 0, () => {
      if (op) this.hostWaitedOps.set(op.stream, op);
      this.explicitSyncs++;
    });
  }

  /** cudaEventElapsedTime: milliseconds between two completed events */
  eventElapsedTime(a: EventHandle, b: EventHandle, where: string): number {
    const ea = this.event(a, where, 'cudaEventElapsedTime');
    const eb = this.event(b, where, 'cudaEventElapsedTime');
    for (const e of [ea, eb]) {
      if (e.disableTiming) throw new HostFault(`${where}: cudaEventElapsedTime on an event created with disableTiming (made at ${e.where}) (cudaErrorInvalidResourceHandle)`);
      if (!e.op) throw new HostFault(`${where}: cudaEventElapsedTime on an event that was never recorded (made at ${e.where}) (cudaErrorInvalidResourceHandle)`);
    }
    this.advanceToHost();
    if ((ea.op as Op).state !== 2 || (eb.op as Op).state !== 2) throw new HostFault(`${where}: cudaEventElapsedTime before both events completed (cudaErrorNotReady); synchronize on the later event first`);
    return ((eb.op as Op).endNs - (ea.op as Op).endNs) / 1e6;
  }

  streamQuery(sh: StreamHandle | undefined, where: string): boolean {
    const s = this.streamOrDefault(sh, where, 'cudaStreamQuery');
    this.noCapture('cudaStreamQuery', where);
    this.apiCall('cudaStreamQuery', this.costs.host.syncCallNs, where);
    this.advanceToHost();
    return !s.last || s.last.state === 2;
  }

  streamSynchronize(sh: StreamHandle | undefined, where: string): void | Promise<void> {
    const s = this.streamOrDefault(sh, where, 'cudaStreamSynchronize');
    this.noCapture('cudaStreamSynchronize', where);
    const last = s.legacy ? null : s.last;
    if (s.legacy) {
      return this.deviceSynchronize(where, 'cudaStreamSynchronize');
    }
    return this.waitHost('cudaStreamSynchronize', where, () => !last || last.state === 2, () => last?.endNs ?? 0, 0, () => {
      if (last) this.hostCovered.set(s, last.id);
      this.explicitSyncs++;
    });
  }

  deviceSynchronize(where: string, name = 'cudaDeviceSynchronize'): void | Promise<void> {
    this.noCapture(name, where);
    return this.waitHost(name, where, () => this.pending.size === 0, () => this.lastEnd(), 0, () => {
      this.hostCoveredAll = this.ops - 1;
      this.explicitSyncs++;
    });
  }

  /** the end of the latest work done so far */
  private lastEnd(): number {
    return this.latestEnd;
  }

  // ---- launches, copies, host functions ------------------------------------------------------

  launch(work: Extract<WorkSpec, { kind: 'kernel' }>, sh: StreamHandle | undefined, where: string): void {
    const s = this.streamOrDefault(sh, where, 'cudaLaunchKernel');
    this.apiCall('cudaLaunchKernel', this.costs.host.launchKernelNs, where);
    // the stream's attributes apply to launches made after they were set; the launch's own win
    const w = { ...work, attrs: { ...s.attrs, ...work.attrs } };
    this.submit(s, 'kernel', w, where);
  }

  memcpyAsync(dst: CopyEnd, src: CopyEnd, bytes: number, sh: StreamHandle | undefined, where: string, offsets: { dst?: number; src?: number } = {}): void {
    const s = this.streamOrDefault(sh, where, 'cudaMemcpyAsync');
    const work = this.copyWork(dst, src, bytes, where, offsets);
    const pageable = [dst, src].some((e) => e instanceof HostBuffer && !e.pinned);
    // pageable memory is staged through a pinned buffer by the host: the call returns once it is (runtime-system.md 1.5)
    this.apiCall('cudaMemcpyAsync', this.costs.host.memcpyAsyncNs + (pageable && !s.capture ? bytes / this.costs.host.pageableStageBytesPerNs : 0), where);
    this.submit(s, 'memcpy', work, where);
  }

  /** cudaMemcpy: through the legacy stream; returns when the copy is done (pageable H2D: once staged) */
  memcpy(dst: CopyEnd, src: CopyEnd, bytes: number, where: string, offsets: { dst?: number; src?: number } = {}): void | Promise<void> {
    const work = this.copyWork(dst, src, bytes, where, offsets);
    this.noCapture('cudaMemcpy', where);
    this.apiCall('cudaMemcpy', this.costs.host.memcpyAsyncNs, where);
    const op = this.enqueue(this.legacyStream, work, where);
    return this.waitHost('cudaMemcpy', where, () => op.state === 2, () => op.endNs);
  }

  /** cudaMemset: on the legacy stream, asynchronous to the host for device memory (as CUDA documents) */
  memset(dst: DevicePtr, value: number, bytes: number, where: string): void {
    this.memsetAsync(dst, value, bytes, undefined, where, 'cudaMemset');
  }

  memsetAsync(dst: DevicePtr, value: number, bytes: number, sh: StreamHandle | undefined, where: string, api = 'cudaMemsetAsync'): void {
    const s = this.streamOrDefault(sh, where, api);
    this.checkDeviceRange(dst, 0, bytes, where, api);
    if (!Number.isInteger(value) || value < 0 || value > 255) throw new HostFault(`${where}: ${api} value must be a byte 0..255, not ${value}`);
    this.apiCall(api, this.costs.host.memcpyAsyncNs, where);
    this.submit(s, 'memset', { kind: 'memset', dst, value, bytes }, where);
  }

  launchHostFunc(sh: StreamHandle | undefined, fn: () => void, where: string): void {
    const s = this.streamOrDefault(sh, where, 'cudaLaunchHostFunc');
    if (typeof fn !== 'function') throw new HostFault(`${where}: cudaLaunchHostFunc needs a function`);
    this.apiCall('cudaLaunchHostFunc', this.costs.host.memcpyAsyncNs, where);
    this.submit(s, 'host', { kind: 'host', fn }, where);
  }

  private copyWork(dst: CopyEnd, src: CopyEnd, bytes: number, where: string, offsets: { dst?: number; src?: number }): Extract<WorkSpec, { kind: 'memcpy' }> {
    if (!Number.isInteger(bytes) || bytes <= 0) throw new HostFault(`${where}: copy size must be a positive integer of bytes, not ${bytes}`);
    const dOff = offsets.dst ?? 0;
    const sOff = offsets.src ?? 0;
    for (const [e, off, what] of [[dst, dOff, 'destination'], [src, sOff, 'source']] as const) {
      if (e instanceof HostBuffer) {
        if (off < 0 || off + bytes > e.size) throw new HostFault(`${where}: copy of ${bytes} bytes at offset ${off} runs past the end of host buffer '${e.name}' (${e.size} bytes), the ${what}`);
      } else if (e && (e as DevicePtr).kind === 'devptr') this.checkDeviceRange(e as DevicePtr, off, bytes, where, `the copy's ${what}`);
      else throw new HostFault(`${where}: the copy's ${what} must be a device pointer or a host buffer (ctx.hostAlloc / ctx.mallocHost)`);
    }
    return { kind: 'memcpy', dst, src, bytes, dstOffset: dOff, srcOffset: sOff };
  }

  private checkDeviceRange(p: DevicePtr, off: number, bytes: number, where: string, what: string): void {
    const a = p.allocation;
    const start = p.address + off;
    if (start < a.base || start + bytes > a.end) throw new HostFault(`${where}: ${what} covers ${bytes} bytes at ${start - a.base} of '${a.name}', which has ${a.bytes} bytes`);
  }

  // ---- allocation ---------------------------------------------------------------------------

  malloc(bytes: number, name: string, where: string, alloc: (bytes: number, name: string) => DevicePtr): DevicePtr {
    this.noCapture('cudaMalloc', where, true);
    // the driver keeps a freed block: allocating that size again is cheap (measured)
    const reuse = this.freedSizes.get(bytes) ?? 0;
    if (reuse > 0) this.freedSizes.set(bytes, reuse - 1);
    this.apiCall('cudaMalloc', reuse > 0 ? this.costs.host.mallocReusePairNs / 2 : this.costs.host.mallocNs, where);
    const p = alloc(bytes, name);
    this.mallocSizes.set(p.allocation, bytes);
    return p;
  }

  /**
   * cudaHostAlloc(cudaHostAllocMapped): pinned host memory that kernels address directly (with UVA the
   * device pointer is the host pointer). It costs what cudaMallocHost does (runtimeCosts host.mallocHostNs)
   */
  hostAllocMapped(bytes: number, name: string, where: string, alloc: (bytes: number, name: string) => DevicePtr): DevicePtr {
    this.noCapture('cudaHostAlloc', where, true);
    this.apiCall('cudaHostAlloc', this.costs.host.mallocHostNs, where);
    const p = alloc(bytes, name);
    p.allocation.hostMapped = true;
    return p;
  }

  /**
   * the host program touches host-mapped memory: a plain CPU access, which waits for nothing. The
   * device runs up to the host's now first (a kernel launched before may be polling the memory); a
   * write is then a write like a kernel's or a copy's: parked kernels that poll it are resumed
   */
  hostMappedAccess(write: boolean): void {
    // a CPU access takes host time: a program's polling loop lets the device run on
    this.hostNow += this.costs.host.mappedPollNs;
    this.clock.runUntil(this.hostNow);
    if (write) this.wrote();
  }

  /** cudaFree: waits for all the device's work (runtime-system.md 1.5: measured to block) */
  free(p: DevicePtr, where: string): void | Promise<void> {
    this.noCapture('cudaFree', where);
    // the driver keeps one freed block per size for the next cudaMalloc of it (measured: a repeated
    // malloc/free pair of 1 MiB costs 3.9 us, 1000 frees in a row 23 us each)
    const size = this.mallocSizes.get(p.allocation);
    const keep = size !== undefined && (this.freedSizes.get(size) ?? 0) === 0;
    const waited = this.waitHost('cudaFree', where, () => this.pending.size === 0, () => this.lastEnd(), keep ? this.costs.host.mallocReusePairNs / 2 : this.costs.host.freeNs);
    const after = (): void => {
    if (size !== undefined) {
      if (keep) this.freedSizes.set(size, 1);
      this.mallocSizes.delete(p.allocation);
    }
    this.mem.free(p.allocation);
    };
    if (waited) return waited.then(after);
    after();
  }

  mallocAsync(bytes: number, sh: StreamHandle | undefined, where: string, alloc: (bytes: number, name: string) => DevicePtr): DevicePtr {
    const s = this.streamOrDefault(sh, where, 'cudaMallocAsync');
    if (!Number.isInteger(bytes) || bytes <= 0) throw new HostFault(`${where}: cudaMallocAsync size must be a positive integer, not ${bytes}`);
    if (s.capture) {
      // captured: an allocation node owned by the graph; its address is fixed now
      const ptr = alloc(bytes, `graph alloc (${where})`);
      this.apiCall('cudaMallocAsync', this.costs.host.mallocAsyncPairNs / 2, where);
      this.captureNode(s, 'memAlloc', { kind: 'alloc', ptr, bytes }, where);
      return ptr;
    }
    const hit = this.pool.take(bytes, s.id);
    this.apiCall('cudaMallocAsync', hit ? this.costs.host.mallocAsyncPairNs / 2 : this.costs.host.poolGrowNs, where);
    const ptr = hit ?? alloc(bytes, `mallocAsync (${where})`);
    this.enqueue(s, { kind: 'alloc', ptr, bytes }, where);
    return ptr;
  }

  freeAsync(p: DevicePtr, sh: StreamHandle | undefined, where: string): void {
    const s = this.streamOrDefault(sh, where, 'cudaFreeAsync');
    this.apiCall('cudaFreeAsync', this.costs.host.mallocAsyncPairNs / 2, where);
    if (s.capture) {
      this.captureNode(s, 'memFree', { kind: 'free', ptr: p }, where);
      return;
    }
    const op = this.enqueue(s, { kind: 'free', ptr: p }, where);
    this.pool.give(p, p.allocation.bytes, s.id, () => op.state === 2);
  }

  setPoolReleaseThreshold(bytes: number, where: string): void {
    if (!(bytes >= 0)) throw new HostFault(`${where}: the release threshold must be >= 0 bytes, not ${bytes}`);
    this.pool.releaseThreshold = bytes;
  }

  // ---- graphs -------------------------------------------------------------------------------

  beginCapture(sh: StreamHandle | undefined, mode: 'global' | 'threadLocal' | 'relaxed', where: string): void {
    const s = this.streamOrDefault(sh, where, 'cudaStreamBeginCapture');
    if (s.legacy) throw new HostFault(`${where}: cudaStreamBeginCapture on the legacy default stream is not allowed (cudaErrorStreamCaptureUnsupported); capture a stream you created`);
    if (s.capture) throw new HostFault(`${where}: stream '${s.name}' is already capturing (begun at ${s.capture.where}) (cudaErrorIllegalState)`);
    const cap = new Capture(s, mode, where);
    s.capture = cap;
    cap.frontier.set(s, []);
    this.captures.add(cap);
    this.apiCall('cudaStreamBeginCapture', this.costs.host.syncCallNs, where);
  }

  endCapture(sh: StreamHandle | undefined, where: string): Graph {
    const s = this.streamOrDefault(sh, where, 'cudaStreamEndCapture');
    const cap = s.capture;
    if (!cap) throw new HostFault(`${where}: cudaStreamEndCapture on stream '${s.name}', which is not capturing (cudaErrorIllegalState)`);
    if (cap.origin !== s) throw new HostFault(`${where}: cudaStreamEndCapture must be called on the stream that began the capture ('${cap.origin.name}', at ${cap.where}) (cudaErrorStreamCaptureUnmatched)`);
    // every stream that joined must have joined back: its last nodes lie upstream of the origin's
    const originTips = cap.frontier.get(s) ?? [];
    const upstream = new Set<GraphNode>();
    const walk = (n: GraphNode): void => {
      if (upstream.has(n)) return;
      upstream.add(n);
      for (const d of n.deps) walk(d);
    };
    for (const n of originTips) walk(n);
    for (const [other, tips] of cap.frontier) {
      if (other === s) continue;
      const loose = tips.filter((n) => !upstream.has(n));
      if (loose.length) throw new HostFault(`${where}: stream '${other.name}' joined the capture but its work (node ${loose[0]?.index}, made at ${loose[0]?.where}) does not rejoin '${s.name}' before the capture ends; record an event on it and wait on that event in '${s.name}' (cudaErrorStreamCaptureUnjoined)`);
    }
    for (const other of cap.frontier.keys()) other.capture = null;
    this.captures.delete(cap);
    this.apiCall('cudaStreamEndCapture', this.costs.host.syncCallNs, where);
    return cap.graph;
  }

  isCapturing(sh: StreamHandle | undefined, where: string): boolean {
    return this.streamOrDefault(sh, where, 'cudaStreamIsCapturing').capture !== null;
  }

  graphInstantiate(g: Graph, where: string): GraphExecHandle {
    if (g.destroyed) throw new HostFault(`${where}: cudaGraphInstantiate of a destroyed graph (cudaErrorInvalidValue)`);
    topoOrder(g, where);
    checkAllocUse(g, where);
    // child graphs are laid out into the exec: a child's roots wait on the child node's deps, the
    // child node's dependents on the child's leaves
    const nodes: ExecNode[] = [];
    const expand = (graph: Graph, outerDeps: number[]): number[] => {
      const ids = new Map<GraphNode, number[]>();
      const order = topoOrder(graph, where);
      const used = new Set<GraphNode>();
      for (const n of order) for (const d of n.deps) used.add(d);
      for (const n of order) {
        const deps = n.deps.length ? n.deps.flatMap((d) => ids.get(d) ?? []) : outerDeps;
        if (n.child) {
          ids.set(n, expand(n.child, deps));
          continue;
        }
        const id = nodes.length;
        nodes.push({ node: n, work: n.work, deps: [...new Set(deps)], dependents: [], type: n.type });
        ids.set(n, [id]);
      }
      return order.filter((n) => !used.has(n)).flatMap((n) => ids.get(n) ?? []);
    };
    expand(g, []);
    for (const [i, n] of nodes.entries()) for (const d of n.deps) nodes[d]?.dependents.push(i);
    this.apiCall('cudaGraphInstantiate', this.costs.host.graphInstantiateNs + nodes.length * this.costs.host.graphInstantiatePerNodeNs, where);
    return new GraphExec(this.execs++, g, nodes, where);
  }

  graphLaunch(h: GraphExecHandle, sh: StreamHandle | undefined, where: string): void {
    const exec = this.exec(h, where, 'cudaGraphLaunch');
    const s = this.streamOrDefault(sh, where, 'cudaGraphLaunch');
    const kernels = exec.nodes.filter((n) => n.type === 'kernel').length;
    this.apiCall('cudaGraphLaunch', this.costs.host.graphLaunchNs + kernels * this.costs.host.graphLaunchPerNodeNs, where);
    if (s.capture) {
      this.captureNode(s, 'graph', { kind: 'graph', exec }, where);
      return;
    }
    // launches of one exec run one at a time, in order
    const deps = exec.lastLaunch ? [exec.lastLaunch] : [];
    exec.lastLaunch = this.enqueue(s, { kind: 'graph', exec, works: exec.nodes.map((n) => n.work) }, where, deps);
  }

  /** cudaGraphExecKernelNodeSetParams: new arguments for a kernel node, from the next launch on */
  execKernelNodeSetParams(h: GraphExecHandle, node: GraphNode, args: Record<string, unknown>, where: string): void {
    const exec = this.exec(h, where, 'cudaGraphExecKernelNodeSetParams');
    const en = exec.nodes.find((n) => n.node === node);
    if (!en || en.work.kind !== 'kernel') throw new HostFault(`${where}: cudaGraphExecKernelNodeSetParams: the node is not a kernel node of this executable graph (cudaErrorInvalidValue)`);
    const params = en.work.def.params;
    for (const k of Object.keys(args)) if (!(k in params)) throw new HostFault(`${where}: kernel '${en.work.def.name}' has no parameter '${k}'; its parameters are ${Object.keys(params).join(', ')}`);
    en.work = { ...en.work, args: { ...en.work.args, ...(args as typeof en.work.args) } };
  }

  graphExecDestroy(h: GraphExecHandle, where: string): void {
    this.exec(h, where, 'cudaGraphExecDestroy').destroyed = true;
  }

  /** NVSHMEM's on-stream operations (src/system): stream work the system runs */
  submitSystem(sh: StreamHandle | undefined, work: Extract<WorkSpec, { kind: 'system' }>, where: string): OpHandle | null {
    const s = this.streamOrDefault(sh, where, work.name);
    this.apiCall(work.name, this.costs.host.eventRecordNs, where);
    // captured, it becomes a node (NVSHMEM's on-stream operations are kernels or copies in a graph)
    if (s.capture) {
      this.captureNode(s, 'kernel', work, where);
      return null;
    }
    return this.enqueue(s, work, where);
  }

  /** an op as the deadlock explanations name it */
  private opName(op: Op): string {
    return op.work.kind === 'kernel' ? `kernel '${op.work.def.name}'` : op.work.kind === 'system' ? op.work.name : op.work.kind;
  }

  /** under an in-order schedule: the unfinished op the queue ran before `op` (what holds it back) */
  private inOrderBlocker(op: Op): Op | null {
    if (!this.schedule.inOrder) return null;
    const q = this.queues[op.stream.queue] as Op[];
    if (q[this.heads[op.stream.queue] as number] !== op) return null;
    const before = (this.recent[op.stream.queue] as Op[]).at(-1);
    return before && before.state !== 2 ? before : null;
  }

  /** work submitted and not done */
  busy(): boolean {
    return this.pending.size > 0;
  }

  /** what cannot go on, for a multi-PE deadlock: parked kernels, kernels without SMs, queue heads and what they wait for */
  blockedWork(): { text: string; stream: number; where: string }[] {
    const out: { text: string; stream: number; where: string }[] = [];
    for (const p of this.parked)
      out.push({ stream: p.stream.id, where: p.where, text: `kernel '${p.kernel.name}' spins holding ${p.hold.sms} SM${p.hold.sms === 1 ? '' : 's'}: ${p.kernel.describeSpin()}` });
    for (const w of this.waitingForSms) out.push({ stream: w.stream.id, where: w.where, text: `kernel '${w.work.def.name}' cannot start: no SM has room for its blocks beside the spinning kernel${this.parked.length === 1 ? '' : 's'}` });
    for (const op of this.pending) {
      if (op.state === 1 && op.work.kind === 'system') {
        const why = op.work.waiting();
        if (why) out.push({ stream: op.stream.id, where: op.where, text: `${op.work.name} ${why}` });
      }
      if (op.state === 0) {
        const on = [op.prev, ...op.deps].find((d) => d && d.state !== 2);
        const name = op.work.kind === 'kernel' ? `kernel '${op.work.def.name}'` : op.work.kind === 'system' ? op.work.name : op.work.kind;
        const onName = on ? (on.work.kind === 'kernel' ? `kernel '${on.work.def.name}'` : on.work.kind === 'system' ? on.work.name : on.work.kind) : '';
        const q = this.queues[op.stream.queue] as Op[];
        const head = q[this.heads[op.stream.queue] as number];
        const first = this.inOrderBlocker(op);
        const behind = on
          ? ` is queued behind ${onName} (${on.where}) on stream ${on.stream.id}`
          : first
            ? ` waits in hardware queue ${op.stream.queue} behind ${this.opName(first)} of stream ${first.stream.id} (${first.where}), which the queue runs before it, in order`
            : head && head !== op
              ? ` waits behind ${this.opName(head)} of stream ${head.stream.id} in hardware queue ${op.stream.queue}`
              : ' has not started';
        out.push({ stream: op.stream.id, where: op.where, text: `${name}${behind}` });
      }
    }
    return out;
  }

  // ---- enqueue and dispatch -----------------------------------------------------------------

  /** work submitted to a stream: a graph node while the stream captures, else an op */
  private submit(s: Stream, type: NodeType, work: WorkSpec, where: string): void {
    if (s.capture) this.captureNode(s, type, work, where);
    else this.enqueue(s, work, where);
  }

  private captureNode(s: Stream, type: NodeType, work: WorkSpec, where: string): GraphNode {
    const cap = s.capture as Capture;
    const n = cap.graph.add(type, work, cap.frontier.get(s) ?? [], where);
    cap.frontier.set(s, [n]);
    return n;
  }

  private enqueue(s: Stream, work: WorkSpec, where: string, extraDeps: Op[] = []): Op {
    const deps = [...extraDeps];
    const implicit: Op[] = [];
    // the legacy default stream waits for every blocking stream, and they wait for it
    if (s.legacy) {
      for (const o of this.streams) if (!o.nonBlocking && !o.legacy && o.last && o.last.state !== 2) implicit.push(o.last);
    } else if (!s.nonBlocking && this.lastLegacy && this.lastLegacy.state !== 2 && this.lastLegacy !== s.last) implicit.push(this.lastLegacy);
    deps.push(...implicit);
    const latency = work.kind === 'kernel' || work.kind === 'graph' ? this.costs.gpu.launchLatencyNs : 0;
    const op: Op = { id: this.ops++, work, stream: s, where, submitNs: this.hostNow, visibleNs: this.hostNow + latency, prev: s.last, deps, implicit, state: 0, startNs: 0, endNs: 0 };
    s.last = op;
    if (s.legacy) this.lastLegacy = op;
    this.pending.add(op);
    this.queues[s.queue]?.push(op);
    this.advanceToHost();
    this.clock.at(op.visibleNs, () => this.pump());
    return op;
  }

  /** start every queue head whose dependencies are done: FIFO, so a blocked head blocks its queue */
  private pump(): void {
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    do {
      this.pumpAgain = false;
      const now = this.clock.now;
      for (let i = 0; i < this.queues.length; i++) {
        const q = this.schedule.reverse ? this.queues.length - 1 - i : i;
        const ops = this.queues[q] as Op[];
        for (;;) {
          const h = this.heads[q] as number;
          const op = ops[h];
          if (!op) break;
          const before = (this.recent[q] as Op[])[(this.recent[q] as Op[]).length - 1];
          if (this.schedule.inOrder && before && before.state !== 2) break;
          const at = this.readyAt(op);
          if (at === null) break;
          if (at > now) {
            this.clock.at(at, () => this.pump());
            break;
          }
          this.heads[q] = h + 1;
          if (h + 1 >= 4096) {
            ops.splice(0, h + 1);
            this.heads[q] = 0;
          }
          const recent = this.recent[q] as Op[];
          this.startOp(op, now, recent);
          recent.push(op);
          if (recent.length > 16) recent.shift();
        }
      }
    } while (this.pumpAgain);
    this.pumping = false;
  }

  /** when the op may start, or null while something it depends on is not done */
  private readyAt(op: Op): number | null {
    return this.afterDeps(op, true, false);
  }

  /**
   * the op's visibility, or the latest end among what it depends on (plus the front end's gap before
   * a kernel when `gap`), or null while one is not done; `own`: leave out the dependencies the legacy
   * default stream added
   */
  private afterDeps(op: Op, gap: boolean, own: boolean): number | null {
    let t = op.visibleNs;
    const g = gap && op.work.kind === 'kernel' ? this.costs.gpu.kernelGapNs : 0;
    for (const d of op.prev ? [op.prev, ...op.deps] : op.deps) {
      if (own && op.implicit.includes(d)) continue;
      if (d.state !== 2) return null;
      if (d.endNs + g > t) t = d.endNs + g;
    }
    return t;
  }

  /** `recent`: the ops this queue started before it, newest last (one may have held it back) */
  private startOp(op: Op, now: number, recent: readonly Op[]): void {
    op.state = 1;
    op.startNs = now;
    const rec: Partial<TimelineOp> = { queue: op.stream.queue, submitNs: op.submitNs };
    // what held it back beyond its own stream and events: a dependency nobody wrote
    // its dependencies are all done now: afterDeps gives a number
    const own = this.afterDeps(op, true, true) as number;
    if (now > own + 1) {
      // another stream's op that sat at the head of this queue while this one was ready
      let blocker: Op | undefined;
      for (let i = recent.length - 1; i >= 0 && !blocker; i--) {
        const o = recent[i] as Op;
        if (o.stream !== op.stream && o.startNs > own && o.recId !== undefined) blocker = o;
      }
      if (blocker) rec.delayedBy = { op: blocker.recId as number, cause: 'hardware-queue', ns: now - own };
      else {
        const legacy = op.implicit.filter((d) => d.endNs >= now - 1 - this.costs.gpu.kernelGapNs && d.recId !== undefined)[0];
        if (legacy) rec.delayedBy = { op: legacy.recId as number, cause: 'legacy-stream', ns: now - own };
      }
    }
    const n = this.record.length;
    // a wait is over when what it waits for is: its end is that, not when the queue reached it
    const w = op.work.kind;
    const at = w === 'eventWait' || w === 'empty' ? Math.min(now, this.afterDeps(op, false, false) as number) : now;
    this.startWork(op.work, at, op.stream, op.where, rec, (end) => this.completeOp(op, end));
    if (this.record.length > n) op.recId = n;
  }


  private completeOp(op: Op, end: number): void {
    op.state = 2;
    op.endNs = end;
    if (end > this.latestEnd) this.latestEnd = end;
    this.pending.delete(op);
    if (op.waiters) for (const w of op.waiters) w();
    this.wrote();
    this.pump();
  }

  /**
   * run one unit of work from `t`; `done(end)` when it completes. `rec` fields go on its timeline
   * entry (stream work: its queue and submit time; graph nodes: the launch and node)
   */
  private startWork(work: WorkSpec, t: number, s: Stream, where: string, rec: Partial<TimelineOp>, done: (end: number) => void): void {
    const entry = (kind: TimelineKind, name: string): TimelineOp => {
      const r: TimelineOp = { id: this.record.length, kind, name, stream: s.id, submitNs: rec.submitNs ?? t, startNs: t, endNs: t, ...rec, where };
      this.record.push(r);
      return r;
    };
    switch (work.kind) {
      case 'kernel': {
        // a kernel no SM has room for beside the parked (spinning) kernels waits until one is done
        if (this.parked.length > 0 && !this.blocks.roomBesideHolds(this.runner.footprintOf(work))) {
          this.waitingForSms.push({ work, stream: s, where, rec: { ...rec, startNs: t }, done });
          return;
        }
        this.startKernel(work, s, where, rec, done, entry);
        return;
      }
      case 'memcpy':
      case 'memset': {
        const c = this.costs.copy;
        const kind = work.kind === 'memset' ? 'DtoD' : copyKindOf(work.dst, work.src);
        const pinnedHost = work.kind === 'memcpy' && [work.dst, work.src].every((e) => !(e instanceof HostBuffer) || e.pinned);
        const engine: EngineId = kind === 'HtoD' ? 'h2d' : kind === 'DtoH' ? 'd2h' : 'd2d';
        const rate = work.kind === 'memset' ? c.memsetBytesPerNs : kind === 'HtoD' ? (pinnedHost ? c.h2dBytesPerNs : c.pageableH2dBytesPerNs) : kind === 'DtoH' ? (pinnedHost ? c.d2hBytesPerNs : c.pageableD2hBytesPerNs) : c.d2dBytesPerNs;
        const r = entry(work.kind, work.kind === 'memset' ? '[CUDA memset]' : `[CUDA memcpy ${kind}]`);
        r.bytes = work.bytes;
        if (work.kind === 'memcpy') {
          r.copyKind = kind;
          r.pinned = pinnedHost;
        }
        r.engine = engine;
        const fixed = work.kind === 'memset' ? c.memsetLatencyNs : kind === 'HtoD' ? c.h2dLatencyNs : kind === 'DtoH' ? c.d2hLatencyNs : c.d2dLatencyNs;
        const ns = fixed + work.bytes / rate;
        const perform = (): void => {
          if (work.kind === 'memset') setBytes(work.dst, 0, work.value, work.bytes);
          else copyBytes(work.dst, work.dstOffset, work.src, work.srcOffset, work.bytes);
          const dst = work.dst;
          if (dst.kind === 'devptr') this.mem.hostWrote?.(dst.allocation, dst.address - dst.allocation.base + (work.kind === 'memset' ? 0 : work.dstOffset), work.bytes);
        };
        if (kind === 'HtoH') {
          perform();
          done(t);
          return;
        }
        this.engines[engine].submit(
          ns,
          (st) => {
            r.startNs = st;
            perform();
          },
          (end) => {
            r.endNs = end;
            done(end);
          },
        );
        return;
      }
      case 'host': {
        const r = entry('host', 'host function');
        this.inHostFn = true;
        try {
          work.fn();
        } finally {
          this.inHostFn = false;
        }
        const end = t + this.costs.gpu.hostFuncNs;
        this.clock.at(end, () => {
          r.endNs = end;
          done(end);
        });
        return;
      }
      case 'eventRecord': {
        const r = entry('eventRecord', `event ${work.event.id}`);
        r.endNs = t + this.costs.gpu.eventNs;
        done(r.endNs);
        return;
      }
      case 'alloc':
      case 'free': {
        const r = entry(work.kind, work.kind === 'alloc' ? `alloc ${work.ptr.allocation.bytes} B` : `free ${work.ptr.allocation.bytes} B`);
        r.bytes = work.ptr.allocation.bytes;
        done(t);
        return;
      }
      case 'eventWait':
      case 'empty':
        done(t);
        return;
      case 'system': {
        const r = entry('nvshmem', work.name);
        work.start(t, (end) => {
          r.endNs = end;
          done(end);
        });
        return;
      }
      case 'graph': {
        this.runGraph(work.exec as GraphExec, work.works ?? (work.exec as GraphExec).nodes.map((n) => n.work), t, s, entry('graph', `graph ${(work.exec as GraphExec).id}`), done);
        return;
      }
    }
  }

  /** run a kernel in the interpreter and give its blocks to the block scheduler; a parked one holds its SMs */
  private startKernel(work: Extract<WorkSpec, { kind: 'kernel' }>, s: Stream, where: string, rec: Partial<TimelineOp>, done: (end: number) => void, entry: (kind: TimelineKind, name: string) => TimelineOp): void {
    // its domain's writes in flight from the kernels before it, at its dispatch (its blocks start
    // then unless the SMs are full: a later start sees no more of them in flight than this)
    const domain = physicalDomain(work.attrs);
    const run = this.runner.run(work, where, s.id, () => this.epoch.n, this.syncDomains.launch(domain, this.clock.now));
    const r = entry('kernel', run.name);
    r.grid = run.grid;
    r.block = run.block;
    r.domain = domain;
    const priority = work.attrs.priority ?? s.priority;
    if ('parked' in run) {
      r.startNs = this.clock.now;
      const hold = this.blocks.hold(run.footprint, run.maxPerSm, run.resident);
      const p: Parked = { kernel: run, hold, rec: r, stream: s, where, startNs: this.clock.now, seen: this.epoch.n, priority, done };
      this.parked.push(p);
      // what it wrote before parking may wake kernels parked before it (on this GPU or another PE)
      if (run.writes() > 0) {
        p.seen = ++this.epoch.n;
        if (this.onWrite) this.onWrite();
        else this.retryParked();
      }
      return;
    }
    if (run.kernelIndex !== null) r.kernel = run.kernelIndex;
    r.startNs = Infinity;
    this.blocks.submit({
      footprint: run.footprint,
      maxPerSm: run.maxPerSm,
      durations: run.durations,
      priority,
      context: this.context,
      onStart: (st) => {
        r.startNs = st;
        // its slow writes are in flight from its start, for the fences of the kernels after it
        if (run.slowWrites) this.syncDomains.record(domain, st, run.slowWrites);
      },
      onDone: (end) => {
        if (!Number.isFinite(r.startNs)) r.startNs = end;
        r.endNs = end;
        done(end);
      },
    });
  }

  /** work ended or the host wrote: what parked kernels read may have changed */
  private wrote(): void {
    this.epoch.n++;
    if (this.onWrite) this.onWrite();
    else this.retryParked();
  }

  /**
   * resume every parked kernel that has not run since the last write; one that finishes ends a little
   * after now: a write is taken to be visible at its writer's end (conservative for a kernel that sets
   * its flag early), and the poll that sees it one L2 round trip later
   */
  retryParked(): void {
    if (this.retrying || this.parked.length === 0) return;
    this.retrying = true;
    try {
      for (let again = true; again; ) {
        again = false;
        for (const p of [...this.parked]) {
          if (p.seen === this.epoch.n) continue;
          p.seen = this.epoch.n;
          const before = p.kernel.writes();
          const run = p.kernel.resume();
          if (!run) {
            // it ran and parked again: what it wrote meanwhile (a remote put, a flag) may wake others
            if (p.kernel.writes() !== before) {
              this.epoch.n++;
              p.seen = this.epoch.n;
              again = true;
            }
            continue;
          }
          this.parked.splice(this.parked.indexOf(p), 1);
          // its own writes may wake the others
          this.epoch.n++;
          again = true;
          this.finishParked(p, run);
        }
      }
    } finally {
      this.retrying = false;
    }
  }

  private finishParked(p: Parked, run: KernelRun): void {
    const r = p.rec;
    if (run.kernelIndex !== null) r.kernel = run.kernelIndex;
    const held = p.hold.blocks;
    // its blocks' modelled times count the spins the interpreter ran before it parked, an artefact of
    // when parking is noticed: it ends when the write that woke it reaches it (an L2 round trip later)
    let end = this.clock.now + (2 * this.arch.latency.l2Hit / this.arch.smClockHz) * 1e9;
    if (p.kernel.timedWaits) for (let b = 0; b < held; b++) end = Math.max(end, p.startNs + (run.durations[b] as number));
    this.clock.at(end, () => {
      p.hold.release();
      const rest = run.durations.subarray(held);
      const finish = (e: number): void => {
        r.endNs = e;
        p.done(e);
      };
      if (rest.length === 0) finish(end);
      else this.blocks.submit({ footprint: run.footprint, maxPerSm: run.maxPerSm, durations: rest, priority: p.priority, onDone: finish });
      this.startWaitingForSms();
    });
  }

  /** kernels that waited for SMs the parked kernels held: start those that now have room */
  private startWaitingForSms(): void {
    for (const w of [...this.waitingForSms]) {
      if (!this.blocks.roomBesideHolds(this.runner.footprintOf(w.work))) continue;
      this.waitingForSms.splice(this.waitingForSms.indexOf(w), 1);
      const entry = (kind: TimelineKind, name: string): TimelineOp => {
        const t = this.clock.now;
        const r: TimelineOp = { id: this.record.length, kind, name, stream: w.stream.id, submitNs: w.rec.submitNs ?? t, startNs: t, endNs: t, ...w.rec, where: w.where };
        r.startNs = t;
        this.record.push(r);
        return r;
      };
      this.startKernel(w.work, w.stream, w.where, w.rec, w.done, entry);
    }
  }

  /** a graph launch: nodes start when their dependencies complete; done when every node is */
  private runGraph(exec: GraphExec, works: readonly WorkSpec[], t: number, s: Stream, rec: TimelineOp, done: (end: number) => void): void {
    const n = exec.nodes.length;
    const left = new Int32Array(n);
    const depEnd = new Float64Array(n);
    let remaining = n;
    let last = t;
    const start0 = t + this.costs.gpu.graphLaunchGpuNs;
    if (n === 0) {
      rec.endNs = start0;
      done(start0);
      return;
    }
    const finishNode = (i: number, end: number): void => {
      if (end > last) last = end;
      for (const d of (exec.nodes[i] as ExecNode).dependents) {
        left[d] = (left[d] as number) - 1;
        if (end > (depEnd[d] as number)) depEnd[d] = end;
        if (left[d] === 0) schedule(d);
      }
      if (--remaining === 0) {
        rec.endNs = last;
        done(last);
      }
    };
    const schedule = (i: number): void => {
      const en = exec.nodes[i] as ExecNode;
      const gap = en.type === 'kernel' && en.deps.length ? this.costs.gpu.graphNodeGapNs : 0;
      const at = Math.max(start0, (depEnd[i] as number) + gap);
      this.clock.at(at, () => {
        let work = works[i] as WorkSpec;
        // a wait node waits for the event's last record made before this launch
        if (work.kind === 'eventWait') {
          const op = (work.event as Event).op;
          if (op && op.state !== 2) {
            (op.waiters ??= []).push(() => finishNode(i, this.clock.now));
            return;
          }
          work = { kind: 'empty' };
        }
        this.startWork(work, this.clock.now, s, en.node.where, { graphLaunch: rec.id, graphNode: en.node.index, submitNs: rec.submitNs }, (end) => finishNode(i, end));
      });
    };
    for (let i = 0; i < n; i++) left[i] = (exec.nodes[i] as ExecNode).deps.length;
    for (let i = 0; i < n; i++) if (left[i] === 0) schedule(i);
  }

  // ---- the host's waits ---------------------------------------------------------------------

  /**
   * block the host until `cond`; the call returns syncWakeNs after the awaited work's end. Alone, the
   * device runs until then; in a multi-PE system (`hostWaits`) the host's program is suspended and the
   * system resumes it once `cond` holds, interleaving the PEs' programs in simulated time
   */
  private waitHost(name: string, where: string, cond: () => boolean, endOf: () => number, extraNs = 0, cover?: () => void): void | Promise<void> {
    if (this.inHostFn) throw new HostFault(`${where}: ${name} inside a host function: a host function must not call CUDA (it would deadlock the stream, CUDA Programming Guide 'Host Functions')`);
    const start = this.hostNow;
    this.advanceToHost();
    if (this.hostWaits && !cond())
      return this.hostWaits.wait({
        name,
        where,
        cond,
        resume: () => {
          cover?.();
          this.hostWaited(name, where, start, true, endOf, extraNs);
        },
      });
    let waited = false;
    while (!cond()) {
      waited = true;
      if (!this.clock.step()) {
        this.retryParked();
        if (!this.clock.step() && !cond()) throw new HostFault(`${where}: ${name} waits for work that can never complete: ${this.stuck()}`);
      }
    }
    cover?.();
    this.hostWaited(name, where, start, waited, endOf, extraNs);
  }

  /** the newest op of each stream the host has waited for (`hostOrdered`) */
  private readonly hostCovered = new Map<Stream, number>();
  private hostCoveredAll = -1;
  /** the newest event record the host synchronized on, per stream (a later one waits for the earlier through its stream): the host is ordered after all they wait for */
  private readonly hostWaitedOps = new Map<Stream, Op>();
  /** stream, event and device synchronizes the host has made (the NVSHMEM hazards' "synchronize in between") */
  explicitSyncs = 0;

  /** whether the host waited for an op (synchronised its stream or the device since it was enqueued) */
  hostOrdered(op: OpHandle): boolean {
    const o = op as Op;
    if (o.id <= Math.max(this.hostCoveredAll, this.hostCovered.get(o.stream) ?? -1)) return true;
    for (const w of this.hostWaitedOps.values()) if (this.dependsOn(w, o)) return true;
    return false;
  }

  /** whether op `b` waits, through its stream and events, for op `a` */
  dependsOn(b: OpHandle, a: OpHandle): boolean {
    const target = a as Op;
    const seen = new Set<Op>();
    const stack: Op[] = [b as Op];
    while (stack.length) {
      const o = stack.pop() as Op;
      if (o === target) return true;
      // dependencies are always older: nothing older than a can lead to it
      if (o.id < target.id || seen.has(o)) continue;
      seen.add(o);
      if (o.prev) stack.push(o.prev);
      for (const d of o.deps) stack.push(d);
    }
    return false;
  }

  /** the host comes back from a wait: its clock, the pool's trim, the API record */
  private hostWaited(name: string, where: string, start: number, waited: boolean, endOf: () => number, extraNs: number): void {
    const readyAt = waited ? Math.max(this.hostNow, endOf() + this.costs.host.syncWakeNs) : this.hostNow + this.costs.host.syncCallNs;
    this.hostNow = readyAt + extraNs;
    // the pool gives what it holds beyond its release threshold back at a synchronize
    for (const p of this.pool.trim()) this.mem.free(p.allocation);
    this.api.push({ name, startNs: start, endNs: this.hostNow, where });
  }

  /** why nothing can go on: the parked kernels and what waits behind them, else the queues' heads */
  private stuck(): string {
    if (this.parked.length) return this.deadlock();
    const heads: string[] = [];
    for (let q = 0; q < this.queues.length; q++) {
      const op = this.queues[q]?.[this.heads[q] as number];
      if (!op) continue;
      const on = [op.prev, ...op.deps].find((d) => d && d.state !== 2);
      heads.push(`queue ${q}: ${op.work.kind} of stream '${op.stream.name}' (${op.where})${on ? ` waits for ${on.work.kind} of stream '${on.stream.name}' (${on.where})` : ''}`);
    }
    return heads.join('; ') || 'nothing is queued';
  }

  /**
   * the host reads or writes device memory: alone, the device first finishes what was submitted (as
   * the synchronous calls ctx.host stands for do); in a multi-PE program the host must await a
   * synchronize first (other PEs' programs may be what the work waits for)
   */
  settleForHost(where: () => string): void {
    if (!this.hostWaits) return this.drain(where);
    // a program's host loop reads element after element: while nothing ran, was submitted or moved the
    // host's clock since the last settle (other PEs' programs cannot run in between), it holds still
    const c = this.clock;
    const s = this.lastSettle;
    if (s.hostNow === this.hostNow && s.processed === c.processed && s.size === c.size && s.epoch === this.epoch.n) return;
    this.advanceToHost();
    if (this.pending.size) throw new HostFault(`${where()}: ctx.host touches device memory while this PE's work is still running: await ctx.deviceSynchronize() (or the stream's) first`);
    s.hostNow = this.hostNow;
    s.processed = c.processed;
    s.size = c.size;
    s.epoch = this.epoch.n;
  }
  private readonly lastSettle = { hostNow: -1, processed: -1, size: -1, epoch: -1 };

  /** run the device until all work is done (the program's end) */
  drain(where: () => string): void {
    this.advanceToHost();
    while (this.pending.size) if (!this.clock.step()) throw new HostFault(`${where()}: the program ended with work that can never complete: ${this.stuck()}`);
    while (this.clock.step());
  }

  /**
   * the wait-for cycle on this GPU when parked kernels hold SMs and nothing else can run: who spins
   * where, what cannot start for want of their SMs or behind them in a queue, and the seed's fixes
   */
  deadlock(): string {
    const parts: string[] = [];
    const names = this.parked.map((p) => `'${p.kernel.name}'`).join(', ');
    for (const p of this.parked)
      parts.push(
        `kernel '${p.kernel.name}' (stream ${p.stream.id}, hardware queue ${p.stream.queue}, launched at ${p.where}) spins holding ${p.hold.sms} SM${p.hold.sms === 1 ? '' : 's'} ` +
          `(${p.hold.blocks} block${p.hold.blocks === 1 ? '' : 's'} resident): ${p.kernel.describeSpin()}`,
      );
    for (const w of this.waitingForSms)
      parts.push(`kernel '${w.work.def.name}' (stream ${w.stream.id}, launched at ${w.where}) cannot start: no SM has room for its blocks beside ${names}, which wait for memory that only other work writes`);
    for (let q = 0; q < this.queues.length; q++) {
      const op = this.queues[q]?.[this.heads[q] as number];
      if (!op) continue;
      const on = [op.prev, ...op.deps].find((d) => d && d.state !== 2) ?? this.inOrderBlocker(op);
      const onText = on ? `, behind ${this.opName(on)} of stream ${on.stream.id} (${on.where})${on.stream !== op.stream ? ', which the queue runs before it, in order' : ''}` : '';
      parts.push(`${this.opName(op)} of stream ${op.stream.id} (${op.where}) waits at the head of hardware queue ${q}${onText}`);
    }
    const queued = this.queues.some((q, i) => q[this.heads[i] as number] !== undefined);
    const fix = queued && !this.waitingForSms.length
      ? `fix: the runtime may put independent streams' work into one hardware work queue and run it in order; give the writer a CUDA-visible dependence before the waiting kernel (same stream, notifier first, or an event) (seed 001, "CUDA Streams and False Circular Dependencies")`
      : this.waitingForSms.length
      ? `fix: enqueue the kernel that writes what ${names} wait${this.parked.length === 1 ? 's' : ''} for before ${this.parked.length === 1 ? 'it' : 'them'} in one stream, or make ${this.parked.length === 1 ? 'it' : 'them'} wait on an event recorded after the writer (seed 001, "CUDA Stream Order and Execution Resources"); or launch fewer blocks so both fit`
      : `fix: the memory ${names} poll${this.parked.length === 1 ? 's' : ''} is written by work ordered after ${this.parked.length === 1 ? 'it' : 'them'} or by nothing: order the writer before the waiter (same stream, or an event), or launch all waiting blocks co-resident (cooperative launch)`;
    return `deadlock: ${parts.join('; ')}; ${fix}`;
  }

  private apiCall(name: string, ns: number, where: string): void {
    if (this.inHostFn) throw new HostFault(`${where}: ${name} inside a host function: a host function must not call CUDA (it would deadlock the stream, CUDA Programming Guide 'Host Functions')`);
    const start = this.hostNow;
    this.hostNow += ns;
    this.api.push({ name, startNs: start, endNs: this.hostNow, where });
  }

  private noCapture(name: string, where: string, mallocLike = false): void {
    for (const c of this.captures) {
      if (mallocLike && c.mode === 'relaxed') continue;
      this.captureViolation(`${name} while stream '${c.origin.name}' is capturing (begun at ${c.where})`, where, SYNC_APIS_DURING_CAPTURE);
    }
  }

  private captureViolation(what: string, where: string, code: string): never {
    throw new HostFault(`${where}: ${what} is not allowed during stream capture (${code}); move it before cudaStreamBeginCapture or after cudaStreamEndCapture`);
  }

  // ---- handles -----------------------------------------------------------------------------

  private stream(h: StreamHandle, where: string, api: string): Stream {
    if (!(h instanceof Stream) || !this.streams.includes(h)) throw new HostFault(`${where}: ${api}: not a stream of this program (cudaErrorInvalidResourceHandle)`);
    if (h.destroyed) throw new HostFault(`${where}: ${api} on stream '${h.name}', which was destroyed (cudaErrorInvalidResourceHandle)`);
    return h;
  }

  private streamOrDefault(h: StreamHandle | undefined, where: string, api: string): Stream {
    return h === undefined ? this.legacyStream : this.stream(h, where, api);
  }

  private event(h: EventHandle, where: string, api: string): Event {
    if (!(h instanceof Event)) throw new HostFault(`${where}: ${api}: not an event (cudaErrorInvalidResourceHandle)`);
    if (h.destroyed) throw new HostFault(`${where}: ${api} on an event that was destroyed (made at ${h.where}) (cudaErrorInvalidResourceHandle)`);
    return h;
  }

  private exec(h: GraphExecHandle, where: string, api: string): GraphExec {
    if (!(h instanceof GraphExec)) throw new HostFault(`${where}: ${api}: not an executable graph; instantiate it with ctx.graphInstantiate (cudaErrorInvalidValue)`);
    if (h.destroyed) throw new HostFault(`${where}: ${api} on an executable graph that was destroyed (instantiated at ${h.where}) (cudaErrorInvalidValue)`);
    return h;
  }

  // ---- the result ---------------------------------------------------------------------------

  timeline(): Timeline {
    const ops = this.record.map((r) => ({ ...r }));
    return {
      hwQueues: this.hwQueues,
      streams: this.streams.map((s) => ({ id: s.id, name: s.name, queue: s.queue, priority: s.priority, nonBlocking: s.nonBlocking })),
      ops,
      api: this.api.map((a) => ({ ...a })),
      smBusy: this.blocks.busySeries.map((x) => ({ ...x })),
      endNs: Math.max(this.hostNow, this.clock.now),
    };
  }
}
