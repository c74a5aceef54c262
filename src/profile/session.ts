/**
 * A profiling session: one emulated device (memory, L2 state) on which a kernel file's kernels or
 * programs run, each launch becoming one report entry. Programs drive several launches over shared
 * memory and L2 (ncu's application replay with --cache-control none keeps L2 between them).
 */
import type { KernelResult } from '../../types/report.schema.js';
import type { Arch } from '../arch/types.js';
import { UserError } from '../errors.js';
import type { AccessPolicyWindowSpec, ArgVals, Dim3, KernelDef, LaunchConfig, LaunchOpts, ParamTypes, ProgramContext, ProgramDef, ScalarArgs } from '../kernel/define.js';
import { dim3 } from '../kernel/define.js';
import { Host } from '../kernel/host.js';
import { parseScalarParam } from '../kernel/params.js';
import { checkAccessPolicyWindow, checkPersistingL2Limit } from '../kernel/runtimeChecks.js';
import { DeviceMemory, type DevicePtr } from '../memory/deviceMemory.js';
import { memoryInstructionLocs } from '../exec/explain.js';
import { MemoryHierarchy } from '../memory/hierarchy.js';
import { runtimeCostsFor } from '../arch/runtimeCosts.js';
import type { SourceLoc } from '../ir/types.js';
import type { WorkSpec } from '../runtime/types.js';
import { ProgramApi } from '../runtime/programApi.js';
import { Runtime, type KernelRun } from '../runtime/runtime.js';
import type { Timeline } from '../runtime/timeline.js';
import { finishResult } from './finish.js';
import { buildKernel, checkLaunch, type LaunchCheck, launchConfig, resolveScalars, runLaunch } from './launch.js';
import { occupancyFor } from './occupancy.js';

export interface SessionOptions {
  arch: Arch;
  /** the kernel file as the user named it */
  file: string;
  cacheControl: 'all' | 'none';
  /** --param overrides */
  params: Record<string, string>;
  grid?: Dim3;
  block?: Dim3;
  maxWarpInstructions?: number;
  quantum?: number;
  /** run the timing model (default true); false leaves out what only it measures (ProfileRequest.timing) */
  timing?: boolean;
  /** hardware work queues for programs (CUDA_DEVICE_MAX_CONNECTIONS); absent: the program's or the arch default */
  hwQueues?: number;
  /** `--explain`: the memory instructions of profiled launches whose lanes to capture (absent: none) */
  explain?: (loc: SourceLoc) => boolean;
  /** `warpsight check`: observes every launch, profiled or not (absent: none) */
  check?: LaunchCheck;
}

/** one program's run on the runtime: its timeline */
export interface ProgramRun {
  name: string;
  timeline: Timeline;
  /** runtime events processed (the bench's events-per-second figure) */
  simEvents: number;
  /** figures the program reported with ctx.value */
  values: { name: string; value: number; unit: string }[];
}

export class Session {
  readonly mem = new DeviceMemory();
  readonly host = new Host(this.mem);
  readonly memsys: MemoryHierarchy;
  readonly results: KernelResult[] = [];
  readonly programs: ProgramRun[] = [];
  /** block times of unprofiled launches, by kernel, launch and arguments: a repeat takes the first run's */
  private readonly blockTimes = new Map<string, Float64Array>();
  private readonly irCache = new Map<KernelDef, ReturnType<typeof buildKernel>>();
  private usedParams = new Set<string>();
  /** with `explain`: the memory instructions of the profiled launches (where `--explain` could point) */
  readonly memoryLocs: SourceLoc[] = [];

  constructor(readonly opts: SessionOptions) {
    this.mem.setCapacity(opts.arch.globalMemBytes, opts.arch.name);
    this.memsys = new MemoryHierarchy(opts.arch);
  }

