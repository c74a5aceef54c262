/**
 * Located errors through the CLI as it ships: the tests above run the commands in-process on the
 * sources; this one spawns the CLI (the build when `dist/` is current, as in CI: test/setup/cli.ts)
 * on kernel files that import 'warpsight' as a user's do. Each error names the user's line, never one
 * of the package's own files: the build's frames are dist/ files (it ships no source maps), which
 * every "first frame outside Warpsight" search must skip (src/paths.ts isOwnFrame). One case per
 * search: a hook's exception (kernel/guard.ts), cudaMalloc beyond the GPU's memory
 * (memory/deviceMemory.ts), a runtime call's bad value in a program (runtime/programApi.ts).
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_ENTRY, ROOT } from '../setup/cli.js';
import { scratch } from './harness.js';

const dir = scratch('built');

function profile(name: string, source: string): { file: string; code: number | null; stderr: string } {
  const file = join(dir, `${name}.ts`);
  writeFileSync(file, source);
  const r = spawnSync(process.execPath, [...CLI_ENTRY, 'profile', file, '--no-timing'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } });
  return { file: relative(ROOT, file), code: r.status, stderr: r.stderr };
}

const kernel = (setup: string): string => `import { defineKernel, f32, ptr } from 'warpsight';
export default defineKernel({
  name: 'k',
  params: { out: ptr('global', f32) },
  launch: { grid: 1, block: 32 },
  setup: ${setup},
  body: (k, { out }) => out.at(k.threadIdx.x).store(1),
});
`;

describe('located errors through the CLI as it ships', () => {
  it("a host write past a buffer's end in setup names the setup's line", () => {
    const r = profile('host_write', kernel("(h) => { const out = h.alloc(f32, 32, 'out'); h.write(out, f32, 40, 1); return { out }; }"));
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(new RegExp(`^error: ${r.file.replace(/[.\\/]/g, '\\$&')}:6:\\d+: in setup\\(\\) of kernel 'k': host write of element 40 \\(f32\\) is outside allocation 'out'`));
  });

  it("an allocation beyond the GPU's memory names the setup's line", () => {
    const r = profile('too_big', kernel("(h) => ({ out: h.alloc(f32, 2 ** 38, 'out') })"));
    expect(r.code).toBe(3);
    expect(r.stderr.startsWith(`error: ${r.file}:6: out of memory (cudaErrorMemoryAllocation)`)).toBe(true);
  });

  it("a runtime call's bad value in a program names the program's line", () => {
    const r = profile(
      'policy',
      `import { defineProgram, f32 } from 'warpsight';
export default defineProgram({
  name: 'p',
  run: (ctx) => {
    const out = ctx.host.alloc(f32, 1024, 'out');
    ctx.setAccessPolicyWindow({ base: out, bytes: 4096, hitRatio: 7, hitProp: 'persisting', missProp: 'streaming' });
  },
});
`,
    );
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(new RegExp(`^error: ${r.file.replace(/[.\\/]/g, '\\$&')}:6:\\d+: in run\\(\\) of program 'p': setAccessPolicyWindow: hitRatio 7 is not a fraction`));
  });
});
