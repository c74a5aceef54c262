/**
 * One kernel launch, end to end: build the IR, check the launch, run the grid on the emulated GPU,
 * gather the counters into a report entry.
 */
import type { ExplainedInstruction, KernelResult } from '../../types/report.schema.js';
import type { Arch } from '../arch/types.js';
import { KernelFault, UserError, describeThrown, escapeControl } from '../errors.js';
import { compile, type InstrMeta } from '../exec/compile.js';
import { InstrCounters } from '../exec/counters.js';
import { optimize } from '../exec/passes.js';
import type { AccessCheck, ExecEnv, MemorySystem } from '../exec/env.js';
import type { Program } from '../exec/compile.js';
import type { PeerEnv } from '../exec/peerEnv.js';
import { remoteLinkOf } from '../arch/remoteLink.js';
import { interconnectFor } from '../system/links.js';
import { ExplainRecorder } from '../exec/explain.js';
import { type GridRun, type RunStats, startGrid } from '../exec/scheduler.js';
import { pollHold, SyncVersions } from '../exec/memoryModel.js';
import { KernelBuilder } from '../ir/builder.js';
import type { Instr, KernelIR, ParamDecl, SourceLoc, ValueType } from '../ir/types.js';
import { GRID_WORKSPACE_PARAM, RESERVED_SHARED_PARAM } from '../ir/types.js';
import { is64 } from '../ir/typesys.js';
import { validateKernel } from '../ir/validate.js';
import type { ArgVals, Dim3, KernelDef, LaunchConfig, ParamVals, ScalarArgs } from '../kernel/define.js';
import { dim3 } from '../kernel/define.js';
import { checkKernelDefinition, userLocation } from '../kernel/guard.js';
import { parseScalarParam } from '../kernel/params.js';
import type { DeviceMemory, DevicePtr } from '../memory/deviceMemory.js';
import { MemoryHierarchy } from '../memory/hierarchy.js';
import { instructionCounters, kernelMetrics } from '../metrics/kernelMetrics.js';
import { explainedInstruction, reportFileName } from '../report/explain.js';
import { createTimingModel, type TimingLaunch } from '../timing/model.js';
import type { DomainLaunch, SlowWriteLog } from '../device/syncDomains.js';
import { type SamplePlan, SampleTally, sampleSummary, scaleCounters, scaleTimingMetrics } from './sample.js';

export interface LaunchOptions {
  arch: Arch;
  /** path of the kernel file as the user named it */
  file: string;
  mem: DeviceMemory;
  memsys: MemorySystem | null;
  grid?: Dim3;
  block?: Dim3;
  maxWarpInstructions: number;
  /** instructions a warp runs before the scheduler moves on */
  quantum: number;
  /**
   * run the timing model (default true). It only observes the interpreter, so a launch whose report
   * nobody reads (ProgramContext.launch with profile false) leaves the same device and L2 state without it
   */
  timing?: boolean;
  /** each block's first and last cycle, from the timing model */
  onBlock?: (linear: number, start: number, end: number) => void;
  /** `--explain`: the memory instructions whose lanes to capture, by source location (absent: none, at no cost) */
  explain?: (loc: SourceLoc) => boolean;
  /** the other PEs of a multi-PE program (NVSHMEM device operations) */
  peers?: PeerEnv;
  /** a cooperative launch's grid workspace (the barrier word grid.sync() counts in): its device address */
  gridWorkspace?: number;
  /** a program's launch: its memory synchronization domain's writes in flight, and where its own slow writes go (device/syncDomains.ts) */
  syncDomain?: { view: DomainLaunch; log: SlowWriteLog };
  /** `warpsight check`: observes the launch's accesses (absent: none, at no cost) */
  check?: LaunchCheck;
  /**
   * `--sample`: run the plan's blocks only (on the slice `arch` describes) and extrapolate the
   * counters to the whole grid (profile/sample.ts)
   */
  sample?: SamplePlan;
}

/** what `warpsight check` (src/check) hooks into a launch: before compilation, after it, after the run */
export interface LaunchCheck {
  begin(env: ExecEnv): AccessCheck;
  compiled(prog: Program): void;
  end(): void;
}

export interface LaunchOutcome {
  result: Omit<KernelResult, 'id' | 'rules' | 'notes' | 'sourceLines'>;
  ir: KernelIR;
  blocksPerSm: number;
  warpInstructions: number;
  /** with `explain`: every memory instruction compiled, wanted or not (where `--explain` could have pointed) */
  memoryLocs?: SourceLoc[];
}

