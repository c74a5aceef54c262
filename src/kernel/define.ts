/**
 * How a kernel file describes a kernel: its parameters, body (built with the IR builder), launch
 * configuration, input setup and a correctness check against a CPU reference.
 */
import type { ShmemContext } from '../system/shmemHost.js';
import type { KernelBuilder, PtrVal, Val } from '../ir/builder.js';
import type { AccessPropertyKind, PtrType, ValueType } from '../ir/types.js';
import type { DevicePtr } from '../memory/deviceMemory.js';
import type { LaunchAttributes } from '../runtime/attributes.js';
import type { Graph, GraphNode } from '../runtime/graph.js';
import type { CopyEnd, EventHandle, EventOptions, GraphExecHandle, HostBuffer, StreamHandle, StreamOptions } from '../runtime/types.js';
import type { Host } from './host.js';

export type Dim3 = [number, number, number];
export type DimLike = number | [number] | [number, number] | Dim3;

export type ParamTypes = Record<string, ValueType>;
export type ParamVals<P extends ParamTypes> = { [K in keyof P]: P[K] extends PtrType ? PtrVal : Val };
/** argument values: device pointers for pointer parameters, numbers for scalars */
export type ArgVals<P extends ParamTypes> = { [K in keyof P]: P[K] extends PtrType ? DevicePtr : number };
export type ScalarArgs = Record<string, number>;

export interface LaunchConfig {
  grid: DimLike;
  block: DimLike;
  /** dynamic shared memory bytes (the third <<<>>> argument) */
  dynamicShared?: number;
}

export interface KernelDef<P extends ParamTypes = ParamTypes> {
  readonly kind: 'kernel';
  name: string;
  description?: string;
  params: P;
  /** values of scalar parameters; `--param name=value` overrides them */
  defaults?: Partial<Record<keyof P & string, number>>;
  launch: LaunchConfig | ((scalars: ScalarArgs) => LaunchConfig);
  // setup/check/body are methods so that a KernelDef<P> is usable where any kernel is expected
  /** registers per thread as ptxas reports them (from __launch_bounds__/-maxrregcount); estimated when absent */
  registers?: number;
  /** allocate and fill inputs; returns the pointer arguments */
  setup(host: Host, scalars: ScalarArgs): Partial<Record<keyof P & string, DevicePtr>>;
  /**
   * compare the results with a CPU reference: null/undefined when right, else what is wrong; `launch`
   * is the grid and block that ran (--grid / --block may have changed them)
   */
  check?(host: Host, args: ArgVals<P>, launch: { grid: Dim3; block: Dim3 }): string | null | undefined;
  body(k: KernelBuilder, p: ParamVals<P>): void;
}

export function defineKernel<P extends ParamTypes>(def: Omit<KernelDef<P>, 'kind'>): KernelDef<P> {
  return { kind: 'kernel', ...def };
}

/** an access-policy window on the stream of the next launches (cudaStreamAttributeAccessPolicyWindow) */
export interface AccessPolicyWindowSpec {
  base: DevicePtr;
  bytes: number;
  hitRatio: number;
  hitProp: Exclude<AccessPropertyKind, 'global' | 'shared'>;
  missProp: 'normal' | 'streaming';
}

/** per-launch options of ProgramContext.launch */
export interface LaunchOpts {
  /** false: run without a report entry (a helper kernel the profiler's filter skips); default true */
  profile?: boolean;
  /** the stream (absent: the legacy default stream) */
  stream?: StreamHandle;
  /** launch attributes (cudaLaunchKernelExC's attrs); an unknown one is an error */
  attributes?: LaunchAttributes;
}

/** the device attributes a program may query (cudaDeviceGetAttribute) */
export type DeviceAttributeName = 'memSyncDomainCount' | 'multiProcessorCount' | 'maxBlocksPerMultiprocessor' | 'concurrentKernels' | 'asyncEngineCount' | 'streamPriorityLeast' | 'streamPriorityGreatest';

/**
 * The CUDA runtime of one device, as a program sees it (src/runtime): streams, events, copies, host
 * functions, allocation, graphs. Each call costs simulated host time; work runs on the device's clock.
 * Errors name the program line that made the call.
 */
