/**
 * Which metric ids Warpsight knows, so that an id the user types (`--metrics`, `--threshold`, a bench
 * suite's thresholds) is checked where it enters: a typo used to be ignored, and a 3x instruction
 * regression passed CI with exit 0. Known = the registry (src/metrics/registry.ts: every id with ncu's
 * label and unit) and the ids a report holds that the registry has no entry for (listed below; a test,
 * test/hostile/metricIds.test.ts, profiles a kernel and checks that every id it emits is known here).
 * An unknown id is an error with the nearest known ids suggested.
 */
import { UserError } from '../errors.js';
import { METRICS } from './registry.js';

/** ids every profile emits (device attributes, sub-metrics, stall ratios…) that have no registry entry */
const EMITTED: readonly string[] = [
  'device__attribute_compute_capability_major',
  'device__attribute_compute_capability_minor',
  'device__attribute_l2_cache_size',
  'device__attribute_max_blocks_per_multiprocessor',
  'device__attribute_max_threads_per_block',
  'device__attribute_max_threads_per_multiprocessor',
  'device__attribute_max_warps_per_multiprocessor',
  'device__attribute_multiprocessor_count',
  'device__attribute_num_schedulers_per_multiprocessor',
  'device__attribute_warp_size',
  'dram__bytes.sum',
  'dram__bytes_read.sum.per_second',
  'dram__bytes_write.sum.per_second',
  'dram__sectors.sum',
  'l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio',
  'l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio',
  'l1tex__average_t_sectors_per_request_pipe_lsu_mem_local_op_ld.ratio',
  'l1tex__average_t_sectors_per_request_pipe_lsu_mem_local_op_st.ratio',
  'l1tex__cycles_active.avg',
  'l1tex__cycles_active.sum',
  'l1tex__cycles_elapsed.sum',
  'l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_elapsed',
  'l1tex__lsuin_requests.avg.pct_of_peak_sustained_elapsed',
  'l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum',
  'l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum',
  'l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum',
  'l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum',
  'l1tex__t_sector_pipe_lsu_mem_local_op_ld_hit_rate.pct',
  'l1tex__t_sector_pipe_lsu_mem_global_op_st_hit_rate.pct',
  'l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum',
  'l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum',
  'l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum',
  'l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_miss.sum',
  'l1tex__throughput.avg.pct_of_peak_sustained_elapsed',
  'launch__occupancy_per_barrier_count',
  'launch__occupancy_per_block_size',
  'launch__occupancy_per_register_count',
  'launch__occupancy_per_shared_mem_size',
  'lts__average_t_sectors_per_request.ratio',
  'lts__average_t_sectors_per_request_srcunit_tex_op_read.ratio',
  'lts__average_t_sectors_per_request_srcunit_tex_op_write.ratio',
  'lts__cycles_active.avg',
  'lts__cycles_active.sum',
  'lts__cycles_elapsed.avg',
  'lts__cycles_elapsed.sum',
  'lts__d_sectors.avg.pct_of_peak_sustained_elapsed',
  'lts__d_sectors.sum',
  'lts__d_sectors.sum.peak_sustained',
  'lts__d_sectors_fill_device.avg.pct_of_peak_sustained_elapsed',
  'lts__d_sectors_fill_device.sum',
  'lts__d_sectors_fill_device.sum.peak_sustained',
  'lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed',
  'lts__ltcfabric2ltc_cycles_active.sum',
  'lts__ltcfabric2ltc_cycles_active.sum.peak_sustained',
  'lts__t_bytes.sum',
  'lts__t_bytes_srcunit_tex_op_read.sum',
  'lts__t_bytes_srcunit_tex_op_write.sum',
  'lts__t_requests.sum',
  'lts__t_requests_srcunit_ltcfabric.sum',
  'lts__t_requests_srcunit_tex_op_write.sum',
  'lts__t_sector_srcunit_tex_op_read_hit_rate.pct',
  'lts__t_sector_srcunit_tex_op_write_hit_rate.pct',
  'lts__t_sectors.avg.pct_of_peak_sustained_elapsed',
  'lts__t_sectors.sum.peak_sustained',
  'lts__t_sectors_evict_first_lookup_hit.sum',
  'lts__t_sectors_evict_first_lookup_miss.sum',
  'lts__t_sectors_evict_last_lookup_hit.sum',
  'lts__t_sectors_evict_last_lookup_miss.sum',
  'lts__t_sectors_evict_normal_demote_lookup_hit.sum',
  'lts__t_sectors_evict_normal_demote_lookup_miss.sum',
  'lts__t_sectors_evict_normal_lookup_hit.sum',
  'lts__t_sectors_evict_normal_lookup_miss.sum',
  'lts__t_sectors_srcunit_tex_evict_first_lookup_hit.sum',
  'lts__t_sectors_srcunit_tex_evict_first_lookup_miss.sum',
  'lts__t_sectors_srcunit_tex_evict_last_lookup_hit.sum',
  'lts__t_sectors_srcunit_tex_evict_last_lookup_miss.sum',
  'lts__t_sectors_srcunit_tex_evict_normal_demote_lookup_hit.sum',
  'lts__t_sectors_srcunit_tex_evict_normal_demote_lookup_miss.sum',
  'lts__t_sectors_srcunit_tex_evict_normal_lookup_hit.sum',
  'lts__t_sectors_srcunit_tex_evict_normal_lookup_miss.sum',
  'lts__t_sectors_srcunit_tex_op_atom.sum',
  'lts__t_tag_requests.avg.pct_of_peak_sustained_elapsed',
  'lts__t_tag_requests.sum',
  'lts__t_tag_requests.sum.peak_sustained',
  'lts__xbar2lts_cycles_active.avg.pct_of_peak_sustained_elapsed',
  'lts__xbar2lts_cycles_active.sum',
  'lts__xbar2lts_cycles_active.sum.peak_sustained',
  'sm__active_sms',
  'sm__cycles_active.sum',
  'sm__cycles_elapsed.sum',
  'sm__inst_executed.sum',
  'sm__inst_executed_pipe_adu.avg.pct_of_peak_sustained_elapsed',
  'sm__inst_executed_pipe_adu.sum',
  'sm__inst_issued.sum',
  'sm__warps_active.avg.peak_sustained',
  'sm__warps_active.sum',
  'smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio',
  'smsp__average_warps_issue_stalled_branch_resolving_per_issue_active.ratio',
  'smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio',
  'smsp__average_warps_issue_stalled_drain_per_issue_active.ratio',
  'smsp__average_warps_issue_stalled_gmma_per_issue_active.ratio',
  'smsp__average_warps_issue_stalled_imc_miss_per_issue_active.ratio',
  'smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio',
  'smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio',
  'smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio',
  'smsp__average_warps_issue_stalled_membar_per_issue_active.ratio',
  'smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio',
  'smsp__average_warps_issue_stalled_misc_per_issue_active.ratio',
  'smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio',
  'smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio',
  'smsp__average_warps_issue_stalled_selected_per_issue_active.ratio',
  'smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio',
  'smsp__average_warps_issue_stalled_sleeping_per_issue_active.ratio',
  'smsp__average_warps_issue_stalled_tex_throttle_per_issue_active.ratio',
  'smsp__average_warps_issue_stalled_wait_per_issue_active.ratio',
  'smsp__cycles_active.sum',
  'smsp__cycles_elapsed.sum',
  'smsp__issue_active.sum',
  'smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.max_rate',
  'smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.ratio',
  'smsp__sass_average_data_bytes_per_sector_mem_global_op_st.max_rate',
  'smsp__sass_average_data_bytes_per_sector_mem_global_op_st.ratio',
  'smsp__sass_inst_executed_op_shared.sum',
  'smsp__warps_active.avg.peak_sustained',
  'smsp__warps_active.sum',
  'smsp__warps_eligible.sum',
  'smsp__warps_issue_stalled_barrier.sum',
  'smsp__warps_issue_stalled_branch_resolving.sum',
  'smsp__warps_issue_stalled_dispatch_stall.sum',
  'smsp__warps_issue_stalled_drain.sum',
  'smsp__warps_issue_stalled_gmma.sum',
  'smsp__warps_issue_stalled_imc_miss.sum',
  'smsp__warps_issue_stalled_lg_throttle.sum',
  'smsp__warps_issue_stalled_long_scoreboard.sum',
  'smsp__warps_issue_stalled_math_pipe_throttle.sum',
  'smsp__warps_issue_stalled_membar.sum',
  'smsp__warps_issue_stalled_mio_throttle.sum',
  'smsp__warps_issue_stalled_misc.sum',
  'smsp__warps_issue_stalled_no_instruction.sum',
  'smsp__warps_issue_stalled_not_selected.sum',
  'smsp__warps_issue_stalled_selected.sum',
  'smsp__warps_issue_stalled_short_scoreboard.sum',
  'smsp__warps_issue_stalled_sleeping.sum',
  'smsp__warps_issue_stalled_tex_throttle.sum',
  'smsp__warps_issue_stalled_wait.sum',
  'warpsight__l2_persisting_bytes_at_start',
  'warpsight__l2_persisting_line_hits',
  'warpsight__l2_persisting_prefetch_bytes',
  'warpsight__l2_reused_evicted_bytes',
  'warpsight__l2_size',
  'warpsight__l2_window_bytes',
  'warpsight__l2_window_hit_persisting',
  'warpsight__l2_window_hit_ratio',
  'warpsight__spin_polls',
  // memory synchronization domains (timing/model.ts): one of each per physical domain (sm_90: 4)
  ...[0, 1, 2, 3].flatMap((d) => [`warpsight__fence_wait_domain_${d}`, `warpsight__fence_wait_foreign_domain_${d}`, `warpsight__flush_wait_domain_${d}`]),
];

