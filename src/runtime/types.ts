/**
 * The host runtime's handles and the work it moves: streams, events, host buffers, and one unit of
 * work (a kernel, a copy, a memset, a host function, an event, an allocation, a graph) as data,
 * whether it sits in a stream or in a graph node.
 */
import type { ArgVals, KernelDef, LaunchConfig, ParamTypes } from '../kernel/define.js';
import type { DevicePtr } from '../memory/deviceMemory.js';
import type { LaunchAttributes } from './attributes.js';

export interface StreamOptions {
  /** cudaStreamNonBlocking: no implicit synchronisation with the legacy default stream */
  nonBlocking?: boolean;
  /** lower is higher; clamped to the device's range as cudaStreamCreateWithPriority does */
  priority?: number;
  /** a name for the timeline (nsys shows the stream id) */
  name?: string;
}

export interface EventOptions {
  /** cudaEventDisableTiming: elapsedTime on it is an error */
  disableTiming?: boolean;
}

/** host memory a copy reads or writes: pageable (malloc) or pinned (cudaMallocHost) */
export class HostBuffer {
  readonly kind = 'hostbuf';
  constructor(
    readonly bytes: Uint8Array,
    readonly pinned: boolean,
    readonly name: string,
  ) {}
  get size(): number {
    return this.bytes.length;
  }
  view(): DataView {
    return new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength);
  }
}

export type CopyEnd = DevicePtr | HostBuffer;
export type CopyKind = 'HtoD' | 'DtoH' | 'DtoD' | 'HtoH';

/** one unit of work, as a stream op or a graph node carries it */
export type WorkSpec =
  | { kind: 'kernel'; def: KernelDef; args: Partial<ArgVals<ParamTypes>>; config: Partial<LaunchConfig> | undefined; attrs: LaunchAttributes; profile: boolean }
  | { kind: 'memcpy'; dst: CopyEnd; src: CopyEnd; bytes: number; dstOffset: number; srcOffset: number }
  | { kind: 'memset'; dst: DevicePtr; value: number; bytes: number }
  | { kind: 'host'; fn: () => void }
  | { kind: 'eventRecord'; event: EventHandle }
  | { kind: 'eventWait'; event: EventHandle }
  | { kind: 'alloc'; ptr: DevicePtr; bytes: number }
  | { kind: 'free'; ptr: DevicePtr }
  | { kind: 'graph'; exec: GraphExecHandle; /** each node's work as it was at the launch (later updates do not reach a launch made before them) */ works?: readonly WorkSpec[] }
  | { kind: 'empty' }
  /**
   * work the system layer runs (NVSHMEM's on-stream operations): `start` from t, `done(end)` when it
   * completes (it may wait for other PEs); `waiting()` says what it waits for while it has not ended
   */
  | { kind: 'system'; name: string; start: (t: number, done: (end: number) => void) => void; waiting: () => string | null };

/** handles the runtime gives out; their internals live in the runtime */
export interface StreamHandle {
  readonly kind: 'stream';
  readonly id: number;
  readonly name: string;
}
export interface EventHandle {
  readonly kind: 'event';
  readonly id: number;
}
export interface GraphExecHandle {
  readonly kind: 'graphExec';
  readonly id: number;
}

export function copyKindOf(dst: CopyEnd, src: CopyEnd): CopyKind {
  const d = dst.kind === 'devptr';
  const s = src.kind === 'devptr';
  return s && d ? 'DtoD' : s ? 'DtoH' : d ? 'HtoD' : 'HtoH';
}
