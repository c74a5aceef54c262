import { describe, expect, it } from 'vitest';
import type { InstructionCounters, MetricValue } from '../../types/report.schema.js';
import { achievedOccupancy } from '../../src/metrics/rules/achievedOccupancy.js';
import { cpiStall } from '../../src/metrics/rules/cpiStall.js';
import { RULES, applyRules, resultsOf } from '../../src/metrics/rules/index.js';
import { issueSlotUtilization } from '../../src/metrics/rules/issueSlotUtilization.js';
import { launchConfiguration } from '../../src/metrics/rules/launchConfiguration.js';
import { memoryCacheAccessPattern } from '../../src/metrics/rules/memoryCacheAccessPattern.js';
import { sharedMemoryConflicts } from '../../src/metrics/rules/sharedMemoryConflicts.js';
import { solBottleneck } from '../../src/metrics/rules/solBottleneck.js';
import { limiterText, theoreticalOccupancy } from '../../src/metrics/rules/theoreticalOccupancy.js';
import { threadDivergence } from '../../src/metrics/rules/threadDivergence.js';
import type { RuleContext } from '../../src/metrics/rules/types.js';
import { uncoalescedGlobalAccess } from '../../src/metrics/rules/uncoalescedGlobalAccess.js';
import { uncoalescedSharedAccess } from '../../src/metrics/rules/uncoalescedSharedAccess.js';
import { G_LD_U32_STRIDE32_INSTRUCTIONS, G_LD_U32_STRIDE32_METRICS, H200_DEVICE } from '../report/terminalFixtures.js';

function ctx(metrics: Record<string, MetricValue>, instructions: InstructionCounters[] = [], block = 256, grid = 16384): RuleContext {
  return {
    metrics,
    instructions,
    launch: { grid: [grid, 1, 1], block: [block, 1, 1], dynamicSharedBytes: 0, staticSharedBytes: 0, registersPerThread: 16, params: {} },
    device: H200_DEVICE,
  };
}

const list = resultsOf;

const ldg = (line: number, sectors: number, ideal: number): InstructionCounters => ({
  index: line,
  opcode: 'LDG.E',
  line,
  metrics: { inst_executed: 1, memory_l2_theoretical_sectors_global: sectors, memory_l2_theoretical_sectors_global_ideal: ideal },
});

const lds = (line: number, wavefronts: number, ideal: number): InstructionCounters => ({
  index: line,
  opcode: 'LDS',
  line,
  metrics: { inst_executed: 1, memory_l1_wavefronts_shared: wavefronts, memory_l1_wavefronts_shared_ideal: ideal },
});

describe('UncoalescedGlobalAccess', () => {
  const l2 = { 'lts__cycles_active.sum': 11573476, 'lts__cycles_elapsed.sum': 12180050 };

  it('reports the stride-32 kernel as ncu did (H200 ground truth)', () => {
    const r = uncoalescedGlobalAccess(ctx(l2, G_LD_U32_STRIDE32_INSTRUCTIONS));
    expect(r).not.toBeNull();
    expect(r?.message).toBe(
      'This kernel has uncoalesced global accesses resulting in a total of 3670016 excessive sectors (78% of the total ' +
        '4718592 sectors). Check the L2 Theoretical Sectors Global Excessive table for the primary source locations. ' +
        'The CUDA Programming Guide (https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#device-memory-accesses) ' +
        'has additional information on reducing uncoalesced device memory accesses.',
    );
    expect(r?.type).toBe('OPT');
    expect(r?.section).toBe('SourceCounters');
    expect(r?.speedup?.type).toBe('global');
    expect(r?.speedup?.value).toBeCloseTo(73.904, 3);
    expect(r?.lines).toEqual([12]);
  });

  it('is silent for coalesced accesses', () => {
    expect(uncoalescedGlobalAccess(ctx(l2, [ldg(3, 4, 4), ldg(4, 8, 8)]))).toBeNull();
  });

  it('points at every line with excess, once each, in order', () => {
    const r = uncoalescedGlobalAccess(ctx(l2, [ldg(9, 8, 4), ldg(3, 32, 4), ldg(9, 8, 4), ldg(5, 4, 4)]));
    expect(r?.lines).toEqual([3, 9]);
  });

  it('gives no verdict when an instruction lacks the ideal count (ncu skips the rule)', () => {
    const broken: InstructionCounters = { index: 0, opcode: 'LDG.E', line: 1, metrics: { memory_l2_theoretical_sectors_global: 32 } };
    expect(uncoalescedGlobalAccess(ctx(l2, [ldg(2, 32, 4), broken]))).toBeNull();
  });

  it('estimates a local 0 % without L2 cycle counts', () => {
    expect(uncoalescedGlobalAccess(ctx({}, [ldg(2, 32, 4)]))?.speedup).toEqual({ type: 'local', value: 0 });
  });
});

