/**
 * The host side of a kernel file: allocate and fill device buffers (lazily, page by page), read
 * results back for the correctness check.
 */
import type { ScalarKind, ScalarType } from '../ir/types.js';
import { scalarBytes } from '../ir/typesys.js';
import { type DeviceMemory, type DevicePtr, type Page, PAGE_BYTES } from '../memory/deviceMemory.js';
import { HostFault, describeThrown, escapeControl } from '../errors.js';
import { userLocation } from './guard.js';

type ViewName = 'u8' | 'i8' | 'u16' | 'i16' | 'i32' | 'u32' | 'f32' | 'f64' | 'i64' | 'u64';
function view(k: ScalarKind): ViewName {
  switch (k) {
    case 'pred':
    case 'u8': return 'u8';
    case 'i8': return 'i8';
    case 'u16': return 'u16';
    case 'i16': return 'i16';
    case 'i32': return 'i32';
    case 'u32': return 'u32';
    case 'f32': return 'f32';
    case 'f64': return 'f64';
    case 'i64': return 'i64';
    case 'u64': return 'u64';
  }
}

export type ElementInit = (index: number) => number | bigint;

export class Host {
  constructor(readonly mem: DeviceMemory) {}

  /** cudaMalloc of `count` elements, filled with init(i) on first touch (zeros without init) */
  alloc(type: ScalarType, count: number, name: string, init?: ElementInit): DevicePtr {
    checkType('alloc', type);
    checkCount(count, name);
    const size = scalarBytes(type.kind);
    const v = view(type.kind);
    const total = count * size;
    if (!init) {
      // zeros, as this API promises (cudaMalloc + cudaMemset): initialised for `warpsight check`
      const p = allocOrFault(this.mem, total, name, null);
      this.mem.hostWrote?.(p.allocation, 0, total);
      return p;
    }
    return allocOrFault(this.mem, total, name, (page: Page, pageOffset: number, from: number, to: number) => {
      const arr = page[v];
      const first = pageOffset / size;
      const end = Math.min(to / size, count - first);
      // the initialiser runs lazily, on the page's first touch, maybe mid-kernel: what it throws is
      // still the user's, named by its location and buffer
      try {
        for (let j = from / size; j < end; j++) arr[j] = init(first + j) as never;
      } catch (e) {
        if (e instanceof HostFault) throw e;
        const at = userLocation(e);
        throw new HostFault(`${at ? `${at}: ` : ''}the initialiser of host.alloc '${escapeControl(name)}' threw ${describeThrown(e)}`);
      }
    });
  }

  /**
   * cudaMalloc of `count` u32 words whose initial contents `fill` writes a range at a time:
   * fill(words, index of words[0] in the buffer, from, to) sets words[from..to). Faster than a
   * per-element init for large inputs (one call per 64-byte chunk touched).
   */
  allocWords(count: number, name: string, fill: (words: Uint32Array, firstIndex: number, from: number, to: number) => void): DevicePtr {
    checkCount(count, name);
    return allocOrFault(this.mem, count * 4, name, (page: Page, pageOffset: number, from: number, to: number) => {
      const first = pageOffset / 4;
      fill(page.u32, first, from / 4, Math.min(to / 4, count - first));
    });
  }

  /** element i of a buffer */
  read(p: DevicePtr, type: ScalarType, i: number): number | bigint {
    const off = this.offsetOf('read', p, type, i);
    const size = scalarBytes(type.kind);
    const page = p.allocation.page(off).ready(off % PAGE_BYTES, size);
    return page[view(type.kind)][(off % PAGE_BYTES) / size] as number | bigint;
  }

  readNumber(p: DevicePtr, type: ScalarType, i: number): number {
    return Number(this.read(p, type, i));
  }

  write(p: DevicePtr, type: ScalarType, i: number, value: number | bigint): void {
    // a write past the end used to land in the next page silently (or in no allocation at all)
    const off = this.offsetOf('write', p, type, i);
    const size = scalarBytes(type.kind);
    const page = p.allocation.page(off).ready(off % PAGE_BYTES, size);
    page[view(type.kind)][(off % PAGE_BYTES) / size] = value as never;
    this.mem.hostWrote?.(p.allocation, off, size);
  }

  /** the byte offset of element i in p's allocation; a HostFault when any byte of it lies outside */
  private offsetOf(what: 'read' | 'write', p: DevicePtr, type: ScalarType, i: number): number {
    checkType(what, type);
    if (typeof p !== 'object' || p === null || p.kind !== 'devptr') throw new HostFault(`host ${what}: the pointer is not a buffer from host.alloc`);
    const size = scalarBytes(type.kind);
    const a = p.allocation;
    const addr = p.address + i * size;
    if (!Number.isInteger(i)) throw new HostFault(`host ${what} of element ${String(i)} of '${escapeControl(a.name)}': the index must be a whole number`);
    if (addr < a.base || addr + size > a.end) throw new HostFault(`host ${what} of element ${i} (${type.kind}) is outside allocation '${escapeControl(a.name)}' (${a.bytes} bytes, ${Math.floor(a.bytes / size)} elements of ${type.kind})`);
    // an element must also be aligned to its size, as on the device (a typed view cannot read it otherwise)
    if ((addr - a.base) % size !== 0) throw new HostFault(`host ${what} of element ${i} (${type.kind}) of '${escapeControl(a.name)}' is misaligned`);
    return addr - a.base;
  }

  /** a pointer `elements` elements of `type` into a buffer (like p + n in C) */
  offset(p: DevicePtr, type: ScalarType, elements: number): DevicePtr {
    return { kind: 'devptr', address: p.address + elements * scalarBytes(type.kind), allocation: p.allocation };
  }
}

/**
 * cudaMalloc: an allocation too large for the emulator to even index (its page table past JS's array
 * limit) is CUDA's out-of-memory error, not a RangeError from deep inside
 */
function allocOrFault(mem: DeviceMemory, bytes: number, name: string, init: Parameters<DeviceMemory['alloc']>[2]): DevicePtr {
  try {
    return mem.alloc(bytes, name, init);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    throw new HostFault(`host.alloc of '${escapeControl(name)}': ${bytes} bytes is more than the emulated device can hold (cudaErrorMemoryAllocation); allocate less`);
  }
}

function checkType(what: string, type: ScalarType): void {
  if (typeof type !== 'object' || type === null || type.tag !== 'scalar') throw new HostFault(`host ${what}: the element type must be a scalar type such as f32 or u32`);
}

/** an element count: a whole number from 1 up (bytes past 2^53 cannot even be addressed exactly) */
function checkCount(count: number, name: string): void {
  if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 1)
    throw new HostFault(`host.alloc of '${escapeControl(String(name))}': ${String(count)} elements; the count must be a whole number from 1 to 2^53-1`);
}

/** the hash micro.cu uses to fill buffers (every byte non-zero), so kernels see the same data */
export function hash32(x: number): number {
  x = (x ^ (x >>> 16)) >>> 0;
  x = Math.imul(x, 0x7feb352d) >>> 0;
  x = (x ^ (x >>> 15)) >>> 0;
  x = Math.imul(x, 0x846ca68b) >>> 0;
  x = (x ^ (x >>> 16)) >>> 0;
  return x;
}
