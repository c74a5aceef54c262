/**
 * Output files written whole or not at all: the text goes to a temporary file beside the target,
 * then a rename (atomic within one file system) puts it in place. A Ctrl-C or a crash mid-write
 * leaves the old file (or none), never half a report that a later `report`/`compare` chokes on.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export function writeFileAtomic(file: string, text: string | Uint8Array): void {
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${basename(file)}.${process.pid}.tmp`);
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}
