/**
 * An occupancy result as ncu metric ids and values (the Launch Statistics and Occupancy sections'
 * launch__* and theoretical-occupancy metrics), in ncu's base units: bytes, blocks, warps, percent.
 * Values are unrounded; ncu's console rounds waves to 2 decimals (15.515... prints 15.52).
 */
import type { OccupancyResult } from './occupancy.js';
import type { Arch } from './types.js';
import { seriesSum } from './occupancy-series.js';

/** the function cache preference of a kernel that sets none (ncu launch__func_cache_config) */
const FUNC_CACHE_CONFIG = 'CachePreferNone';

export function occupancyMetrics(r: OccupancyResult): Record<string, number | string> {
  const grid: Record<string, number> =
    r.gridBlocks === undefined
      ? {}
      : {
          launch__grid_size: r.gridBlocks,
          launch__thread_count: r.gridBlocks * r.blockSize,
          ...(r.wavesPerSm === undefined ? {} : { launch__waves_per_multiprocessor: r.wavesPerSm }),
        };
  return {
    launch__block_size: r.blockSize,
    ...grid,
    launch__sm_count: r.smCount,
    launch__func_cache_config: FUNC_CACHE_CONFIG,
    launch__registers_per_thread: r.registers.perThread,
    launch__registers_per_thread_allocated: r.registers.perThreadAllocated,
    launch__shared_mem_per_block_static: r.sharedMem.static,
    launch__shared_mem_per_block_dynamic: r.sharedMem.dynamic,
    launch__shared_mem_per_block_driver: r.sharedMem.driver,
    launch__shared_mem_per_block: r.sharedMem.perBlock,
    launch__shared_mem_per_block_allocated: r.sharedMem.perBlockAllocated,
    launch__shared_mem_config_size: r.sharedMemConfigSize,
    launch__barrier_count: r.barriers,
    launch__occupancy_limit_blocks: r.limits.blocks,
    launch__occupancy_limit_registers: r.limits.registers,
    launch__occupancy_limit_shared_mem: r.limits.sharedMem,
    launch__occupancy_limit_warps: r.limits.warps,
    launch__occupancy_limit_barriers: r.limits.barriers,
    launch__occupancy_per_register_count: seriesSum(r.series.registerCount),
    launch__occupancy_per_block_size: seriesSum(r.series.blockSize),
    launch__occupancy_per_shared_mem_size: seriesSum(r.series.sharedMemSize),
    launch__occupancy_per_barrier_count: seriesSum(r.series.barrierCount),
    sm__maximum_warps_avg_per_active_cycle: r.activeWarpsPerSm,
    sm__maximum_warps_per_active_cycle_pct: r.occupancyPct,
    smsp__maximum_warps_avg_per_active_cycle: r.warpsPerScheduler,
  };
}

/**
 * What ncu's Launch Statistics and Occupancy sections show of every launch Warpsight makes: the
 * default stack, the whole GPU's TPCs, no green context, and (on an arch with clusters) no cluster
 */
export function launchFacts(arch: Arch): Record<string, number | string> {
  return {
    launch__stack_size: arch.stackSizePerThread,
    launch__tpc_count: arch.smCount / arch.smsPerTpc,
    launch__tpc_enabled: 'all',
    launch__uses_green_context: 0,
    ...(arch.maxClusterSize > 0
      ? {
          launch__cluster_size: 0,
          launch__cluster_scheduling_policy: 'PolicySpread',
          launch__cluster_max_potential_size: arch.maxClusterSize,
          launch__cluster_max_active: 0,
          launch__occupancy_cluster_pct: 0,
          launch__occupancy_cluster_gpu_pct: 0,
        }
      : {}),
  };
}
