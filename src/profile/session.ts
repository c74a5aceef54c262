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
import { DeviceMemory, type DevicePtr } from '../memory/deviceMemory.js';
import { MemoryHierarchy } from '../memory/hierarchy.js';
import { finishResult } from './finish.js';
import { buildKernel, checkLaunch, launchConfig, resolveScalars, runLaunch } from './launch.js';
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
}

export class Session implements ProgramContext {
  readonly mem = new DeviceMemory();
  readonly host = new Host(this.mem);
  readonly memsys: MemoryHierarchy;
  readonly results: KernelResult[] = [];
  private readonly irCache = new Map<KernelDef, ReturnType<typeof buildKernel>>();
  private usedParams = new Set<string>();

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

  /** run a program: its launches, in order, over one device */
  runProgram(p: ProgramDef): KernelResult[] {
    const scalars: ScalarArgs = { ...(p.defaults ?? {}) };
    for (const [k, v] of Object.entries(this.opts.params)) {
      if (!(k in scalars)) throw new UserError(`--param ${k}=${v}: program '${p.name}' has no parameter '${k}'; its parameters are ${Object.keys(scalars).join(', ') || 'none'}`, 2);
      const n = Number(v);
      if (!Number.isFinite(n)) throw new UserError(`--param ${k}=${v}: '${v}' is not a number`, 2);
      scalars[k] = n;
    }
    const first = this.results.length;
    p.run(this, scalars);
    const failure = p.check?.(this.host);
    if (failure) for (const r of this.results.slice(first)) r.check = { passed: false, message: failure };
    return this.results.slice(first);
  }

  // ---- ProgramContext -----------------------------------------------------------------------

  launch<P extends ParamTypes>(def: KernelDef<P>, args: Partial<ArgVals<P>>, config?: Partial<LaunchConfig>, opts?: LaunchOpts): void {
    const d = def as unknown as KernelDef;
    const scalars: ScalarArgs = { ...((d.defaults ?? {}) as ScalarArgs) };
    for (const [k, v] of Object.entries(args)) if (typeof v === 'number') scalars[k] = v;
    if (opts?.profile === false) this.runUnprofiled(d, args as Partial<ArgVals<ParamTypes>>, scalars, config);
    else this.launchWith(d, args as Partial<ArgVals<ParamTypes>>, scalars, config, false);
  }
  setPersistingL2Limit(bytes: number): void {
    this.memsys.setPersistingLimit(bytes);
  }
  persistingL2Limit(): number {
    return this.memsys.persistingLimit();
  }
  setAccessPolicyWindow(w: AccessPolicyWindowSpec | null): void {
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

  private irOf(def: KernelDef): ReturnType<typeof buildKernel> {
    let ir = this.irCache.get(def);
    if (!ir) {
      ir = buildKernel(def, this.opts.file);
      this.irCache.set(def, ir);
    }
    return ir;
  }

  /** a launch ncu would not profile: it runs and leaves its L2 state, without flush or report entry */
  private runUnprofiled(def: KernelDef, args: Partial<ArgVals<ParamTypes>>, scalars: ScalarArgs, config: Partial<LaunchConfig> | undefined): void {
    const cfg = launchConfig(def, scalars, config);
    this.execute(def, args, scalars, cfg, dim3(cfg.grid), dim3(cfg.block), 'none', false);
  }

  /** one launch on this device: occupancy, caches, the interpreter; the cache counters come back */
  private execute(def: KernelDef, args: Partial<ArgVals<ParamTypes>>, scalars: ScalarArgs, cfg: LaunchConfig, grid: Dim3, block: Dim3, cacheControl: 'all' | 'none', timing = true) {
    const o = this.opts;
    const ir = this.irOf(def);
    checkLaunch(def.name, grid, block, cfg.dynamicShared ?? 0, ir.sharedStaticBytes, o.arch);
    const occ = occupancyFor(o.arch, def, ir, grid, block, cfg.dynamicShared ?? 0);
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
    });
    return { out, occ, cache: this.memsys.endLaunch() };
  }

  private launchWith(def: KernelDef, args: Partial<ArgVals<ParamTypes>>, scalars: ScalarArgs, config: Partial<LaunchConfig> | undefined, standalone: boolean): KernelResult {
    const o = this.opts;
    const cfg = launchConfig(def, scalars, config);
    const grid = o.grid ?? dim3(cfg.grid);
    const block = o.block ?? dim3(cfg.block);
    const { out, occ, cache } = this.execute(def, args, scalars, cfg, grid, block, o.cacheControl, o.timing ?? true);
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

function argsForCheck(def: KernelDef, args: Partial<ArgVals<ParamTypes>>, scalars: ScalarArgs): ArgVals<ParamTypes> {
  const out: Record<string, unknown> = { ...scalars };
  for (const [k, v] of Object.entries(args)) out[k] = v;
  void def;
  return out as ArgVals<ParamTypes>;
}
