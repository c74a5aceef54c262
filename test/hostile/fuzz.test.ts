/**
 * Fuzzing the whole CLI in-process: random command lines built from every command's flags and
 * hostile values, random mutations of kernel files (characters, numbers, identifiers, lines), and
 * random mutations of a report JSON rendered by report (terminal, every CSV page) and compare.
 * Whatever happens, a failure prints only `error:` / `warning:` lines on stderr with the exit code of
 * its class (1 check failed, 2 usage, 3 kernel fault — never 4, an internal error), nothing escapes
 * the command, and no stack trace is printed. Seeded: a failing case names its seed and argv.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Outcome, kernelFile, lines, runCli, scratch, tinyKernel } from './harness.js';

const SEED = Number(process.env.WARPSIGHT_FUZZ_SEED ?? 20261128);
const ARGV_CASES = 600;
const MUTANT_CASES = 450;
const REPORT_CASES = 280;

/** mulberry32: small, fast, reproducible */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const dir = scratch('fuzz');
const F = (name: string): string => join(dir, name);
const STACK = /^\s+at .*(:\d+:\d+\)?|<anonymous>\)?)$/m;

/** the contract every outcome must keep; returns what broke it, or null */
function violation(r: Outcome): string | null {
  if (r.escaped !== undefined) return `an exception escaped: ${r.escaped.split('\n').slice(0, 3).join(' | ')}`;
  if (STACK.test(r.stdout) || STACK.test(r.stderr)) return 'a stack trace was printed';
  if (![0, 1, 2, 3].includes(r.code)) return `exit ${r.code}${r.code === 4 ? ' (internal error)' : ''}: ${r.stderr.trim()}`;
  if (r.code === 0) return null;
  const err = lines(r.stderr);
  const stray = err.filter((l) => !l.startsWith('error: ') && !l.startsWith('warning: '));
  if (stray.length > 0) return `stray stderr lines: ${stray.slice(0, 3).join(' | ')}`;
  if (r.code !== 1 && err.filter((l) => l.startsWith('error: ')).length !== 1) return `expected one error line, got: ${r.stderr.trim()}`;
  return null;
}

let K = '';
let PROG = '';
beforeAll(() => {
  K = kernelFile(dir, tinyKernel({ check: "(h, { out }) => (h.readNumber(out, f32, 3) === 1 ? null : 'out[3] is wrong')" }), 'base');
  PROG = kernelFile(
    dir,
    `import { defineKernel, defineProgram, f32, ptr } from '@API';
const k = defineKernel({ name: 'pk', params: { out: ptr('global', f32) }, launch: { grid: 1, block: 32 }, setup: () => ({}), body: (k, { out }) => { out.at(k.threadIdx.x).store(1); } });
export default defineProgram({ name: 'prog', defaults: { reps: 1 }, run: (ctx, { reps }) => { const out = ctx.host.alloc(f32, 32, 'out'); ctx.setPersistingL2Limit(0); ctx.launch(k, { out }); } });
`,
    'prog',
  );
  mkdirSync(F('folder'), { recursive: true });
  writeFileSync(F('bad.json'), '{"version": 1, "kernels": [');
  writeFileSync(F('schema.json'), '{"version": 1}');
  writeFileSync(F('suite-typo.json'), JSON.stringify({ kernels: [{ file: 'nope.ts', kernel: 'x' }], thresholds: { 'smsp__inst_exectued.sum': 1 } }));
  writeFileSync(F('suite-missing-file.json'), JSON.stringify({ kernels: [{ file: F('nope.ts'), kernel: 'x' }], thresholds: {} }));
  writeFileSync(F('bad.csv'), '"ID","Kernel Name"\n');
});

// ---- random command lines --------------------------------------------------------------------

const HOSTILE = ['', ' ', '-5', '0', '1', '1.5', '1e30', 'NaN', 'Infinity', '-Infinity', '0x10', '=', '==', 'a=b', 'n=', '=5', 'n=-1', 'n=1e30', 'trips=2', 'regex:(', 'regex:.*', 'regex:[', '\u001b[31mred', '\u0007bell\nline', '=HYPERLINK("x")', 'x'.repeat(300), '💥', '../../..', '/dev/null', '/sys/x.json', '/proc/nope/x', 'smsp__inst_executed.sum', 'smsp__inst_exectued.sum', 'dram__*', 'smsp__inst_executed.sum=1', 'smsp__inst_exectued.sum=1', 'zz*=1', 'x=-1', '32', '2048', '1,70000', '0,1', '32x8', '1,1,1,1', 'h200', 'h300', 'all', 'maybe', 'raw', 'LaunchStats', 'Bogus', '8k', '8q', '-1k'];
const files = (): string[] => [K, PROG, F('nope.ts'), F('folder'), F('bad.json'), F('schema.json'), F('bad.csv'), F('suite-typo.json'), F('suite-missing-file.json'), ''];

