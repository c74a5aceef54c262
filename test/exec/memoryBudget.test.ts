/**
 * The emulator's memory budget (src/exec/memoryBudget.ts, issue 38): past it, the run ends with one
 * located `error:` line instead of the machine's out-of-memory killer. A budget below what any
 * profile needs shows the check firing at its first look (1,048,576 warp instructions).
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_ENTRY } from '../setup/cli.js';
import { scratch } from '../hostile/harness.js';

describe('the emulator memory budget', () => {
  it('stops a run over the budget with a located error line', () => {
    const r = spawnSync(process.execPath, [...CLI_ENTRY, 'profile', 'test/fixtures/long_loop.ts'], {
      encoding: 'utf8',
      env: { ...process.env, CI: 'true', WARPSIGHT_MEMORY_BUDGET_MB: '50' },
      timeout: 120_000,
    });
    expect(r.status).toBe(3);
    expect(r.stderr.trim()).toMatch(
      /^error: test\/fixtures\/long_loop\.ts: kernel 'long_loop', after 1,048,576 warp instructions \(blocks 1 of 1 started\): the emulator's own memory reached \d+(\.\d+)? MiB, over its budget of 50 MiB \(WARPSIGHT_MEMORY_BUDGET_MB\); profile a smaller launch \(--grid, --param\) or touch less device memory, or run with --no-timing$/,
    );
  });

  it('profile --jobs 2: the two processes split the budget between them', () => {
    // two long loops: each child passes a half of 100 MiB at its first look
    const file = join(scratch('budget'), 'two_loops.ts');
    const loop = (name: string): string => `export const ${name} = defineKernel({
  name: '${name}', params: { out: ptr('global', u32) }, launch: { grid: 1, block: 32 },
  setup: (h) => ({ out: h.alloc(u32, 32, 'out') }),
  body: (k, { out }) => { const n = k.let(u32, 0); k.for(0, 1 << 20, 1, () => n.set(n.add(1))); out.at(k.threadIdx.x).store(n); },
});`;
    writeFileSync(file, `import { defineKernel, ptr, u32 } from 'warpsight';\n${loop('loop_a')}\n${loop('loop_b')}\n`);
    const r = spawnSync(process.execPath, [...CLI_ENTRY, 'profile', file, '--jobs', '2'], {
      encoding: 'utf8',
      env: { ...process.env, CI: 'true', WARPSIGHT_MEMORY_BUDGET_MB: '100' },
      timeout: 120_000,
    });
    expect(r.status).toBe(3);
    expect(r.stderr.trim()).toMatch(
      /^error: .*two_loops\.ts: kernel 'loop_a', after 1,048,576 warp instructions \(blocks 1 of 1 started\): the emulator's own memory reached \d+(\.\d+)? MiB, over its budget of 50 MiB \(100 MiB, WARPSIGHT_MEMORY_BUDGET_MB, split among the 2 processes of --jobs 2\); profile a smaller launch/,
    );
  });
});
