/**
 * The build's stamp: one hash over every file `npm run build` reads, written beside its output
 * (dist/build-inputs.sha256). dist/ is a function of these files, so a stamp equal to the sources'
 * hash says the built CLI (bin/run.js) runs the code in the checkout. The tests spawn the built CLI
 * when it does (a third of a second less CPU per process than the dev entry through tsx, over a
 * hundred processes in `npm test`), and the dev entry otherwise (after an edit, before a build).
 *
 *   node scripts/build-stamp.mjs --write   (the last step of `npm run build`)
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** what the build reads: the sources, the schemas and the generator of their types, the manifests, the compiler settings */
export const BUILD_INPUTS = ['src', 'commands', 'schemas', 'scripts', 'bin', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];

const STAMP = join('dist', 'build-inputs.sha256');

function walk(root, path, out) {
  if (!existsSync(path)) return;
  if (statSync(path).isFile()) {
    out.push(relative(root, path));
    return;
  }
  for (const e of readdirSync(path).sort()) walk(root, join(path, e), out);
}

/** `h` updated with the paths and bytes of every file under `paths` (folders or files of `root`), in sorted order */
export function hashFiles(h, root, paths) {
  const files = [];
  for (const p of paths) walk(root, join(root, p), files);
  for (const f of files.sort()) {
    h.update(`file ${f}\n`);
    h.update(readFileSync(join(root, f)));
  }
  return h;
}

/** sha-256 over the build inputs' paths and bytes */
export function buildInputsHash(root) {
  return hashFiles(createHash('sha256'), root, BUILD_INPUTS).digest('hex');
}

/** whether dist/ was built from the sources as they are now */
export function distIsCurrent(root) {
  const stamp = join(root, STAMP);
  return existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === buildInputsHash(root);
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === '--write') {
  const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
  writeFileSync(join(root, STAMP), `${buildInputsHash(root)}\n`);
}
