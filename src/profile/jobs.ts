/**
 * `profile --jobs N`: the kernels of a file profiled N at a time, each in a process of its own (the
 * profile pool, src/bench/pool.ts), into the report one process makes of them in turn, byte for
 * byte. That holds where each kernel's entry does not depend on the ones before it: a kernel runs
 * from its own setup, its buffers are freed after it (Session.runKernel) and with `--cache-control
 * all` its launch starts from flushed caches. Programs, a kept L2, the launch filters and --explain
 * tie the definitions together: those run one at a time.
 */
import type { KernelResult, Report } from '../../types/report.schema.js';
import { type Done, inOrder } from '../bench/inOrder.js';
import { createProfilePool } from '../bench/pool.js';
import { filtersNothing } from '../cli/launches.js';
import type { Definition } from '../kernel/load.js';
import type { ProfileRequest } from '../profile.js';

/** why the chosen definitions must run in one process, in turn; null when each may run in a process of its own */
export function whyInTurn(chosen: readonly Definition[], req: ProfileRequest): string | null {
  if (chosen.some((d) => d.kind === 'program')) return 'a program runs its launches in turn on one device';
  if ((req.cacheControl ?? 'all') === 'none') return 'with --cache-control none each kernel finds the L2 the one before it left';
  if (!filtersNothing(req.launches ?? {})) return 'the launch filters (--kernel-id, -s, -c) count launches across the kernels';
  // --html explains every line ('all'), which each kernel does for itself
  if (req.explain !== undefined && req.explain !== 'all') return '--explain looks for its lines across the kernels';
  // a child is told a kernel by its name
  const names = chosen.map((d) => d.name);
  if (new Set(names).size !== names.length || names.some((n) => n.startsWith('regex:'))) return 'a kernel name is not its alone (two kernels share it, or it reads as regex:)';
  return null;
}

/**
 * The chosen kernels profiled `req.jobs` at a time; their entries, in the file's order and numbered
 * from 0 as one session numbers them, make the report. Progress goes in that order too.
 */
export async function profileInJobs(chosen: readonly Definition[], req: ProfileRequest, display: string): Promise<Report> {
  // what a child is sent is data: the callbacks stay here
  const { progress, onInTurn: _told, jobs = 1, ...one } = req;
  const pool = createProfilePool(Math.min(jobs, chosen.length));
  try {
    const reports = inOrder(chosen.length, jobs, (i) => pool.profile({ ...one, kernel: (chosen[i] as Definition).name }));
    const kernels: KernelResult[] = [];
    let first: Report | undefined;
    for (const [i, d] of chosen.entries()) {
      const label = `${display} -k ${d.name}`;
      progress?.start(i, 0, label);
      const { result: report, seconds } = (await reports.next()).value as Done<Report>;
      progress?.done(i, 0, label, seconds);
      first ??= report;
      for (const k of report.kernels) kernels.push({ ...k, id: kernels.length });
    }
    progress?.finish();
    return { ...(first as Report), kernels };
  } finally {
    pool.close();
  }
}
