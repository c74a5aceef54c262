/** run a multi-PE program on its PEs (system.ts) and collect what the report needs */
import type { ProgramDef } from '../kernel/define.js';
import type { PeRun, SessionOptions } from '../profile/session.js';
import { type GpuSharing, PeSystem } from './system.js';

export async function runPeProgram(p: ProgramDef, opts: SessionOptions, pes: number, share: GpuSharing = 'none'): Promise<PeRun> {
  const sys = new PeSystem(opts.arch, opts, pes, p, share);
  const scalars = (sys.sessions[0] as NonNullable<(typeof sys.sessions)[0]>).programScalars(p);
  await sys.run(p, scalars);
  sys.finish(p);
  return { results: sys.results, programs: sys.sessions.flatMap((s) => s.programs) };
}
