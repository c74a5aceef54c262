/**
 * A kernel file whose top-level code never ends (test/fixtures/import_forever.ts), or waits past the
 * limit (import_waits.ts), ends with a located `error:` line after the import time limit, through the
 * real CLI, instead of hanging (issue 38);
 * `kernels --dir` over a folder with such a file ends the same way. Normal files load as before.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { loadDefinitions } from '../../src/kernel/load.js';
import { CLI_ENTRY } from '../setup/cli.js';

function cli(args: string[], timeoutMs: number): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [...CLI_ENTRY, ...args], {
    encoding: 'utf8',
    // a short limit keeps the test quick; spawnSync's own timeout only guards against a hang
    env: { ...process.env, CI: 'true', WARPSIGHT_IMPORT_TIMEOUT_MS: String(timeoutMs) },
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('kernel-file import under a time limit', () => {
  it('profile: an endless loop at import ends with the file named', () => {
    const r = cli(['profile', 'test/fixtures/import_forever.ts'], 1500);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe(
      "error: test/fixtures/import_forever.ts: importing the kernel file did not finish within 1.5 s: its top-level code (outside the kernels' body, setup and check) loops forever or runs too long; fix the loop, or move the work into a kernel's setup",
    );
  });

  it('profile: an import that waits (the thread free, not busy) past the limit ends the same way', () => {
    const r = cli(['profile', 'test/fixtures/import_waits.ts'], 1500);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toMatch(/^error: test\/fixtures\/import_waits\.ts: importing the kernel file did not finish within 1\.5 s/);
  });

  it('kernels --dir: the folder with such a file ends instead of hanging', () => {
    const r = cli(['kernels', '--dir', 'test/fixtures'], 1500);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^error: test\/fixtures\/import_forever\.ts: importing the kernel file did not finish within 1\.5 s/);
  });

  it('loads a normal file with the watchdog armed', async () => {
    const defs = await loadDefinitions('test/fixtures/long_loop.ts');
    expect(defs.map((d) => d.name)).toEqual(['long_loop']);
  });
});
