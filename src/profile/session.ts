/**
 * A profiling session: one emulated device (memory, L2 state) on which a kernel file's kernels or
 * programs run, each launch becoming one report entry. Programs drive several launches over shared
 * memory and L2 (ncu's application replay with --cache-control none keeps L2 between them).
 */
import type { KernelResult } from '../../types/report.schema.js';
import type { Arch } from '../arch/types.js';
import { KernelFault, UserError } from '../errors.js';
import type { AccessPolicyWindowSpec, ArgVals, Dim3, KernelDef, LaunchConfig, ParamTypes, ProgramDef, ScalarArgs } from '../kernel/define.js';
import { dim3 } from '../kernel/define.js';
import { u32 } from '../ir/typesys.js';
import { Host } from '../kernel/host.js';
import { parseScalarParam } from '../kernel/params.js';
import { checkAccessPolicyWindow, checkPersistingL2Limit } from '../kernel/runtimeChecks.js';
import { DeviceMemory, type DevicePtr } from '../memory/deviceMemory.js';
import { memoryInstructionLocs } from '../exec/explain.js';
import { type HierarchyCounters, MemoryHierarchy } from '../memory/hierarchy.js';
import { runtimeCostsFor } from '../arch/runtimeCosts.js';
import type { KernelIR, SourceLoc } from '../ir/types.js';
import type { WorkSpec } from '../runtime/types.js';
import { ProgramApi } from '../runtime/programApi.js';
import { Runtime, type KernelRun, type ParkedKernel, type RuntimeOptions, type Schedule } from '../runtime/runtime.js';
import type { BlockFootprint } from '../device/blockScheduler.js';
import { type DomainLaunch, SlowWriteLog } from '../device/syncDomains.js';
import type { PeerEnv } from '../exec/peerEnv.js';
import type { Timeline } from '../runtime/timeline.js';
import type { RuntimeFinding } from '../runtime/rules.js';
import { finishResult } from './finish.js';
import { notSampledNote } from '../report/sampled.js';
import { checkBlockMultiples } from '../ir/blockTiles.js';
import { buildKernel, checkLaunch, type LaunchCheck, launchConfig, resolveScalars, startLaunch } from './launch.js';
import { occupancyFor } from './occupancy.js';
import { planSample, type SampleOptions, type SamplePlan, scaleCacheMetrics, sliceArch, sliceHierarchyOptions } from './sample.js';

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
  /** one of the runtime's legal schedules (`--explore`); absent: the default */
  schedule?: Schedule;
  /** `warpsight check`: observes every launch, profiled or not (absent: none) */
  check?: LaunchCheck;
  /** `--sample`: a kernel's own launch on a big grid runs a sample of its blocks (profile/sample.ts); absent: exact */
  sample?: SampleOptions;
}

/** one program's run on the runtime: its timeline */
export interface ProgramRun {
  name: string;
  timeline: Timeline;
  /** runtime events processed (the bench's events-per-second figure) */
  simEvents: number;
  /** figures the program reported with ctx.value */
  values: { name: string; value: number; unit: string }[];
  /** hazards found while it ran (the NVSHMEM ones of a multi-PE program) */
  hazards?: RuntimeFinding[];
  /** a multi-PE program: this run's PE and the number of PEs */
  pe?: number;
  pes?: number;
  /** a multi-PE program spanning nodes: this PE's node, and NVSHMEM's remote transport between the nodes */
  node?: number;
  transport?: 'ibrc' | 'ibgda';
  /** a multi-PE program: this PE's NVSHMEM traffic to each peer, and the link it took */
  traffic?: { to: number; kind: string; bytes: number; ops: number; link?: 'nvlink' | 'ibrc' | 'ibgda' }[];
}

/** a multi-PE program's outcome: its launches' report entries (ids from 0) and one timeline per PE */
export interface PeRun {
  results: KernelResult[];
  programs: ProgramRun[];
}

