/**
 * `warpsight occupancy`: the command class run in-process (JSON and table output) and the dev entry
 * end to end (error lines and exit codes).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { format } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import Occupancy from '../../commands/occupancy.js';
import { CLI_ENTRY } from '../setup/cli.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** run the command class in-process and capture its stdout (tables are written, --json goes through console.log) */
async function runCommand(args: string[]): Promise<{ out: string; result: unknown }> {
  let out = '';
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  });
  const log = vi.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => {
    out += `${format(...parts)}\n`;
  });
  try {
    const result = await Occupancy.run(args, ROOT);
    return { out, result };
  } finally {
    write.mockRestore();
    log.mockRestore();
  }
}

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [...CLI_ENTRY, 'occupancy', ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

afterEach(() => vi.restoreAllMocks());

describe('warpsight occupancy', () => {
  it('prints the whole result as JSON with --json', async () => {
    const { out } = await runCommand(['--block', '512', '--regs', '64', '--smem', '8k', '--json']);
    const r = JSON.parse(out) as {
      limits: Record<string, number>;
      limiters: string[];
      occupancyPct: number;
      sharedMemConfigSize: number;
      series: Record<string, { points: unknown[]; current: number }>;
      metrics: Record<string, number | string>;
    };
    expect(r.limits).toEqual({ blocks: 32, registers: 2, sharedMem: 7, warps: 4, barriers: 32 });
    expect(r.limiters).toEqual(['registers']);
    expect(r.occupancyPct).toBe(50);
    expect(r.sharedMemConfigSize).toBe(64 * 1024);
    expect(r.series['registerCount']?.points).toHaveLength(257);
    expect(r.series['blockSize']?.points).toHaveLength(65);
    expect(r.series['sharedMemSize']?.points).toHaveLength(456);
    expect(r.series['sharedMemSize']?.current).toBe(9216);
    expect(r.metrics['launch__occupancy_limit_registers']).toBe(2);
    expect(r.metrics['launch__shared_mem_per_block_dynamic']).toBe(8192);
  });

  it('returns the same object from run() that it prints', async () => {
    const { out, result } = await runCommand(['--block', '256', '--regs', '46', '--static-smem', '32k', '--barriers', '5', '--json']);
    expect(JSON.parse(out)).toEqual(JSON.parse(JSON.stringify(result)));
  });

  it('prints the limits and the three series as plain tables when stdout is not a terminal', async () => {
    const { out } = await runCommand(['--block', '256', '--regs', '46', '--static-smem', '32k', '--barriers', '5', '--grid', '512']);
    expect(out).not.toMatch(/\u001b\[/); // no ANSI colour codes
    expect(out).toMatch(/Block Limit Registers\s+│\s+5 │ block\s+│ limiter/);
    expect(out).toMatch(/Block Limit Barriers\s+│\s+12 │/);
    expect(out).toMatch(/Theoretical Occupancy\s+│\s+62\.5 │ %/);
    expect(out).toMatch(/registers, shared memory \(tie\)/);
    expect(out).toMatch(/Shared Memory Configuration Size\s+│\s+196 KiB/);
    expect(out).toMatch(/Waves Per SM\s+│\s+0\.78/);
    for (const title of ['Impact of Varying Register Count Per Thread', 'Impact of Varying Block Size', 'Impact of Varying Shared Memory Usage Per Block', 'Impact of Varying Block Barriers'])
      expect(out).toContain(title);
    expect(out).toMatch(/0 - 48\s+│\s+40 │\s+62 │ ◀ this launch \(46\)/);
  });

  it('accepts block and grid dimensions and size suffixes', async () => {
    const { out } = await runCommand(['--block', '32x8', '--regs', '22', '--static-smem', '4KB', '--barriers', '1', '--grid', '128x128', '--json']);
    const r = JSON.parse(out) as { blockSize: number; gridBlocks: number; sharedMem: { static: number }; wavesPerSm: number };
    expect(r.blockSize).toBe(256);
    expect(r.gridBlocks).toBe(16384);
    expect(r.sharedMem.static).toBe(4096);
    expect(Math.round(r.wavesPerSm * 100) / 100).toBe(15.52);
  });

  it('gives one error line naming the flag for a bad size, an unknown arch and an invalid launch', () => {
    const cases: [string[], number, RegExp][] = [
      [['--block', '512', '--regs', '64', '--smem', '8q'], 2, /^error: --smem 8q: expected a byte size like 49152, 8k or 1\.5k$/],
      [['--arch', 'h300', '--block', '512', '--regs', '64'], 2, /^error: unknown --arch 'h300': expected one of a100, h100, h200, h200-mig-1g, h200-mig-2g, h200-mig-3g, h200-mig-4g, h200-mig-7g, p100$/],
      [['--block', '2048', '--regs', '16'], 3, /^error: invalid launch on the NVIDIA H200: block size 2048; a block has 1 to 1,024 threads/],
      [['--block', '1024', '--regs', '72'], 3, /^error: invalid launch on the NVIDIA H200: too many resources requested for launch/],
      [['--block', '256'], 2, /^error: --regs is required/],
    ];
    for (const [args, code, message] of cases) {
      const r = cli(...args);
      expect(r.code, args.join(' ')).toBe(code);
      const lines = r.stderr.split('\n').filter((l) => l.trim() !== '' && !l.includes('ExperimentalWarning') && !l.startsWith('(Use `node'));
      expect(lines, args.join(' ')).toHaveLength(1);
      expect(lines[0]).toMatch(message);
    }
  });
});
