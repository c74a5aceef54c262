/**
 * The rule registry: every guided-analysis rule Warpsight applies, in the order ncu prints them
 * (section order, then rule order within a section).
 */
import type { RuleResult } from '../../../types/report.schema.js';
import { withDerivedMetrics } from '../derived.js';
import * as achieved from './achievedOccupancy.js';
import * as cpi from './cpiStall.js';
import * as flags from './flagPolling.js';
import * as isu from './issueSlotUtilization.js';
import * as launchCfg from './launchConfiguration.js';
import * as mcap from './memoryCacheAccessPattern.js';
import * as persistence from './persistenceAdvice.js';
import * as smc from './sharedMemoryConflicts.js';
import * as sol from './solBottleneck.js';
import * as theoretical from './theoreticalOccupancy.js';
import * as divergence from './threadDivergence.js';
import * as uga from './uncoalescedGlobalAccess.js';
import * as usa from './uncoalescedSharedAccess.js';
import type { RuleContext, RuleDefinition } from './types.js';

export type { RuleContext, RuleDefinition, RuleFn } from './types.js';

export const RULES: readonly RuleDefinition[] = [
  { id: sol.id, section: sol.section, apply: sol.solBottleneck },
  { id: persistence.id, section: persistence.section, apply: persistence.persistenceAdvice },
  { id: mcap.id, section: mcap.section, apply: mcap.memoryCacheAccessPattern },
  { id: smc.id, section: smc.section, apply: smc.sharedMemoryConflicts },
  { id: isu.id, section: isu.section, apply: isu.issueSlotUtilization },
  { id: cpi.id, section: cpi.section, apply: cpi.cpiStall },
  { id: flags.id, section: flags.section, apply: flags.flagPolling },
  { id: divergence.id, section: divergence.section, apply: divergence.threadDivergence },
  { id: launchCfg.id, section: launchCfg.section, apply: launchCfg.launchConfiguration },
  { id: theoretical.id, section: theoretical.section, apply: theoretical.theoreticalOccupancy },
  { id: achieved.id, section: achieved.section, apply: achieved.achievedOccupancy },
  { id: uga.id, section: uga.section, apply: uga.uncoalescedGlobalAccess },
  { id: usa.id, section: usa.section, apply: usa.uncoalescedSharedAccess },
];

export function ruleById(id: string): RuleDefinition | undefined {
  return RULES.find((r) => r.id === id);
}

const isList = (out: RuleResult | readonly RuleResult[]): out is readonly RuleResult[] => Array.isArray(out);

/** A rule's output as a list: nothing, one result, or several. */
export function resultsOf(out: RuleResult | readonly RuleResult[] | null): readonly RuleResult[] {
  if (out === null) return [];
  return isList(out) ? out : [out];
}

/**
 * Applies the rules (all, or those named in `only`) to one kernel. Derived metrics are added to
 * `ctx.metrics` first, so raw counters are enough. Pure and deterministic.
 */
export function applyRules(ctx: RuleContext, only?: readonly string[]): RuleResult[] {
  const full: RuleContext = { ...ctx, metrics: withDerivedMetrics(ctx.metrics) };
  const results: RuleResult[] = [];
  for (const rule of RULES) {
    if (only !== undefined && !only.includes(rule.id)) continue;
    results.push(...resultsOf(rule.apply(full)));
  }
  return results;
}
