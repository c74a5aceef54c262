/**
 * Where a launch's registers live. A warp's own registers sit at fixed offsets in its part of one
 * buffer, warp after warp (8-byte registers first, so every one is aligned), so that the warps the
 * scheduler visits in turn sit next to each other in memory. Registers that hold the same value in
 * every lane of every warp (parameters, launch constants) are one array shared by all warps.
 *
 * Compiled code reaches a register through one view per storage class over the whole buffer, shared
 * by all warps, at the warp's base (Warp.rb8 / Warp.rb4) plus the register's offset. A typed-array
 * view per register and warp made a launch allocate and collect tens of thousands of objects, and
 * each instruction load a cold one before its data (thousands of warps are resident: their state
 * does not stay in the host's caches). Warp.reg still offers such views, made on first use, for
 * the rarer instructions that take a register as an array.
 */
import type { Storage } from '../ir/types.js';

export type RegArray = Int32Array | Float32Array | Float64Array | BigInt64Array;

interface RegArrayType {
  new (length: number): RegArray;
  new (buffer: ArrayBuffer, byteOffset: number, length: number): RegArray;
  readonly BYTES_PER_ELEMENT: number;
}
/** the typed array that holds a register of each storage class */
export const REG_ARRAY: Record<Storage, RegArrayType> = { i32: Int32Array, f32: Float32Array, f64: Float64Array, i64: BigInt64Array };

/** 8-byte storage classes are indexed from a warp's rb8, the others from its rb4 */
const wide = (s: Storage): boolean => REG_ARRAY[s].BYTES_PER_ELEMENT === 8;

/** a compiled program's registers: which are shared, and where each of a warp's own ones is */
export class RegLayout {
  /** per register: its index in its storage class's view relative to the warp's base; -1 when shared */
  readonly offset: Int32Array;
  /** bytes of one warp's registers (a multiple of 8) */
  readonly bytesPerWarp: number;
  /** the shared registers' arrays by register (undefined for the warps' own); generated code gets it */
  readonly shared: (RegArray | undefined)[];

  constructor(
    readonly storages: readonly Storage[],
    shared: ReadonlyMap<number, RegArray>,
    /** per register, the register whose place it takes (regAlloc.ts registerPlaces); default its own */
    place?: Int32Array,
  ) {
    this.shared = storages.map((_, r) => shared.get(r));
    this.offset = new Int32Array(storages.length).fill(-1);
    const own = storages
      .map((s, r) => ({ s, r }))
      .filter(({ r }) => !shared.has(r) && (place?.[r] ?? r) === r)
      .sort((a, b) => REG_ARRAY[b.s].BYTES_PER_ELEMENT - REG_ARRAY[a.s].BYTES_PER_ELEMENT);
    let at = 0;
    for (const { s, r } of own) {
      const bytes = REG_ARRAY[s].BYTES_PER_ELEMENT;
      this.offset[r] = at / bytes;
      at += 32 * bytes;
    }
    if (place)
      for (let r = 0; r < storages.length; r++) if (!shared.has(r) && place[r] !== r) this.offset[r] = this.offset[place[r] as number] as number;
    this.bytesPerWarp = Math.ceil(at / 8) * 8;
  }

  isShared(r: number): boolean {
    return (this.offset[r] as number) < 0;
  }
}

/**
 * Register buffers of finished grids, by size, for the next launches of the same shape: a program's
 * repeated launches (a solver's iterations, each of thousands of resident warps: 27 MB for the 8-PE
 * Jacobi's) take one zeroed instead of allocating and collecting it. At most SPARE_PER_SIZE kept.
 */
const spare = new Map<number, ArrayBuffer[]>();
const SPARE_PER_SIZE = 2;

/** a zeroed buffer of `bytes`: a spare one if a finished grid left one */
function takeBuffer(bytes: number): ArrayBuffer {
  const b = spare.get(bytes)?.pop();
  if (b === undefined) return new ArrayBuffer(bytes);
  new Uint8Array(b).fill(0);
  return b;
}

/** the registers of a launch's `warps` warps */
export class RegFile {
  readonly i32: Int32Array;
  readonly f32: Float32Array;
  readonly f64: Float64Array;
  readonly i64: BigInt64Array;
  private readonly buffer: ArrayBuffer;
  private released = false;

  constructor(
    private current: RegLayout,
    warps: number,
  ) {
    this.buffer = takeBuffer(Math.max(8, current.bytesPerWarp * warps));
    this.i32 = new Int32Array(this.buffer);
    this.f32 = new Float32Array(this.buffer);
    this.f64 = new Float64Array(this.buffer);
    this.i64 = new BigInt64Array(this.buffer);
  }

  /**
   * a later launch's registers in this file (a finished grid's, scheduler.ts takeFrame): zeroed, under
   * that launch's layout, which must take as many bytes a warp; its warps forget their views
   */
  reuse(layout: RegLayout): void {
    if (layout.bytesPerWarp !== this.current.bytesPerWarp) throw new Error('RegFile.reuse with another size of warp');
    this.current = layout;
    this.released = false;
    new Uint8Array(this.buffer).fill(0);
  }

