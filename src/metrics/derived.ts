/**
 * Derived metrics: the ncu ids that ncu computes from other counters (ratios, per-cycle rates,
 * hit rates, percentages of peak), computed here from the emulator's raw counters.
 *
 * Each derivation is data: an output id, the input ids and a pure function of their values.
 * Derivations run in list order, so a later one may use an earlier one's output; a metric the raw
 * counters already hold is never overwritten (measured beats derived), and several derivations of
 * one id act as fallbacks: the first whose inputs exist wins.
 *
 * A ratio whose denominator is 0 is 0, as ncu prints it (its section files wrap such ratios in
 * `nan_as_zero`; e.g. "L1TEX Hit Rate For Local Loads 0" for a kernel without local loads).
 */
import { STALL_REASONS, stallRatioMetric } from './sections.js';

export interface Derivation {
  readonly id: string;
  readonly inputs: readonly string[];
  /** values of `inputs`, in order; undefined when the result cannot be formed */
  readonly compute: (values: readonly number[]) => number | undefined;
}

const at = (values: readonly number[], i: number): number => values[i] ?? Number.NaN;

const safeDiv = (num: number, den: number): number => (den === 0 ? 0 : num / den);

/** `id = a / b` */
const ratio = (id: string, num: string, den: string): Derivation => ({
  id,
  inputs: [num, den],
  compute: (v) => safeDiv(at(v, 0), at(v, 1)),
});

/** `id = 100 · a / b` */
const percent = (id: string, num: string, den: string): Derivation => ({
  id,
  inputs: [num, den],
  compute: (v) => 100 * safeDiv(at(v, 0), at(v, 1)),
});

/** hit rate in % from a hit and a miss counter: hits / (hits + misses) */
const hitRate = (id: string, hit: string, miss: string): Derivation => ({
  id,
  inputs: [hit, miss],
  compute: (v) => 100 * safeDiv(at(v, 0), at(v, 0) + at(v, 1)),
});

const sum = (id: string, ...parts: string[]): Derivation => ({
  id,
  inputs: parts,
  compute: (v) => v.reduce((a, b) => a + b, 0),
});

const scaled = (id: string, input: string, factor: number): Derivation => ({
  id,
  inputs: [input],
  compute: (v) => at(v, 0) * factor,
});

/** copies a value under another id (ncu reports the same count under several names) */
const alias = (id: string, input: string): Derivation => scaled(id, input, 1);

/** bytes in a 32-byte sector; the same on every GPU ncu supports (Volta through Blackwell) */
const SECTOR_BYTES = 32;

const spaces = ['global', 'local'] as const;
const ops = ['ld', 'st'] as const;

const l1Access = spaces.flatMap((space) =>
  ops.flatMap((op): Derivation[] => {
    const base = `l1tex__t_sectors_pipe_lsu_mem_${space}_op_${op}`;
    const bps = `smsp__sass_average_data_bytes_per_sector_mem_${space}_op_${op}`;
    return [
      sum(`${base}.sum`, `${base}_lookup_hit.sum`, `${base}_lookup_miss.sum`),
      ratio(
        `l1tex__average_t_sectors_per_request_pipe_lsu_mem_${space}_op_${op}.ratio`,
        `${base}.sum`,
        `l1tex__t_requests_pipe_lsu_mem_${space}_op_${op}.sum`,
      ),
      hitRate(`l1tex__t_sector_pipe_lsu_mem_${space}_op_${op}_hit_rate.pct`, `${base}_lookup_hit.sum`, `${base}_lookup_miss.sum`),
      scaled(`l1tex__t_bytes_pipe_lsu_mem_${space}_op_${op}.sum`, `${base}.sum`, SECTOR_BYTES),
      // bytes the threads asked for per sector moved; SASS-patched counters first, else the
      // L1 tag-stage sectors (the same count when nothing hits in L1)
      ratio(`${bps}.ratio`, `smsp__sass_data_bytes_mem_${space}_op_${op}.sum`, `smsp__sass_sectors_mem_${space}_op_${op}.sum`),
      ratio(`${bps}.ratio`, `smsp__sass_data_bytes_mem_${space}_op_${op}.sum`, `${base}.sum`),
      { id: `${bps}.max_rate`, inputs: [`${bps}.ratio`], compute: () => SECTOR_BYTES },
    ];
  }),
);

