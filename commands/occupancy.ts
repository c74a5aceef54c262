import { Flags } from '@oclif/core';
import type { OccupancyResult } from '../src/arch/occupancy.js';
import { WarpsightCommand } from '../src/cli/base.js';
import { parseBytes, parseDim3 } from '../src/cli/flags.js';
import { UserError } from '../src/errors.js';

type OccupancyOutput = OccupancyResult & { metrics: Record<string, number | string> };

export default class Occupancy extends WarpsightCommand {
  static override summary = 'Theoretical occupancy of a launch configuration, as Nsight Compute computes it';
  static override description = `Prints the Occupancy section's block limits (SM, registers, shared memory, warps, barriers), the theoretical active warps and occupancy, the limiters, the shared-memory carveout the driver picks for the launch, waves per SM (with --grid), and ncu's "Impact of Varying Register Count Per Thread / Block Size / Shared Memory Usage Per Block" series with this launch marked. --json prints all of it, the series point by point and the ncu metric ids.`;
  static override examples = [
    '<%= config.bin %> occupancy --block 512 --regs 64 --smem 8k',
    '<%= config.bin %> occupancy --arch h200 --block 32x8 --regs 22 --static-smem 4k --barriers 1 --grid 128x128',
    '<%= config.bin %> occupancy --block 256 --regs 46 --static-smem 32k --barriers 5 --json',
  ];
  static override enableJsonFlag = true;
  static override flags = {
    arch: Flags.string({ default: 'h200', description: 'GPU: h200, h100, a100' }),
    // required, but checked in run(): oclif's own missing-flag error is a multi-line message
    block: Flags.string({ description: '(required) threads per block: 256, or dimensions 32x8 / 32,8,1' }),
    regs: Flags.integer({ min: 0, description: '(required) registers per thread (ptxas -v "Used N registers")' }),
    smem: Flags.string({ default: '0', description: 'dynamic shared memory per block: 49152, 48k, 1.5k, 8kb' }),
    'static-smem': Flags.string({ default: '0', description: 'static shared memory per block (__shared__ arrays)' }),
    barriers: Flags.integer({ default: 0, min: 0, description: 'named barriers the kernel uses (ptxas "used N barriers"; __syncthreads uses 1)' }),
    grid: Flags.string({ description: 'blocks in the grid, or dimensions 128x128: adds waves per SM' }),
    'max-dynamic-smem': Flags.string({ description: 'the kernel\'s cudaFuncAttributeMaxDynamicSharedMemorySize (default: 48k, or the opt-in maximum above it)' }),
    carveout: Flags.string({ description: 'use this shared-memory carveout instead of the driver\'s choice, e.g. 100k' }),
  };

  async run(): Promise<OccupancyOutput> {
    const { flags } = await this.parse(Occupancy);
    const { getArch } = await import('../src/arch/index.js');
    const { assertLaunchable, computeOccupancy, occupancyMetrics } = await import('../src/arch/occupancy.js');
    if (flags.block === undefined) throw new UserError('--block is required: threads per block, e.g. --block 256 or --block 32x8', 2);
    if (flags.regs === undefined) throw new UserError('--regs is required: registers per thread as ptxas -v reports them, e.g. --regs 32', 2);
    const arch = getArch(flags.arch);
    const block = parseDim3('block', flags.block) ?? [1, 1, 1];
    const grid = parseDim3('grid', flags.grid);
    const maxDynamic = flags['max-dynamic-smem'] === undefined ? undefined : parseBytes('max-dynamic-smem', flags['max-dynamic-smem']);
    const carveout = flags.carveout === undefined ? undefined : parseBytes('carveout', flags.carveout);
    if (carveout !== undefined && !arch.sharedMemCarveouts.includes(carveout))
      throw new UserError(`--carveout ${flags.carveout}: the ${arch.name} supports ${arch.sharedMemCarveouts.map((c) => `${c / 1024}k`).join(', ')}`, 2);
    const result = computeOccupancy({
      arch,
      blockSize: block[0] * block[1] * block[2],
      ...(grid ? { gridBlocks: grid[0] * grid[1] * grid[2] } : {}),
      registersPerThread: flags.regs,
      staticSmem: parseBytes('static-smem', flags['static-smem']),
      dynamicSmem: parseBytes('smem', flags.smem),
      barriers: flags.barriers,
      ...(maxDynamic === undefined ? {} : { maxDynamicSmem: maxDynamic }),
      ...(carveout === undefined ? {} : { sharedMemConfigSize: carveout }),
    });
    assertLaunchable(result, arch);
    if (!this.jsonEnabled()) {
      const { renderOccupancy } = await import('../src/cli/occupancy-render.js');
      process.stdout.write(renderOccupancy(result, { plain: !process.stdout.isTTY, showBarriers: flags.barriers > 0 }));
    }
    return { ...result, metrics: occupancyMetrics(result) };
  }
}
