/**
 * Hand-built reports from the H200 ground truth (../shared/groundtruth/h200): the metric values of
 * `g_ld_u32_stride32` as real ncu 2025.3 collected them (full_raw_g_ld_u32_stride32.csv), and its
 * per-instruction source metrics as ncu's Source page counts them (one LDG reading every 32nd
 * word: 4,194,304 sectors where 524,288 would do; one coalesced STG: 524,288 / 524,288).
 */
import type { InstructionCounters, KernelResult, Report } from '../../types/report.schema.js';

export const H200_DEVICE = { arch: 'h200', name: 'NVIDIA H200', cc: '9.0', smCount: 132 } as const;

/** full_raw_g_ld_u32_stride32.csv, base units (bytes, ns, hz, cycles) */
export const G_LD_U32_STRIDE32_METRICS: Record<string, number | string> = {
  // Launch Statistics
  'launch__block_size': 256,
  'launch__cluster_scheduling_policy': 'PolicySpread',
  'launch__cluster_size': 0,
  'launch__func_cache_config': 'CachePreferNone',
  'launch__grid_size': 16384,
  'launch__registers_per_thread': 16,
  'launch__shared_mem_config_size': 32768,
  'launch__shared_mem_per_block_driver': 1024,
  'launch__shared_mem_per_block_dynamic': 0,
  'launch__shared_mem_per_block_static': 0,
  'launch__sm_count': 132,
  'launch__stack_size': 1024,
  'launch__thread_count': 4194304,
  'launch__tpc_count': 66,
  'launch__tpc_enabled': 'all',
  'launch__uses_green_context': 0,
  'launch__waves_per_multiprocessor': 15.515151515151516,
  // Memory Workload Analysis
  'derived__local_spilling_requests': 0,
  'derived__local_spilling_requests_pct': 0,
  'dram__bytes.sum.per_second': 3766366244725.74,
  'gpu__compute_memory_access_throughput.avg.pct_of_peak_sustained_elapsed': 70.47,
  'gpu__compute_memory_request_throughput.avg.pct_of_peak_sustained_elapsed': 78.28,
  'l1tex__t_sector_hit_rate.pct': 0,
  'launch__persisting_l2_cache_size': 11796480,
  'lrc__average_ilc_input_sector_success_rate.pct': 0,
  'lrc__average_ilc_output_sector_compression_achieved_rate.pct': 0,
  'lrc__ilc_input_sectors.sum': 525136,
  'lts__t_sector_hit_rate.pct': 9.52,
  'sm__memory_throughput.avg.pct_of_peak_sustained_elapsed': 4.06,
  // Speed of Light
  'sm__throughput.avg.pct_of_peak_sustained_elapsed': 4.06,
  'gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed': 78.28,
  'gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed': 78.28,
  'l1tex__throughput.avg.pct_of_peak_sustained_active': 24.14,
  'l1tex__throughput.avg.pct_of_peak_sustained_elapsed': 23.17,
  'lts__throughput.avg.pct_of_peak_sustained_elapsed': 91.29,
  'gpu__time_duration.sum': 75840,
  'gpc__cycles_elapsed.max': 150075,
  'sm__cycles_active.avg': 141937.25,
  'gpc__cycles_elapsed.avg.per_second': 1977709651.9,
  'dram__cycles_elapsed.avg.per_second': 3198874824.19,
  // Memory tables / MemoryCacheAccessPattern
  'smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.ratio': 4,
  'smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.max_rate': 32,
  'smsp__sass_average_data_bytes_per_sector_mem_global_op_st.ratio': 32,
  'smsp__sass_average_data_bytes_per_sector_mem_global_op_st.max_rate': 32,
  'smsp__sass_average_data_bytes_per_sector_mem_local_op_ld.ratio': 0,
  'smsp__sass_average_data_bytes_per_sector_mem_local_op_ld.max_rate': 32,
  'smsp__sass_average_data_bytes_per_sector_mem_local_op_st.ratio': 0,
  'smsp__sass_average_data_bytes_per_sector_mem_local_op_st.max_rate': 32,
  'l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct': 0,
  'l1tex__t_sector_pipe_lsu_mem_global_op_st_hit_rate.pct': 0,
  'l1tex__t_sector_pipe_lsu_mem_local_op_ld_hit_rate.pct': 0,
  'l1tex__t_sector_pipe_lsu_mem_local_op_st_hit_rate.pct': 0,
  'lts__t_sector_op_read_hit_rate.pct': 0.01,
  'lts__t_sector_op_write_hit_rate.pct': 100.29,
  'l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum': 131072,
  'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum': 4194304,
  'l1tex__t_requests_pipe_lsu_mem_global_op_st.sum': 131072,
  'l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum': 524288,
  // Scheduler and warp state (issue rate unrounded: 2.81 % → 0.0281, the CSV shows 0.03)
  'smsp__issue_active.avg.pct_of_peak_sustained_active': 2.81,
  'smsp__issue_active.avg.per_cycle_active': 0.0281,
  'smsp__issue_inst0.avg.pct_of_peak_sustained_active': 97.19,
  'smsp__warps_active.avg.per_cycle_active': 13.42,
  'smsp__warps_eligible.avg.per_cycle_active': 0.04,
  'smsp__maximum_warps_avg_per_active_cycle': 16,
  'smsp__warps_active.avg.peak_sustained': 16,
  'smsp__average_warp_latency_per_inst_issued.ratio': 478.02,
  'smsp__average_warps_active_per_inst_executed.ratio': 479.14,
  'smsp__thread_inst_executed_per_inst_executed.ratio': 32,
  'smsp__thread_inst_executed_pred_on_per_inst_executed.ratio': 32,
  'smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio': 443.29,
  'smsp__average_warps_issue_stalled_drain_per_issue_active.ratio': 36.57,
  'smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio': 3.83,
  // Occupancy
  'launch__occupancy_limit_barriers': 32,
  'launch__occupancy_limit_blocks': 32,
  'launch__occupancy_limit_registers': 16,
  'launch__occupancy_limit_shared_mem': 32,
  'launch__occupancy_limit_warps': 8,
  'sm__maximum_warps_avg_per_active_cycle': 64,
  'sm__maximum_warps_per_active_cycle_pct': 100,
  'sm__warps_active.avg.pct_of_peak_sustained_active': 84.32,
  'sm__warps_active.avg.per_cycle_active': 53.96,
  'launch__cluster_max_active': 0,
  'launch__cluster_max_potential_size': 8,
  'launch__occupancy_cluster_gpu_pct': 0,
  'launch__occupancy_cluster_pct': 0,
  // Source Counters / UncoalescedGlobalAccess weights
  'lts__cycles_active.sum': 11573476,
  'lts__cycles_elapsed.sum': 12180050,
};