describe('UncoalescedSharedAccess', () => {
  const l1 = { 'l1tex__cycles_active.sum': 21707480, 'l1tex__cycles_elapsed.sum': 22306258 };
  // the 32x32 transpose: conflict-free tile store, 32-way conflicting transposed load
  const transpose = [lds(9, 524288, 524288), lds(12, 16777216, 524288)];

  it('reports the transpose as ncu did (H200 ground truth)', () => {
    const r = uncoalescedSharedAccess(ctx(l1, transpose));
    expect(r?.message).toBe(
      'This kernel has uncoalesced shared accesses resulting in a total of 16252928 excessive wavefronts (94% of the ' +
        'total 17301504 wavefronts). Check the L1 Wavefronts Shared Excessive table for the primary source locations. ' +
        'The CUDA Best Practices Guide (https://docs.nvidia.com/cuda/cuda-c-best-practices-guide/index.html#shared-memory-in-matrix-multiplication-c-ab) ' +
        'has an example on optimizing shared memory accesses.',
    );
    expect(r?.speedup?.value).toBeCloseTo(91.42, 2);
    expect(r?.lines).toEqual([12]);
  });

  it('is silent without conflicts', () => {
    expect(uncoalescedSharedAccess(ctx(l1, [lds(9, 1, 1)]))).toBeNull();
  });
});

describe('SharedMemoryConflicts (fires at ≥ 10 % of wavefronts)', () => {
  const shared = (requests: number, wavefronts: number, conflicts: number, extra: Record<string, number> = {}) => ({
    'smsp__sass_inst_executed_op_shared_ld.sum': requests,
    'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum': wavefronts,
    'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum': conflicts,
    ...extra,
  });

  it('reproduces ncu`s message, odd blanks included (H200 transpose)', () => {
    const r = list(sharedMemoryConflicts(ctx(shared(524288, 16910394, 16386106, { 'l1tex__throughput.avg.pct_of_peak_sustained_active': 86.8 }))));
    expect(r).toHaveLength(1);
    expect(r[0]?.message).toBe(
      'The memory access pattern for shared loads might not be optimal and causes on average a 32.3 - way bank conflict ' +
        'across all 524288 shared load requests.This results in 16386106 bank conflicts,  which represent 96.90% of the ' +
        'overall 16910394 wavefronts for shared loads. Check the Source Counters section for uncoalesced shared loads.',
    );
    expect(r[0]?.speedup?.type).toBe('global');
    expect(r[0]?.speedup?.value).toBeCloseTo(84.11, 2);
  });

  it('fires at exactly 10 % and not below', () => {
    expect(list(sharedMemoryConflicts(ctx(shared(100, 1000, 100))))).toHaveLength(1);
    expect(sharedMemoryConflicts(ctx(shared(100, 1000, 99)))).toBeNull();
  });

  it('estimates locally without the L1TEX throughput', () => {
    expect(list(sharedMemoryConflicts(ctx(shared(100, 1000, 500))))[0]?.speedup).toEqual({ type: 'local', value: 50 });
  });

  it('reports stores separately', () => {
    const r = list(
      sharedMemoryConflicts(
        ctx({
          'smsp__sass_inst_executed_op_shared_st.sum': 10,
          'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum': 320,
          'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum': 310,
        }),
      ),
    );
    expect(r.map((x) => x.title)).toEqual(['Shared Store Bank Conflicts']);
    expect(r[0]?.message).toContain('32.0 - way bank conflict across all 10 shared store requests');
  });
});