  /**
   * profile a single kernel definition: its own setup, one launch, its check. Its buffers are freed
   * afterwards, so every kernel of a file runs at the same addresses whichever others were selected
   * (with `--cache-control none` the next kernel may find their lines in L2, as after cudaFree)
   */
  runKernel(def: KernelDef): KernelResult {
    const heap = this.mem.mark();
    try {
      const scalars = resolveScalars(def, this.opts.params);
      const args = def.setup(this.host, scalars) as Partial<ArgVals<ParamTypes>>;
      return this.launchWith(def, args, scalars, undefined, true);
    } finally {
      this.mem.release(heap);
    }
  }

  /**
   * run a program on the device's runtime (src/runtime): its streams, launches, copies and graphs
   * over simulated time, each profiled launch one report entry, the whole a timeline
   */
  runProgram(p: ProgramDef): KernelResult[] {
    const scalars: ScalarArgs = { ...(p.defaults ?? {}) };
    for (const [k, v] of Object.entries(this.opts.params)) {
      if (!(k in scalars)) throw new UserError(`--param ${k}=${v}: program '${p.name}' has no parameter '${k}'; its parameters are ${Object.keys(scalars).join(', ') || 'none'}`, 2);
      scalars[k] = parseScalarParam(k, v, undefined, `program '${p.name}'`);
    }
    const first = this.results.length;
    const costs = runtimeCostsFor(this.opts.arch.id);
    const hwQueues = this.opts.hwQueues ?? p.hwQueues;
    const rt = new Runtime(this.opts.arch, costs, this.mem, { run: (w, where, stream) => this.runKernelWork(w, where, stream) }, hwQueues === undefined ? {} : { hwQueues });
    const ctx = new ProgramApi(rt, this, this.opts.file);
    try {
      p.run(ctx, scalars);
      rt.drain(() => this.opts.file);
    } catch (e) {
      if (e instanceof UserError) throw e;
      throw new UserError(`${ctx.site()}: program '${p.name}' threw: ${e instanceof Error ? e.message : String(e)}`);
    }
    this.programs.push({ name: p.name, timeline: rt.timeline(), simEvents: rt.clock.processed, values: ctx.values });
    const failure = p.check?.(this.host);
    if (failure) for (const r of this.results.slice(first)) r.check = { passed: false, message: failure };
    return this.results.slice(first);
  }

  /**
   * a kernel the runtime starts: run it in the interpreter now (its report entry when profiled) and
   * give the block scheduler each block's time and footprint
   */
  runKernelWork(w: Extract<WorkSpec, { kind: 'kernel' }>, where: string, stream: number): KernelRun {
    const d = w.def;
    const scalars: ScalarArgs = { ...((d.defaults ?? {}) as ScalarArgs) };
    for (const [k, v] of Object.entries(w.args)) if (typeof v === 'number') scalars[k] = v;
    const args = w.args as Partial<ArgVals<ParamTypes>>;
    const cfg = launchConfig(d, scalars, w.config);
    const grid = this.opts.grid ?? dim3(cfg.grid);
    const block = this.opts.block ?? dim3(cfg.block);
    const ir = this.irOf(d);
    checkLaunch(d.name, grid, block, cfg.dynamicShared ?? 0, ir.sharedStaticBytes, this.opts.arch);
    const occ = this.occOf(d, ir, grid, block, cfg.dynamicShared ?? 0);
    const nBlocks = grid[0] * grid[1] * grid[2];
    if (w.attrs.cooperative && nBlocks > occ.blocksPerSm * this.opts.arch.smCount)
      throw new UserError(`${where}: cooperative launch of '${d.name}' with ${nBlocks} blocks, but only ${occ.blocksPerSm} per SM x ${this.opts.arch.smCount} SMs = ${occ.blocksPerSm * this.opts.arch.smCount} can be resident at once (cudaErrorCooperativeLaunchTooLarge)`);
    const key = w.profile ? '' : `${this.irKey(d)}|${grid.join(',')}|${block.join(',')}|${cfg.dynamicShared ?? 0}|${argKey(args, scalars)}`;
    const cached = w.profile ? undefined : this.blockTimes.get(key);
    const timed = (this.opts.timing ?? true) && !cached;
    const clk = this.opts.arch.smClockHz;
    const durations = cached ?? new Float64Array(nBlocks);
    const onBlock = timed ? (linear: number, s: number, e: number) => void (durations[linear] = ((e - s) / clk) * 1e9) : undefined;
    const window = w.attrs.accessPolicyWindow;
    if (window) this.setAccessPolicyWindow(window);
    let kernelIndex: number | null = null;
    let warpInstructions = 0;
    try {
      if (w.profile) {
        const r = this.launchWith(d, args, scalars, w.config, false, onBlock, timed);
        // the default stream is what a report without a stream means (ncu's 7)
        if (stream !== 7) r.launch.stream = stream;
        kernelIndex = r.id;
        warpInstructions = Number(r.metrics['smsp__inst_executed.sum'] ?? 0);
      } else {
        const { out } = this.execute(d, args, scalars, cfg, grid, block, 'none', timed, onBlock);
        warpInstructions = out.warpInstructions;
      }
    } finally {
      if (window) this.setAccessPolicyWindow(null);
    }
    if (!timed && !cached) {
      // no timing model: each block issues its share of the warp instructions, one per cycle per scheduler
      const per = ((warpInstructions / Math.max(1, nBlocks)) / this.opts.arch.schedulersPerSm / clk) * 1e9;
      durations.fill(per);
    }
    if (!w.profile && !cached) this.blockTimes.set(key, durations);
    const threads = block[0] * block[1] * block[2];
    const warps = Math.ceil(threads / 32);
    const a = this.opts.arch;
    const regsPerWarp = Math.ceil((occ.registersPerThread * 32) / a.registerAllocationUnit) * a.registerAllocationUnit;
    return {
      name: d.name,
      grid,
      block,
      durations,
      footprint: { warps, registers: regsPerWarp * warps, sharedBytes: ir.sharedStaticBytes + (cfg.dynamicShared ?? 0) + a.sharedMemReservedPerBlock },
      maxPerSm: occ.blocksPerSm,
      kernelIndex,
    };
  }

