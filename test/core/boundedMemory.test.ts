/**
 * The emulator's memory follows what is live, not how long a kernel runs (issue 38): with the timing
 * model on, a two-warp runaway loop used to reach 16.5 GB before its runaway error, and a loop of 16 M
 * warp instructions needed 7.7 GB. Each profile runs in a child process (test/fixtures/peakRss.ts),
 * whose peak resident set is the profile's own. The runaway loops run to a budget of 10 M instructions
 * per warp (a fifth of the default: 3.3 GB at the old 330 B per instruction, the same error path).
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const MiB = 1024;
const GB_IN_KIB = 1e9 / 1024;
const BUDGET = 10_000_000;

function peak(file: string, ...params: string[]): { instructions?: number; error?: string; maxRssKiB: number } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'test/fixtures/peakRss.ts', file, ...params], { encoding: 'utf8', timeout: 300_000 });
  const last = r.stdout.trim().split('\n').pop() ?? '';
  if (r.status !== 0 || !last.startsWith('{')) throw new Error(`peakRss.ts failed (${r.status}): ${r.stderr}`);
  return JSON.parse(last) as { instructions?: number; error?: string; maxRssKiB: number };
}

describe('bounded memory with the timing model on', () => {
  it('a two-warp runaway loop reaches its runaway error (10 M instructions per warp) in under 1 GB', () => {
    const r = peak('test/fixtures/runaway_two_warps.ts', `max=${BUDGET}`);
    expect(r.error).toMatch(
      /runaway_two_warps\.ts:15: runaway loop: warp 0 of block \(0,0,0\) in kernel 'runaway_two_warps' executed more than 10,000,000 instructions without finishing; fix the loop condition or raise --max-warp-instructions$/,
    );
    expect(r.maxRssKiB).toBeLessThan(GB_IN_KIB);
  });

  it('a warp counting for ever while its sibling waits at a barrier reaches the runaway error in under 1 GB', () => {
    const r = peak('test/fixtures/runaway_barrier.ts', `max=${BUDGET}`);
    expect(r.error).toMatch(/runaway_barrier\.ts:15: runaway loop: warp 0 of block \(0,0,0\) in kernel 'runaway_barrier' executed more than 10,000,000 instructions without finishing/);
    expect(r.maxRssKiB).toBeLessThan(GB_IN_KIB);
  });

  it('a loop of 16 M warp instructions profiles in under 1 GB, no more than a loop of 4 M', () => {
    const small = peak('test/fixtures/long_loop.ts', `trips=${1 << 20}`);
    const large = peak('test/fixtures/long_loop.ts', `trips=${1 << 22}`);
    expect(small.instructions).toBe(4 * (1 << 20) + 12);
    expect(large.instructions).toBe(4 * (1 << 22) + 12);
    expect(large.maxRssKiB).toBeLessThan(GB_IN_KIB);
    // 12 M more warp instructions: formerly about 480 B each (5.8 GB); now within GC noise
    expect(large.maxRssKiB - small.maxRssKiB).toBeLessThan(32 * MiB);
  });
});
