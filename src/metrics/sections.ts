/**
 * Nsight Compute sections as data, after ncu's `.section` files (`sections/*.section` in NVIDIA's
 * stock folder, see ../shared/reference/nsight-compute.md §1). A section names metrics by their ncu
 * id with the label ncu prints; renderers print whichever of them a kernel's `metrics` holds, so a
 * section fills in as the emulator learns to count more, and adding a metric here touches no
 * renderer.
 *
 * Units are the ncu *base* units (as in `--print-units base` / the raw CSV's unit row); renderers
 * auto-scale them. They live here until the metric registry owns units: ncu's section files take
 * units from the metric, and so will we.
 */

/** One labelled metric, as a `Metrics { Label Name }` entry of a section file. */
export interface MetricEntry {
  /** ncu metric id, e.g. `launch__registers_per_thread` */
  readonly metric: string;
  /** label ncu prints, e.g. `Registers Per Thread` */
  readonly label: string;
  /** ncu base unit (`byte`, `ns`, `hz`, `cycle`, `%`, `inst`, ...); empty for unitless */
  readonly unit?: string;
  /**
   * the section file's arch `Filter`: compute capabilities (major·10 + minor, 90 for 9.0) the entry
   * applies to, as inclusive ranges; absent = every arch. Lets one label name the metric each
   * generation has (L2 compression is `lts__gcomp_*` on CC 8.x and `lrc__ilc_*` on CC 9.0).
   */
  readonly arch?: readonly ArchRange[];
}

export interface ArchRange {
  readonly min?: number;
  readonly max?: number;
}

/** "9.0" → 90, the number ncu's section filters compare */
export function ccNumber(cc: string): number | undefined {
  const m = /^(\d+)\.(\d+)$/.exec(cc.trim());
  return m ? Number(m[1]) * 10 + Number(m[2]) : undefined;
}

/** Whether an entry applies on a device of compute capability `cc` (unknown cc: every entry). */
export function appliesTo(entry: MetricEntry, cc: number | undefined): boolean {
  if (entry.arch === undefined || cc === undefined) return true;
  return entry.arch.some((r) => (r.min === undefined || cc >= r.min) && (r.max === undefined || cc <= r.max));
}

/** A body table of label / unit / value rows (how ncu's CLI prints body charts and tables). */
export interface MetricsTable {
  readonly kind: 'metrics';
  readonly label: string;
  readonly entries: readonly MetricEntry[];
  /** ncu's `SortKey`: by metric id (its default for tables) or by value, largest first */
  readonly sort?: 'id' | 'value-desc';
}

export interface GridColumn {
  readonly label: string;
  /** base unit of every cell in the column */
  readonly unit?: string;
  /** print the (scaled) unit after each value: wanted where it varies, e.g. `134.22 Mbyte` */
  readonly showUnit?: boolean;
}

export interface GridRow {
  readonly label: string;
  /** one metric id per column; null where ncu's table leaves the cell empty */
  readonly cells: readonly (string | null)[];
}

/** A rows × columns table like the Memory Tables of ncu's UI (Shared Memory, L1/TEX Cache, ...). */
export interface GridTable {
  readonly kind: 'grid';
  readonly label: string;
  /** heading of the row-label column */
  readonly rowHeader: string;
  readonly columns: readonly GridColumn[];
  readonly rows: readonly GridRow[];
}

export type BodyTable = MetricsTable | GridTable;

/** A section file's `Body { DisplayName Items }`. */
export interface BodyGroup {
  readonly name?: string;
  readonly tables: readonly BodyTable[];
}

export interface SectionDef {
  /** ncu section identifier (`--section LaunchStats`) */
  readonly id: string;
  /** display name (`Section: Launch Statistics`) */
  readonly name: string;
  /** ncu's `Order:` field: sections print in this order */
  readonly order: number;
  /** printed by default */
  readonly header: readonly MetricEntry[];
  /** the section file's hidden `Metrics`: printed only with all details */
  readonly metrics?: readonly MetricEntry[];
  /** body tables: printed with body details */
  readonly body?: readonly BodyGroup[];
}

