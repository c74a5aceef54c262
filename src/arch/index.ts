/**
 * The GPUs Warpsight emulates, by id. Hardware numbers live in `data/*.ts` with their sources;
 * this module only looks them up.
 */
import { UserError } from '../errors.js';
import { a100, a100Sources } from './data/a100.js';
import { h100, h100Sources } from './data/h100.js';
import { h200, h200Sources } from './data/h200.js';
import { p100, p100Sources } from './data/p100.js';
import { H200_MIG, migInstance } from './mig.js';
import type { ArchSpec } from './sources.js';
import type { Arch } from './types.js';

export type { Arch } from './types.js';
export type { ArchSources, ArchSpec } from './sources.js';

/** the GPU the ground truth was measured on, and the default of every command */
export const DEFAULT_ARCH = 'h200';

const H200: ArchSpec = { arch: h200, sources: h200Sources };

const SPECS: readonly ArchSpec[] = [
  { arch: a100, sources: a100Sources },
  { arch: h100, sources: h100Sources },
  H200,
  // MIG instances of the H200 (h200-mig-1g … h200-mig-7g)
  ...H200_MIG.map((p) => migInstance(H200, p)),
  // the seed's occupancy example's GPU (sm_60)
  { arch: p100, sources: p100Sources },
];

/** every arch with its sources, sorted by id */
export function listArchSpecs(): readonly ArchSpec[] {
  return SPECS;
}

/** every arch, sorted by id */
export function listArchs(): readonly Arch[] {
  return SPECS.map((s) => s.arch);
}

function specOf(id: string): ArchSpec {
  const want = id.trim().toLowerCase();
  const spec = SPECS.find((s) => s.arch.id === want);
  if (!spec) throw new UserError(`unknown --arch '${id}': expected one of ${SPECS.map((s) => s.arch.id).join(', ')}`, 2);
  return spec;
}

/** the arch for an id (case-insensitive); a UserError listing the valid ids otherwise */
export function getArch(id: string): Arch {
  return specOf(id).arch;
}

/** where each number of an arch comes from */
export function getArchSources(id: string): ArchSpec['sources'] {
  return specOf(id).sources;
}
