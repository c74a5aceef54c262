/**
 * NVIDIA H100 SXM5 (GH100, 132 SMs, 80 GB HBM3). Not measured here: the numbers come from the
 * references (hardware-rules.md §4, §8-9, nsight-compute.md §4); the SM is the H200's (same die and
 * compute capability), so SM-level behaviour is taken from the H200 and tagged [INFER].
 */
import type { ArchSources } from '../sources.js';
import type { Arch } from '../types.js';
import { h200 } from './h200.js';

const KiB = 1024;
const MiB = 1024 * KiB;

export const h100: Arch = {
  ...h200,
  id: 'h100',
  name: 'NVIDIA H100 80GB HBM3',
  smClockHz: 1_980_000_000,
  dramClockHz: 2_617_000_000,
  dramBandwidth: 3_350_000_000_000,
  l2Size: 50 * MiB,
  persistingL2CacheMaxSize: 39_321_600,
  persistingL2CacheDefaultLimit: 11_796_480,
  accessPolicyMaxWindowSize: 128 * MiB,
  dramFillGranularity: 64,
  ncuReplayDirtyBytes: 2_359_296,
  latency: { ...h200.latency },
  throughput: { ...h200.throughput },
  carveoutPolicy: { blocksFactor: 2, blockWarpBudget: 32, capBytes: 132 * KiB },
};

const SAME_SM = '[INFER] same GH100 SM and compute capability 9.0 as the H200 (hardware-rules.md §4.1 gives one sm_90 column for H100/H200)';

