/**
 * The boundary between Warpsight and a kernel file's own code. A definition is checked for shape
 * before anything runs (a missing body or params used to surface as a TypeError deep in the
 * emulator), and its hooks — setup, launch, check, a program's run and check — are wrapped so that
 * whatever they throw becomes one located error: the user's file:line:column, which hook, what was
 * thrown (exit 3, a fault of the kernel file's code), never a raw stack trace.
 */
import { resolve } from 'node:path';
import { HostFault, KernelFault, UserError, describeThrown, escapeControl, stackFrames } from '../errors.js';
import { isOwnFrame } from '../paths.js';
import type { DevicePtr } from '../memory/deviceMemory.js';
import type { KernelDef, LaunchConfig, ProgramDef, ScalarArgs } from './define.js';
import type { ValueType } from '../ir/types.js';
import type { Definition } from './load.js';
import { parseScalarParam } from './params.js';

type Hook = 'setup' | 'launch' | 'check' | 'run';

/**
 * Where in the user's code an exception was thrown: the first stack frame outside Warpsight, as
 * `file:line:column` (the kernel file as the user named it when it is that file), or null.
 */
export function userLocation(e: unknown, file?: string): string | null {
  const abs = file === undefined ? '' : resolve(file);
  for (const f of stackFrames(e)) {
    if (isOwnFrame(f.file) || !/\.[cm]?[jt]sx?$/.test(f.file)) continue;
    return `${file !== undefined && resolve(f.file) === abs ? file : f.file}:${f.line}:${f.column}`;
  }
  return null;
}

function ownerOf(def: Definition): string {
  return `${def.kind} '${escapeControl(String(def.name))}'`;
}

/**
 * The error for something a hook threw: kernel faults (a launch inside a program's run) and errors
 * that already name the kernel file pass unchanged; anything else gets the user's location and the
 * hook's name, as a HostFault (exit 3).
 */
export function hookError(e: unknown, hook: Hook, def: Definition, file: string): UserError {
  if (e instanceof KernelFault) return e;
  if (e instanceof UserError && (e.message.startsWith(file) || e.message.startsWith(resolve(file)) || /^[^:]+:\d+(:\d+)?: /.test(e.message))) return e;
  const at = userLocation(e, file) ?? file;
  const what = e instanceof UserError ? e.message : `threw ${describeThrown(e)}`;
  return new HostFault(`${at}: in ${hook}() of ${ownerOf(def)}: ${what}`);
}

