/**
 * Source Counters by kernel source line: the per-instruction source metrics of a kernel summed per
 * line (an IR instruction remembers the line that built it), and the lines that deserve a look
 * first. ncu shows these per SASS instruction and source line in its UI; the console only names
 * the excess totals, so this is where Warpsight points at the line.
 */
import type { InstructionCounters } from '../../types/report.schema.js';

export interface SourceLineSummary {
  readonly line: number;
  /** the line's text from the kernel file, when the report carries it */
  readonly text: string | undefined;
  /** distinct opcodes of the line's instructions, in instruction order */
  readonly opcodes: readonly string[];
  /** warp-level instructions executed (Σ inst_executed) */
  readonly instructions: number;
  /** Σ thread_inst_executed */
  readonly threadInstructions: number;
  /** Σ thread_inst_executed_true (threads not predicated off) */
  readonly predicatedOnThreadInstructions: number;
  /** global L2 sectors the line's accesses touch (memory_l2_theoretical_sectors_global) */
  readonly sectors: number;
  readonly sectorsIdeal: number;
  /** Σ per instruction of max(0, sectors − ideal) */
  readonly excessiveSectors: number;
  /** shared-memory wavefronts (memory_l1_wavefronts_shared) */
  readonly wavefronts: number;
  readonly wavefrontsIdeal: number;
  /** Σ per instruction of max(0, wavefronts − ideal): the bank conflicts of the line */
  readonly excessiveWavefronts: number;
  /** memory_l1_tag_requests_global */
  readonly l1TagRequests: number;
  /** smsp__branch_targets_threads_divergent */
  readonly divergentBranches: number;
}

interface Accumulator {
  line: number;
  opcodes: string[];
  instructions: number;
  threadInstructions: number;
  predicatedOnThreadInstructions: number;
  sectors: number;
  sectorsIdeal: number;
  excessiveSectors: number;
  wavefronts: number;
  wavefrontsIdeal: number;
  excessiveWavefronts: number;
  l1TagRequests: number;
  divergentBranches: number;
}

const metric = (inst: InstructionCounters, key: string): number => inst.metrics[key] ?? 0;

/** Per-line sums of a kernel's instruction counters, ordered by line. */
export function summarizeSourceLines(
  instructions: readonly InstructionCounters[],
  sourceLines?: readonly string[],
): SourceLineSummary[] {
  const byLine = new Map<number, Accumulator>();
  for (const inst of instructions) {
    let acc = byLine.get(inst.line);
    if (acc === undefined) {
      acc = {
        line: inst.line,
        opcodes: [],
        instructions: 0,
        threadInstructions: 0,
        predicatedOnThreadInstructions: 0,
        sectors: 0,
        sectorsIdeal: 0,
        excessiveSectors: 0,
        wavefronts: 0,
        wavefrontsIdeal: 0,
        excessiveWavefronts: 0,
        l1TagRequests: 0,
        divergentBranches: 0,
      };
      byLine.set(inst.line, acc);
    }
    if (!acc.opcodes.includes(inst.opcode)) acc.opcodes.push(inst.opcode);
    acc.instructions += metric(inst, 'inst_executed');
    acc.threadInstructions += metric(inst, 'thread_inst_executed');
    acc.predicatedOnThreadInstructions += inst.metrics.thread_inst_executed_true ?? metric(inst, 'thread_inst_executed');
    const sectors = metric(inst, 'memory_l2_theoretical_sectors_global');
    const sectorsIdeal = inst.metrics.memory_l2_theoretical_sectors_global_ideal ?? sectors;
    acc.sectors += sectors;
    acc.sectorsIdeal += sectorsIdeal;
    acc.excessiveSectors += Math.max(0, sectors - sectorsIdeal);
    const wavefronts = metric(inst, 'memory_l1_wavefronts_shared');
    const wavefrontsIdeal = inst.metrics.memory_l1_wavefronts_shared_ideal ?? wavefronts;
    acc.wavefronts += wavefronts;
    acc.wavefrontsIdeal += wavefrontsIdeal;
    acc.excessiveWavefronts += Math.max(0, wavefronts - wavefrontsIdeal);
    acc.l1TagRequests += metric(inst, 'memory_l1_tag_requests_global');
    acc.divergentBranches += metric(inst, 'smsp__branch_targets_threads_divergent');
  }
  return [...byLine.values()]
    .sort((a, b) => a.line - b.line)
    .map((acc) => ({ ...acc, text: sourceLines?.[acc.line - 1] }));
}

/** Average threads per executed instruction (32 for a full, converged warp); 0 if nothing ran. */
export function threadsPerInstruction(s: SourceLineSummary): number {
  return s.instructions > 0 ? s.threadInstructions / s.instructions : 0;
}

/**
 * The `count` lines to look at first: most excessive global sectors, then most excessive shared
 * wavefronts (bank conflicts), then most instructions executed; ties by line. Lines that executed
 * nothing are left out.
 */
export function hotSpots(summaries: readonly SourceLineSummary[], count: number): SourceLineSummary[] {
  return summaries
    .filter((s) => s.instructions > 0 || s.sectors > 0 || s.wavefronts > 0)
    .slice()
    .sort(
      (a, b) =>
        b.excessiveSectors - a.excessiveSectors ||
        b.excessiveWavefronts - a.excessiveWavefronts ||
        b.instructions - a.instructions ||
        a.line - b.line,
    )
    .slice(0, Math.max(0, count));
}
