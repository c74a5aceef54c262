/**
 * What a program's run() holds: the CUDA runtime API over one Runtime. Each call notes the program
 * line that made it (errors and the timeline name it) and hands the work to the runtime. The older
 * program calls (ctx.launch without a stream, the L2 controls, ctx.host) keep their meaning: host
 * reads and writes and the L2 controls first let the device finish what was submitted, as the
 * synchronous CUDA calls they stand for do.
 */
import type { AccessPolicyWindowSpec, ArgVals, DeviceAttributeName, KernelDef, LaunchConfig, LaunchOpts, ParamTypes, ProgramContext } from '../kernel/define.js';
import { Host } from '../kernel/host.js';
import type { ScalarType } from '../ir/types.js';
import type { DeviceMemory, DevicePtr } from '../memory/deviceMemory.js';
import { HostFault, stackFrames } from '../errors.js';
import { isOwnFrame } from '../paths.js';
import { checkAttributes } from './attributes.js';
import { Graph, type GraphNode, graphDot } from './graph.js';
import type { Runtime } from './runtime.js';
import type { ShmemContext } from '../system/shmemHost.js';
import { type CopyEnd, type EventHandle, type EventOptions, type GraphExecHandle, HostBuffer, type StreamHandle, type StreamOptions, type WorkSpec } from './types.js';

/** the device controls a program reaches besides the runtime (the profiling session's) */
export type DeviceControls = { readonly mem: DeviceMemory } & Pick<
  ProgramContext,
  'host' | 'setPersistingL2Limit' | 'persistingL2Limit' | 'setAccessPolicyWindow' | 'resetPersistingL2Cache' | 'l2PartitionOfSm' | 'l2HomeOf'
>;

/** ctx.host for programs: a host access first lets the device finish what was submitted */
class SyncedHost extends Host {
  constructor(
    mem: DeviceMemory,
    private readonly settle: () => void,
    /** an access to host-mapped memory (ctx.hostAllocMapped): it waits for nothing; a write may wake polling kernels */
    private readonly mapped: (write: boolean) => void,
  ) {
    super(mem);
  }
  private before(p: DevicePtr): void {
    if (p.allocation.hostMapped) this.mapped(false);
    else this.settle();
  }
  override read(p: DevicePtr, type: ScalarType, i: number): number | bigint {
    this.before(p);
    return super.read(p, type, i);
  }
  override readNumber(p: DevicePtr, type: ScalarType, i: number): number {
    this.before(p);
    return super.readNumber(p, type, i);
  }
  override write(p: DevicePtr, type: ScalarType, i: number, value: number | bigint): void {
    this.before(p);
    super.write(p, type, i, value);
    // the write is made: now the kernels polling it may see it
    if (p.allocation.hostMapped) this.mapped(true);
  }
}

export class ProgramApi implements ProgramContext {
  readonly host: Host;
  readonly perThreadStream: StreamHandle;

  constructor(
    private readonly rt: Runtime,
    private readonly dev: DeviceControls,
    private readonly file: string,
  ) {
    // the call's line is looked up only when the drain fails (a stack per host read would be slow)
    this.host = new SyncedHost(
      dev.mem,
      () => rt.settleForHost(() => this.site()),
      (write) => rt.hostMappedAccess(write),
    );
    this.perThreadStream = rt.perThreadStream;
  }

