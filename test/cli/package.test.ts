/**
 * Warpsight as a package: a kernel file outside the repo, in a folder with no package.json, imports
 * the API by the package name and profiles (it used to be compiled as CommonJS and "export no
 * kernels"); package.json publishes the built API with its types. The packed tarball itself is
 * installed and run by CI (.ci/pack-smoke).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../types/report.schema.js';
import { BUILT_CLI, CLI_ENTRY, ROOT } from '../setup/cli.js';

const KERNEL = `import { defineKernel, ptr, u32 } from 'warpsight';

export default defineKernel({
  name: 'outside_iota',
  params: { y: ptr('global', u32), n: u32 },
  defaults: { n: 2048 },
  launch: ({ n }) => ({ grid: Math.ceil(n / 256), block: 256 }),
  setup: (host, { n }) => ({ y: host.alloc(u32, n, 'y', () => 0) }),
  body: (k, { y, n }) => {
    const i = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x);
    k.if(i.ge(n), () => k.return());
    y.at(i).store(i);
  },
});
`;

describe('the npm package', () => {
  it("profiles a kernel outside any package that imports from 'warpsight'", () => {
    const dir = mkdtempSync(join(tmpdir(), 'warpsight-user-'));
    const file = join(dir, 'my_kernel.ts');
    writeFileSync(file, KERNEL);
    const r = spawnSync(process.execPath, [...CLI_ENTRY, 'profile', file, '--json'], { encoding: 'utf8', env: { ...process.env, CI: 'true' } });
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.kernels.map((k) => k.name)).toEqual(['outside_iota']);
    // 8 blocks x 8 warps, each warp one STG
    expect(report.kernels[0]?.metrics['smsp__sass_inst_executed_op_global_st.sum']).toBe(64);
  });

  // oclif runs ./commands' TypeScript through tsx instead of dist/ when NODE_ENV is development or
  // test (vitest sets the latter for every process the tests spawn): 2.4 s of CPU a start against
  // 0.5, and not the code that ships. bin/run.js turns that off; oclif's debug channel says whether it
  // registered a TypeScript loader.
  it.skipIf(!BUILT_CLI)('runs the built commands whatever NODE_ENV says, no TypeScript loader registered', () => {
    for (const nodeEnv of ['development', 'test']) {
      const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'run.js'), 'kernels', '--json'], {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, NODE_ENV: nodeEnv, DEBUG: 'oclif:config:ts-path' },
      });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr, nodeEnv).toContain('enableAutoTranspile is explicitly set to false');
      expect(r.stderr, nodeEnv).not.toMatch(/registering (tsx|ts-node)/);
    }
  });

  it('is publishable: not private, the built API exported with its types, inside the shipped files', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
      private?: boolean;
      exports: Record<string, { types: string; default: string } | string>;
      files: string[];
      engines: { node: string };
      bin: Record<string, string>;
    };
    expect(pkg.private).toBeUndefined();
    expect(pkg.exports['.']).toEqual({ types: './dist/src/api.d.ts', default: './dist/src/api.js' });
    expect(pkg.files).toContain('dist');
    expect(pkg.bin.warpsight).toBe('./bin/run.js');
    // the README states the engines range
    expect(readFileSync('README.md', 'utf8')).toContain(`Node \`${pkg.engines.node}\``);
  });

  it("every bundled kernel imports the API by the package name, not the sources' path", () => {
    const files = readdirSync('kernels', { recursive: true, encoding: 'utf8' });
    const ts = files.filter((f) => f.endsWith('.ts'));
    expect(ts.length).toBeGreaterThan(15);
    for (const f of ts) expect(readFileSync(join('kernels', f), 'utf8'), f).not.toMatch(/from '(\.\.\/)+src\//);
  });
});
