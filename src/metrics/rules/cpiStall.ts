/**
 * CPIStall (ncu `CPIStall.py`): every warp stall reason that takes more than 30 % of the cycles
 * between two issued instructions, while schedulers issue on fewer than 80 % of cycles; largest
 * first, then ncu's pointer to the stall-sampling table. Speedup = stall / CPI, bounded by
 * IssueSlotUtilization (global) when that parent fired.
 */
import type { RuleResult } from '../../../types/report.schema.js';
import { f, link, num, speedup } from './common.js';
import { stallRatioMetric } from '../sections.js';
import type { RuleContext } from './types.js';
import { boundedByIssueSlots } from './weights.js';

export const id = 'CPIStall';
export const section = 'WarpStateStats';

const ISSUE_ACTIVE_THRESHOLD = 0.8;
const RATIO_THRESHOLD = 0.3;

/**
 * ncu's stall reasons in its own order, with the metric key and the knowledge-base text (the
 * rule drops its leading "Warp was stalled "). `warpgroup_arrive` reads the `gmma` metric.
 */
const STALLS: readonly (readonly [name: string, metricKey: string, text: string])[] = [
  ['barrier', 'barrier', 'Warp was stalled waiting for sibling warps at a CTA barrier. A high number of warps waiting at a barrier is commonly caused by diverging code paths before a barrier. This causes some warps to wait a long time until other warps reach the synchronization point. Whenever possible, try to divide up the work into blocks of uniform workloads. If the block size is 512 threads or greater, consider splitting it into smaller groups. This can increase eligible warps without affecting occupancy, unless shared memory becomes a new occupancy limiter. Also, try to identify which barrier instruction causes the most stalls, and optimize the code executed before that synchronization point first.'],
  ['branch_resolving', 'branch_resolving', 'Warp was stalled waiting for a branch target to be computed, and the warp program counter to be updated. To reduce the number of stalled cycles, consider using fewer jump/branch operations and reduce control flow divergence, e.g. by reducing or coalescing conditionals in your code. See also the related No Instructions state.'],
  ['dispatch_stall', 'dispatch_stall', 'Warp was stalled waiting on a dispatch stall. A warp stalled during dispatch has an instruction ready to issue, but the dispatcher holds back issuing the warp due to other conflicts or events.'],
  ['drain', 'drain', "Warp was stalled after EXIT waiting for all outstanding memory operations to complete so that warp's resources can be freed. A high number of stalls due to draining warps typically occurs when a lot of data is written to memory towards the end of a kernel. Make sure the memory access patterns of these store operations are optimal for the target architecture and consider parallelized data reduction, if applicable."],
  ['imc_miss', 'imc_miss', "Warp was stalled waiting for an immediate constant cache (IMC) miss. A read from constant memory costs one memory read from device memory only on a cache miss; otherwise, it just costs one read from the constant cache. Immediate constants are encoded into the SASS instruction as 'c[bank][offset]'. Accesses to different addresses by threads within a warp are serialized, thus the cost scales linearly with the number of unique addresses read by all threads within a warp. As such, the constant cache is best when threads in the same warp access only a few distinct locations. If all threads of a warp access the same location, then constant memory can be as fast as a register access."],
  ['lg_throttle', 'lg_throttle', 'Warp was stalled waiting for the L1 instruction queue for local and global (LG) memory operations to be not full. Typically, this stall occurs only when executing local or global memory instructions extremely frequently. Avoid redundant global memory accesses. Try to avoid using thread-local memory by checking if dynamically indexed arrays are declared in local scope, or if the kernel has excessive register pressure causing spills. If applicable, consider combining multiple lower-width memory operations into fewer wider memory operations and try interleaving memory operations and math instructions.'],
  ['long_scoreboard', 'long_scoreboard', 'Warp was stalled waiting for a scoreboard dependency on a L1TEX (local, global, surface, texture) operation. Find the instruction producing the data being waited upon to identify the culprit. To reduce the number of cycles waiting on L1TEX data accesses verify the memory access patterns are optimal for the target architecture, attempt to increase cache hit rates by increasing data locality (coalescing), or by changing the cache configuration. Consider moving frequently used data to shared memory.'],
  ['math_pipe_throttle', 'math_pipe_throttle', 'Warp was stalled waiting for the execution pipe to be available. This stall occurs when all active warps execute their next instruction on a specific, oversubscribed math pipeline. Try to increase the number of active warps to hide the existent latency or try changing the instruction mix to utilize all available pipelines in a more balanced way.'],
  ['membar', 'membar', 'Warp was stalled waiting on a memory barrier. Avoid executing any unnecessary memory barriers and assure that any outstanding memory operations are fully optimized for the target architecture.'],
  ['mio_throttle', 'mio_throttle', 'Warp was stalled waiting for the MIO (memory input/output) instruction queue to be not full. This stall reason is high in cases of extreme utilization of the MIO pipelines, which include special math instructions, dynamic branches, as well as shared memory instructions. When caused by shared memory accesses, trying to use fewer but wider loads can reduce pipeline pressure.'],
  ['misc', 'misc', 'Warp was stalled for a miscellaneous hardware reason.'],
  ['no_instruction', 'no_instruction', 'Warp was stalled waiting to be selected to fetch an instruction or waiting on an instruction cache miss. A high number of warps not having an instruction fetched is typical for very short kernels with less than one full wave of work in the grid. Excessively jumping across large blocks of assembly code can also lead to more warps stalled for this reason, if this causes misses in the instruction cache. See also the related Branch Resolving state.'],
  ['not_selected', 'not_selected', 'Warp was stalled waiting for the micro scheduler to select the warp to issue. Not selected warps are eligible warps that were not picked by the scheduler to issue that cycle as another warp was selected. A high number of not selected warps typically means you have sufficient warps to cover warp latencies and you may consider reducing the number of active warps to possibly increase cache coherence and data locality.'],
  ['short_scoreboard', 'short_scoreboard', 'Warp was stalled waiting for a scoreboard dependency on a MIO (memory input/output) operation (not to L1TEX). The primary reason for a high number of stalls due to short scoreboards is typically memory operations to shared memory. Other reasons include frequent execution of special math instructions (e.g. MUFU) or dynamic branching (e.g. BRX, JMX). Consult the Memory Workload Analysis section to verify if there are shared memory operations and reduce bank conflicts, if reported. Assigning frequently accessed values to variables can assist the compiler in using low-latency registers instead of direct memory accesses.'],
  ['sleeping', 'sleeping', 'Warp was stalled due to all threads in the warp being in the blocked, yielded, or sleep state. Reduce the number of executed NANOSLEEP instructions, lower the specified time delay, and attempt to group threads in a way that multiple threads in a warp sleep at the same time.'],
  ['tex_throttle', 'tex_throttle', "Warp was stalled waiting for the L1 instruction queue for texture operations to be not full. This stall reason is high in cases of extreme utilization of the L1TEX pipeline. Try issuing fewer texture fetches, surface loads, surface stores, or decoupled math operations. If applicable, consider combining multiple lower-width memory operations into fewer wider memory operations and try interleaving memory operations and math instructions. Consider converting texture lookups or surface loads into global memory lookups. Texture can accept four threads' requests per cycle, whereas global accepts 32 threads."],
  ['wait', 'wait', 'Warp was stalled waiting on a fixed latency execution dependency. Typically, this stall reason should be very low and only shows up as a top contributor in already highly optimized kernels. Try to hide the corresponding instruction latencies by increasing the number of active warps, restructuring the code or unrolling loops. Furthermore, consider switching to lower-latency instructions, e.g. by making use of fast math compiler options.'],
  ['warpgroup_arrive', 'gmma', 'Warp was stalled waiting on a WARPGROUP.ARRIVES or WARPGROUP.WAIT instruction.'],
];