const SPEED_OF_LIGHT: SectionDef = {
  id: 'SpeedOfLight',
  name: 'GPU Speed Of Light Throughput',
  order: 10,
  header: [
    { metric: 'sm__throughput.avg.pct_of_peak_sustained_elapsed', label: 'Compute (SM) Throughput', unit: '%' },
    { metric: 'gpu__time_duration.sum', label: 'Duration', unit: 'ns' },
    { metric: 'gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed', label: 'Memory Throughput', unit: '%' },
    { metric: 'gpc__cycles_elapsed.max', label: 'Elapsed Cycles', unit: 'cycle' },
    { metric: 'l1tex__throughput.avg.pct_of_peak_sustained_active', label: 'L1/TEX Cache Throughput', unit: '%' },
    { metric: 'sm__cycles_active.avg', label: 'SM Active Cycles', unit: 'cycle' },
    { metric: 'lts__throughput.avg.pct_of_peak_sustained_elapsed', label: 'L2 Cache Throughput', unit: '%' },
    { metric: 'gpc__cycles_elapsed.avg.per_second', label: 'SM Frequency', unit: 'hz' },
    { metric: 'gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed', label: 'DRAM Throughput', unit: '%' },
    { metric: 'dram__cycles_elapsed.avg.per_second', label: 'DRAM Frequency', unit: 'hz' },
  ],
  metrics: [{ metric: 'launch__waves_per_multiprocessor', label: 'Waves Per SM' }],
  body: [
    {
      name: 'GPU Throughput Chart',
      tables: [
        {
          kind: 'metrics',
          label: 'GPU Throughput',
          entries: [
            { metric: 'sm__throughput.avg.pct_of_peak_sustained_elapsed', label: 'Compute (SM) [%]', unit: '%' },
            { metric: 'gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed', label: 'Memory [%]', unit: '%' },
          ],
        },
      ],
    },
  ],
};

const COMPUTE_WORKLOAD: SectionDef = {
  id: 'ComputeWorkloadAnalysis',
  name: 'Compute Workload Analysis',
  order: 20,
  header: [
    { metric: 'sm__inst_executed.avg.per_cycle_elapsed', label: 'Executed Ipc Elapsed', unit: 'inst/cycle' },
    { metric: 'sm__instruction_throughput.avg.pct_of_peak_sustained_elapsed', label: 'SM Busy', unit: '%' },
    { metric: 'sm__inst_executed.avg.per_cycle_active', label: 'Executed Ipc Active', unit: 'inst/cycle' },
    { metric: 'sm__inst_issued.avg.pct_of_peak_sustained_elapsed', label: 'Issue Slots Busy', unit: '%' },
    { metric: 'sm__inst_issued.avg.per_cycle_active', label: 'Issued Ipc Active', unit: 'inst/cycle' },
  ],
  metrics: [
    { metric: 'sm__inst_issued.max.pct_of_peak_sustained_elapsed', label: 'Max. Issued Slots Busy', unit: '%' },
  ],
};

/** where MemoryWorkloadAnalysis.section reads L2 compression from lts__gcomp_* / lrc__ilc_* */
const GCOMP_ARCHS: readonly ArchRange[] = [{ min: 80, max: 89 }, { min: 110 }];
const LRC_ARCHS: readonly ArchRange[] = [{ min: 90, max: 103 }];

const MEMORY_WORKLOAD: SectionDef = {
  id: 'MemoryWorkloadAnalysis',
  name: 'Memory Workload Analysis',
  order: 30,
  header: [
    { metric: 'dram__bytes.sum.per_second', label: 'Memory Throughput', unit: 'byte/s' },
    { metric: 'gpu__compute_memory_access_throughput.avg.pct_of_peak_sustained_elapsed', label: 'Mem Busy', unit: '%' },
    { metric: 'l1tex__t_sector_hit_rate.pct', label: 'L1/TEX Hit Rate', unit: '%' },
    { metric: 'gpu__compute_memory_request_throughput.avg.pct_of_peak_sustained_elapsed', label: 'Max Bandwidth', unit: '%' },
    { metric: 'lts__t_sector_hit_rate.pct', label: 'L2 Hit Rate', unit: '%' },
    { metric: 'sm__memory_throughput.avg.pct_of_peak_sustained_elapsed', label: 'Mem Pipes Busy', unit: '%' },
    // L2 compression: lts__gcomp_* before Hopper and after, lrc__ilc_* on CC 9.0 / 10.x (the
    // section file's per-arch Options)
    { metric: 'lts__gcomp_input_sectors.sum', label: 'L2 Compression Input Sectors', unit: 'sector', arch: GCOMP_ARCHS },
    { metric: 'lrc__ilc_input_sectors.sum', label: 'L2 Compression Input Sectors', unit: 'sector', arch: LRC_ARCHS },
    { metric: 'derived__local_spilling_requests', label: 'Local Memory Spilling Requests' },
    { metric: 'lts__average_gcomp_output_sector_compression_achieved_rate.ratio', label: 'L2 Compression Ratio', arch: GCOMP_ARCHS },
    { metric: 'lrc__average_ilc_output_sector_compression_achieved_rate.pct', label: 'L2 Compression Ratio', unit: '%', arch: LRC_ARCHS },
    { metric: 'derived__local_spilling_requests_pct', label: 'Local Memory Spilling Request Overhead', unit: '%' },
    { metric: 'lts__average_gcomp_input_sector_success_rate.pct', label: 'L2 Compression Success Rate', unit: '%', arch: GCOMP_ARCHS },
    { metric: 'lrc__average_ilc_input_sector_success_rate.pct', label: 'L2 Compression Success Rate', unit: '%', arch: LRC_ARCHS },
    { metric: 'launch__persisting_l2_cache_size', label: 'L2 Persisting Size', unit: 'byte' },
  ],
  metrics: [{ metric: 'inst_executed', label: 'Instructions Executed', unit: 'inst' }],
};

