/**
 * The inputs a `warpsight profile` report depends on, as one hash: every file of the profiler
 * (src/, commands/, bin/, schemas/), of the kernels it runs (kernels/, the fidelity probes' kernels),
 * the package manifests (dependency versions), the Node version and the WARPSIGHT_* settings. A
 * report is a pure function of these (the project's rule: same input, same report, byte for byte),
 * so a report made under the same key is the report a new run would make.
 */
import { createHash } from 'node:crypto';
import { hashFiles } from '../../scripts/build-stamp.mjs';

/** folders and files of the repository whose content reaches a report */
export const REPORT_INPUTS = ['src', 'commands', 'bin', 'schemas', 'kernels', 'test/fidelity/probes/kernels', 'package.json', 'package-lock.json', 'tsconfig.json'];

/** sha-256 over the inputs' paths and bytes (sorted, so the order of the directory listing plays no part) */
export function inputKey(root: string): string {
  const h = createHash('sha256');
  h.update(`node ${process.version} ${process.arch}\n`);
  for (const [k, v] of Object.entries(process.env).sort(([a], [b]) => (a < b ? -1 : 1))) if (k.startsWith('WARPSIGHT_')) h.update(`env ${k}=${v ?? ''}\n`);
  return hashFiles(h, root, REPORT_INPUTS).digest('hex');
}

/** the key of one run: the inputs' key and the run's arguments */
export function runKey(inputs: string, args: readonly string[]): string {
  return createHash('sha256').update(inputs).update(JSON.stringify(args)).digest('hex');
}