/** build a kernel's IR (type errors surface here with the kernel's file:line) */
export function buildKernel(def: KernelDef, file: string): KernelIR {
  // a program's launches reach here with definitions profile.ts never saw: check their shape too
  checkKernelDefinition(def, file);
  const decls: ParamDecl[] = Object.entries(def.params).map(([name, type]) => ({ name, type }));
  const b = new KernelBuilder(def.name, file, decls);
  try {
    def.body(b, b.params as ParamVals<typeof def.params>);
  } catch (e) {
    if (e instanceof UserError) throw e;
    const loc = userLocation(e, file);
    throw new UserError(`${loc ?? file}: error in kernel '${escapeControl(def.name)}': ${describeThrown(e)}`);
  }
  const ir = b.finish();
  validateKernel(ir);
  return ir;
}

/** scalar defaults overridden by --param values; unknown names are errors */
export function resolveScalars(def: KernelDef, overrides: Record<string, string>): ScalarArgs {
  const scalars: ScalarArgs = {};
  for (const [k, v] of Object.entries(def.defaults ?? {})) if (typeof v === 'number') scalars[k] = v;
  for (const [k, raw] of Object.entries(overrides)) {
    const t = def.params[k];
    if (!t) {
      const names = Object.entries(def.params).filter(([, ty]) => ty.tag !== 'ptr').map(([n]) => n);
      throw new UserError(`--param ${k}=${raw}: kernel '${def.name}' has no parameter '${k}'${names.length ? `; its scalar parameters are ${names.join(', ')}` : ' (it has no scalar parameters)'}`, 2);
    }
    if (t.tag === 'ptr') throw new UserError(`--param ${k}=${raw}: '${k}' is a pointer; pointer arguments come from the kernel's setup()`, 2);
    scalars[k] = parseScalarParam(k, raw, t, `kernel '${def.name}'`);
  }
  return scalars;
}

export function launchConfig(def: KernelDef, scalars: ScalarArgs, override?: Partial<LaunchConfig>): LaunchConfig {
  const base = typeof def.launch === 'function' ? def.launch(scalars) : def.launch;
  return { ...base, ...(override ?? {}) };
}

/** cudaErrorInvalidConfiguration and friends, reported before anything runs */
export function checkLaunch(name: string, grid: Dim3, block: Dim3, dynShared: number, staticShared: number, arch: Arch): void {
  const bad = (msg: string): never => {
    throw new KernelFault('invalid-launch', `invalid launch of '${name}' <<<(${grid.join(',')}), (${block.join(',')})>>>: ${msg}`);
  };
  for (const [what, d] of [['grid', grid], ['block', block]] as const)
    for (const v of d) if (!Number.isInteger(v) || v < 1) bad(`${what} dimensions must be positive integers`);
  const threads = block[0] * block[1] * block[2];
  if (threads > arch.maxThreadsPerBlock) bad(`${threads} threads per block; the maximum is ${arch.maxThreadsPerBlock} (cudaErrorInvalidConfiguration)`);
  if (block[2] > 64) bad(`blockDim.z ${block[2]} exceeds 64`);
  if (grid[1] > 65535 || grid[2] > 65535) bad('gridDim.y and gridDim.z are limited to 65535');
  if (grid[0] > 2 ** 31 - 1) bad('gridDim.x is limited to 2^31-1');
  const smem = dynShared + staticShared;
  if (smem > arch.sharedMemPerBlockOptin) bad(`${smem} bytes of shared memory per block; the maximum is ${arch.sharedMemPerBlockOptin} (cudaErrorInvalidValue)`);
  if (staticShared > arch.sharedMemPerBlockDefault) bad(`${staticShared} bytes of static shared memory; static shared memory is limited to ${arch.sharedMemPerBlockDefault} (use dynamic shared memory above 48 KB)`);
}

/** argument values for the interpreter: addresses for pointers, numbers or bigints for scalars */
function argValues(def: KernelDef, args: Partial<ArgVals<KernelDef['params']>>, scalars: ScalarArgs): Record<string, number | bigint> {
  const out: Record<string, number | bigint> = {};
  for (const [name, type] of Object.entries(def.params)) {
    const a = (args as Record<string, DevicePtr | number | undefined>)[name];
    if (type.tag === 'ptr') {
      if (!a || typeof a === 'number') throw new UserError(`kernel '${def.name}': pointer parameter '${name}' has no buffer; return it from setup() (or pass it to ctx.launch)`);
      out[name] = a.address;
    } else {
      const v = typeof a === 'number' ? a : scalars[name];
      if (v === undefined) throw new UserError(`kernel '${def.name}': scalar parameter '${name}' has no value; add it to defaults or pass --param ${name}=…`);
      out[name] = is64(type) ? BigInt(Math.trunc(v)) : v;
    }
  }
  return out;
}

