/**
 * The CLI end to end: bad input gives one `error:` line naming the place and a non-zero exit; the same
 * command twice gives byte-identical JSON.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_ENTRY } from '../setup/cli.js';

const ROOT = join(import.meta.dirname, '..', '..');
function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [...CLI_ENTRY, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
function oneLineError(r: { code: number | null; stderr: string }): string {
  expect(r.code).not.toBe(0);
  const lines = r.stderr.split('\n').filter((l) => l.trim() !== '' && !l.includes('ExperimentalWarning') && !l.startsWith('(Use `node'));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^error: /);
  return lines[0] as string;
}

const dir = mkdtempSync(join(tmpdir(), 'warpsight-cli-'));
const badKernel = join(dir, 'bad.ts');
writeFileSync(
  badKernel,
  `import { defineKernel, f32, i32, ptr } from '${join(ROOT, 'src', 'api.js')}';
export default defineKernel({
  name: 'bad',
  params: { out: ptr('global', f32) },
  launch: { grid: 1, block: 32 },
  setup: (h) => ({ out: h.alloc(f32, 32, 'out') }),
  body: (k, { out }) => {
    out.at(k.threadIdx.x).store(k.threadIdx.x.cast(i32));
  },
});
`,
);

// the same failures through the real CLI (tsx's esbuild, oclif loading the commands), not vitest's transform
const spaced = join(dir, 'a folder with spaces');
mkdirSync(spaced, { recursive: true });
const syntaxKernel = join(spaced, 'syntax error.ts');
writeFileSync(syntaxKernel, "export default {\n  name: 'x',\n  body: () => { return ) },\n};\n");
const throwingKernel = join(spaced, 'throws.ts');
writeFileSync(
  throwingKernel,
  `import { defineKernel, f32, ptr } from '${join(ROOT, 'src', 'api.js')}';
export default defineKernel({
  name: 'throws',
  params: { out: ptr('global', f32) },
  launch: { grid: 1, block: 32 },
  setup: () => {
    throw new Error('setup failed');
  },
  body: (k, { out }) => out.at(k.threadIdx.x).store(1),
});
`,
);

describe('warpsight CLI errors', () => {
  it('a syntax error keeps its line:column, in a path with spaces', () => {
    const r = cli('profile', syntaxKernel);
    expect(r.code).toBe(2);
    expect(oneLineError(r)).toBe(`error: ${syntaxKernel}:3:23: syntax error: Unexpected ")"`);
  });
  it('an exception in setup names the file:line:column and the hook, exit 3', () => {
    const r = cli('profile', throwingKernel, '--no-timing');
    expect(r.code).toBe(3);
    expect(oneLineError(r)).toMatch(/^error: .*a folder with spaces\/throws\.ts:7:11: in setup\(\) of kernel 'throws': threw Error: setup failed$/);
  });
  it('a --param out of its type\'s range, exit 2', () => {
    const r = cli('profile', 'kernels/fma_chain.ts', '--param', 'trips=-5');
    expect(r.code).toBe(2);
    expect(oneLineError(r)).toBe("error: --param trips=-5: -5 is out of range; 'trips' of kernel 'fma_chain' is a u32 (a whole number 0 to 4294967295)");
  });
  it('an unknown command: one error line naming the commands, exit 2, escaped', () => {
    const r = cli('profil\u001b[31m', 'kernels/fma_chain.ts');
    expect(r.code).toBe(2);
    expect(oneLineError(r)).toBe("error: unknown command 'profil\\x1b[31m'; the commands are bench, check, compare, help, kernels, occupancy, profile, report, validate (warpsight --help)");
  });
  it('a command that takes no arguments given one: says so, not that the command is unknown', () => {
    const r = cli('kernels', 'kernels/streams.ts');
    expect(r.code).toBe(2);
    expect(oneLineError(r)).toBe("error: unexpected argument 'kernels/streams.ts': 'kernels' takes no arguments, only flags (warpsight kernels --help)");
  });
  it('a missing kernel file', () => {
    expect(oneLineError(cli('profile', 'kernels/nope.ts'))).toBe('error: kernel file not found: kernels/nope.ts; give the path of a .ts kernel file (see `warpsight kernels`)');
  });
  it('a bad flag value', () => {
    expect(oneLineError(cli('profile', 'kernels/fma_chain.ts', '--cache-control', 'maybe'))).toMatch(/^error: Expected --cache-control=maybe to be one of: all, none/);
  });
  it('a malformed --grid', () => {
    expect(oneLineError(cli('profile', 'kernels/fma_chain.ts', '--grid', '0,1'))).toMatch(/^error: --grid 0,1: expected 1 to 3 positive integers/);
  });
  it('an unknown --param', () => {
    expect(oneLineError(cli('profile', 'kernels/fma_chain.ts', '--param', 'trip=3'))).toMatch(/^error: --param trip=3: kernel 'fma_chain' has no parameter 'trip'; its scalar parameters are trips/);
  });
  it('a type error in a kernel names its file and line', () => {
    expect(oneLineError(cli('profile', badKernel))).toMatch(/^error: .*bad\.ts:8: type error: storing i32 through a pointer to f32/);
  });
  it('an unknown kernel name', () => {
    expect(oneLineError(cli('profile', 'kernels/fma_chain.ts', '-k', 'nope'))).toBe("error: no kernel named 'nope' in kernels/fma_chain.ts; it has: fma_chain");
  });
});

describe('warpsight profile --json', () => {
  it('is byte-identical across runs', () => {
    const a = cli('profile', 'kernels/fma_chain.ts', '--param', 'trips=4', '--json');
    const b = cli('profile', 'kernels/fma_chain.ts', '--param', 'trips=4', '--json');
    expect(a.code).toBe(0);
    expect(a.stdout.length).toBeGreaterThan(1000);
    expect(a.stdout).toBe(b.stdout);
    const report = JSON.parse(a.stdout) as { kernels: { name: string; metrics: Record<string, number> }[] };
    expect(report.kernels[0]?.name).toBe('fma_chain');
    expect(report.kernels[0]?.metrics['l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum']).toBe(32768);
  });
  it('writes the same JSON with -o', () => {
    const out = join(dir, 'r.json');
    const a = cli('profile', 'kernels/fma_chain.ts', '--param', 'trips=4', '-o', out, '--json');
    expect(readFileSync(out, 'utf8')).toBe(a.stdout.endsWith('\n') ? a.stdout : `${a.stdout}\n`);
  });
});
