/**
 * Loads a kernel file (TypeScript or JavaScript) and collects the kernels and programs it exports:
 * the default export (one definition or an array) and any named exports that are definitions.
 *
 * The import runs the file's top-level code in this thread (its definitions hold closures, which no
 * other thread could hand back), so a file whose top level never ends would hang `profile`, and
 * `kernels --dir` for the whole folder. A watchdog thread ends such an import after a time limit:
 * it stops this thread's JavaScript through the inspector (Runtime.terminateExecution, which V8
 * accepts from another thread while this one is busy) and says so by a message; the import's promise
 * is then left unsettled and the load fails with a located error instead, and the process goes on.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isMainThread, Worker } from 'node:worker_threads';
import { UserError } from '../errors.js';
import type { KernelDef, ProgramDef } from './define.js';
import { describeLoadError } from './loadError.js';
import { bundledKernel } from './bundle.js';
import { apiModuleUrl, registerKernelLoader, runningFromSource } from './resolve.js';

export type Definition = KernelDef | ProgramDef;

function isDefinition(x: unknown): x is Definition {
  return typeof x === 'object' && x !== null && ((x as { kind?: unknown }).kind === 'kernel' || (x as { kind?: unknown }).kind === 'program');
}

function collect(value: unknown, out: Definition[]): void {
  if (Array.isArray(value)) for (const v of value) collect(v, out);
  else if (isDefinition(value) && !out.includes(value)) out.push(value);
}

async function importFile(abs: string): Promise<Record<string, unknown>> {
  // the built CLI: compiled in this thread when it can be (bundle.ts), the stack traces source-mapped
  if (!runningFromSource) {
    const url = await bundledKernel(abs, apiModuleUrl());
    if (url !== null) {
      process.setSourceMapsEnabled(true);
      return (await import(/* @vite-ignore */ url)) as Record<string, unknown>;
    }
  }
  // tsx for .ts under plain Node, and `import ... from 'warpsight'` from any folder (resolve.ts)
  await registerKernelLoader();
  return (await import(/* @vite-ignore */ pathToFileURL(abs).href)) as Record<string, unknown>;
}

/**
 * How long a kernel file's import may run (its top-level code, tsx's compile included): a bundled
 * file imports in well under a second on a loaded two-core machine. WARPSIGHT_IMPORT_TIMEOUT_MS
 * overrides it (tests; 0 turns the watchdog off).
 */
export const IMPORT_TIMEOUT_MS = 10_000;

function importTimeoutMs(): number {
  const env = process.env['WARPSIGHT_IMPORT_TIMEOUT_MS'];
  const v = env === undefined || env === '' ? IMPORT_TIMEOUT_MS : Number(env);
  return Number.isFinite(v) && v >= 0 ? v : IMPORT_TIMEOUT_MS;
}

/**
 * The watchdog thread (CommonJS, run by `eval`): waits on a shared flag for the import to finish; if
 * the time runs out first, claims the flag (2), stops the main thread's JavaScript and tells it.
 * Without an inspector (a Node built without one) there is no watchdog: the import just runs.
 */
const WATCHDOG = `
const { workerData, parentPort } = require('node:worker_threads');
const flag = new Int32Array(workerData.sab);
if (Atomics.wait(flag, 0, 0, workerData.ms) === 'timed-out' && Atomics.compareExchange(flag, 0, 0, 2) === 0) {
  try {
    const inspector = require('node:inspector');
    const session = new inspector.Session();
    session.connectToMainThread();
    // the main thread reads the message only once the termination has broken its loop; the worker
    // stays until the main thread ends it (an inspector reply alone does not keep a thread alive)
    session.post('Runtime.terminateExecution');
    parentPort.postMessage('timed-out');
    setTimeout(() => {}, 60000);
  } catch {}
}
`;

/**
 * import the file, ending it after `ms` with a located error. The watchdog must reach the process's
 * main thread, so only there is it armed (vitest runs test files in forks: main threads). If the
 * import finishes in the very instant the watchdog fires (flag already 2), the termination may land
 * in whatever JavaScript runs next; the window is microseconds wide at the end of the limit.
 */
async function importWithin(abs: string, file: string, ms: number): Promise<Record<string, unknown>> {
  if (!isMainThread || ms <= 0) return importFile(abs);
  const sab = new SharedArrayBuffer(4);
  const flag = new Int32Array(sab);
  const dog = new Worker(WATCHDOG, { eval: true, workerData: { sab, ms } });
  const timedOut = new Promise<never>((_, reject) =>
    dog.once('message', () =>
      reject(
        new UserError(
          `${file}: importing the kernel file did not finish within ${ms / 1000} s: its top-level code (outside the kernels' body, setup and check) loops forever or runs too long; fix the loop, or move the work into a kernel's setup`,
        ),
      ),
    ),
  );
  try {
    return await Promise.race([importFile(abs), timedOut]);
  } finally {
    Atomics.compareExchange(flag, 0, 0, 1);
    Atomics.notify(flag, 0);
    // awaited: a watchdog still connected to the inspector at exit makes Node print "Waiting for the debugger to disconnect..."
    await dog.terminate();
  }
}

export async function loadDefinitions(file: string): Promise<Definition[]> {
  const abs = resolve(file);
  if (!existsSync(abs) || !statSync(abs).isFile()) throw new UserError(`kernel file not found: ${file}; give the path of a .ts kernel file (see \`warpsight kernels\`)`);
  let mod: Record<string, unknown>;
  try {
    mod = await importWithin(abs, file, importTimeoutMs());
  } catch (e) {
    if (e instanceof UserError) throw e;
    throw new UserError(describeLoadError(e, file));
  }
  const defs: Definition[] = [];
  collect(mod.default, defs);
  for (const [key, v] of Object.entries(mod)) if (key !== 'default') collect(v, defs);
  if (defs.length === 0) throw new UserError(`${file} exports no kernels: export default defineKernel({...}) (or an array of kernels/programs)`);
  return defs;
}

/** choose definitions by name (-k); none given = all */
export function selectDefinitions(defs: Definition[], names: string[] | undefined, file: string): Definition[] {
  if (!names || names.length === 0) return defs;
  const out: Definition[] = [];
  for (const n of names) {
    const matches = defs.filter((d) => d.name === n || (n.startsWith('regex:') && new RegExp(n.slice(6)).test(d.name)));
    if (matches.length === 0)
      throw new UserError(`no kernel named '${n}' in ${file}; it has: ${defs.map((d) => d.name).join(', ')}`);
    for (const m of matches) if (!out.includes(m)) out.push(m);
  }
  return out;
}