/** run a launch alone to its end: resident warps that all park are a deadlock */
export function runLaunch(
  def: KernelDef,
  ir: KernelIR,
  args: Partial<ArgVals<KernelDef['params']>>,
  scalars: ScalarArgs,
  config: LaunchConfig,
  blocksPerSm: number,
  opts: LaunchOptions,
): LaunchOutcome {
  const run = startLaunch(def, ir, args, scalars, config, blocksPerSm, opts);
  const out = run.advance();
  if (out === null) throw new KernelFault('deadlock', run.grid.describeSpin());
  return out;
}

/** a launch in progress: `advance()` gives its outcome once its grid is done, null while it is parked (GridRun) */
export interface LaunchRun {
  readonly grid: GridRun;
  advance(): LaunchOutcome | null;
}

/** `external`: writes made outside the launch so far (co-running work), which may wake its parked warps */
export function startLaunch(
  def: KernelDef,
  ir: KernelIR,
  args: Partial<ArgVals<KernelDef['params']>>,
  scalars: ScalarArgs,
  config: LaunchConfig,
  blocksPerSm: number,
  opts: LaunchOptions & { external?: () => number },
): LaunchRun {
  const grid = opts.grid ?? dim3(config.grid);
  const block = opts.block ?? dim3(config.block);
  const dyn = config.dynamicShared ?? 0;
  // sized for the kernel as the compiler model rewrites it (runtime loops unrolled: more slots than the C's)
  const optimized = optimize(ir);
  const counters = new InstrCounters(slotBound(optimized.body));
  const dynBase = Math.ceil(ir.sharedStaticBytes / 16) * 16;
  // the block's reserved shared memory (cooperative groups' scratch) after the dynamic: outside what the
  // kernel's own arrays reach, and not counted as the kernel's shared memory (the driver reserves it anyway)
  const reservedBase = ir.reservedSharedBytes !== undefined ? Math.ceil((dynBase + dyn) / 16) * 16 : dynBase + dyn;
  const recorder = opts.explain ? new ExplainRecorder(opts.explain) : null;
  const env: ExecEnv = {
    kernel: ir,
    mem: opts.mem,
    memsys: opts.memsys,
    counters,
    args: {
      ...argValues(def, args, scalars),
      ...(opts.gridWorkspace !== undefined ? { [GRID_WORKSPACE_PARAM]: opts.gridWorkspace } : {}),
      ...(ir.reservedSharedBytes !== undefined ? { [RESERVED_SHARED_PARAM]: reservedBase } : {}),
    },
    grid,
    block,
    dynamicSharedBase: dynBase,
    sharedBytes: reservedBase + (ir.reservedSharedBytes ?? 0),
    barrier: () => {
      throw new Error('barrier handler not installed');
    },
    // the timing model needs the compiled program; compiled code holds this object, filled in below
    observer: opts.timing === false ? null : { issue: () => {}, memory: () => {} },
    ...(recorder ? { explain: recorder } : {}),
    ...(opts.peers ? { peers: opts.peers } : {}),
    // strong stores' values become visible in time order (memoryModel.ts): needs the timing model's clocks
    ...(opts.timing === false ? {} : { syncVersions: new SyncVersions() }),
  };
  if (opts.check) env.check = opts.check.begin(env);
  const prog = compile(ir, env, optimized);
  opts.check?.compiled(prog);
  // a PE's remote accesses (NVSHMEM) take its interconnect's latency and bandwidth
  const remote = opts.peers ? (opts.peers.link ?? remoteLinkOf(interconnectFor(opts.arch))) : null;
  const syncDomain = opts.syncDomain ? domainCycles(opts.syncDomain, opts.arch.smClockHz) : null;
  const plan = opts.sample;
  const tally = plan ? new SampleTally(plan) : null;
  // a sampled run's timing model sees the blocks that run: they are all its grid
  const timedGrid: Dim3 = plan ? [plan.blocks.length, 1, 1] : grid;
  const userOnBlock = opts.onBlock;
  const onBlock = tally ? (l: number, s: number, e: number) => (tally.blockTime(l, s, e), userOnBlock?.(l, s, e)) : userOnBlock;
  // the dirty room the launch runs with: the L2's write-backs turn it over at a bounded rate
  const l2DirtyRoomBytes = opts.memsys instanceof MemoryHierarchy ? opts.memsys.l2.dirtyRoomBytes() : undefined;
  const timing = env.observer
    ? createTimingModel(opts.arch, { grid: timedGrid, block, blocksPerSm, kernel: prog.kernel, meta: prog.meta, ...(onBlock ? { onBlock } : {}), ...(remote ? { remote } : {}), ...(syncDomain ? { syncDomain } : {}), ...(l2DirtyRoomBytes !== undefined ? { l2DirtyRoomBytes } : {}) })
    : null;
  if (timing) {
    Object.assign(env.observer as object, timing.observer);
    if (tally) {
      // each window's memory traffic, for the error bound (one call per warp request)
      const memory = timing.observer.memory;
      (env.observer as { memory: typeof memory }).memory = (w, index, outcome, sectors, lines) => {
        tally.access(w.blockLinear, sectors, outcome ? outcome.dramSectors + outcome.dramWriteSectors : 0);
        memory(w, index, outcome, sectors, lines);
      };
    }
    const hold = pollHold(timing.observer);
    if (hold) env.hold = hold;
  }
  const gridRun = startGrid(
    prog,
    env,
    {
      smCount: opts.arch.smCount,
      smOrder: opts.arch.smDispatchOrder,
      blocksPerSm,
      quantum: opts.quantum,
      maxWarpInstructions: opts.maxWarpInstructions,
      ...(plan && tally ? { blocks: plan.blocks, onBlockDone: (l: number, n: number) => tally.blockDone(l, n) } : {}),
    },
    opts.external,
  );
  return {
    grid: gridRun,
    advance: () => {
      if (gridRun.advance() === 'parked') return null;
      opts.check?.end();
      return finishLaunch(def, ir, prog, env, gridRun.stats, timing, recorder, blocksPerSm, dyn, opts, tally);
    },
  };
}

