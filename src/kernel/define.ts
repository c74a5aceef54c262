/**
 * How a kernel file describes a kernel: its parameters, body (built with the IR builder), launch
 * configuration, input setup and a correctness check against a CPU reference.
 */
import type { KernelBuilder, PtrVal, Val } from '../ir/builder.js';
import type { AccessPropertyKind, PtrType, ValueType } from '../ir/types.js';
import type { DevicePtr } from '../memory/deviceMemory.js';
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
}

/** what a program's run() can do: the host runtime of one device */
export interface ProgramContext {
  host: Host;
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
  run: (ctx: ProgramContext, scalars: ScalarArgs) => void;
  /** checked after the run: null when right */
  check?: (host: Host) => string | null | undefined;
}

export function defineProgram(def: Omit<ProgramDef, 'kind'>): ProgramDef {
  return { kind: 'program', ...def };
}

export function dim3(d: DimLike): Dim3 {
  if (typeof d === 'number') return [d, 1, 1];
  return [d[0], d[1] ?? 1, d[2] ?? 1];
}
