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
 * does not stay in the host's caches). Warp.regs still offers such views, made on first use, for
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
  ) {
    this.shared = storages.map((_, r) => shared.get(r));
    this.offset = new Int32Array(storages.length).fill(-1);
    const own = storages
      .map((s, r) => ({ s, r }))
      .filter(({ r }) => !shared.has(r))
      .sort((a, b) => REG_ARRAY[b.s].BYTES_PER_ELEMENT - REG_ARRAY[a.s].BYTES_PER_ELEMENT);
    let at = 0;
    for (const { s, r } of own) {
      const bytes = REG_ARRAY[s].BYTES_PER_ELEMENT;
      this.offset[r] = at / bytes;
      at += 32 * bytes;
    }
    this.bytesPerWarp = Math.ceil(at / 8) * 8;
  }

  isShared(r: number): boolean {
    return (this.offset[r] as number) < 0;
  }
}

/** the registers of a launch's `warps` warps */
export class RegFile {
  readonly i32: Int32Array;
  readonly f32: Float32Array;
  readonly f64: Float64Array;
  readonly i64: BigInt64Array;
  private readonly buffer: ArrayBuffer;

  constructor(
    readonly layout: RegLayout,
    warps: number,
  ) {
    this.buffer = new ArrayBuffer(Math.max(8, layout.bytesPerWarp * warps));
    this.i32 = new Int32Array(this.buffer);
    this.f32 = new Float32Array(this.buffer);
    this.f64 = new Float64Array(this.buffer);
    this.i64 = new BigInt64Array(this.buffer);
  }

  /** warp `index`'s base in the 8-byte views (the 4-byte views' is twice it) */
  base8(index: number): number {
    return (index * this.layout.bytesPerWarp) / 8;
  }

  /** warp `index`'s registers as one array each (Warp.regs) */
  views(index: number): RegArray[] {
    const { storages, offset, shared } = this.layout;
    return storages.map((s, r) => {
      const sh = shared[r];
      if (sh) return sh;
      const bytes = REG_ARRAY[s].BYTES_PER_ELEMENT;
      return new REG_ARRAY[s](this.buffer, index * this.layout.bytesPerWarp + (offset[r] as number) * bytes, 32);
    });
  }
}

/**
 * Registers in generated code: `lane(r, l)` is a JavaScript expression for lane `l` of register r
 * (readable and assignable), `declarations()` what the function body must declare first. The code
 * runs with `w` (the warp) and `K` (RegLayout.shared) in scope. Names are `R_<storage>`, `ro<r>`
 * and `rk<r>`.
 */
export class RegRefs {
  private readonly decls: string[] = [];
  private readonly declared = new Set<string>();

  constructor(private readonly layout: RegLayout) {}

  lane(r: number, l: string): string {
    if (this.layout.isShared(r)) {
      this.declare(`rk${r}`, `K[${r}]`);
      return `rk${r}[${l}]`;
    }
    const s = this.layout.storages[r] as Storage;
    this.declare(`R_${s}`, `w.${s}`);
    this.declare(`ro${r}`, `w.${wide(s) ? 'rb8' : 'rb4'} + ${this.layout.offset[r]}`);
    return `R_${s}[ro${r} + ${l}]`;
  }

  declarations(): string {
    return this.decls.join(' ');
  }

  private declare(name: string, value: string): void {
    if (this.declared.has(name)) return;
    this.declared.add(name);
    this.decls.push(`const ${name} = ${value};`);
  }
}