  /** where a kernel's memory instructions are (its IR, built once as for its launches): `--explain`'s check before running */
  memoryLocsOf(def: KernelDef): SourceLoc[] {
    return memoryInstructionLocs(this.irOf(def).body);
  }

  private irKeys = new Map<KernelDef, number>();
  private irKey(d: KernelDef): number {
    let k = this.irKeys.get(d);
    if (k === undefined) this.irKeys.set(d, (k = this.irKeys.size));
    return k;
  }

  // ---- the device's L2 controls (programs reach them through ProgramApi) ---------------------
  setPersistingL2Limit(bytes: number): void {
    checkPersistingL2Limit(bytes, this.opts.arch);
    this.memsys.setPersistingLimit(bytes);
  }
  persistingL2Limit(): number {
    return this.memsys.persistingLimit();
  }
  setAccessPolicyWindow(w: AccessPolicyWindowSpec | null): void {
    checkAccessPolicyWindow(w, this.opts.arch);
    this.memsys.setAccessPolicyWindow(w ? { base: w.base.address, bytes: w.bytes, hitRatio: w.hitRatio, hitProp: w.hitProp, missProp: w.missProp } : null);
  }
  resetPersistingL2Cache(): void {
    this.memsys.resetPersistingLines();
  }
  l2PartitionOfSm(sm: number): number {
    return this.memsys.l2.partOfSm(sm);
  }
  l2HomeOf(p: DevicePtr, byteOffset = 0): number {
    return this.memsys.l2.homeOf(Math.floor((p.address + byteOffset) / this.opts.arch.l2LineSize));
  }

  // ---- one launch ----------------------------------------------------------------------------

  /** occupancy of a launch shape (a pure function of it: repeated launches reuse it) */
  private readonly occCache = new Map<string, ReturnType<typeof occupancyFor>>();
  private occOf(def: KernelDef, ir: ReturnType<typeof buildKernel>, grid: Dim3, block: Dim3, dyn: number): ReturnType<typeof occupancyFor> {
    const key = `${this.irKey(def)}|${grid.join(',')}|${block.join(',')}|${dyn}`;
    let occ = this.occCache.get(key);
    if (!occ) this.occCache.set(key, (occ = occupancyFor(this.opts.arch, def, ir, grid, block, dyn)));
    return occ;
  }

