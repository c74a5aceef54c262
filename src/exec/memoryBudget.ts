/**
 * A budget on the emulator's own memory (issue 38). The timing model's state follows what is live and
 * device memory is made only where a kernel touches it, but a kernel may still touch more device
 * memory than the host has (1 MiB per page touched), or some structure may grow with a long run; the
 * machine's out-of-memory killer would then end the process without a word. The grid scheduler
 * checks the resident set every CHECK_INSTRUCTIONS warp instructions and every CHECK_PAGES device
 * pages made, and stops the run with an `error:` line once it passes the budget: 3/4 of the
 * machine's memory (or of the cgroup's limit, if lower), or WARPSIGHT_MEMORY_BUDGET_MB.
 */
import { totalmem } from 'node:os';
import { EXIT, UserError } from '../errors.js';
import { formatBytes } from '../memory/deviceMemory.js';

/**
 * warp instructions between checks, counted across launches (a program's many short launches add up):
 * process.memoryUsage.rss() reads /proc/self/stat, whose cost grows with the process's mappings — 3 us
 * in a small process, 2.6 ms in an 8-PE Jacobi's (each device page is one): checked every 65,536
 * instructions, the reads took 8 % of that profile. 2^20 instructions are a fraction of a second of
 * emulation, and growth between checks comes from device pages, which CHECK_PAGES watches.
 */
export const CHECK_INSTRUCTIONS = 1 << 20;
/** device pages (1 MiB each) made between checks */
export const CHECK_PAGES = 256;

interface Budget {
  bytes: number;
  /** where the figure comes from, for the message */
  why: string;
}

/**
 * the environment variable a profile pool (src/bench/pool.ts) sets in its children: they are this many
 * processes profiling at once, and each takes that share of the budget, so that together they stay
 * within it
 */
export const MEMORY_SHARE_ENV = 'WARPSIGHT_MEMORY_SHARE';

function wholeBudget(): Budget {
  const env = process.env['WARPSIGHT_MEMORY_BUDGET_MB'];
  const mb = env === undefined || env === '' ? NaN : Number(env);
  if (Number.isFinite(mb) && mb > 0) return { bytes: mb * 2 ** 20, why: 'WARPSIGHT_MEMORY_BUDGET_MB' };
  const total = totalmem();
  // 0 or a huge number where no cgroup limit applies
  const cgroup = process.constrainedMemory();
  const machine = cgroup > 0 && cgroup < total ? cgroup : total;
  return { bytes: Math.floor(machine * 0.75), why: `3/4 of this machine's ${formatBytes(machine)}; WARPSIGHT_MEMORY_BUDGET_MB sets another` };
}

function budgetFromEnvironment(): Budget {
  const whole = wholeBudget();
  const share = Number(process.env[MEMORY_SHARE_ENV]);
  if (!Number.isInteger(share) || share < 2) return whole;
  return { bytes: Math.floor(whole.bytes / share), why: `${formatBytes(whole.bytes)}, ${whole.why}, split among the ${share} processes of --jobs ${share}` };
}

let budget: Budget | null = null;
let peak = 0;
/** warp instructions run since the last check, over every launch of the process */
let sinceCheck = 0;

/** how many more warp instructions may run before the next check */
export function instructionsBeforeCheck(): number {
  return CHECK_INSTRUCTIONS - sinceCheck;
}

/** a grid ran `n` warp instructions since its last check (or its start) and stops or parks */
export function noteUnchecked(n: number): void {
  sinceCheck += n;
}

/** the highest resident set seen by the checks (and samples) since resetMemoryPeak, in bytes */
export function memoryPeak(): number {
  return peak;
}

/** read the resident set now into the peak (bench: before and after a workload) */
export function sampleMemory(): number {
  const rss = process.memoryUsage.rss();
  if (rss > peak) peak = rss;
  return rss;
}

/** start a new peak (bench: per workload) and read the budget again */
export function resetMemoryPeak(): void {
  peak = process.memoryUsage.rss();
  budget = null;
}

/**
 * throw if the emulator's resident set is over its budget; `where` says what was running
 * (kernel file:line, kernel name) and `done` how far it got
 */
export function checkMemory(where: () => string): void {
  sinceCheck = 0;
  const rss = process.memoryUsage.rss();
  if (rss > peak) peak = rss;
  budget ??= budgetFromEnvironment();
  if (rss <= budget.bytes) return;
  throw new UserError(
    `${where()}: the emulator's own memory reached ${formatBytes(rss)}, over its budget of ${formatBytes(budget.bytes)} (${budget.why}); ` +
      `profile a smaller launch (--grid, --param) or touch less device memory, or run with --no-timing`,
    // the run failed while running, as a runaway loop does
    EXIT.KERNEL_FAULT,
  );
}
