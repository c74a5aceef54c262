/**
 * Emulated device memory: allocations with bounds, backed by 1 MiB pages created on first touch
 * (zeroed lazily by the OS). An allocation's initial contents come from its initialiser, run 64 bytes
 * at a time when a chunk is first touched, so a strided kernel over a 2 GiB input pays only for the
 * chunks it reads. The device's capacity (arch globalMemBytes) bounds what may be allocated, not what
 * the emulator holds: an allocation beyond the free capacity fails as cudaMalloc does.
 */
import { relative } from 'node:path';
import { EXIT, UserError, stackFrames } from '../errors.js';
import { isOwnFrame } from '../paths.js';

export const PAGE_SHIFT = 20;
export const PAGE_BYTES = 1 << PAGE_SHIFT;
const PAGE_MASK = PAGE_BYTES - 1;
/** cudaMalloc returns 256-byte aligned pointers; we space allocations 2 MiB apart so they never share a line */
const ALLOC_ALIGN = 2 * PAGE_BYTES;
const HEAP_BASE = 0x7f00_0000_0000;

export const CHUNK_SHIFT = 6;
export const CHUNK_BYTES = 1 << CHUNK_SHIFT;

/** writes the initial contents of page bytes [from, to); the page starts at allocation offset `pageOffset` */
export type PageInit = (page: Page, pageOffset: number, from: number, to: number) => void;

export class Page {
  readonly u8: Uint8Array;
  readonly i8: Int8Array;
  readonly u16: Uint16Array;
  readonly i16: Int16Array;
  readonly i32: Int32Array;
  readonly u32: Uint32Array;
  readonly f32: Float32Array;
  readonly f64: Float64Array;
  readonly i64: BigInt64Array;
  readonly u64: BigUint64Array;
  /** per 64-byte chunk: 1 while its initial contents are still to be written (null: no initialiser) */
  readonly pending: Uint8Array | null;
  constructor(
    readonly buffer: ArrayBuffer,
    private readonly init: PageInit | null = null,
    private readonly offset = 0,
  ) {
    this.pending = init ? new Uint8Array(buffer.byteLength >> CHUNK_SHIFT).fill(1) : null;
    this.u8 = new Uint8Array(buffer);
    this.i8 = new Int8Array(buffer);
    this.u16 = new Uint16Array(buffer);
    this.i16 = new Int16Array(buffer);
    this.i32 = new Int32Array(buffer);
    this.u32 = new Uint32Array(buffer);
    this.f32 = new Float32Array(buffer);
    this.f64 = new Float64Array(buffer);
    this.i64 = new BigInt64Array(buffer);
    this.u64 = new BigUint64Array(buffer);
  }
  /** give chunk `c` its initial contents if it has none yet */
  fill(c: number): void {
    const p = this.pending;
    if (p === null || p[c] === 0) return;
    p[c] = 0;
    (this.init as PageInit)(this, this.offset, c << CHUNK_SHIFT, (c + 1) << CHUNK_SHIFT);
  }
  /** the page with the chunks covering [from, from+size) initialised */
  ready(from: number, size: number): this {
    if (this.pending !== null) for (let c = from >> CHUNK_SHIFT; c <= (from + size - 1) >> CHUNK_SHIFT; c++) this.fill(c);
    return this;
  }
}

/**
 * What every page of an allocation without an initialiser (cudaMalloc's) reads as until something
 * writes it: zeros, shared, never written. A kernel reading memory nobody wrote (family 5's eviction
 * pass reads 512 MiB) then makes no pages: no memory, page faults or collections for them.
 */
export const UNWRITTEN = new Page(new ArrayBuffer(PAGE_BYTES));

/** device pages made so far in this process (the emulator's memory budget checks as they grow) */
let pagesMade = 0;
export function devicePagesMade(): number {
  return pagesMade;
}

export class Allocation {
  readonly end: number;
  /**
   * host memory mapped into the device's address space (cudaHostAlloc with cudaHostAllocMapped):
   * kernels reach it over the host link, and the host program reads and writes it while kernels run
   */
  hostMapped = false;
  readonly pages: (Page | undefined)[];
  constructor(
    readonly id: number,
    readonly name: string,
    readonly base: number,
    readonly bytes: number,
    private readonly init: PageInit | null,
  ) {
    this.end = base + bytes;
    this.pages = new Array<Page | undefined>(Math.ceil(bytes / PAGE_BYTES) || 1);
  }
  /** its contents come from an initialiser (host data); without one they are cudaMalloc's, undefined until written */
  get hasInit(): boolean {
    return this.init !== null;
  }
  /** the page holding byte `offset` of this allocation */
  page(offset: number): Page {
    const idx = Math.floor(offset / PAGE_BYTES);
    let p = this.pages[idx];
    if (!p) {
      p = new Page(new ArrayBuffer(PAGE_BYTES), this.init, idx * PAGE_BYTES);
      this.pages[idx] = p;
      pagesMade++;
    }
    return p;
  }
  /** the page holding byte `offset`, to read: UNWRITTEN where no page is made and there is no initialiser */
  readPage(offset: number): Page {
    return this.pages[Math.floor(offset / PAGE_BYTES)] ?? (this.init === null ? UNWRITTEN : this.page(offset));
  }
  touchedBytes(): number {
    let n = 0;
    for (const p of this.pages) if (p) n += PAGE_BYTES;
    return n;
  }
}

