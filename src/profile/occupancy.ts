/**
 * Occupancy of one launch: registers per thread (declared or estimated from the IR), the occupancy
 * calculator's limits and metrics, and the L1 capacity left by the shared-memory carveout.
 */
import type { MetricValue } from '../../types/report.schema.js';
import { assertLaunchable, computeOccupancy, launchFacts, occupancyMetrics } from '../arch/occupancy.js';
import type { Arch } from '../arch/types.js';
import { estimateRegisters } from '../ir/registers.js';
import type { KernelIR } from '../ir/types.js';
import type { Dim3, KernelDef } from '../kernel/define.js';

export interface OccupancyForLaunch {
  blocksPerSm: number;
  registersPerThread: number;
  registersSource: 'declared' | 'estimated';
  /** L1 bytes for global data: unified L1/shared SRAM minus the carveout the driver chose */
  l1Bytes: number;
  metrics: Record<string, MetricValue>;
}

export function occupancyFor(arch: Arch, def: KernelDef, ir: KernelIR, grid: Dim3, block: Dim3, dynamicShared: number): OccupancyForLaunch {
  const declared = def.registers;
  const registers = declared ?? estimateRegisters(ir);
  const occ = computeOccupancy({
    arch,
    blockSize: block[0] * block[1] * block[2],
    gridBlocks: grid[0] * grid[1] * grid[2],
    registersPerThread: registers,
    staticSmem: ir.sharedStaticBytes,
    dynamicSmem: dynamicShared,
    // ptxas reserves barriers 0..highest id used (ws_cudadma_namedbar, ids 1-4: 5 barriers, limit 12 on the H200)
    barriers: Math.max(0, ...ir.barrierIds.map((id) => id + 1)),
  });
  // a launch the hardware refuses (register file or static shared memory overflow) stops here
  assertLaunchable(occ, arch);
  const metrics = { ...occupancyMetrics(occ), ...launchFacts(arch) };
  return {
    blocksPerSm: Math.max(1, occ.activeBlocksPerSm),
    registersPerThread: Number(metrics['launch__registers_per_thread'] ?? registers),
    registersSource: declared === undefined ? 'estimated' : 'declared',
    l1Bytes: Math.max(0, arch.l1SharedSizePerSm - occ.sharedMemConfigSize),
    metrics,
  };
}
