import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { bundledKernel } from '../../src/kernel/bundle.js';

// the built CLI's kernel loading (vitest's own runs through vite): what is compiled, when the cache
// entry is used again, and which files are left to the loader hooks
const dir = mkdtempSync(join(tmpdir(), 'warpsight-bundle-'));
const api = pathToFileURL(join(dir, 'api.js')).href;
const cacheBefore = process.env['WARPSIGHT_KERNEL_CACHE'];
process.env['WARPSIGHT_KERNEL_CACHE'] = join(dir, 'cache');
afterAll(() => {
  if (cacheBefore === undefined) delete process.env['WARPSIGHT_KERNEL_CACHE'];
  else process.env['WARPSIGHT_KERNEL_CACHE'] = cacheBefore;
  rmSync(dir, { recursive: true, force: true });
});

function kernelFile(name: string, body: string): string {
  const f = join(dir, name);
  writeFileSync(f, body);
  return f;
}

describe('bundledKernel', () => {
  const lib = kernelFile('lib.ts', 'export const THREADS: number = 256;\n');
  const main = kernelFile(
    'main.ts',
    "import { defineKernel } from 'warpsight';\nimport { readFileSync } from 'node:fs';\nimport { THREADS } from './lib.js';\nexport default defineKernel({ name: 'k', block: THREADS, read: readFileSync });\n",
  );

  it('compiles the file and its local imports into one module that imports the API by its URL', async () => {
    const url = await bundledKernel(main, api);
    expect(url).not.toBeNull();
    const text = readFileSync(fileURLToPath(url as string), 'utf8');
    expect(text).toContain(`from ${JSON.stringify(api)}`);
    expect(text).toContain('from "node:fs"');
    // lib.ts is inside, its types gone
    expect(text).toMatch(/var THREADS = 256;/);
    expect(text).not.toContain("'./lib.js'");
    // an inline source map naming the .ts files, relative to the module's folder (where Node resolves them)
    const map = JSON.parse(Buffer.from(text.split('sourceMappingURL=data:application/json;base64,')[1] as string, 'base64').toString('utf8')) as { sources: string[] };
    const folder = join(fileURLToPath(url as string), '..');
    expect(folder).toBe(join(dir, 'cache'));
    expect(map.sources.map((s) => join(folder, s)).sort()).toEqual([lib, main].sort());
  });

  it('uses the cache entry again while the files are unchanged, and makes a new module when one changes', async () => {
    const first = await bundledKernel(main, api);
    expect(await bundledKernel(main, api)).toBe(first);
    writeFileSync(lib, 'export const THREADS: number = 128;\n');
    const second = await bundledKernel(main, api);
    expect(second).not.toBe(first);
    expect(readFileSync(fileURLToPath(second as string), 'utf8')).toMatch(/var THREADS = 128;/);
    // one module per kernel file: the first is gone
    expect(existsSync(fileURLToPath(first as string))).toBe(false);
  });

  it('leaves to the hooks what a module in the cache folder would do differently, and what does not compile', async () => {
    const meta = kernelFile('meta.ts', "import { defineKernel } from 'warpsight';\nexport const where = import.meta.url;\nexport default defineKernel({});\n");
    const dynamic = kernelFile('dynamic.ts', "export default await import('./lib.js');\n");
    const pkg = kernelFile('pkg.ts', "import { z } from 'some-package';\nexport default z;\n");
    const broken = kernelFile('broken.ts', 'export default {;\n');
    for (const f of [meta, dynamic, pkg, broken]) expect(await bundledKernel(f, api), f).toBeNull();
  });
});
