/**
 * Runs Warpsight's commands in-process, as a hostile user would run them from a shell, and captures
 * what they print and the exit code — no child process, so a thousand fuzz cases fit in CI's time.
 * The oclif config is loaded once; each run constructs the command class and runs it as oclif does.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { format } from 'node:util';
import { Config } from '@oclif/core';
import { vi } from 'vitest';
import Bench from '../../commands/bench.js';
import Compare from '../../commands/compare.js';
import Kernels from '../../commands/kernels.js';
import Occupancy from '../../commands/occupancy.js';
import Profile from '../../commands/profile.js';
import ReportCommand from '../../commands/report.js';
import Validate from '../../commands/validate.js';

export const ROOT = join(import.meta.dirname, '..', '..');
export const API = join(ROOT, 'src', 'api.js');

const COMMANDS = { bench: Bench, compare: Compare, kernels: Kernels, occupancy: Occupancy, profile: Profile, report: ReportCommand, validate: Validate } as const;
export type CommandId = keyof typeof COMMANDS;

export interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
  /** set when something escaped the command's own error path (a bug: the CLI would print a stack) */
  escaped?: string;
}

let config: Config | null = null;

interface Runnable {
  _run(): Promise<unknown>;
}

/** `warpsight <argv>` in this process */
export async function runCli(argv: readonly string[]): Promise<Outcome> {
  config ??= await Config.load(ROOT);
  const [id, ...rest] = argv;
  const Cls = COMMANDS[id as CommandId];
  if (!Cls) throw new Error(`no command ${String(id)}`);
  let stdout = '';
  let stderr = '';
  const text = (chunk: string | Uint8Array): string => (typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
  const spies = [
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((stdout += text(chunk)), true)),
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((stderr += text(chunk)), true)),
    vi.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => void (stdout += `${format(...parts)}\n`)),
    vi.spyOn(console, 'error').mockImplementation((...parts: unknown[]) => void (stderr += `${format(...parts)}\n`)),
    vi.spyOn(console, 'warn').mockImplementation((...parts: unknown[]) => void (stderr += `${format(...parts)}\n`)),
  ];
  process.exitCode = undefined;
  let code = 0;
  let escaped: string | undefined;
  try {
    const cmd = new Cls([...rest], config) as unknown as Runnable;
    await cmd._run();
    code = typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (e) {
    const exit = (e as { oclif?: { exit?: unknown } }).oclif?.exit;
    if ((e as { code?: unknown }).code === 'EEXIT' && typeof exit === 'number') code = exit;
    else {
      code = -1;
      escaped = e instanceof Error ? (e.stack ?? e.message) : String(e);
    }
  } finally {
    for (const s of spies) s.mockRestore();
    // the command's exit code must not become the test runner's
    process.exitCode = undefined;
  }
  return { code, stdout, stderr, ...(escaped === undefined ? {} : { escaped }) };
}

/** the stderr lines that are not blank */
export function lines(text: string): string[] {
  return text.split('\n').filter((l) => l.trim() !== '');
}

/** a fresh folder for a test file's inputs */
export function scratch(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `warpsight-${prefix}-`));
}

let serial = 0;
/** writes a kernel file (unique name: the module cache keeps what a path held first) */
export function kernelFile(dir: string, source: string, name = 'k'): string {
  const file = join(dir, `${name}_${serial++}.ts`);
  writeFileSync(file, source.replaceAll('@API', API));
  return file;
}

/** a kernel with one output buffer: `body`, `setup`, `check`, `extra` fields replace the defaults */
export function tinyKernel(parts: { name?: string; params?: string; defaults?: string; launch?: string; setup?: string; check?: string; body?: string; head?: string } = {}): string {
  return `import { defineKernel, defineProgram, f32, f64, i32, i64, ptr, u32, u64, u8, pred, vec } from '@API';
${parts.head ?? ''}
export default defineKernel({
  name: ${parts.name ?? "'tiny'"},
  params: ${parts.params ?? "{ out: ptr('global', f32), n: u32 }"},
  defaults: ${parts.defaults ?? '{ n: 32 }'},
  launch: ${parts.launch ?? '{ grid: 1, block: 32 }'},
  setup: ${parts.setup ?? "(h) => ({ out: h.alloc(f32, 32, 'out') })"},
  ${parts.check ? `check: ${parts.check},` : ''}
  body: ${parts.body ?? '(k, { out }) => { out.at(k.threadIdx.x).store(1); }'},
});
`;
}

/** a stack frame line, as a raw exception would print it */
const STACK_LINE = /^\s+at .*(:\d+:\d+\)?|<anonymous>\)?)$/m;

/**
 * The contract of a failure: the exit code of its class, exactly one stderr line, `error: ` and the
 * message (a string is the whole message, a RegExp matches the line), no stack trace anywhere.
 */
export function expectError(r: Outcome, code: number, message: string | RegExp): string {
  if (r.escaped !== undefined) throw new Error(`an exception escaped the command: ${r.escaped}`);
  const errLines = lines(r.stderr);
  if (errLines.length !== 1 || r.code !== code)
    throw new Error(`expected exit ${code} and one error line, got exit ${r.code} and stderr:\n${r.stderr}\nstdout:\n${r.stdout.slice(0, 2000)}`);
  const line = errLines[0] ?? '';
  if (!line.startsWith('error: ')) throw new Error(`not an error line: ${line}`);
  if (typeof message === 'string' ? line !== `error: ${message}` : !message.test(line))
    throw new Error(`the error line\n  ${line}\ndoes not match\n  ${typeof message === 'string' ? `error: ${message}` : String(message)}`);
  if (STACK_LINE.test(r.stdout) || STACK_LINE.test(r.stderr)) throw new Error(`a stack trace was printed:\n${r.stderr}`);
  return line;
}

/** a run that worked: exit 0, no error line */
export function expectOk(r: Outcome): void {
  if (r.escaped !== undefined || r.code !== 0 || lines(r.stderr).some((l) => l.startsWith('error:')))
    throw new Error(`expected success, got exit ${r.code}:\n${r.escaped ?? r.stderr}`);
}

/** a hostile case: a command line (built lazily: fixtures are written first), the exit code, the message */
export interface Case {
  title: string;
  argv: () => readonly string[];
  code: number;
  message: string | RegExp;
}
