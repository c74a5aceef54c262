/**
 * MemoryCacheAccessPattern (ncu `MemoryCacheAccessPattern.py`): global/local loads and stores that
 * use only part of each 32-byte sector they move. For each (space, operation) the cache level
 * (L1TEX, L2, DRAM) with the largest estimated speedup gets one message:
 *
 *   speedup = (1 − bytes_per_sector / max_bytes_per_sector) × upstream miss rates × level throughput
 *
 * The miss rates and throughput are fractions; like the Python original, a factor that is 0 or
 * missing counts as 1 (`x if x else 1`), and the estimate is local when there is no throughput.
 */
import type { InstructionCounters, MetricValue, RuleResult } from '../../../types/report.schema.js';
import { f, num, sortedLines, speedup } from './common.js';
import type { RuleContext } from './types.js';

export const id = 'MemoryCacheAccessPattern';
export const section = 'MemoryWorkloadAnalysis_Tables';

type Space = 'global' | 'local';
type Operation = 'load' | 'store';
type Cache = 'l1tex' | 'l2' | 'dram';

const CACHES: readonly Cache[] = ['l1tex', 'l2', 'dram'];
const SPACES: readonly Space[] = ['global', 'local'];
const OPERATIONS: readonly Operation[] = ['load', 'store'];

const opSuffix = (op: Operation): 'ld' | 'st' => (op === 'load' ? 'ld' : 'st');
const bytesPerSector = (space: Space, op: Operation): string =>
  `smsp__sass_average_data_bytes_per_sector_mem_${space}_op_${opSuffix(op)}`;
const l1HitRate = (space: Space, op: Operation): string =>
  `l1tex__t_sector_pipe_lsu_mem_${space}_op_${opSuffix(op)}_hit_rate.pct`;
const l2HitRate = (op: Operation): string => `lts__t_sector_op_${op === 'load' ? 'read' : 'write'}_hit_rate.pct`;

const THROUGHPUT: Readonly<Record<Cache, string>> = {
  l1tex: 'l1tex__throughput.avg.pct_of_peak_sustained_elapsed',
  l2: 'lts__throughput.avg.pct_of_peak_sustained_elapsed',
  dram: 'gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed',
};

/** Python truthiness: 0 and None select the fallback */
const orOne = (x: number | undefined): number => (x ? x : 1);

interface Candidate {
  readonly cache: Cache;
  readonly value: number;
  readonly type: 'local' | 'global';
  readonly message: string;
}

function estimate(metrics: Readonly<Record<string, MetricValue>>, cache: Cache, space: Space, op: Operation) {
  const bps = num(metrics, `${bytesPerSector(space, op)}.ratio`) ?? 0;
  const max = num(metrics, `${bytesPerSector(space, op)}.max_rate`) ?? 0;
  let l1Miss: number | undefined;
  let l2Miss: number | undefined;
  if (cache === 'l2' || cache === 'dram') {
    const hit = num(metrics, l1HitRate(space, op));
    l1Miss = hit === undefined ? undefined : 1 - hit / 100;
  }
  if (cache === 'dram') {
    const hit = num(metrics, l2HitRate(op));
    l2Miss = hit === undefined ? undefined : 1 - hit / 100;
  }
  const throughputPct = num(metrics, THROUGHPUT[cache]);
  const throughput = throughputPct === undefined ? undefined : throughputPct / 100;
  const value = (1 - bps / max) * orOne(l1Miss) * orOne(l2Miss) * orOne(throughput) * 100;
  return { bps, max, value, type: throughput ? ('global' as const) : ('local' as const) };
}

function message(
  metrics: Readonly<Record<string, MetricValue>>,
  cache: Cache,
  space: Space,
  op: Operation,
  bps: number,
  max: number,
): string {
  let levelMessage = '';
  if (cache === 'l2') {
    const missPct = 100 - (num(metrics, l1HitRate(space, op)) ?? 0);
    levelMessage = `This applies to the ${f(missPct, 1)}% of sectors missed in L1TEX. `;
  } else if (cache === 'dram') {
    const missPct = 100 - (num(metrics, l2HitRate(op)) ?? 0);
    levelMessage = `This applies to the ${f(missPct, 1)}% of sectors missed in L2. `;
  }
  return (
    `The memory access pattern for ${space} ${op}s ${op === 'load' ? 'from' : 'to'} ${cache.toUpperCase()} ` +
    `might not be optimal. On average, only ${f(bps, 1)} of the ${f(max, 0)} bytes transmitted per sector are ` +
    `utilized by each thread. ${levelMessage}This could possibly be caused by a stride between threads. ` +
    `Check the Source Counters section for uncoalesced ${space} ${op}s.`
  );
}

/** SASS opcode family of each (space, operation): LDG/STG, LDL/STL */
function isAccess(inst: InstructionCounters, space: Space, op: Operation): boolean {
  const family = `${op === 'load' ? 'LD' : 'ST'}${space === 'global' ? 'G' : 'L'}`;
  return inst.opcode === family || inst.opcode.startsWith(`${family}.`);
}

/** Lines whose accesses of this kind move more sectors than a coalesced pattern would. */
function wastefulLines(instructions: readonly InstructionCounters[], space: Space, op: Operation): number[] {
  const actualKey = `memory_l2_theoretical_sectors_${space}`;
  const idealKey = `${actualKey}_ideal`;
  return sortedLines(
    instructions
      .filter((inst) => isAccess(inst, space, op))
      .filter((inst) => {
        const actual = inst.metrics[actualKey];
        const ideal = inst.metrics[idealKey];
        return actual !== undefined && ideal !== undefined && actual > ideal;
      })
      .map((inst) => inst.line),
  );
}

export function memoryCacheAccessPattern(ctx: RuleContext): RuleResult[] | null {
  const { metrics } = ctx;
  const best = new Map<string, Candidate>();
  for (const cache of CACHES) {
    for (const space of SPACES) {
      for (const op of OPERATIONS) {
        // ncu skips L2 without the L2 load hit rate, and DRAM without both L2 hit rates
        if (cache === 'l2' && num(metrics, l2HitRate('load')) === undefined) continue;
        if (cache === 'dram' && (num(metrics, l2HitRate('load')) === undefined || num(metrics, l2HitRate('store')) === undefined)) continue;
        if (num(metrics, `${bytesPerSector(space, op)}.ratio`) === undefined) continue;
        const e = estimate(metrics, cache, space, op);
        if (!(e.bps > 0 && e.bps < e.max)) continue;
        const key = `${space}/${op}`;
        if (e.value <= (best.get(key)?.value ?? 0)) continue;
        best.set(key, { cache, value: e.value, type: e.type, message: message(metrics, cache, space, op, e.bps, e.max) });
      }
    }
  }
  const results: RuleResult[] = [];
  for (const space of SPACES) {
    for (const op of OPERATIONS) {
      const c = best.get(`${space}/${op}`);
      if (c === undefined) continue;
      const title = `${c.cache.toUpperCase()} ${space === 'global' ? 'Global' : 'Local'} ${op === 'load' ? 'Load' : 'Store'} Access Pattern`;
      results.push({
        id,
        section,
        type: 'OPT',
        title,
        message: c.message,
        speedup: speedup(c.type, c.value),
        lines: wastefulLines(ctx.instructions, space, op),
      });
    }
  }
  return results.length > 0 ? results : null;
}