const titleCase = (name: string): string =>
  name
    .split('_')
    .map((w) => (w.length > 0 ? (w[0] ?? '').toUpperCase() + w.slice(1) : w))
    .join(' ');

export function cpiStall(ctx: RuleContext): RuleResult[] | null {
  const issueActive = num(ctx.metrics, 'smsp__issue_active.avg.per_cycle_active');
  const cpi = num(ctx.metrics, 'smsp__average_warp_latency_per_inst_issued.ratio');
  if (issueActive === undefined || cpi === undefined) return null;
  if (!(issueActive < ISSUE_ACTIVE_THRESHOLD && cpi > 0)) return null;

  const reported: { stall: number; result: RuleResult }[] = [];
  for (const [name, metricKey, text] of STALLS) {
    const stall = num(ctx.metrics, stallRatioMetric(metricKey));
    if (stall === undefined || !(stall / cpi > RATIO_THRESHOLD)) continue;
    const estimate = boundedByIssueSlots(ctx.metrics, stall / cpi);
    reported.push({
      stall,
      result: {
        id,
        section,
        type: 'OPT',
        title: `${titleCase(name)} Stalls`,
        message:
          `On average, each warp of this workload spends ${f(stall, 1)} cycles being stalled ` +
          `${text.replace(/^Warp was stalled /, '')} This stall type represents about ${f((100 * stall) / cpi, 1)}% ` +
          `of the total average of ${f(cpi, 1)} cycles between issuing two instructions.`,
        speedup: speedup(estimate.type, estimate.value),
      },
    });
  }
  if (reported.length === 0) return null;
  // largest stall first; Array.prototype.sort is stable, like Python's sorted
  reported.sort((a, b) => b.stall - a.stall);
  return [
    ...reported.map((r) => r.result),
    {
      id,
      section,
      type: 'INF',
      message:
        'Check the Warp Stall Sampling (All Samples) table for the top stall locations in your source based on ' +
        `sampling data. The ${link('Profiling Guide', 'https://docs.nvidia.com/nsight-compute/ProfilingGuide/index.html#metrics-reference')} ` +
        'provides more details on each stall reason.',
    },
  ];
}
