/**
 * The per-limit arithmetic of the CUDA Occupancy Calculator (cuda_occupancy.h, CUDA 12.6 copy cited in
 * hardware-rules.md §4.2): how many blocks of a launch fit on one SM by registers, warp slots, shared
 * memory and named barriers. Pure functions of an arch and one configuration, shared by the
 * calculator (occupancy.ts) and the "Impact of Varying ..." series (occupancy-series.ts).
 */
import { alignUpCarveout } from './carveout.js';
import type { Arch } from './types.js';

/**
 * cuda_occupancy.h's per-thread register check (cudaOccRegAllocationMaxPerThread) is 256 on cc >= 7,
 * one more than ptxas ever allocates (255); ncu's register graph runs to 256 with it.
 */
export const OCCUPANCY_MAX_REGISTERS = 256;

export function roundUp(x: number, unit: number): number {
  return Math.ceil(x / unit) * unit;
}

/** warps a block occupies; a zero-thread point of ncu's block-size graph counts as one warp */
export function warpsPerBlock(arch: Arch, threads: number): number {
  return Math.max(1, Math.ceil(threads / arch.warpSize));
}

/** registers allocated per warp: registers x 32 lanes rounded to the allocation unit (256 = 8 per thread) */
export function registersPerWarp(arch: Arch, registers: number): number {
  return roundUp(registers * arch.warpSize, arch.registerAllocationUnit);
}

/** a block's registers as the hardware checks them: allocated on all sub-partitions at once (warps rounded to 4) */
export function registersCheckedPerBlock(arch: Arch, registers: number, warps: number): number {
  return registersPerWarp(arch, registers) * roundUp(warps, arch.schedulersPerSm);
}

/**
 * Blocks per SM by registers. Registers are split between the 4 sub-partitions, so the warps that fit
 * in one sub-partition are floored before multiplying by 4. 0 when one block does not fit; unlimited
 * for a kernel without registers.
 */
export function registerLimit(arch: Arch, registers: number, warps: number): number {
  const perWarp = registersPerWarp(arch, registers);
  if (registers > OCCUPANCY_MAX_REGISTERS || registersCheckedPerBlock(arch, registers, warps) > arch.registersPerBlock || perWarp * warps > arch.registersPerBlock) return 0;
  if (perWarp === 0) return Number.POSITIVE_INFINITY;
  const warpsPerSubPartition = Math.floor(arch.registersPerSm / arch.schedulersPerSm / perWarp);
  return Math.floor((warpsPerSubPartition * arch.schedulersPerSm) / warps);
}

/** blocks per SM by warp slots */
export function warpLimit(arch: Arch, warps: number): number {
  return Math.floor(arch.maxWarpsPerSm / warps);
}

/**
 * Blocks per SM by named barriers before the block limit caps them (cuda_occupancy.h: barriers per SM
 * / barriers per block). Unlimited for a kernel without barriers or an arch whose barriers don't limit.
 */
export function barrierLimit(arch: Arch, barriers: number): number {
  if (barriers <= 0 || arch.blockBarriersPerSm === undefined) return Number.POSITIVE_INFINITY;
  return Math.floor(arch.blockBarriersPerSm / barriers);
}

/**
 * Blocks per SM by shared memory against a configured carveout, as ncu evaluates it: a block that
 * needs more than the carveout gets the next carveout step instead (cuda_occupancy.h's Volta+ rule);
 * 0 above the largest step; unlimited for a block without shared memory.
 */
export function sharedMemLimit(arch: Arch, smemPerBlock: number, configSize: number): number {
  if (smemPerBlock <= 0) return Number.POSITIVE_INFINITY;
  const capacity = configSize >= smemPerBlock ? configSize : alignUpCarveout(arch, smemPerBlock);
  return capacity === undefined ? 0 : Math.floor(capacity / smemPerBlock);
}
