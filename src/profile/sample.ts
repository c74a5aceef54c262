/**
 * Sampled simulation of big grids (`profile --sample`), after TBPoint and Sieve: a representative
 * subset of the grid's blocks runs in full detail (interpreter, caches, timing model) and the
 * counters are extrapolated to the whole grid.
 *
 * What is sampled, and why this way:
 * - The grid's blocks (in dispatch order, by linear index) fall into `groups` strata of contiguous
 *   ranges; in each, two windows of consecutive blocks are chosen, spread so that the first window
 *   starts at block 0 and the last ends at the grid's last block. Consecutive blocks run side by side
 *   on the GPU and share lines in L1 and L2, so a window keeps that locality; the two windows of a
 *   group give the variation the error bound is computed from.
 * - The chosen blocks run on a slice of the GPU: `sms` of its SMs, with their share of the L2 and
 *   DRAM bandwidth and of the L2's capacity, taking the same share of the grid's blocks. Each SM of
 *   the slice then runs as many blocks, in as many waves, as an SM of the whole GPU does, so the
 *   slice's duration, stalls and occupancy over time stand for the whole GPU's without any
 *   extrapolation in time (a few percent of the blocks on all 132 SMs would be less than one wave,
 *   whose timing says nothing of the steady state).
 * - Event counts (instructions, requests, sectors, wavefronts, L2 and DRAM traffic, warp-cycles of
 *   each stall) are scaled by blocks / blocks simulated; cycle counts summed over SMs by the SMs'
 *   ratio; per-SM times, ratios and percentages stand as the slice measured them. Occupancy and the
 *   launch's limits come from the whole launch's configuration (exact; they do not depend on which
 *   blocks run).
 * - The blocks not chosen are not run at all: the outputs they write are not computed, so the
 *   kernel's check is not run (the report says so). Running them functionally would keep the memory
 *   right but costs most of an exact run (the per-lane interpretation is about a third of it).
 *
 * What the error bound does not cover: effects that depend on the whole grid's footprint beyond the
 * slice's share of the L2 (data reused across the skipped blocks), and blocks whose work differs
 * from every window's (a grid whose behaviour depends on its coordinates in ways the strata do not
 * follow). README "Sampled simulation" gives the measured errors.
 */
import type { KernelResult } from '../../types/report.schema.js';
import type { Arch } from '../arch/types.js';
import type { InstrCounters } from '../exec/counters.js';
import type { Dim3 } from '../kernel/define.js';
import type { HierarchyOptions } from '../memory/hierarchy.js';

export interface SampleOptions {
  /** SMs of the slice (default: a sixteenth of the GPU's, at least 1) */
  sms?: number;
  /** strata of the grid (default 2; two windows each) */
  groups?: number;
}

/** the default slice: a sixteenth of the SMs (8 of the H200's 132), so about 6 % of the blocks run */
export const DEFAULT_SLICE_FRACTION = 1 / 16;
/**
 * Few, long windows: a window's lines fall on consecutive L2 sets from a hashed offset, so the
 * slice's L2 is evenly loaded only where a window spans its sets' period (~240 KB of each buffer at 8
 * SMs); many short windows pile onto some sets and write back lines the whole GPU keeps. Measured on
 * g_ld_u32_coalesced (16,384 blocks, 993 simulated): DRAM write-backs +180 % of the exact run's with 8
 * groups, +73 % with 4, +42 % with 2, -7 % with 1; every other counter about the same
 */
export const DEFAULT_GROUPS = 2;
/** a slice must run at least this many waves of blocks, or its timing is mostly ramp and tail */
export const MIN_SLICE_WAVES = 2;

export interface SamplePlan {
  /** blocks of the whole grid */
  readonly total: number;
  /** the chosen blocks' linear indices, in dispatch order (window by window) */
  readonly blocks: Int32Array;
  /** each window's first linear index and block count */
  readonly windowStart: readonly number[];
  readonly windowCount: readonly number[];
  /** blocks of each group's range (the stratum the group's two windows stand for) */
  readonly groupBlocks: readonly number[];
  readonly groups: number;
  readonly sms: number;
  readonly smCount: number;
  /** blocks / blocks simulated: the factor of event counts */
  readonly scale: number;
}

/**
 * the plan for a grid of `total` blocks, or why it runs exact (a grid too small for the slice to
 * run MIN_SLICE_WAVES waves, or a slice as big as the GPU)
 */
