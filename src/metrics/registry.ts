/**
 * The metric registry, as data: every ncu metric id Warpsight emits or reads, with ncu's display
 * label, ncu's base unit and a one-line description.
 *
 * Sources. Units are copied from the units row (row 2) of the H200 ground-truth CSVs
 * (`groundtruth/h200/metric_units.json`, `ncu_raw_*.csv`, `full_raw_*.csv`, ncu 2025.3.1), so they
 * match ncu byte for byte, quirks included: ncu prints no unit for l1tex requests, wavefronts and
 * bank conflicts, 'sectors' (plural) for source metrics, 'hz' and 'byte/s' for rates.
 * `test/report/registry.test.ts` checks every unit here against those CSVs.
 * Units of metrics not listed here come from the same ground truth (data/ncuUnits.ts), else from
 * ncu's naming conventions (inferUnit).
 * Labels of section header metrics are ncu's (groundtruth `details_*.txt`, nsight-compute.md
 * §1.2-1.9); a metric that no ncu section shows gets a label in the same style, named after the
 * Memory Tables rows/columns it feeds (marked `ours` below).
 */
import { NCU_UNITS } from './data/ncuUnits.js';

/** ncu base units, as printed in the CSV units row (the listed ones, and any the ground truth prints). */
export type NcuUnit =
  | (string & {})
  | ''
  | '%'
  | 'block'
  | 'branches'
  | 'byte'
  | 'byte/block'
  | 'byte/s'
  | 'cluster'
  | 'cycle'
  | 'hz'
  | 'inst'
  | 'inst/cycle'
  | 'ns'
  | 'pass'
  | 'register/thread'
  | 'request'
  | 'sector'
  | 'sectors'
  | 'SM'
  | 'thread'
  | 'warp';

/** Section identifiers of ncu's stock section files, for the header metrics. */
export type SectionId =
  | 'SpeedOfLight'
  | 'ComputeWorkloadAnalysis'
  | 'MemoryWorkloadAnalysis'
  | 'SchedulerStats'
  | 'WarpStateStats'
  | 'InstructionStats'
  | 'LaunchStats'
  | 'Occupancy'
  | 'SourceCounters';

export interface MetricInfo {
  id: string;
  /** ncu's display label ('L1/TEX Hit Rate') */
  label: string;
  unit: NcuUnit;
  description: string;
  /** the section whose header shows this metric (ncu prints header metrics sorted by id) */
  section?: SectionId;
}

/** ncu's section display names, in ncu's display order (section `Order:` fields, nsight-compute.md §1.1). */
export const HEADER_SECTIONS: readonly { id: SectionId; name: string }[] = [
  { id: 'SpeedOfLight', name: 'GPU Speed Of Light Throughput' },
  { id: 'ComputeWorkloadAnalysis', name: 'Compute Workload Analysis' },
  { id: 'MemoryWorkloadAnalysis', name: 'Memory Workload Analysis' },
  { id: 'SchedulerStats', name: 'Scheduler Statistics' },
  { id: 'WarpStateStats', name: 'Warp State Statistics' },
  { id: 'InstructionStats', name: 'Instruction Statistics' },
  { id: 'LaunchStats', name: 'Launch Statistics' },
  { id: 'Occupancy', name: 'Occupancy' },
  { id: 'SourceCounters', name: 'Source Counters' },
];

const SOL = 'SpeedOfLight';
const CWA = 'ComputeWorkloadAnalysis';
const MWA = 'MemoryWorkloadAnalysis';
const SCHED = 'SchedulerStats';
const WSS = 'WarpStateStats';
const IS = 'InstructionStats';
const LS = 'LaunchStats';
const OCC = 'Occupancy';
const SC = 'SourceCounters';