const FLAGS: Record<string, string[]> = {
  profile: ['-k', '--kernel', '--arch', '--param', '--grid', '--block', '--section', '--metrics', '-o', '--output', '--html', '--charts', '--csv', '--page', '--cache-control', '--max-warp-instructions', '--no-timing', '--json', '--bogus'],
  report: ['--section', '--html', '--charts', '--csv', '--page', '--json', '--bogus'],
  compare: ['--threshold', '--changed', '--json', '--bogus'],
  bench: ['--baseline', '--suite', '--out', '--update', '--markdown', '--junit', '--json', '--bogus'],
  validate: ['--ncu', '-k', '--arch', '--cache-control', '--json', '--bogus'],
  kernels: ['--dir', '--json', '--bogus'],
  occupancy: ['--arch', '--block', '--regs', '--smem', '--static-smem', '--barriers', '--grid', '--max-dynamic-smem', '--carveout', '--json', '--bogus'],
};
const OUTPUTS = new Set(['-o', '--output', '--html', '--charts', '--out', '--markdown', '--junit', '--baseline']);
const BOOLEAN = new Set(['--csv', '--no-timing', '--json', '--changed', '--update']);
/** values that would make a case slow without testing more (a big grid of the tiny kernel) stay out */
const SLOW = /^--(grid|max-warp-instructions)$/;

function randomArgv(next: () => number): string[] {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
  const cmd = pick(Object.keys(FLAGS));
  const argv = [cmd];
  const positional = cmd === 'compare' ? 2 : cmd === 'kernels' || cmd === 'occupancy' ? 0 : 1;
  const fileFor = (): string => (cmd === 'profile' || cmd === 'validate' ? pick([K, K, PROG, ...files()]) : cmd === 'bench' ? pick(['tiny', 'nope', '']) : pick(files()));
  for (let i = 0; i < positional; i++) if (next() < 0.9) argv.push(fileFor());
  const n = Math.floor(next() * 5);
  for (let i = 0; i < n; i++) {
    const flag = pick(FLAGS[cmd] as string[]);
    if (BOOLEAN.has(flag)) {
      argv.push(flag);
      continue;
    }
    let value = next() < 0.3 ? pick(files()) : pick(HOSTILE);
    if (SLOW.test(flag) && !/^(|-5|0|1|1\.5|NaN|x+|1,70000|0,1|1,1,1,1)$/.test(value)) value = '1';
    // bench must fail before profiling a suite; the committed one would take minutes
    if (cmd === 'bench' && flag === '--suite' && !value.includes('suite')) value = F('suite-typo.json');
    // whatever a case writes lands in the scratch folder, never in the checkout
    if (OUTPUTS.has(flag) && !value.startsWith('/')) value = join(dir, 'out', value.replace(/[^\w.-]/g, '_'));
    const form = next();
    if (form < 0.3) argv.push(`${flag}=${value}`);
    else if (form < 0.9) argv.push(flag, value);
    else argv.push(flag);
  }
  if (cmd === 'bench' && !argv.some((a) => a.startsWith('--suite'))) argv.push('--suite', pick([F('suite-typo.json'), F('suite-missing-file.json'), F('bad.json'), F('nope.json')]));
  // bench's defaults (reports/baseline.json, out/bench-report.json) are the checkout's: point them away
  if (cmd === 'bench') argv.push('--baseline', join(dir, 'out', 'baseline.json'), '--out', join(dir, 'out', 'bench.json'));
  if (cmd === 'profile' || cmd === 'validate') argv.push('--max-warp-instructions', '20000');
  if (cmd === 'profile') argv.push('--no-timing');
  return argv;
}

// ---- kernel-file mutations -------------------------------------------------------------------

