/**
 * How close Warpsight must come to real ncu, per metric: the table `validate` and the fidelity tests
 * judge by. First matching entry wins, so exact entries come before the broad rate patterns.
 * A metric no entry matches is shown beside ncu's value but not judged.
 *
 * Exact means "equal as ncu prints it" (integers, or 2 decimals): ncu prints 15.52 waves where we
 * compute 15.5151…, and that is a match.
 *
 * Bank conflicts are judged against the H200's wavefronts (it reports up to a few % of the
 * instructions as conflicts on conflict-free code, groundtruth README surprise 2), not their own value.
 * Deliberately unjudged: per-SM rollups (.avg/.min/.max of counts depend on block placement), launch__occupancy_per_*
 * (instanced graph series, not counts we model), and the spin-loop kernels' counts (they differ run
 * to run on hardware too).
 */

export type ToleranceKind = 'exact' | 'relative' | 'absolute';

export interface Tolerance {
  /** an exact metric id, or a pattern over ids */
  pattern: string | RegExp;
  kind: ToleranceKind;
  /** relative: fraction of ncu's value (0.1 = 10 %); absolute: in the metric's unit (points for %) */
  value: number;
  /**
   * relative only: the error is a fraction of this other metric's ncu value of the same launch, not
   * of the metric's own (`$1`… are the pattern's groups); `ofLabel` names it in tables
   */
  of?: string;
  ofLabel?: string;
  why: string;
}

