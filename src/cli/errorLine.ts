/**
 * The one error path: any thrown value → the text of one `error:` line and the exit code of its class
 * (src/errors.ts). Commands print it; nothing else reaches the user, least of all a stack trace.
 */
import { relative } from 'node:path';
import { EXIT, UserError, describeThrown, escapeControl, stackFrames } from '../errors.js';

interface ErrnoLike {
  code?: unknown;
  path?: unknown;
  syscall?: unknown;
  oclif?: { exit?: unknown };
}

const FS_VERB: Record<string, string> = { open: 'open', mkdir: 'create the folder', write: 'write', read: 'read', scandir: 'read the folder', stat: 'read', rename: 'write', unlink: 'remove' };

export function errorLine(err: unknown): { message: string; exit: number } {
  if (err instanceof UserError) return { message: escapeControl(flatten(err.message)), exit: err.exitCode };
  const e = (typeof err === 'object' && err !== null ? err : {}) as ErrnoLike;
  // oclif's flag and argument errors (exit 2) span lines ("Missing 1 required arg:\nfile  kernel file"): join them, drop the help hint
  if (e.oclif?.exit === 2 && err instanceof Error) {
    const lines = err.message.split('\n').map((l) => l.trim());
    const end = lines.findIndex((l) => l.startsWith('See more help') || l.startsWith('Note:'));
    const text = (end < 0 ? lines : lines.slice(0, end))
      .filter(Boolean)
      .join(' ')
      // oclif's wording, as the other messages put it: the flag first, with its dashes
      .replace(/^The following errors? occurred: /, '')
      .replace(/Missing required flag ([\w-]+)/g, 'missing required flag --$1')
      .replace(/^Parsing (--[\w-]+) Expected/, '$1: expected');
    return { message: `${escapeControl(text)} (see --help)`, exit: EXIT.USAGE };
  }
  // a file-system error that escaped its command's own handling still names its path
  if (typeof e.code === 'string' && /^E[A-Z]+$/.test(e.code) && typeof e.path === 'string') {
    const verb = typeof e.syscall === 'string' ? (FS_VERB[e.syscall] ?? e.syscall) : 'use';
    return { message: escapeControl(`${e.path}: cannot ${verb} it (${e.code})`), exit: EXIT.USAGE };
  }
  const frame = stackFrames(err)[0];
  const at = frame ? ` (at ${relative(process.cwd(), frame.file) || frame.file}:${frame.line})` : '';
  return { message: `internal error: ${describeThrown(err)}${escapeControl(at)}; this is a bug in Warpsight, please report it`, exit: EXIT.INTERNAL };
}

/** a multi-line message on one line */
function flatten(text: string): string {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .join(' ');
}
