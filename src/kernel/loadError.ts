/**
 * Why a kernel file did not load, as one line with its place: a syntax error keeps the line:column
 * the transpiler (esbuild, through tsx or vite) or Node's parser gave it — only the first line of the
 * message used to survive, and it held no location — and an exception thrown at import names the
 * user's frame.
 */
import { resolve } from 'node:path';
import { describeThrown, escapeControl } from '../errors.js';
import { userLocation } from './guard.js';

/** esbuild's `/path/file.ts:7:56: ERROR: Expected ";" but found ")"` */
const ESBUILD = /^(.+):(\d+):(\d+): ERROR: (.*)$/m;

export function describeLoadError(e: unknown, file: string): string {
  const shown = (path: string): string => (resolve(path) === resolve(file) ? file : path);
  // eslint-disable-next-line no-control-regex
  const message = (e instanceof Error ? e.message : String(e)).replace(/\u001b\[[0-9;]*m/g, '');
  const es = ESBUILD.exec(message);
  if (es) return escapeControl(`${shown(es[1] ?? file)}:${es[2]}:${es[3]}: syntax error: ${es[4] ?? ''}`);
  // vite's oxc transform (vitest): `[PARSE_ERROR] Unexpected token` and a frame `╭─[ path:1:17 ]`
  const oxc = /\[([A-Z_]+)\] (.*)\n[\s\S]*?\[ (.+?):(\d+):(\d+) \]/.exec(message);
  if (oxc) return escapeControl(`${shown(oxc[3] ?? file)}:${oxc[4]}:${oxc[5]}: syntax error: ${oxc[2] ?? ''}`);
  // vite reports esbuild's errors with the location in `loc` and a frame in the message
  const loc = (e as { loc?: { file?: unknown; line?: unknown; column?: unknown } }).loc;
  if (e instanceof Error && loc && typeof loc.line === 'number') {
    const at = `${typeof loc.file === 'string' ? shown(loc.file) : file}:${loc.line}:${typeof loc.column === 'number' ? loc.column + 1 : 1}`;
    return escapeControl(`${at}: syntax error: ${message.split('\n')[0]?.replace(/^.*?ERROR: /, '') ?? ''}`);
  }
  // Node's own parser (a .js kernel file): the stack opens with `file:///path:line`, the code, a caret
  if (e instanceof SyntaxError) {
    const lines = (e.stack ?? '').split('\n');
    const head = /^(?:file:\/\/)?(.+):(\d+)$/.exec(lines[0] ?? '');
    if (head) {
      const caret = lines[2]?.indexOf('^') ?? -1;
      const path = decodeURIComponent(head[1] ?? file);
      return escapeControl(`${shown(path)}:${head[2]}${caret >= 0 ? `:${caret + 1}` : ''}: syntax error: ${e.message}`);
    }
  }
  const at = userLocation(e, file);
  if (at) return escapeControl(`${at}: the kernel file threw while loading: ${describeThrown(e)}`);
  return `cannot load kernel file ${escapeControl(file)}: ${describeThrown(e)}`;
}
