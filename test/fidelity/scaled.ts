/**
 * Fidelity runs on a reduced grid, for kernels whose every block does the same work: their counts
 * are exactly (blocks run) x (per-block count), so a report of B blocks, scaled by full/B, is the
 * full launch's. Ratios and percentages need no scaling. This keeps the 4M-16M-thread ground-truth
 * kernels to a second or two each in CI; the profiler is still `validate`'s, wrapped.
 */
import type { Report } from '../../types/report.schema.js';
import type { Profiler } from '../../commands/validate.js';
import { profileFile } from '../../src/profile.js';
import type { Dim3 } from '../../src/kernel/define.js';

/** extensive counters: per-instruction sums that grow with the number of blocks */
const COUNTS =
  /^(smsp__(inst_executed|thread_inst_executed|thread_inst_executed_pred_on|sass_inst_executed_op_\w+|inst_executed_op_\w+|sass_branch_targets|sass_branch_targets_threads_divergent)|l1tex__(t_requests|t_sectors|data_pipe_lsu_wavefronts|data_bank_conflicts)\w*|sm__ctas_launched|smsp__warps_launched)\.sum$/;

export interface Reduction {
  /** grid to run instead of the kernel's own */
  grid?: Dim3;
  /** or --param values that shrink the problem (the transposes' width) */
  params?: Record<string, string>;
  /** the grid of the full launch, as ncu saw it */
  fullGrid: Dim3;
}

export function scaledProfiler(reduce: Reduction): Profiler {
  return async (req) => {
    const report: Report = await profileFile({ ...req, ...(reduce.grid ? { grid: reduce.grid } : {}), ...(reduce.params ? { params: reduce.params } : {}) });
    for (const k of report.kernels) {
      const ran = k.launch.grid[0] * k.launch.grid[1] * k.launch.grid[2];
      const full = reduce.fullGrid[0] * reduce.fullGrid[1] * reduce.fullGrid[2];
      const factor = full / ran;
      for (const [id, v] of Object.entries(k.metrics)) if (typeof v === 'number' && COUNTS.test(id)) k.metrics[id] = v * factor;
      k.launch.grid = [...reduce.fullGrid];
    }
    return report;
  };
}