function guarded<A extends unknown[], R>(fn: (...args: A) => R, hook: Hook, def: Definition, file: string): (...args: A) => R {
  return (...args: A): R => {
    try {
      return fn(...args);
    } catch (e) {
      throw hookError(e, hook, def, file);
    }
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function describeValue(v: unknown): string {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `the string '${escapeControl(v.length > 40 ? `${v.slice(0, 40)}…` : v)}'`;
  return typeof v === 'object' ? 'an object' : `${typeof v} ${String(v)}`;
}

function isDimLike(v: unknown): boolean {
  return typeof v === 'number' || (Array.isArray(v) && v.length >= 1 && v.length <= 3 && v.every((x) => typeof x === 'number'));
}

/** a launch configuration's shape (its values are checked by checkLaunch, as CUDA would) */
function checkLaunchShape(cfg: unknown, where: string): LaunchConfig {
  if (!isObject(cfg)) throw new UserError(`${where} is ${describeValue(cfg)}; expected { grid, block } (numbers or [x, y, z])`);
  for (const k of ['grid', 'block'] as const)
    if (!isDimLike(cfg[k])) throw new UserError(`${where}: ${k} is ${cfg[k] === undefined ? 'missing' : describeValue(cfg[k])}; expected a number or [x, y, z]`);
  if (cfg.dynamicShared !== undefined && (typeof cfg.dynamicShared !== 'number' || !Number.isInteger(cfg.dynamicShared) || cfg.dynamicShared < 0))
    throw new UserError(`${where}: dynamicShared is ${describeValue(cfg.dynamicShared)}; expected a whole number of bytes >= 0`);
  return cfg as unknown as LaunchConfig;
}

function checkDefaults(defaults: unknown, where: string): void {
  if (defaults === undefined) return;
  if (!isObject(defaults)) throw new UserError(`${where}: defaults is ${describeValue(defaults)}; expected { name: number }`);
  for (const [k, v] of Object.entries(defaults))
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new UserError(`${where}: defaults.${k} is ${describeValue(v)}; expected a finite number`);
}

function isValueType(t: unknown): boolean {
  return isObject(t) && (t.tag === 'scalar' || t.tag === 'ptr');
}

/**
 * A kernel definition's shape, before it runs: name, params (IR types), body, launch, setup. The
 * place is the kernel file; a definition has no line of its own.
 */
export function checkKernelDefinition(def: KernelDef, file: string): void {
  const raw = def as unknown as Record<string, unknown>;
  const name = typeof raw.name === 'string' && raw.name !== '' ? raw.name : null;
  const where = `${file}: kernel ${name === null ? '(unnamed)' : `'${escapeControl(name)}'`}`;
  if (name === null) throw new UserError(`${where}: name is ${describeValue(raw.name)}; give it name: '<kernel name>'`);
  if (!isObject(raw.params)) throw new UserError(`${where}: params is ${describeValue(raw.params)}; give it params: { name: type }, e.g. { out: ptr('global', f32), n: u32 } ({} for none)`);
  for (const [k, t] of Object.entries(raw.params))
    if (!isValueType(t)) throw new UserError(`${where}: params.${k} is ${describeValue(t)}; expected an IR type such as u32, f32 or ptr('global', f32)`);
  if (typeof raw.body !== 'function') throw new UserError(`${where}: body is ${describeValue(raw.body)}; give it body: (k, params) => { … }`);
  if (typeof raw.setup !== 'function') throw new UserError(`${where}: setup is ${describeValue(raw.setup)}; give it setup: (host, scalars) => ({ buffers }) (() => ({}) for none)`);
  if (raw.check !== undefined && typeof raw.check !== 'function') throw new UserError(`${where}: check is ${describeValue(raw.check)}; expected a function or nothing`);
  if (typeof raw.launch !== 'function') checkLaunchShape(raw.launch, `${where}: launch`);
  checkDefaults(raw.defaults, where);
  // a default is a value like --param's: within its parameter's type (a u32 default of -5 would run as 4294967291)
  for (const [k, v] of Object.entries((raw.defaults ?? {}) as Record<string, number>)) {
    const t = raw.params[k] as ValueType | undefined;
    if (t?.tag === 'scalar') parseScalarParam(k, String(v), t, `kernel '${escapeControl(name)}'`, `${where}: defaults.${k} = ${String(v)}`);
  }
}

export function checkProgramDefinition(p: ProgramDef, file: string): void {
  const raw = p as unknown as Record<string, unknown>;
  const name = typeof raw.name === 'string' && raw.name !== '' ? raw.name : null;
  const where = `${file}: program ${name === null ? '(unnamed)' : `'${escapeControl(name)}'`}`;
  if (name === null) throw new UserError(`${where}: name is ${describeValue(raw.name)}; give it name: '<program name>'`);
  if (typeof raw.run !== 'function') throw new UserError(`${where}: run is ${describeValue(raw.run)}; give it run: (ctx, scalars) => { … }`);
  if (raw.check !== undefined && typeof raw.check !== 'function') throw new UserError(`${where}: check is ${describeValue(raw.check)}; expected a function or nothing`);
  checkDefaults(raw.defaults, where);
}

const guardedDefs = new WeakMap<Definition, Definition>();

/**
 * The definition checked, with hooks that report what they throw with the user's location (see
 * hookError) and results checked for shape (setup returns buffers, launch a configuration). The same
 * definition always gets the same guarded object, so per-definition caches keep working.
 */
export function guardDefinition<D extends Definition>(def: D, file: string): D {
  const seen = guardedDefs.get(def);
  if (seen) return seen as D;
  let out: Definition;
  if (def.kind === 'kernel') {
    checkKernelDefinition(def, file);
    const k: KernelDef = def;
    const setup = guarded(k.setup.bind(k), 'setup', def, file);
    const check = k.check ? guarded(k.check.bind(k), 'check', def, file) : undefined;
    const launch = k.launch;
    out = {
      ...k,
      setup: (host, scalars) => {
        const bufs: unknown = setup(host, scalars);
        if (bufs === undefined || bufs === null) return {};
        if (!isObject(bufs)) throw new HostFault(`${file}: kernel '${escapeControl(k.name)}': setup() returned ${describeValue(bufs)}; return the pointer arguments, { name: host.alloc(…) }`);
        for (const [name, v] of Object.entries(bufs))
          if (!isObject(v) || v.kind !== 'devptr') throw new HostFault(`${file}: kernel '${escapeControl(k.name)}': setup() returned ${describeValue(v)} for '${name}'; return a buffer from host.alloc(…)`);
        return bufs as Partial<Record<string, DevicePtr>>;
      },
      ...(check ? { check } : {}),
      launch:
        typeof launch === 'function'
          ? (scalars: ScalarArgs) => {
              const cfg: unknown = guarded(launch, 'launch', def, file)(scalars);
              try {
                return checkLaunchShape(cfg, `${file}: kernel '${escapeControl(k.name)}': launch() returned`);
              } catch (e) {
                throw e instanceof UserError ? new HostFault(e.message) : e;
              }
            }
          : launch,
    } satisfies KernelDef;
  } else {
    checkProgramDefinition(def, file);
    const p: ProgramDef = def;
    out = { ...p, run: guarded(p.run.bind(p), 'run', def, file), ...(p.check ? { check: guarded(p.check.bind(p), 'check', def, file) } : {}) } satisfies ProgramDef;
  }
  guardedDefs.set(def, out);
  return out as D;
}
