/**
 * The profiler's entry point: a kernel file in, a Report out. Commands, validate, bench and tests all
 * go through here.
 */
import { relative } from 'node:path';
import type { Report } from '../types/report.schema.js';
import { DEFAULT_ARCH, getArch } from './arch/index.js';
import type { Dim3 } from './kernel/define.js';
import { guardDefinition } from './kernel/guard.js';
import { type Definition, loadDefinitions, selectDefinitions } from './kernel/load.js';
import { deviceOf } from './profile/finish.js';
import { Session } from './profile/session.js';

export const TOOL_VERSION = '0.1.0';

export interface ProfileRequest {
  file: string;
  kernel?: string | string[];
  arch?: string;
  params?: Record<string, string>;
  grid?: Dim3;
  block?: Dim3;
  cacheControl?: 'all' | 'none';
  maxWarpInstructions?: number;
  sections?: string[];
  metrics?: string[];
  /**
   * run the timing model (default true). It only observes the interpreter, so without it every
   * counter is the same and only what it measures is left out: durations, cycles, throughputs,
   * stall reasons, achieved occupancy. A memory-bound kernel profiles about a quarter faster.
   */
  timing?: boolean;
}

export async function profileFile(req: ProfileRequest): Promise<Report> {
  const defs = await loadDefinitions(req.file);
  const names = req.kernel === undefined ? undefined : Array.isArray(req.kernel) ? req.kernel : [req.kernel];
  return profileDefinitions(selectDefinitions(defs, names, req.file), req);
}

/** profile definitions already loaded (tests define kernels inline); `req.file` names their source file */
export function profileDefinitions(chosen: readonly Definition[], req: ProfileRequest): Report {
  const arch = getArch(req.arch ?? DEFAULT_ARCH);
  const display = relative(process.cwd(), req.file) || req.file;
  const session = new Session({
    arch,
    file: display,
    cacheControl: req.cacheControl ?? 'all',
    params: req.params ?? {},
    ...(req.grid ? { grid: req.grid } : {}),
    ...(req.block ? { block: req.block } : {}),
    ...(req.maxWarpInstructions ? { maxWarpInstructions: req.maxWarpInstructions } : {}),
    ...(req.timing === false ? { timing: false } : {}),
  });
  for (const d of chosen) {
    // the kernel file's own code runs behind a guard: what it throws becomes one located error
    const g = guardDefinition(d, display);
    if (g.kind === 'kernel') session.runKernel(g);
    else session.runProgram(g);
  }
  return {
    version: 1,
    tool: { name: 'warpsight', version: TOOL_VERSION },
    device: deviceOf(arch),
    options: {
      cacheControl: req.cacheControl ?? 'all',
      ...(req.sections?.length ? { sections: req.sections } : {}),
      ...(req.metrics?.length ? { metrics: req.metrics } : {}),
      ...(req.timing === false ? { timing: false } : {}),
    },
    kernels: session.results,
  };
}
