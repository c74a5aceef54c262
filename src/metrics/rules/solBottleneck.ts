/**
 * SOLBottleneck (ncu `SpeedOfLight.py`): classifies the kernel by its compute and memory
 * Speed-of-Light percentages: small grid / latency bound (both < 60 %), compute or memory heavy
 * (difference ≥ 10 points), balanced, or high throughput (either ≥ 80 %). No speedup estimate.
 */
import type { RuleResult } from '../../../types/report.schema.js';
import { MAX_BANDWIDTH_PARTS, MEM_BUSY_PARTS } from '../derived.js';
import { f, num } from './common.js';
import type { RuleContext } from './types.js';
import { MEMORY_THROUGHPUT, SM_THROUGHPUT } from './weights.js';

export const id = 'SOLBottleneck';
export const section = 'SpeedOfLight';

const BALANCED_THRESHOLD = 10;
const LATENCY_BOUND_THRESHOLD = 60;
const NO_BOUND_THRESHOLD = 80;
const WAVES_THRESHOLD = 1;

/** the unit each constituent of the memory throughput belongs to, by its prefix as ncu names it */
const UNIT_OF_PREFIX: Readonly<Record<string, string>> = { l1tex: 'L1', lts: 'L2', gpu__dram: 'DRAM' };

/**
 * The memory unit behind the memory throughput, as ncu names it: the unit of the top entry of the
 * `breakdown:` of gpu__compute_memory_throughput (Mem Busy's and Max Bandwidth's constituents).
 */
function topMemoryUnit(ctx: RuleContext): string | undefined {
  let best: string | undefined;
  let bestPct = 0;
  for (const part of [...MEM_BUSY_PARTS, ...MAX_BANDWIDTH_PARTS]) {
    const v = num(ctx.metrics, `${part}.avg.pct_of_peak_sustained_elapsed`);
    if (v === undefined || v <= bestPct) continue;
    bestPct = v;
    best = Object.entries(UNIT_OF_PREFIX).find(([prefix]) => part.startsWith(`${prefix}_`))?.[1];
  }
  return best;
}

export function solBottleneck(ctx: RuleContext): RuleResult | null {
  const sm = num(ctx.metrics, SM_THROUGHPUT);
  const mem = num(ctx.metrics, MEMORY_THROUGHPUT);
  if (sm === undefined || mem === undefined) return null;

  const bottleneckSection = sm >= mem ? 'Compute Workload Analysis' : 'Memory Workload Analysis';
  const base = { id, section };

  if (sm < NO_BOUND_THRESHOLD && mem < NO_BOUND_THRESHOLD) {
    if (sm < LATENCY_BOUND_THRESHOLD && mem < LATENCY_BOUND_THRESHOLD) {
      const waves = num(ctx.metrics, 'launch__waves_per_multiprocessor');
      if (waves !== undefined && waves < WAVES_THRESHOLD) {
        return {
          ...base,
          type: 'OPT',
          title: 'Small Grid',
          message:
            `This kernel grid is too small to fill the available resources on this device, resulting in only ` +
            `${f(waves, 1)} full waves across all SMs. Look at Launch Statistics for more details.`,
        };
      }
      return {
        ...base,
        type: 'OPT',
        title: 'Latency Issue',
        message:
          'This workload exhibits low compute throughput and memory bandwidth utilization relative to the peak ' +
          'performance of this device. Achieved compute throughput and/or memory bandwidth below ' +
          `${f(LATENCY_BOUND_THRESHOLD, 1)}% of peak typically indicate latency issues. Look at Scheduler ` +
          'Statistics and Warp State Statistics for potential reasons.',
      };
    }
    if (Math.abs(sm - mem) >= BALANCED_THRESHOLD) {
      if (sm > mem) {
        return {
          ...base,
          type: 'OPT',
          title: 'High Compute Throughput',
          message:
            `Compute is more heavily utilized than Memory: Look at the ${bottleneckSection} section to see what the ` +
            'compute pipelines are spending their time doing. Also, consider whether any computation is redundant ' +
            'and could be reduced or moved to look-up tables.',
        };
      }
      const unit = topMemoryUnit(ctx);
      const pipeMsg = unit ? `to identify the ${unit} bottleneck` : 'to see where the memory system bottleneck is';
      return {
        ...base,
        type: 'OPT',
        title: 'High Memory Throughput',
        message:
          `Memory is more heavily utilized than Compute: Look at the ${bottleneckSection} section ${pipeMsg}. ` +
          "Check memory replay (coalescing) metrics to make sure you're efficiently utilizing the bytes transferred. " +
          'Also consider whether it is possible to do more work per memory access (kernel fusion) or whether there ' +
          'are values you can (re)compute.',
      };
    }
    return {
      ...base,
      type: 'INF',
      title: 'Balanced Throughput',
      message:
        'Compute and Memory are well-balanced: To reduce runtime, both computation and memory traffic must be ' +
        'reduced. Check both the Compute Workload Analysis and Memory Workload Analysis sections.',
    };
  }
  const unit = mem > sm ? topMemoryUnit(ctx) : undefined;
  return {
    ...base,
    type: 'INF',
    title: 'High Throughput',
    message:
      `This workload is utilizing greater than ${f(NO_BOUND_THRESHOLD, 1)}% of the available compute or memory ` +
      'performance of the device. To further improve performance, work will likely need to be shifted from the ' +
      `most utilized to another unit. Start by analyzing ${unit ?? 'workloads'} in the ${bottleneckSection} section.`,
  };
}
