/**
 * Theoretical occupancy of a launch as Nsight Compute reports it (Launch Statistics and Occupancy
 * sections): the CUDA Occupancy Calculator (cuda_occupancy.h; nsight-compute.md §4,
 * hardware-rules.md §4.2) plus what the H200 showed on top of it (groundtruth README "Surprises" 7):
 *  - a kernel launches with at least `minRegistersPerThread` (16) registers per thread, and ncu reports
 *    that, not the ptxas count (`launch__registers_per_thread`);
 *  - registers are allocated per warp in units of 256 (8 per thread); ncu's
 *    `launch__registers_per_thread_allocated` is that allocation divided by the block's threads;
 *  - shared memory per block is static + dynamic + 1 KB driver reserve, rounded up to 128 B, and its
 *    limit is computed against the carveout the driver chose (carveout.ts), not the 228 KB maximum;
 *  - named barriers limit blocks to 64 / barriers on sm_90; ncu reports that limit capped at the block
 *    limit (32), and 32 for a kernel without barriers;
 *  - every limit equal to the smallest is a limiter (ties are all reported).
 */
import { KernelFault } from '../errors.js';
import { driverCarveout } from './carveout.js';
import { barrierLimit, registerLimit, registersCheckedPerBlock, registersPerWarp, roundUp, sharedMemLimit, warpLimit, warpsPerBlock } from './occupancy-limits.js';
import { occupancySeries, type OccupancySeriesSet } from './occupancy-series.js';
import type { Arch } from './types.js';

export { launchFacts, occupancyMetrics } from './occupancy-metrics.js';
export type { OccupancySeries, OccupancySeriesSet, SeriesPoint } from './occupancy-series.js';

export interface OccupancyInput {
  arch: Arch;
  /** threads per block (x*y*z) */
  blockSize: number;
  /** blocks in the grid; needed for waves per SM */
  gridBlocks?: number;
  /** registers per thread as ptxas reports them (the launch raises them to the arch minimum) */
  registersPerThread: number;
  /** static shared memory per block, bytes */
  staticSmem?: number;
  /** dynamic shared memory per block, bytes */
  dynamicSmem?: number;
  /** named barriers the kernel uses (ptxas "used N barriers", ncu launch__barrier_count) */
  barriers?: number;
  /**
   * the kernel's cudaFuncAttributeMaxDynamicSharedMemorySize. Default: 48 KB - static, or the opt-in
   * maximum - static when the block needs more than 48 KB (the kernel must have opted in to launch).
   */
  maxDynamicSmem?: number;
  /** the carveout the launch ran with, when known (e.g. a real ncu report); default: the driver's rule */
  sharedMemConfigSize?: number;
}

export type OccupancyLimiter = 'blocks' | 'registers' | 'shared_mem' | 'warps' | 'barriers';

/** blocks per SM allowed by each limit, as ncu's launch__occupancy_limit_* report them */
export interface OccupancyLimits {
  blocks: number;
  registers: number;
  sharedMem: number;
  warps: number;
  /** capped at the block limit, as ncu reports it */
  barriers: number;
}

export interface OccupancyResult {
  archId: string;
  archName: string;
  smCount: number;
  maxWarpsPerSm: number;
  blockSize: number;
  gridBlocks?: number;
  warpsPerBlock: number;
  registers: {
    /** as given (ptxas) */
    declared: number;
    /** as launched: max(arch minimum, declared) — launch__registers_per_thread */
    perThread: number;
    /** launch__registers_per_thread_allocated: allocated registers per warp x warps / threads */
    perThreadAllocated: number;
    perWarpAllocated: number;
  };
  sharedMem: {
    static: number;
    dynamic: number;
    /** reserved by the driver for each block */
    driver: number;
    /** static + dynamic + driver */
    perBlock: number;
    /** perBlock rounded up to the allocation unit */
    perBlockAllocated: number;
    /** the dynamic-shared-memory limit the kernel launched with */
    maxDynamic: number;
    /** where the carveout came from: the driver rule or the caller */
    configSource: 'driver' | 'given';
  };
  /** the shared-memory carveout of the launch (launch__shared_mem_config_size), bytes */
  sharedMemConfigSize: number;
  barriers: number;
  limits: OccupancyLimits;
  /** every limit equal to the active blocks (ties included) */
  limiters: OccupancyLimiter[];
  activeBlocksPerSm: number;
  /** theoretical active warps per SM (sm__maximum_warps_avg_per_active_cycle) */
  activeWarpsPerSm: number;
  /** theoretical occupancy in % (sm__maximum_warps_per_active_cycle_pct) */
  occupancyPct: number;
  /** theoretical warps per scheduler (smsp__maximum_warps_avg_per_active_cycle) */
  warpsPerScheduler: number;
  /** grid blocks / (active blocks per SM x SMs), unrounded (launch__waves_per_multiprocessor) */
  wavesPerSm?: number;
  /** false when not one block fits on an SM (the CUDA launch fails with too many resources requested) */
  launchable: boolean;
  /** why the launch cannot run, when it cannot */
  problem?: string;
  series: OccupancySeriesSet;
}