describe('MemoryCacheAccessPattern (bytes used per 32-byte sector)', () => {
  it('reports stride-32 global loads at the L2 level, as ncu did (H200 ground truth)', () => {
    const r = list(memoryCacheAccessPattern(ctx(G_LD_U32_STRIDE32_METRICS, G_LD_U32_STRIDE32_INSTRUCTIONS)));
    expect(r).toHaveLength(1);
    expect(r[0]?.message).toBe(
      'The memory access pattern for global loads from L2 might not be optimal. On average, only 4.0 of the 32 bytes ' +
        'transmitted per sector are utilized by each thread. This applies to the 100.0% of sectors missed in L1TEX. ' +
        'This could possibly be caused by a stride between threads. Check the Source Counters section for uncoalesced global loads.',
    );
    expect(r[0]?.speedup?.value).toBeCloseTo(79.88, 2);
    expect(r[0]?.lines).toEqual([12]);
  });

  it('stays at L1TEX without L2 hit rates, and is local without a throughput', () => {
    const r = list(
      memoryCacheAccessPattern(
        ctx({
          'smsp__sass_average_data_bytes_per_sector_mem_global_op_st.ratio': 8,
          'smsp__sass_average_data_bytes_per_sector_mem_global_op_st.max_rate': 32,
        }),
      ),
    );
    expect(r[0]?.message.startsWith('The memory access pattern for global stores to L1TEX might not be optimal. On average, only 8.0 of the 32 bytes')).toBe(true);
    expect(r[0]?.speedup).toEqual({ type: 'local', value: 75 });
  });

  it('is silent for full sectors and for no traffic', () => {
    const m = (bps: number) => ({
      'smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.ratio': bps,
      'smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.max_rate': 32,
    });
    expect(memoryCacheAccessPattern(ctx(m(32)))).toBeNull();
    expect(memoryCacheAccessPattern(ctx(m(0)))).toBeNull();
    expect(list(memoryCacheAccessPattern(ctx(m(31.9))))).toHaveLength(1);
  });
});

describe('LaunchConfiguration', () => {
  it('flags a block size that is not a multiple of 32 (200 threads → 10.71 %)', () => {
    const r = list(launchConfiguration(ctx({ 'launch__block_size': 200, 'launch__grid_size': 20972 }, [], 200, 20972)));
    expect(r.map((x) => x.title)).toEqual(['Block Size']);
    expect(r[0]?.speedup?.value).toBeCloseTo(10.714, 3);
    expect(r[0]?.message).toContain('This kernel launch is configured to execute 200 threads per block.');
    expect(r[0]?.message).toContain('if latency affects performance.  This is particularly');
  });

  it('is silent for a full-warp block on a big grid without a tail', () => {
    expect(launchConfiguration(ctx({ 'launch__block_size': 256, 'launch__grid_size': 16384, 'launch__waves_per_multiprocessor': 15.52 }))).toBeNull();
  });

  it('flags a grid smaller than the SM count with (S − g)/S', () => {
    const r = list(launchConfiguration(ctx({ 'launch__grid_size': 80 }, [], 256, 80)));
    expect(r[0]?.title).toBe('Small Grid');
    expect(r[0]?.message.startsWith("The grid for this launch is configured to execute only 80 blocks, which is less than the GPU's 132 multiprocessors.")).toBe(true);
    expect(r[0]?.speedup?.value).toBeCloseTo((52 / 132) * 100, 6);
    expect(list(launchConfiguration(ctx({ 'launch__grid_size': 1 }, [], 256, 1)))[0]?.message).toContain('only 1 block,');
  });

  it('gives the __syncthreads() advice below two blocks per SM, without a speedup', () => {
    const r = list(launchConfiguration(ctx({ 'launch__grid_size': 200 }, [], 256, 200)));
    expect(r[0]?.message).toContain('(compared to the currently executed 1.5 blocks) This way');
    expect(r[0]?.speedup).toBeUndefined();
    expect(launchConfiguration(ctx({ 'launch__grid_size': 264 }, [], 256, 264))).toBeNull();
  });

  it('reports a tail effect from 20 % (1/(1 + full waves))', () => {
    const fires = list(launchConfiguration(ctx({ 'launch__grid_size': 1980, 'launch__waves_per_multiprocessor': 1.5 }, [], 256, 1980)));
    expect(fires[0]?.title).toBe('Tail Effect');
    expect(fires[0]?.speedup?.value).toBe(50);
    expect(fires[0]?.message).toContain('results in 1 full waves and a partial wave of 660 thread blocks.');
    expect(fires[0]?.message).toContain('may account for up to 50.0% of the total runtime');
    expect(list(launchConfiguration(ctx({ 'launch__grid_size': 5940, 'launch__waves_per_multiprocessor': 4.5 }, [], 256, 5940)))).toHaveLength(1);
    expect(launchConfiguration(ctx({ 'launch__grid_size': 7260, 'launch__waves_per_multiprocessor': 5.5 }, [], 256, 7260))).toBeNull();
    expect(launchConfiguration(ctx({ 'launch__grid_size': 500, 'launch__waves_per_multiprocessor': 0.5 }, [], 256, 500))).toBeNull();
  });
});