/** the timing model's view of a launch's domain, in cycles from the launch's start (the device's is in absolute ns) */
function domainCycles(d: { view: DomainLaunch; log: SlowWriteLog }, clockHz: number): NonNullable<TimingLaunch['syncDomain']> {
  const nsPerCycle = 1e9 / clockHz;
  const { startNs, inFlightNs } = d.view;
  return {
    domain: d.view.domain,
    inFlight: inFlightNs ? (c: number) => (inFlightNs(startNs + c * nsPerCycle) - startNs) / nsPerCycle : null,
    slowWrite: (issue: number, ack: number) => d.log.note(issue * nsPerCycle, ack * nsPerCycle),
  };
}

/**
 * The timing model's shared replays (TimingModel.sharedReplays) added to the interpreter's shared
 * wavefronts: each is one more wavefront of its op, and ncu counts it as a bank conflict too (the
 * scan's 36,652 extra LDS and 15,586 extra STS wavefronts are its conflict counts exactly;
 * test/fidelity/groundtruth/cuda-samples)
 */
function addSharedReplays(m: Record<string, number>, r: { ld: number; st: number }): void {
  if (r.ld === 0 && r.st === 0) return;
  const add = (id: string, v: number): void => {
    m[id] = (m[id] ?? 0) + v;
  };
  add('l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum', r.ld);
  add('l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum', r.st);
  add('l1tex__data_pipe_lsu_wavefronts_mem_shared.sum', r.ld + r.st);
  add('l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum', r.ld);
  add('l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum', r.st);
  add('l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum', r.ld + r.st);
}

