/**
 * `profile --jobs` and `validate --jobs` (src/profile/jobs.ts): the kernels of a file profiled two at
 * a time in processes of their own make the report one process makes in turn, byte for byte, with
 * the progress lines and the first failure in the file's order; where the kernels depend on one
 * another they run in turn and a warning says why.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inOrder } from '../../src/bench/inOrder.js';
import { kernelFile, scratch } from '../hostile/harness.js';
import { CLI_ENTRY, ROOT } from '../setup/cli.js';

/** four small kernels of different shapes */
const FILE = 'kernels/warp_primitives.ts';

function cli(args: string[], env: Record<string, string> = {}): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [...CLI_ENTRY, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0', ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 0));

describe('inOrder', () => {
  it('runs at most `jobs` tasks at a time, starts the next when any ends, and yields in task order', async () => {
    let running = 0;
    let most = 0;
    const startedAt: number[] = [];
    const ends: Array<() => void> = [];
    const results = inOrder(4, 2, (i) => {
      startedAt.push(i);
      running++;
      most = Math.max(most, running);
      return new Promise<number>((resolve) => {
        ends[i] = () => {
          running--;
          resolve(i * 10);
        };
      });
    });
    const first = results.next();
    await tick();
    expect(startedAt).toEqual([0, 1]);
    // task 1 ends before task 0: task 2 starts at once, though result 0 is not in yet
    ends[1]?.();
    await tick();
    expect(startedAt).toEqual([0, 1, 2]);
    ends[0]?.();
    expect((await first).value?.result).toBe(0);
    await tick();
    expect(startedAt).toEqual([0, 1, 2, 3]);
    expect((await results.next()).value?.result).toBe(10);
    ends[3]?.();
    ends[2]?.();
    expect((await results.next()).value?.result).toBe(20);
    expect((await results.next()).value?.result).toBe(30);
    expect((await results.next()).done).toBe(true);
    expect(most).toBe(2);
  });

  it('throws the first failure in task order, and starts nothing after it', async () => {
    const startedAt: number[] = [];
    const results = inOrder(5, 1, (i) => {
      startedAt.push(i);
      return i === 1 ? Promise.reject(new Error(`task ${i} failed`)) : Promise.resolve(i);
    });
    expect((await results.next()).value?.result).toBe(0);
    await expect(results.next()).rejects.toThrow('task 1 failed');
    await tick();
    expect(startedAt).toEqual([0, 1]);
  });
});

describe('profile --jobs', () => {
  it("two at a time: one process's JSON and HTML byte for byte, progress lines in the file's order", () => {
    const dir = scratch('jobs-html');
    const html = (n: number): string => join(dir, `r${n}.html`);
    const one = cli(['profile', FILE, '--json', '--html', html(1)]);
    const two = cli(['profile', FILE, '--json', '--html', html(2), '--jobs', '2'], { CI: '1' });
    expect(one.code).toBe(0);
    expect(two.code).toBe(0);
    expect(two.stdout).toBe(one.stdout);
    // the page explains every memory line of every kernel: each kernel does so in its own process
    expect(readFileSync(html(2), 'utf8')).toBe(readFileSync(html(1), 'utf8'));
    expect(two.stderr).not.toMatch(/warning/);
    const names = (JSON.parse(one.stdout) as { kernels: { name: string }[] }).kernels.map((k) => k.name);
    expect(names.length).toBe(4);
    const progress = two.stderr.split('\n').filter((l) => l.startsWith('profile ['));
    expect(progress.map((l) => l.replace(/: [\d.]+ s$/, ''))).toEqual(names.map((n, i) => `profile [${i + 1}] ${FILE} -k ${n}`));
  });

  it("a kernel's fault is the error one process gives, whichever kernel ends first", () => {
    const dir = scratch('jobs');
    const kernel = (name: string, index: string) => `export const ${name} = defineKernel({
  name: '${name}', params: { out: ptr('global', f32) }, launch: { grid: 64, block: 128 },
  setup: (h) => ({ out: h.alloc(f32, 64 * 128, 'out') }),
  body: (k, { out }) => { out.at(${index}).store(1); },
});`;
    const file = kernelFile(
      dir,
      `import { defineKernel, f32, ptr } from '@API';
${kernel('k_first', 'k.blockIdx.x.mul(128).add(k.threadIdx.x)')}
${kernel('k_oob', 'k.blockIdx.x.mul(128).add(k.threadIdx.x).add(64 * 128)')}
${kernel('k_last', 'k.threadIdx.x')}
`,
      'fault',
    );
    const one = cli(['profile', file]);
    const two = cli(['profile', file, '--jobs', '2']);
    expect(one.code).not.toBe(0);
    expect(one.stderr).toMatch(/^error: .*k_oob.*\n$/s);
    expect(two.code).toBe(one.code);
    expect(two.stderr).toBe(one.stderr);
  });

  it('kernels that see the L2 the one before left run in turn, with a warning saying why', () => {
    const one = cli(['profile', FILE, '--cache-control', 'none']);
    const two = cli(['profile', FILE, '--cache-control', 'none', '--jobs', '2']);
    expect(two.stdout).toBe(one.stdout);
    expect(two.stderr).toBe('warning: --jobs 2: the kernels run one at a time: with --cache-control none each kernel finds the L2 the one before it left\n');
  });
});

describe('validate --jobs', () => {
  it('compares the same rows as one at a time', () => {
    const dir = scratch('jobs-validate');
    // ncu's raw CSV shape, as profile prints it: every row matches its own profile
    const csv = join(dir, 'raw.csv');
    const raw = cli(['profile', FILE, '--csv', '--page', 'raw']);
    expect(raw.code).toBe(0);
    writeFileSync(csv, raw.stdout);
    const one = cli(['validate', FILE, '--ncu', csv, '--json']);
    const two = cli(['validate', FILE, '--ncu', csv, '--json', '--jobs', '2']);
    expect(one.code).toBe(0);
    expect(two.stdout).toBe(one.stdout);
    expect(readFileSync(csv, 'utf8').split('\n').length).toBeGreaterThan(4);
  });
});