export interface RuntimeContext {
  /** cudaStreamPerThread (the legacy default stream is `undefined` wherever a stream is taken) */
  readonly perThreadStream: StreamHandle;
  streamCreate(opts?: StreamOptions): StreamHandle;
  streamDestroy(s: StreamHandle): void;
  /** cudaStreamSetAttribute: applies to launches made on the stream afterwards */
  streamSetAttributes(s: StreamHandle, attrs: LaunchAttributes): void;
  streamSynchronize(s?: StreamHandle): void | Promise<void>;
  streamQuery(s?: StreamHandle): boolean;
  streamWaitEvent(s: StreamHandle | undefined, e: EventHandle): void;
  eventCreate(opts?: EventOptions): EventHandle;
  eventDestroy(e: EventHandle): void;
  eventRecord(e: EventHandle, s?: StreamHandle): void;
  eventQuery(e: EventHandle): boolean;
  eventSynchronize(e: EventHandle): void | Promise<void>;
  /** milliseconds between two completed events */
  eventElapsedTime(start: EventHandle, end: EventHandle): number;
  deviceSynchronize(): void | Promise<void>;
  /** cudaMalloc (does not wait) and cudaFree (waits for the whole device) */
  malloc(bytes: number, name?: string): DevicePtr;
  free(p: DevicePtr): void | Promise<void>;
  /** stream-ordered allocation from the device's default pool */
  mallocAsync(bytes: number, s?: StreamHandle): DevicePtr;
  freeAsync(p: DevicePtr, s?: StreamHandle): void;
  /** cudaMemPoolAttrReleaseThreshold of the default pool */
  setMemPoolReleaseThreshold(bytes: number): void;
  /** pageable host memory (malloc) and pinned host memory (cudaMallocHost) */
  hostAlloc(bytes: number, name?: string): HostBuffer;
  mallocHost(bytes: number, name?: string): HostBuffer;
  /**
   * cudaHostAlloc(cudaHostAllocMapped): pinned host memory mapped into the device's address space.
   * Kernels take the returned pointer (each access crosses the host link); the program reads and
   * writes it through ctx.host while kernels run, without waiting for them
   */
  hostAllocMapped(bytes: number, name?: string): DevicePtr;
  memcpy(dst: CopyEnd, src: CopyEnd, bytes: number, offsets?: { dst?: number; src?: number }): void | Promise<void>;
  /** cudaMemset (device memory: asynchronous to the host, on the legacy default stream) */
  memset(dst: DevicePtr, value: number, bytes: number): void;
  memcpyAsync(dst: CopyEnd, src: CopyEnd, bytes: number, s?: StreamHandle, offsets?: { dst?: number; src?: number }): void;
  memsetAsync(dst: DevicePtr, value: number, bytes: number, s?: StreamHandle): void;
  launchHostFunc(s: StreamHandle | undefined, fn: () => void): void;
  streamBeginCapture(s: StreamHandle, mode?: 'global' | 'threadLocal' | 'relaxed'): void;
  streamEndCapture(s: StreamHandle): Graph;
  streamIsCapturing(s: StreamHandle): boolean;
  graphCreate(): Graph;
  graphAddKernelNode<P extends ParamTypes>(g: Graph, deps: readonly GraphNode[], def: KernelDef<P>, args: Partial<ArgVals<P>>, config?: Partial<LaunchConfig>, opts?: Omit<LaunchOpts, 'stream'>): GraphNode;
  graphAddMemcpyNode(g: Graph, deps: readonly GraphNode[], dst: CopyEnd, src: CopyEnd, bytes: number): GraphNode;
  graphAddMemsetNode(g: Graph, deps: readonly GraphNode[], dst: DevicePtr, value: number, bytes: number): GraphNode;
  graphAddHostNode(g: Graph, deps: readonly GraphNode[], fn: () => void): GraphNode;
  graphAddEventRecordNode(g: Graph, deps: readonly GraphNode[], e: EventHandle): GraphNode;
  graphAddEventWaitNode(g: Graph, deps: readonly GraphNode[], e: EventHandle): GraphNode;
  graphAddMemAllocNode(g: Graph, deps: readonly GraphNode[], bytes: number): { node: GraphNode; ptr: DevicePtr };
  graphAddMemFreeNode(g: Graph, deps: readonly GraphNode[], p: DevicePtr): GraphNode;
  graphAddChildGraphNode(g: Graph, deps: readonly GraphNode[], child: Graph): GraphNode;
  graphAddEmptyNode(g: Graph, deps: readonly GraphNode[]): GraphNode;
  graphAddDependencies(g: Graph, from: GraphNode, to: GraphNode): void;
  graphInstantiate(g: Graph): GraphExecHandle;
  graphLaunch(exec: GraphExecHandle, s?: StreamHandle): void;
  /** cudaGraphExecKernelNodeSetParams: new arguments for the node, from the next launch on */
  graphExecKernelNodeSetParams(exec: GraphExecHandle, node: GraphNode, args: Record<string, DevicePtr | number>): void;
  graphExecDestroy(exec: GraphExecHandle): void;
  graphDestroy(g: Graph): void;
  /** the DOT text cudaGraphDebugDotPrint(g, path, 0) writes */
  graphDebugDotPrint(g: Graph): string;
  deviceAttribute(name: DeviceAttributeName): number;
  /** the host thread's simulated clock in ns (what std::chrono would read) */
  hostTimeNs(): number;
  /** a figure the program measured (its printf): listed with the program in the report */
  value(name: string, value: number, unit?: string): void;
}

