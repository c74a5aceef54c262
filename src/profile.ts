/**
 * The profiler's entry point: a kernel file in, a Report out. Commands, validate, bench and tests all
 * go through here.
 */
import { relative } from 'node:path';
import type { KernelResult, ProgramRun as ReportProgramRun, Report } from '../types/report.schema.js';
import { DEFAULT_ARCH, getArch } from './arch/index.js';
import type { Dim3 } from './kernel/define.js';
import { guardDefinition } from './kernel/guard.js';
import { type Definition, loadDefinitions, selectDefinitions } from './kernel/load.js';
import { type LaunchFilter, filtersNothing, launchMatcher } from './cli/launches.js';
import type { Progress } from './bench/progress.js';
import { deviceOf } from './profile/finish.js';
import { type PeRun, type ProgramRun, Session, type SessionOptions } from './profile/session.js';
import { nodeLayout, runPeProgram } from './system/run.js';
import type { GpuSharing } from './system/system.js';
import { HostFault, UserError } from './errors.js';
import { SCHEDULES, type Schedule } from './runtime/runtime.js';
import { runtimeCostsFor } from './arch/runtimeCosts.js';
import { runtimeFindings } from './runtime/rules.js';
import { type ExplainRequest, explainMatcher, unmatchedExplainError } from './report/explain.js';
import type { SampleOptions } from './profile/sample.js';
import { profileInJobs, whyInTurn } from './profile/jobs.js';

export const TOOL_VERSION = '0.1.0';

export interface ProfileRequest {
  file: string;
  kernel?: string | string[];
  arch?: string;
  params?: Record<string, string>;
  grid?: Dim3;
  block?: Dim3;
  cacheControl?: 'all' | 'none';
  maxWarpInstructions?: number;
  sections?: string[];
  metrics?: string[];
  /**
   * run the timing model (default true). It only observes the interpreter, so without it every
   * counter is the same and only what it measures is left out: durations, cycles, throughputs,
   * stall reasons, achieved occupancy. A memory-bound kernel profiles about a quarter faster.
   */
  timing?: boolean;
  /** hardware work queues for programs (CUDA_DEVICE_MAX_CONNECTIONS) */
  hwQueues?: number;
  /** PEs of a multi-PE program (overrides its `pes`; a program that declares none is not one); several: one run each (strong scaling) */
  pes?: number | number[];
  /** the PEs as processes on one GPU: through MPS, or time-sliced without it (default: a GPU each) */
  shareGpu?: GpuSharing;
  /** PEs per node: the PEs span nodes joined by InfiniBand (overrides the program's pesPerNode) */
  pesPerNode?: number;
  /** NVSHMEM's remote transport between nodes: ibrc (default) or ibgda (overrides the program's transport) */
  transport?: string;
  /** try every schedule the runtime may choose before the default run (`--explore`) */
  explore?: boolean;
  /** run under this schedule (explore's runs) */
  schedule?: Schedule;
  /** ncu's launch filters: --kernel-id, -s/--launch-skip, -c/--launch-count */
  launches?: LaunchFilter;
  /** told as each launch starts and ends (a program's launches one by one) */
  progress?: Progress;
  /**
   * `--explain`: for the memory instructions of these lines ('all': of every line), one warp's lanes
   * mapped to sectors or banks in each kernel result's `explain`. A line with no memory instruction
   * in the profiled launches is a usage error.
   */
  explain?: ExplainRequest;
  /**
   * `--sample`: a kernel whose grid is big enough runs a representative subset of its blocks in
   * detail on a slice of the GPU, and its counters are extrapolated (profile/sample.ts); each such
   * entry carries `sampled` (blocks run, groups, error bounds). Exact (the default) without it.
   * Programs' launches always run exact.
   */
  sample?: boolean | SampleOptions;
  /**
   * `--jobs`: profile this many of the chosen kernels at a time, each in a process of its own; the
   * report is the same (profile/jobs.ts says when it can be; otherwise they run in turn and
   * `onInTurn` is told why)
   */
  jobs?: number;
  onInTurn?: (why: string) => void;
}

export async function profileFile(req: ProfileRequest): Promise<Report> {
  const defs = await loadDefinitions(req.file);
  const names = req.kernel === undefined ? undefined : Array.isArray(req.kernel) ? req.kernel : [req.kernel];
  const chosen = selectDefinitions(defs, names, req.file);
  if (req.explore) await explore(chosen, req);
  if ((req.jobs ?? 1) > 1 && chosen.length > 1) {
    const why = whyInTurn(chosen, req);
    if (why === null) return profileInJobs(chosen, req, sessionOptions(req).file);
    req.onInTurn?.(why);
  }
  return profileDefinitions(chosen, req, await runMultiPe(chosen, req));
}