export const METRICS: readonly MetricInfo[] = [
  // ── GPU Speed Of Light Throughput (§1.2) ──────────────────────────────────────────────────────
  { id: 'dram__cycles_elapsed.avg.per_second', label: 'DRAM Frequency', unit: 'hz', section: SOL, description: 'DRAM clock while the kernel ran' },
  { id: 'gpc__cycles_elapsed.avg.per_second', label: 'SM Frequency', unit: 'hz', section: SOL, description: 'GPC (SM) clock while the kernel ran' },
  { id: 'gpc__cycles_elapsed.max', label: 'Elapsed Cycles', unit: 'cycle', section: SOL, description: 'cycles from launch start to end, in the slowest GPC' },
  { id: 'gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed', label: 'Memory Throughput', unit: '%', section: SOL, description: 'busiest memory unit (L1, L2, DRAM) as % of its sustained peak' },
  { id: 'gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed', label: 'DRAM Throughput', unit: '%', section: SOL, description: 'DRAM throughput as % of peak' },
  { id: 'gpu__time_duration.sum', label: 'Duration', unit: 'ns', section: SOL, description: 'kernel duration on the GPU' },
  { id: 'l1tex__throughput.avg.pct_of_peak_sustained_active', label: 'L1/TEX Cache Throughput', unit: '%', section: SOL, description: 'busiest L1/TEX sub-unit as % of peak while active' },
  { id: 'lts__throughput.avg.pct_of_peak_sustained_elapsed', label: 'L2 Cache Throughput', unit: '%', section: SOL, description: 'busiest L2 sub-unit as % of peak' },
  { id: 'sm__cycles_active.avg', label: 'SM Active Cycles', unit: 'cycle', section: SOL, description: 'cycles an SM had at least one warp resident, averaged over SMs' },
  { id: 'sm__throughput.avg.pct_of_peak_sustained_elapsed', label: 'Compute (SM) Throughput', unit: '%', section: SOL, description: 'busiest SM sub-unit as % of peak' },

  // ── Compute Workload Analysis (§1.3) ──────────────────────────────────────────────────────────
  { id: 'sm__inst_executed.avg.per_cycle_active', label: 'Executed Ipc Active', unit: 'inst/cycle', section: CWA, description: 'warp instructions executed per active SM cycle' },
  { id: 'sm__inst_executed.avg.per_cycle_elapsed', label: 'Executed Ipc Elapsed', unit: 'inst/cycle', section: CWA, description: 'warp instructions executed per elapsed SM cycle' },
  { id: 'sm__inst_issued.avg.pct_of_peak_sustained_elapsed', label: 'Issue Slots Busy', unit: '%', section: CWA, description: 'issue slots used, % of peak' },
  { id: 'sm__inst_issued.avg.per_cycle_active', label: 'Issued Ipc Active', unit: 'inst/cycle', section: CWA, description: 'warp instructions issued per active SM cycle' },
  { id: 'sm__instruction_throughput.avg.pct_of_peak_sustained_elapsed', label: 'SM Busy', unit: '%', section: CWA, description: 'busiest instruction pipeline, % of peak' },

  // ── Memory Workload Analysis (§1.4) ───────────────────────────────────────────────────────────
  { id: 'derived__local_spilling_requests', label: 'Local Memory Spilling Requests', unit: '', section: MWA, description: 'local-memory requests caused by register spills' },
  { id: 'derived__local_spilling_requests_pct', label: 'Local Memory Spilling Request Overhead', unit: '%', section: MWA, description: 'spill requests as % of all L1 requests' },
  { id: 'dram__bytes.sum.per_second', label: 'Memory Throughput', unit: 'byte/s', section: MWA, description: 'DRAM bytes read and written per second' },
  { id: 'gpu__compute_memory_access_throughput.avg.pct_of_peak_sustained_elapsed', label: 'Mem Busy', unit: '%', section: MWA, description: 'busiest memory unit by internal activity, % of peak' },
  { id: 'gpu__compute_memory_request_throughput.avg.pct_of_peak_sustained_elapsed', label: 'Max Bandwidth', unit: '%', section: MWA, description: 'busiest memory interface by requests, % of peak' },
  { id: 'l1tex__t_sector_hit_rate.pct', label: 'L1/TEX Hit Rate', unit: '%', section: MWA, description: 'L1/TEX sector hits over all sector lookups (all spaces and operations)' },
  { id: 'launch__persisting_l2_cache_size', label: 'L2 Persisting Size', unit: 'byte', section: MWA, description: 'L2 set aside for persisting accesses at launch' },
  { id: 'lrc__average_ilc_input_sector_success_rate.pct', label: 'L2 Compression Success Rate', unit: '%', section: MWA, description: 'sectors sent to L2 compression that were compressed' },
  { id: 'lrc__average_ilc_input_sector_compression_rate.ratio', label: 'L2 Compression Ratio', unit: '', section: MWA, description: 'compression ratio achieved by L2 compression' },
  { id: 'lrc__ilc_input_sectors.sum', label: 'L2 Compression Input Sectors', unit: 'sector', section: MWA, description: 'sectors sent to the L2 compression unit' },
  { id: 'lts__t_sector_hit_rate.pct', label: 'L2 Hit Rate', unit: '%', section: MWA, description: 'L2 sector hits over lookups, reads and writes together (full-sector stores hit)' },
  { id: 'sm__memory_throughput.avg.pct_of_peak_sustained_elapsed', label: 'Mem Pipes Busy', unit: '%', section: MWA, description: 'busiest SM memory pipeline, % of peak' },

  // ── Scheduler Statistics (§1.7) ───────────────────────────────────────────────────────────────
  { id: 'smsp__issue_active.avg.pct_of_peak_sustained_active', label: 'One or More Eligible', unit: '%', section: SCHED, description: 'cycles a scheduler issued an instruction' },
  { id: 'smsp__issue_active.avg.per_cycle_active', label: 'Issued Warp Per Scheduler', unit: '', section: SCHED, description: 'instructions issued per scheduler per active cycle' },
  { id: 'smsp__issue_inst0.avg.pct_of_peak_sustained_active', label: 'No Eligible', unit: '%', section: SCHED, description: 'cycles a scheduler had no eligible warp' },
  { id: 'smsp__warps_active.avg.per_cycle_active', label: 'Active Warps Per Scheduler', unit: 'warp', section: SCHED, description: 'warps resident per scheduler per active cycle' },
  { id: 'smsp__warps_eligible.avg.per_cycle_active', label: 'Eligible Warps Per Scheduler', unit: 'warp', section: SCHED, description: 'warps ready to issue per scheduler per active cycle' },

  // ── Warp State Statistics (§1.7) ──────────────────────────────────────────────────────────────
  { id: 'smsp__average_warp_latency_per_inst_issued.ratio', label: 'Warp Cycles Per Issued Instruction', unit: 'cycle', section: WSS, description: 'cycles between two issued instructions of a warp' },
  { id: 'smsp__average_warps_active_per_inst_executed.ratio', label: 'Warp Cycles Per Executed Instruction', unit: 'cycle', section: WSS, description: 'cycles between two executed instructions of a warp' },
  { id: 'smsp__thread_inst_executed_per_inst_executed.ratio', label: 'Avg. Active Threads Per Warp', unit: '', section: WSS, description: 'active threads per executed warp instruction (32 without divergence)' },
  { id: 'smsp__thread_inst_executed_pred_on_per_inst_executed.ratio', label: 'Avg. Not Predicated Off Threads Per Warp', unit: '', section: WSS, description: 'predicated-on threads per executed warp instruction' },

  // ── Instruction Statistics (§1.8) ─────────────────────────────────────────────────────────────
  { id: 'smsp__inst_executed.avg', label: 'Avg. Executed Instructions Per Scheduler', unit: 'inst', section: IS, description: 'warp instructions executed per scheduler' },
  { id: 'smsp__inst_executed.sum', label: 'Executed Instructions', unit: 'inst', section: IS, description: 'warp instructions executed' },
  { id: 'smsp__inst_issued.avg', label: 'Avg. Issued Instructions Per Scheduler', unit: 'inst', section: IS, description: 'warp instructions issued per scheduler' },
  { id: 'smsp__inst_issued.sum', label: 'Issued Instructions', unit: 'inst', section: IS, description: 'warp instructions issued (executed plus replays)' },

  // ── Launch Statistics (§1.5) ──────────────────────────────────────────────────────────────────
  { id: 'launch__block_size', label: 'Block Size', unit: '', section: LS, description: 'threads per block' },
  { id: 'launch__cluster_scheduling_policy', label: 'Cluster Scheduling Policy', unit: '', section: LS, description: 'thread-block-cluster scheduling policy' },
  { id: 'launch__cluster_size', label: 'Cluster Size', unit: '', section: LS, description: 'blocks per cluster (0: no clusters)' },
  { id: 'launch__func_cache_config', label: 'Function Cache Configuration', unit: '', section: LS, description: 'cache preference requested for the function' },
  { id: 'launch__grid_size', label: 'Grid Size', unit: '', section: LS, description: 'blocks in the grid' },
  { id: 'launch__registers_per_thread', label: 'Registers Per Thread', unit: 'register/thread', section: LS, description: 'registers per thread at launch (at least 16 on the H200)' },
  { id: 'launch__shared_mem_config_size', label: 'Shared Memory Configuration Size', unit: 'byte', section: LS, description: 'shared-memory carve-out chosen for the launch' },
  { id: 'launch__shared_mem_per_block_driver', label: 'Driver Shared Memory Per Block', unit: 'byte/block', section: LS, description: 'shared memory the driver reserves per block' },
  { id: 'launch__shared_mem_per_block_dynamic', label: 'Dynamic Shared Memory Per Block', unit: 'byte/block', section: LS, description: 'dynamic shared memory per block' },
  { id: 'launch__shared_mem_per_block_static', label: 'Static Shared Memory Per Block', unit: 'byte/block', section: LS, description: 'static shared memory per block' },
  { id: 'launch__sm_count', label: '# SMs', unit: 'SM', section: LS, description: 'SMs of the device' },
  { id: 'launch__stack_size', label: 'Stack Size', unit: '', section: LS, description: 'per-thread stack size' },
  { id: 'launch__thread_count', label: 'Threads', unit: 'thread', section: LS, description: 'threads in the grid' },
  { id: 'launch__tpc_count', label: '# TPCs', unit: '', section: LS, description: 'TPCs of the device' },
  { id: 'launch__tpc_enabled', label: 'Enabled TPC IDs', unit: '', section: LS, description: 'TPCs the launch may use' },
  { id: 'launch__uses_green_context', label: 'Uses Green Context', unit: '', section: LS, description: 'launched into a green context' },
  { id: 'launch__waves_per_multiprocessor', label: 'Waves Per SM', unit: '', section: LS, description: 'grid blocks over the blocks the GPU holds at once' },

  // ── Occupancy (§1.6) ──────────────────────────────────────────────────────────────────────────
  { id: 'launch__cluster_max_active', label: 'Max Active Clusters', unit: 'cluster', section: OCC, description: 'clusters that can be resident at once' },
  { id: 'launch__cluster_max_potential_size', label: 'Max Cluster Size', unit: 'block', section: OCC, description: 'largest cluster the launch could use' },
  { id: 'launch__occupancy_cluster_gpu_pct', label: 'Overall GPU Occupancy', unit: '%', section: OCC, description: 'GPU occupancy with clusters' },
  { id: 'launch__occupancy_cluster_pct', label: 'Cluster Occupancy', unit: '%', section: OCC, description: 'occupancy of the cluster configuration' },
  { id: 'launch__occupancy_limit_barriers', label: 'Block Limit Barriers', unit: 'block', section: OCC, description: 'blocks per SM allowed by named barriers' },
  { id: 'launch__occupancy_limit_blocks', label: 'Block Limit SM', unit: 'block', section: OCC, description: 'blocks per SM allowed by the hardware block limit' },
  { id: 'launch__occupancy_limit_registers', label: 'Block Limit Registers', unit: 'block', section: OCC, description: 'blocks per SM allowed by registers' },
  { id: 'launch__occupancy_limit_shared_mem', label: 'Block Limit Shared Mem', unit: 'block', section: OCC, description: 'blocks per SM allowed by shared memory' },
  { id: 'launch__occupancy_limit_warps', label: 'Block Limit Warps', unit: 'block', section: OCC, description: 'blocks per SM allowed by warp slots' },
  { id: 'sm__maximum_warps_avg_per_active_cycle', label: 'Theoretical Active Warps per SM', unit: 'warp', section: OCC, description: 'warps per SM the occupancy limits allow' },
  { id: 'sm__maximum_warps_per_active_cycle_pct', label: 'Theoretical Occupancy', unit: '%', section: OCC, description: 'theoretical active warps over the SM maximum' },
  { id: 'sm__warps_active.avg.pct_of_peak_sustained_active', label: 'Achieved Occupancy', unit: '%', section: OCC, description: 'resident warps over the SM maximum, averaged over active cycles' },
  { id: 'sm__warps_active.avg.per_cycle_active', label: 'Achieved Active Warps Per SM', unit: 'warp', section: OCC, description: 'resident warps per active SM cycle' },

  // ── Source Counters header (§1.9) ─────────────────────────────────────────────────────────────
  { id: 'derived__smsp__inst_executed_op_branch_pct', label: 'Branch Instructions Ratio', unit: '%', section: SC, description: 'branch instructions over all executed instructions' },
  { id: 'smsp__inst_executed_op_branch.sum', label: 'Branch Instructions', unit: 'inst', section: SC, description: 'branch warp instructions executed' },
  { id: 'smsp__sass_average_branch_targets_threads_uniform.pct', label: 'Branch Efficiency', unit: '%', section: SC, description: 'uniform branch targets over all branch targets (0 when the kernel has no branch)' },
  { id: 'smsp__sass_branch_targets_threads_divergent.avg', label: 'Avg. Divergent Branches', unit: 'branches', section: SC, description: 'divergent branch targets per scheduler' },

  // ── Source Counters: per-instruction source metrics (§1.9; ncu's column labels) ───────────────
  { id: 'inst_executed', label: 'Instructions Executed', unit: 'inst', description: 'warp-level executions of the instruction' },
  { id: 'thread_inst_executed', label: 'Thread Instructions Executed', unit: 'inst', description: 'thread-level executions (active lanes)' },
  { id: 'thread_inst_executed_true', label: 'Predicated-On Thread Instructions Executed', unit: 'inst', description: 'thread-level executions with the predicate true' },
  { id: 'derived__avg_thread_executed', label: 'Avg. Threads Executed', unit: 'thread', description: 'active lanes per execution' },
  { id: 'derived__avg_thread_executed_true', label: 'Avg. Predicated-On Threads Executed', unit: 'thread', description: 'predicated-on lanes per execution' },
  { id: 'smsp__branch_targets_threads_divergent', label: 'Divergent Branches', unit: 'branches', description: 'divergent targets taken by the branch' },
  { id: 'memory_type', label: 'Address Space', unit: '', description: 'memory space the instruction accesses' },
  { id: 'memory_access_type', label: 'Access Operation', unit: '', description: 'load, store, atomic, ...' },
  { id: 'memory_access_size_type', label: 'Access Size', unit: '', description: 'bits accessed per thread' },
  { id: 'memory_l1_tag_requests_global', label: 'L1 Tag Requests Global', unit: 'sectors', description: 'L1 tag requests of the global accesses' },
  { id: 'memory_l1_wavefronts_shared', label: 'L1 Wavefronts Shared', unit: 'sectors', description: 'shared-memory wavefronts of the instruction' },
  { id: 'memory_l1_wavefronts_shared_ideal', label: 'L1 Wavefronts Shared Ideal', unit: 'sectors', description: 'wavefronts without bank conflicts' },
  { id: 'derived__memory_l1_wavefronts_shared_excessive', label: 'L1 Wavefronts Shared Excessive', unit: '', description: 'wavefronts above the ideal (bank conflicts and wide accesses)' },
  { id: 'derived__memory_l1_conflicts_shared_nway', label: 'L1 Conflicts Shared N-Way', unit: '', description: 'wavefronts per execution' },
  { id: 'memory_l2_theoretical_sectors_global', label: 'L2 Theoretical Sectors Global', unit: 'sectors', description: '32-byte sectors the global accesses touch' },
  { id: 'memory_l2_theoretical_sectors_global_ideal', label: 'L2 Theoretical Sectors Global Ideal', unit: 'sectors', description: 'sectors if every active thread accessed consecutive bytes' },
  { id: 'derived__memory_l2_theoretical_sectors_global_excessive', label: 'L2 Theoretical Sectors Global Excessive', unit: 'sector', description: 'sectors above the ideal (uncoalesced accesses)' },
  { id: 'memory_l2_theoretical_sectors_local', label: 'L2 Theoretical Sectors Local', unit: 'sectors', description: 'sectors the local (spill) accesses touch' },

  // ── Kernel counters of the ground truth (summary.json) not shown in a section header ──────────
  // labels: ours, named after the Memory Tables rows/columns they feed
  // instructions by memory space and operation
  { id: 'smsp__sass_inst_executed_op_global_ld.sum', label: 'Global Load Instructions', unit: 'inst', description: 'LDG warp instructions executed (LDGSTS counts here too)' },
  { id: 'smsp__sass_inst_executed_op_global_st.sum', label: 'Global Store Instructions', unit: 'inst', description: 'STG warp instructions executed' },
  { id: 'smsp__sass_inst_executed_op_global_atom.sum', label: 'Global Atomic Instructions', unit: 'inst', description: 'ATOMG warp instructions executed' },
  { id: 'smsp__sass_inst_executed_op_global_red.sum', label: 'Global Reduction Instructions', unit: 'inst', description: 'RED warp instructions executed' },
  { id: 'smsp__sass_inst_executed_op_shared_ld.sum', label: 'Shared Load Instructions', unit: 'inst', description: 'LDS warp instructions executed' },
  { id: 'smsp__sass_inst_executed_op_shared_st.sum', label: 'Shared Store Instructions', unit: 'inst', description: 'STS warp instructions executed' },
  { id: 'smsp__sass_inst_executed_op_local_ld.sum', label: 'Local Load Instructions', unit: 'inst', description: 'LDL warp instructions executed' },
  { id: 'smsp__sass_inst_executed_op_local_st.sum', label: 'Local Store Instructions', unit: 'inst', description: 'STL warp instructions executed' },
  { id: 'l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum', label: 'Local Load Requests', unit: '', description: 'L1TEX requests of local loads: one per 4-byte word of the element' },
  { id: 'l1tex__t_requests_pipe_lsu_mem_local_op_st.sum', label: 'Local Store Requests', unit: '', description: 'L1TEX requests of local stores' },
  { id: 'l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum', label: 'Local Load Sectors', unit: 'sector', description: 'sectors of the warp-interleaved local window the local loads touch' },
  { id: 'l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum', label: 'Local Store Sectors', unit: 'sector', description: 'sectors of the warp-interleaved local window the local stores touch' },
  { id: 'l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_hit.sum', label: 'Local Load Sector Hits', unit: 'sector', description: 'local load sectors found in L1' },
  { id: 'l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_miss.sum', label: 'Local Load Sector Misses', unit: 'sector', description: 'local load sectors missed in L1' },
  { id: 'smsp__sass_inst_executed_op_ldgsts.sum', label: 'LDGSTS Instructions', unit: 'inst', description: 'async global-to-shared copy instructions executed' },
  { id: 'smsp__sass_inst_executed_op_branch.sum', label: 'Branch Instructions (SASS)', unit: 'inst', description: 'branch warp instructions executed (SASS-patched count)' },
  { id: 'smsp__thread_inst_executed.sum', label: 'Thread Instructions Executed', unit: 'inst', description: 'thread-level instructions executed (active lanes summed)' },
  { id: 'smsp__thread_inst_executed_pred_on.sum', label: 'Predicated-On Thread Instructions Executed', unit: 'inst', description: 'thread-level instructions executed with the predicate true' },
  { id: 'smsp__sass_branch_targets.sum', label: 'Branch Targets', unit: 'branches', description: 'branch targets taken, uniform and divergent' },
  { id: 'smsp__sass_branch_targets_threads_divergent.sum', label: 'Divergent Branch Targets', unit: 'branches', description: 'branch targets taken by only part of the warp' },
  // L1/TEX: global requests and sectors
  { id: 'l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum', label: 'Global Load Requests', unit: '', description: 'L1TEX requests of global loads: one per warp instruction, any width' },
  { id: 'l1tex__t_requests_pipe_lsu_mem_global_op_st.sum', label: 'Global Store Requests', unit: '', description: 'L1TEX requests of global stores' },
  { id: 'l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum', label: 'Global Atomic Requests', unit: '', description: 'L1TEX requests of global atomics whose result is used (ATOMG)' },
  { id: 'l1tex__t_requests_pipe_lsu_mem_global_op_red.sum', label: 'Global Reduction Requests', unit: '', description: 'L1TEX requests of global reductions, atomics whose result is unused (REDG)' },
  { id: 'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum', label: 'Global Load Sectors', unit: 'sector', description: 'distinct 32-byte sectors the global loads touch, per request, summed' },
  { id: 'l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum', label: 'Global Store Sectors', unit: 'sector', description: 'distinct 32-byte sectors the global stores touch, per request, summed' },
  { id: 'l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum', label: 'Global Load Sector Hits', unit: 'sector', description: 'global load sectors found in L1' },
  { id: 'l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum', label: 'Global Load Sector Misses', unit: 'sector', description: 'global load sectors missed in L1 (sent to L2)' },
  { id: 'l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct', label: 'Global Load L1 Hit Rate', unit: '%', description: 'L1 hit rate of global load sectors' },
  // L1/TEX: shared-memory wavefronts and bank conflicts
  { id: 'l1tex__data_pipe_lsu_wavefronts.sum', label: 'L1 LSU Data Wavefronts', unit: '', description: 'wavefronts through the L1 data stage, all spaces' },
  { id: 'l1tex__data_pipe_lsu_wavefronts_mem_shared.sum', label: 'Shared Wavefronts', unit: '', description: 'shared-memory wavefronts, all operations (includes LDGSTS writes and op_misc)' },
  { id: 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum', label: 'Shared Load Wavefronts', unit: '', description: 'shared-load wavefronts: 1/2/4 per conflict-free 32/64/128-bit access, more with conflicts' },
  { id: 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum', label: 'Shared Store Wavefronts', unit: '', description: 'shared-store wavefronts' },
  { id: 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_misc.sum', label: 'Shared Misc Wavefronts', unit: '', description: 'other shared-pipe wavefronts: one per warp-level SHFL or S2R of a per-thread register (SR_TID.*, SR_LANEID)' },
  { id: 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum', label: 'Shared Bank Conflicts', unit: '', description: 'shared wavefronts above the minimum, all operations' },
  { id: 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum', label: 'Shared Load Bank Conflicts', unit: '', description: 'shared-load wavefronts above the minimum' },
  { id: 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum', label: 'Shared Store Bank Conflicts', unit: '', description: 'shared-store wavefronts above the minimum' },
  { id: 'smsp__inst_executed_op_shared_atom.sum', label: 'Shared Atomic Instructions', unit: 'inst', description: 'ATOMS warp instructions executed' },
  { id: 'smsp__sass_inst_executed_op_shared_atom.sum', label: 'Shared Atomic Instructions (SASS)', unit: 'inst', description: 'ATOMS warp instructions executed (SASS-patched count)' },
  { id: 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum', label: 'Shared Atomic Wavefronts', unit: '', description: 'shared-atomic (ATOMS) wavefronts' },
  { id: 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum', label: 'Shared Atomic Bank Conflicts', unit: '', description: 'shared-atomic wavefronts above the minimum' },
  // L2
  { id: 'lts__t_sectors.sum', label: 'L2 Sectors', unit: 'sector', description: 'L2 sector accesses from every source' },
  { id: 'lts__t_requests_srcunit_tex_op_read.sum', label: 'L2 Read Requests From L1', unit: 'request', description: 'L2 read requests from L1TEX (1-4 sectors of one line each)' },
  { id: 'lts__t_sectors_srcunit_tex_op_read.sum', label: 'L2 Read Sectors From L1', unit: 'sector', description: 'sectors L1TEX read from L2' },
  { id: 'lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum', label: 'L2 Read Sector Hits From L1', unit: 'sector', description: 'L1TEX read sectors that hit in L2' },
  { id: 'lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum', label: 'L2 Read Sector Misses From L1', unit: 'sector', description: 'L1TEX read sectors that missed in L2' },
  { id: 'lts__t_sectors_srcunit_ltcfabric.sum', label: 'L2 Fabric Sectors', unit: 'sector', description: 'sectors the L2 partitions passed each other over the L2 fabric (requests from SMs for lines homed in their far partition)' },
  { id: 'lts__t_sectors_srcunit_tex_op_write.sum', label: 'L2 Write Sectors From L1', unit: 'sector', description: 'sectors L1TEX wrote to L2' },
  { id: 'lts__t_sectors_srcunit_tex_op_write_lookup_hit.sum', label: 'L2 Write Sector Hits From L1', unit: 'sector', description: 'L1TEX write sectors that hit in L2 (full-sector writes always do)' },
  { id: 'lts__t_sectors_srcunit_tex_op_write_lookup_miss.sum', label: 'L2 Write Sector Misses From L1', unit: 'sector', description: 'L1TEX write sectors that missed in L2' },
  { id: 'lts__t_sector_op_read_hit_rate.pct', label: 'L2 Read Hit Rate', unit: '%', description: 'L2 hit rate of read sectors' },
  { id: 'lts__t_sector_op_write_hit_rate.pct', label: 'L2 Write Hit Rate', unit: '%', description: 'L2 hit rate of write sectors' },
  // DRAM
  { id: 'dram__bytes_read.sum', label: 'DRAM Bytes Read', unit: 'byte', description: 'bytes read from device memory (64-byte fill granules on the H200)' },
  { id: 'dram__bytes_write.sum', label: 'DRAM Bytes Written', unit: 'byte', description: 'bytes written to device memory during the kernel' },
  { id: 'dram__sectors_read.sum', label: 'DRAM Sectors Read', unit: 'sector', description: '32-byte sectors read from device memory' },
  { id: 'dram__sectors_write.sum', label: 'DRAM Sectors Written', unit: 'sector', description: '32-byte sectors written to device memory' },
  { id: 'dram__throughput.avg.pct_of_peak_sustained_elapsed', label: 'DRAM Throughput', unit: '%', description: 'DRAM unit throughput as % of peak' },
  // launch configuration and occupancy inputs
  { id: 'launch__barrier_count', label: 'Barriers', unit: '', description: 'named barriers the kernel uses' },
  { id: 'launch__registers_per_thread_allocated', label: 'Registers Per Thread Allocated', unit: 'register/thread', description: 'registers per thread after allocation granularity (steps of 8)' },
  { id: 'launch__shared_mem_per_block', label: 'Shared Memory Per Block', unit: 'byte/block', description: 'static + dynamic + driver shared memory per block' },
  { id: 'launch__shared_mem_per_block_allocated', label: 'Shared Memory Per Block Allocated', unit: 'byte/block', description: 'shared memory per block after allocation granularity' },
  // activity
  { id: 'sm__ctas_launched.sum', label: 'Blocks Launched', unit: 'block', description: 'thread blocks launched' },
  { id: 'smsp__warps_launched.sum', label: 'Warps Launched', unit: 'warp', description: 'warps launched' },
  { id: 'sm__cycles_elapsed.avg', label: 'SM Elapsed Cycles', unit: 'cycle', description: 'elapsed SM cycles, averaged over SMs' },
  { id: 'smsp__cycles_active.avg', label: 'SMSP Active Cycles', unit: 'cycle', description: 'cycles a scheduler had a warp resident, averaged over schedulers' },
  { id: 'profiler__replayer_passes', label: 'Replay Passes', unit: 'pass', description: 'passes ncu replayed the kernel to collect the metrics' },

  // ── Other columns of the ground-truth raw pages that carry a unit (metric_units.json) ─────────
  // registered so that every unit the reader meets there is known; labels: ours
  { id: 'sass__inst_executed_global_loads', label: 'Global Load Instructions (SASS)', unit: 'inst', description: 'global load warp instructions executed' },
  { id: 'sass__inst_executed_global_stores', label: 'Global Store Instructions (SASS)', unit: 'inst', description: 'global store warp instructions executed' },
  { id: 'sass__inst_executed_shared_loads', label: 'Shared Load Instructions (SASS)', unit: 'inst', description: 'shared load warp instructions executed' },
  { id: 'sass__inst_executed_shared_stores', label: 'Shared Store Instructions (SASS)', unit: 'inst', description: 'shared store warp instructions executed' },
  { id: 'sass__inst_executed_local_loads', label: 'Local Load Instructions (SASS)', unit: 'inst', description: 'local load warp instructions executed' },
  { id: 'sass__inst_executed_local_stores', label: 'Local Store Instructions (SASS)', unit: 'inst', description: 'local store warp instructions executed' },
  { id: 'launch__block_dim_x', label: 'Block Dim X', unit: 'block', description: 'blockDim.x' },
  { id: 'launch__block_dim_y', label: 'Block Dim Y', unit: 'block', description: 'blockDim.y' },
  { id: 'launch__block_dim_z', label: 'Block Dim Z', unit: 'block', description: 'blockDim.z' },
  { id: 'smsp__maximum_warps_avg_per_active_cycle', label: 'Theoretical Warps Per Scheduler', unit: 'warp', description: 'warps per scheduler the occupancy limits allow' },
  { id: 'profiler__replayer_passes_type_warmup', label: 'Warm-up Passes', unit: 'pass', description: 'replay passes run to warm up' },
  { id: 'profiler__replayer_bytes_mem_accessible.sum', label: 'Replay Memory Accessible', unit: 'byte', description: 'device memory the replayer may have to save and restore' },
  { id: 'profiler__replayer_bytes_mem_backed_up.sum', label: 'Replay Memory Backed Up', unit: 'byte', description: 'device memory the replayer saved to restore between passes' },
];

const BY_ID: ReadonlyMap<string, MetricInfo> = new Map(METRICS.map((m) => [m.id, m]));

/** `name.rollup[.submetric]`: ncu rollups keep the counter's unit (dram__bytes_read.avg is in bytes like .sum). */
const ROLLUP = /^([^.]+)\.(sum|avg|min|max)(\..+)?$/;

/**
 * The unit of a metric id the registry and the ground truth do not list, by ncu's naming
 * conventions (nsight-compute.md §2: counter names say what they count, suffixes what was done to
 * them): `.pct*` is a percentage, `.per_second` a rate, `.peak_sustained` a count per cycle; a
 * counter of cycles, bytes, sectors, L2 requests, instructions or warps counts that. '' when none
 * applies (ratios, Warpsight's own flags), rather than a guess.
 */
export function inferUnit(id: string): string {
  if (/\.pct($|_of_peak)/.test(id) || /_pct$/.test(id)) return '%';
  const counter = id.split('.')[0] ?? id;
  const rollup = /\.(sum|avg|min|max)(\.|$)/.test(id) || !id.includes('.');
  if (!rollup) return '';
  let base = '';
  if (/(^|_)cycles_(active|elapsed)$|__cycles_(active|elapsed)$|_cycles_active$/.test(counter) || /__issue_active$/.test(counter)) base = 'cycle';
  else if (/(^|_)bytes($|_)/.test(counter)) base = 'byte';
  else if (/(^|_)sectors($|_)/.test(counter)) base = 'sector';
  else if (/^lts__.*requests($|_)/.test(counter)) base = 'request';
  else if (/(^|_)inst_(executed|issued)($|_)/.test(counter)) base = 'inst';
  else if (/(^|_)warps_(active|eligible|launched|issue_stalled)($|_)/.test(counter)) base = 'warp';
  if (base === '') return '';
  if (id.endsWith('.per_second')) return base === 'cycle' ? 'hz' : `${base}/s`;
  if (id.endsWith('.peak_sustained')) return base === 'cycle' ? '' : `${base}/cycle`;
  if (/\.per_cycle_(active|elapsed)$/.test(id)) return base === 'cycle' ? '' : `${base}/cycle`;
  return base;
}

/**
 * What the registry knows about a metric id. Unknown ids fall back to the unit the H200 ground
 * truth prints for them (data/ncuUnits.ts); then to a sibling rollup (`x.max` borrows the unit of a
 * registered `x.sum`/`x.avg`, its label suffixed with the rollup), since the raw page lists all four
 * rollups of every counter; then to ncu's naming conventions (inferUnit); label = id.
 */
export function metricInfo(id: string): MetricInfo {
  const known = BY_ID.get(id);
  if (known) return known;
  const measured = NCU_UNITS[id];
  const m = ROLLUP.exec(id);
  if (m) {
    const [, name, rollup, rest = ''] = m;
    for (const other of ['sum', 'avg', 'max', 'min']) {
      const sibling = BY_ID.get(`${name}.${other}${rest}`);
      if (sibling) return { id, label: `${sibling.label} (${rollup})`, unit: (measured as NcuUnit | undefined) ?? sibling.unit, description: `${rollup} over units of: ${sibling.description}` };
    }
  }
  return { id, label: id, unit: (measured ?? inferUnit(id)) as NcuUnit, description: '' };
}

/** ncu's base unit of a metric, as the CSV units row prints it. */
export function unitOf(id: string): NcuUnit {
  return metricInfo(id).unit;
}

/** Which way a metric improves: fewer (lower) or more (higher). */
export type Better = 'lower' | 'higher';

/**
 * Which way each kind of metric improves, by its ncu name, as data: first match wins. Work done for
 * the same result (instructions, requests, sectors, wavefronts, bank conflicts, bytes moved, time,
 * stalls, divergence, spills) is better lower; how well the hardware is used per unit of work (hit
 * rates, occupancy, threads per instruction, branch uniformity, instructions per cycle, eligible
 * warps) is better higher. Throughput percentages, clocks, sizes and launch settings have no better
 * direction: a threshold on them fails both ways. `compare`/`bench` thresholds use it.
 */
const DIRECTIONS: readonly (readonly [RegExp, Better])[] = [
  [/hit_rate|_hit_ratio/, 'higher'],
  [/warps_active\.avg\.pct_of_peak|achieved_occupancy|maximum_warps_per_active_cycle_pct|occupancy_(limit|per_)|warps_eligible|issue_active\.avg/, 'higher'],
  [/thread_inst_executed(_pred_on)?_per_inst_executed|average_branch_targets_threads_uniform|inst_(executed|issued)\.avg\.per_cycle|average_data_bytes_per_sector/, 'higher'],
  [/bank_conflicts|wavefronts|sectors|requests|__bytes|_bytes_|inst_executed|inst_issued|threads_divergent|spilling|time_duration|cycles_(active|elapsed)(\.|$)|warps_issue_stalled|average_warp_latency|average_warps_active_per_inst|_excessive/, 'lower'],
];

export function betterDirection(id: string): Better | undefined {
  if (/pct_of_peak_sustained|per_second|\.peak_sustained|lookup_hit|^launch__|^device__/.test(id) && !/warps_active\.avg\.pct_of_peak/.test(id)) return undefined;
  return DIRECTIONS.find(([re]) => re.test(id))?.[1];
}
