/**
 * The occupancy graphs' series for a report's kernels: the arch data's occupancy calculator
 * (`arch/occupancy.ts`, cuda_occupancy.h's logic) run on each launch's config as the report
 * records it (block, registers, static and dynamic shared memory, and the carveout and barrier
 * count when the metrics carry them).
 */
import type { KernelResult, Report } from '../../../types/report.schema.js';
import { getArch } from '../../arch/index.js';
import { computeOccupancy } from '../../arch/occupancy.js';
import type { GraphSeries, OccupancyGraphs } from './occupancy.js';

const metricNumber = (k: KernelResult, id: string): number | undefined => {
  const v = k.metrics[id];
  return typeof v === 'number' ? v : undefined;
};

export function occupancySeriesOf(kernel: KernelResult, archId: string): GraphSeries[] | undefined {
  const arch = getArch(archId);
  const { launch } = kernel;
  const configSize = metricNumber(kernel, 'launch__shared_mem_config_size');
  const barriers = metricNumber(kernel, 'launch__barrier_count');
  const occ = computeOccupancy({
    arch,
    blockSize: launch.block[0] * launch.block[1] * launch.block[2],
    registersPerThread: launch.registersPerThread,
    staticSmem: launch.staticSharedBytes,
    dynamicSmem: launch.dynamicSharedBytes,
    ...(barriers !== undefined ? { barriers } : {}),
    ...(configSize !== undefined ? { sharedMemConfigSize: configSize } : {}),
  });
  const s = occ.series;
  return [s.registerCount, s.blockSize, s.sharedMemSize, s.barrierCount];
}

/** The graphs provider for a report, or a note saying why there are none. */
export function occupancyGraphsFor(report: Pick<Report, 'device'>): { graphs?: OccupancyGraphs; note?: string } {
  try {
    getArch(report.device.arch);
  } catch {
    return { note: `no occupancy graphs: Warpsight has no arch data for '${report.device.arch}'` };
  }
  return {
    graphs: (kernel) => {
      try {
        return occupancySeriesOf(kernel, report.device.arch);
      } catch {
        // a launch config the calculator rejects has no graphs; the rest of the report stands
        return undefined;
      }
    },
  };
}
