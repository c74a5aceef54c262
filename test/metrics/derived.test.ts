import { describe, expect, it } from 'vitest';
import { DERIVATIONS, deriveMetrics, withDerivedMetrics } from '../../src/metrics/derived.js';

describe('deriveMetrics', () => {
  it('derives sectors per request and bytes per sector (stride-32 loads: 32 and 4)', () => {
    const d = deriveMetrics({
      'l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum': 131072,
      'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum': 4194304,
      'smsp__sass_data_bytes_mem_global_op_ld.sum': 16777216,
      'smsp__sass_sectors_mem_global_op_ld.sum': 4194304,
    });
    expect(d['l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio']).toBe(32);
    expect(d['smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.ratio']).toBe(4);
    expect(d['smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.max_rate']).toBe(32);
    expect(d['l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum']).toBe(134217728);
  });

  it('falls back to L1 sectors for bytes per sector when SASS sectors are missing', () => {
    const d = deriveMetrics({
      'l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum': 524288,
      'smsp__sass_data_bytes_mem_global_op_st.sum': 16777216,
    });
    expect(d['smsp__sass_average_data_bytes_per_sector_mem_global_op_st.ratio']).toBe(32);
  });

  it('derives threads per instruction, from hardware counters or source-metric totals', () => {
    expect(deriveMetrics({ 'smsp__thread_inst_executed.sum': 67108864, 'smsp__inst_executed.sum': 2097152 })['smsp__thread_inst_executed_per_inst_executed.ratio']).toBe(32);
    expect(deriveMetrics({ thread_inst_executed_true: 48, inst_executed: 2 })['smsp__thread_inst_executed_pred_on_per_inst_executed.ratio']).toBe(24);
  });

  it('derives hit rates from lookup hits and misses; 0/0 is 0 as ncu prints it', () => {
    const d = deriveMetrics({
      'lts__t_sectors_lookup_hit.sum': 889899,
      'lts__t_sectors_lookup_miss.sum': 12583290,
      'l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_hit.sum': 0,
      'l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_miss.sum': 0,
    });
    expect(d['lts__t_sector_hit_rate.pct']).toBeCloseTo(6.605, 3);
    expect(d['l1tex__t_sector_pipe_lsu_mem_local_op_ld_hit_rate.pct']).toBe(0);
  });

  it('derives occupancy from the block limits (H200, 256 threads: 8 blocks → 64 warps, 100 %)', () => {
    const d = deriveMetrics({
      'launch__occupancy_limit_blocks': 32,
      'launch__occupancy_limit_registers': 16,
      'launch__occupancy_limit_shared_mem': 32,
      'launch__occupancy_limit_warps': 8,
      'launch__block_size': 256,
      'launch__grid_size': 16384,
      'launch__sm_count': 132,
      'device__attribute_max_warps_per_multiprocessor': 64,
      'device__attribute_num_schedulers_per_multiprocessor': 4,
    });
    expect(d['sm__maximum_warps_avg_per_active_cycle']).toBe(64);
    expect(d['sm__maximum_warps_per_active_cycle_pct']).toBe(100);
    expect(d['smsp__maximum_warps_avg_per_active_cycle']).toBe(16);
    expect(d['launch__thread_count']).toBe(4194304);
    expect(d['launch__waves_per_multiprocessor']).toBeCloseTo(15.515, 3);
  });

  it('derives issue and warp-latency ratios', () => {
    const d = deriveMetrics({
      'smsp__issue_active.sum': 281,
      'smsp__cycles_active.sum': 10000,
      'smsp__warps_active.sum': 134200,
      'smsp__inst_issued.sum': 281,
      'smsp__inst_executed.sum': 280,
      'smsp__warps_issue_stalled_long_scoreboard.sum': 124564,
    });
    expect(d['smsp__issue_active.avg.per_cycle_active']).toBeCloseTo(0.0281, 10);
    expect(d['smsp__issue_active.avg.pct_of_peak_sustained_active']).toBeCloseTo(2.81, 10);
    expect(d['smsp__issue_inst0.avg.pct_of_peak_sustained_active']).toBeCloseTo(97.19, 10);
    expect(d['smsp__warps_active.avg.per_cycle_active']).toBeCloseTo(13.42, 10);
    expect(d['smsp__average_warp_latency_per_inst_issued.ratio']).toBeCloseTo(477.58, 2);
    expect(d['smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio']).toBeCloseTo(443.29, 2);
  });

  it('keeps the branch ratio a fraction, as ncu`s SourceCounters.section computes it', () => {
    expect(deriveMetrics({ 'smsp__inst_executed_op_branch.sum': 131072, 'smsp__inst_executed.sum': 2097152 })['derived__smsp__inst_executed_op_branch_pct']).toBe(0.0625);
  });

  it('derives DRAM bytes and throughput from sectors and duration', () => {
    const d = deriveMetrics({ 'dram__sectors_read.sum': 8389024, 'dram__sectors_write.sum': 537264, 'gpu__time_duration.sum': 75840 });
    expect(d['dram__bytes_read.sum']).toBe(268448768);
    expect(d['dram__bytes.sum']).toBe(285641216);
    expect(d['dram__bytes.sum.per_second']).toBeCloseTo(3.7664e12, -9);
  });

  it('never overwrites a measured metric and skips what it cannot derive', () => {
    const raw = { 'smsp__thread_inst_executed.sum': 64, 'smsp__inst_executed.sum': 2, 'smsp__thread_inst_executed_per_inst_executed.ratio': 31 };
    expect(deriveMetrics(raw)).not.toHaveProperty('smsp__thread_inst_executed_per_inst_executed.ratio');
    expect(withDerivedMetrics(raw)['smsp__thread_inst_executed_per_inst_executed.ratio']).toBe(31);
    expect(deriveMetrics({})).toEqual({});
    expect(deriveMetrics({ 'launch__grid_size': 'many' })).toEqual({});
  });

  it('lists derivations so that inputs come before their users', () => {
    const produced = new Set<string>();
    for (const d of DERIVATIONS) {
      for (const input of d.inputs) {
        const laterProducer = DERIVATIONS.findIndex((x, i) => x.id === input && i > DERIVATIONS.indexOf(d));
        const earlierProducer = DERIVATIONS.findIndex((x, i) => x.id === input && i < DERIVATIONS.indexOf(d));
        expect(laterProducer >= 0 && earlierProducer < 0, `${d.id} uses ${input}, derived only later`).toBe(false);
      }
      produced.add(d.id);
    }
    expect(produced.size).toBeGreaterThan(50);
  });
});