/**
 * `--explore`: besides the schedule it reports, run the programs under each schedule the CUDA runtime
 * may legally choose (stream-to-queue mapping, in-order queues, start order); the first that deadlocks
 * is the error, named with its schedule. Kernels alone have no such freedom.
 */
async function explore(chosen: readonly Definition[], req: ProfileRequest): Promise<void> {
  const programs = chosen.filter((d) => d.kind === 'program');
  if (programs.length === 0) throw new UserError(`--explore: ${req.file} selects no program: exploring schedules is for programs (streams, PEs)`, 2);
  for (const schedule of SCHEDULES) {
    const r: ProfileRequest = { ...req, explore: false, schedule, timing: false, launches: {} };
    delete r.progress;
    try {
      profileDefinitions(programs, r, await runMultiPe(programs, r));
    } catch (e) {
      if (e instanceof HostFault && /deadlock/.test(e.message)) throw new HostFault(`--explore: the runtime may schedule ${schedule.name}, and then: ${e.message}`);
      throw e;
    }
  }
}

/** the session options a request makes */
function sessionOptions(req: ProfileRequest): SessionOptions {
  const arch = getArch(req.arch ?? DEFAULT_ARCH);
  const display = relative(process.cwd(), req.file) || req.file;
  return {
    arch,
    file: display,
    cacheControl: req.cacheControl ?? 'all',
    params: req.params ?? {},
    ...(req.grid ? { grid: req.grid } : {}),
    ...(req.block ? { block: req.block } : {}),
    ...(req.maxWarpInstructions ? { maxWarpInstructions: req.maxWarpInstructions } : {}),
    ...(req.timing === false ? { timing: false } : {}),
    ...(req.hwQueues !== undefined ? { hwQueues: req.hwQueues } : {}),
    ...(req.explain !== undefined ? { explain: explainMatcher(req.explain, req.file) } : {}),
    ...(req.schedule ? { schedule: req.schedule } : {}),
    ...(req.sample ? { sample: req.sample === true ? {} : req.sample } : {}),
  };
}

/** multi-PE programs run before the rest (their PEs' programs are async): each one's launches and timelines */
async function runMultiPe(chosen: readonly Definition[], req: ProfileRequest): Promise<Map<Definition, PeRun>> {
  const out = new Map<Definition, PeRun>();
  for (const d of chosen) {
    if (d.kind !== 'program' || (d.pes === undefined && req.pes === undefined)) continue;
    const opts = sessionOptions(req);
    const g = guardDefinition(d, opts.file);
    if (g.kind !== 'program') continue;
    // several PE counts (a strong-scaling run): one run each, in the order given
    const runs: PeRun[] = [];
    for (const n of Array.isArray(req.pes) ? req.pes : [req.pes ?? g.pes ?? 1]) runs.push(await runPeProgram(g, opts, n, req.shareGpu ?? 'none', nodeLayout(g, req.pesPerNode, req.transport, opts.file)));
    // one session adopts them all: its ids follow one another, the timelines point at them
    const all = new Session(opts);
    for (const r of runs) all.adopt(r);
    out.set(d, { results: all.results, programs: all.programs });
  }
  return out;
}

/** profile definitions already loaded (tests define kernels inline); `req.file` names their source file */
export function profileDefinitions(chosen: readonly Definition[], req: ProfileRequest, multiPe: ReadonlyMap<Definition, PeRun> = new Map()): Report {
  const session = new Session(sessionOptions(req));
  // its caches' arrays serve the next session once its report is made (Session.close)
  try {
    return profileIn(session, chosen, req, multiPe);
  } finally {
    session.close();
  }
}