/** space × op pairs of the L1/TEX table, in ncu's row order */
const L1_ACCESSES = [
  ['Global Load', 'global', 'ld', 'global_ld'],
  ['Global Store', 'global', 'st', 'global_st'],
  ['Local Load', 'local', 'ld', 'local_ld'],
  ['Local Store', 'local', 'st', 'local_st'],
] as const;

const SHARED_MEMORY_TABLE: GridTable = {
  kind: 'grid',
  label: 'Shared Memory',
  rowHeader: 'Access',
  columns: [
    { label: 'Instructions', unit: 'inst' },
    // sm_70+: every LSU instruction is exactly one request, so ncu's Requests column repeats it
    { label: 'Requests', unit: 'inst' },
    { label: 'Wavefronts' },
    { label: '% Peak', unit: '%' },
    { label: 'Bank Conflicts' },
  ],
  rows: [
    ...(['ld', 'st'] as const).map((op) => ({
      label: op === 'ld' ? 'Shared Load' : 'Shared Store',
      cells: [
        `smsp__sass_inst_executed_op_shared_${op}.sum`,
        `smsp__sass_inst_executed_op_shared_${op}.sum`,
        `l1tex__data_pipe_lsu_wavefronts_mem_shared_op_${op}.sum`,
        `l1tex__data_pipe_lsu_wavefronts_mem_shared_op_${op}.sum.pct_of_peak_sustained_elapsed`,
        `l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_${op}.sum`,
      ],
    })),
    {
      label: 'Total',
      cells: [
        'smsp__sass_inst_executed_op_shared.sum',
        'smsp__sass_inst_executed_op_shared.sum',
        'l1tex__data_pipe_lsu_wavefronts_mem_shared.sum',
        'l1tex__data_pipe_lsu_wavefronts_mem_shared.sum.pct_of_peak_sustained_elapsed',
        'l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum',
      ],
    },
  ],
};

const L1TEX_TABLE: GridTable = {
  kind: 'grid',
  label: 'L1/TEX Cache',
  rowHeader: 'Access',
  columns: [
    { label: 'Instructions', unit: 'inst' },
    { label: 'Requests' },
    { label: 'Wavefronts' },
    { label: 'Sectors', unit: 'sector' },
    { label: 'Sectors/Req' },
    { label: 'Hit Rate', unit: '%', showUnit: true },
    { label: 'Bytes', unit: 'byte', showUnit: true },
    { label: 'Sector Misses to L2', unit: 'sector' },
  ],
  rows: L1_ACCESSES.map(([label, space, op, spaceOp]) => ({
    label,
    cells: [
      `smsp__sass_inst_executed_op_${spaceOp}.sum`,
      `l1tex__t_requests_pipe_lsu_mem_${space}_op_${op}.sum`,
      `l1tex__t_output_wavefronts_pipe_lsu_mem_${space}_op_${op}.sum`,
      `l1tex__t_sectors_pipe_lsu_mem_${space}_op_${op}.sum`,
      `l1tex__average_t_sectors_per_request_pipe_lsu_mem_${space}_op_${op}.ratio`,
      `l1tex__t_sector_pipe_lsu_mem_${space}_op_${op}_hit_rate.pct`,
      `l1tex__t_bytes_pipe_lsu_mem_${space}_op_${op}.sum`,
      `l1tex__t_sectors_pipe_lsu_mem_${space}_op_${op}_lookup_miss.sum`,
    ],
  })),
};