/** The stride-32 kernel's two memory instructions, as ncu's Source page counts them. */
export const G_LD_U32_STRIDE32_INSTRUCTIONS: InstructionCounters[] = [
  {
    index: 4,
    opcode: 'LDG.E',
    line: 12,
    metrics: {
      inst_executed: 131072,
      thread_inst_executed: 4194304,
      thread_inst_executed_true: 4194304,
      memory_l1_tag_requests_global: 4194304,
      memory_l2_theoretical_sectors_global: 4194304,
      memory_l2_theoretical_sectors_global_ideal: 524288,
    },
  },
  {
    index: 6,
    opcode: 'STG.E',
    line: 13,
    metrics: {
      inst_executed: 131072,
      thread_inst_executed: 4194304,
      thread_inst_executed_true: 4194304,
      memory_l1_tag_requests_global: 131072,
      memory_l2_theoretical_sectors_global: 524288,
      memory_l2_theoretical_sectors_global_ideal: 524288,
    },
  },
];

export const G_LD_U32_STRIDE32_SOURCE: string[] = [
  "import { defineKernel, ptr, u32 } from '../src/ir/index.js';",
  '',
  'export default defineKernel({',
  "  name: 'g_ld_u32_stride32',",
  "  params: { in: ptr('global', u32), out: ptr('global', u32) },",
  '  launch: () => ({ grid: [16384], block: [256] }),',
  '  body: (k, { in: src, out }) => {',
  '    const i = k.blockIdx.x.mul(256).add(k.threadIdx.x);',
  '    // every thread reads the first word of its own 128-byte line:',
  '    // 32 sectors per warp request where 4 would do',
  '    const idx = i.mul(32);',
  '    const v = src.at(idx).load();',
  '    out.at(i).store(v);',
  '  },',
  '});',
];

export function stride32Kernel(overrides: Partial<KernelResult> = {}): KernelResult {
  return {
    id: 0,
    name: 'g_ld_u32_stride32',
    file: 'kernels/g_ld_u32_stride32.ts',
    launch: {
      grid: [16384, 1, 1],
      block: [256, 1, 1],
      dynamicSharedBytes: 0,
      staticSharedBytes: 0,
      registersPerThread: 16,
      params: { in: 'const unsigned int *', out: 'unsigned int *' },
    },
    metrics: { ...G_LD_U32_STRIDE32_METRICS },
    instructions: G_LD_U32_STRIDE32_INSTRUCTIONS,
    sourceLines: G_LD_U32_STRIDE32_SOURCE,
    rules: [],
    notes: [],
    ...overrides,
  };
}

export function reportOf(...kernels: KernelResult[]): Report {
  return {
    version: 1,
    tool: { name: 'warpsight', version: '0.1.0' },
    device: { ...H200_DEVICE },
    options: { cacheControl: 'all' },
    kernels,
  };
}
