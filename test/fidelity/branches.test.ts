/**
 * Branch counts of the launches whose loop ends the kernel, against the H200 (ncu_raw_occ.csv,
 * ncu_raw_cp.csv): nvcc guards such a loop with `@!P EXIT`, not a branch, and rejoins nothing after
 * it (src/exec/compile.ts, the tail rule), so a warp executes one branch per trip. occ_grid_full's
 * warps make one trip: 1 branch each, not 2. Known gap: family 5's passes, whose loops nvcc unrolls
 * by 4 (pass 1: 9 branches per warp for 32 trips; pass 2 by 16 with tails of 8 and 4: 5), are
 * written as plain loops (32 per warp).
 */
import { describe, expect, it } from 'vitest';
import { validateAgainstH200 } from './helpers.js';

const BRANCHES = 'smsp__sass_inst_executed_op_branch.sum';

describe('branches of loops that end the kernel vs the H200', () => {
  it('equal the H200 count in the grid-stride and tile-copy kernels', async () => {
    const rows = [
      ...(await validateAgainstH200('occupancy', 'ncu_raw_occ.csv', { kernel: ['regex:^occ_grid_'] })),
      ...(await validateAgainstH200('async_copies', 'ncu_raw_cp.csv', { kernel: ['cp_plain_sync', 'cp_cg_memcpy_async', 'cp_cg_memcpy_async_a16'] })),
    ].filter((r) => r.metric === BRANCHES);
    expect(rows.map((r) => r.kernel).sort()).toEqual(['cp_cg_memcpy_async', 'cp_cg_memcpy_async_a16', 'cp_plain_sync', 'occ_grid_80blocks', 'occ_grid_full']);
    expect(rows.filter((r) => r.warpsight !== r.ncu).map((r) => `${r.kernel}: ncu ${r.ncu} warpsight ${r.warpsight}`)).toEqual([]);
  }, 600_000);
});
