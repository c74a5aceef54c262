/**
 * Where the package's own files are, from the source tree (tsx, vitest) or the build (dist/).
 */
import { existsSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
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

/** Warpsight's own code: its sources and their build (the package ships dist/ without source maps, so its frames name dist/ files) */
const OWN_DIRS = ['src', 'commands', join('dist', 'src'), join('dist', 'commands')];

/** a stack frame's file that is not the user's: Warpsight's own code, Node's, or a dependency's */
export function isOwnFrame(file: string): boolean {
  if (file.startsWith('node:') || file.includes(`${sep}node_modules${sep}`)) return true;
  const root = packageRoot();
  return OWN_DIRS.some((d) => file.startsWith(join(root, d) + sep));
}
