/**
 * Hostile flags, command by command: every value that enters through a flag is checked where it
 * enters, and a bad one is one `error:` line naming the flag, with the usage exit code (2).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Case, expectError, expectOk, kernelFile, runCli, scratch, tinyKernel } from './harness.js';

const dir = scratch('flags');
const K = kernelFile(dir, tinyKernel());
const TYPED = kernelFile(
  dir,
  tinyKernel({
    params: "{ out: ptr('global', f32), n: u32, m: i32, big: u64, s: i64, x: f32, d: f64, b: u8, p: pred }",
    defaults: '{ n: 32, m: 0, big: 0, s: 0, x: 0, d: 0, b: 0, p: 0 }',
  }),
  'typed',
);
const PROGRAM = kernelFile(
  dir,
  `import { defineKernel, defineProgram, f32, ptr } from '@API';
const k = defineKernel({ name: 'pk', params: { out: ptr('global', f32) }, launch: { grid: 1, block: 32 }, setup: () => ({}), body: (k, { out }) => { out.at(k.threadIdx.x).store(1); } });
export default defineProgram({ name: 'prog', defaults: { reps: 1 }, run: (ctx, { reps }) => { const out = ctx.host.alloc(f32, 32, 'out'); for (let r = 0; r < reps; r++) ctx.launch(k, { out }); } });
`,
  'program',
);
const BROKEN_DIR = join(dir, 'broken');
mkdirSync(BROKEN_DIR, { recursive: true });
kernelFile(BROKEN_DIR, "export const a = 1;\nexport default {;\n", 'broken');
const u32 = "'n' of kernel 'tiny' is a u32 (a whole number 0 to 4294967295)";
const p = (...args: string[]) => () => ['profile', K, ...args];
const typed = (...args: string[]) => () => ['profile', TYPED, '--no-timing', ...args];

const profileCases: Case[] = [
  { title: 'u32 -5', argv: p('--param', 'n=-5'), code: 2, message: `--param n=-5: -5 is out of range; ${u32}` },
  { title: 'u32 1e30', argv: p('--param', 'n=1e30'), code: 2, message: `--param n=1e30: 1e30 is out of range; ${u32}` },
  { title: 'u32 1.5', argv: p('--param', 'n=1.5'), code: 2, message: `--param n=1.5: 1.5 is not a whole number; ${u32}` },
  { title: 'u32 2^32', argv: p('--param', 'n=4294967296'), code: 2, message: `--param n=4294967296: 4294967296 is out of range; ${u32}` },
  { title: 'u32 abc', argv: p('--param', 'n=abc'), code: 2, message: `--param n=abc: 'abc' is not a number; ${u32}` },
  { title: 'u32 NaN', argv: p('--param', 'n=NaN'), code: 2, message: `--param n=NaN: 'NaN' is not a number; ${u32}` },
  { title: 'u32 Infinity', argv: p('--param', 'n=Infinity'), code: 2, message: `--param n=Infinity: Infinity is not finite; ${u32}` },
  { title: 'an empty value', argv: p('--param', 'n='), code: 2, message: `--param n=: the value is empty; ${u32}` },
  { title: 'a blank value', argv: p('--param', 'n=   '), code: 2, message: `--param n=: the value is empty; ${u32}` },
  { title: '--param=', argv: p('--param='), code: 2, message: /^error: --param: the value is empty; give a value \(scalar kernel parameter/ },
  { title: 'no =', argv: p('--param', 'n'), code: 2, message: '--param n: expected name=value, e.g. --param width=4096' },
  { title: 'no name', argv: p('--param', '=5'), code: 2, message: '--param =5: expected name=value, e.g. --param width=4096' },
  { title: 'an unknown name', argv: p('--param', 'nope=1'), code: 2, message: "--param nope=1: kernel 'tiny' has no parameter 'nope'; its scalar parameters are n" },
  { title: 'a pointer', argv: p('--param', 'out=1'), code: 2, message: "--param out=1: 'out' is a pointer; pointer arguments come from the kernel's setup()" },
  { title: 'given twice', argv: p('--param', 'n=1', '--param', 'n=2'), code: 2, message: "--param n=2: 'n' is given twice (n=1 and n=2); give it once" },
  { title: 'i32 2^31', argv: typed('--param', 'm=2147483648'), code: 2, message: "--param m=2147483648: 2147483648 is out of range; 'm' of kernel 'tiny' is a i32 (a whole number -2147483648 to 2147483647)" },
  { title: 'i32 -2^31-1', argv: typed('--param', 'm=-2147483649'), code: 2, message: /^error: --param m=-2147483649: -2147483649 is out of range; 'm' of kernel 'tiny' is a i32/ },
  { title: 'u64 -1', argv: typed('--param', 'big=-1'), code: 2, message: /^error: --param big=-1: -1 is out of range; 'big' of kernel 'tiny' is a u64 \(a whole number 0 to 18446744073709551615\)$/ },
  { title: 'u64 2^64-1 (a double rounds it to 2^64)', argv: typed('--param', 'big=18446744073709551615'), code: 2, message: /^error: --param big=18446744073709551615: 18446744073709551615 is out of range; 'big' of kernel 'tiny' is a u64/ },
  { title: 'u64 past 2^53', argv: typed('--param', 'big=9007199254740993'), code: 2, message: /^error: --param big=9007199254740993: 9007199254740993 cannot be passed exactly \(whole numbers beyond ±2\^53 lose precision\)/ },
  { title: 'i64 below -2^53', argv: typed('--param', 's=-9007199254740993'), code: 2, message: /^error: --param s=-9007199254740993: -9007199254740993 cannot be passed exactly/ },
  { title: 'i64 fraction', argv: typed('--param', 's=0.5'), code: 2, message: /^error: --param s=0\.5: 0\.5 is not a whole number; 's' of kernel 'tiny' is a i64/ },
  { title: 'u8 256', argv: typed('--param', 'b=256'), code: 2, message: /^error: --param b=256: 256 is out of range; 'b' of kernel 'tiny' is a u8 \(a whole number 0 to 255\)$/ },
  { title: 'f32 1e39', argv: typed('--param', 'x=1e39'), code: 2, message: /^error: --param x=1e39: 1e39 is out of range; 'x' of kernel 'tiny' is an f32/ },
  { title: 'f64 1e400', argv: typed('--param', 'd=1e400'), code: 2, message: /^error: --param d=1e400: 1e400 is not finite; 'd' of kernel 'tiny' is an f64/ },
  { title: 'f32 text', argv: typed('--param', 'x=1.5f'), code: 2, message: /^error: --param x=1\.5f: '1\.5f' is not a number/ },
  { title: 'pred 2', argv: typed('--param', 'p=2'), code: 2, message: /^error: --param p=2: '2' is not a predicate value; 'p' of kernel 'tiny' is a pred/ },
  { title: 'program: not a number', argv: () => ['profile', PROGRAM, '--param', 'reps=abc'], code: 2, message: "--param reps=abc: 'abc' is not a number; 'reps' of program 'prog' is a number" },
  { title: 'program: empty', argv: () => ['profile', PROGRAM, '--param', 'reps='], code: 2, message: "--param reps=: the value is empty; 'reps' of program 'prog' is a number" },
  { title: 'program: infinite', argv: () => ['profile', PROGRAM, '--param', 'reps=-Infinity'], code: 2, message: "--param reps=-Infinity: -Infinity is not finite; 'reps' of program 'prog' is a number" },
  { title: 'program: unknown', argv: () => ['profile', PROGRAM, '--param', 'nope=1'], code: 2, message: "--param nope=1: program 'prog' has no parameter 'nope'; its parameters are reps" },
  { title: '--grid=', argv: p('--grid='), code: 2, message: /^error: --grid: the value is empty; give a value \(override the grid, x\[,y\[,z\]\]\) or leave the flag out$/ },
  { title: '--block=', argv: p('--block='), code: 2, message: /^error: --block: the value is empty/ },
  { title: '--grid 0', argv: p('--grid', '0'), code: 2, message: '--grid 0: expected 1 to 3 positive integers separated by commas, e.g. --grid 128,1,1' },
  { title: '--grid with four numbers', argv: p('--grid', '1,2,3,4'), code: 2, message: /^error: --grid 1,2,3,4: expected 1 to 3 positive integers/ },
  { title: '--grid=-1', argv: p('--grid=-1'), code: 2, message: /^error: --grid -1: expected 1 to 3 positive integers/ },
  { title: '--block 1.5', argv: p('--block', '1.5'), code: 2, message: /^error: --block 1\.5: expected 1 to 3 positive integers/ },
  { title: '--block x', argv: p('--block', 'x'), code: 2, message: /^error: --block x: expected 1 to 3 positive integers/ },
  { title: '--block 2048 (a launch CUDA refuses)', argv: p('--block', '2048'), code: 3, message: /^error: invalid launch of 'tiny' <<<\(1,1,1\), \(2048,1,1\)>>>: 2048 threads per block; the maximum is 1024/ },
  { title: '--grid 1,70000', argv: p('--grid', '1,70000'), code: 3, message: /^error: invalid launch of 'tiny' .*gridDim\.y and gridDim\.z are limited to 65535$/ },
  { title: "-k ''", argv: p('-k', ''), code: 2, message: /^error: --kernel-name \(-k\): the value is empty/ },
  { title: '-k regex:(', argv: p('-k', 'regex:('), code: 2, message: '-k regex:(: not a valid regular expression (Invalid regular expression: /(/: Unterminated group)' },
  { title: '-k regex:[', argv: p('-k', 'regex:[a-'), code: 2, message: /^error: -k regex:\[a-: not a valid regular expression/ },
  { title: '-k an unknown name', argv: p('-k', 'nope'), code: 2, message: /^error: no kernel named 'nope' in .*; it has: tiny$/ },
  { title: '-k a regex matching nothing', argv: p('-k', 'regex:^zz$'), code: 2, message: /^error: no kernel named 'regex:\^zz\$' in .*; it has: tiny$/ },
  { title: '--metrics=', argv: p('--metrics='), code: 2, message: /^error: --metrics: the value is empty/ },
  { title: '--metrics ,,,', argv: p('--metrics', ',,,'), code: 2, message: '--metrics: no metric ids in the list; give comma-separated ids, e.g. --metrics smsp__inst_executed.sum' },
  { title: '--metrics a typo', argv: p('--metrics', 'smsp__inst_exectued.sum'), code: 2, message: /^error: --metrics smsp__inst_exectued\.sum: unknown metric 'smsp__inst_exectued\.sum'; did you mean 'smsp__inst_executed\.sum'/ },
  { title: '--metrics one typo among good ids', argv: p('--metrics', 'smsp__inst_executed.sum,dram__bytes_raed.sum'), code: 2, message: /^error: --metrics dram__bytes_raed\.sum: unknown metric 'dram__bytes_raed\.sum'; did you mean 'dram__bytes_read\.sum'/ },
  { title: '--metrics a pattern', argv: p('--metrics', 'dram__*'), code: 2, message: /^error: --metrics dram__\*: unknown metric 'dram__\*'; did you mean/ },
  { title: '--section unknown', argv: p('--section', 'Nope'), code: 2, message: /^error: --section Nope: unknown section; try LaunchStats/ },
  { title: '--section=', argv: p('--section='), code: 2, message: /^error: --section: the value is empty/ },
  { title: '--arch unknown', argv: p('--arch', 'h300'), code: 2, message: "unknown --arch 'h300': expected one of a100, h100, h200, h200-mig-1g, h200-mig-2g, h200-mig-3g, h200-mig-4g, h200-mig-7g, p100" },
  { title: '--arch=', argv: p('--arch='), code: 2, message: /^error: --arch: the value is empty/ },
  { title: '--cache-control maybe', argv: p('--cache-control', 'maybe'), code: 2, message: /^error: Expected --cache-control=maybe to be one of: all, none .*\(see --help\)$/ },
  { title: '--page nope', argv: p('--csv', '--page', 'nope'), code: 2, message: /^error: Expected --page=nope to be one of: details, raw, source/ },
  { title: '--max-warp-instructions 0', argv: p('--max-warp-instructions', '0'), code: 2, message: /^error: .*--max-warp-instructions.*(greater than or equal to 1|must be).*\(see --help\)$/ },
  { title: '--max-warp-instructions abc', argv: p('--max-warp-instructions', 'abc'), code: 2, message: /^error: --max-warp-instructions: expected an integer but received: abc \(see --help\)$/ },
  { title: 'an unknown flag', argv: p('--frobnicate'), code: 2, message: /^error: Nonexistent flag: --frobnicate .*\(see --help\)$/ },
  { title: 'no file', argv: () => ['profile'], code: 2, message: 'missing the kernel file: warpsight profile <file.ts> (see `warpsight kernels`)' },
  { title: 'an empty file argument', argv: () => ['profile', ''], code: 2, message: '<file>: the argument is empty; give a value' },
  { title: 'a missing file', argv: () => ['profile', join(dir, 'nope.ts')], code: 2, message: `kernel file not found: ${join(dir, 'nope.ts')}; give the path of a .ts kernel file (see \`warpsight kernels\`)` },
  { title: 'a folder as the file', argv: () => ['profile', dir], code: 2, message: `kernel file not found: ${dir}; give the path of a .ts kernel file (see \`warpsight kernels\`)` },
  { title: '--json still prints the error line', argv: p('--param', 'n=-5', '--json'), code: 2, message: `--param n=-5: -5 is out of range; ${u32}` },
];

const occ = (...args: string[]) => () => ['occupancy', ...args];
const occupancyCases: Case[] = [
  { title: '--block 0', argv: occ('--block', '0', '--regs', '32'), code: 2, message: /^error: --block 0: expected 1 to 3 positive integers/ },
  { title: '--block=', argv: occ('--block=', '--regs', '32'), code: 2, message: /^error: --block: the value is empty/ },
  { title: '--regs -1', argv: occ('--block', '256', '--regs=-1'), code: 2, message: /^error: .*--regs.*\(see --help\)$/ },
  { title: '--regs missing', argv: occ('--block', '256'), code: 2, message: /^error: --regs is required/ },
  { title: '--block missing', argv: occ('--regs', '32'), code: 2, message: /^error: --block is required/ },
  { title: '--smem 8q', argv: occ('--block', '256', '--regs', '32', '--smem', '8q'), code: 2, message: '--smem 8q: expected a byte size like 49152, 8k or 1.5k' },
  { title: '--smem -1', argv: occ('--block', '256', '--regs', '32', '--smem=-1'), code: 2, message: '--smem -1: expected a byte size like 49152, 8k or 1.5k' },
  { title: '--smem 1.3', argv: occ('--block', '256', '--regs', '32', '--smem', '1.3'), code: 2, message: '--smem 1.3: 1.3 is not a whole number of bytes' },
  { title: '--static-smem=', argv: occ('--block', '256', '--regs', '32', '--static-smem='), code: 2, message: /^error: --static-smem: the value is empty/ },
  { title: '--carveout 7k', argv: occ('--block', '256', '--regs', '32', '--carveout', '7k'), code: 2, message: /^error: --carveout 7k: the NVIDIA H200 supports 0k, 8k/ },
  { title: '--grid 0', argv: occ('--block', '256', '--regs', '32', '--grid', '0'), code: 2, message: /^error: --grid 0: expected 1 to 3 positive integers/ },
  { title: '--arch nope', argv: occ('--arch', 'nope', '--block', '256', '--regs', '32'), code: 2, message: "unknown --arch 'nope': expected one of a100, h100, h200, h200-mig-1g, h200-mig-2g, h200-mig-3g, h200-mig-4g, h200-mig-7g, p100" },
  { title: '--barriers -1', argv: occ('--block', '256', '--regs', '32', '--barriers=-1'), code: 2, message: /^error: .*--barriers.*\(see --help\)$/ },
  { title: '--block 4096', argv: occ('--block', '4096', '--regs', '32'), code: 3, message: /^error: invalid launch on the NVIDIA H200: block size 4096/ },
];

const kernelsCases: Case[] = [
  { title: '--dir missing', argv: () => ['kernels', '--dir', join(dir, 'none')], code: 2, message: `--dir ${join(dir, 'none')}: not a readable folder` },
  { title: '--dir=', argv: () => ['kernels', '--dir='], code: 2, message: /^error: --dir: the value is empty/ },
  { title: '--dir a file', argv: () => ['kernels', '--dir', K], code: 2, message: `--dir ${K}: not a readable folder` },
  { title: '--dir with a broken kernel file names its line:column', argv: () => ['kernels', '--dir', BROKEN_DIR], code: 2, message: /^error: .*broken_\d+\.ts:2:\d+: syntax error: / },
];

describe('hostile flags: profile', () => {
  for (const c of profileCases) it(c.title, async () => void expectError(await runCli(c.argv()), c.code, c.message));
  it('a u32 at its maximum and a pred of true are accepted', async () => {
    expectOk(await runCli(['profile', TYPED, '--no-timing', '--param', 'n=32', '--param', 'p=true', '--param', 'b=255', '--param', 'x=-1.5', '--json']));
  });
});
describe('hostile flags: --json', () => {
  it('a failure with --json is the error line on stderr and a JSON error on stdout', async () => {
    const r = await runCli(['profile', K, '--param', 'n=-5', '--json']);
    expectError(r, 2, `--param n=-5: -5 is out of range; ${u32}`);
    expect(JSON.parse(r.stdout)).toEqual({ error: { name: 'UserError', message: `--param n=-5: -5 is out of range; ${u32}`, exit: 2 } });
  });
});
describe('hostile flags: occupancy', () => {
  for (const c of occupancyCases) it(c.title, async () => void expectError(await runCli(c.argv()), c.code, c.message));
});
describe('hostile flags: kernels', () => {
  for (const c of kernelsCases) it(c.title, async () => void expectError(await runCli(c.argv()), c.code, c.message));
});
