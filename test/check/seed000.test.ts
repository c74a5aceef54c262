/**
 * Seed 000's x/a/b cumulativity example under `warpsight check`: as written (b a system-scope atomic,
 * thread 3 the CPU polling it through host-mapped memory) it is clean, and so is the GPU-only version
 * (thread 3 a third block); with b at device scope the CPU is outside b's scope: a scope race at the
 * store that publishes b.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkDefinitions } from '../../src/check/run.js';
import { loadDefinitions } from '../../src/kernel/load.js';

const HOST = 'kernels/host_mapped.ts';
const lineOf = (file: string, text: string): number => readFileSync(file, 'utf8').split('\n').findIndex((l) => l.includes(text)) + 1;

async function check(file: string, name: string) {
  const defs = (await loadDefinitions(file)).filter((d) => d.name === name);
  expect(defs).toHaveLength(1);
  return checkDefinitions(defs, { file });
}

describe("seed 000's x/a/b example", () => {
  it('as the seed writes it (b at system scope, thread 3 the CPU): clean', async () => {
    expect((await check(HOST, 'xab_cpu')).findings).toEqual([]);
  });

  it('with thread 3 a third block (kernels/fence_cumulativity.ts): clean', async () => {
    expect((await check('kernels/fence_cumulativity.ts', 'xab_cumulativity')).findings).toEqual([]);
  });

  it('with b at device scope: a scope race at the store of b, the host outside its scope', async () => {
    const r = await check(HOST, 'xab_cpu_device_b');
    expect(r.findings.map((f) => [f.kind, f.kernel, f.allocation?.name, f.second.line, f.second.scope])).toEqual([
      ['scope-race', 'xab_gpu_threads_device_b', 'b (host-mapped)', lineOf(HOST, 'bs.store(1)'), 'gpu'],
    ]);
    expect(r.findings[0]?.fix).toMatch(/thread_scope_system/);
  });
});
