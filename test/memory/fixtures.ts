import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Arch } from '../../src/arch/types.js';

/**
 * H200 values the memory hierarchy reads (groundtruth/README.md "Machine of this run", device_props.json);
 * a local fixture until src/arch/data/h200.ts exists.
 */
export const H200: Arch = {
  id: 'h200',
  name: 'NVIDIA H200',
  cc: [9, 0],
  smCount: 132,
  smClockHz: 1.98e9,
  dramClockHz: 3.201e9,
  dramBandwidth: 4.8e12,
  warpSize: 32,
  maxThreadsPerBlock: 1024,
  maxThreadsPerSm: 2048,
  maxWarpsPerSm: 64,
  maxBlocksPerSm: 32,
  schedulersPerSm: 4,
  registersPerSm: 65536,
  registersPerBlock: 65536,
  maxRegistersPerThread: 255,
  registerAllocationUnit: 256,
  minRegistersPerThread: 16,
  sharedMemPerSmMax: 233472,
  sharedMemPerBlockDefault: 49152,
  sharedMemPerBlockOptin: 232448,
  sharedMemReservedPerBlock: 1024,
  sharedMemAllocationUnit: 128,
  sharedMemCarveouts: [0, 8192, 16384, 32768, 65536, 102400, 135168, 167936, 200704, 233472],
  l1SharedSizePerSm: 262144,
  sharedBanks: 32,
  namedBarriersPerBlock: 16,
  l2Size: 62914560,
  l2LineSize: 128,
  sectorSize: 32,
  persistingL2CacheMaxSize: 39321600,
  persistingL2CacheDefaultLimit: 11796480,
  accessPolicyMaxWindowSize: 134217728,
  dramFillGranularity: 64,
  latency: { alu: 4, fma: 4, sfu: 16, shared: 30, l1Hit: 40, l2Hit: 260, dram: 600, branch: 8, barrier: 20, special: 20, constant: 12, fp64: 8, ctaLaunchPerWarp: 15.5, blockRetire: 0 },
  throughput: { l1BytesPerCyclePerSm: 128, l2BytesPerCycle: 5000, lsuInstPerCyclePerSm: 4, fp32LanesPerSm: 128, fp64LanesPerSm: 64, sfuLanesPerSm: 16, sharedWavefrontsPerCyclePerSm: 1, dramEfficiency: 0.9, dramWriteCost: 2 },
  launchOverheadNs: 2000,
};

export interface GtLaunch {
  kernel: string;
  family: string;
  instance: number;
  metrics: Record<string, number | string>;
}

const here = dirname(fileURLToPath(import.meta.url));
export const GT_SUMMARY = resolve(here, '../../../shared/groundtruth/h200/summary.json');

let cache: GtLaunch[] | null = null;
export function groundTruth(): GtLaunch[] {
  cache ??= JSON.parse(readFileSync(GT_SUMMARY, 'utf8')) as GtLaunch[];
  return cache;
}

export function gt(kernel: string, instance = 0): Record<string, number> {
  const e = groundTruth().find((x) => x.kernel === kernel && x.instance === instance);
  if (!e) throw new Error(`no ground truth for ${kernel}#${instance}`);
  return e.metrics as Record<string, number>;
}