let known: ReadonlySet<string> | null = null;

/** every metric id Warpsight can emit or read */
export function knownMetricIds(): ReadonlySet<string> {
  known ??= new Set([...METRICS.map((m) => m.id), ...EMITTED]);
  return known;
}

/** Levenshtein distance, two rows */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const sub = (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      cur.push(Math.min(sub, (prev[j] as number) + 1, (cur[j - 1] as number) + 1));
    }
    prev = cur;
  }
  return prev[b.length] as number;
}

/** up to `n` candidates nearest to `text` by edit distance (ties in id order) */
export function nearest(text: string, candidates: Iterable<string>, n = 3): string[] {
  return [...new Set(candidates)]
    .map((c) => ({ c, d: editDistance(text, c) }))
    .sort((x, y) => x.d - y.d || (x.c < y.c ? -1 : 1))
    .slice(0, n)
    .map((x) => x.c);
}

/** `*` matches any run of characters; everything else literally */
export function metricPattern(pattern: string): RegExp {
  return new RegExp(`^${pattern.split('*').map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
}

/**
 * Throws a UserError (exit 2) for an id (or `*` pattern) that names no known metric: `where` says
 * which input (`--threshold x=1`, `suite.json: /thresholds/x`), and the message suggests the nearest
 * ids. `also` adds ids known in context (those of the reports being compared); `patterns` false takes
 * `*` literally (`--metrics` names exact ids).
 */
export function checkMetricId(id: string, where: string, also: Iterable<string> = [], patterns = true): void {
  const ids = new Set([...knownMetricIds(), ...also]);
  if (patterns && id.includes('*')) {
    const re = metricPattern(id);
    if ([...ids].some((k) => re.test(k))) return;
    // suggest patterns: the literal head of the pattern against the heads of known ids
    const head = id.slice(0, id.indexOf('*'));
    const heads = [...ids].map((k) => `${k.slice(0, Math.max(head.length, 1))}*`);
    throw new UserError(`${where}: the pattern '${id}' matches no metric Warpsight knows; did you mean ${quoteList(nearest(`${head}*`, heads))}?`);
  }
  if (ids.has(id)) return;
  throw new UserError(`${where}: unknown metric '${id}'; did you mean ${quoteList(nearest(id, ids))}? (\`warpsight profile <file> --json\` lists every id)`);
}

function quoteList(list: readonly string[]): string {
  const q = list.map((s) => `'${s}'`);
  return q.length <= 1 ? (q[0] ?? 'another id') : `${q.slice(0, -1).join(', ')} or ${q[q.length - 1] ?? ''}`;
}