export const TOLERANCES: readonly Tolerance[] = [
  // ── exact: counts that follow from the instruction stream and the addresses alone ─────────────
  {
    pattern: /^smsp__sass_inst_executed_op_((global|shared|local)_(ld|st)|global_(atom|red))\.sum$/,
    kind: 'exact',
    value: 0,
    why: 'one IR memory instruction is one LDG/STG/LDS/STS/LDL/STL, and an atomic one ATOMG (result used) or REDG (unused); executions per warp are deterministic',
  },
  {
    pattern: /^l1tex__t_requests_pipe_lsu_mem_global_op_\w+\.sum$/,
    kind: 'exact',
    value: 0,
    why: 'one L1TEX request per warp memory instruction, any width (groundtruth surprise 1)',
  },
  {
    pattern: /^l1tex__t_sectors_pipe_lsu_mem_global_op_(ld|st)\.sum$/,
    kind: 'exact',
    value: 0,
    why: 'distinct 32-byte sectors of the active lanes: a function of the addresses only',
  },
  {
    pattern: /^launch__occupancy_limit_(blocks|registers|shared_mem|warps|barriers)$/,
    kind: 'exact',
    value: 0,
    why: 'the occupancy calculator is arithmetic on the launch and the arch data',
  },
  {
    pattern: 'launch__waves_per_multiprocessor',
    kind: 'exact',
    value: 0,
    why: 'grid size over blocks per SM times SMs: arithmetic on the launch',
  },
  {
    pattern: 'sm__maximum_warps_per_active_cycle_pct',
    kind: 'exact',
    value: 0,
    why: 'theoretical occupancy follows from the occupancy limits',
  },
  {
    pattern: /^launch__(grid_size|block_size|thread_count)$/,
    kind: 'exact',
    value: 0,
    why: 'the launch configuration itself: a mismatch means two different launches are being compared',
  },

  // ── relative: counts that depend on modelled timing, caches or compiler choices ─────────────
  {
    pattern: /^l1tex__data_pipe_lsu_wavefronts_mem_shared(_op_(ld|st))?\.sum$/,
    kind: 'relative',
    value: 0.1,
    // issue #40 asks 3 %: the H200's extra wavefronts on conflict-free code, which Warpsight does not
    // imitate, are 8.8 % on the unpadded 32x32 transpose's stores, 4.4 % on the padded one's loads, 3.8 %
    // on sh_ld_u128_stride1 and 6.2 % on cuda-samples' scanExclusiveShared; 3 % would fail those
    // families, so the table keeps 10 % and test/fidelity/cuda_samples.test.ts applies the issue's 3 %
    why: 'hardware adds a few % of extra wavefronts on conflict-free code (8.2 for an ideal 8, surprise 2)',
  },
  {
    pattern: /^l1tex__data_bank_conflicts_pipe_lsu_mem_shared(_op_(?:ld|st))?\.sum$/,
    kind: 'relative',
    value: 0.1,
    of: 'l1tex__data_pipe_lsu_wavefronts_mem_shared$1.sum',
    ofLabel: 'wavefronts',
    why: "conflicts are the wavefronts above the ideal; the H200 reports up to a few % of its wavefronts as conflicts on conflict-free code (817 on 131,072 stride-1 LDS, surprise 2), so the difference is judged against the H200's wavefronts, as the wavefronts themselves are",
  },
  {
    pattern: /^smsp__(inst_executed|thread_inst_executed|thread_inst_executed_pred_on)\.sum$/,
    kind: 'relative',
    value: 0.25,
    // issue #40 asks worst 15 %: cp_cg_memcpy_async is 19.2 % off today (nvcc's code around
    // cg::memcpy_async); test/fidelity/cuda_samples.test.ts applies 15 % with its known gaps
    why: 'IR instructions approximate SASS: address arithmetic and predicate setup differ by a few per warp',
  },
  {
    pattern: /^smsp__(sass_branch_targets|sass_branch_targets_threads_divergent|sass_inst_executed_op_branch)\.sum$/,
    kind: 'relative',
    value: 0.02,
    why: 'executed branches follow from the branch structure (kernels written like their SASS: guard + back-edge per loop)',
  },
  {
    pattern: 'smsp__thread_inst_executed_per_inst_executed.ratio',
    kind: 'relative',
    value: 0.05,
    why: 'active threads per warp instruction measures divergence; instruction mix shifts it a little',
  },
  {
    pattern: /^lts__t_sectors_srcunit_tex_op_(read|write)\.sum$/,
    kind: 'relative',
    value: 0.1,
    why: 'L1 misses sent to L2: exact for cold caches, but L1 sharing between warps of an SM depends on timing',
  },
  {
    pattern: /^dram__(bytes|sectors)_(read|write)\.sum$/,
    kind: 'relative',
    value: 0.15,
    why: 'DRAM traffic depends on L2 replacement and write-back timing, modelled approximately',
  },
  {
    pattern: /^(gpu__time_duration\.sum|gpc__cycles_elapsed\.max|sm__cycles_(active|elapsed)\.avg|smsp__cycles_active\.avg)$/,
    kind: 'relative',
    value: 0.3,
    why: 'durations come from a simple timing model; hardware varies ~20 % between machines (launch_overhead.txt)',
  },

  // ── absolute: rates in % ───────────────────────────────────────────────────────────────────
  {
    pattern: /^l1tex__t_sector(_pipe_lsu_mem_global_op_(ld|st))?_hit_rate\.pct$/,
    kind: 'absolute',
    value: 5,
    why: 'L1 hits come from sector sharing between warps of an SM (surprise 3): modelled per SM and sector',
  },
  {
    pattern: 'lts__t_sector_hit_rate.pct',
    kind: 'absolute',
    value: 5,
    why: 'L2 hit rate with stores counted as hits (surprise 4); 64-B fills and the two L2 partitions modelled',
  },
  {
    pattern: /^lts__t_sector_op_(read|write)_hit_rate\.pct$/,
    kind: 'absolute',
    value: 10,
    why: 'per-launch read hits with L2 state kept between launches (family 5) depend on replacement details NVIDIA does not document',
  },
  {
    pattern: 'smsp__sass_average_branch_targets_threads_uniform.pct',
    kind: 'absolute',
    value: 2,
    why: "ncu's branch efficiency: share of executed branches whose threads went one way (0 with no branch, surprise 6)",
  },
  {
    pattern: /(\.pct|_pct|\.pct_of_peak_sustained_(active|elapsed))$/,
    kind: 'absolute',
    value: 10,
    why: 'hit rates, efficiencies and throughputs: within 10 points is the same diagnosis',
  },
];

function matches(pattern: string | RegExp, id: string): boolean {
  return typeof pattern === 'string' ? pattern === id : pattern.test(id);
}

/** The tolerance that judges a metric, or undefined when the metric is shown but not judged. */
export function toleranceFor(id: string, table: readonly Tolerance[] = TOLERANCES): Tolerance | undefined {
  return table.find((t) => matches(t.pattern, id));
}

/** the metric whose ncu value a relative error is taken against: the metric itself, or the tolerance's `of` */
export function errorBaseOf(id: string, t: Pick<Tolerance, 'pattern' | 'of'>): string {
  if (t.of === undefined) return id;
  return typeof t.pattern === 'string' ? t.of : id.replace(t.pattern, t.of);
}

/** 'exact', '±10%', '±10% of wavefronts', '±10' — how a tolerance reads in a table. */
export function formatTolerance(t: (Pick<Tolerance, 'kind' | 'value'> & { ofLabel?: string }) | undefined | null): string {
  if (!t) return '';
  if (t.kind === 'exact') return 'exact';
  if (t.kind === 'relative') return `±${Number((t.value * 100).toFixed(2))}%${t.ofLabel ? ` of ${t.ofLabel}` : ''}`;
  return `±${t.value}`;
}
