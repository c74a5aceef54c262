import { parseFrame } from '../errors.js';
import type { SourceLoc } from './types.js';

/**
 * The kernel source line that called into the builder: the first stack frame outside `src/ir/`.
 * Stack traces are source-mapped (tsx, vitest, and `process.setSourceMapsEnabled` in the CLI), so the
 * line is the `.ts` line the user wrote.
 */
const IR_DIR = /[\\/]src[\\/]ir[\\/]/;

export function callerLoc(): SourceLoc {
  // helpers built on the builder (atomic wait's nested polls) call it from deep inside src/ir: V8's
  // default of 10 frames would not reach the kernel's own line
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 256;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  const lines = stack.split('\n');
  for (let i = 1; i < lines.length; i++) {
    // parseFrame keeps a path with spaces whole (the old regex kept what followed the last space)
    const f = parseFrame(lines[i] ?? '');
    if (!f) continue;
    if (IR_DIR.test(f.file) || f.file.startsWith('node:') || f.file.includes('node_modules')) continue;
    return { file: f.file, line: f.line };
  }
  return { file: '<unknown>', line: 0 };
}
