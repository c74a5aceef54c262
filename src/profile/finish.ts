/**
 * Turns a launch's raw outcome into a report entry: all metrics (interpreter, occupancy, caches,
 * derived), the rules that fire, the kernel's source text and notes on what the model leaves out.
 */
import { readFileSync } from 'node:fs';
import type { Device, KernelResult, MetricValue } from '../../types/report.schema.js';
import type { Arch } from '../arch/types.js';
import { withDerivedMetrics } from '../metrics/derived.js';
import { applyRules } from '../metrics/rules/index.js';
import type { OccupancyForLaunch } from './occupancy.js';
import { sampledNote } from '../report/sampled.js';

export function deviceOf(arch: Arch): Device {
  return { arch: arch.id, name: arch.name, cc: `${arch.cc[0]}.${arch.cc[1]}`, smCount: arch.smCount };
}

/** ncu's device__attribute_* metrics (derivations and rules read them) */
function deviceAttributes(arch: Arch): Record<string, number> {
  return {
    device__attribute_multiprocessor_count: arch.smCount,
    device__attribute_max_threads_per_multiprocessor: arch.maxThreadsPerSm,
    device__attribute_max_warps_per_multiprocessor: arch.maxWarpsPerSm,
    device__attribute_max_threads_per_block: arch.maxThreadsPerBlock,
    device__attribute_max_blocks_per_multiprocessor: arch.maxBlocksPerSm,
    device__attribute_num_schedulers_per_multiprocessor: arch.schedulersPerSm,
    device__attribute_warp_size: arch.warpSize,
    device__attribute_l2_cache_size: arch.l2Size,
    device__attribute_compute_capability_major: arch.cc[0],
    device__attribute_compute_capability_minor: arch.cc[1],
  };
}

const sourceCache = new Map<string, string[]>();
function sourceText(file: string): string[] {
  let lines = sourceCache.get(file);
  if (!lines) {
    try {
      lines = readFileSync(file, 'utf8').split('\n');
    } catch {
      lines = [];
    }
    sourceCache.set(file, lines);
  }
  return lines;
}

export interface FinishInput {
  id: number;
  base: Omit<KernelResult, 'id' | 'rules' | 'notes' | 'sourceLines'>;
  arch: Arch;
  occupancy: OccupancyForLaunch;
  cache: Record<string, number>;
  check: KernelResult['check'];
  registersPerThread: number;
  registersSource: 'declared' | 'estimated';
}

/** notes a reader needs to judge the numbers (what the emulator deliberately does not imitate) */
function notesFor(metrics: Record<string, MetricValue>, registersSource: 'declared' | 'estimated'): string[] {
  const notes: string[] = [];
  // shared-memory accesses: op_misc (S2R and SHFL passing the shared pipe) are none
  const shared = Number(metrics['l1tex__data_pipe_lsu_wavefronts_mem_shared.sum'] ?? 0) - Number(metrics['l1tex__data_pipe_lsu_wavefronts_mem_shared_op_misc.sum'] ?? 0);
  if (shared > 0)
    notes.push(
      'Bank conflicts are wavefronts above the conflict-free minimum of each shared instruction. The H200 also reports a few % of "conflicts" on conflict-free code (L1 traffic sharing the data banks); Warpsight does not imitate that noise.',
    );
  if (registersSource === 'estimated')
    notes.push('Registers per thread are estimated from the IR\'s live values (declare `registers` in the kernel to use ptxas\'s count).');
  return notes;
}

export function finishResult(x: FinishInput): KernelResult {
  const raw: Record<string, MetricValue> = { ...deviceAttributes(x.arch), ...x.base.metrics, ...x.occupancy.metrics, ...x.cache };
  const metrics = withDerivedMetrics(raw);
  const launch = { ...x.base.launch, registersPerThread: x.registersPerThread, registersSource: x.registersSource };
  const sorted: Record<string, MetricValue> = {};
  for (const k of Object.keys(metrics).sort()) sorted[k] = metrics[k] as MetricValue;
  const rules = applyRules({ metrics: sorted, instructions: x.base.instructions, launch, device: deviceOf(x.arch) });
  return {
    id: x.id,
    name: x.base.name,
    ...(x.base.signature ? { signature: x.base.signature } : {}),
    file: x.base.file,
    launch,
    metrics: sorted,
    instructions: x.base.instructions,
    sourceLines: sourceText(x.base.file),
    rules,
    ...(x.check ? { check: x.check } : {}),
    notes: x.base.sampled ? [sampledNote(x.base.sampled), ...notesFor(sorted, x.registersSource)] : notesFor(sorted, x.registersSource),
    ...(x.base.explain ? { explain: x.base.explain } : {}),
    ...(x.base.sampled ? { sampled: x.base.sampled } : {}),
  };
}
