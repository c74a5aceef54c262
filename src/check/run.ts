/**
 * `warpsight check`: a kernel file's kernels and programs run in the interpreter (counters only, no
 * timing model) with the checker observing every access; the findings come back as a CheckReport.
 */
import { relative } from 'node:path';
import type { CheckReport } from '../../types/check.schema.js';
import { DEFAULT_ARCH, getArch } from '../arch/index.js';
import { KernelFault } from '../errors.js';
import type { Dim3 } from '../kernel/define.js';
import { guardDefinition } from '../kernel/guard.js';
import { type Definition, loadDefinitions, selectDefinitions } from '../kernel/load.js';
import { Session } from '../profile/session.js';
import { TOOL_VERSION } from '../profile.js';
import { Checker } from './checker.js';

export type CheckTool = 'racecheck' | 'synccheck' | 'initcheck' | 'memcheck';
export const CHECK_TOOLS: readonly CheckTool[] = ['racecheck', 'synccheck', 'initcheck', 'memcheck'];

export interface CheckRequest {
  file: string;
  kernel?: string[];
  arch?: string;
  params?: Record<string, string>;
  grid?: Dim3;
  block?: Dim3;
  maxWarpInstructions?: number;
  /** the tools whose findings to report (default: all four) */
  tools?: readonly CheckTool[];
  /** the shadow memory's budget in bytes (default 256 MiB) */
  shadowBytes?: number;
}

export const DEFAULT_SHADOW_BYTES = 256 * 1024 * 1024;

export async function checkFile(req: CheckRequest): Promise<CheckReport> {
  const defs = await loadDefinitions(req.file);
  return checkDefinitions(selectDefinitions(defs, req.kernel, req.file), req);
}

/** check definitions already loaded (tests load a file once); `req.file` names their source file */
export function checkDefinitions(chosen: readonly Definition[], req: CheckRequest): CheckReport {
  const arch = getArch(req.arch ?? DEFAULT_ARCH);
  const display = relative(process.cwd(), req.file) || req.file;
  // a placeholder memory for the checker until the session's exists: the checker listens to the session's
  const shadowBytes = req.shadowBytes ?? DEFAULT_SHADOW_BYTES;
  let checker: Checker | null = null;
  const session = new Session({
    arch,
    file: display,
    cacheControl: 'none',
    params: req.params ?? {},
    timing: false,
    ...(req.grid ? { grid: req.grid } : {}),
    ...(req.block ? { block: req.block } : {}),
    ...(req.maxWarpInstructions ? { maxWarpInstructions: req.maxWarpInstructions } : {}),
    check: {
      begin: (env) => (checker as Checker).begin(env),
      compiled: (prog) => (checker as Checker).compiled(prog),
      end: () => (checker as Checker).end(),
    },
  });
  checker = new Checker(session.mem, { shadowBytes });
  try {
    for (const d of chosen) {
      const g = guardDefinition(d, display);
      try {
        if (g.kind === 'kernel') session.runKernel(g);
        else session.runProgram(g);
      } catch (e) {
        // memcheck's faults are findings; a deadlock, a runaway loop or a bad file stay errors
        if (!(e instanceof KernelFault) || !checker.fault(e)) throw e;
      }
    }
  } finally {
    session.close();
  }
  const tools = req.tools ?? CHECK_TOOLS;
  const findings = checker.findings.filter((f) => tools.includes(f.tool));
  const byTool = Object.fromEntries(CHECK_TOOLS.map((t) => [t, findings.filter((f) => f.tool === t).length])) as CheckReport['summary']['byTool'];
  return {
    version: 1,
    tool: { name: 'warpsight', version: TOOL_VERSION },
    file: display,
    device: arch.name,
    tools: [...tools],
    launches: checker.launches,
    findings,
    summary: { errors: findings.length, byTool },
    shadow: { budgetBytes: shadowBytes, peakBytes: checker.peakShadowBytes },
    notes: checker.notes,
  };
}