/** a device pointer as the host sees it */
export interface DevicePtr {
  readonly kind: 'devptr';
  readonly address: number;
  readonly allocation: Allocation;
}

/** cudaMalloc's granularity: a large allocation takes whole 2 MiB pages of device memory */
const TAKEN_GRANULE = 2 * PAGE_BYTES;
const taken = (bytes: number): number => Math.ceil(bytes / TAKEN_GRANULE) * TAKEN_GRANULE;

/** "4 TiB", "139.80 GiB", "512 B" */
export function formatBytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let u = 0;
  let v = n;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${Number.isInteger(v) ? v : v.toFixed(2)} ${units[u]}`;
}

/** file:line of the first stack frame outside the emulator (the kernel file's setup or run), or null */
function callerOutsideEmulator(): string | null {
  for (const f of stackFrames(new Error())) {
    if (isOwnFrame(f.file)) continue;
    return `${relative(process.cwd(), f.file) || f.file}:${f.line}`;
  }
  return null;
}

export class DeviceMemory {
  /**
   * told of bytes the host writes into device memory (host.write, a memcpy or memset to the device):
   * `warpsight check`'s initcheck counts them as initialised (null: nobody listens)
   */
  hostWrote: ((a: Allocation, offset: number, bytes: number) => void) | null = null;
  private readonly allocs: Allocation[] = [];
  private next = HEAP_BASE;
  private last: Allocation | null = null;
  /** device memory the live allocations take (cudaMalloc granules) */
  private inUse = 0;
  private capacity = Infinity;
  private device = 'device';

  /** bound allocations by the device's memory (arch globalMemBytes); unbounded until called */
  setCapacity(bytes: number, device: string): void {
    this.capacity = bytes;
    this.device = device;
  }

  alloc(bytes: number, name: string, init: PageInit | null = null): DevicePtr {
    if (!Number.isFinite(bytes) || bytes <= 0 || !Number.isInteger(bytes)) throw new UserError(`cannot allocate ${bytes} bytes for '${name}': size must be a positive integer`);
    if (this.inUse + taken(bytes) > this.capacity) {
      // pages are made on first touch, so the emulator could go on; the GPU cannot, and a kernel that
      // relies on it would profile a program that does not run
      const where = callerOutsideEmulator();
      const free = this.capacity - this.inUse;
      throw new UserError(
        `${where ? `${where}: ` : ''}out of memory (cudaErrorMemoryAllocation): cudaMalloc of ${formatBytes(bytes)} for '${name}' exceeds the ${this.device}'s free device memory ` +
          `(${formatBytes(free)} of ${formatBytes(this.capacity)}); allocate less (a smaller --param) or pick a GPU with more memory (--arch)`,
        // a CUDA error while the program runs, as cudaMalloc returns it
        EXIT.KERNEL_FAULT,
      );
    }
    const a = new Allocation(this.allocs.length, name, this.next, bytes, init);
    this.next += Math.ceil(bytes / ALLOC_ALIGN) * ALLOC_ALIGN + ALLOC_ALIGN;
    this.inUse += taken(bytes);
    this.allocs.push(a);
    return { kind: 'devptr', address: a.base, allocation: a };
  }

  /** the heap's current extent, for `release` */
  mark(): number {
    return this.allocs.length;
  }

  /**
   * free every allocation made since `mark` (cudaFree in reverse order): the heap rewinds, so the next
   * allocations get the same addresses again, as a CUDA allocator hands freed memory back
   */
  release(mark: number): void {
    if (mark >= this.allocs.length) return;
    this.next = this.allocs[mark]!.base;
    for (let i = mark; i < this.allocs.length; i++) this.inUse -= taken(this.allocs[i]!.bytes);
    this.allocs.length = mark;
    this.last = null;
  }

  /**
   * cudaFree of one allocation: later accesses to it are out of bounds; the heap rewinds only when it
   * was the last one (addresses of the others stay where they are)
   */
  free(a: Allocation): void {
    const i = this.allocs.indexOf(a);
    if (i < 0) return;
    this.allocs.splice(i, 1);
    this.inUse -= taken(a.bytes);
    if (i === this.allocs.length) this.next = a.base;
    this.last = null;
  }

  /** the allocation containing [addr, addr+size), or null */
  find(addr: number, size: number): Allocation | null {
    const l = this.last;
    if (l && addr >= l.base && addr + size <= l.end) return l;
    // allocations are sorted by base: binary search
    let lo = 0;
    let hi = this.allocs.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const a = this.allocs[mid] as Allocation;
      if (addr < a.base) hi = mid - 1;
      else if (addr >= a.end) lo = mid + 1;
      else {
        if (addr + size > a.end) return null;
        this.last = a;
        return a;
      }
    }
    return null;
  }

  /** the nearest allocation, for out-of-bounds messages */
  nearest(addr: number): { alloc: Allocation; offset: number } | null {
    let best: Allocation | null = null;
    let bestDist = Infinity;
    for (const a of this.allocs) {
      const d = addr < a.base ? a.base - addr : addr >= a.end ? addr - a.end + 1 : 0;
      if (d < bestDist) {
        bestDist = d;
        best = a;
      }
    }
    return best ? { alloc: best, offset: addr - best.base } : null;
  }

  allocations(): readonly Allocation[] {
    return this.allocs;
  }
}

export function pageOffset(addr: number): number {
  return addr & PAGE_MASK;
}
