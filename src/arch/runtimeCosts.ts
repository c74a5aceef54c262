/**
 * What the CUDA runtime and the GPU's front end cost, per arch: host-side API costs, the GPU's
 * per-kernel and per-graph-node overheads, copy engines, hardware work queues. The discrete-event
 * runtime (src/runtime) reads only these numbers. Every field has its source in `sources`.
 * Times in nanoseconds, bandwidths in bytes per nanosecond (= GB/s).
 */
export interface RuntimeCosts {
  host: {
    /** cudaLaunchKernel: host time per launch (the submit rate of a stream of launches) */
    launchKernelNs: number;
    /** cudaGraphLaunch: host time per launch of an instantiated graph, and per kernel node in it */
    graphLaunchNs: number;
    graphLaunchPerNodeNs: number;
    /** cudaGraphInstantiate: fixed and per node */
    graphInstantiateNs: number;
    graphInstantiatePerNodeNs: number;
    /** cudaEventRecord / cudaStreamWaitEvent / cudaEventQuery / cudaStreamQuery: host time per call */
    eventRecordNs: number;
    /** a synchronize call that finds its work done */
    syncCallNs: number;
    /** from the GPU finishing the awaited work to the synchronize call returning on the host */
    syncWakeNs: number;
    /** cudaMalloc / cudaFree of a size not freed before (device idle), cudaMallocHost */
    mallocNs: number;
    freeNs: number;
    /** cudaMalloc + cudaFree of a size freed before (the driver keeps the block) */
    mallocReusePairNs: number;
    mallocHostNs: number;
    /** one CPU read of host-mapped memory in a polling loop while a kernel stores to it (ctx.host on a hostAllocMapped pointer) */
    mappedPollNs: number;
    /** cudaMallocAsync + cudaFreeAsync on a warm pool (the pair; split evenly) */
    mallocAsyncPairNs: number;
    /** cudaMallocAsync that must grow the pool (memory not cached by it) */
    poolGrowNs: number;
    /** cudaMemcpyAsync / cudaMemsetAsync / cudaLaunchHostFunc submit */
    memcpyAsyncNs: number;
    /** staging pageable host memory into the driver's pinned buffer, per byte (the host is blocked) */
    pageableStageBytesPerNs: number;
    streamCreateNs: number;
  };
  gpu: {
    /** from a launch's submit on the host until the GPU's front end can start it */
    launchLatencyNs: number;
    /** front-end time between a kernel's end and the start of the next one in the same stream */
    kernelGapNs: number;
    /** the same between dependent kernel nodes of a graph launch */
    graphNodeGapNs: number;
    /** a graph launch's own start-up on the GPU */
    graphLaunchGpuNs: number;
    /** a host function: GPU to host thread and back */
    hostFuncNs: number;
    /** an event record or wait in a stream */
    eventNs: number;
  };
  copy: {
    /** independent copy engines: one per direction (H2D, D2H) and one for device-to-device */
    h2dBytesPerNs: number;
    d2hBytesPerNs: number;
    /** pageable host memory (staged through a pinned buffer) */
    pageableH2dBytesPerNs: number;
    pageableD2hBytesPerNs: number;
    d2dBytesPerNs: number;
    memsetBytesPerNs: number;
    /** fixed cost of one copy or memset on its engine */
    h2dLatencyNs: number;
    d2hLatencyNs: number;
    d2dLatencyNs: number;
    memsetLatencyNs: number;
  };
  /** CUDA_DEVICE_MAX_CONNECTIONS: default and maximum hardware work queues */
  hwQueuesDefault: number;
  hwQueuesMax: number;
  /** stream priorities: greatest (numerically lowest) and least */
  priorityGreatest: number;
  priorityLeast: number;
  /** cudaDevAttrMemSyncDomainCount */
  memSyncDomainCount: number;
}

type Paths<T, P extends string = ''> = { [K in keyof T & string]: T[K] extends number ? `${P}${K}` : Paths<T[K], `${P}${K}.`> }[keyof T & string];
export type RuntimeCostSources = Record<Paths<RuntimeCosts>, string>;

const FAM9 = '../shared/groundtruth/h200/launch_overhead.txt (family 9, median of 9)';
const RTREF = '../shared/reference/runtime-system.md';
const PROBE = 'test/fidelity/probes/runtime_probe_h200.txt';