const L2_TABLE: GridTable = {
  kind: 'grid',
  label: 'L2 Cache',
  rowHeader: 'Access',
  columns: [
    { label: 'Requests' },
    { label: 'Sectors', unit: 'sector' },
    { label: 'Sectors/Req' },
    { label: 'Hit Rate', unit: '%', showUnit: true },
    { label: 'Bytes', unit: 'byte', showUnit: true },
    { label: 'Sector Misses to Device', unit: 'sector' },
  ],
  rows: [
    ...(['read', 'write'] as const).map((op) => ({
      label: op === 'read' ? 'L1/TEX Load' : 'L1/TEX Store',
      cells: [
        `lts__t_requests_srcunit_tex_op_${op}.sum`,
        `lts__t_sectors_srcunit_tex_op_${op}.sum`,
        `lts__average_t_sectors_per_request_srcunit_tex_op_${op}.ratio`,
        `lts__t_sector_srcunit_tex_op_${op}_hit_rate.pct`,
        `lts__t_bytes_srcunit_tex_op_${op}.sum`,
        `lts__t_sectors_srcunit_tex_aperture_device_op_${op}_lookup_miss.sum`,
      ],
    })),
    {
      label: 'L1/TEX Total',
      cells: [
        'lts__t_requests_srcunit_tex.sum',
        'lts__t_sectors_srcunit_tex.sum',
        'lts__average_t_sectors_per_request_srcunit_tex.ratio',
        'lts__t_sector_srcunit_tex_hit_rate.pct',
        'lts__t_bytes_srcunit_tex.sum',
        'lts__t_sectors_srcunit_tex_aperture_device_lookup_miss.sum',
      ],
    },
    {
      label: 'GPU Total',
      cells: [
        'lts__t_requests.sum',
        'lts__t_sectors.sum',
        'lts__average_t_sectors_per_request.ratio',
        'lts__t_sector_hit_rate.pct',
        'lts__t_bytes.sum',
        'lts__t_sectors_aperture_device_lookup_miss.sum',
      ],
    },
  ],
};

/** GA100+ eviction-policy table; its cells are the lookup hit / miss counters ncu collects for it */
const L2_EVICT_POLICY_TABLE: GridTable = {
  kind: 'grid',
  label: 'L2 Cache Eviction Policies',
  rowHeader: 'Access',
  columns: ['First', 'Last', 'Normal', 'Normal Demote'].flatMap((policy) => [
    { label: `${policy} Hit`, unit: 'sector' },
    { label: `${policy} Miss`, unit: 'sector' },
  ]),
  rows: (
    [
      ['L1/TEX Total', 'srcunit_tex_'],
      ['L2 Fabric Total', 'srcunit_ltcfabric_'],
      ['GPU Total', ''],
    ] as const
  ).map(([label, src]) => ({
    label,
    cells: ['first', 'last', 'normal', 'normal_demote'].flatMap((policy) => [
      `lts__t_sectors_${src}evict_${policy}_lookup_hit.sum`,
      `lts__t_sectors_${src}evict_${policy}_lookup_miss.sum`,
    ]),
  })),
};

const DEVICE_MEMORY_TABLE: GridTable = {
  kind: 'grid',
  label: 'Device Memory',
  rowHeader: 'Access',
  columns: [
    { label: 'Sectors', unit: 'sector' },
    { label: '% Peak', unit: '%', showUnit: true },
    { label: 'Bytes', unit: 'byte', showUnit: true },
    { label: 'Throughput', unit: 'byte/s', showUnit: true },
  ],
  rows: [
    ...(['read', 'write'] as const).map((op) => ({
      label: op === 'read' ? 'Load' : 'Store',
      cells: [
        `dram__sectors_${op}.sum`,
        `dram__bytes_${op}.sum.pct_of_peak_sustained_elapsed`,
        `dram__bytes_${op}.sum`,
        `dram__bytes_${op}.sum.per_second`,
      ],
    })),
    {
      label: 'Total',
      cells: ['dram__sectors.sum', 'dram__bytes.sum.pct_of_peak_sustained_elapsed', 'dram__bytes.sum', 'dram__bytes.sum.per_second'],
    },
  ],
};

