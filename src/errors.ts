/**
 * Errors and exit codes. Every failure reaches the user as one `error:` line naming the place (kernel
 * file:line:column, flag, JSON path, output path) and exits with the code of its class, so CI can tell
 * a regression from a typo from a kernel bug from a Warpsight bug:
 *
 * | exit | class        | what                                                                      |
 * |------|--------------|---------------------------------------------------------------------------|
 * | 0    | ok           |                                                                           |
 * | 1    | check failed | a verdict: a `compare`/`bench` threshold crossed, a `validate` miss, a wrong result in `bench` |
 * | 2    | usage        | bad input: flags, arguments, files (missing, malformed JSON/CSV), a kernel file that does not load or build, parameters, output paths |
 * | 3    | kernel fault | the kernel or its host code failed while running: out-of-bounds, misaligned, runaway, deadlock, bad mask, invalid launch, an exception in setup/check/launch/run |
 * | 4    | internal     | a bug in Warpsight: an exception nobody expected                          |
 */

export const EXIT = {
  OK: 0,
  CHECK_FAILED: 1,
  USAGE: 2,
  KERNEL_FAULT: 3,
  INTERNAL: 4,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * An error caused by the user's input (a kernel, a flag, a file). Commands print its message on one
 * line and exit with its code; it never shows a stack trace. The message says what went wrong, where
 * (kernel file:line, flag, JSON path) and how to fix it.
 */
/**
 * Marks Warpsight's errors by class name. `instanceof` goes by it, not by prototype: a kernel file is
 * imported as ESM while oclif may load the commands as CommonJS, so Warpsight's modules can exist
 * twice in one process, and an error thrown by the kernel file's copy (a builder type error, vec(f32, 3))
 * must still be known as a UserError by the other's.
 */
const BRAND = Symbol.for('warpsight.error.classes');

function isBranded(x: unknown, name: string): boolean {
  const names = typeof x === 'object' && x !== null ? (x as { [BRAND]?: unknown })[BRAND] : undefined;
  return Array.isArray(names) && names.includes(name);
}

export class UserError extends Error {
  declare readonly [BRAND]: readonly string[];

  static [Symbol.hasInstance](x: unknown): boolean {
    return isBranded(x, this.name);
  }

  constructor(
    message: string,
    /** process exit code: EXIT.USAGE (2) unless a subclass says otherwise */
    readonly exitCode: number = EXIT.USAGE,
  ) {
    super(message);
    this.name = 'UserError';
    const names: string[] = [];
    for (let c: unknown = new.target; typeof c === 'function' && c !== Error; c = Object.getPrototypeOf(c)) names.push((c as { name: string }).name);
    Object.defineProperty(this, BRAND, { value: names, enumerable: false });
  }
}

/** A run-time fault in an emulated kernel (out-of-bounds access, runaway loop, deadlock, bad mask). */
export class KernelFault extends UserError {
  constructor(
    readonly kind: 'out-of-bounds' | 'runaway' | 'deadlock' | 'bad-mask' | 'misaligned' | 'invalid-launch',
    message: string,
  ) {
    super(message, EXIT.KERNEL_FAULT);
    this.name = 'KernelFault';
  }
}

/**
 * A failure in a kernel file's host code while it runs: an exception thrown by setup, check, launch or
 * a program's run, or a host access outside an allocation. Same class as a kernel fault (exit 3).
 */
export class HostFault extends UserError {
  constructor(message: string) {
    super(message, EXIT.KERNEL_FAULT);
    this.name = 'HostFault';
  }
}

/** One stack frame: the function (if named) and its location. */
export interface StackFrame {
  fn: string;
  file: string;
  line: number;
  column: number;
}

/**
 * Parses one V8 stack line (`    at fn (/path/x.ts:3:5)` or `    at /path/x.ts:3:5`). The location is
 * found by balancing the parentheses from the end, so a path with spaces or parentheses stays whole
 * (a regex without spaces kept only what followed the last space).
 */
export function parseFrame(text: string): StackFrame | null {
  const s = text.trim();
  if (!s.startsWith('at ')) return null;
  const body = s.slice(3);
  let fn = '';
  let loc = body;
  if (body.endsWith(')')) {
    let depth = 0;
    for (let i = body.length - 1; i >= 0; i--) {
      const c = body[i];
      if (c === ')') depth++;
      else if (c === '(' && --depth === 0) {
        fn = body.slice(0, i).trim();
        loc = body.slice(i + 1, -1);
        break;
      }
    }
  }
  const m = /^(.*):(\d+):(\d+)$/.exec(loc);
  if (!m) return null;
  let file = m[1] ?? '';
  if (file.startsWith('file://')) {
    try {
      file = decodeURIComponent(new URL(file).pathname);
    } catch {
      file = file.slice('file://'.length);
    }
  }
  return { fn, file, line: Number(m[2]), column: Number(m[3]) };
}

export function stackFrames(e: unknown): StackFrame[] {
  const stack = e instanceof Error ? (e.stack ?? '') : '';
  return stack.split('\n').map(parseFrame).filter((f): f is StackFrame => f !== null);
}

/** An exception's message on one line: the first line, control characters made visible. */
export function oneLine(text: string): string {
  const first = text.split('\n').find((l) => l.trim() !== '') ?? '';
  return escapeControl(first.trim());
}

/**
 * Control characters (C0, DEL, C1 — ESC of a terminal escape sequence among them) as visible escapes
 * (`\x1b`, `\n`), so text from kernel names or untrusted reports cannot move the cursor, recolour or
 * retitle the user's terminal, or forge extra output lines.
 */
export function escapeControl(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => {
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    if (c === '\t') return '\\t';
    return `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
  });
}

/** What an exception that is not a UserError says, for messages: `TypeError: x is not a function`. */
export function describeThrown(e: unknown): string {
  if (e instanceof Error) return oneLine(`${e.name && !e.message.startsWith(e.name) ? `${e.name}: ` : ''}${e.message}`) || e.name;
  if (typeof e === 'string') return oneLine(e);
  try {
    return oneLine(`thrown value ${JSON.stringify(e) ?? String(e)}`);
  } catch {
    return 'a thrown value';
  }
}