  private irOf(def: KernelDef): ReturnType<typeof buildKernel> {
    let ir = this.irCache.get(def);
    if (!ir) {
      ir = buildKernel(def, this.opts.file);
      this.irCache.set(def, ir);
    }
    return ir;
  }

  /** one launch on this device: occupancy, caches, the interpreter; the cache counters come back */
  private execute(def: KernelDef, args: Partial<ArgVals<ParamTypes>>, scalars: ScalarArgs, cfg: LaunchConfig, grid: Dim3, block: Dim3, cacheControl: 'all' | 'none', timing = true, onBlock?: (linear: number, s: number, e: number) => void, explain?: (loc: SourceLoc) => boolean) {
    const o = this.opts;
    const ir = this.irOf(def);
    checkLaunch(def.name, grid, block, cfg.dynamicShared ?? 0, ir.sharedStaticBytes, o.arch);
    const occ = this.occOf(def, ir, grid, block, cfg.dynamicShared ?? 0);
    this.memsys.beginLaunch({ cacheControl, l1Bytes: occ.l1Bytes });
    const out = runLaunch(def, ir, args, scalars, cfg, occ.blocksPerSm, {
      arch: o.arch,
      file: o.file,
      mem: this.mem,
      memsys: this.memsys,
      grid,
      block,
      maxWarpInstructions: o.maxWarpInstructions ?? 50_000_000,
      quantum: o.quantum ?? 64,
      timing,
      ...(onBlock ? { onBlock } : {}),
      ...(explain ? { explain } : {}),
      ...(o.check ? { check: o.check } : {}),
    });
    if (out.memoryLocs) this.memoryLocs.push(...out.memoryLocs);
    return { out, occ, cache: this.memsys.endLaunch() };
  }

  private launchWith(def: KernelDef, args: Partial<ArgVals<ParamTypes>>, scalars: ScalarArgs, config: Partial<LaunchConfig> | undefined, standalone: boolean, onBlock?: (linear: number, s: number, e: number) => void, timing = this.opts.timing ?? true): KernelResult {
    const o = this.opts;
    const cfg = launchConfig(def, scalars, config);
    const grid = o.grid ?? dim3(cfg.grid);
    const block = o.block ?? dim3(cfg.block);
    // only a profiled launch is explained: its report entry carries the explanation
    const { out, occ, cache } = this.execute(def, args, scalars, cfg, grid, block, o.cacheControl, timing, onBlock, o.explain);
    let check: KernelResult['check'];
    if (standalone && def.check) {
      const msg = def.check(this.host, argsForCheck(def, args, scalars), { grid, block });
      // most bundled checks sample outputs of the kernel's own launch: say so when it was changed
      const changed = o.grid || o.block ? ' (--grid/--block changed the launch: the check may read outputs only the kernel\'s own launch writes)' : '';
      check = msg ? { passed: false, message: msg + changed } : { passed: true };
    }
    const result = finishResult({
      id: this.results.length,
      base: out.result,
      arch: o.arch,
      occupancy: occ,
      cache,
      check,
      registersPerThread: occ.registersPerThread,
      registersSource: occ.registersSource,
    });
    this.results.push(result);
    return result;
  }
}

/** a launch's arguments as a key: buffers by address, scalars by value */
function argKey(args: Partial<ArgVals<ParamTypes>>, scalars: ScalarArgs): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(args)) if (v && typeof v === 'object') parts.push(`${k}=${(v as DevicePtr).address}`);
  for (const [k, v] of Object.entries(scalars)) parts.push(`${k}=${v}`);
  return parts.sort().join(',');
}

function argsForCheck(def: KernelDef, args: Partial<ArgVals<ParamTypes>>, scalars: ScalarArgs): ArgVals<ParamTypes> {
  const out: Record<string, unknown> = { ...scalars };
  for (const [k, v] of Object.entries(args)) out[k] = v;
  void def;
  return out as ArgVals<ParamTypes>;
}
