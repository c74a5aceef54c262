/**
 * vitest globalSetup: the full-size ground-truth launches are profiled once, before the tests, in
 * parallel child processes (one per core, the longest runs first), each running the CLI's commands
 * (`warpsight profile … -o`) one after another (cliWorker.mjs). The fidelity tests (counts, caches,
 * timing) read these reports instead of each profiling the same kernels again.
 *
 * A report is kept from an earlier run when nothing it depends on changed: beside each report the
 * key of its inputs (test/setup/inputKey.ts: every source, kernel and manifest file, Node's version,
 * the run's arguments). A changed file anywhere in the profiler or the kernels profiles everything
 * again; WARPSIGHT_FIDELITY_FRESH=1 does so regardless.
 */
import { fork } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { FIDELITY_RUNS, type FidelityRun, reportPath } from '../fidelity/reports.js';
import { inputKey, runKey } from './inputKey.js';
import { BUILT_CLI } from './cli.js';

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * a child process running `warpsight profile` commands in turn (cliWorker.mjs: the CLI's commands in
 * one process, its start paid once), built or from the sources as the other tests' CLI (cli.ts)
 */
interface CliWorker {
  profile(name: string, args: readonly string[], dir: string): Promise<void>;
  close(): void;
}

async function startWorker(): Promise<CliWorker> {
  const child = fork(join(ROOT, 'test', 'setup', 'cliWorker.mjs'), [ROOT, BUILT_CLI ? 'built' : 'dev'], {
    cwd: ROOT,
    execArgv: BUILT_CLI ? [] : ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => {
    // the last lines are what a failure reports
    err = (err + d.toString()).slice(-4000);
  });
  let answer: ((m: { code?: number; error?: string }) => void) | null = null;
  let exited: ((code: number | null) => void) | null = null;
  child.on('message', (m: { ready?: boolean; code?: number; error?: string }) => answer?.(m));
  child.on('exit', (code) => exited?.(code));
  await new Promise<void>((resolve, reject) => {
    answer = () => resolve();
    exited = (code) => reject(new Error(`the fidelity setup's CLI worker ended (exit ${code}): ${err.trim().split('\n').slice(-3).join(' | ')}`));
  });
  return {
    profile: (name, args, dir) =>
      new Promise((resolve, reject) => {
        err = '';
        const fail = (why: string): void => reject(new Error(`profiling ${name} failed (${why}): ${err.trim().split('\n').slice(-3).join(' | ')}`));
        answer = (m) => (m.code === 0 ? resolve() : fail(m.error ?? `exit ${m.code}`));
        exited = (code) => fail(`the worker ended, exit ${code}`);
        child.send({ id: name, argv: ['profile', ...args, '-o', reportPath(dir, name), '-f', '--no-check-exit-code', '--json'] });
      }),
    close: () => child.kill(),
  };
}

const keyPath = (dir: string, name: string): string => join(dir, `${name}.key`);
const secondsPath = (dir: string): string => join(dir, 'seconds.json');

/** the seconds of each run in a seconds.json, {} if there is none */
function readSeconds(path: string): Record<string, number> {
  try {
    const v = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, number>) : {};
  } catch {
    return {};
  }
}

/**
 * the seconds each run took when last profiled here; on a fresh clone (CI), those a run of the setup
 * took on the 2-core machine (test/setup/fidelitySeconds.json, from out/fidelity-reports/seconds.json):
 * in list order the slowest run (wavefronts_probe, 63-77 s) began among the last and ran half a minute
 * alone
 */
function lastSeconds(dir: string): Record<string, number> {
  return { ...readSeconds(join(import.meta.dirname, 'fidelitySeconds.json')), ...readSeconds(secondsPath(dir)) };
}

/** whether the report of `run` in `dir` was made from the inputs `key` names */
function upToDate(dir: string, run: FidelityRun, key: string): boolean {
  const k = keyPath(dir, run.name);
  return existsSync(k) && existsSync(reportPath(dir, run.name)) && readFileSync(k, 'utf8') === key;
}

export default async function setup(project: TestProject): Promise<void> {
  const dir = join(ROOT, 'out', 'fidelity-reports');
  mkdirSync(dir, { recursive: true });
  project.provide('fidelityReports', dir);
  const fresh = process.env['WARPSIGHT_FIDELITY_FRESH'] === '1';
  const inputs = inputKey(ROOT);
  const keys = new Map(FIDELITY_RUNS.map((r) => [r.name, runKey(inputs, r.args)]));
  // the longest first, by the times the runs took last (lastSeconds), so the workers finish together.
  // Runs never timed go first (in list order); every report is a file of its own, so the order reaches
  // no output.
  const last = lastSeconds(dir);
  const queue = FIDELITY_RUNS.filter((r) => fresh || !upToDate(dir, r, keys.get(r.name)!)).sort(
    (a, b) => (last[b.name] ?? Infinity) - (last[a.name] ?? Infinity) || 0,
  );
  const workers = Math.max(1, Math.min(availableParallelism(), queue.length));
  const t0 = Date.now();
  const seconds = new Map<string, number>();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      if (queue.length === 0) return;
      const worker = await startWorker();
      try {
        for (let run = queue.shift(); run; run = queue.shift()) {
          const t = Date.now();
          // the old key goes first: a run that fails or is stopped leaves no report that claims to be current
          rmSync(keyPath(dir, run.name), { force: true });
          await worker.profile(run.name, run.args, dir);
          writeFileSync(keyPath(dir, run.name), keys.get(run.name)!);
          seconds.set(run.name, (Date.now() - t) / 1000);
        }
      } finally {
        worker.close();
      }
    }),
  );
  writeFileSync(secondsPath(dir), `${JSON.stringify({ ...last, ...Object.fromEntries([...seconds].map(([n, t]) => [n, Math.round(t * 10) / 10])) }, null, 2)}\n`);
  const made = seconds.size;
  const slowest = [...seconds].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([n, s]) => `${n} ${s.toFixed(0)} s`);
  process.stderr.write(
    `fidelity reports: ${made} of ${FIDELITY_RUNS.length} profiled in ${((Date.now() - t0) / 1000).toFixed(0)} s (${workers} processes${made ? `; slowest ${slowest.join(', ')}` : ''}), ${FIDELITY_RUNS.length - made} unchanged since their inputs were (out/fidelity-reports/*.key)\n`,
  );
}

declare module 'vitest' {
  export interface ProvidedContext {
    fidelityReports: string;
  }
}