/** a finished grid's counters, timing and explanations as its report entry's base */
function finishLaunch(
  def: KernelDef,
  ir: KernelIR,
  prog: ReturnType<typeof compile>,
  env: ExecEnv,
  stats: RunStats,
  timing: ReturnType<typeof createTimingModel> | null,
  recorder: ExplainRecorder | null,
  blocksPerSm: number,
  dyn: number,
  opts: LaunchOptions,
  tally: SampleTally | null = null,
): LaunchOutcome {
  const { grid, block } = env;
  const interpreted = kernelMetrics(prog, env.counters, stats.blocks, stats.warps);
  let timed: Record<string, number> = {};
  const dram = opts.memsys instanceof MemoryHierarchy ? opts.memsys.dram : null;
  // DRAM time goes by bursts: a lone sector of a pair occupies its whole burst (memory/dram.ts)
  const burst = dram ? dram.burstSectors * opts.arch.sectorSize : 0;
  if (timing) {
    // a sampled run's timing model takes the traffic of the blocks that ran (on its slice)
    const sharedWavefronts = Number(interpreted['l1tex__data_pipe_lsu_wavefronts_mem_shared.sum']);
    const lsuMiscInstructions = Number(interpreted['l1tex__data_pipe_lsu_wavefronts_mem_shared_op_misc.sum']);
    const traffic = dram ? { dramBytes: (dram.readBursts + dram.writeBursts) * burst, dramWriteBytes: dram.writeBursts * burst } : {};
    const aduInstructions = Number(interpreted['sm__inst_executed_pipe_adu.sum']);
    timed = timing.finish({ ...traffic, sharedWavefronts, lsuMiscInstructions, aduInstructions });
  }
  // shared accesses replayed where they met global traffic on their SM: a matter of time, so only the
  // timing model sees them (without it, every shared access keeps its bank model's wavefronts). They
  // are counted, not timed: the shared stage's calendar and the L1 data pipe's share above (finish)
  // take the bank model's wavefronts
  const replays = timing ? timing.sharedReplays() : null;
  timing?.release();
  if (replays) addSharedReplays(interpreted, replays);
  let counted = interpreted;
  if (tally) {
    // the whole grid's counts: per instruction, and the kernel's totals from them
    const plan = tally.plan;
    scaleCounters(env.counters, plan.scale);
    counted = kernelMetrics(prog, env.counters, plan.total, plan.total * (stats.warps / Math.max(1, stats.blocks)));
    if (replays) addSharedReplays(counted, { ld: Math.round(replays.ld * plan.scale), st: Math.round(replays.st * plan.scale) });
    timed = scaleTimingMetrics(timed, plan);
  }
  const metrics: Record<string, number | string> = { ...counted };
  // Warpsight's own: strong loads that re-read an unchanged value (a spin loop's empty polls), for the
  // flag-polling rules; only in launches that poll, so that other reports keep their metric list
  if (env.syncVersions && env.syncVersions.repeats > 0) metrics['warpsight__spin_polls'] = tally ? Math.round(env.syncVersions.repeats * tally.plan.scale) : env.syncVersions.repeats;
  Object.assign(metrics, timed);
  const explain = recorder ? explainedInstructions(recorder, prog.meta, env.counters, opts.mem) : [];
  return {
    ir,
    blocksPerSm,
    warpInstructions: stats.warpInstructions,
    ...(recorder ? { memoryLocs: recorder.memoryLocs } : {}),
    result: {
      name: def.name,
      signature: signatureOf(def.name, ir),
      file: opts.file,
      launch: {
        grid,
        block,
        dynamicSharedBytes: dyn,
        staticSharedBytes: ir.sharedStaticBytes,
        registersPerThread: 0,
        params: Object.fromEntries(Object.entries(env.args).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : Number.isInteger(v) && v > 0xffff_ffff ? `0x${v.toString(16)}` : String(v)])),
      },
      metrics,
      instructions: instructionCounters(prog, env.counters),
      ...(explain.length > 0 ? { explain } : {}),
      ...(tally ? { sampled: sampleSummary(tally.plan, tally) } : {}),
    },
  };
}

/** the captured samples as the report carries them, by instruction; sectors named by their allocation */
function explainedInstructions(recorder: ExplainRecorder, meta: readonly InstrMeta[], c: InstrCounters, mem: DeviceMemory): ExplainedInstruction[] {
  const label = (address: number): string | undefined => {
    const a = mem.find(address, 1);
    return a ? `${a.name}+0x${(address - a.base).toString(16)}` : undefined;
  };
  return [...recorder.samples.values()]
    .sort((a, b) => a.index - b.index)
    .map((s) => {
      const i = s.index;
      const counts =
        s.space === 'global'
          ? { requests: c.requests[i] as number, total: c.sectors[i] as number, ideal: c.sectorsIdeal[i] as number }
          : { requests: c.requests[i] as number, total: c.wavefronts[i] as number, ideal: c.wavefrontsIdeal[i] as number };
      return explainedInstruction(s, meta[i]?.opcode ?? '?', reportFileName(s.loc.file), counts, label);
    });
}

/** the kernel as ncu names it: parameter types and names, C-like (`u32 *in`, `i32 n`) */
function signatureOf(name: string, ir: KernelIR): string {
  const typeOf = (t: ValueType): string => (t.tag === 'ptr' ? `${t.elem.tag === 'vec' ? `${t.elem.elem.kind}x${t.elem.n}` : t.elem.kind} *` : `${t.kind} `);
  return `${name}(${ir.params.map((p) => `${typeOf(p.type)}${p.name}`).join(', ')})`;
}

/** an upper bound of the compiled program's length: a structured instruction lays out at most 3 slots per IR instruction (loop heads appear twice) */
function slotBound(list: readonly Instr[]): number {
  let n = 16;
  for (const i of list) {
    n += 3;
    if (i.op === 'if') n += slotBound(i.then) + (i.else ? slotBound(i.else) : 0);
    if (i.op === 'loop') n += 2 * slotBound(i.head) + slotBound(i.body);
  }
  return n;
}
