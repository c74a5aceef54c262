/**
 * A GPU as data. Every number carries its source in the arch data files (`src/arch/data/*.ts`, each
 * an `Arch` plus a `sources` record, validated by `schemas/arch.schema.json`); this interface is what
 * the emulator reads.
 */
export interface Arch {
  /** short id used on the command line: h200, h100, a100 */
  id: string;
  /** marketing name as ncu prints it ("NVIDIA H200") */
  name: string;
  /** compute capability [major, minor] */
  cc: [number, number];
  smCount: number;
  /** SMs per TPC (ncu launch__tpc_count = smCount / smsPerTpc) */
  smsPerTpc: number;
  /** the largest portable thread-block cluster (0: the arch has no clusters) */
  maxClusterSize: number;
  /** the default per-thread stack (cudaLimitStackSize) a launch gets */
  stackSizePerThread: number;
  /** SM clock in Hz (the clock the H200 ground truth ran at) */
  smClockHz: number;
  /** DRAM clock in Hz as ncu reports `dram__cycles_elapsed.avg.per_second` */
  dramClockHz: number;
  /** L2 slice clock in Hz (lts__cycles_elapsed per slice per second) */
  l2ClockHz: number;
  /** L2 tag-stage sectors a slice takes per L2 cycle: the peak of lts__t_sectors (ncu's .sum.peak_sustained / slices) */
  l2TagSectorsPerCycle: number;
  /** L2 data-stage sectors a slice moves per L2 cycle: the peak of lts__d_sectors */
  l2DataSectorsPerCycle: number;
  /** L2 cycles the fabric-to-slice interface is busy per sector it carries (lts__ltcfabric2ltc_cycles_active per lts__t_sectors_srcunit_ltcfabric) */
  l2FabricCyclesPerSector: number;
  /** peak DRAM bandwidth, bytes/s */
  dramBandwidth: number;
  /** device memory (HBM) in bytes, cudaDeviceProp::totalGlobalMem: what cudaMalloc can hand out at most */
  globalMemBytes: number;
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
  /** L2 bytes as the driver reports them (cudaDevAttrL2CacheSize); the persisting limits are fractions of it */
  l2Size: number;
  /** L2 slices of the design (ncu device__attribute_l2s_count) */
  l2Slices: number;
  /** slices that hold data: the cache itself holds l2Size * l2SlicesActive / l2Slices bytes */
  l2SlicesActive: number;
  /**
   * How the L2's two partitions split the address space: a line's home partition is the parity of
   * the byte address's `xorBits` (all below `regionBytes`, one of them log2 `unitBytes`, so each aligned
   * pair of units has one unit in each partition) XOR a hashed bit per `regionBytes` region (the
   * physical page bits above it do not follow the virtual address)
   */
  l2PartitionHash: { unitBytes: number; xorBits: number[]; regionBytes: number };
  /** the L2 partition near each SM (index: SM id) */
  smL2Partition: number[];
  /** SM ids in the order the block scheduler gives a grid's first blocks to them */
  smDispatchOrder: number[];
  l2LineSize: number;
  sectorSize: number;
  /** cudaDeviceProp::persistingL2CacheMaxSize */
  persistingL2CacheMaxSize: number;
  /** the persisting limit a process starts with (cudaDeviceGetLimit before any set) */
  persistingL2CacheDefaultLimit: number;
  accessPolicyMaxWindowSize: number;
  /** DRAM fill granularity in bytes (64 on the H200: ground truth surprise 5) */
  dramFillGranularity: number;
  /**
   * dirty bytes in the L2, not the kernel's own, at the start of the measured pass of ncu's
   * multi-pass kernel replay with caches flushed: a kernel that streams past the L2 writes them back
   */
  ncuReplayDirtyBytes: number;
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
    /** S2R (special registers) to first use (timing model; default 20) */
    special: number;
    /** LDC (kernel parameters, constant bank) to first use (default 12) */
    constant: number;
    /** DFMA/DADD dependent latency (default 8) */
    fp64: number;
    /** cycles between two block launches on one SM (the SM's block launcher is a serial resource) */
    ctaLaunch: number;
    /** cycles between a block's last warp exiting and its slot taking the next block */
    blockRetire: number;
    /** spread of DRAM latency around its mean (row hits and misses, bank queues): a request takes dram ± dramJitter/2 */
    dramJitter: number;
  };
  /** sustained throughputs */
  throughput: {
    /** L1/shared data bytes per cycle per SM */
    l1BytesPerCyclePerSm: number;
    /** L2 bytes per SM-cycle for the whole GPU */
    l2BytesPerCycle: number;
    /** LSU instructions per cycle per SM */
    lsuInstPerCyclePerSm: number;
    /** ADU instructions (constant loads, the shared window's S2UR, EXIT, block barriers) per cycle per SM */
    aduInstPerCyclePerSm: number;
    fp32LanesPerSm: number;
    fp64LanesPerSm: number;
    /** MUFU lanes per SM (default 16) */
    sfuLanesPerSm: number;
    /** shared-memory wavefronts per cycle per SM (default 1) */
    sharedWavefrontsPerCyclePerSm: number;
    /** fraction of the peak DRAM bandwidth a streaming kernel sustains (default 0.81 = 3.9 of 4.8 TB/s) */
    dramEfficiency: number;
    /** DRAM time of a byte written during a kernel relative to a byte read (timing model) */
    dramWriteCost: number;
    /**
     * ns an L2 slice takes per atomic operation (one address, or the words of one sector; timing
     * model) and per f32/f64 add (absent: the H200's 0.732 and 1.78)
     */
    l2AtomicOpNs?: number;
    l2AtomicFloatOpNs?: number;
    /**
     * an L2 slice's atomic unit takes the SMs that have atomics waiting there in turn (round robin over
     * the SMs, first come first served within one SM), so an SM's requests to a contended slice are
     * served one per turn of all the waiting SMs (timing model; absent or false: first come first served)
     */
    l2AtomicSmTurns?: boolean;
    /**
     * ns the L2 takes to turn its dirty room over while it writes back: a kernel's write-backs (and the
     * fills in their wake, l2WriteBackShadow) move at most (dirty room) / this (timing model).
     * The dirty room is what the L2 lets stay dirty while a kernel runs (L2Options.dirtyWays), so a
     * persisting set-aside that shrinks it slows every kernel that writes back. Absent: no such limit.
     */
    l2DirtyTurnoverNs?: number;
    /**
     * DRAM read bytes (fills) that follow a written-back byte and move at the write-back rate of
     * l2DirtyTurnoverNs: the fills waiting behind the write-backs (timing model; absent: 0)
     */
    l2WriteBackShadow?: number;
  };
  /**
   * Replays of conflict-free shared accesses by global traffic on the same SM at the same time (timing
   * model): the L1's data stage, busy with another warp's global data or a block starting, makes a
   * shared access take one more wavefront. Each figure is the extra wavefronts per event when the
   * SM's shared data stage is busy with the colliding kind of access the whole time (one wavefront a
   * cycle); less busy, proportionally fewer. Absent: none (every shared access at its bank model's
   * wavefronts, with or without timing).
   */
  sharedReplay?: {
    /** STS wavefronts per 128-bit global load request (LDG.E.128) whose data returns to the SM */
    stsPerLdg128: number;
    /** LDS wavefronts per 128-bit global store request (STG.E.128) whose data the SM reads */
    ldsPerStg128: number;
    /** LDS wavefronts per narrower global store request (STG.E, STG.E.64) */
    ldsPerStgNarrow: number;
    /** LDS wavefronts per block starting on the SM */
    ldsPerBlockStart: number;
  };
  /** fixed launch overhead in ns added to gpu__time_duration */
  launchOverheadNs: number;
  /**
   * Block (named) barriers per SM for the occupancy calculator's barrier limit: a launch using n
   * barriers per block fits floor(blockBarriersPerSm / n) blocks (cuda_occupancy.h: 2 x the block
   * limit on sm_90). Absent: barriers do not limit occupancy (cuda_occupancy.h applies it from sm_90).
   */
  blockBarriersPerSm?: number;
  /**
   * How the driver picks a launch's shared-memory carveout (`launch__shared_mem_config_size`) when the
   * kernel states no preference; fitted to the H200, see `driverCarveout` in `src/arch/carveout.ts`.
   * Absent: the smallest carveout that does not limit occupancy.
   */
  carveoutPolicy?: CarveoutPolicy;
  /** costs of fences, L1 invalidations and sleeps (timing model; absent: the H200's, DEFAULT_MEMORY_MODEL) */
  memoryModel?: MemoryModelCosts;
}

