/**
 * Kernel files for the built CLI without a loader thread. Under plain Node 20 a .ts file is imported
 * through tsx's module hooks, which run on a thread of their own: starting it and a round trip to it
 * for every import after it is registered cost a 1-block profile about a quarter of its CPU time.
 * Instead the file and the local files it imports are compiled by esbuild (the compiler tsx itself
 * runs, with tsx's settings) into one ES module in a cache folder, `warpsight` pointing at the API
 * module this process runs (the same instance, as the resolve hook gives), and that module is imported
 * as it is. Source maps (inline) keep every stack frame, and so every source location a report shows,
 * on the .ts lines the user wrote. The cache entry is used again while every file it was made from
 * is byte for byte the same.
 *
 * Whatever the compiled module could not do as the file would -- `import.meta` (the cache folder is
 * not the file's), a dynamic import or require, an import of a package other than Node's built-in
 * modules -- or any failure here
 * (a syntax error, a cache folder that cannot be written, no esbuild) leaves the file to the hooks
 * (resolve.ts): the error messages, too, stay theirs.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** bumped when what is written changes, so that older entries are not read */
const FORMAT = 1;

/** a cache entry: the files it was made from (path, sha-256) and the module file */
interface Entry {
  format: number;
  api: string;
  inputs: [string, string][];
  module: string;
}

const sha = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');

function cacheDir(): string {
  // WARPSIGHT_KERNEL_CACHE: another folder (tests); per user: another user's entries are neither read nor overwritten
  const env = process.env['WARPSIGHT_KERNEL_CACHE'];
  return env !== undefined && env !== '' ? env : join(tmpdir(), `warpsight-kernels-${process.getuid?.() ?? 'user'}`);
}

/** the entry at `path` when every file it was made from is unchanged, else null */
function validEntry(path: string, api: string): Entry | null {
  try {
    const e = JSON.parse(readFileSync(path, 'utf8')) as Entry;
    if (e.format !== FORMAT || e.api !== api) return null;
    for (const [file, hash] of e.inputs) if (sha(readFileSync(file)) !== hash) return null;
    return existsSync(e.module) ? e : null;
  } catch {
    return null;
  }
}

/** the module an entry named, whether or not it is still valid */
function previousModule(path: string): string | null {
  try {
    const m = (JSON.parse(readFileSync(path, 'utf8')) as Partial<Entry>).module;
    return typeof m === 'string' && m.startsWith(cacheDir()) ? m : null;
  } catch {
    return null;
  }
}

/** write `text` to `path` whole or not at all (a concurrent reader never sees half a file) */
function writeAtomic(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/**
 * The URL of `abs` compiled into one module importing the API from `api` (a file: URL), or null when
 * the file must go through the hooks.
 */
export async function bundledKernel(abs: string, api: string): Promise<string | null> {
  try {
    const dir = cacheDir();
    const entryPath = join(dir, `${sha(`${FORMAT}\0${api}\0${abs}`).slice(0, 32)}.json`);
    const hit = validEntry(entryPath, api);
    if (hit) return pathToFileURL(hit.module).href;
    const esbuild = await import('esbuild');
    const r = await esbuild.build({
      entryPoints: [abs],
      bundle: true,
      write: false,
      metafile: true,
      format: 'esm',
      platform: 'node',
      // tsx's settings (its esbuild transform of each file)
      target: `node${process.versions.node}`,
      keepNames: true,
      sourcemap: 'inline',
      // the map's paths are relative to the module's folder, where Node resolves them
      outdir: dir,
      logLevel: 'silent',
      absWorkingDir: process.cwd(),
      plugins: [
        {
          name: 'warpsight-api',
          setup(b) {
            b.onResolve({ filter: /^warpsight$/ }, () => ({ path: api, external: true }));
            // any other package stays out, and so the file goes through the hooks (below)
            b.onResolve({ filter: /^[^./]/ }, (a) => (a.path === 'warpsight' ? undefined : { path: a.path, external: true }));
          },
        },
      ],
    });
    const text = r.outputFiles?.[0]?.text;
    if (text === undefined) return null;
    const inputs: [string, string][] = [];
    for (const [rel, input] of Object.entries(r.metafile.inputs)) {
      // esbuild's own helpers (keepNames' __name) are no file
      if (rel === '<runtime>') continue;
      for (const imp of input.imports) {
        if (imp.kind !== 'import-statement') return null;
        // Node's built-in modules resolve the same from any folder; another package might not
        if (imp.external && imp.path !== api && imp.path !== '<runtime>' && !imp.path.startsWith('node:')) return null;
      }
      const file = join(process.cwd(), rel);
      const source = readFileSync(file);
      if (/\bimport\.meta\b/.test(source.toString('utf8'))) return null;
      inputs.push([file, sha(source)]);
    }
    mkdirSync(dir, { recursive: true });
    const module = join(dir, `${sha(text).slice(0, 32)}.mjs`);
    writeAtomic(module, text);
    // the folder holds one module per kernel file: the one this entry named before goes
    const before = previousModule(entryPath);
    writeAtomic(entryPath, JSON.stringify({ format: FORMAT, api, inputs, module } satisfies Entry));
    if (before !== null && before !== module) rmSync(before, { force: true });
    return pathToFileURL(module).href;
  } catch {
    return null;
  }
}