function profileIn(session: Session, chosen: readonly Definition[], req: ProfileRequest, multiPe: ReadonlyMap<Definition, PeRun>): Report {
  const arch = session.opts.arch;
  const display = session.opts.file;
  // a program's profiled launches are the runtime's calls of session.runKernelWork: count them as
  // they come (the launches it does not report, a graph's thousands of replays, would only be noise)
  const progress = req.progress;
  let launchIndex = 0;
  const label = (name: string): string => `${display} -k ${name}`;
  if (progress) {
    const runKernelWork = session.runKernelWork.bind(session);
    session.runKernelWork = (w, where, stream, external) => {
      if (!w.profile) return runKernelWork(w, where, stream, external);
      const t0 = performance.now();
      const i = launchIndex++;
      progress.start(i, 0, label(w.def.name));
      const run = runKernelWork(w, where, stream, external);
      progress.done(i, 0, label(w.def.name), (performance.now() - t0) / 1000);
      return run;
    };
  }
  // kernels (not programs, whose launches only running reveals): a line none of them has a memory
  // instruction on is refused before minutes of emulation; after the run the profiled launches decide
  if (req.explain !== undefined && chosen.every((d) => d.kind === 'kernel')) {
    const locs = chosen.flatMap((d) => {
      const g = guardDefinition(d, display);
      return g.kind === 'kernel' ? session.memoryLocsOf(g) : [];
    });
    const bad = unmatchedExplainError(req.explain, req.file, locs);
    if (bad) throw bad;
  }
  const filter = req.launches ?? {};
  const matcher = launchMatcher(filter);
  const kept: typeof session.results = [];
  for (const d of chosen) {
    const first = session.results.length;
    // the kernel file's own code runs behind a guard: what it throws becomes one located error
    const g = guardDefinition(d, display);
    if (g.kind === 'kernel') {
      const t0 = performance.now();
      const i = launchIndex++;
      progress?.start(i, 0, label(g.name));
      session.runKernel(g);
      progress?.done(i, 0, label(g.name), (performance.now() - t0) / 1000);
    } else if (multiPe.has(d)) session.adopt(multiPe.get(d) as PeRun);
    else if (g.pes !== undefined || req.pes !== undefined) throw new UserError(`${display}: program '${g.name}' runs on PEs: profile it through profileFile (its PEs' programs are async)`, 2);
    else session.runProgram(g);
    for (const r of session.results.slice(first)) if (matcher.keep(r)) kept.push(r);
    // later launches cannot change earlier ones: stop once -c launches are in
    if (matcher.done()) break;
  }
  progress?.finish();
  if (req.explain !== undefined) {
    const bad = unmatchedExplainError(req.explain, req.file, session.memoryLocs);
    if (bad) throw bad;
  }
  const kernels = filtersNothing(filter) ? session.results : kept;
  return {
    version: 1,
    tool: { name: 'warpsight', version: TOOL_VERSION },
    device: deviceOf(arch),
    options: {
      cacheControl: req.cacheControl ?? 'all',
      ...(req.sections?.length ? { sections: req.sections } : {}),
      ...(req.metrics?.length ? { metrics: req.metrics } : {}),
      ...(req.timing === false ? { timing: false } : {}),
    },
    kernels,
    ...(session.programs.length ? { programs: session.programs.map((p) => programRun(p, kernels, arch.id)) } : {}),
    ...scalingOf(session.programs),
  };
}

/** a multi-PE program run on several PE counts: each figure it reported, the largest over its PEs, by PE count */
function scalingOf(programs: readonly ProgramRun[]): Pick<Report, 'scaling'> {
  const runs = new Map<string, Map<number, ProgramRun[]>>();
  for (const p of programs) {
    if (p.pes === undefined) continue;
    const base = p.name.replace(/ \(PE \d+ of \d+\)$/, '');
    const byCount = runs.get(base) ?? new Map<number, ProgramRun[]>();
    byCount.set(p.pes, [...(byCount.get(p.pes) ?? []), p]);
    runs.set(base, byCount);
  }
  const scaling: NonNullable<Report['scaling']> = [];
  for (const [program, byCount] of runs) {
    if (byCount.size < 2) continue;
    const counts = [...byCount.keys()].sort((a, b) => a - b);
    const first = byCount.get(counts[0] as number) as ProgramRun[];
    for (const v of (first[0] as ProgramRun).values) {
      const at = (n: number): number => Math.max(...(byCount.get(n) as ProgramRun[]).map((p) => p.values.find((x) => x.name === v.name)?.value ?? NaN));
      const base = at(counts[0] as number);
      // a figure that is zero or missing somewhere (an error measure, say) has no speed-up to show
      if (!counts.every((n) => at(n) > 0 && Number.isFinite(at(n)))) continue;
      scaling.push({
        program,
        value: v.name,
        unit: v.unit,
        points: counts.map((n) => ({ pes: n, value: at(n), speedup: base / at(n), efficiency: ((base / at(n)) * (counts[0] as number)) / n })),
      });
    }
  }
  return scaling.length ? { scaling } : {};
}

/**
 * a program's run as the report carries it: its timeline's kernels point at their entries' places in
 * `kernels` (the launch filters may have left some out: those point nowhere)
 */
function programRun(p: ProgramRun, kernels: readonly KernelResult[], archId: string): ReportProgramRun {
  const at = new Map(kernels.map((k, i) => [k.id, i]));
  const ops = p.timeline.ops.map((o) => {
    if (o.kernel === undefined) return o;
    const { kernel, ...rest } = o;
    const i = at.get(kernel);
    return i === undefined ? rest : { ...rest, kernel: i };
  });
  const timeline = { ...p.timeline, ops };
  return { name: p.name, ...(p.pe !== undefined ? { pe: p.pe, pes: p.pes } : {}), ...(p.node !== undefined ? { node: p.node, transport: p.transport } : {}), values: p.values, timeline, findings: [...(p.hazards ?? []), ...runtimeFindings(timeline, runtimeCostsFor(archId))], ...(p.traffic ? { traffic: p.traffic } : {}) };
}