/** what the memory model's instructions cost, in SM cycles (test/fidelity/probes/memmodel on the H200) */
export interface MemoryModelCosts {
  /** MEMBAR.{SC,ALL}.CTA */
  membarCta: number;
  /** MEMBAR.{SC,ALL}.GPU with no write in flight, until the next memory instruction may issue */
  membarGpu: number;
  /** with writes in flight, a gpu or sys MEMBAR ends no earlier than this long after the last is acknowledged */
  membarDrain: number;
  /** MEMBAR.{SC,ALL}.SYS */
  membarSys: number;
  /**
   * MEMBAR.{SC,ALL}.GPU / .SYS right after the warp's strong load read a value a peer GPU wrote (a
   * wait for another PE's p or signal, then __threadfence()): longer than membarGpu / membarSys
   */
  membarGpuAfterPeerRead: number;
  membarSysAfterPeerRead: number;
  /** a fence's CCTL.IVALL right behind its MEMBAR */
  ivallAfterMembar: number;
  /** CCTL.IVALL after an acquire load */
  ivall: number;
  /** the shortest NANOSLEEP (of 0 ns) */
  nanosleepMinCycles: number;
  /** cycles a NANOSLEEP takes beyond the time it sleeps */
  nanosleepOverheadCycles: number;
  /** sleeps up to this many ns are as asked; longer ones round up to a power of two ns */
  nanosleepExactNs: number;
  /** the longest sleep, ns */
  nanosleepMaxNs: number;
  /**
   * the fence scopes that wait for the slow writes (NVLink stores) of *other* kernels in flight in the
   * fence's memory synchronization domain (device/syncDomains.ts; a kernel's completion flush always does)
   */
  domainFenceScopes: readonly ('gpu' | 'sys')[];
  /** a dependent load from host-mapped (zero-copy) memory, issue to data, over the host link */
  hostMappedLoad: number;
  /** a store to host-mapped memory: from issue until the host side has it (a system fence waits for it) */
  hostMappedStoreAck: number;
}

/** the H200's (test/fidelity/probes/memmodel/memmodel_probe_h200.csv; sources in src/arch/data/h200.ts) */
export const DEFAULT_MEMORY_MODEL: MemoryModelCosts = {
  membarCta: 9,
  membarGpu: 470,
  membarDrain: 306,
  membarSys: 1074,
  membarGpuAfterPeerRead: 825,
  membarSysAfterPeerRead: 1331,
  ivallAfterMembar: 85,
  ivall: 2,
  nanosleepMinCycles: 87,
  nanosleepOverheadCycles: 12,
  nanosleepExactNs: 1024,
  nanosleepMaxNs: 1_000_000,
  domainFenceScopes: ['sys'],
  hostMappedLoad: 2328,
  hostMappedStoreAck: 2505,
};

/** The driver's default carveout choice as numbers (see `driverCarveout`). */
export interface CarveoutPolicy {
  /** room for this many times the blocks that registers, warps, the block limit and barriers allow ... */
  blocksFactor: number;
  /** ... but for no more than (this - warps per block) blocks ... */
  blockWarpBudget: number;
  /** ... and not above this carveout (bytes) unless those allowed blocks themselves need more */
  capBytes: number;
}
