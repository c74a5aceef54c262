/**
 * ncu's "Impact of Varying ..." occupancy graphs: theoretical active warps per SM as one launch
 * parameter varies and the others stay at the launch's values (instanced metrics
 * `launch__occupancy_per_{register_count,block_size,shared_mem_size,barrier_count}`; ncu's raw page
 * prints their sum). The axes are ncu's, read off its details page and checked against the sums of
 * 120 ground-truth launches and 674 more from an H200 sweep:
 *  - registers per thread 0..256 in steps of 1 (256 is cuda_occupancy.h's limit, not ptxas's 255);
 *  - block size 0..1024 threads in steps of 16 (0 counts as one warp);
 *  - shared memory per block 0..(max per SM - 512) in steps of 512 B, the driver reserve included,
 *    against the launch's carveout (a point that needs more gets the next carveout step); points
 *    above the per-block limit are 0. That limit is 48 KB when the kernel's dynamic-shared-memory
 *    attribute is exactly the 48 KB default and the opt-in maximum otherwise (observed: g_ld_* and
 *    occ_smem_48k stop at 48 KB, sh_* with static memory and occ_smem_8k run to 227 KB);
 *  - named barriers per block 0..(barriers per SM) in steps of 1.
 * ncu's "% Occupancy" variants are floor(warps x 100 / max warps) per point (its table shows 93 for 60
 * warps), which is `pct` here.
 */
import { barrierLimit, registerLimit, sharedMemLimit, warpLimit, warpsPerBlock, OCCUPANCY_MAX_REGISTERS } from './occupancy-limits.js';
import type { Arch } from './types.js';

const BLOCK_SIZE_STEP = 16;
const SHARED_MEM_STEP = 512;

export interface SeriesPoint {
  x: number;
  /** theoretical active warps per SM at x (the instanced metric's value) */
  warps: number;
  /** ncu's "% Occupancy" value at x: floor(warps x 100 / max warps per SM) */
  pct: number;
}

export type SeriesId = 'register_count' | 'block_size' | 'shared_mem_size' | 'barrier_count';

export interface OccupancySeries {
  id: SeriesId;
  /** the ncu metric whose instances the points are */
  metric: `launch__occupancy_per_${SeriesId}`;
  title: string;
  xLabel: string;
  xUnit: string;
  /** the launch's own value of x */
  current: number;
  /** index of the point that stands for the launch (the last x not above `current`) */
  currentIndex: number;
  points: SeriesPoint[];
}

export interface OccupancySeriesSet {
  registerCount: OccupancySeries;
  blockSize: OccupancySeries;
  sharedMemSize: OccupancySeries;
  barrierCount: OccupancySeries;
}

/** the launch the series vary around (registers as launched, shared memory as allocated) */
export interface SeriesBase {
  blockSize: number;
  registers: number;
  smemPerBlock: number;
  configSize: number;
  barriers: number;
  /** per-block shared-memory limit of the shared-memory graph (see the module comment) */
  smemSeriesLimit: number;
}

interface Point {
  threads: number;
  registers: number;
  smem: number;
  barriers: number;
}

function activeWarps(arch: Arch, p: Point, configSize: number): number {
  const warps = warpsPerBlock(arch, p.threads);
  const blocks = Math.min(
    registerLimit(arch, p.registers, warps),
    warpLimit(arch, warps),
    arch.maxBlocksPerSm,
    sharedMemLimit(arch, p.smem, configSize),
    barrierLimit(arch, p.barriers),
  );
  return blocks * warps;
}

function range(from: number, to: number, step: number): number[] {
  const xs: number[] = [];
  for (let x = from; x <= to; x += step) xs.push(x);
  return xs;
}

function series(arch: Arch, id: SeriesId, meta: { title: string; xLabel: string; xUnit: string }, current: number, xs: number[], warpsAt: (x: number) => number): OccupancySeries {
  const points = xs.map((x) => {
    const warps = warpsAt(x);
    return { x, warps, pct: Math.floor((warps * 100) / arch.maxWarpsPerSm) };
  });
  let currentIndex = 0;
  points.forEach((p, i) => {
    if (p.x <= current) currentIndex = i;
  });
  return { id, metric: `launch__occupancy_per_${id}`, ...meta, current, currentIndex, points };
}

export function occupancySeries(arch: Arch, base: SeriesBase): OccupancySeriesSet {
  const at: Point = { threads: base.blockSize, registers: base.registers, smem: base.smemPerBlock, barriers: base.barriers };
  const warps = (p: Partial<Point>): number => activeWarps(arch, { ...at, ...p }, base.configSize);
  const barrierMax = arch.blockBarriersPerSm ?? 2 * arch.maxBlocksPerSm;
  return {
    registerCount: series(
      arch, 'register_count',
      { title: 'Impact of Varying Register Count Per Thread', xLabel: 'Registers Per Thread', xUnit: 'register/thread' },
      base.registers, range(0, OCCUPANCY_MAX_REGISTERS, 1), (x) => warps({ registers: x }),
    ),
    blockSize: series(
      arch, 'block_size',
      { title: 'Impact of Varying Block Size', xLabel: 'Block Size', xUnit: 'thread' },
      base.blockSize, range(0, arch.maxThreadsPerBlock, BLOCK_SIZE_STEP), (x) => warps({ threads: x }),
    ),
    sharedMemSize: series(
      arch, 'shared_mem_size',
      { title: 'Impact of Varying Shared Memory Usage Per Block', xLabel: 'Shared Memory Per Block', xUnit: 'byte' },
      base.smemPerBlock, range(0, arch.sharedMemPerSmMax - SHARED_MEM_STEP, SHARED_MEM_STEP),
      (x) => (x > base.smemSeriesLimit ? 0 : warps({ smem: x })),
    ),
    barrierCount: series(
      arch, 'barrier_count',
      { title: 'Impact of Varying Block Barriers', xLabel: 'Block Barrier Count', xUnit: 'barrier' },
      base.barriers, range(0, barrierMax, 1), (x) => warps({ barriers: x }),
    ),
  };
}

/** the value ncu's raw page prints for an instanced series metric: the sum of its points */
export function seriesSum(s: OccupancySeries): number {
  return s.points.reduce((sum, p) => sum + p.warps, 0);
}