const BASES = [
  tinyKernel({ check: "(h, { out }) => (h.readNumber(out, f32, 3) === 1 ? null : 'wrong')" }),
  tinyKernel({
    params: "{ a: ptr('global', f32), out: ptr('global', vec(f32, 4)), n: u32 }",
    defaults: '{ n: 64 }',
    launch: '({ n }) => ({ grid: Math.ceil(n / 32), block: [32, 1, 1] })',
    setup: "(h, { n }) => ({ a: h.alloc(f32, n, 'a', (i) => i * 0.5), out: h.alloc(f32, n * 4, 'out') })",
    body: "(k, { a, out, n }) => { const i = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x); k.if(i.ge(n), () => k.return()); const s = k.shared(f32, 32); s.at(k.threadIdx.x).store(a.at(i).get()); k.syncthreads(); const x = k.let(f32, s.at(k.threadIdx.x.xor(1)).get()); k.for(0, 4, 1, () => x.set(x.fma(2, 1))); }",
  }),
  `import { defineKernel, defineProgram, f32, ptr, u32 } from '@API';
const k = defineKernel({ name: 'pk', params: { out: ptr('global', f32), n: u32 }, defaults: { n: 32 }, launch: { grid: 1, block: 32 }, setup: () => ({}), body: (k, { out }) => { out.at(k.threadIdx.x).store(1); } });
export default defineProgram({
  name: 'prog',
  defaults: { reps: 2 },
  run: (ctx, { reps }) => {
    const out = ctx.host.alloc(f32, 1024, 'out');
    ctx.setPersistingL2Limit(4096);
    ctx.setAccessPolicyWindow({ base: out, bytes: 4096, hitRatio: 0.5, hitProp: 'persisting', missProp: 'streaming' });
    ctx.launch(k, { out, n: 32 });
    ctx.host.write(out, f32, 3, 7);
    ctx.setAccessPolicyWindow(null);
  },
  check: (h) => null,
});
`,
];
const NUMBERS = ['-1', '0', '3', '1.5', '1e30', 'NaN', '2 ** 53', '-(2 ** 31)', '7', '4096'];
const IDENTS = ['f32', 'u32', 'i32', 'u64', 'pred', 'vec', 'ptr', 'undefined', 'null', 'k', 'out', 'h', 'ctx', 'n', 'reps', "'x'", '{}', '[]', '(() => { throw new Error("m"); })()'];
const CHARS = ['(', ')', '{', '}', '[', ']', ';', ',', '.', "'", '"', '`', '=', '+', '-', '*', '/', '!', '?', ':', ' ', '\n', '0', '9', 'a', '\u001b'];

function mutate(source: string, next: () => number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
  let s = source;
  const rounds = 1 + Math.floor(next() * 3);
  for (let r = 0; r < rounds; r++) {
    const at = Math.floor(next() * s.length);
    switch (Math.floor(next() * 7)) {
      case 0: // delete a character
        s = s.slice(0, at) + s.slice(at + 1);
        break;
      case 1: // insert a character
        s = s.slice(0, at) + pick(CHARS) + s.slice(at);
        break;
      case 2: {
        // replace a number
        const nums = [...s.matchAll(/\b\d+(\.\d+)?\b/g)];
        const m = nums.length > 0 ? pick(nums) : undefined;
        if (m?.index !== undefined) s = s.slice(0, m.index) + pick(NUMBERS) + s.slice(m.index + m[0].length);
        break;
      }
      case 3: {
        // replace an identifier
        const ids = [...s.matchAll(/\b[a-zA-Z_]\w*\b/g)].filter((m) => !['import', 'from', 'export', 'default', 'const'].includes(m[0]));
        const m = ids.length > 0 ? pick(ids) : undefined;
        if (m?.index !== undefined) s = s.slice(0, m.index) + pick(IDENTS) + s.slice(m.index + m[0].length);
        break;
      }
      case 4: {
        // delete or duplicate a line
        const ls = s.split('\n');
        const i = Math.floor(next() * ls.length);
        if (next() < 0.5) ls.splice(i, 1);
        else ls.splice(i, 0, ls[i] ?? '');
        s = ls.join('\n');
        break;
      }
      case 5: // truncate
        s = s.slice(0, Math.max(at, 20));
        break;
      default: {
        // swap two lines
        const ls = s.split('\n');
        const i = Math.floor(next() * ls.length);
        const j = Math.floor(next() * ls.length);
        [ls[i], ls[j]] = [ls[j] ?? '', ls[i] ?? ''];
        s = ls.join('\n');
      }
    }
  }
  return s;
}

// ---- report JSON mutations (report, compare: the inputs anyone can hand over) -----------------

const JSON_VALUES: unknown[] = [null, -1, 0, 1e308, -1e308, 5e-324, 2 ** 53 + 2, '', 'x', '\u001b[2J', '=cmd', [], {}, true, [0, 0, 0], [1e9, 1, 1]];

