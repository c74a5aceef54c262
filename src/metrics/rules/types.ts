/**
 * What a guided-analysis rule sees and returns. A rule is a small pure function of one kernel's
 * results, like ncu's `sections/*.py` rules: it reads metrics (raw and derived, keyed by ncu id)
 * and per-instruction source metrics, and returns ncu's message with an estimated speedup, or
 * nothing when the rule does not apply or its metrics are missing.
 */
import type { Device, InstructionCounters, Launch, MetricValue, RuleResult } from '../../../types/report.schema.js';

export type { RuleResult };

export interface RuleContext {
  /** kernel metrics by ncu id, derived ones included */
  readonly metrics: Readonly<Record<string, MetricValue>>;
  /** per IR instruction source metrics (inst_executed, memory_l2_theoretical_sectors_global, ...) */
  readonly instructions: readonly InstructionCounters[];
  readonly launch: Launch;
  readonly device: Device;
}

/**
 * A rule: null when it does not fire. ncu rules that emit several messages (LaunchConfiguration's
 * block size / small grid / tail effect, one MemoryCacheAccessPattern message per space and
 * operation, CPIStall's closing hint) return them as a list, in ncu's order.
 */
export type RuleFn = (ctx: RuleContext) => RuleResult | readonly RuleResult[] | null;

export interface RuleDefinition {
  /** ncu rule identifier */
  readonly id: string;
  /** identifier of the section ncu prints the rule under */
  readonly section: string;
  readonly apply: RuleFn;
}
