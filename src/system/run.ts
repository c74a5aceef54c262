/** run a multi-PE program on its PEs (system.ts) and collect what the report needs */
import type { ProgramDef } from '../kernel/define.js';
import type { PeRun, SessionOptions } from '../profile/session.js';
import { type NodeLayout, SINGLE_NODE, parseTransport } from './network.js';
import { type GpuSharing, PeSystem } from './system.js';

/** where the PEs run: the flags' layout over the program's own (pesPerNode, transport) */
export function nodeLayout(p: ProgramDef, pesPerNode: number | undefined, transport: string | undefined, where: string): NodeLayout {
  const t = transport ?? p.transport;
  const source = pesPerNode !== undefined ? '--pes-per-node' : `${where}: program '${p.name}' pesPerNode`;
  return { pesPerNode: pesPerNode ?? p.pesPerNode ?? SINGLE_NODE.pesPerNode, transport: t === undefined ? SINGLE_NODE.transport : parseTransport(t, transport !== undefined ? '--transport' : `${where}: program '${p.name}'`), source };
}

export async function runPeProgram(p: ProgramDef, opts: SessionOptions, pes: number, share: GpuSharing = 'none', layout: NodeLayout = SINGLE_NODE): Promise<PeRun> {
  const sys = new PeSystem(opts.arch, opts, pes, p, share, layout);
  const scalars = (sys.sessions[0] as NonNullable<(typeof sys.sessions)[0]>).programScalars(p);
  try {
    await sys.run(p, scalars);
    sys.finish(p);
    return { results: sys.results, programs: sys.sessions.flatMap((s) => s.programs) };
  } finally {
    sys.close();
  }
}
