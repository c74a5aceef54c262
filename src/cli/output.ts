/**
 * Output paths (`-o`, `--html`, `--charts`, bench's `--out`…): checked before any work, so a path
 * that cannot be written fails in a second rather than after minutes of profiling, and written
 * with missing folders created — every failure one `error:` line naming the flag and the path.
 */
import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UserError } from '../errors.js';
import { writeFileAtomic } from './writeFile.js';

function codeOf(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  return typeof code === 'string' ? code : e instanceof Error ? e.message : String(e);
}

function isDir(path: string): boolean | null {
  try {
    return statSync(path).isDirectory();
  } catch {
    return null;
  }
}

/** the path and its missing ancestors, nearest existing one first: [existing, missing…] */
function existingAncestor(path: string): { existing: string; missing: string[] } {
  const missing: string[] = [];
  let p = resolve(path);
  while (isDir(p) === null) {
    const up = dirname(p);
    if (up === p) break;
    missing.unshift(p);
    p = up;
  }
  return { existing: p, missing };
}

/**
 * Throws a UserError (exit 2) when `path` cannot be written as a file (`kind` 'file') or a folder of
 * files ('folder'): it is the other kind already, a parent is a file, or the nearest existing folder
 * is not writable. Creates nothing.
 */
export function checkWritable(flag: string, path: string, kind: 'file' | 'folder' = 'file'): void {
  const { existing, missing } = existingAncestor(path);
  const self = isDir(path);
  if (missing.length === 0 && self !== null) {
    if (kind === 'file' && self) throw new UserError(`${flag} ${path}: is a folder; give a file name`);
    if (kind === 'folder' && !self) throw new UserError(`${flag} ${path}: is a file; give a folder`);
  } else if (isDir(existing) === false) {
    throw new UserError(`${flag} ${path}: ${existing} is a file, not a folder`);
  }
  const target = missing.length === 0 && self !== null && kind === 'file' ? path : existing;
  try {
    accessSync(target, constants.W_OK);
  } catch (e) {
    throw new UserError(`${flag} ${path}: cannot write there (${codeOf(e)}); choose a writable path`);
  }
}

/**
 * mkdir -p, one folder at a time: Node's recursive mkdir never returns for some paths (under /proc),
 * and a failure should name the folder that could not be made.
 */
export function makeFolders(flag: string, path: string, folder: string): void {
  for (const dir of existingAncestor(folder).missing) {
    try {
      mkdirSync(dir);
    } catch (e) {
      if (codeOf(e) === 'EEXIST' && isDir(dir)) continue;
      throw new UserError(`${flag} ${path}: cannot create the folder ${dir} (${codeOf(e)})`);
    }
  }
}

/**
 * writes `text` to `path`, creating missing folders, through a temporary file renamed into place (so
 * Ctrl-C never leaves half a file); errors name the flag and the path
 */
export function writeOutput(flag: string, path: string, text: string | Uint8Array): void {
  makeFolders(flag, path, dirname(resolve(path)));
  try {
    writeFileAtomic(path, text);
  } catch (e) {
    throw new UserError(`${flag} ${path}: cannot write the file (${codeOf(e)}); choose a writable path`);
  }
}