describe('TheoreticalOccupancy (fires below 80 %)', () => {
  const occ = (theoretical: number, limits: [number, number, number, number]) => ({
    'smsp__maximum_warps_avg_per_active_cycle': theoretical,
    'smsp__warps_active.avg.peak_sustained': 16,
    'launch__occupancy_limit_blocks': limits[0],
    'launch__occupancy_limit_registers': limits[1],
    'launch__occupancy_limit_shared_mem': limits[2],
    'launch__occupancy_limit_warps': limits[3],
  });

  it('names the limiter', () => {
    const r = theoreticalOccupancy(ctx(occ(8, [32, 2, 4, 4])));
    expect(r?.message).toBe(
      "The 8.00 theoretical warps per scheduler this kernel can issue according to its occupancy are below the hardware maximum of 16. This kernel's theoretical occupancy (50.0%) is limited by the number of required registers.",
    );
    expect(r?.speedup).toEqual({ type: 'local', value: 50 });
  });

  it('is silent at 80 % and fires just below', () => {
    expect(theoreticalOccupancy(ctx(occ(12.8, [32, 2, 4, 4])))).toBeNull();
    expect(theoreticalOccupancy(ctx(occ(12.79, [32, 2, 4, 4])))).not.toBeNull();
  });

  it('joins tied limiters the way ncu`s Python does', () => {
    expect(limiterText(['A'])).toBe('A');
    expect(limiterText(['A', 'B'])).toBe('A, and B');
    expect(limiterText(['A', 'B', 'C'])).toBe('A, and C');
    expect(limiterText(['A', 'B', 'C', 'D'])).toBe('AB, and D');
    expect(theoreticalOccupancy(ctx(occ(4, [1, 1, 8, 8])))?.message).toContain(
      'limited by the number of blocks that can fit on the SM, and the number of required registers.',
    );
  });

  it('is bounded by IssueSlotUtilization when that fired (global)', () => {
    const r = theoreticalOccupancy(ctx({ ...occ(8, [32, 2, 4, 4]), 'smsp__issue_active.avg.per_cycle_active': 0.9 }));
    expect(r?.speedup?.type).toBe('local');
    const bounded = theoreticalOccupancy(ctx({ ...occ(8, [32, 2, 4, 4]), 'smsp__issue_active.avg.per_cycle_active': 0.8 - 0.5 }));
    expect(bounded?.speedup?.type).toBe('global');
    expect(bounded?.speedup?.value).toBeCloseTo(50, 6);
  });
});