const MEMORY_TABLES: SectionDef = {
  id: 'MemoryWorkloadAnalysis_Tables',
  name: 'Memory Workload Analysis Tables',
  order: 32,
  // the section file has no Header: on the console only its rules and (with body) its tables print
  header: [],
  metrics: [
    ...(['global', 'local'] as const).flatMap((space) =>
      (['ld', 'st'] as const).flatMap((op) => {
        const what = `${space === 'global' ? 'Global' : 'Local'} ${op === 'ld' ? 'Loads' : 'Stores'}`;
        return [
          {
            metric: `smsp__sass_average_data_bytes_per_sector_mem_${space}_op_${op}.ratio`,
            label: `Average Bytes Per Sector For ${what}`,
            unit: 'byte/sector',
          },
          {
            metric: `smsp__sass_average_data_bytes_per_sector_mem_${space}_op_${op}.max_rate`,
            label: `Maximum Bytes Per Sector For ${what}`,
            unit: 'byte/sector',
          },
          {
            metric: `l1tex__t_sector_pipe_lsu_mem_${space}_op_${op}_hit_rate.pct`,
            label: `L1TEX Hit Rate For ${what}`,
            unit: '%',
          },
        ];
      }),
    ),
    { metric: 'lts__t_sector_op_read_hit_rate.pct', label: 'L2 Hit Rate For Loads', unit: '%' },
    { metric: 'lts__t_sector_op_write_hit_rate.pct', label: 'L2 Hit Rate For Stores', unit: '%' },
    { metric: 'l1tex__throughput.avg.pct_of_peak_sustained_elapsed', label: 'L1TEX Throughput', unit: '%' },
    { metric: 'lts__throughput.avg.pct_of_peak_sustained_elapsed', label: 'L2 Throughput', unit: '%' },
    { metric: 'gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed', label: 'DRAM Throughput', unit: '%' },
  ],
  body: [
    {
      name: 'Memory Tables',
      tables: [SHARED_MEMORY_TABLE, L1TEX_TABLE, L2_TABLE, L2_EVICT_POLICY_TABLE, DEVICE_MEMORY_TABLE],
    },
  ],
};

const SCHEDULER_STATS: SectionDef = {
  id: 'SchedulerStats',
  name: 'Scheduler Statistics',
  order: 40,
  header: [
    { metric: 'smsp__issue_active.avg.pct_of_peak_sustained_active', label: 'One or More Eligible', unit: '%' },
    { metric: 'smsp__issue_active.avg.per_cycle_active', label: 'Issued Warp Per Scheduler' },
    { metric: 'smsp__issue_inst0.avg.pct_of_peak_sustained_active', label: 'No Eligible', unit: '%' },
    { metric: 'smsp__warps_active.avg.per_cycle_active', label: 'Active Warps Per Scheduler', unit: 'warp' },
    { metric: 'smsp__warps_eligible.avg.per_cycle_active', label: 'Eligible Warps Per Scheduler', unit: 'warp' },
  ],
  metrics: [
    { metric: 'smsp__maximum_warps_avg_per_active_cycle', label: 'Theoretical Active Warps Per Scheduler', unit: 'warp' },
  ],
  body: [
    {
      tables: [
        {
          kind: 'metrics',
          label: 'Warps Per Scheduler',
          entries: [
            { metric: 'smsp__maximum_warps_avg_per_active_cycle', label: 'Theoretical Warps Per Scheduler', unit: 'warp' },
            { metric: 'smsp__warps_active.avg.peak_sustained', label: 'GPU Maximum Warps Per Scheduler', unit: 'warp' },
            { metric: 'smsp__warps_active.avg.per_cycle_active', label: 'Active Warps Per Scheduler', unit: 'warp' },
            { metric: 'smsp__warps_eligible.avg.per_cycle_active', label: 'Eligible Warps Per Scheduler', unit: 'warp' },
            { metric: 'smsp__issue_active.avg.per_cycle_active', label: 'Issued Warp Per Scheduler' },
          ],
        },
      ],
    },
  ],
};

/**
 * Warp stall reasons: the key in `smsp__average_warps_issue_stalled_<key>_per_issue_active.ratio`
 * and the chart label of the Warp State Statistics section.
 */
