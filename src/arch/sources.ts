/**
 * Where each number of an arch comes from: one sentence per field, keyed by the field's path
 * (`latency.l2Hit`, `carveoutPolicy.capBytes`). Tags as in the references: [OBS] our own H200
 * measurement (../shared/groundtruth), [DOC] NVIDIA documentation, [SRC] NVIDIA source
 * (cuda_occupancy.h), [MEAS] third-party measurement, [NV] NVIDIA staff, [INFER] our guess.
 */
import type { Arch } from './types.js';

type Leaf = number | string | boolean | readonly unknown[];

/** dotted paths of every leaf field of T: arrays and scalars are leaves, objects are walked */
type FieldPaths<T, P extends string = ''> = {
  [K in keyof T & string]-?: NonNullable<T[K]> extends Leaf ? `${P}${K}` : FieldPaths<NonNullable<T[K]>, `${P}${K}.`>;
}[keyof T & string];

export type ArchField = FieldPaths<Arch>;
export type ArchSources = Record<ArchField, string>;

/** an arch with the sources of its numbers: what each `src/arch/data/*.ts` file exports */
export interface ArchSpec {
  arch: Arch;
  sources: ArchSources;
}

/** the dotted leaf paths an arch object actually has (its optional groups included when present) */
export function archFieldPaths(value: object, prefix = ''): string[] {
  const out: string[] = [];
  for (const [key, v] of Object.entries(value)) {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) out.push(...archFieldPaths(v as object, `${prefix}${key}.`));
    else out.push(`${prefix}${key}`);
  }
  return out;
}