describe('AchievedOccupancy (fires when achieved is > 10 points below theoretical)', () => {
  it('reproduces the stride-32 message and its 15.68 % global speedup', () => {
    const r = achievedOccupancy(ctx(G_LD_U32_STRIDE32_METRICS));
    expect(r?.message).toBe(
      'The difference between calculated theoretical (100.0%) and measured achieved occupancy (84.3%) can be the result of ' +
        'warp scheduling overheads or workload imbalances during the kernel execution. Load imbalances can occur between warps ' +
        'within a block as well as across blocks of the same kernel. See the CUDA Best Practices Guide ' +
        '(https://docs.nvidia.com/cuda/cuda-c-best-practices-guide/index.html#occupancy) for more details on optimizing occupancy.',
    );
    expect(r?.speedup?.type).toBe('global');
    expect(r?.speedup?.value).toBeCloseTo(15.68, 6);
  });

  it('is silent at exactly 10 points', () => {
    const m = (achieved: number) => ({ 'sm__maximum_warps_per_active_cycle_pct': 100, 'sm__warps_active.avg.pct_of_peak_sustained_active': achieved });
    expect(achievedOccupancy(ctx(m(90)))).toBeNull();
    expect(achievedOccupancy(ctx(m(89.9)))?.speedup).toEqual({ type: 'local', value: expect.closeTo(10.1, 6) });
  });
});

describe('IssueSlotUtilization (fires below 0.6 issues per cycle)', () => {
  it('reproduces the stride-32 message and its local 21.72 %', () => {
    const r = issueSlotUtilization(ctx(G_LD_U32_STRIDE32_METRICS));
    expect(r?.message).toBe(
      'Every scheduler is capable of issuing one instruction per cycle, but for this workload each scheduler only issues an ' +
        'instruction every 35.6 cycles. This might leave hardware resources underutilized and may lead to less optimal ' +
        'performance. Out of the maximum of 16 warps per scheduler, this workload allocates an average of 13.42 active warps ' +
        'per scheduler, but only an average of 0.04 warps were eligible per cycle. Eligible warps are the subset of active ' +
        'warps that are ready to issue their next instruction. Every cycle with no eligible warp results in no instruction ' +
        'being issued and the issue slot remains unused. To increase the number of eligible warps, avoid possible load ' +
        'imbalances due to highly different execution durations per warp. Reducing stalls indicated on the Warp State ' +
        'Statistics and Source Counters sections can help, too.',
    );
    expect(r?.speedup?.type).toBe('local');
    expect(r?.speedup?.value).toBeCloseTo(21.72, 6);
  });

  const sched = (issue: number, active: number) => ({
    'smsp__issue_active.avg.per_cycle_active': issue,
    'smsp__maximum_warps_avg_per_active_cycle': 16,
    'smsp__warps_active.avg.per_cycle_active': active,
    'smsp__warps_eligible.avg.per_cycle_active': 0.5,
    'smsp__warps_active.avg.peak_sustained': 16,
  });

  it('is silent at 0.6 and fires below', () => {
    expect(issueSlotUtilization(ctx(sched(0.6, 12)))).toBeNull();
    expect(issueSlotUtilization(ctx(sched(0.59, 12)))?.speedup?.value).toBeCloseTo(41, 6);
  });

  it('points at stalls when few of the theoretical warps are active, and at < 1 warp', () => {
    expect(issueSlotUtilization(ctx(sched(0.2, 8)))?.message).toContain('reduce the time the active warps are stalled');
    expect(issueSlotUtilization(ctx(sched(0.2, 0.5)))?.message).toContain(
      'an average of 0.50 active warps per scheduler, which already limits the scheduler to less than a warp per instruction.',
    );
  });
});