export const h100Sources: ArchSources = {
  id: 'Warpsight arch id',
  name: '[INFER] the name cudaGetDeviceProperties reports for the SXM5 80 GB part',
  cc: '[DOC] hardware-rules.md §9: compute capability 9.0',
  smCount: '[DOC] hardware-rules.md §9 / nsight-compute.md §4: 132 SMs (SXM5; the PCIe card has 114)',
  smClockHz: '[DOC] hardware-rules.md §9: 1980 MHz boost',
  dramClockHz: '[INFER] 3.35 TB/s over a 5,120-bit double-data-rate HBM3 bus (5 stacks) = 2,617 MHz',
  dramBandwidth: '[DOC] hardware-rules.md §9: 3.35 TB/s peak (HBM3)',
  warpSize: '[DOC] hardware-rules.md §4.1',
  maxThreadsPerBlock: '[DOC] hardware-rules.md §4.1',
  maxThreadsPerSm: '[DOC] hardware-rules.md §4.1 (2048 threads, 64 warps)',
  maxWarpsPerSm: '[DOC] hardware-rules.md §4.1',
  maxBlocksPerSm: '[DOC] hardware-rules.md §4.1; [SRC] cuda_occupancy.h cudaOccMaxBlocksPerMultiprocessor (32 on cc 9)',
  schedulersPerSm: '[SRC] cuda_occupancy.h cudaOccSubPartitionsPerMultiprocessor (4 on cc 9)',
  registersPerSm: '[DOC] hardware-rules.md §4.1 (65,536 32-bit registers)',
  registersPerBlock: '[DOC] nsight-compute.md §4 table (65,536 per block)',
  maxRegistersPerThread: '[DOC] hardware-rules.md §4.1 (255)',
  registerAllocationUnit: '[SRC] cuda_occupancy.h cudaOccRegAllocationGranularity (256 registers per warp)',
  minRegistersPerThread: `${SAME_SM}: the H200 launched every <16-register kernel with 16`,
  sharedMemPerSmMax: '[DOC] hardware-rules.md §4.1: 228 KB per SM',
  sharedMemPerBlockDefault: '[DOC] hardware-rules.md §4.1: 48 KB without opt-in',
  sharedMemPerBlockOptin: '[DOC] hardware-rules.md §4.1: 227 KB = 232,448 B',
  sharedMemReservedPerBlock: '[DOC] hardware-rules.md §4.1: 1 KB reserved per block',
  sharedMemAllocationUnit: '[SRC] cuda_occupancy.h cudaOccSMemAllocationGranularity (128 on cc 9)',
  sharedMemCarveouts: '[SRC] cuda_occupancy.h cudaOccAlignUpShmemSizeVoltaPlus (cc 9): 0, 8, 16, 32, 64, 100, 132, 164, 196, 228 KB',
  l1SharedSizePerSm: '[DOC] hardware-rules.md §4.1, §9: 256 KB unified L1/shared',
  sharedBanks: '[DOC] hardware-rules.md §2.1',
  namedBarriersPerBlock: '[DOC] hardware-rules.md §4.3 (PTX: 16 per CTA)',
  l2Size: '[MEAS] hardware-rules.md §1.6, §9: H100 enables 50 MB of the die\'s 60 (chipsandcheese); we take 50 MiB as cudaDeviceProp reports it [INFER]',
  l2LineSize: '[NV] hardware-rules.md §1.6',
  sectorSize: '[NV] hardware-rules.md §1.6',
  persistingL2CacheMaxSize: '[INFER] hardware-rules.md §5.1: not found for the H100; 39,321,600 (75 % of 50 MiB, the same bytes as the H200) is the references\' guess',
  persistingL2CacheDefaultLimit: '[INFER] the H200 started processes with 30 % of persistingL2CacheMaxSize as the persisting limit (driver 580); same driver rule assumed',
  accessPolicyMaxWindowSize: '[INFER] as the H200 (128 MiB); hardware-rules.md §10 lists it as unverified on H100',
  ncuReplayDirtyBytes: '[INFER] as measured on the H200 (same ncu, same GH100 L2)',
  dramFillGranularity: '[INFER] the H200 fills 64-B pairs from HBM (groundtruth README "Surprises" 5); same GH100 memory controllers assumed (hardware-rules.md §1.6 says unknown)',
  'latency.alu': '[DOC] hardware-rules.md §8.1 ("typically 4 clock cycles")',
  'latency.fma': '[DOC] hardware-rules.md §8.1',
  'latency.sfu': '[INFER] as the H200 (no measurement in our references)',
  'latency.shared': '[INFER] hardware-rules.md §8.1: low 20s to about 30 cycles on Hopper, unverified',
  'latency.l1Hit': '[MEAS] RRZE gpu-latency/gh200.txt (GH200 = H100-class SM at 1980 MHz): 32 cycles; hardware-rules.md §8.1',
  'latency.l2Hit': '[MEAS] RRZE gpu-latency/gh200.txt: 280 cycles (near L2 half); hardware-rules.md §8.1',
  'latency.dram': '[MEAS] RRZE gpu-latency/gh200.txt: 625-690 cycles, midpoint 658 (HBM3 on GH200); hardware-rules.md §8.1',
  'latency.branch': '[INFER] as the H200',
  'latency.barrier': '[INFER] as the H200',
  'throughput.l1BytesPerCyclePerSm': '[NV] hardware-rules.md §1.4 Rule G4 (128 B/cycle/SM)',
  'throughput.l2BytesPerCycle': '[INFER] RRZE has no H100 L2 bandwidth; taken from the H200 (same L2 design, 9.85 TB/s at 1.98 GHz)',
  'throughput.lsuInstPerCyclePerSm': '[NV] hardware-rules.md §1.4, §8.1',
  'throughput.fp32LanesPerSm': '[DOC] hardware-rules.md §8.1, §9: 128 FP32 lanes per SM on sm_90',
  'throughput.fp64LanesPerSm': '[INFER] NVIDIA Hopper whitepaper (64 FP64 cores per SM), not among our references',
  'latency.special': '[INFER] as the H200',
  'latency.constant': '[INFER] as the H200',
  'latency.fp64': '[INFER] as the H200',
  'latency.ctaLaunch': '[INFER] as the H200 (measured there)',
  'latency.dramJitter': '[INFER] as the H200',
  'latency.blockRetire': '[INFER] as the H200',
  'throughput.sfuLanesPerSm': '[DOC] CUDA Programming Guide arithmetic-instructions table: 16 MUFU results per clock per SM on cc 9.0',
  'throughput.sharedWavefrontsPerCyclePerSm': '[NV] hardware-rules.md §2.2, §8.1 (one wavefront per cycle per SM)',
  'throughput.dramEfficiency': '[INFER] as the H200 (RRZE gpu-stream GH200: 3.1-3.9 of ~4 TB/s; hardware-rules.md §8.2)',
  'throughput.dramWriteCost': '[INFER] as the H200',
  launchOverheadNs: '[INFER] the H200\'s graph-replay GPU time per kernel (groundtruth launch_overhead.txt, 0.746 us); same driver and GPU front end assumed',
  blockBarriersPerSm: '[SRC] cuda_occupancy.h cudaOccMaxBlocksPerSMBlockBarrierLimit: 2 x 32 blocks on cc 9',
  'carveoutPolicy.blocksFactor': `${SAME_SM}: driver carveout rule fitted on the H200 (src/arch/carveout.ts)`,
  'carveoutPolicy.blockWarpBudget': `${SAME_SM}: driver carveout rule fitted on the H200 (src/arch/carveout.ts)`,
  'carveoutPolicy.capBytes': `${SAME_SM}: driver carveout rule fitted on the H200 (src/arch/carveout.ts)`,
};
