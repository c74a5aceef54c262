/**
 * The emulator's memory budget (src/exec/memoryBudget.ts, issue 38): past it, the run ends with one
 * located `error:` line instead of the machine's out-of-memory killer. A budget below what any
 * profile needs shows the check firing at its first look (1,048,576 warp instructions).
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CLI_ENTRY } from '../setup/cli.js';

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
});