describe('CPIStall (a stall > 30 % of the cycles between issues)', () => {
  const stalls = (issue: number, cpi: number, s: Record<string, number>) => ({
    'smsp__issue_active.avg.per_cycle_active': issue,
    'smsp__average_warp_latency_per_inst_issued.ratio': cpi,
    ...Object.fromEntries(Object.entries(s).map(([k, v]) => [`smsp__average_warps_issue_stalled_${k}_per_issue_active.ratio`, v])),
  });

  it('reproduces the stride-32 long-scoreboard message, then the sampling hint', () => {
    const r = list(cpiStall(ctx(G_LD_U32_STRIDE32_METRICS)));
    expect(r.map((x) => x.type)).toEqual(['OPT', 'INF']);
    expect(r[0]?.message).toBe(
      'On average, each warp of this workload spends 443.3 cycles being stalled waiting for a scoreboard dependency on a L1TEX ' +
        '(local, global, surface, texture) operation. Find the instruction producing the data being waited upon to identify ' +
        'the culprit. To reduce the number of cycles waiting on L1TEX data accesses verify the memory access patterns are ' +
        'optimal for the target architecture, attempt to increase cache hit rates by increasing data locality (coalescing), ' +
        'or by changing the cache configuration. Consider moving frequently used data to shared memory. This stall type ' +
        'represents about 92.7% of the total average of 478.0 cycles between issuing two instructions.',
    );
    expect(r[0]?.title).toBe('Long Scoreboard Stalls');
    expect(r[0]?.speedup?.value).toBeCloseTo(21.72, 6);
    expect(r[1]?.speedup).toBeUndefined();
  });

  it('needs more than 30 %, and schedulers below 0.8 issues per cycle', () => {
    expect(cpiStall(ctx(stalls(0.5, 100, { wait: 30 })))).toBeNull();
    expect(list(cpiStall(ctx(stalls(0.5, 100, { wait: 30.1 }))))).toHaveLength(2);
    expect(cpiStall(ctx(stalls(0.8, 100, { wait: 90 })))).toBeNull();
  });

  it('orders several stalls largest first; gmma reads as warpgroup_arrive', () => {
    const r = list(cpiStall(ctx(stalls(0.7, 100, { barrier: 31, mio_throttle: 40, gmma: 35 }))));
    expect(r.map((x) => x.title)).toEqual(['Mio Throttle Stalls', 'Warpgroup Arrive Stalls', 'Barrier Stalls', undefined]);
    expect(r[0]?.speedup).toEqual({ type: 'local', value: 40 });
  });
});

describe('ThreadDivergence (fires below 24 threads per instruction)', () => {
  const m = (active: number, predOn: number) => ({
    'smsp__thread_inst_executed_per_inst_executed.ratio': active,
    'smsp__thread_inst_executed_pred_on_per_inst_executed.ratio': predOn,
  });

  it('is silent at 24', () => {
    expect(threadDivergence(ctx(m(24, 24)))).toBeNull();
  });

  it('reports active and predicated-on threads, local without SOL', () => {
    const r = threadDivergence(ctx(m(16, 12)));
    expect(r?.message).toContain('This workload achieves an average of 16.0 threads being active per cycle. This is further reduced to 12.0 threads per warp due to predication.');
    expect(r?.speedup).toEqual({ type: 'local', value: 62.5 });
  });

  it('weights by compute throughput (global) and points at divergent lines', () => {
    const inst: InstructionCounters[] = [
      { index: 0, opcode: 'BRA', line: 7, metrics: { inst_executed: 10, thread_inst_executed: 320, smsp__branch_targets_threads_divergent: 4 } },
      { index: 1, opcode: 'FADD', line: 8, metrics: { inst_executed: 10, thread_inst_executed: 160 } },
      { index: 2, opcode: 'FADD', line: 9, metrics: { inst_executed: 10, thread_inst_executed: 320 } },
    ];
    const r = threadDivergence(
      ctx({ ...m(16, 16), 'sm__throughput.avg.pct_of_peak_sustained_elapsed': 40, 'gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed': 10 }, inst),
    );
    expect(r?.speedup).toEqual({ type: 'global', value: 20 });
    expect(r?.lines).toEqual([7, 8]);
  });
});