export const STALL_REASONS: readonly { readonly key: string; readonly label: string }[] = [
  { key: 'drain', label: 'Stall Drain' },
  { key: 'imc_miss', label: 'Stall IMC Miss' },
  { key: 'barrier', label: 'Stall Barrier' },
  { key: 'gmma', label: 'Stall GMMA' },
  { key: 'branch_resolving', label: 'Stall Branch Resolving' },
  { key: 'membar', label: 'Stall Membar' },
  { key: 'short_scoreboard', label: 'Stall Short Scoreboard' },
  { key: 'sleeping', label: 'Stall Sleeping' },
  { key: 'wait', label: 'Stall Wait' },
  { key: 'no_instruction', label: 'Stall No Instruction' },
  { key: 'math_pipe_throttle', label: 'Stall Math Pipe Throttle' },
  { key: 'tex_throttle', label: 'Stall Tex Throttle' },
  { key: 'lg_throttle', label: 'Stall LG Throttle' },
  { key: 'dispatch_stall', label: 'Stall Dispatch Stall' },
  { key: 'misc', label: 'Stall Misc' },
  { key: 'not_selected', label: 'Stall Not Selected' },
  { key: 'selected', label: 'Selected' },
  { key: 'long_scoreboard', label: 'Stall Long Scoreboard' },
  { key: 'mio_throttle', label: 'Stall MIO Throttle' },
];

export const stallRatioMetric = (key: string): string =>
  `smsp__average_warps_issue_stalled_${key}_per_issue_active.ratio`;

const WARP_STATE_STATS: SectionDef = {
  id: 'WarpStateStats',
  name: 'Warp State Statistics',
  order: 50,
  header: [
    { metric: 'smsp__average_warp_latency_per_inst_issued.ratio', label: 'Warp Cycles Per Issued Instruction', unit: 'cycle' },
    { metric: 'smsp__thread_inst_executed_per_inst_executed.ratio', label: 'Avg. Active Threads Per Warp' },
    { metric: 'smsp__average_warps_active_per_inst_executed.ratio', label: 'Warp Cycles Per Executed Instruction', unit: 'cycle' },
    { metric: 'smsp__thread_inst_executed_pred_on_per_inst_executed.ratio', label: 'Avg. Not Predicated Off Threads Per Warp' },
  ],
  metrics: [{ metric: 'smsp__issue_active.avg.per_cycle_active', label: 'Issued Warp Per Scheduler' }],
  body: [
    {
      tables: [
        {
          kind: 'metrics',
          label: 'Warp State (All Cycles)',
          sort: 'value-desc',
          // ncu prints these ratios with the unit "inst" (sic)
          entries: STALL_REASONS.map(({ key, label }) => ({ metric: stallRatioMetric(key), label, unit: 'inst' })),
        },
      ],
    },
  ],
};

const INSTRUCTION_STATS: SectionDef = {
  id: 'InstructionStats',
  name: 'Instruction Statistics',
  order: 60,
  header: [
    { metric: 'smsp__inst_executed.sum', label: 'Executed Instructions', unit: 'inst' },
    { metric: 'smsp__inst_executed.avg', label: 'Avg. Executed Instructions Per Scheduler', unit: 'inst' },
    { metric: 'smsp__inst_issued.sum', label: 'Issued Instructions', unit: 'inst' },
    { metric: 'smsp__inst_issued.avg', label: 'Avg. Issued Instructions Per Scheduler', unit: 'inst' },
  ],
  metrics: [{ metric: 'inst_executed', label: 'Instructions Executed', unit: 'inst' }],
};