/** what the PEs of a multi-PE program share: one address space and one list of report entries */
export interface SharedDevices {
  mem: DeviceMemory;
  results: KernelResult[];
  /** this session's PE */
  pe: number;
  /** processes sharing one GPU (MPS, time-slicing): its caches too */
  memsys?: MemoryHierarchy;
}

export class Session {
  readonly mem: DeviceMemory;
  readonly host: Host;
  /** the caches: shared (SharedDevices.memsys), or this session's own, made at its first use (a session that only adopts runs needs none) */
  private readonly sharedMemsys: MemoryHierarchy | null;
  private ownMemsys: MemoryHierarchy | null = null;
  readonly results: KernelResult[];
  /** the PE this session's device is in a multi-PE program (null: a single GPU) */
  readonly pe: number | null;
  readonly programs: ProgramRun[] = [];
  /** block times of unprofiled launches, by kernel, launch and arguments: a repeat takes the first run's */
  private readonly blockTimes = new Map<string, Float64Array>();
  private readonly irCache = new Map<KernelDef, ReturnType<typeof buildKernel>>();
  /** with `explain`: the memory instructions of the profiled launches (where `--explain` could point) */
  readonly memoryLocs: SourceLoc[] = [];
  /** the other PEs of a multi-PE program (src/system), for NVSHMEM's device operations */
  peers: PeerEnv | null = null;
  /** the program launch being started: its start on the runtime's clock (ns), for its PE's timed remote writes and waits */
  private launchStartNs: number | null = null;
  /** the launch being started is a collective (cooperative) one */
  private collectiveLaunch = false;
  /** the memory synchronization domain of the program launch being started, and its log of slow writes (device/syncDomains.ts) */
  private domainLaunch: { view: DomainLaunch; log: SlowWriteLog } | null = null;
  /**
   * blockTimes' keys whose first run read no stale L1 copy (memory/l1Cache.ts): its values did not
   * depend on the cache model, so a repeat runs without it (functionally: the cache model only counts
   * and times, and the repeat's counts are not reported and its times are the first run's). Only with
   * --cache-control all (ncu's default): every profiled launch starts from flushed caches, so the L2
   * that the repeats would have left reaches no reported counter, only the times of later unprofiled
   * launches of other kernels or arguments (which find the L2 as the launches before the repeats left
   * it: in a loop's steady state the same lines). With `none` a profiled launch sees the L2 that
   * earlier launches left (a cleaning kernel repeated before each measurement): every launch is simulated.
   */
  private readonly functionalRepeats = new Set<string>();
  /** the slow writes of each cached launch (blockTimes' key): a cached launch runs without the timing model that notes them */
  private readonly slowWriteLogs = new Map<string, SlowWriteLog>();

  constructor(
    readonly opts: SessionOptions,
    shared?: SharedDevices,
  ) {
    this.mem = shared?.mem ?? new DeviceMemory();
    this.host = new Host(this.mem);
    this.results = shared?.results ?? [];
    this.pe = shared?.pe ?? null;
    if (!shared) this.mem.setCapacity(opts.arch.globalMemBytes, opts.arch.name);
    this.sharedMemsys = shared?.memsys ?? null;
    this.sampling = opts.sample;
  }

  get memsys(): MemoryHierarchy {
    if (this.sharedMemsys !== null) return this.sharedMemsys;
    this.ownMemsys ??= new MemoryHierarchy(this.opts.arch);
    return this.ownMemsys;
  }

  /** the session is over (its results made): its own caches' arrays serve the next session's (MemoryHierarchy.release) */
  close(): void {
    this.ownMemsys?.release();
    this.ownMemsys = null;
  }

