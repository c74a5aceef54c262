import type { SourceLoc } from './types.js';

/**
 * The kernel source line that called into the builder: the first stack frame outside `src/ir/`.
 * Stack traces are source-mapped (tsx, vitest, and `process.setSourceMapsEnabled` in the CLI), so the
 * line is the `.ts` line the user wrote.
 */
const IR_DIR = /[\\/]src[\\/]ir[\\/]/;
const FRAME = /\(?((?:file:\/\/)?[^()\s]+?):(\d+):(\d+)\)?\s*$/;

export function callerLoc(): SourceLoc {
  const stack = new Error().stack ?? '';
  const lines = stack.split('\n');
  for (let i = 1; i < lines.length; i++) {
    const text = lines[i] ?? '';
    const m = FRAME.exec(text);
    if (!m) continue;
    let file = m[1] ?? '';
    if (file.startsWith('file://')) file = decodeURIComponent(file.slice(7));
    if (IR_DIR.test(file) || file.startsWith('node:') || file.includes('node_modules')) continue;
    return { file, line: Number(m[2]) };
  }
  return { file: '<unknown>', line: 0 };
}
