/**
 * A hand-made Report for renderer and validation tests, until `src/profile.ts` produces real ones.
 * Values are taken from the H200 ground truth (g_ld_u8_coalesced, sh_transpose_32x32_bd32x8) so the
 * numbers look like what ncu prints: integers or 2 decimals.
 */
import type { KernelResult, Report } from '../../types/report.schema.js';

export function kernel(overrides: Partial<KernelResult> & Pick<KernelResult, 'id' | 'name'>): KernelResult {
  return {
    file: 'kernels/micro.ts',
    launch: {
      grid: [16384, 1, 1],
      block: [256, 1, 1],
      dynamicSharedBytes: 0,
      staticSharedBytes: 0,
      registersPerThread: 16,
      params: {},
    },
    metrics: {},
    instructions: [],
    rules: [],
    notes: [],
    ...overrides,
  };
}

export const G_LD_U8_COALESCED_METRICS: KernelResult['metrics'] = {
  'dram__bytes_read.sum': 4197120,
  'dram__sectors_read.avg': 2732.5,
  'gpu__time_duration.sum': 12032,
  'l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum': 131072,
  'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum': 131072,
  'l1tex__t_sector_hit_rate.pct': 35.3,
  'launch__func_cache_config': 'CachePreferNone',
  'launch__occupancy_limit_warps': 8,
  'launch__waves_per_multiprocessor': 15.52,
  'lts__t_sector_hit_rate.pct': 58.72,
  'sm__throughput.avg.pct_of_peak_sustained_elapsed': 25.32,
  'smsp__inst_executed.sum': 2097152,
  'smsp__sass_inst_executed_op_global_ld.sum': 131072,
  'smsp__thread_inst_executed_per_inst_executed.ratio': 32,
};

export function fakeReport(): Report {
  return {
    version: 1,
    tool: { name: 'warpsight', version: '0.1.0' },
    device: { arch: 'h200', name: 'NVIDIA H200', cc: '9.0', smCount: 132 },
    options: { cacheControl: 'all' },
    kernels: [
      kernel({
        id: 0,
        name: 'g_ld_u8_coalesced',
        metrics: { ...G_LD_U8_COALESCED_METRICS },
        rules: [
          {
            id: 'SOLBottleneck',
            section: 'SpeedOfLight',
            type: 'OPT',
            message: 'Memory is more heavily utilized than Compute: "look" at memory, then compute',
            speedup: { type: 'global', value: 21.72 },
          },
          { id: 'CustomNote', section: 'NotASection', type: 'INF', message: 'a rule of an unlisted section' },
        ],
        instructions: [
          {
            index: 1,
            opcode: 'STG.E.U8',
            line: 12,
            metrics: { inst_executed: 131072, thread_inst_executed: 4194304, memory_l2_theoretical_sectors_global: 131072, memory_l2_theoretical_sectors_global_ideal: 131072 },
          },
          {
            index: 0,
            opcode: 'LDG.E.U8',
            line: 11,
            metrics: { inst_executed: 131072, thread_inst_executed: 2097152, memory_l2_theoretical_sectors_global: 262144, memory_l2_theoretical_sectors_global_ideal: 131072 },
          },
        ],
      }),
      kernel({
        id: 1,
        name: 'sh_transpose_32x32_bd32x8',
        launch: { grid: [128, 128, 1], block: [32, 8, 1], dynamicSharedBytes: 0, staticSharedBytes: 4096, registersPerThread: 16, stream: 3, params: { n: '4096' } },
        metrics: {
          'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum': 16924838,
          'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum': 16400550,
          'smsp__sass_inst_executed_op_shared_ld.sum': 524288,
          'launch__occupancy_limit_warps': 8,
          'sm__warps_active.avg.per_cycle_active': 41.22,
          'gpu__time_duration.sum': 85184,
        },
      }),
    ],
  };
}