const l2Access = (['read', 'write'] as const).flatMap((op): Derivation[] => {
  const base = `lts__t_sectors_srcunit_tex_op_${op}`;
  return [
    hitRate(`lts__t_sector_op_${op}_hit_rate.pct`, `lts__t_sectors_op_${op}_lookup_hit.sum`, `lts__t_sectors_op_${op}_lookup_miss.sum`),
    hitRate(`lts__t_sector_srcunit_tex_op_${op}_hit_rate.pct`, `${base}_lookup_hit.sum`, `${base}_lookup_miss.sum`),
    ratio(`lts__average_t_sectors_per_request_srcunit_tex_op_${op}.ratio`, `${base}.sum`, `lts__t_requests_srcunit_tex_op_${op}.sum`),
    scaled(`lts__t_bytes_srcunit_tex_op_${op}.sum`, `${base}.sum`, SECTOR_BYTES),
  ];
});

/**
 * The constituents of lts__throughput the emulator counts, each against its peak per slice and L2
 * cycle (`.sum.peak_sustained` is the peak of all slices). ncu's breakdown also has the return port
 * to the SMs (lts2xbar, at most 17 % in the probe); on the H200 the fabric interface was the top entry
 * in all eight launches of test/fidelity/probes/sol_breakdown_h200.csv.
 */
const L2_THROUGHPUT_PARTS = [
  'lts__ltcfabric2ltc_cycles_active',
  'lts__t_tag_requests',
  'lts__t_sectors',
  'lts__d_sectors',
  'lts__d_sectors_fill_device',
  'lts__xbar2lts_cycles_active',
] as const;

/**
 * Mem Busy: the busiest of the L1's data pipe and the L2's tag and data stages (the top entries of
 * gpu__compute_memory_access_throughput's breakdown in sol_breakdown_h200.csv: the tag requests for
 * g_ld_u32_stride32, the data pipe for the transposes' shared accesses, the data stage for coalesced
 * copies, the tag-stage sectors for g_st_u32_coalesced)
 */
export const MEM_BUSY_PARTS = ['l1tex__data_pipe_lsu_wavefronts', 'lts__t_tag_requests', 'lts__t_sectors', 'lts__d_sectors'] as const;

/**
 * Max Bandwidth: the busiest interface (the top entries of gpu__compute_memory_request_throughput's
 * breakdown in sol_breakdown_h200.csv: DRAM in five launches, the SMs' port into the L2 for the u32
 * copies and stores, the LSU's input for the shuffle reduction)
 */
export const MAX_BANDWIDTH_PARTS = ['gpu__dram_throughput', 'lts__xbar2lts_cycles_active', 'l1tex__lsuin_requests'] as const;

const l2PctOfPeak = (part: string): Derivation => ({
  id: `${part}.avg.pct_of_peak_sustained_elapsed`,
  inputs: [`${part}.sum`, `${part}.sum.peak_sustained`, 'lts__cycles_elapsed.avg'],
  compute: (v) => 100 * safeDiv(at(v, 0), at(v, 1) * at(v, 2)),
});

/** `<id>.avg.pct_of_peak_sustained_elapsed`: the max of its parts' (a roll-up throughput and its breakdown) */
const busiest = (id: string, parts: readonly string[]): Derivation => ({
  id: `${id}.avg.pct_of_peak_sustained_elapsed`,
  inputs: parts.map((p) => `${p}.avg.pct_of_peak_sustained_elapsed`),
  compute: (v) => Math.max(...v),
});

