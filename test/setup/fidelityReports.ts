/**
 * vitest globalSetup: the full-size ground-truth launches are profiled once, before the tests, in
 * parallel child processes (one per core), through the CLI (`warpsight profile … -o`). The fidelity
 * tests (counts, caches, timing) read these reports instead of each profiling the same kernels again.
 */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { FIDELITY_RUNS, reportPath } from '../fidelity/reports.js';

const ROOT = join(import.meta.dirname, '..', '..');

function profileOnce(name: string, args: readonly string[], dir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const out = reportPath(dir, name);
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bin', 'dev.js'), 'profile', ...args, '-o', out, '-f', '--no-check-exit-code', '--json'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`profiling ${name} failed (exit ${code}): ${err.trim().split('\n').slice(-3).join(' | ')}`))));
  });
}

export default async function setup(project: TestProject): Promise<void> {
  const dir = join(ROOT, 'out', 'fidelity-reports');
  mkdirSync(dir, { recursive: true });
  project.provide('fidelityReports', dir);
  const queue = [...FIDELITY_RUNS];
  const workers = Math.max(1, Math.min(availableParallelism(), queue.length));
  const t0 = Date.now();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      for (let run = queue.shift(); run; run = queue.shift()) await profileOnce(run.name, run.args, dir);
    }),
  );
  process.stderr.write(`fidelity reports: ${FIDELITY_RUNS.length} profiles in ${((Date.now() - t0) / 1000).toFixed(0)} s (${workers} processes)\n`);
}

declare module 'vitest' {
  export interface ProvidedContext {
    fidelityReports: string;
  }
}
