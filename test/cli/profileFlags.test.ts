/**
 * ncu's CLI habits on `warpsight profile`, one test per flag, each profiling a bundled kernel
 * (kernels/warp_primitives.ts: four small kernels, 256 blocks of 256 threads) through the command
 * class in-process; the exit-code and overwrite tests go through the dev entry.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { format } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import Profile from '../../commands/profile.js';
import type { Report } from '../../types/report.schema.js';
import { parseCsvRows } from '../../src/report/ncuCsv.js';
import { CLI_ENTRY } from '../setup/cli.js';

const ROOT = join(import.meta.dirname, '..', '..');
const FILE = 'kernels/warp_primitives.ts';

async function run(args: string[]): Promise<{ out: string; result: unknown }> {
  let out = '';
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  });
  const log = vi.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => {
    out += `${format(...parts)}\n`;
  });
  try {
    const result = await Profile.run(args, ROOT);
    return { out, result };
  } finally {
    write.mockRestore();
    log.mockRestore();
  }
}

/** a run that fails: the one `error:` line it prints on stderr */
async function fails(args: string[]): Promise<string> {
  let err = '';
  const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    err += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  });
  try {
    await expect(run(args)).rejects.toThrow(/EEXIT/);
  } finally {
    write.mockRestore();
  }
  return err.split('\n').filter((l) => l.startsWith('error: ')).join('\n');
}

async function json(args: string[]): Promise<Report> {
  return JSON.parse((await run([...args, '--json'])).out) as Report;
}