export const H200_RUNTIME: RuntimeCosts = {
  host: {
    launchKernelNs: 4988,
    graphLaunchNs: 2170,
    graphLaunchPerNodeNs: 2.75,
    graphInstantiateNs: 4000,
    graphInstantiatePerNodeNs: 1730,
    eventRecordNs: 1491,
    syncCallNs: 500,
    syncWakeNs: 2670,
    mallocNs: 27_231,
    freeNs: 23_300,
    mallocReusePairNs: 3917,
    mallocHostNs: 990_000,
    mappedPollNs: 0.7,
    mallocAsyncPairNs: 1293,
    poolGrowNs: 64_300,
    memcpyAsyncNs: 2370,
    pageableStageBytesPerNs: 12,
    streamCreateNs: 5000,
  },
  gpu: {
    launchLatencyNs: 2600,
    kernelGapNs: 1660,
    graphNodeGapNs: 300,
    graphLaunchGpuNs: 1500,
    hostFuncNs: 16_768,
    eventNs: 0,
  },
  copy: {
    h2dBytesPerNs: 55.5,
    d2hBytesPerNs: 55.3,
    pageableH2dBytesPerNs: 12,
    pageableD2hBytesPerNs: 12,
    d2dBytesPerNs: 2030,
    memsetBytesPerNs: 4570,
    h2dLatencyNs: 2600,
    d2hLatencyNs: 1800,
    d2dLatencyNs: 2000,
    memsetLatencyNs: 6100,
  },
  hwQueuesDefault: 8,
  hwQueuesMax: 32,
  priorityGreatest: -5,
  priorityLeast: 0,
  memSyncDomainCount: 4,
};

