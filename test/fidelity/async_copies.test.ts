/**
 * Family 6 of the H200 ground truth (ncu_raw_cp.csv) through `warpsight validate`: a tile loop that
 * fills shared memory with plain loads and stores, with 4-byte cp.async (cg::memcpy_async) and with
 * 16-byte BYPASS copies (aligned_size_t<16>). The copies count as global-load requests and sectors,
 * not as global-load instructions nor shared stores; their shared writes are in the shared total
 * (rule: test/fidelity/ldgsts.test.ts). cp_pipeline_2stage (cuda::pipeline) is not modelled.
 */
import { describe, expect, it } from 'vitest';
import { EXACT_GLOBAL, failures, table, validateAgainstH200 } from './helpers.js';

const JUDGED = [
  ...EXACT_GLOBAL,
  'smsp__sass_inst_executed_op_shared_ld.sum',
  'smsp__sass_inst_executed_op_shared_st.sum',
  'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum',
  'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum',
  'l1tex__data_pipe_lsu_wavefronts_mem_shared.sum',
  'smsp__inst_executed.sum',
  'dram__bytes_read.sum',
  'lts__t_sector_hit_rate.pct',
  'gpu__time_duration.sum',
];
const KERNELS = ['cp_plain_sync', 'cp_cg_memcpy_async', 'cp_cg_memcpy_async_a16'];

describe('async copies vs the H200 (ncu_raw_cp.csv)', () => {
  it('counts each way of filling shared memory as ncu does, within the tolerances', async () => {
    const rows = await validateAgainstH200('async_copies', 'ncu_raw_cp.csv', { kernel: KERNELS });
    expect(table(rows, JUDGED).length).toBe(KERNELS.length * JUDGED.length);
    expect(failures(rows, JUDGED)).toEqual([]);
    const ldgsts = (k: string, id: string) => rows.find((r) => r.kernel === k && r.metric === id);
    // the copies are global-load requests but no LDG; the plain kernel's are LDG + STS
    expect(ldgsts('cp_cg_memcpy_async', 'smsp__sass_inst_executed_op_global_ld.sum')?.warpsight).toBe(0);
    expect(ldgsts('cp_cg_memcpy_async', 'l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum')?.warpsight).toBe(524_288);
    expect(ldgsts('cp_cg_memcpy_async_a16', 'l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum')?.warpsight).toBe(131_072);
    // the plain copy through registers is the slowest, as on the H200 (37.8 µs vs 26.8 and 22.5)
    const time = (k: string, side: 'ncu' | 'warpsight') => ldgsts(k, 'gpu__time_duration.sum')?.[side] as number;
    for (const side of ['ncu', 'warpsight'] as const)
      for (const k of KERNELS.slice(1)) expect(time('cp_plain_sync', side), `${side} ${k}`).toBeGreaterThan(time(k, side));
  }, 600_000);
});