/** what a program's run() can do: the host runtime of one device */
export interface ProgramContext extends RuntimeContext {
  host: Host;
  /** this program's PE and the number of PEs (nvshmem_my_pe / nvshmem_n_pes; a single GPU: 0 of 1) */
  readonly pe: number;
  readonly npes: number;
  /** NVSHMEM's host API (multi-PE programs only: declare `pes`) */
  readonly shmem: ShmemContext;
  /**
   * launch a kernel with explicit arguments; it is profiled as one report entry, unless
   * `opts.profile` is false: then it runs (device memory and L2 state change, as for a kernel ncu's
   * `-k` filter skips) but adds no report entry and no cache flush
   */
  launch<P extends ParamTypes>(def: KernelDef<P>, args: Partial<ArgVals<P>>, config?: Partial<LaunchConfig>, opts?: LaunchOpts): void;
  /** cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, bytes) */
  setPersistingL2Limit(bytes: number): void;
  /** cudaDeviceGetLimit(cudaLimitPersistingL2CacheSize) */
  persistingL2Limit(): number;
  /** cudaStreamSetAttribute(…AccessPolicyWindow…); null clears it */
  setAccessPolicyWindow(w: AccessPolicyWindowSpec | null): void;
  /** cudaCtxResetPersistingL2Cache() */
  resetPersistingL2Cache(): void;
  /**
   * the L2 partition (0 or 1) whose lines an SM sees near, and the one a byte of device memory is homed
   * in: on hardware a latency probe measures both (test/fidelity/probes/l2_partition_probe.cu); the
   * emulator answers from its model, so a program can pick work by them as the probe does
   */
  l2PartitionOfSm(sm: number): number;
  l2HomeOf(p: DevicePtr, byteOffset?: number): number;
}

/** a sequence of launches over shared device memory and one L2 state */
export interface ProgramDef {
  readonly kind: 'program';
  name: string;
  description?: string;
  /** scalar values passed to run(); --param overrides */
  defaults?: ScalarArgs;
  /** a multi-PE program (`pes` declared) may be async: its host waits return promises to await */
  run: (ctx: ProgramContext, scalars: ScalarArgs) => void | Promise<void>;
  /** checked after the run: null when right */
  check?: (host: Host) => string | null | undefined;
  /** hardware work queues (CUDA_DEVICE_MAX_CONNECTIONS); --hw-queues overrides */
  hwQueues?: number;
  /** run on this many PEs (GPUs, 1-8), once per PE, as nvshmrun -np N; --pes overrides */
  pes?: number;
  /** PEs per node (the rest on further nodes, joined by InfiniBand); --pes-per-node overrides. Absent: all on one node */
  pesPerNode?: number;
  /** NVSHMEM's remote transport between nodes: 'ibrc' (CPU proxy thread, the default) or 'ibgda' (GPU-initiated); --transport overrides */
  transport?: 'ibrc' | 'ibgda';
}

export function defineProgram(def: Omit<ProgramDef, 'kind'>): ProgramDef {
  return { kind: 'program', ...def };
}

export function dim3(d: DimLike): Dim3 {
  if (typeof d === 'number') return [d, 1, 1];
  return [d[0], d[1] ?? 1, d[2] ?? 1];
}