export function planSample(arch: Arch, grid: Dim3, blocksPerSm: number, opts: SampleOptions = {}): SamplePlan | string {
  const total = grid[0] * grid[1] * grid[2];
  const smCount = arch.smCount;
  const sms = Math.max(1, Math.min(smCount, Math.round(opts.sms ?? smCount * DEFAULT_SLICE_FRACTION)));
  const groups = Math.max(1, Math.round(opts.groups ?? DEFAULT_GROUPS));
  if (sms >= smCount) return `the slice (${sms} SMs) is the whole GPU`;
  const count = Math.round((total * sms) / smCount);
  const need = Math.max(MIN_SLICE_WAVES * sms * Math.max(1, blocksPerSm), 2 * groups);
  if (count < need)
    return `${total.toLocaleString('en-US')} blocks are too few to sample: the slice of ${sms} SMs would run ${count} blocks, fewer than ${need} (${MIN_SLICE_WAVES} waves of ${blocksPerSm} blocks per SM)`;
  const windows = 2 * groups;
  const windowStart: number[] = [];
  const windowCount: number[] = [];
  const blocks = new Int32Array(count);
  let at = 0;
  for (let j = 0; j < windows; j++) {
    const lo = Math.floor((j * total) / windows);
    const hi = Math.floor(((j + 1) * total) / windows);
    const m = Math.floor(count / windows) + (j < count % windows ? 1 : 0);
    // spread inside the window's sub-range: the first window at the grid's start, the last at its end
    const start = lo + Math.floor(((hi - lo - m) * j) / Math.max(1, windows - 1));
    windowStart.push(start);
    windowCount.push(m);
    for (let b = 0; b < m; b++) blocks[at++] = start + b;
  }
  const groupBlocks: number[] = [];
  for (let h = 0; h < groups; h++) groupBlocks.push(Math.floor(((2 * h + 2) * total) / windows) - Math.floor((2 * h * total) / windows));
  return { total, blocks, windowStart, windowCount, groupBlocks, groups, sms, smCount, scale: total / count };
}

/**
 * the slice as an arch: `sms` SMs (dispatched in the GPU's order among them), the L2 and DRAM
 * bandwidth and the L2's capacity in proportion; everything per SM (latencies, pipes, L1, occupancy
 * limits) as the GPU's
 */
export function sliceArch(arch: Arch, plan: SamplePlan): Arch {
  const f = plan.sms / arch.smCount;
  const order = arch.smDispatchOrder.filter((s) => s < plan.sms);
  return {
    ...arch,
    smCount: plan.sms,
    smDispatchOrder: order.length === plan.sms ? order : Array.from({ length: plan.sms }, (_, i) => i),
    dramBandwidth: arch.dramBandwidth * f,
    l2Size: Math.max(arch.l2LineSize * 16 * 2, Math.round((arch.l2Size * f) / (arch.l2LineSize * 16)) * arch.l2LineSize * 16),
    throughput: { ...arch.throughput, l2BytesPerCycle: arch.throughput.l2BytesPerCycle * f },
    // the L2's set-aside for persisting lines, and the dirty lines ncu's replay leaves in it, take the
    // slice's share of it (a whole GPU's set-aside would fill the slice's sets)
    persistingL2CacheMaxSize: arch.persistingL2CacheMaxSize * f,
    persistingL2CacheDefaultLimit: arch.persistingL2CacheDefaultLimit * f,
    ncuReplayDirtyBytes: arch.ncuReplayDirtyBytes * f,
  };
}

/**
 * the slice's L2 options: what the hierarchy counts GPU-wide takes the slice's share too: requests in
 * flight (merged misses) and the DRAM reads per scheduler round that hold write-backs back. The
 * whole GPU's values are MemoryHierarchy's defaults (memory/hierarchy.ts: 4096 requests; 4 MB per
 * round, at most 0.7, steepness 4)
 */
export function sliceHierarchyOptions(plan: SamplePlan): HierarchyOptions {
  const f = plan.sms / plan.smCount;
  return { inflightRequests: Math.max(1, Math.round(4096 * f)), writeBackAvoidance: { maxSkip: 0.7, halfReadBytes: 4e6 * f, steepness: 4 } };
}

/** which window a chosen block belongs to (windows are few: a scan from the last one found) */
class WindowIndex {
  private last = 0;
  constructor(private readonly plan: SamplePlan) {}
  of(linear: number): number {
    const { windowStart: s, windowCount: c } = this.plan;
    const l = this.last;
    if (linear >= (s[l] as number) && linear < (s[l] as number) + (c[l] as number)) return l;
    for (let j = 0; j < s.length; j++)
      if (linear >= (s[j] as number) && linear < (s[j] as number) + (c[j] as number)) return (this.last = j);
    return -1;
  }
}

/** per-window totals of what the error bound is computed from, gathered while the slice runs */
export class SampleTally {
  readonly instructions: Float64Array;
  readonly memory: Float64Array;
  readonly dram: Float64Array;
  readonly time: Float64Array;
  private readonly index: WindowIndex;
  constructor(readonly plan: SamplePlan) {
    const n = plan.windowStart.length;
    this.instructions = new Float64Array(n);
    this.memory = new Float64Array(n);
    this.dram = new Float64Array(n);
    this.time = new Float64Array(n);
    this.index = new WindowIndex(plan);
  }
  blockDone(linear: number, warpInstructions: number): void {
    const j = this.index.of(linear);
    if (j >= 0) this.instructions[j] = (this.instructions[j] as number) + warpInstructions;
  }
  blockTime(linear: number, start: number, end: number): void {
    const j = this.index.of(linear);
    if (j >= 0) this.time[j] = (this.time[j] as number) + (end - start);
  }
  access(linear: number, sectors: number, dramSectors: number): void {
    const j = this.index.of(linear);
    if (j < 0) return;
    this.memory[j] = (this.memory[j] as number) + sectors;
    this.dram[j] = (this.dram[j] as number) + dramSectors;
  }
}