function cli(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [...CLI_ENTRY, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function csvRows(text: string): string[][] {
  return parseCsvRows(text);
}

afterEach(() => vi.restoreAllMocks());

describe('profile: ncu flags', () => {
  it('--list-sets: basic, detailed, full with their sections', async () => {
    const { result, out } = await run(['--list-sets']);
    const sets = (result as { sets: { id: string; sections: string[] }[] }).sets;
    expect(sets.map((s) => s.id)).toEqual(['basic', 'detailed', 'full']);
    expect(sets[0]?.sections).toEqual(['LaunchStats', 'Occupancy', 'SpeedOfLight', 'WorkloadDistribution']);
    expect(sets[2]?.sections).toHaveLength(11);
    expect(out).toMatch(/basic\s+LaunchStats, Occupancy, SpeedOfLight, WorkloadDistribution/);
  });

  it('--set basic collects only its sections: the console, CSV and JSON agree', async () => {
    const { out } = await run([FILE, '-k', 'shfl_broadcast', '--set', 'basic']);
    expect(out).toContain('Section: GPU Speed Of Light Throughput');
    expect(out).toContain('Section: Launch Statistics');
    expect(out).not.toContain('Section: Memory Workload Analysis');
    const r = await json([FILE, '-k', 'shfl_broadcast', '--set', 'basic']);
    const k = r.kernels[0];
    expect(k?.metrics['launch__grid_size']).toBe(256);
    // the memory tables' counters are not part of the basic set
    expect(k?.metrics['smsp__sass_inst_executed_op_global_st.sum']).toBeUndefined();
    expect(k?.instructions).toEqual([]);
    expect(new Set(k?.rules.map((x) => x.section))).toEqual(new Set(['SpeedOfLight', 'LaunchStats', 'Occupancy']));
    expect(await fails([FILE, '--set', 'everything'])).toContain('--set everything: unknown section set; use basic, detailed, full');
  });

  it('--list-sections: every section with its sets', async () => {
    const { result } = await run(['--list-sections']);
    const sections = (result as { sections: { id: string; sets: string[]; metrics: number }[] }).sections;
    expect(sections).toHaveLength(11);
    expect(sections.find((s) => s.id === 'SourceCounters')?.sets).toEqual(['detailed', 'full']);
    expect(sections.find((s) => s.id === 'SpeedOfLight')?.metrics).toBe(11);
  });

  it('--query-metrics: the registry with units and descriptions; --metrics filters it', async () => {
    const { result, out } = await run(['--query-metrics', '--metrics', 'dram__bytes']);
    const metrics = (result as { metrics: { id: string; unit: string; description: string }[] }).metrics;
    expect(metrics.map((m) => m.id)).toEqual(['dram__bytes.sum.per_second', 'dram__bytes_read.sum', 'dram__bytes_write.sum']);
    expect(metrics[1]).toMatchObject({ unit: 'byte', description: 'bytes read from device memory (64-byte fill granules on the H200)' });
    expect(out).toMatch(/^Device NVIDIA H200\n/);
    expect(out).toMatch(/dram__bytes_read\.sum\s+byte\s+lower\s+bytes read from device memory/);
    expect(metrics[1]).toMatchObject({ better: 'lower' });
    const all = (await run(['--query-metrics'])).result as { metrics: unknown[] };
    expect(all.metrics.length).toBeGreaterThan(150);
  });

  it('--kernel-name is the long form of -k (and --kernel still works)', async () => {
    const r = await json([FILE, '--kernel-name', 'tile_shfl', '--kernel', 'warp_votes', '--section', 'LaunchStats']);
    expect(r.kernels.map((k) => k.name)).toEqual(['tile_shfl', 'warp_votes']);
  });

  it('-c/--launch-count keeps the first launches and stops the run', async () => {
    const r = await json([FILE, '-c', '2', '--section', 'LaunchStats']);
    expect(r.kernels.map((k) => [k.id, k.name])).toEqual([
      [0, 'shfl_broadcast'],
      [1, 'tile_shfl'],
    ]);
  });

  it('-s/--launch-skip skips matching launches (with -c: a window)', async () => {
    expect((await json([FILE, '-s', '3', '--section', 'LaunchStats'])).kernels.map((k) => k.name)).toEqual(['warp_votes']);
    expect((await json([FILE, '--launch-skip', '1', '--launch-count', '2', '--section', 'LaunchStats'])).kernels.map((k) => k.name)).toEqual(['tile_shfl', 'binary_partition_loop']);
    expect(await fails([FILE, '-s', '4'])).toContain('no launch of kernels/warp_primitives.ts matches the launch filters');
  });

  it('--kernel-id context:stream:[regex:]name:invocation', async () => {
    expect((await json([FILE, '--kernel-id', '1:7:warp_votes:1', '--section', 'LaunchStats'])).kernels.map((k) => k.name)).toEqual(['warp_votes']);
    expect((await json([FILE, '--kernel-id', '::regex:^(tile|binary):', '--section', 'LaunchStats'])).kernels.map((k) => k.name)).toEqual(['tile_shfl', 'binary_partition_loop']);
    // stream 3 holds no launch; a second invocation of a kernel launched once is none either
    expect(await fails([FILE, '--kernel-id', ':3::'])).toContain('matches the launch filters');
    expect(await fails([FILE, '--kernel-id', '::warp_votes:2'])).toContain('matches the launch filters');
    expect(await fails([FILE, '--kernel-id', 'warp_votes'])).toContain('--kernel-id warp_votes: expected context:stream:[name-operator:]kernel-name:invocation');
  });

  it('--print-summary per-kernel: invocations and minimum / maximum / average (console and CSV)', async () => {
    const { out } = await run([FILE, '-k', 'regex:^(shfl|tile)', '--section', 'LaunchStats', '--print-summary', 'per-kernel']);
    expect(out).toContain('shfl_broadcast(f32 *in, f32 *out) (256, 1, 1)x(256, 1, 1), Context 1, Stream 7, Device 0, CC 9.0, Invocations 1');
    expect(out).toMatch(/Metric Name\s+Metric Unit\s+Minimum\s+Maximum\s+Average/);
    expect(out).toMatch(/Grid Size\s+256\s+256\s+256/);
    const rows = csvRows((await run([FILE, '-k', 'tile_shfl', '--section', 'LaunchStats', '--print-summary', 'per-kernel', '--csv'])).out);
    expect(rows[0]?.slice(8)).toEqual(['Invocations', 'Section Name', 'Metric Name', 'Metric Unit', 'Minimum', 'Maximum', 'Average']);
    const grid = rows.find((r) => r[10] === 'Grid Size');
    expect(grid?.slice(8)).toEqual(['1', 'Launch Statistics', 'Grid Size', '', '256', '256', '256']);
    // per-gpu: every launch in one group
    const gpu = (await run([FILE, '--section', 'LaunchStats', '--print-summary', 'per-gpu'])).out;
    expect(gpu).toContain('Invocations 4');
  });

  it('--print-units base prints base units unscaled (auto scales)', async () => {
    const auto = (await run([FILE, '-k', 'shfl_broadcast', '--metrics', 'launch__shared_mem_config_size'])).out;
    expect(auto).toMatch(/launch__shared_mem_config_size\s+Kbyte\s+32\.77/);
    const base = (await run([FILE, '-k', 'shfl_broadcast', '--metrics', 'launch__shared_mem_config_size', '--print-units', 'base'])).out;
    expect(base).toMatch(/launch__shared_mem_config_size\s+byte\s+32,768/);
  });

  it('--print-metric-name name | label-name', async () => {
    const byName = (await run([FILE, '-k', 'shfl_broadcast', '--section', 'LaunchStats', '--print-metric-name', 'name'])).out;
    expect(byName).toMatch(/launch__grid_size\s+256/);
    expect(byName).not.toContain('Grid Size');
    const both = (await run([FILE, '-k', 'shfl_broadcast', '--section', 'LaunchStats', '--print-metric-name', 'label-name'])).out;
    expect(both).toMatch(/Grid Size \(launch__grid_size\)\s+256/);
  });

  it('--page session: the run and the device', async () => {
    const { out } = await run([FILE, '-k', 'shfl_broadcast', '--page', 'session']);
    expect(out).toMatch(/Kernel Files\s+kernels\/warp_primitives\.ts/);
    expect(out).toMatch(/Launches\s+1/);
    expect(out).toMatch(/# SMs\s+132/);
    const rows = csvRows((await run([FILE, '-k', 'shfl_broadcast', '--page', 'session', '--csv'])).out);
    expect(rows).toContainEqual(['Device Attributes', 'Compute Capability', '9.0']);
  });

  it('--page raw on the console: every metric by id with its unit', async () => {
    const { out } = await run([FILE, '-k', 'shfl_broadcast', '--page', 'raw', '--print-units', 'base']);
    expect(out).toMatch(/dram__bytes_read\.sum\s+byte\s+262,144/);
    expect(out).toMatch(/lts__t_requests\.sum\s+request\s+8,192/);
  });

  it('--page source: a file:line column, on the console and in the CSV', async () => {
    const { out } = await run([FILE, '-k', 'shfl_broadcast', '--page', 'source']);
    expect(out).toMatch(/Address\s+Location\s+Source\s+Instructions Executed/);
    expect(out).toMatch(/0x0040\s+kernels\/warp_primitives\.ts:\d+\s+S2R\s+2,048/);
    const rows = csvRows((await run([FILE, '-k', 'shfl_broadcast', '--page', 'source', '--csv'])).out);
    expect(rows[1]?.at(-1)).toBe('Location');
    const stg = rows.find((r) => r[1]?.startsWith('STG'));
    expect(stg?.at(-1)).toMatch(/^kernels\/warp_primitives\.ts:\d+$/);
  });

  it('--metrics / --section filter the CSV pages as they filter the console', async () => {
    const raw = csvRows((await run([FILE, '-k', 'shfl_broadcast', '--metrics', 'dram__bytes_read.sum,gpu__time_duration.sum', '--csv', '--page', 'raw'])).out);
    expect(raw[0]?.slice(11)).toEqual(['dram__bytes_read.sum', 'gpu__time_duration.sum']);
    expect(raw[1]?.slice(11)).toEqual(['byte', 'ns']);
    expect(raw[2]?.[11]).toBe('262,144');
    const details = csvRows((await run([FILE, '-k', 'shfl_broadcast', '--metrics', 'dram__bytes_read.sum', '--csv'])).out);
    expect(details.slice(1).map((r) => [r[11], r[12], r[13], r[14]])).toEqual([['Command line profiler metrics', 'dram__bytes_read.sum', 'byte', '262,144']]);
    const launch = csvRows((await run([FILE, '-k', 'shfl_broadcast', '--section', 'LaunchStats', '--csv'])).out);
    expect(new Set(launch.slice(1).map((r) => r[11]))).toEqual(new Set(['Launch Statistics', 'LaunchStats']));
  });

  it('the raw CSV units row: every column ncu gives a unit for has it; the JSON carries units', async () => {
    const rows = csvRows((await run([FILE, '-k', 'shfl_broadcast', '--csv', '--page', 'raw'])).out);
    const unit = (id: string): string | undefined => rows[1]?.[rows[0]?.indexOf(id) ?? -1];
    // units ncu prints on the H200 that the registry lacked (the ground truth's units rows)
    expect(unit('l1tex__cycles_active.avg')).toBe('cycle');
    expect(unit('lts__t_requests.sum')).toBe('request');
    expect(unit('smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio')).toBe('inst');
    expect(unit('dram__bytes_read.sum.per_second')).toBe('byte/s');
    // by ncu's naming where the ground truth has no column
    expect(unit('lts__t_bytes.sum')).toBe('byte');
    const filled = (rows[1] ?? []).slice(11).filter((u) => u !== '').length;
    expect(filled).toBeGreaterThan(200);
    const r = await json([FILE, '-k', 'shfl_broadcast']);
    expect(r.units?.['gpu__time_duration.sum']).toBe('ns');
    expect(r.units?.['launch__grid_size']).toBe('');
    expect(Object.keys(r.units ?? {}).sort()).toEqual(Object.keys(r.kernels[0]?.metrics ?? {}).sort());
  });
});

describe('profile: progress on a terminal', () => {
  it('redraws one line per launch on a TTY stderr (CI unset) and ends it; stdout is only the report', async () => {
    let err = '';
    const tty = Object.getOwnPropertyDescriptor(process.stderr, 'isTTY');
    const ci = process.env.CI;
    Object.defineProperty(process.stderr, 'isTTY', { value: true, configurable: true });
    delete process.env.CI;
    const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      err += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      return true;
    });
    try {
      const { out } = await run([FILE, '-c', '2', '--section', 'LaunchStats', '--json']);
      expect((JSON.parse(out) as Report).kernels).toHaveLength(2);
    } finally {
      write.mockRestore();
      if (tty) Object.defineProperty(process.stderr, 'isTTY', tty);
      else delete (process.stderr as { isTTY?: boolean }).isTTY;
      if (ci !== undefined) process.env.CI = ci;
    }
    const frames = err.split('\r').filter(Boolean).map((f) => f.trimEnd().replace(/: [\d.]+ s$/, ': s'));
    expect(frames).toEqual([
      'profile [1] kernels/warp_primitives.ts -k shfl_broadcast',
      'profile [1] kernels/warp_primitives.ts -k shfl_broadcast: s',
      'profile [2] kernels/warp_primitives.ts -k tile_shfl',
      'profile [2] kernels/warp_primitives.ts -k tile_shfl: s',
    ]);
    expect(err.endsWith('\n')).toBe(true);
  });
});

describe('profile: exit codes and output files (dev entry)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'warpsight-flags-'));
  const wrong = join(dir, 'wrong.ts');
  writeFileSync(
    wrong,
    `import { defineKernel, ptr, u32 } from 'warpsight';
export default defineKernel({
  name: 'off_by_one',
  params: { y: ptr('global', u32) },
  launch: { grid: 1, block: 32 },
  setup: (host) => ({ y: host.alloc(u32, 32, 'y', () => 0) }),
  check: (host, { y }) => (host.readNumber(y, u32, 5) === 5 ? null : 'y[5] is ' + host.readNumber(y, u32, 5) + ', not 5'),
  body: (k, { y }) => {
    y.at(k.threadIdx.x).store(k.threadIdx.x.add(1));
  },
});
`,
  );

  it('--check-exit-code: a kernel computing a wrong result exits 1 (--no-check-exit-code: 0)', () => {
    const r = cli('profile', wrong, '--section', 'LaunchStats');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("kernel 'off_by_one' computed a wrong result: y[5] is 6, not 5");
    expect(r.stdout).toContain('Section: Launch Statistics');
    expect(cli('profile', wrong, '--section', 'LaunchStats', '--check-exit-code').code).toBe(1);
    expect(cli('profile', wrong, '--section', 'LaunchStats', '--no-check-exit-code').code).toBe(0);
  });

  it('-o refuses to overwrite a file; -f/--force overwrites it', () => {
    const out = join(dir, 'r.json');
    rmSync(out, { force: true });
    expect(cli('profile', FILE, '-k', 'shfl_broadcast', '--section', 'LaunchStats', '-o', out).code).toBe(0);
    expect(existsSync(out)).toBe(true);
    writeFileSync(out, 'keep me');
    const again = cli('profile', FILE, '-k', 'shfl_broadcast', '--section', 'LaunchStats', '-o', out);
    expect(again.code).not.toBe(0);
    expect(again.stderr.trim()).toBe(`error: -o ${out}: the file exists; pass -f (--force) to overwrite it, or choose another name`);
    expect(readFileSync(out, 'utf8')).toBe('keep me');
    expect(cli('profile', FILE, '-k', 'shfl_broadcast', '--section', 'LaunchStats', '-o', out, '-f').code).toBe(0);
    expect((JSON.parse(readFileSync(out, 'utf8')) as Report).kernels[0]?.name).toBe('shfl_broadcast');
  });

  it('progress: a plain line per launch on stderr in CI, nothing on stdout with --json', () => {
    const r = spawnSync(process.execPath, [...CLI_ENTRY, 'profile', FILE, '-c', '2', '--section', 'LaunchStats', '--json'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, CI: 'true' },
    });
    expect(r.status).toBe(0);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('profile ['));
    expect(lines.map((l) => l.replace(/: [\d.]+ s$/, ''))).toEqual(['profile [1] kernels/warp_primitives.ts -k shfl_broadcast', 'profile [2] kernels/warp_primitives.ts -k tile_shfl']);
    expect((JSON.parse(r.stdout) as Report).kernels).toHaveLength(2);
    // not a terminal and not CI: silent
    const quiet = spawnSync(process.execPath, [...CLI_ENTRY, 'profile', FILE, '-c', '1', '--section', 'LaunchStats'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, CI: '' },
    });
    expect(quiet.stderr.split('\n').filter((l) => l.startsWith('profile ['))).toEqual([]);
  });
});
