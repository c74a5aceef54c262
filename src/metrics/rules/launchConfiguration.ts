/**
 * LaunchConfiguration (ncu `LaunchStatistics.py`): three checks on the launch shape.
 * - Block Size: threads per block not a multiple of 32 leave the last warp partly masked off;
 *   speedup (global) = 1/⌈b/32⌉ · (1 − (b mod 32)/32).
 * - Small Grid: fewer blocks than SMs (speedup (S − g)/S), else the `__syncthreads()` advice when
 *   fewer than two blocks per SM (no speedup).
 * - Tail Effect: a partial last wave after at least one full wave; speedup 1/(1 + full waves),
 *   reported only from 20 %.
 */
import type { RuleResult } from '../../../types/report.schema.js';
import { HARDWARE_MODEL_REF, f, int, num, speedup } from './common.js';
import type { RuleContext } from './types.js';

export const id = 'LaunchConfiguration';
export const section = 'LaunchStats';

const WARP_SIZE = 32;
const TAIL_SPEEDUP_THRESHOLD = 20;

/** block size: the metric when the emulator reports it, else the launch's block dims */
function blockSize(ctx: RuleContext): number {
  return num(ctx.metrics, 'launch__block_size') ?? ctx.launch.block[0] * ctx.launch.block[1] * ctx.launch.block[2];
}

function gridSize(ctx: RuleContext): number {
  return num(ctx.metrics, 'launch__grid_size') ?? ctx.launch.grid[0] * ctx.launch.grid[1] * ctx.launch.grid[2];
}

export function blockSizeCheck(ctx: RuleContext): RuleResult | null {
  const b = blockSize(ctx);
  if (b % WARP_SIZE === 0) return null;
  const warps = Math.ceil(b / WARP_SIZE);
  const lastWarpThreads = b % WARP_SIZE;
  const value = warps === 0 ? 0 : (1 / warps) * (1 - lastWarpThreads / WARP_SIZE) * 100;
  return {
    id,
    section,
    type: 'OPT',
    title: 'Block Size',
    message:
      `Threads are executed in groups of ${WARP_SIZE} threads called warps. This kernel launch is configured to ` +
      `execute ${int(b)} threads per block. Consequently, some threads in a warp are masked off and those hardware ` +
      `resources are unused. Try changing the number of threads per block to be a multiple of ${WARP_SIZE} threads. ` +
      'Between 128 and 256 threads per block is a good initial range for experimentation. Use smaller thread ' +
      'blocks rather than one large thread block per multiprocessor if latency affects performance.  This is ' +
      `particularly beneficial to kernels that frequently call __syncthreads(). ${HARDWARE_MODEL_REF}`,
    speedup: speedup('global', value),
  };
}

/**
 * Warpsight's addition to ncu's text: how much of the GPU's thread capacity the grid can fill at all
 * (blocks × threads per block / (SMs × threads per SM)), whatever the occupancy per SM.
 */
function gpuFill(ctx: RuleContext, g: number, sms: number): string {
  const perSm = num(ctx.metrics, 'device__attribute_max_threads_per_multiprocessor');
  const block = num(ctx.metrics, 'launch__block_size');
  if (perSm === undefined || block === undefined) return '';
  const pct = (100 * g * block) / (sms * perSm);
  return ` The grid's ${int(g)} × ${int(block)} = ${int(g * block)} threads fill ${f(pct, 1)}% of the ${int(sms)} × ${int(perSm)} = ${int(sms * perSm)} threads the GPU can hold.`;
}

export function gridSizeCheck(ctx: RuleContext): RuleResult | null {
  const g = gridSize(ctx);
  const sms = num(ctx.metrics, 'device__attribute_multiprocessor_count') ?? ctx.device.smCount;
  if (g < sms) {
    return {
      id,
      section,
      type: 'OPT',
      title: 'Small Grid',
      message:
        `The grid for this launch is configured to execute only ${int(g)} ${g === 1 ? 'block' : 'blocks'}, which is ` +
        `less than the GPU's ${int(sms)} multiprocessors. This can underutilize some multiprocessors. If you do not ` +
        'intend to execute this kernel concurrently with other workloads, consider reducing the block size to have ' +
        'at least one block per multiprocessor or increase the size of the grid to fully utilize the available ' +
        `hardware resources. ${HARDWARE_MODEL_REF}${gpuFill(ctx, g, sms)}`,
      speedup: speedup('global', ((sms - g) / sms) * 100),
    };
  }
  if (g < 2 * sms) {
    return {
      id,
      section,
      type: 'OPT',
      title: 'Small Grid',
      message:
        'If you execute __syncthreads() to synchronize the threads of a block, it is recommended to have at least ' +
        `two blocks per multiprocessor (compared to the currently executed ${f(g / sms, 1)} blocks) This way, ` +
        "blocks that aren't waiting for __syncthreads() can keep the hardware busy.",
    };
  }
  return null;
}

export function tailEffectCheck(ctx: RuleContext): RuleResult | null {
  const waves = num(ctx.metrics, 'launch__waves_per_multiprocessor');
  if (waves === undefined || waves <= 0) return null;
  const whole = Math.trunc(waves);
  const partial = waves - whole;
  if (!(partial > 0 && whole >= 1)) return null;
  const value = (1 / (1 + whole)) * 100;
  if (value < TAIL_SPEEDUP_THRESHOLD) return null;
  const partialBlocks = Math.ceil(gridSize(ctx) * (partial / waves));
  return {
    id,
    section,
    type: 'OPT',
    title: 'Tail Effect',
    message:
      'A wave of thread blocks is defined as the maximum number of blocks that can be executed in parallel on the ' +
      'target GPU. The number of blocks in a wave depends on the number of multiprocessors and the theoretical ' +
      `occupancy of the kernel. This kernel launch results in ${int(whole)} full waves and a partial wave of ` +
      `${int(partialBlocks)} thread blocks. Under the assumption of a uniform execution duration of all thread ` +
      `blocks, this partial wave may account for up to ${f(value, 1)}% of the total runtime of this kernel. Try ` +
      'launching a grid with no partial wave. The overall impact of this tail effect also lessens with the number ' +
      `of full waves executed for a grid. ${HARDWARE_MODEL_REF}`,
    speedup: speedup('global', value),
  };
}

export function launchConfiguration(ctx: RuleContext): RuleResult[] | null {
  const results = [blockSizeCheck(ctx), gridSizeCheck(ctx), tailEffectCheck(ctx)].filter(
    (r): r is RuleResult => r !== null,
  );
  return results.length > 0 ? results : null;
}
