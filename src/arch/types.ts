/**
 * A GPU as data. Every number carries its source in the arch JSON files (`src/arch/data/*.json`,
 * validated by `schemas/arch.schema.json`); this interface is what the emulator reads.
 */
export interface Arch {
  /** short id used on the command line: h200, h100, a100 */
  id: string;
  /** marketing name as ncu prints it ("NVIDIA H200") */
  name: string;
  /** compute capability [major, minor] */
  cc: [number, number];
  smCount: number;
  /** SM clock in Hz (the clock the H200 ground truth ran at) */
  smClockHz: number;
  /** DRAM clock in Hz as ncu reports `dram__cycles_elapsed.avg.per_second` */
  dramClockHz: number;
  /** peak DRAM bandwidth, bytes/s */
  dramBandwidth: number;
  warpSize: number;
  maxThreadsPerBlock: number;
  maxThreadsPerSm: number;
  maxWarpsPerSm: number;
  maxBlocksPerSm: number;
  schedulersPerSm: number;
  registersPerSm: number;
  registersPerBlock: number;
  maxRegistersPerThread: number;
  /** registers are allocated per warp in units of this many registers */
  registerAllocationUnit: number;
  /** minimum registers a launch gets (the H200 launched <16-register kernels with 16) */
  minRegistersPerThread: number;
  /** shared memory */
  sharedMemPerSmMax: number;
  sharedMemPerBlockDefault: number;
  sharedMemPerBlockOptin: number;
  sharedMemReservedPerBlock: number;
  sharedMemAllocationUnit: number;
  /** supported shared-memory carveouts in bytes, ascending */
  sharedMemCarveouts: number[];
  /** unified L1 + shared SRAM per SM, bytes */
  l1SharedSizePerSm: number;
  sharedBanks: number;
  namedBarriersPerBlock: number;
  l2Size: number;
  l2LineSize: number;
  sectorSize: number;
  /** cudaDeviceProp::persistingL2CacheMaxSize */
  persistingL2CacheMaxSize: number;
  /** the persisting limit a process starts with (cudaDeviceGetLimit before any set) */
  persistingL2CacheDefaultLimit: number;
  accessPolicyMaxWindowSize: number;
  /** DRAM fill granularity in bytes (64 on the H200: ground truth surprise 5) */
  dramFillGranularity: number;
  /** latencies in SM cycles, by level/class */
  latency: {
    alu: number;
    fma: number;
    sfu: number;
    shared: number;
    l1Hit: number;
    l2Hit: number;
    dram: number;
    branch: number;
    barrier: number;
  };
  /** sustained throughputs */
  throughput: {
    /** L1/shared data bytes per cycle per SM */
    l1BytesPerCyclePerSm: number;
    /** L2 bytes per SM-cycle for the whole GPU */
    l2BytesPerCycle: number;
    /** LSU instructions per cycle per SM */
    lsuInstPerCyclePerSm: number;
    fp32LanesPerSm: number;
    fp64LanesPerSm: number;
  };
  /** fixed launch overhead in ns added to gpu__time_duration */
  launchOverheadNs: number;
}
