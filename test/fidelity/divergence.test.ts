/**
 * Family 3 of the H200 ground truth (ncu_raw_div.csv), written with the branch structure of the SASS:
 * branch and divergent-branch counts, ncu's "branch efficiency" (per executed branch, loops included:
 * 99.2 % for one divergent if/else against 128 uniform back-edges) within 2 points, threads per
 * instruction within 5 %. Run on 512 of the 16,384 blocks (every block does the same; see scaled.ts).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validate } from '../../commands/validate.js';
import { GROUNDTRUTH } from './helpers.js';
import { scaledProfiler } from './scaled.js';

describe('divergence vs the H200', () => {
  it('matches branch counts, branch efficiency and threads per instruction of every div_* launch', async () => {
    const { rows } = await validate(
      { file: 'kernels/divergence.ts', ncu: join(GROUNDTRUTH, 'ncu_raw_div.csv'), kernel: ['regex:^div_'], arch: 'h200', cacheControl: 'all', json: false, tty: false },
      scaledProfiler({ grid: [512, 1, 1], fullGrid: [16384, 1, 1] }),
    );
    const kernels = [...new Set(rows.map((r) => r.kernel))];
    expect(kernels.sort()).toEqual(['div_inter_warp', 'div_intra_warp', 'div_loop_lane_trip', 'div_loop_uniform_trip']);
    const problems: string[] = [];
    for (const k of kernels) {
      const get = (id: string) => rows.find((r) => r.kernel === k && r.metric === id);
      const rel = (id: string, tol: number) => {
        const r = get(id);
        if (!r || r.ncu === null || r.warpsight === null) return problems.push(`${k} ${id} missing`);
        const err = r.ncu === 0 ? Math.abs(r.warpsight) : Math.abs(r.warpsight - r.ncu) / r.ncu;
        if (err > tol) problems.push(`${k} ${id}: ncu ${r.ncu} warpsight ${r.warpsight}`);
        return 0;
      };
      const abs = (id: string, tol: number) => {
        const r = get(id);
        if (!r || r.ncu === null || r.warpsight === null) return problems.push(`${k} ${id} missing`);
        if (Math.abs(r.warpsight - r.ncu) > tol) problems.push(`${k} ${id}: ncu ${r.ncu} warpsight ${r.warpsight}`);
        return 0;
      };
      rel('smsp__sass_branch_targets.sum', 0);
      rel('smsp__sass_branch_targets_threads_divergent.sum', 0);
      abs('smsp__sass_average_branch_targets_threads_uniform.pct', 2);
      rel('smsp__thread_inst_executed_per_inst_executed.ratio', 0.05);
      rel('smsp__sass_inst_executed_op_global_ld.sum', 0);
      rel('smsp__sass_inst_executed_op_global_st.sum', 0);
      // the judged rows of the tolerance table pass too
      for (const r of rows.filter((x) => x.kernel === k && /branch|thread_inst_executed_per|_op_global_/.test(x.metric) && x.status === 'FAIL')) problems.push(`${k} ${r.metric} FAIL`);
    }
    expect(problems).toEqual([]);
  }, 300_000);
});
