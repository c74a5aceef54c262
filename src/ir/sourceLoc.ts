import { parseFrame } from '../errors.js';
import type { SourceLoc } from './types.js';

/**
 * The kernel source line that called into the builder: the first stack frame outside `src/ir/`.
 * Stack traces are source-mapped (tsx, vitest, and `process.setSourceMapsEnabled` in the CLI), so the
 * line is the `.ts` line the user wrote.
 */
const IR_DIR = /[\\/]src[\\/]ir[\\/]/;

export function callerLoc(): SourceLoc {
  const found = userFrame(new Error().stack ?? '');
  if (found) return found;
  // a call that the builder lowers to nested builder calls (k.shmem's polling loops) can push the
  // user's frame past V8's default 10 frames: look again with a deeper stack
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 100;
  try {
    return userFrame(new Error().stack ?? '') ?? { file: '<unknown>', line: 0 };
  } finally {
    Error.stackTraceLimit = limit;
  }
}

function userFrame(stack: string): SourceLoc | null {
  const lines = stack.split('\n');
  for (let i = 1; i < lines.length; i++) {
    // parseFrame keeps a path with spaces whole (the old regex kept what followed the last space)
    const f = parseFrame(lines[i] ?? '');
    if (!f) continue;
    if (IR_DIR.test(f.file) || f.file.startsWith('node:') || f.file.includes('node_modules')) continue;
    return { file: f.file, line: f.line };
  }
  return null;
}
