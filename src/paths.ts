/**
 * Where the package's own files are, from the source tree (tsx, vitest) or the build (dist/).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | null = null;

/** the folder holding warpsight's package.json */
export function packageRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) || !existsSync(join(dir, 'schemas'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('warpsight: cannot find the package root');
    dir = up;
  }
  root = dir;
  return dir;
}

export function schemaPath(name: string): string {
  return join(packageRoot(), 'schemas', name);
}
