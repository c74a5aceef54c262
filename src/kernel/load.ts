/**
 * Loads a kernel file (TypeScript or JavaScript) and collects the kernels and programs it exports:
 * the default export (one definition or an array) and any named exports that are definitions.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UserError } from '../errors.js';
import type { KernelDef, ProgramDef } from './define.js';
import { describeLoadError } from './loadError.js';
import { registerKernelLoader } from './resolve.js';

export type Definition = KernelDef | ProgramDef;

function isDefinition(x: unknown): x is Definition {
  return typeof x === 'object' && x !== null && ((x as { kind?: unknown }).kind === 'kernel' || (x as { kind?: unknown }).kind === 'program');
}

function collect(value: unknown, out: Definition[]): void {
  if (Array.isArray(value)) for (const v of value) collect(v, out);
  else if (isDefinition(value) && !out.includes(value)) out.push(value);
}

async function importFile(abs: string): Promise<Record<string, unknown>> {
  // tsx for .ts under plain Node, and `import ... from 'warpsight'` from any folder (resolve.ts)
  await registerKernelLoader();
  return (await import(/* @vite-ignore */ pathToFileURL(abs).href)) as Record<string, unknown>;
}

export async function loadDefinitions(file: string): Promise<Definition[]> {
  const abs = resolve(file);
  if (!existsSync(abs) || !statSync(abs).isFile()) throw new UserError(`kernel file not found: ${file}; give the path of a .ts kernel file (see \`warpsight kernels\`)`);
  let mod: Record<string, unknown>;
  try {
    mod = await importFile(abs);
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