  /**
   * profile a single kernel definition: its own setup, one launch, its check. Its buffers are freed
   * afterwards, so every kernel of a file runs at the same addresses whichever others were selected
   * (with `--cache-control none` the next kernel may find their lines in L2, as after cudaFree)
   */
  runKernel(def: KernelDef): KernelResult {
    try {
      return this.runKernelOnce(def);
    } catch (e) {
      // a sampled launch whose blocks wait for blocks it did not run (a flag, a counter they set)
      // never finishes: the launch runs again exact, from its own setup, and says why
      if (this.sampling === undefined || !(e instanceof KernelFault && e.kind === 'deadlock')) throw e;
      const sampling = this.sampling;
      this.sampling = undefined;
      try {
        const r = this.runKernelOnce(def);
        r.notes.unshift(notSampledNote(`its sampled blocks deadlocked, waiting for blocks the sample did not run (${e.message.split('\n')[0]})`));
        return r;
      } finally {
        this.sampling = sampling;
      }
    }
  }

  /** `--sample` for kernels' own launches (runKernel turns it off for a launch whose sample deadlocked) */
  private sampling: SampleOptions | undefined;

  private runKernelOnce(def: KernelDef): KernelResult {
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
    const scalars = this.programScalars(p);
    const first = this.results.length;
    const rt = this.newRuntime(p);
    const ctx = new ProgramApi(rt, this, this.opts.file);
    try {
      const ran: unknown = p.run(ctx, scalars);
      if (ran instanceof Promise) throw new UserError(`${this.opts.file}: program '${p.name}' is async: declare its PEs (pes: 1 or more) so that its host waits can be awaited`);
      rt.drain(() => this.opts.file);
    } catch (e) {
      if (e instanceof UserError) throw e;
      throw new UserError(`${ctx.site()}: program '${p.name}' threw: ${e instanceof Error ? e.message : String(e)}`);
    }
    this.finishProgram(p, rt, ctx, first, p.name);
    return this.results.slice(first);
  }

  /** take a multi-PE program's entries in: ids follow this session's, and the timelines point at them */
  adopt(run: PeRun): void {
    const base = this.results.length;
    for (const r of run.results) this.results.push({ ...r, id: r.id + base });
    for (const p of run.programs)
      this.programs.push({ ...p, timeline: { ...p.timeline, ops: p.timeline.ops.map((o) => (o.kernel === undefined ? o : { ...o, kernel: o.kernel + base })) } });
  }

  /** a program's scalars: its defaults, --param overrides (unknown names are errors) */
  programScalars(p: ProgramDef): ScalarArgs {
    const scalars: ScalarArgs = { ...(p.defaults ?? {}) };
    for (const [k, v] of Object.entries(this.opts.params)) {
      if (!(k in scalars)) throw new UserError(`--param ${k}=${v}: program '${p.name}' has no parameter '${k}'; its parameters are ${Object.keys(scalars).join(', ') || 'none'}`, 2);
      scalars[k] = parseScalarParam(k, v, undefined, `program '${p.name}'`);
    }
    return scalars;
  }

  /** this device's CUDA runtime for a program (`system`: the clock and write epoch of a multi-PE system) */
  newRuntime(p: ProgramDef, system?: Pick<RuntimeOptions, 'clock' | 'epoch' | 'onWrite' | 'blocks' | 'context'>): Runtime {
    const costs = runtimeCostsFor(this.opts.arch.id);
    const hwQueues = this.opts.hwQueues ?? p.hwQueues;
    return new Runtime(
      this.opts.arch,
      costs,
      this.mem,
      { run: (w, where, stream, external, sync) => this.runKernelWork(w, where, stream, external, sync), footprintOf: (w) => this.footprintOf(w.def, w) },
      { ...(hwQueues === undefined ? {} : { hwQueues }), ...(this.opts.schedule ? { schedule: this.opts.schedule } : {}), ...(system ?? {}) },
    );
  }