const LAUNCH_STATS: SectionDef = {
  id: 'LaunchStats',
  name: 'Launch Statistics',
  order: 70,
  header: [
    { metric: 'launch__grid_size', label: 'Grid Size' },
    { metric: 'launch__func_cache_config', label: 'Function Cache Configuration' },
    { metric: 'launch__cluster_size', label: 'Cluster Size' },
    { metric: 'launch__registers_per_thread', label: 'Registers Per Thread', unit: 'register/thread' },
    { metric: 'launch__cluster_scheduling_policy', label: 'Cluster Scheduling Policy' },
    { metric: 'launch__shared_mem_per_block_static', label: 'Static Shared Memory Per Block', unit: 'byte/block' },
    { metric: 'launch__block_size', label: 'Block Size' },
    { metric: 'launch__shared_mem_per_block_dynamic', label: 'Dynamic Shared Memory Per Block', unit: 'byte/block' },
    { metric: 'launch__thread_count', label: 'Threads', unit: 'thread' },
    { metric: 'launch__shared_mem_per_block_driver', label: 'Driver Shared Memory Per Block', unit: 'byte/block' },
    { metric: 'launch__waves_per_multiprocessor', label: 'Waves Per SM' },
    { metric: 'launch__shared_mem_config_size', label: 'Shared Memory Configuration Size', unit: 'byte' },
    { metric: 'launch__uses_green_context', label: 'Uses Green Context' },
    { metric: 'launch__stack_size', label: 'Stack Size' },
    { metric: 'launch__sm_count', label: '# SMs', unit: 'SM' },
    { metric: 'launch__tpc_count', label: '# TPCs' },
    { metric: 'launch__tpc_enabled', label: 'Enabled TPC IDs' },
  ],
  metrics: [
    { metric: 'sm__warps_active.avg.pct_of_peak_sustained_active', label: 'Achieved Occupancy', unit: '%' },
    { metric: 'sm__maximum_warps_per_active_cycle_pct', label: 'Theoretical Occupancy', unit: '%' },
  ],
};

const OCCUPANCY: SectionDef = {
  id: 'Occupancy',
  name: 'Occupancy',
  order: 80,
  header: [
    { metric: 'sm__maximum_warps_per_active_cycle_pct', label: 'Theoretical Occupancy', unit: '%' },
    { metric: 'launch__occupancy_limit_registers', label: 'Block Limit Registers', unit: 'block' },
    { metric: 'sm__maximum_warps_avg_per_active_cycle', label: 'Theoretical Active Warps per SM', unit: 'warp' },
    { metric: 'launch__occupancy_limit_shared_mem', label: 'Block Limit Shared Mem', unit: 'block' },
    { metric: 'sm__warps_active.avg.pct_of_peak_sustained_active', label: 'Achieved Occupancy', unit: '%' },
    { metric: 'launch__occupancy_limit_warps', label: 'Block Limit Warps', unit: 'block' },
    { metric: 'sm__warps_active.avg.per_cycle_active', label: 'Achieved Active Warps Per SM', unit: 'warp' },
    { metric: 'launch__occupancy_limit_blocks', label: 'Block Limit SM', unit: 'block' },
    { metric: 'launch__occupancy_cluster_pct', label: 'Cluster Occupancy', unit: '%' },
    { metric: 'launch__occupancy_limit_barriers', label: 'Block Limit Barriers', unit: 'block' },
    { metric: 'launch__cluster_max_active', label: 'Max Active Clusters', unit: 'cluster' },
    { metric: 'launch__cluster_max_potential_size', label: 'Max Cluster Size', unit: 'block' },
    { metric: 'launch__occupancy_cluster_gpu_pct', label: 'Overall GPU Occupancy', unit: '%' },
  ],
  metrics: [
    { metric: 'smsp__warps_active.avg.peak_sustained', label: 'GPU Maximum Warps Per Scheduler', unit: 'warp' },
    { metric: 'smsp__maximum_warps_avg_per_active_cycle', label: 'Theoretical Warps Per Scheduler', unit: 'warp' },
  ],
};

const WORKLOAD_DISTRIBUTION: SectionDef = {
  id: 'WorkloadDistribution',
  name: 'GPU and Memory Workload Distribution',
  order: 100,
  header: [
    { metric: 'dram__cycles_active.avg', label: 'Average DRAM Active Cycles', unit: 'cycle' },
    { metric: 'dram__cycles_elapsed.sum', label: 'Total DRAM Elapsed Cycles', unit: 'cycle' },
    { metric: 'l1tex__cycles_active.avg', label: 'Average L1 Active Cycles', unit: 'cycle' },
    { metric: 'l1tex__cycles_elapsed.sum', label: 'Total L1 Elapsed Cycles', unit: 'cycle' },
    { metric: 'lts__cycles_active.avg', label: 'Average L2 Active Cycles', unit: 'cycle' },
    { metric: 'lts__cycles_elapsed.sum', label: 'Total L2 Elapsed Cycles', unit: 'cycle' },
    { metric: 'sm__cycles_active.avg', label: 'Average SM Active Cycles', unit: 'cycle' },
    { metric: 'sm__cycles_elapsed.sum', label: 'Total SM Elapsed Cycles', unit: 'cycle' },
    { metric: 'smsp__cycles_active.avg', label: 'Average SMSP Active Cycles', unit: 'cycle' },
    { metric: 'smsp__cycles_elapsed.sum', label: 'Total SMSP Elapsed Cycles', unit: 'cycle' },
  ],
};