const fmt = (n: number): string => n.toLocaleString('en-US');

function fault(arch: Arch, message: string): never {
  throw new KernelFault('invalid-launch', `invalid launch on the ${arch.name}: ${message}`);
}

/** `hint` may be made only on failure: formatting a number for it loads ICU's locale data, 7 ms a process */
function requireCount(arch: Arch, what: string, v: number, min: number, max: number, hint: string | (() => string)): void {
  if (!Number.isInteger(v) || v < min || v > max) fault(arch, `${what} ${v}; ${typeof hint === 'string' ? hint : hint()}`);
}

/** the input with its defaults filled in */
type Normalized = OccupancyInput & { staticSmem: number; dynamicSmem: number; barriers: number };

/** the checks a CUDA launch fails on before anything runs (shapes, sizes, per-block maxima) */
function checkInput(i: Normalized): void {
  const { arch } = i;
  requireCount(arch, 'block size', i.blockSize, 1, arch.maxThreadsPerBlock, () => `a block has 1 to ${fmt(arch.maxThreadsPerBlock)} threads (cudaErrorInvalidConfiguration)`);
  if (i.gridBlocks !== undefined) requireCount(arch, 'grid blocks', i.gridBlocks, 1, Number.MAX_SAFE_INTEGER, 'a grid has at least one block');
  requireCount(arch, 'registers per thread', i.registersPerThread, 0, arch.maxRegistersPerThread, `ptxas allocates at most ${arch.maxRegistersPerThread}`);
  requireCount(arch, 'static shared memory', i.staticSmem, 0, Number.MAX_SAFE_INTEGER, 'expected a whole number of bytes >= 0');
  requireCount(arch, 'dynamic shared memory', i.dynamicSmem, 0, Number.MAX_SAFE_INTEGER, 'expected a whole number of bytes >= 0');
  requireCount(arch, 'named barriers', i.barriers, 0, arch.namedBarriersPerBlock, `a block has ${arch.namedBarriersPerBlock} (0-${arch.namedBarriersPerBlock - 1})`);
  const total = i.staticSmem + i.dynamicSmem;
  if (total > arch.sharedMemPerBlockOptin)
    fault(arch, `${fmt(total)} B of shared memory per block (static ${fmt(i.staticSmem)} + dynamic ${fmt(i.dynamicSmem)}); a block can have at most ${fmt(arch.sharedMemPerBlockOptin)} B, and more than ${fmt(arch.sharedMemPerBlockDefault)} B only after cudaFuncSetAttribute(..., cudaFuncAttributeMaxDynamicSharedMemorySize, ...)`);
  if (i.maxDynamicSmem !== undefined && i.dynamicSmem > i.maxDynamicSmem)
    fault(arch, `${fmt(i.dynamicSmem)} B of dynamic shared memory is above the kernel's limit of ${fmt(i.maxDynamicSmem)} B; raise it with cudaFuncSetAttribute(..., cudaFuncAttributeMaxDynamicSharedMemorySize, ${i.dynamicSmem})`);
}

/** the dynamic-shared-memory attribute a kernel has when the caller doesn't say */
function defaultMaxDynamic(arch: Arch, staticSmem: number, dynamicSmem: number): number {
  const optedIn = staticSmem + dynamicSmem > arch.sharedMemPerBlockDefault;
  return (optedIn ? arch.sharedMemPerBlockOptin : arch.sharedMemPerBlockDefault) - staticSmem;
}

/** every limit equal to the active blocks, by the names ncu's rules use */
function limitersOf(limits: OccupancyLimits, rawBarrierLimit: number, active: number): OccupancyLimiter[] {
  const out: OccupancyLimiter[] = [];
  if (limits.blocks === active) out.push('blocks');
  if (limits.registers === active) out.push('registers');
  if (limits.sharedMem === active) out.push('shared_mem');
  if (limits.warps === active) out.push('warps');
  // barriers limit only when they bind before the block limit caps them (cuda_occupancy.h compares the uncapped value)
  if (rawBarrierLimit === active) out.push('barriers');
  return out;
}