  /** the program's timeline and values go in the report; its check marks its launches */
  finishProgram(p: ProgramDef, rt: Runtime, ctx: ProgramApi, first: number, name: string, hazards: RuntimeFinding[] = [], traffic?: ProgramRun['traffic']): void {
    this.programs.push({ name, timeline: rt.timeline(), simEvents: rt.clock.processed, values: ctx.values, ...(hazards.length ? { hazards } : {}), ...(traffic ? { traffic } : {}) });
    const failure = p.check?.(this.host);
    if (failure) for (const r of this.results.slice(first)) r.check = { passed: false, message: failure };
  }

  /**
   * a kernel the runtime starts: run it in the interpreter now (its report entry when profiled) and
   * give the block scheduler each block's time and footprint
   */
  runKernelWork(w: Extract<WorkSpec, { kind: 'kernel' }>, where: string, stream: number, external?: () => number, sync?: DomainLaunch): KernelRun | ParkedKernel {
    const d = w.def;
    const scalars: ScalarArgs = { ...((d.defaults ?? {}) as ScalarArgs) };
    for (const [k, v] of Object.entries(w.args)) if (typeof v === 'number') scalars[k] = v;
    const args = w.args as Partial<ArgVals<ParamTypes>>;
    const cfg = launchConfig(d, scalars, w.config);
    const grid = this.opts.grid ?? dim3(cfg.grid);
    const block = this.opts.block ?? dim3(cfg.block);
    const ir = this.irOf(d);
    checkLaunch(d.name, grid, block, cfg.dynamicShared ?? 0, ir.sharedStaticBytes, this.opts.arch);
    checkBlockMultiples(d.name, ir, block);
    const occ = this.occOf(d, ir, grid, block, cfg.dynamicShared ?? 0);
    const nBlocks = grid[0] * grid[1] * grid[2];
    if (w.attrs.cooperative && nBlocks > occ.blocksPerSm * this.opts.arch.smCount)
      throw new UserError(`${where}: cooperative launch of '${d.name}' with ${nBlocks} blocks, but only ${occ.blocksPerSm} per SM x ${this.opts.arch.smCount} SMs = ${occ.blocksPerSm * this.opts.arch.smCount} can be resident at once (cudaErrorCooperativeLaunchTooLarge)`);
    const key = w.profile ? '' : `${this.irKey(d)}|${grid.join(',')}|${block.join(',')}|${cfg.dynamicShared ?? 0}|${argKey(args, scalars)}`;
    // other kernels' writes in flight in its domain make its time depend on when it runs: no cache
    const dependent = sync?.inFlightNs != null;
    const cached = w.profile || dependent ? undefined : this.blockTimes.get(key);
    const timed = (this.opts.timing ?? true) && !cached;
    const functional = cached !== undefined && this.opts.cacheControl === 'all' && this.functionalRepeats.has(key);
    const staleReadsBefore = this.memsys.staleReads;
    const clk = this.opts.arch.smClockHz;
    const durations = cached ?? new Float64Array(nBlocks);
    const onBlock = timed ? (linear: number, s: number, e: number) => void (durations[linear] = ((e - s) / clk) * 1e9) : undefined;
    const window = w.attrs.accessPolicyWindow;
    // the launch is resolved already: its block's footprint from what is at hand
    const footprint = this.blockFootprint(ir, block, cfg.dynamicShared ?? 0, occ.registersPerThread);
    const finish = (kernelIndex: number | null, warpInstructions: number): KernelRun => {
      if (!timed && !cached) {
        // no timing model: each block issues its share of the warp instructions, one per cycle per scheduler
        const per = ((warpInstructions / Math.max(1, nBlocks)) / this.opts.arch.schedulersPerSm / clk) * 1e9;
        durations.fill(per);
      }
      if (!w.profile && !cached && !dependent) {
        this.blockTimes.set(key, durations);
        if (this.memsys.staleReads === staleReadsBefore) this.functionalRepeats.add(key);
        if (log) this.slowWriteLogs.set(key, log);
      }
      const slowWrites = cached ? this.slowWriteLogs.get(key) : log;
      return { name: d.name, grid, block, durations, footprint, maxPerSm: occ.blocksPerSm, kernelIndex, ...(slowWrites ? { slowWrites } : {}) };
    };
    // the window is the launch's while its grid runs (a parked grid's resumptions are short: not re-applied)
    if (window) this.setAccessPolicyWindow(window);
    this.collectiveLaunch = w.attrs.cooperative === true;
    this.launchStartNs = sync ? sync.startNs : null;
    const log = sync && timed ? new SlowWriteLog() : null;
    this.domainLaunch = sync && log ? { view: sync, log } : null;
    let step: { advance(): KernelRun | null; describeSpin(alone?: boolean): string; grid: { residentBlocks(): number; writeCount(): number } };
    try {
      if (w.profile) {
        const st = this.startLaunchWith(d, args, scalars, w.config, false, onBlock, timed, external);
        step = {
          grid: st.grid,
          describeSpin: st.describeSpin,
          advance: () => {
            const r = st.advance();
            if (!r) return null;
            // the default stream is what a report without a stream means (ncu's 7)
            if (stream !== 7) r.launch.stream = stream;
            if (this.pe !== null) r.launch.pe = this.pe;
            return finish(r.id, Number(r.metrics['smsp__inst_executed.sum'] ?? 0));
          },
        };
      } else {
        const st = this.startExecute(d, args, scalars, cfg, grid, block, functional ? null : 'none', timed, onBlock, undefined, external);
        step = {
          grid: st.grid,
          describeSpin: st.describeSpin,
          advance: () => {
            const r = st.advance();
            return r && finish(null, r.out.warpInstructions);
          },
        };
      }
      const run = step.advance();
      if (run) return run;
    } finally {
      if (window) this.setAccessPolicyWindow(null);
      this.domainLaunch = null;
      this.launchStartNs = null;
    }
    const parked = step;
    // a PE's timed kernel waits for remote writes as long as they take to arrive (exec/remoteArrivals.ts)
    const timedWaits = this.peers?.arrivals !== undefined && sync !== undefined && (timed || cached !== undefined);
    return { parked: true, name: d.name, grid, block, footprint, maxPerSm: occ.blocksPerSm, resident: parked.grid.residentBlocks(), resume: () => parked.advance(), writes: () => parked.grid.writeCount(), describeSpin: () => parked.describeSpin(false), timedWaits };
  }