const SOURCE_COUNTERS: SectionDef = {
  id: 'SourceCounters',
  name: 'Source Counters',
  order: 100,
  header: [
    { metric: 'smsp__inst_executed_op_branch.sum', label: 'Branch Instructions', unit: 'inst' },
    { metric: 'smsp__sass_average_branch_targets_threads_uniform.pct', label: 'Branch Efficiency', unit: '%' },
    // a fraction, not a percentage, although ncu labels it % (0.06 for 6.25 % branches)
    { metric: 'derived__smsp__inst_executed_op_branch_pct', label: 'Branch Instructions Ratio', unit: '%' },
    { metric: 'smsp__sass_branch_targets_threads_divergent.avg', label: 'Avg. Divergent Branches', unit: 'branches' },
  ],
  metrics: [
    { metric: 'smsp__inst_executed.sum', label: 'Executed Instructions', unit: 'inst' },
    { metric: 'gpc__cycles_elapsed.max', label: 'Elapsed Cycles', unit: 'cycle' },
  ],
  body: [
    {
      name: 'Hotspot Locations',
      tables: [
        {
          kind: 'metrics',
          label: 'Most Instructions Executed',
          entries: [{ metric: 'inst_executed', label: 'Instructions Executed', unit: 'inst' }],
        },
      ],
    },
  ],
};

/**
 * Every section Warpsight knows, in ncu's print order (`Order`, then display name: that is how
 * ncu ordered GPU and Memory Workload Distribution before Source Counters, both at 100).
 */
export const SECTIONS: readonly SectionDef[] = [
  SPEED_OF_LIGHT,
  COMPUTE_WORKLOAD,
  MEMORY_WORKLOAD,
  MEMORY_TABLES,
  SCHEDULER_STATS,
  WARP_STATE_STATS,
  INSTRUCTION_STATS,
  LAUNCH_STATS,
  OCCUPANCY,
  WORKLOAD_DISTRIBUTION,
  SOURCE_COUNTERS,
].sort((a, b) => a.order - b.order || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

export function sectionById(id: string): SectionDef | undefined {
  return SECTIONS.find((s) => s.id === id);
}

/** Section ids a user asked for that Warpsight does not know (for a command's error message). */
export function unknownSections(ids: readonly string[]): string[] {
  return ids.filter((id) => sectionById(id) === undefined);
}

/** An ncu section set (`--set <id>`, `ncu --list-sets`): the sections of ncu's set that Warpsight has. */
export interface SectionSet {
  readonly id: string;
  readonly description: string;
  readonly sections: readonly string[];
}

const BASIC = ['LaunchStats', 'Occupancy', 'SpeedOfLight', 'WorkloadDistribution'];
const DETAILED = [...BASIC, 'ComputeWorkloadAnalysis', 'MemoryWorkloadAnalysis', 'SourceCounters'];

/**
 * ncu's sets (nsight-compute.md §1.1), less the sections an emulator has nothing for (rooflines,
 * NVLink, NUMA, PM sampling, the memory chart): `full` is every section Warpsight knows, which is
 * also what `profile` prints without --set / --section / --metrics (ncu's default is `basic`).
 */
export const SECTION_SETS: readonly SectionSet[] = [
  { id: 'basic', description: "ncu's default: launch configuration, occupancy, speed of light, workload distribution", sections: BASIC },
  { id: 'detailed', description: 'basic + compute and memory workload analysis, source counters', sections: DETAILED },
  { id: 'full', description: 'every section (the default here)', sections: SECTIONS.map((s) => s.id) },
];

export function sectionSet(id: string): SectionSet | undefined {
  return SECTION_SETS.find((s) => s.id === id);
}

/** Every metric id a section shows: header, hidden metrics and body tables (what `--section` collects). */
export function sectionMetricIds(section: SectionDef): string[] {
  const ids = [...section.header, ...(section.metrics ?? [])].map((e) => e.metric);
  for (const group of section.body ?? [])
    for (const table of group.tables) {
      if (table.kind === 'metrics') ids.push(...table.entries.map((e) => e.metric));
      else for (const row of table.rows) for (const cell of row.cells) if (cell !== null) ids.push(cell);
    }
  return [...new Set(ids)];
}
