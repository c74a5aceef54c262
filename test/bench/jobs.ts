/**
 * `profile --jobs 2` in `npm run bench` (issue #42: both cores): ten kernels of one file
 * (kernels/global_loads.ts, the 8- and 16-bit loads: 0.5-1.6 s each) profiled by the CLI one at a
 * time and two at a time, wall time end to end, the mean of 2 pairs (run in turn, so the machine's
 * hour weighs on both alike; 2, not more: the bench is part of CI's 10 minutes); the two reports are
 * the same byte for byte or the bench fails.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const ROOT = join(import.meta.dirname, '..', '..');
const PAIRS = 2;
const built = existsSync(join(ROOT, 'dist', 'commands', 'profile.js'));
const entry = built ? [join(ROOT, 'bin', 'run.js')] : ['--import', 'tsx', join(ROOT, 'bin', 'dev.js')];

function run(jobs: number): { seconds: number; report: string } {
  const out = join(tmpdir(), `warpsight-bench-jobs${jobs}.json`);
  const t0 = performance.now();
  const p = spawnSync(process.execPath, [...entry, 'profile', 'kernels/global_loads.ts', '-k', 'regex:^g_ld_u(8|16)_', '--jobs', String(jobs), '-o', out, '-f'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const seconds = (performance.now() - t0) / 1000;
  if (p.status !== 0) throw new Error(`profile --jobs ${jobs}: exit ${p.status}: ${p.stderr.trim().split('\n').slice(-2).join(' | ')}`);
  return { seconds, report: readFileSync(out, 'utf8') };
}

const one: number[] = [];
const two: number[] = [];
for (let i = 0; i < PAIRS; i++) {
  const a = run(1);
  const b = run(2);
  if (a.report !== b.report) throw new Error('profile --jobs 2 made another report than --jobs 1');
  one.push(a.seconds);
  two.push(b.seconds);
}
const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log(`profile --jobs, 10 kernels of kernels/global_loads.ts (${built ? 'built' : 'dev entry'}): ${mean(one).toFixed(2)} s one at a time, ${mean(two).toFixed(2)} s two at a time (wall, mean of ${PAIRS} pairs), the same report`);
console.log(`profile_jobs1_seconds: ${mean(one).toFixed(3)}`);
console.log(`profile_jobs2_seconds: ${mean(two).toFixed(3)}`);
console.log(`profile_jobs2_speedup: ${(mean(one) / mean(two)).toFixed(2)}`);