/** a copy of `value` with a few leaves changed: half the time to a value of the same type (the schema may still hold) */
function mutateJson(value: unknown, next: () => number): unknown {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
  const copy = JSON.parse(JSON.stringify(value)) as unknown;
  const rounds = 1 + Math.floor(next() * 4);
  for (let r = 0; r < rounds; r++) {
    // walk down to a random container
    let parent: Record<string, unknown> | unknown[] | null = null;
    let key: string | number = '';
    let cur: unknown = copy;
    while (typeof cur === 'object' && cur !== null && next() < 0.85) {
      const keys = Array.isArray(cur) ? cur.map((_, i) => i) : Object.keys(cur);
      if (keys.length === 0) break;
      parent = cur as Record<string, unknown> | unknown[];
      key = pick(keys as (string | number)[]);
      cur = (parent as Record<string | number, unknown>)[key];
    }
    if (parent === null) continue;
    const slot = parent as Record<string | number, unknown>;
    const sameType = next() < 0.5;
    if (sameType && typeof cur === 'number') slot[key] = pick([-1, 0, 1e308, -0.5, 2 ** 40, 1e-300]);
    else if (sameType && typeof cur === 'string') slot[key] = pick(['', '\u001b]0;t\u0007', '=HYPERLINK("x")', 'x'.repeat(500), 'a\nb']);
    else if (next() < 0.3 && !Array.isArray(parent)) delete slot[key];
    else slot[key] = pick(JSON_VALUES);
  }
  return copy;
}

describe('fuzz', () => {
  it(`${ARGV_CASES} random command lines, ${MUTANT_CASES} kernel-file mutations and ${REPORT_CASES} report mutations keep the error contract (seed ${SEED})`, async () => {
    const next = rng(SEED);
    const failures: string[] = [];
    const seen = { 0: 0, 1: 0, 2: 0, 3: 0 } as Record<number, number>;
    const started = Date.now();
    // and relative paths resolve there too: a case must not write into the checkout
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      for (let i = 0; i < ARGV_CASES; i++) {
        const argv = randomArgv(next);
        const r = await runCli(argv);
        seen[r.code] = (seen[r.code] ?? 0) + 1;
        const v = violation(r);
        if (v) failures.push(`argv ${JSON.stringify(argv)}: ${v}`);
      }
      for (let i = 0; i < MUTANT_CASES; i++) {
        const base = BASES[i % BASES.length] as string;
        const source = mutate(base, next);
        const file = kernelFile(dir, source, 'mutant');
        const r = await runCli(['profile', file, '--no-timing', '--max-warp-instructions', '20000']);
        seen[r.code] = (seen[r.code] ?? 0) + 1;
        const v = violation(r);
        if (v) failures.push(`mutant ${file}: ${v}\n${readFileSync(file, 'utf8').slice(0, 600)}`);
      }
      // report JSON: valid reports with odd values, and broken ones, through every renderer of report and compare
      const baseReport = join(dir, 'fuzz-base.json');
      const made = await runCli(['profile', K, '--no-timing', '-o', baseReport]);
      expect(made.code, made.stderr).toBe(0);
      const original = JSON.parse(readFileSync(baseReport, 'utf8')) as unknown;
      for (let i = 0; i < REPORT_CASES; i++) {
        const file = join(dir, `fuzz-report-${i}.json`);
        writeFileSync(file, JSON.stringify(mutateJson(original, next)));
        const argv = [
          ['report', file],
          ['report', file, '--csv', '--page', 'raw'],
          ['report', file, '--csv', '--page', 'details'],
          ['report', file, '--csv', '--page', 'source'],
          ['report', file, '--section', 'SourceCounters'],
          ['compare', baseReport, file, '--threshold', 'smsp__inst_executed.sum=1'],
          ['compare', file, baseReport, '--changed'],
        ][i % 7] as string[];
        const r = await runCli(argv);
        seen[r.code] = (seen[r.code] ?? 0) + 1;
        const v = violation(r);
        if (v) failures.push(`report argv ${JSON.stringify(argv)}: ${v}\n${readFileSync(file, 'utf8').slice(0, 300)}`);
      }
    } finally {
      process.chdir(cwd);
    }
    const seconds = (Date.now() - started) / 1000;
    console.info(`fuzz: ${ARGV_CASES + MUTANT_CASES + REPORT_CASES} cases in ${seconds.toFixed(1)} s; exit codes ${JSON.stringify(seen)}`);
    expect(failures.slice(0, 10).join('\n\n')).toBe('');
    // every class is exercised: a fuzzer that only ever hits one error path tests little
    expect(seen[0]).toBeGreaterThan(20);
    expect(seen[2]).toBeGreaterThan(200);
    expect(seen[3]).toBeGreaterThan(5);
  }, 240_000);
});
