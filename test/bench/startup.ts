/**
 * The fixed cost of the CLI in `npm run bench`: a 1-block profile end to end (process start to exit:
 * Node, the loader, oclif, the kernel file's import, one launch, the report checked and written),
 * the median of 5 runs, for the dev entry (bin/dev.js through tsx) and, when built (npm run build),
 * the packaged one (bin/run.js). Issue #42's target: under 0.4 s. Besides wall time, the CPU time
 * of the finished child (Linux: the parent's cutime + cstime from /proc/self/stat), which holds on a
 * shared machine where wall time does not; and the load average the figures were taken under.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const ROOT = join(import.meta.dirname, '..', '..');
const RUNS = 5;
/** clock ticks per second of /proc's times (USER_HZ: 100 on every Linux build Node runs on) */
const TICKS = 100;
const ARGS = ['profile', 'kernels/fma_chain.ts', '-k', 'fma_chain', '--grid', '1', '-o', join(tmpdir(), 'warpsight-bench-1block.json'), '-f', '--no-check-exit-code'];

/** CPU seconds of this process's reaped children so far, or null off Linux */
function childrenCpu(): number | null {
  try {
    // the fields after the command name's closing parenthesis: state is field 3, cutime 16, cstime 17
    const rest = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    return (Number(rest[13]) + Number(rest[14])) / TICKS;
  } catch {
    return null;
  }
}

function measure(label: string, argv: string[]): void {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let r = 0; r <= RUNS; r++) {
    const c0 = childrenCpu();
    const t0 = performance.now();
    const p = spawnSync(process.execPath, argv, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    const t = (performance.now() - t0) / 1000;
    const c1 = childrenCpu();
    if (p.status !== 0) throw new Error(`${label}: exit ${p.status}: ${p.stderr.trim().split('\n').slice(-2).join(' | ')}`);
    // the first run warms the disk cache and tsx's transform cache
    if (r === 0) continue;
    wall.push(t);
    if (c0 !== null && c1 !== null) cpu.push(c1 - c0);
  }
  wall.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  const mid = RUNS >> 1;
  const cpuText = cpu.length === RUNS ? `, ${cpu[mid]!.toFixed(2)} s CPU (${cpu[0]!.toFixed(2)}-${cpu[RUNS - 1]!.toFixed(2)})` : '';
  console.log(`1-block profile, ${label} (${ARGS.slice(0, 6).join(' ')}): ${wall[mid]!.toFixed(2)} s wall (median of ${RUNS}, ${wall[0]!.toFixed(2)}-${wall[RUNS - 1]!.toFixed(2)} s)${cpuText}, load average ${loadavg()[0]!.toFixed(1)}; target 0.4 s`);
  console.log(`one_block_profile_seconds: ${wall[mid]!.toFixed(3)}`);
  if (cpu.length === RUNS) console.log(`one_block_profile_cpu_seconds: ${cpu[mid]!.toFixed(3)}`);
}

measure('dev entry (bin/dev.js, tsx)', ['--import', 'tsx', join(ROOT, 'bin', 'dev.js'), ...ARGS]);
if (existsSync(join(ROOT, 'dist', 'commands', 'profile.js'))) measure('built (bin/run.js)', [join(ROOT, 'bin', 'run.js'), ...ARGS]);
else console.log('1-block profile, built: no dist/ (npm run build) -- skipped');