  /** the grid is done: its buffer may serve a later launch (no warp of this one runs again) */
  release(): void {
    if (this.released) return;
    this.released = true;
    const list = spare.get(this.buffer.byteLength) ?? [];
    if (list.length < SPARE_PER_SIZE) list.push(this.buffer);
    spare.set(this.buffer.byteLength, list);
  }

  /** the launch's register layout */
  get layout(): RegLayout {
    return this.current;
  }

  /** warp `index`'s base in the 8-byte views (the 4-byte views' is twice it) */
  base8(index: number): number {
    return (index * this.layout.bytesPerWarp) / 8;
  }

  /** warp `index`'s register `r` as one array (Warp.reg) */
  view(index: number, r: number): RegArray {
    const { storages, offset, shared } = this.layout;
    const sh = shared[r];
    if (sh) return sh;
    const Type = REG_ARRAY[storages[r] as Storage];
    return new Type(this.buffer, index * this.layout.bytesPerWarp + (offset[r] as number) * Type.BYTES_PER_ELEMENT, 32);
  }
}

/**
 * Registers in generated code: `lane(r, l)` is a JavaScript expression for lane `l` of register r
 * (readable and assignable), `declarations()` what the function body must declare first. The code
 * runs with `w` (the warp) in scope. A register's place is not written into the text: it is a
 * parameter `P<n>` of the generated function (a warp's own register: its offset from the warp's
 * base; a shared one: its array), numbered in order of first use, so that instructions alike but for
 * their registers get the same text (instantiate). Other names are `R_<storage>` and `rP<n>`.
 */
export class RegRefs {
  private readonly decls: string[] = [];
  private readonly declared = new Set<string>();
  /** per register and use (its offset, its shared array, that array's halves): the parameter's name */
  private readonly names = new Map<string, string>();
  /** the parameters' values, P0 first */
  readonly params: (number | RegArray)[] = [];

  constructor(private readonly layout: RegLayout) {}

  lane(r: number, l: string): string {
    if (this.layout.isShared(r)) return `${this.param(`k${r}`, this.layout.shared[r] as RegArray)}[${l}]`;
    const p = this.param(`o${r}`, this.layout.offset[r] as number);
    const s = this.layout.storages[r] as Storage;
    this.declare(`R_${s}`, `w.${s}`);
    this.declare(`r${p}`, `w.${wide(s) ? 'rb8' : 'rb4'} + ${p}`);
    return `R_${s}[r${p} + ${l}]`;
  }

  /**
   * lane `l` of a 64-bit integer register as its two int32 halves [low, high]: the same bytes lane()
   * reaches as a BigInt, read and written without making one
   */
  halves(r: number, l: string): [string, string] {
    if (this.layout.isShared(r)) {
      const a = this.layout.shared[r] as RegArray;
      const p = this.param(`h${r}`, new Int32Array(a.buffer, a.byteOffset, 2 * a.length));
      return [`${p}[2 * ${l}]`, `${p}[2 * ${l} + 1]`];
    }
    const p = this.param(`o${r}`, this.layout.offset[r] as number);
    this.declare('R_i32', 'w.i32');
    this.declare(`h${p}`, `w.rb4 + 2 * ${p}`);
    return [`R_i32[h${p} + 2 * ${l}]`, `R_i32[h${p} + 2 * ${l} + 1]`];
  }

  declarations(): string {
    return this.decls.join(' ');
  }

  /** the parameters' names, P0 first */
  paramNames(): string[] {
    return this.params.map((_, n) => `P${n}`);
  }

  /** the parameter bound to `value`, by what it is of which register (`key`) */
  private param(key: string, value: number | RegArray): string {
    let p = this.names.get(key);
    if (p === undefined) {
      p = `P${this.params.length}`;
      this.names.set(key, p);
      this.params.push(value);
    }
    return p;
  }

  private declare(name: string, value: string): void {
    if (this.declared.has(name)) return;
    this.declared.add(name);
    this.decls.push(`const ${name} = ${value};`);
  }
}

/** generated functions by text (and by what their parameters are): see instantiate */
const factories = new Map<string, (...args: unknown[]) => unknown>();

/**
 * The function `src` returns, made with `args` bound to `names`. Functions of the same text come from
 * one factory, so V8 keeps one set of inline caches and one optimised code for all of them: an
 * instruction repeated with other registers (an unrolled loop's bodies, the same pass in several
 * kernels) is compiled and warmed up once. `kind` names what the text does not say and its inline
 * caches depend on (a page view's element type); the parameters' array types are added to it.
 */
export function instantiate<T>(kind: string, names: readonly string[], src: string, args: readonly unknown[]): T {
  const types = args.map((a) => (typeof a === 'object' && a !== null ? a.constructor.name : typeof a)).join();
  const key = `${kind}|${types}|${names.join()}|${src}`;
  let make = factories.get(key);
  if (make === undefined) {
    make = new Function(...names, src) as (...args: unknown[]) => unknown;
    factories.set(key, make);
  }
  return make(...args) as T;
}