  /** the program line making the current call (file:line), from the stack */
  site(): string {
    const base = this.file.replace(/^\.\//, '');
    let fallback: string | null = null;
    for (const f of stackFrames(new Error())) {
      if (f.file.endsWith(base)) return `${this.file}:${f.line}`;
      // the first frame outside Warpsight's own code (a program imported from another file)
      if (fallback === null && !isOwnFrame(f.file)) fallback = `${f.file}:${f.line}`;
    }
    return fallback ?? this.file;
  }

  // ---- kernels ----

  launch<P extends ParamTypes>(def: KernelDef<P>, args: Partial<ArgVals<P>>, config?: Partial<LaunchConfig>, opts?: LaunchOpts): void {
    const where = this.site();
    this.rt.launch(this.kernelWork(def, args, config, opts, where), opts?.stream, where);
  }

  private kernelWork<P extends ParamTypes>(def: KernelDef<P>, args: Partial<ArgVals<P>>, config: Partial<LaunchConfig> | undefined, opts: LaunchOpts | undefined, where: string): Extract<WorkSpec, { kind: 'kernel' }> {
    if (!def || (def as { kind?: string }).kind !== 'kernel') throw new HostFault(`${where}: launch needs a kernel made with defineKernel`);
    if (opts) for (const k of Object.keys(opts)) if (!['profile', 'stream', 'attributes'].includes(k)) throw new HostFault(`${where}: unknown launch option '${k}'; the options are profile, stream, attributes`);
    const attrs = checkAttributes(opts?.attributes, where, this.rt.costs.memSyncDomainCount);
    return { kind: 'kernel', def: def as unknown as KernelDef, args: args as Partial<ArgVals<ParamTypes>>, config, attrs, profile: opts?.profile !== false };
  }

  // ---- the L2 controls: synchronous calls ----

  setPersistingL2Limit(bytes: number): void {
    this.rt.drain(() => this.site());
    this.dev.setPersistingL2Limit(bytes);
  }
  persistingL2Limit(): number {
    return this.dev.persistingL2Limit();
  }
  setAccessPolicyWindow(w: AccessPolicyWindowSpec | null): void {
    this.rt.drain(() => this.site());
    this.dev.setAccessPolicyWindow(w);
  }
  resetPersistingL2Cache(): void {
    this.rt.drain(() => this.site());
    this.dev.resetPersistingL2Cache();
  }
  l2PartitionOfSm(sm: number): number {
    return this.dev.l2PartitionOfSm(sm);
  }
  l2HomeOf(p: DevicePtr, byteOffset?: number): number {
    return this.dev.l2HomeOf(p, byteOffset);
  }

  // ---- streams and events ----

  streamCreate(opts?: StreamOptions): StreamHandle {
    return this.rt.streamCreate(opts, this.site());
  }
  streamDestroy(s: StreamHandle): void {
    this.rt.streamDestroy(s, this.site());
  }
  streamSetAttributes(s: StreamHandle, attrs: Parameters<Runtime['streamSetAttributes']>[1]): void {
    const where = this.site();
    this.rt.streamSetAttributes(s, checkAttributes(attrs, where, this.rt.costs.memSyncDomainCount), where);
  }
  streamSynchronize(s?: StreamHandle): void | Promise<void> {
    return this.rt.streamSynchronize(s, this.site());
  }
  streamQuery(s?: StreamHandle): boolean {
    return this.rt.streamQuery(s, this.site());
  }
  streamWaitEvent(s: StreamHandle | undefined, e: EventHandle): void {
    this.rt.streamWaitEvent(s, e, this.site());
  }
  eventCreate(opts?: EventOptions): EventHandle {
    return this.rt.eventCreate(opts?.disableTiming ?? false, this.site());
  }
  eventDestroy(e: EventHandle): void {
    this.rt.eventDestroy(e, this.site());
  }
  eventRecord(e: EventHandle, s?: StreamHandle): void {
    this.rt.eventRecord(e, s, this.site());
  }
  eventQuery(e: EventHandle): boolean {
    return this.rt.eventQuery(e, this.site());
  }
  eventSynchronize(e: EventHandle): void | Promise<void> {
    return this.rt.eventSynchronize(e, this.site());
  }
  eventElapsedTime(start: EventHandle, end: EventHandle): number {
    return this.rt.eventElapsedTime(start, end, this.site());
  }
  deviceSynchronize(): void | Promise<void> {
    return this.rt.deviceSynchronize(this.site());
  }

  // ---- memory ----

  private readonly alloc = (bytes: number, name: string): DevicePtr => this.dev.mem.alloc(bytes, name);

  malloc(bytes: number, name?: string): DevicePtr {
    const where = this.site();
    return this.rt.malloc(bytes, name ?? `cudaMalloc (${where})`, where, this.alloc);
  }
  free(p: DevicePtr): void | Promise<void> {
    return this.rt.free(this.devPtr(p, 'cudaFree'), this.site());
  }
  mallocAsync(bytes: number, s?: StreamHandle): DevicePtr {
    return this.rt.mallocAsync(bytes, s, this.site(), this.alloc);
  }
  freeAsync(p: DevicePtr, s?: StreamHandle): void {
    this.rt.freeAsync(this.devPtr(p, 'cudaFreeAsync'), s, this.site());
  }
  setMemPoolReleaseThreshold(bytes: number): void {
    this.rt.setPoolReleaseThreshold(bytes, this.site());
  }
  hostAlloc(bytes: number, name?: string): HostBuffer {
    return this.hostBuffer(bytes, false, name);
  }
  mallocHost(bytes: number, name?: string): HostBuffer {
    return this.hostBuffer(bytes, true, name);
  }
  hostAllocMapped(bytes: number, name?: string): DevicePtr {
    const where = this.site();
    if (!Number.isInteger(bytes) || bytes <= 0 || bytes > 2 ** 31) throw new HostFault(`${where}: cudaHostAlloc(cudaHostAllocMapped) needs 1 byte to 2 GiB, not ${bytes}`);
    return this.rt.hostAllocMapped(bytes, name ?? `mapped host memory (${where})`, where, this.alloc);
  }
  private hostBuffer(bytes: number, pinned: boolean, name: string | undefined): HostBuffer {
    const where = this.site();
    if (!Number.isInteger(bytes) || bytes <= 0 || bytes > 2 ** 31) throw new HostFault(`${where}: a host buffer must be 1 byte to 2 GiB, not ${bytes}`);
    return new HostBuffer(new Uint8Array(bytes), pinned, name ?? `${pinned ? 'pinned' : 'pageable'} host buffer (${where})`);
  }
  /** cudaMemset: asynchronous to the host for device memory */
  memset(dst: DevicePtr, value: number, bytes: number): void {
    const where = this.site();
    this.rt.memset(this.devPtr(dst, 'cudaMemset'), value, bytes, where);
    this.onSyncCopy?.(dst, bytes, where, 'cudaMemset');
  }
  /** the system's watch over cudaMemcpy/cudaMemset into symmetric memory (their implicit asynchrony, seed 001) */
  onSyncCopy: ((dst: CopyEnd, bytes: number, where: string, api: string) => void) | null = null;
  memcpy(dst: CopyEnd, src: CopyEnd, bytes: number, offsets?: { dst?: number; src?: number }): void | Promise<void> {
    this.onSyncCopy?.(dst, bytes, this.site(), 'cudaMemcpy');
    return this.rt.memcpy(dst, src, bytes, this.site(), offsets);
  }
  memcpyAsync(dst: CopyEnd, src: CopyEnd, bytes: number, s?: StreamHandle, offsets?: { dst?: number; src?: number }): void {
    this.rt.memcpyAsync(dst, src, bytes, s, this.site(), offsets);
  }
  memsetAsync(dst: DevicePtr, value: number, bytes: number, s?: StreamHandle): void {
    this.rt.memsetAsync(this.devPtr(dst, 'cudaMemsetAsync'), value, bytes, s, this.site());
  }
  launchHostFunc(s: StreamHandle | undefined, fn: () => void): void {
    this.rt.launchHostFunc(s, fn, this.site());
  }

  private devPtr(p: DevicePtr, api: string): DevicePtr {
    if (!p || p.kind !== 'devptr') throw new HostFault(`${this.site()}: ${api} needs a device pointer`);
    return p;
  }

  // ---- graphs ----

  streamBeginCapture(s: StreamHandle, mode: 'global' | 'threadLocal' | 'relaxed' = 'global'): void {
    this.rt.beginCapture(s, mode, this.site());
  }
  streamEndCapture(s: StreamHandle): Graph {
    return this.rt.endCapture(s, this.site());
  }
  streamIsCapturing(s: StreamHandle): boolean {
    return this.rt.isCapturing(s, this.site());
  }
  graphCreate(): Graph {
    return new Graph();
  }
  private graph(g: Graph, where: string): Graph {
    if (!(g instanceof Graph)) throw new HostFault(`${where}: not a graph; make one with ctx.graphCreate() or ctx.streamEndCapture()`);
    if (g.destroyed) throw new HostFault(`${where}: the graph was destroyed (cudaErrorInvalidValue)`);
    return g;
  }
  graphAddKernelNode<P extends ParamTypes>(g: Graph, deps: readonly GraphNode[], def: KernelDef<P>, args: Partial<ArgVals<P>>, config?: Partial<LaunchConfig>, opts?: Omit<LaunchOpts, 'stream'>): GraphNode {
    const where = this.site();
    return this.graph(g, where).add('kernel', this.kernelWork(def, args, config, opts, where), deps, where);
  }
  graphAddMemcpyNode(g: Graph, deps: readonly GraphNode[], dst: CopyEnd, src: CopyEnd, bytes: number): GraphNode {
    const where = this.site();
    return this.graph(g, where).add('memcpy', { kind: 'memcpy', dst, src, bytes, dstOffset: 0, srcOffset: 0 }, deps, where);
  }
  graphAddMemsetNode(g: Graph, deps: readonly GraphNode[], dst: DevicePtr, value: number, bytes: number): GraphNode {
    const where = this.site();
    return this.graph(g, where).add('memset', { kind: 'memset', dst: this.devPtr(dst, 'cudaGraphAddMemsetNode'), value, bytes }, deps, where);
  }
  graphAddHostNode(g: Graph, deps: readonly GraphNode[], fn: () => void): GraphNode {
    const where = this.site();
    return this.graph(g, where).add('host', { kind: 'host', fn }, deps, where);
  }
  graphAddEventRecordNode(g: Graph, deps: readonly GraphNode[], e: EventHandle): GraphNode {
    const where = this.site();
    return this.graph(g, where).add('eventRecord', { kind: 'eventRecord', event: e }, deps, where);
  }
  graphAddEventWaitNode(g: Graph, deps: readonly GraphNode[], e: EventHandle): GraphNode {
    const where = this.site();
    return this.graph(g, where).add('eventWait', { kind: 'eventWait', event: e }, deps, where);
  }
  graphAddMemAllocNode(g: Graph, deps: readonly GraphNode[], bytes: number): { node: GraphNode; ptr: DevicePtr } {
    const where = this.site();
    if (!Number.isInteger(bytes) || bytes <= 0) throw new HostFault(`${where}: cudaGraphAddMemAllocNode size must be a positive integer, not ${bytes}`);
    const ptr = this.dev.mem.alloc(bytes, `graph alloc (${where})`);
    return { node: this.graph(g, where).add('memAlloc', { kind: 'alloc', ptr, bytes }, deps, where), ptr };
  }
  graphAddMemFreeNode(g: Graph, deps: readonly GraphNode[], p: DevicePtr): GraphNode {
    const where = this.site();
    const graph = this.graph(g, where);
    if (graph.nodes.some((n) => n.work.kind === 'free' && n.work.ptr.allocation === p.allocation)) throw new HostFault(`${where}: the graph already frees this allocation (cudaErrorInvalidValue)`);
    return graph.add('memFree', { kind: 'free', ptr: this.devPtr(p, 'cudaGraphAddMemFreeNode') }, deps, where);
  }
  graphAddChildGraphNode(g: Graph, deps: readonly GraphNode[], child: Graph): GraphNode {
    const where = this.site();
    this.graph(child, where);
    if (child === g) throw new HostFault(`${where}: a graph cannot be its own child`);
    return this.graph(g, where).add('graph', { kind: 'empty' }, deps, where, child);
  }
  graphAddEmptyNode(g: Graph, deps: readonly GraphNode[]): GraphNode {
    const where = this.site();
    return this.graph(g, where).add('empty', { kind: 'empty' }, deps, where);
  }
  graphAddDependencies(g: Graph, from: GraphNode, to: GraphNode): void {
    const where = this.site();
    this.graph(g, where).addDependency(from, to, where);
  }
  graphInstantiate(g: Graph): GraphExecHandle {
    const where = this.site();
    return this.rt.graphInstantiate(this.graph(g, where), where);
  }
  graphLaunch(exec: GraphExecHandle, s?: StreamHandle): void {
    this.rt.graphLaunch(exec, s, this.site());
  }
  graphExecKernelNodeSetParams(exec: GraphExecHandle, node: GraphNode, args: Record<string, DevicePtr | number>): void {
    this.rt.execKernelNodeSetParams(exec, node, args, this.site());
  }
  graphExecDestroy(exec: GraphExecHandle): void {
    this.rt.graphExecDestroy(exec, this.site());
  }
  graphDestroy(g: Graph): void {
    this.graph(g, this.site()).destroyed = true;
  }
  graphDebugDotPrint(g: Graph): string {
    return graphDot(this.graph(g, this.site()));
  }

  // ---- device ----

  deviceAttribute(name: DeviceAttributeName): number {
    const a = this.rt.arch;
    const c = this.rt.costs;
    const values: Record<DeviceAttributeName, number> = {
      memSyncDomainCount: c.memSyncDomainCount,
      multiProcessorCount: a.smCount,
      maxBlocksPerMultiprocessor: a.maxBlocksPerSm,
      concurrentKernels: 1,
      asyncEngineCount: 3,
      streamPriorityLeast: c.priorityLeast,
      streamPriorityGreatest: c.priorityGreatest,
    };
    const v = values[name];
    if (v === undefined) throw new HostFault(`${this.site()}: unknown device attribute '${String(name)}'; the attributes are ${Object.keys(values).join(', ')}`);
    return v;
  }
  hostTimeNs(): number {
    return this.rt.hostNow;
  }
  // ---- the PEs of a multi-PE program (src/system) ----

  private shmemApi: ShmemContext | null = null;
  /** this program's PE and the number of PEs (a single GPU: 0 of 1) */
  pe = 0;
  npes = 1;
  /** NVSHMEM's host API: in a multi-PE program only */
  get shmem(): ShmemContext {
    if (!this.shmemApi) throw new HostFault(`${this.site()}: ctx.shmem (NVSHMEM) is for multi-PE programs: declare pes in defineProgram (or run with --pes N)`);
    return this.shmemApi;
  }
  attachPe(pe: number, npes: number, shmem: (site: () => string) => ShmemContext): void {
    this.pe = pe;
    this.npes = npes;
    this.shmemApi = shmem(() => this.site());
  }

  /** figures the program reported, in the order it reported them */
  readonly values: { name: string; value: number; unit: string }[] = [];
  value(name: string, value: number, unit = ''): void {
    const where = this.site();
    if (typeof name !== 'string' || !name) throw new HostFault(`${where}: ctx.value needs a name`);
    if (typeof value !== 'number' || !Number.isFinite(value)) throw new HostFault(`${where}: ctx.value('${name}', …) needs a finite number, not ${String(value)}`);
    const old = this.values.find((v) => v.name === name);
    if (old) old.value = value;
    else this.values.push({ name, value, unit });
  }
}
