/**
 * How a kernel file finds Warpsight, wherever it lives. A kernel imports `warpsight` (the package's
 * public API, src/api.ts); a file in /tmp or a user's project has no node_modules holding it (a
 * global install or npx puts the package elsewhere), so Node's own resolution cannot find it. A
 * module-resolution hook maps the bare specifier to the API module this very process runs — the
 * same module instance, so the kernel's definitions and the profiler share one copy of the IR.
 *
 * The hook also makes every .ts file outside node_modules an ES module: in a folder whose
 * package.json does not say "type": "module" (or that has none), tsx would compile the kernel as
 * CommonJS, and its exports would arrive wrapped in `default` ("exports no kernels").
 *
 * Under vitest, kernel imports go through vite, which resolves `warpsight` by the alias in
 * vitest.config.ts; Node's hooks play no part there, so none is registered.
 */
import { existsSync } from 'node:fs';
import { register } from 'node:module';
import { fileURLToPath } from 'node:url';

/** the package name a kernel imports */
export const PACKAGE_NAME = 'warpsight';

// The hook runs on Node's loader thread, so it is a module of its own; a data: URL keeps it one
// file whether this runs from the sources (tsx) or from dist/ (plain Node).
const HOOK = `
let api;
export function initialize(data) { api = data.api; }
export async function resolve(specifier, context, next) {
  if (specifier === ${JSON.stringify(PACKAGE_NAME)}) return { url: api, format: 'module', shortCircuit: true };
  const r = await next(specifier, context);
  if (r.url.startsWith('file:') && /\\.ts$/.test(r.url) && !r.url.includes('/node_modules/')) return { ...r, format: 'module' };
  return r;
}
`;

/** the public API module of this process: src/api.ts from the sources, dist/src/api.js from a build */
export function apiModuleUrl(): string {
  const ts = new URL('../api.ts', import.meta.url);
  return existsSync(fileURLToPath(ts)) ? ts.href : new URL('../api.js', import.meta.url).href;
}

/** whether this module runs as TypeScript: a TS loader (tsx, vite) is active and imports .ts itself */
export const runningFromSource = import.meta.url.endsWith('.ts');

/**
 * whether vite imports the kernel files (the sources under vitest): VITEST alone does not say so, a
 * process started from the build inherits it when a test runner spawns the CLI (a user's tests, or
 * ours), and it loads kernel files itself
 */
const underVite = runningFromSource && process.env.VITEST !== undefined;

let registered = false;

/**
 * Make kernel files importable: plain Node (the built CLI) gets tsx's loader for .ts; both it and
 * the dev entry (bin/dev.js, tsx already loaded) get the `warpsight` resolver. Idempotent.
 */
export async function registerKernelLoader(): Promise<void> {
  if (registered || underVite) return;
  registered = true;
  if (!runningFromSource) {
    const tsx = await import('tsx/esm/api');
    tsx.register();
  }
  // registered after tsx: Node runs the last registered hook first, so ours sees `warpsight` before
  // tsx does, and sets the format of what tsx resolved
  register(`data:text/javascript,${encodeURIComponent(HOOK)}`, { data: { api: apiModuleUrl() } });
}