/** Every derivation, in dependency order. */
export const DERIVATIONS: readonly Derivation[] = [
  // --- launch ---
  {
    id: 'launch__thread_count',
    inputs: ['launch__grid_size', 'launch__block_size'],
    compute: (v) => at(v, 0) * at(v, 1),
  },
  {
    // resident warps per SM: the tightest block limit times the warps of one block
    id: 'sm__maximum_warps_avg_per_active_cycle',
    inputs: [
      'launch__occupancy_limit_blocks',
      'launch__occupancy_limit_registers',
      'launch__occupancy_limit_shared_mem',
      'launch__occupancy_limit_warps',
      'launch__block_size',
    ],
    compute: (v) => Math.min(at(v, 0), at(v, 1), at(v, 2), at(v, 3)) * Math.ceil(at(v, 4) / 32),
  },
  {
    // a wave is every block the GPU holds at once: SMs × blocks per SM
    id: 'launch__waves_per_multiprocessor',
    inputs: [
      'launch__grid_size',
      'launch__sm_count',
      'launch__occupancy_limit_blocks',
      'launch__occupancy_limit_registers',
      'launch__occupancy_limit_shared_mem',
      'launch__occupancy_limit_warps',
    ],
    compute: (v) => {
      const perSm = Math.min(at(v, 2), at(v, 3), at(v, 4), at(v, 5));
      return perSm > 0 ? at(v, 0) / (at(v, 1) * perSm) : undefined;
    },
  },
  // --- warps and occupancy ---
  alias('sm__warps_active.avg.peak_sustained', 'device__attribute_max_warps_per_multiprocessor'),
  alias('smsp__warps_active.avg.peak_sustained', 'device__attribute_max_warps_per_scheduler'),
  // a report without that attribute (the emulator's device attributes do not list it): the SM's
  // warps over its schedulers, 64 / 4 = 16 on the H200 as ncu reports it. Without it the
  // TheoreticalOccupancy and IssueSlotUtilization rules could never fire
  ratio('smsp__warps_active.avg.peak_sustained', 'device__attribute_max_warps_per_multiprocessor', 'device__attribute_num_schedulers_per_multiprocessor'),
  ratio('smsp__maximum_warps_avg_per_active_cycle', 'sm__maximum_warps_avg_per_active_cycle', 'device__attribute_num_schedulers_per_multiprocessor'),
  percent('sm__maximum_warps_per_active_cycle_pct', 'sm__maximum_warps_avg_per_active_cycle', 'sm__warps_active.avg.peak_sustained'),
  ratio('sm__warps_active.avg.per_cycle_active', 'sm__warps_active.sum', 'sm__cycles_active.sum'),
  percent('sm__warps_active.avg.pct_of_peak_sustained_active', 'sm__warps_active.avg.per_cycle_active', 'sm__warps_active.avg.peak_sustained'),
  ratio('smsp__warps_active.avg.per_cycle_active', 'smsp__warps_active.sum', 'smsp__cycles_active.sum'),
  ratio('smsp__warps_eligible.avg.per_cycle_active', 'smsp__warps_eligible.sum', 'smsp__cycles_active.sum'),
  // --- issue ---
  ratio('smsp__issue_active.avg.per_cycle_active', 'smsp__issue_active.sum', 'smsp__cycles_active.sum'),
  // a scheduler issues at most one instruction per cycle, so the rate is also the fraction of peak
  scaled('smsp__issue_active.avg.pct_of_peak_sustained_active', 'smsp__issue_active.avg.per_cycle_active', 100),
  {
    id: 'smsp__issue_inst0.avg.pct_of_peak_sustained_active',
    inputs: ['smsp__issue_active.avg.pct_of_peak_sustained_active'],
    compute: (v) => 100 - at(v, 0),
  },
  // average warps resident per issued (executed) instruction = cycles between two instructions
  ratio('smsp__average_warp_latency_per_inst_issued.ratio', 'smsp__warps_active.sum', 'smsp__inst_issued.sum'),
  ratio('smsp__average_warps_active_per_inst_executed.ratio', 'smsp__warps_active.sum', 'smsp__inst_executed.sum'),
  ...STALL_REASONS.map(({ key }) =>
    ratio(stallRatioMetric(key), `smsp__warps_issue_stalled_${key}.sum`, 'smsp__issue_active.sum'),
  ),
  // --- instructions ---
  alias('sm__inst_executed.sum', 'smsp__inst_executed.sum'),
  alias('sm__inst_issued.sum', 'smsp__inst_issued.sum'),
  ratio('sm__inst_executed.avg.per_cycle_active', 'sm__inst_executed.sum', 'sm__cycles_active.sum'),
  ratio('sm__inst_executed.avg.per_cycle_elapsed', 'sm__inst_executed.sum', 'sm__cycles_elapsed.sum'),
  ratio('sm__inst_issued.avg.per_cycle_active', 'sm__inst_issued.sum', 'sm__cycles_active.sum'),
  // SM Busy: the busiest of the SM's instruction pipes and its issue slots; the issue slots were the top
  // entry of the breakdown in all eight launches of test/fidelity/probes/sol_breakdown_h200.csv, an
  // FMA loop at 84 % included
  alias('sm__instruction_throughput.avg.pct_of_peak_sustained_elapsed', 'sm__inst_issued.avg.pct_of_peak_sustained_elapsed'),
  {
    id: 'smsp__inst_executed.avg',
    inputs: ['smsp__inst_executed.sum', 'device__attribute_multiprocessor_count', 'device__attribute_num_schedulers_per_multiprocessor'],
    compute: (v) => safeDiv(at(v, 0), at(v, 1) * at(v, 2)),
  },
  {
    id: 'smsp__inst_issued.avg',
    inputs: ['smsp__inst_issued.sum', 'device__attribute_multiprocessor_count', 'device__attribute_num_schedulers_per_multiprocessor'],
    compute: (v) => safeDiv(at(v, 0), at(v, 1) * at(v, 2)),
  },
  ratio('smsp__thread_inst_executed_per_inst_executed.ratio', 'smsp__thread_inst_executed.sum', 'smsp__inst_executed.sum'),
  ratio('smsp__thread_inst_executed_pred_on_per_inst_executed.ratio', 'smsp__thread_inst_executed_pred_on.sum', 'smsp__inst_executed.sum'),
  // the kernel-wide totals of the source metrics give the same two ratios
  ratio('smsp__thread_inst_executed_per_inst_executed.ratio', 'thread_inst_executed', 'inst_executed'),
  ratio('smsp__thread_inst_executed_pred_on_per_inst_executed.ratio', 'thread_inst_executed_true', 'inst_executed'),
  // --- branches ---
  // a fraction although ncu's label says %: SourceCounters.section divides without × 100
  ratio('derived__smsp__inst_executed_op_branch_pct', 'smsp__inst_executed_op_branch.sum', 'smsp__inst_executed.sum'),
  percent('smsp__sass_average_branch_targets_threads_uniform.pct', 'smsp__sass_branch_targets_threads_uniform.sum', 'smsp__sass_branch_targets.sum'),
  {
    id: 'smsp__sass_branch_targets_threads_divergent.avg',
    inputs: ['smsp__sass_branch_targets_threads_divergent.sum', 'device__attribute_multiprocessor_count', 'device__attribute_num_schedulers_per_multiprocessor'],
    compute: (v) => safeDiv(at(v, 0), at(v, 1) * at(v, 2)),
  },
  // --- L1/TEX ---
  ...l1Access,
  hitRate('l1tex__t_sector_hit_rate.pct', 'l1tex__t_sectors_lookup_hit.sum', 'l1tex__t_sectors_lookup_miss.sum'),
  // the data pipe is the one L1TEX constituent the model counts
  alias('l1tex__throughput.avg.pct_of_peak_sustained_elapsed', 'l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_elapsed'),
  // --- shared memory ---
  // ATOMS count in the shared total (test/fidelity/probes/cudaparts: satom, 34 = 1 LDS + 32 STS + 1 ATOMS)
  sum('smsp__sass_inst_executed_op_shared.sum', 'smsp__sass_inst_executed_op_shared_ld.sum', 'smsp__sass_inst_executed_op_shared_st.sum', 'smsp__sass_inst_executed_op_shared_atom.sum'),
  sum('smsp__sass_inst_executed_op_shared.sum', 'smsp__sass_inst_executed_op_shared_ld.sum', 'smsp__sass_inst_executed_op_shared_st.sum'),
  sum('l1tex__data_pipe_lsu_wavefronts_mem_shared.sum', 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum', 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum'),
  sum('l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum', 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum', 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum'),
  // --- L2 ---
  ...l2Access,
  sum('lts__t_sectors.sum', 'lts__t_sectors_lookup_hit.sum', 'lts__t_sectors_lookup_miss.sum'),
  hitRate('lts__t_sector_hit_rate.pct', 'lts__t_sectors_lookup_hit.sum', 'lts__t_sectors_lookup_miss.sum'),
  ratio('lts__average_t_sectors_per_request.ratio', 'lts__t_sectors.sum', 'lts__t_requests.sum'),
  scaled('lts__t_bytes.sum', 'lts__t_sectors.sum', SECTOR_BYTES),
  // ncu counts each tag lookup as a request
  alias('lts__t_tag_requests.sum', 'lts__t_requests.sum'),
  ...L2_THROUGHPUT_PARTS.map(l2PctOfPeak),
  // the busiest sub-unit: lts__throughput is the max of its breakdown
  busiest('lts__throughput', L2_THROUGHPUT_PARTS),
  busiest('gpu__compute_memory_access_throughput', MEM_BUSY_PARTS),
  busiest('gpu__compute_memory_request_throughput', MAX_BANDWIDTH_PARTS),
  // Memory Throughput: the busier of Mem Busy and Max Bandwidth (the breakdown's two halves)
  busiest('gpu__compute_memory_throughput', ['gpu__compute_memory_access_throughput', 'gpu__compute_memory_request_throughput']),
  // --- DRAM ---
  scaled('dram__bytes_read.sum', 'dram__sectors_read.sum', SECTOR_BYTES),
  scaled('dram__bytes_write.sum', 'dram__sectors_write.sum', SECTOR_BYTES),
  sum('dram__sectors.sum', 'dram__sectors_read.sum', 'dram__sectors_write.sum'),
  sum('dram__bytes.sum', 'dram__bytes_read.sum', 'dram__bytes_write.sum'),
  ...['dram__bytes_read.sum', 'dram__bytes_write.sum', 'dram__bytes.sum'].map(
    (bytes): Derivation => ({
      id: `${bytes}.per_second`,
      inputs: [bytes, 'gpu__time_duration.sum'],
      compute: (v) => (at(v, 1) > 0 ? (at(v, 0) * 1e9) / at(v, 1) : undefined),
    }),
  ),
];

const numeric = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/**
 * The metrics derivable from `raw` that `raw` does not already hold. Pure; skips what cannot be
 * derived. Merge with `{ ...raw, ...deriveMetrics(raw) }`.
 */
export function deriveMetrics(raw: Readonly<Record<string, unknown>>): Record<string, number> {
  const known = new Map<string, number>();
  for (const [id, value] of Object.entries(raw)) {
    const n = numeric(value);
    if (n !== undefined) known.set(id, n);
  }
  const derived: Record<string, number> = {};
  for (const d of DERIVATIONS) {
    if (known.has(d.id) || d.id in raw) continue;
    const values: number[] = [];
    for (const input of d.inputs) {
      const v = known.get(input);
      if (v === undefined) break;
      values.push(v);
    }
    if (values.length !== d.inputs.length) continue;
    const out = d.compute(values);
    if (out === undefined || !Number.isFinite(out)) continue;
    known.set(d.id, out);
    derived[d.id] = out;
  }
  return derived;
}

/** `raw` plus everything derivable from it. */
export function withDerivedMetrics<T>(raw: Readonly<Record<string, T>>): Record<string, T | number> {
  return { ...raw, ...deriveMetrics(raw) };
}