  /** what one block of a program's kernel launch occupies on its SM (the block scheduler's and the runtime's view) */
  footprintOf(d: KernelDef, w: Extract<WorkSpec, { kind: 'kernel' }>): BlockFootprint {
    const scalars: ScalarArgs = { ...((d.defaults ?? {}) as ScalarArgs) };
    for (const [k, v] of Object.entries(w.args)) if (typeof v === 'number') scalars[k] = v;
    const cfg = launchConfig(d, scalars, w.config);
    const grid = this.opts.grid ?? dim3(cfg.grid);
    const block = this.opts.block ?? dim3(cfg.block);
    const ir = this.irOf(d);
    const occ = this.occOf(d, ir, grid, block, cfg.dynamicShared ?? 0);
    return this.blockFootprint(ir, block, cfg.dynamicShared ?? 0, occ.registersPerThread);
  }

  /** warps, registers (in allocation units) and shared memory (with the per-block reserve) of one block */
  private blockFootprint(ir: ReturnType<typeof buildKernel>, block: Dim3, dynamicShared: number, registersPerThread: number): BlockFootprint {
    const a = this.opts.arch;
    const warps = Math.ceil((block[0] * block[1] * block[2]) / 32);
    const regsPerWarp = Math.ceil((registersPerThread * 32) / a.registerAllocationUnit) * a.registerAllocationUnit;
    return { warps, registers: regsPerWarp * warps, sharedBytes: ir.sharedStaticBytes + dynamicShared + a.sharedMemReservedPerBlock };
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

  /**
   * start a launch that may park (every resident warp spinning on memory nothing in it writes): beside
   * other work (a program's co-running kernels, copies, other PEs) it is advanced again after their
   * writes (`external`: the write epoch), its cache counters set aside meanwhile. `cacheControl` null:
   * it runs without the cache model (a repeat whose block times are known and whose values do not
   * depend on it: runKernelWork), its memory accesses straight to memory
   */
  private startExecute(def: KernelDef, args: Partial<ArgVals<ParamTypes>>, scalars: ScalarArgs, cfg: LaunchConfig, grid: Dim3, block: Dim3, cacheControl: 'all' | 'none' | null, timing = true, onBlock?: (linear: number, s: number, e: number) => void, explain?: (loc: SourceLoc) => boolean, external?: () => number, sample?: SampleOptions) {
    const o = this.opts;
    const ir = this.irOf(def);
    checkLaunch(def.name, grid, block, cfg.dynamicShared ?? 0, ir.sharedStaticBytes, o.arch);
    checkBlockMultiples(def.name, ir, block);
    const occ = this.occOf(def, ir, grid, block, cfg.dynamicShared ?? 0);
    const gridWorkspace = this.gridWorkspaceFor(def, ir);
    // a sampled launch runs on a slice of the GPU with its own caches (occupancy: the whole launch's);
    // a grid too small to sample (planSample says why) runs exact
    const planned = sample ? (gridWorkspace === undefined ? planSample(o.arch, grid, occ.blocksPerSm, sample) : 'a cooperative launch needs every block resident') : null;
    const plan: SamplePlan | null = planned !== null && typeof planned !== 'string' ? planned : null;
    const arch = plan ? sliceArch(o.arch, plan) : o.arch;
    const memsys = plan ? new MemoryHierarchy(arch, sliceHierarchyOptions(plan)) : cacheControl === null ? null : this.memsys;
    if (memsys && cacheControl) memsys.beginLaunch({ cacheControl, l1Bytes: occ.l1Bytes });
    const run = startLaunch(def, ir, args, scalars, cfg, occ.blocksPerSm, {
      arch,
      file: o.file,
      mem: this.mem,
      memsys,
      grid,
      block,
      maxWarpInstructions: o.maxWarpInstructions ?? 50_000_000,
      quantum: o.quantum ?? 64,
      timing,
      ...(onBlock ? { onBlock } : {}),
      ...(explain ? { explain } : {}),
      ...(external ? { external } : {}),
      ...(gridWorkspace !== undefined ? { gridWorkspace } : {}),
      // device collectives are valid in a collective launch only
      ...(this.peers ? { peers: { ...this.peers, collective: this.collectiveLaunch, ...(this.launchStartNs !== null ? { startNs: this.launchStartNs } : {}) } } : {}),
      ...(o.check ? { check: o.check } : {}),
      ...(this.domainLaunch ? { syncDomain: this.domainLaunch } : {}),
      ...(plan ? { sample: plan } : {}),
    });
    // the launch's cache counters while it is parked and others count (null: it is running now)
    let aside: HierarchyCounters | null = null;
    return {
      grid: run.grid,
      describeSpin: (alone?: boolean) => run.grid.describeSpin(alone),
      advance: () => {
        if (memsys === null) {
          const out = run.advance();
          return out && { out, occ, cache: {} };
        }
        const others = aside ? this.memsys.swapCounters(aside) : null;
        const out = run.advance();
        if (out === null) {
          aside = this.memsys.swapCounters(others);
          return null;
        }
        if (out.memoryLocs) this.memoryLocs.push(...out.memoryLocs);
        if (plan) {
          const cache = scaleCacheMetrics(memsys.endLaunch(), plan, o.arch);
          // the slice's caches were this launch's alone
          memsys.release();
          return { out, occ, cache };
        }
        const cache = this.memsys.endLaunch();
        if (others) this.memsys.swapCounters(others);
        // asked to sample a grid it could not: the entry says why it ran exact
        if (typeof planned === 'string') return { out, occ, cache, unsampled: planned };
        return { out, occ, cache };
      },
    };
  }

  /** the device's grid workspace (made on first use): the barrier word grid.sync() counts arrivals in */
  private gridWorkspace: DevicePtr | null = null;
  /**
   * a kernel that calls grid.sync() gets the grid workspace, in a cooperative launch only: elsewhere
   * its blocks need not be co-resident and the grid's barrier could never complete (CUDA leaves the
   * call undefined; this_grid().is_valid() is false)
   */
  private gridWorkspaceFor(def: KernelDef, ir: KernelIR): number | undefined {
    const site = ir.gridSyncSites?.[0];
    if (site === undefined) return undefined;
    if (!this.collectiveLaunch)
      throw new UserError(
        `${site.file}:${site.line}: kernel '${def.name}' calls grid.sync() (k.gridSync()) but is not launched cooperatively: ` +
          `launch it with attributes: { cooperative: true } (cudaLaunchCooperativeKernel), with every block resident at once`,
      );
    // the counter's top bit flips at each completed sync and its low bits return to 0: one word serves
    // every launch; the driver hands it over zeroed (host.alloc: zeros, initialised for initcheck)
    this.gridWorkspace ??= this.host.alloc(u32, 2, 'cooperative groups grid workspace');
    return this.gridWorkspace.address;
  }

  private launchWith(def: KernelDef, args: Partial<ArgVals<ParamTypes>>, scalars: ScalarArgs, config: Partial<LaunchConfig> | undefined, standalone: boolean, onBlock?: (linear: number, s: number, e: number) => void, timing = this.opts.timing ?? true): KernelResult {
    const started = this.startLaunchWith(def, args, scalars, config, standalone, onBlock, timing);
    const r = started.advance();
    if (r === null) throw new KernelFault('deadlock', started.describeSpin());
    return r;
  }

  /** a profiled launch that may park; its report entry is made when it is done */
  private startLaunchWith(def: KernelDef, args: Partial<ArgVals<ParamTypes>>, scalars: ScalarArgs, config: Partial<LaunchConfig> | undefined, standalone: boolean, onBlock?: (linear: number, s: number, e: number) => void, timing = this.opts.timing ?? true, external?: () => number) {
    const o = this.opts;
    const cfg = launchConfig(def, scalars, config);
    const grid = o.grid ?? dim3(cfg.grid);
    const block = o.block ?? dim3(cfg.block);
    // only a profiled launch is explained: its report entry carries the explanation
    const started = this.startExecute(def, args, scalars, cfg, grid, block, o.cacheControl, timing, onBlock, o.explain, external, standalone ? this.sampling : undefined);
    return {
      grid: started.grid,
      describeSpin: started.describeSpin,
      advance: (): KernelResult | null => {
        const done = started.advance();
        return done && this.finishLaunchWith(def, args, scalars, standalone, grid, block, done);
      },
    };
  }

  private finishLaunchWith(def: KernelDef, args: Partial<ArgVals<ParamTypes>>, scalars: ScalarArgs, standalone: boolean, grid: Dim3, block: Dim3, done: NonNullable<ReturnType<ReturnType<Session['startExecute']>['advance']>>): KernelResult {
    const o = this.opts;
    const { out, occ, cache } = done;
    const unsampled = 'unsampled' in done ? done.unsampled : undefined;
    let check: KernelResult['check'];
    // a sampled launch did not run most blocks: their outputs are not there to check (its note says so)
    if (standalone && def.check && !out.result.sampled) {
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
    if (unsampled !== undefined) result.notes.unshift(notSampledNote(unsampled));
    else if (!standalone && this.sampling !== undefined) result.notes.unshift(notSampledNote("a program's launch: later work reads what all of its blocks write"));
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
