import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { h200 } from '../../src/arch/data/h200.js';
import type { Arch } from '../../src/arch/types.js';

/** the H200 the memory tests model (src/arch/data/h200.ts, with the source of every number) */
export const H200: Arch = h200;

export interface GtLaunch {
  kernel: string;
  family: string;
  instance: number;
  metrics: Record<string, number | string>;
}

const here = dirname(fileURLToPath(import.meta.url));
export const GT_SUMMARY = resolve(here, '../../../shared/groundtruth/h200/summary.json');

let cache: GtLaunch[] | null = null;
export function groundTruth(): GtLaunch[] {
  cache ??= JSON.parse(readFileSync(GT_SUMMARY, 'utf8')) as GtLaunch[];
  return cache;
}

export function gt(kernel: string, instance = 0): Record<string, number> {
  const e = groundTruth().find((x) => x.kernel === kernel && x.instance === instance);
  if (!e) throw new Error(`no ground truth for ${kernel}#${instance}`);
  return e.metrics as Record<string, number>;
}