export function computeOccupancy(input: OccupancyInput): OccupancyResult {
  const { arch, blockSize } = input;
  const staticSmem = input.staticSmem ?? 0;
  const dynamicSmem = input.dynamicSmem ?? 0;
  const barriers = input.barriers ?? 0;
  checkInput({ ...input, staticSmem, dynamicSmem, barriers });

  const warps = warpsPerBlock(arch, blockSize);
  const registers = Math.max(arch.minRegistersPerThread, input.registersPerThread);
  const perWarpAllocated = registersPerWarp(arch, registers);
  const driver = arch.sharedMemReservedPerBlock;
  const perBlock = staticSmem + dynamicSmem + driver;
  const perBlockAllocated = roundUp(perBlock, arch.sharedMemAllocationUnit);
  const maxDynamic = input.maxDynamicSmem ?? defaultMaxDynamic(arch, staticSmem, dynamicSmem);

  const rawBarrierLimit = barrierLimit(arch, barriers);
  const registerBlocks = registerLimit(arch, registers, warps);
  const warpBlocks = warpLimit(arch, warps);
  const blocksByOtherLimits = Math.min(registerBlocks, warpBlocks, arch.maxBlocksPerSm, rawBarrierLimit);
  const configSize =
    input.sharedMemConfigSize ??
    driverCarveout(arch, { warpsPerBlock: warps, userSmem: staticSmem + dynamicSmem, smemPerBlock: perBlockAllocated, blocksByOtherLimits, barrierLimit: rawBarrierLimit });

  const limits: OccupancyLimits = {
    blocks: arch.maxBlocksPerSm,
    registers: registerBlocks,
    sharedMem: sharedMemLimit(arch, perBlockAllocated, configSize),
    warps: warpBlocks,
    barriers: Math.min(arch.maxBlocksPerSm, rawBarrierLimit),
  };
  const active = Math.min(limits.blocks, limits.registers, limits.sharedMem, limits.warps, rawBarrierLimit);
  const activeWarps = active * warps;
  const launchable = active > 0;
  return {
    archId: arch.id,
    archName: arch.name,
    smCount: arch.smCount,
    maxWarpsPerSm: arch.maxWarpsPerSm,
    blockSize,
    ...(input.gridBlocks !== undefined ? { gridBlocks: input.gridBlocks } : {}),
    warpsPerBlock: warps,
    registers: { declared: input.registersPerThread, perThread: registers, perThreadAllocated: (perWarpAllocated * warps) / blockSize, perWarpAllocated },
    sharedMem: { static: staticSmem, dynamic: dynamicSmem, driver, perBlock, perBlockAllocated, maxDynamic, configSource: input.sharedMemConfigSize === undefined ? 'driver' : 'given' },
    sharedMemConfigSize: configSize,
    barriers,
    limits,
    limiters: limitersOf(limits, rawBarrierLimit, active),
    activeBlocksPerSm: active,
    activeWarpsPerSm: activeWarps,
    occupancyPct: (activeWarps * 100) / arch.maxWarpsPerSm,
    warpsPerScheduler: activeWarps / arch.schedulersPerSm,
    ...(input.gridBlocks !== undefined && launchable ? { wavesPerSm: input.gridBlocks / (active * arch.smCount) } : {}),
    launchable,
    ...(launchable ? {} : { problem: unlaunchableReason(arch, registers, warps, blockSize, limits) }),
    series: occupancySeries(arch, {
      blockSize,
      registers,
      smemPerBlock: perBlockAllocated,
      configSize,
      barriers,
      smemSeriesLimit: maxDynamic === arch.sharedMemPerBlockDefault ? arch.sharedMemPerBlockDefault : arch.sharedMemPerBlockOptin,
    }),
  };
}

function unlaunchableReason(arch: Arch, registers: number, warps: number, blockSize: number, limits: OccupancyLimits): string {
  if (limits.registers === 0) {
    const need = registersCheckedPerBlock(arch, registers, warps);
    return `too many resources requested for launch: ${fmt(blockSize)} threads x ${registers} registers allocate ${fmt(need)} registers per block (${warps} warps rounded up to a multiple of ${arch.schedulersPerSm}, ${fmt(registersPerWarp(arch, registers))} registers each); the ${arch.name} has ${fmt(arch.registersPerBlock)} (cudaErrorLaunchOutOfResources): use fewer threads or __launch_bounds__ to cap registers`;
  }
  return 'not one block fits on an SM';
}

/**
 * Throws the KernelFault a real launch would fail with: not one block fits on an SM (too many
 * registers for the block), or more static shared memory than a kernel may declare.
 * `computeOccupancy` itself returns such configurations with `launchable: false`, since ncu's graphs
 * and calculators evaluate them as 0 warps.
 */
export function assertLaunchable(result: OccupancyResult, arch: Arch): void {
  if (result.sharedMem.static > arch.sharedMemPerBlockDefault)
    fault(arch, `${fmt(result.sharedMem.static)} B of static shared memory; a kernel may declare at most ${fmt(arch.sharedMemPerBlockDefault)} B statically (allocate the rest dynamically and opt in)`);
  if (!result.launchable) fault(arch, result.problem ?? 'not one block fits on an SM');
}