describe('SOLBottleneck', () => {
  const sol = (sm: number, mem: number, extra: Record<string, number> = {}) => ({
    'sm__throughput.avg.pct_of_peak_sustained_elapsed': sm,
    'gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed': mem,
    ...extra,
  });

  it('names the DRAM bottleneck of the stride-32 kernel as ncu did', () => {
    const r = solBottleneck(ctx(G_LD_U32_STRIDE32_METRICS));
    expect(r?.type).toBe('OPT');
    expect(r?.message.startsWith('Memory is more heavily utilized than Compute: Look at the Memory Workload Analysis section to identify the DRAM bottleneck.')).toBe(true);
  });

  it('reports high throughput as INF from 80 %', () => {
    // the unpadded transpose on the H200: the top of the memory breakdown is the L1's data pipe
    const r = solBottleneck(ctx(sol(10.58, 84.47, { 'l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_elapsed': 84.47, 'lts__t_tag_requests.avg.pct_of_peak_sustained_elapsed': 14.80, 'gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed': 27.98 })));
    expect(r?.type).toBe('INF');
    expect(r?.message).toBe(
      'This workload is utilizing greater than 80.0% of the available compute or memory performance of the device. To further ' +
        'improve performance, work will likely need to be shifted from the most utilized to another unit. Start by analyzing L1 ' +
        'in the Memory Workload Analysis section.',
    );
  });

  it('tells latency from a small grid below 60 %', () => {
    expect(solBottleneck(ctx(sol(20, 30)))?.title).toBe('Latency Issue');
    const small = solBottleneck(ctx(sol(20, 30, { 'launch__waves_per_multiprocessor': 0.25 })));
    expect(small?.title).toBe('Small Grid');
    expect(small?.message).toContain('resulting in only 0.2 full waves across all SMs.');
  });

  it('calls compute-heavy, and balanced, workloads', () => {
    expect(solBottleneck(ctx(sol(70, 50)))?.title).toBe('High Compute Throughput');
    const balanced = solBottleneck(ctx(sol(65, 70)));
    expect(balanced?.title).toBe('Balanced Throughput');
    expect(balanced?.type).toBe('INF');
  });

  it('needs both throughputs', () => {
    expect(solBottleneck(ctx({ 'sm__throughput.avg.pct_of_peak_sustained_elapsed': 50 }))).toBeNull();
  });
});

describe('applyRules', () => {
  it('runs every rule in ncu`s order and derives metrics first', () => {
    const results = applyRules(ctx(G_LD_U32_STRIDE32_METRICS, G_LD_U32_STRIDE32_INSTRUCTIONS));
    expect(results.map((r) => r.id)).toEqual([
      'SOLBottleneck',
      'MemoryCacheAccessPattern',
      'IssueSlotUtilization',
      'CPIStall',
      'CPIStall',
      'AchievedOccupancy',
      'UncoalescedGlobalAccess',
    ]);
  });

  it('derives what the rules need from raw counters', () => {
    const results = applyRules(
      ctx({ 'smsp__thread_inst_executed.sum': 1600, 'smsp__thread_inst_executed_pred_on.sum': 1600, 'smsp__inst_executed.sum': 100 }),
    );
    expect(results.map((r) => r.id)).toEqual(['ThreadDivergence']);
  });

  it('applies only the named rules', () => {
    expect(applyRules(ctx(G_LD_U32_STRIDE32_METRICS, G_LD_U32_STRIDE32_INSTRUCTIONS), ['UncoalescedGlobalAccess']).map((r) => r.id)).toEqual([
      'UncoalescedGlobalAccess',
    ]);
  });

  it('registers each rule once, under a known section', () => {
    expect(new Set(RULES.map((r) => r.id)).size).toBe(RULES.length);
    for (const r of RULES) expect(r.section).toMatch(/^[A-Z][A-Za-z_]+$/);
  });

  it('is deterministic', () => {
    const a = applyRules(ctx(G_LD_U32_STRIDE32_METRICS, G_LD_U32_STRIDE32_INSTRUCTIONS));
    const b = applyRules(ctx(G_LD_U32_STRIDE32_METRICS, G_LD_U32_STRIDE32_INSTRUCTIONS));
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });
});
