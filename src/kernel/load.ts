/**
 * Loads a kernel file (TypeScript or JavaScript) and collects the kernels and programs it exports:
 * the default export (one definition or an array) and any named exports that are definitions.
 *
 * The import runs the file's top-level code in this thread (its definitions hold closures, which no
 * other thread could hand back), so a file whose top level never ends would hang `profile`, and
 * `kernels --dir` for the whole folder. Such an import ends after a time limit with a located error
 * (the import's promise left unsettled, the process going on): by this thread's own timer when it is
 * free (the import waits on a compile or a file), and when the file's code keeps it busy, by a
 * watchdog thread that stops its JavaScript through the inspector (Runtime.terminateExecution, which
 * V8 accepts from another thread while this one is busy) and says so by a message.
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

/**
 * What to import for the file: the built CLI's compilation of it (bundle.ts) when one can be made,
 * else the file itself, through the hooks (tsx for .ts under plain Node, and `import ... from
 * 'warpsight'` from any folder: resolve.ts)
 */
async function importable(abs: string): Promise<string> {
  if (!runningFromSource) {
    const url = await bundledKernel(abs, apiModuleUrl());
    if (url !== null) {
      // the stack traces source-mapped, onto the lines the user wrote
      process.setSourceMapsEnabled(true);
      return url;
    }
  }
  await registerKernelLoader();
  return pathToFileURL(abs).href;
}

/**
 * How long a kernel file's import may run (its top-level code, and tsx's compile where the hooks load
 * it; the built CLI's compile comes before and is not counted): a file imports in well under a second
 * on a loaded two-core machine. WARPSIGHT_IMPORT_TIMEOUT_MS overrides it (tests; 0 turns the limit off).
 */
export const IMPORT_TIMEOUT_MS = 10_000;

function importTimeoutMs(): number {
  const env = process.env['WARPSIGHT_IMPORT_TIMEOUT_MS'];
  const v = env === undefined || env === '' ? IMPORT_TIMEOUT_MS : Number(env);
  return Number.isFinite(v) && v >= 0 ? v : IMPORT_TIMEOUT_MS;
}

/**
 * The watchdog thread (CommonJS, run by `eval`): waits on a shared flag for the import to finish (1);
 * if the time runs out first, claims the flag (2), stops the main thread's JavaScript and tells it.
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
 * import `url` (the file `file`), ending it after `ms` with a located error. A termination must only
 * reach a main thread that is running the file's code: one that is free would take it in whatever
 * JavaScript runs next -- the watchdog's own message handler among them, and the load would hang (a
 * compile slower than the limit on a loaded machine did: 2 runs of 6). So this thread's timer ends
 * the import when it fires (the thread was free to run it), and the watchdog waits twice the limit,
 * by which time a free thread has claimed the flag: the watchdog fires only into busy code. Only the
 * process's main thread has a watchdog (vitest runs test files in forks: main threads).
 */
async function importWithin(url: string, file: string, ms: number): Promise<Record<string, unknown>> {
  const load = async (): Promise<Record<string, unknown>> => (await import(/* @vite-ignore */ url)) as Record<string, unknown>;
  if (!isMainThread || ms <= 0) return load();
  const sab = new SharedArrayBuffer(4);
  const flag = new Int32Array(sab);
  const dog = new Worker(WATCHDOG, { eval: true, workerData: { sab, ms: 2 * ms } });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    const fail = (): void =>
      reject(
        new UserError(
          `${file}: importing the kernel file did not finish within ${ms / 1000} s: its top-level code (outside the kernels' body, setup and check) loops forever or runs too long; fix the loop, or move the work into a kernel's setup`,
        ),
      );
    timer = setTimeout(() => {
      if (Atomics.compareExchange(flag, 0, 0, 1) === 0) fail();
    }, ms);
    dog.once('message', fail);
  });
  try {
    return await Promise.race([load(), timedOut]);
  } finally {
    clearTimeout(timer);
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
    mod = await importWithin(await importable(abs), file, importTimeoutMs());
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