/**
 * the bound (percent, ~95 %: two standard errors) of a stratified estimate from per-window totals:
 * each group's total is its range's blocks times the mean per-block rate of its two windows, whose
 * variance is estimated from their difference ((a - b)^2 / 4 for the mean of two)
 */
export function errorBound(plan: SamplePlan, perWindow: Float64Array): number {
  let estimate = 0;
  let variance = 0;
  for (let h = 0; h < plan.groups; h++) {
    const a = (perWindow[2 * h] as number) / Math.max(1, plan.windowCount[2 * h] as number);
    const b = (perWindow[2 * h + 1] as number) / Math.max(1, plan.windowCount[2 * h + 1] as number);
    const n = plan.groupBlocks[h] as number;
    estimate += (n * (a + b)) / 2;
    variance += (n * n * (a - b) * (a - b)) / 4;
  }
  return estimate > 0 ? (200 * Math.sqrt(variance)) / estimate : 0;
}

export function sampleSummary(plan: SamplePlan, tally: SampleTally): NonNullable<KernelResult['sampled']> {
  const round = (x: number): number => Math.round(x * 1000) / 1000;
  return {
    blocks: plan.total,
    blocksSimulated: plan.blocks.length,
    sms: plan.sms,
    smCount: plan.smCount,
    groups: plan.groups,
    windows: plan.windowStart.length,
    errorBound: {
      instructions: round(errorBound(plan, tally.instructions)),
      memory: round(errorBound(plan, tally.memory)),
      dram: round(errorBound(plan, tally.dram)),
      time: round(errorBound(plan, tally.time)),
    },
  };
}

/** the per-instruction counters as the whole grid's: every count times the plan's scale, rounded */
export function scaleCounters(c: InstrCounters, scale: number): void {
  for (const a of [c.inst, c.threads, c.threadsPredOn, c.requests, c.sectors, c.sectorsIdeal, c.tagLookups, c.bytes, c.wavefronts, c.wavefrontsIdeal, c.divergent, c.l1Hits])
    for (let i = 0; i < a.length; i++) if (a[i] !== 0) a[i] = Math.round((a[i] as number) * scale);
}

/**
 * the timing model's metrics from the slice as the whole GPU's. The slice ran each SM's share of the
 * blocks, so times per SM, per-cycle rates, ratios and percentages stand; event counts scale with
 * the blocks; cycles summed over SMs with the SMs.
 */
export function scaleTimingMetrics(m: Record<string, number>, plan: SamplePlan): Record<string, number> {
  const smRatio = plan.smCount / plan.sms;
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(m)) {
    if (/^(sm|smsp|l1tex)__cycles_(elapsed|active)\.sum$/.test(k)) out[k] = v * smRatio;
    else if (k === 'sm__active_sms') out[k] = Math.min(plan.smCount, Math.round(v * smRatio));
    // L2 slices are the GPU's in the slice too (its bandwidth is shared out, not its slices' cycles)
    else if (/^lts__cycles_/.test(k) || k === 'gpu__time_duration.sum') out[k] = v;
    else if (k.endsWith('.sum') || k === 'dram__bytes.sum.per_second' || k.startsWith('warpsight__')) out[k] = v * plan.scale;
    else out[k] = v;
  }
  return out;
}

/** Warpsight's own L2 counters that count events (the others are the L2's configuration or state) */
const SCALED_CACHE_EXTRAS = new Set(['warpsight__l2_persisting_line_hits', 'warpsight__l2_persisting_prefetch_bytes', 'warpsight__l2_reused_evicted_bytes']);

/**
 * the cache hierarchy's counters from the slice as the whole GPU's: traffic scales with the blocks;
 * ratios, hit rates and peaks stand; the L2's size is the GPU's
 */
export function scaleCacheMetrics(m: Record<string, number>, plan: SamplePlan, arch: Arch): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(m)) {
    if (k === 'warpsight__l2_size') out[k] = (arch.l2Size * arch.l2SlicesActive) / arch.l2Slices;
    // sizes of the L2 the slice took its share of
    else if (k === 'launch__persisting_l2_cache_size' || k === 'warpsight__l2_persisting_bytes_at_start') out[k] = Math.round((v * plan.smCount) / plan.sms);
    else if (k.endsWith('.sum') || SCALED_CACHE_EXTRAS.has(k)) out[k] = Math.round(v * plan.scale);
    else out[k] = v;
  }
  return out;
}
