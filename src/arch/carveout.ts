/**
 * The shared-memory carveout (`launch__shared_mem_config_size`) the driver picks for a launch whose
 * kernel states no carveout preference. ncu computes the shared-memory occupancy limit against it,
 * not against the 228 KB maximum, so it decides `launch__occupancy_limit_shared_mem`.
 *
 * The rule is not documented. It was fitted to every launch of ../shared/groundtruth/h200/summary.json
 * (120 launches) and checked on an ncu sweep of 2,942 more launches on an H200 (driver 580.159, ncu
 * 2025.3.1: block sizes 1-1024, 0-200 KB of static and dynamic shared memory, 11-212 registers,
 * 0-16 named barriers, with and without cudaFuncAttributeMaxDynamicSharedMemorySize raised), which it
 * reproduces without exception. With
 *   B  = blocks per SM allowed by registers, warps, the block limit and barriers (everything but
 *        shared memory), s = shared memory per block incl. the 1 KB driver reserve, 128-B granular,
 *   L  = the barrier limit before the block limit caps it (64 / barriers on sm_90; none for 0),
 *   w  = warps per block, and "holding n" = the smallest carveout that fits n blocks of s bytes
 *        (or, when none fits n, the smallest that fits as many as any carveout does):
 *   - B <= 1: holding 1. One resident block needs no room for another.
 *   - no static or dynamic shared memory: holding min(L, 32 - w) blocks of 1 KB. So 256-thread
 *     kernels get 32 KB (g_ld_*), 512-thread ones 16 KB (occ_regs_*, even when registers allow only
 *     two blocks), 768-1024-thread ones 8 KB.
 *   - otherwise: T = min(2B, L, 32 - w); the carveout is holding T, but at most 132 KB, and never less
 *     than holding B. The driver leaves room for twice the blocks that can be resident, which is why
 *     occ_smem_8k (B = 4 x 9 KB) got 100 KB, sh_transpose_*_bd32x8 (8 x 5 KB) 100 KB, sh_ld_* and
 *     cp_pipeline_2stage (8 x 9 KB) 132 KB, ws_baseline_syncthreads (8 x 17 KB) 164 KB (B itself
 *     needs more than the 132 KB cap), occ_smem_48k (4 x 49 KB) 196 KB, and why 1024-thread blocks
 *     (32 - 32 = 0, so T = B) get only what B blocks need (sh_transpose_*_bd32x32: 2 x 5 KB -> 16 KB).
 * The numbers 2, 32 and 132 KB are `arch.carveoutPolicy`; an arch without one gets holding B, the
 * carveout cuda_occupancy.h would need for the occupancy the other limits allow.
 */
import type { Arch } from './types.js';

/** the smallest carveout step >= bytes (cuda_occupancy.h cudaOccAlignUpShmemSizeVoltaPlus); undefined above the largest */
export function alignUpCarveout(arch: Arch, bytes: number): number | undefined {
  return arch.sharedMemCarveouts.find((c) => c >= bytes);
}

/** the smallest carveout that holds `blocks` blocks of `smemPerBlock` bytes, or, if none does, the smallest holding the most */
export function smallestCarveoutHolding(arch: Arch, blocks: number, smemPerBlock: number): number {
  const fits = (c: number): number => (smemPerBlock > 0 ? Math.floor(c / smemPerBlock) : Number.POSITIVE_INFINITY);
  const steps = arch.sharedMemCarveouts;
  const enough = steps.find((c) => fits(c) >= blocks);
  if (enough !== undefined) return enough;
  const most = Math.max(...steps.map(fits));
  return steps.find((c) => fits(c) === most) ?? steps[steps.length - 1] ?? 0;
}

/** what the driver's choice depends on */
export interface CarveoutDemand {
  warpsPerBlock: number;
  /** static + dynamic shared memory per block, bytes (without the driver reserve) */
  userSmem: number;
  /** shared memory per block as allocated: user + driver reserve, rounded to the allocation unit */
  smemPerBlock: number;
  /** blocks per SM allowed by every limit except shared memory */
  blocksByOtherLimits: number;
  /** blocks per SM the named barriers allow before the block limit caps them; Infinity when they don't limit */
  barrierLimit: number;
}

/** the carveout (bytes) the driver configures for a launch; see the module comment for the rule and its evidence */
export function driverCarveout(arch: Arch, d: CarveoutDemand): number {
  const holding = (n: number): number => smallestCarveoutHolding(arch, n, d.smemPerBlock);
  const b = d.blocksByOtherLimits;
  const policy = arch.carveoutPolicy;
  if (!policy || b <= 1) return holding(Math.max(1, b));
  const room = Math.min(d.barrierLimit, policy.blockWarpBudget - d.warpsPerBlock);
  if (d.userSmem === 0) return holding(Math.max(1, room));
  const target = Math.max(1, Math.min(policy.blocksFactor * b, room));
  return Math.max(holding(b), Math.min(holding(target), policy.capBytes));
}