export const H200_RUNTIME_SOURCES: RuntimeCostSources = {
  'host.launchKernelNs': `[MEAS] ${FAM9}: stream_launch_host_submit_us_per_kernel 4.988 (the ground truth's H200; ${PROBE}: 4.70 on another H200)`,
  'host.graphLaunchNs': `[MEAS] ${PROBE}: cudaGraphLaunch host cost 2.17 / 2.22 / 2.50 / 4.92 us for graphs of 1 / 10 / 100 / 1000 kernel nodes`,
  'host.graphLaunchPerNodeNs': `[MEAS] ${PROBE}: (4.92 - 2.17) us over 999 nodes`,
  'host.graphInstantiateNs': `[MEAS] ${PROBE}: cudaGraphInstantiate 21 us for 10 nodes, 1.73 ms for 1000`,
  'host.graphInstantiatePerNodeNs': `[MEAS] ${PROBE}: 1.73 ms / 1000 nodes`,
  'host.eventRecordNs': `[MEAS] ${PROBE}: cudaEventRecord 1.49 us (0.33 with cudaEventDisableTiming)`,
  'host.syncCallNs': `[MEAS] ${PROBE}: cudaStreamSynchronize on an idle stream 0.50 us (cudaEventQuery of a completed event 0.34)`,
  'host.syncWakeNs': `[MEAS] ${FAM9}: launch_plus_sync 10.694 us = submit 4.988 + gpu.launchLatencyNs + the tiny kernel (0.44 us modelled) + this wake-up, so the two add up to 5.27 us, split evenly [INFER]: ${PROBE} cannot separate them (the GPU's and host's clocks differ by ~90 us); there a 20 us kernel's launch + sync takes 8.8 us beyond the kernel (4.1 us beyond the submit, on a faster host)`,
  'host.mallocNs': `[MEAS] ${PROBE}: cudaMalloc(1 MiB) 27.2 us`,
  'host.freeNs': `[MEAS] ${PROBE}: cudaFree(1 MiB) on an idle device 23.3 us (and 206 us while a 200 us kernel runs: it waits for the device)`,
  'host.mallocReusePairNs': `[MEAS] ${PROBE}: cudaMalloc + cudaFree of the same 1 MiB, repeated: 3.9 us a pair (the driver keeps the freed block)`,
  'host.mallocHostNs': `[MEAS] ${RTREF} 1.5: cudaMallocHost 1 MiB 0.99 ms (H100)`,
  'host.mappedPollNs': '[OBS] test/fidelity/probes/zero_copy_host_probe_h200.txt (zero_copy_host_probe.cu): the H200 host reads a cudaHostAllocMapped word in 0.7 ns a read while a kernel stores to it with __threadfence_system() (0.3 ns idle): most reads hit the CPU cache between the GPU\'s stores',
  'host.mallocAsyncPairNs': `[MEAS] ${PROBE}: cudaMallocAsync + cudaFreeAsync of 1 MiB on a warm pool 1.29 us a pair`,
  'host.poolGrowNs': `[MEAS] ${PROBE}: the first pair after a synchronize with release threshold 0 takes 65.6 us (2.2 with the threshold at its maximum): the pool gave its memory back and grows again`,
  'host.memcpyAsyncNs': `[MEAS] ${PROBE}: cudaMemcpyAsync 4 KiB pinned submit 2.37 us H2D, 2.23 D2H; cudaLaunchHostFunc 2.52`,
  'host.pageableStageBytesPerNs': `[MEAS] ${PROBE}: a pageable H2D cudaMemcpyAsync holds the host as long as the copy: 8.7-15.8 GB/s (1 MiB-256 MiB)`,
  'host.streamCreateNs': '[INFER] order of magnitude; outside the timed loops of every measurement',
  'gpu.launchLatencyNs': `[MEAS] ${FAM9}: the other part of the 5.27 us that launch_plus_sync spends beyond submit and kernel (see host.syncWakeNs)`,
  'gpu.kernelGapNs': `[MEAS] ${PROBE}: 1.66 us from a kernel's end to the next one's start in a stream (empty or 20 us kernels); queued tiny kernels 1.80 us apart`,
  'gpu.graphNodeGapNs': `[MEAS] ${FAM9}: graph_replay_gpu_us_per_kernel 0.746 less the tiny kernel's modelled SM time (0.446 us); ${PROBE}: 0.80 us from a node's last instruction to the next node's first`,
  'gpu.graphLaunchGpuNs': `[MEAS] ${PROBE}: graphs launched back to back take 1.5 us + 0.74 us per node`,
  'gpu.hostFuncNs': `[MEAS] ${PROBE}: an empty host function between two events 16.8 us (73 us on a second H200)`,
  'gpu.eventNs': `[MEAS] ${PROBE}: a record + wait with cudaEventDisableTiming leaves the same 1.66 us gap as stream order: no cost of its own`,
  'copy.h2dBytesPerNs': `[MEAS] ${PROBE}: pinned H2D 256 MiB 55.5 GB/s (PCIe Gen5 x16)`,
  'copy.d2hBytesPerNs': `[MEAS] ${PROBE}: pinned D2H 256 MiB 55.3 GB/s`,
  'copy.pageableH2dBytesPerNs': `[MEAS] ${PROBE}: pageable H2D 15.8 GB/s at 1 MiB, 14.3 at 16 MiB, 8.7 at 256 MiB`,
  'copy.pageableD2hBytesPerNs': `[MEAS] ${PROBE}: pageable D2H 9.3 GB/s at 1 MiB, 13.9 at 16 MiB, 14.4 at 256 MiB`,
  'copy.d2dBytesPerNs': `[MEAS] ${PROBE}: cudaMemcpyAsync D2D 256 MiB: 2.03 TB/s of bytes copied`,
  'copy.memsetBytesPerNs': `[MEAS] ${PROBE}: cudaMemsetAsync 256 MiB 64.8 us, 1 MiB 6.3 us: 4.57 TB/s beyond the fixed part`,
  'copy.h2dLatencyNs': `[MEAS] ${PROBE}: pinned H2D copies queued back to back: 2.6 us each + bytes / 55 GB/s`,
  'copy.d2hLatencyNs': `[MEAS] ${PROBE}: pinned D2H copies queued back to back: 1.8 us each + bytes / 55 GB/s`,
  'copy.d2dLatencyNs': `[MEAS] ${PROBE}: small D2D copies queued back to back 1.9-2.2 us`,
  'copy.memsetLatencyNs': `[MEAS] ${PROBE}: cudaMemsetAsync 1 MiB 6.3 us less 1 MiB at 4.57 TB/s`,
  hwQueuesDefault: `[DOC] ${RTREF} 1.3: CUDA_DEVICE_MAX_CONNECTIONS defaults to 8; [MEAS] ${PROBE}: 9 streams of two dependent 100 us kernels issued depth-first take 312 us with 8 connections, 214 with 16 (100 us x (ceil(S/C) + 1) + 1.4 us x S)`,
  hwQueuesMax: `[DOC] ${RTREF} 1.3: CUDA_DEVICE_MAX_CONNECTIONS 1 to 32`,
  priorityGreatest: `[MEAS] ${PROBE}: stream priorities 0 to -5`,
  priorityLeast: `[MEAS] ${PROBE}: stream priorities 0 to -5`,
  memSyncDomainCount: '[OBS] ../shared/groundtruth/h200/device_props.txt cudaDevAttrMemSyncDomainCount 4',
};

/** the runtime costs of an arch: the H200's are measured; the others take them until measured */
export function runtimeCostsFor(archId: string): RuntimeCosts {
  // the H100 and A100 and the H200's MIG instances take the H200's host and front-end costs until measured
  void archId;
  return H200_RUNTIME;
}
