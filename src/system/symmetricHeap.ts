/**
 * NVSHMEM's symmetric heap over the PEs' one address space: nvshmem_malloc is collective, so the k-th
 * call of every PE makes the k-th symmetric object, and the calls must agree (same size, same order). A
 * symmetric address of one PE maps to the same offset in another PE's copy of the object, as peer heaps
 * mapped over NVLink do (design guide §9; seed 001: "every PE must make the same calls in the same order").
 */
import { HostFault, KernelFault } from '../errors.js';
import type { DevicePtr } from '../memory/deviceMemory.js';
import { siteText } from '../exec/peerEnv.js';

interface SymmetricObject {
  bytes: number;
  name: string;
  /** each PE's copy (undefined until that PE makes the call) and the call's program line */
  ptrs: (DevicePtr | undefined)[];
  where: (string | undefined)[];
  freed: boolean[];
}

function ordinal(k: number): string {
  const n = k + 1;
  const suffix = n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th';
  return `${n}${suffix}`;
}

export class SymmetricHeap {
  private readonly objects: SymmetricObject[] = [];
  private readonly calls: number[];
  /** objects NVSHMEM itself makes at init (the device barrier's area): not the program's calls */
  private internal = 0;

  constructor(readonly nPes: number) {
    this.calls = new Array<number>(nPes).fill(0);
  }

  /** NVSHMEM's own symmetric object, made on every PE at init before the program's calls */
  reserve(pe: number, bytes: number, name: string, alloc: (bytes: number, name: string) => DevicePtr): DevicePtr {
    const p = this.malloc(pe, bytes, name, 'nvshmem_init', alloc);
    if (pe === this.nPes - 1) this.internal = this.objects.length;
    return p;
  }

  /** PE `pe`'s nvshmem_malloc: its copy of the next symmetric object; a call that disagrees with another PE's k-th is an error naming both */
  malloc(pe: number, bytes: number, name: string, where: string, alloc: (bytes: number, name: string) => DevicePtr): DevicePtr {
    const k = this.calls[pe] as number;
    this.calls[pe] = k + 1;
    let o = this.objects[k];
    if (o) {
      const other = o.where.findIndex((w) => w !== undefined);
      if (o.bytes !== bytes)
        throw new HostFault(
          `${where}: nvshmem_malloc mismatch: PE ${pe}'s ${ordinal(k - this.internal)} symmetric allocation asks ${bytes} bytes, PE ${other}'s (${o.where[other]}) asked ${o.bytes}: every PE must make the same nvshmem_malloc calls, with the same sizes, in the same order`,
        );
    } else {
      o = { bytes, name, ptrs: new Array<DevicePtr | undefined>(this.nPes), where: new Array<string | undefined>(this.nPes), freed: new Array<boolean>(this.nPes).fill(false) };
      this.objects.push(o);
    }
    const p = alloc(bytes, `${name} (PE ${pe})`);
    o.ptrs[pe] = p;
    o.where[pe] = where;
    return p;
  }

  /** the symmetric object holding [address, address + bytes) on PE `pe`, with its index */
  private objectAt(pe: number, address: number, bytes: number): { o: SymmetricObject; k: number } | null {
    for (let k = 0; k < this.objects.length; k++) {
      const o = this.objects[k] as SymmetricObject;
      const p = o.ptrs[pe];
      if (p && address >= p.address && address + bytes <= p.address + o.bytes) return { o, k };
    }
    return null;
  }

  /** whether an address is in PE `pe`'s part of the symmetric heap */
  isSymmetric(pe: number, address: number, bytes: number): boolean {
    return this.objectAt(pe, address, bytes) !== null;
  }

  /** the address on PE `to` of the byte range `address` names on PE `from` */
  translate(from: number, address: number, bytes: number, to: number, site: string | (() => string)): number {
    if (!Number.isInteger(to) || to < 0 || to >= this.nPes) throw new KernelFault('out-of-bounds', `${siteText(site)}: PE ${to} does not exist: the program runs on ${this.nPes} PE${this.nPes === 1 ? '' : 's'} (0..${this.nPes - 1})`);
    const hit = this.objectAt(from, address, bytes);
    if (!hit)
      throw new KernelFault(
        'out-of-bounds',
        `${siteText(site)}: address 0x${address.toString(16)} (${bytes} bytes) is not in PE ${from}'s symmetric heap: NVSHMEM's remote operations take memory from nvshmem_malloc (ctx.shmem.malloc), the same object on every PE`,
      );
    const target = hit.o.ptrs[to];
    if (!target) throw new KernelFault('out-of-bounds', `${siteText(site)}: PE ${to} has not made its ${ordinal(hit.k - this.internal)} nvshmem_malloc ('${hit.o.name}') yet: symmetric allocations are collective`);
    return target.address + (address - (hit.o.ptrs[from] as DevicePtr).address);
  }

  /** PE `pe`'s copy of the symmetric object at `p`, freed (nvshmem_free) */
  free(pe: number, p: DevicePtr, where: string, release: (p: DevicePtr) => void): void {
    const hit = this.objectAt(pe, p.address, 1);
    if (!hit || (hit.o.ptrs[pe] as DevicePtr).address !== p.address) throw new HostFault(`${where}: nvshmem_free of a pointer nvshmem_malloc did not return on PE ${pe}`);
    if (hit.o.freed[pe]) throw new HostFault(`${where}: nvshmem_free of '${hit.o.name}' twice on PE ${pe}`);
    hit.o.freed[pe] = true;
    release(p);
  }

  /** after every PE ended: the PEs made the same number of symmetric allocations */
  checkComplete(): void {
    const most = Math.max(...this.calls);
    const short = this.calls.findIndex((c) => c < most);
    if (short < 0) return;
    const o = this.objects[this.calls[short] as number] as SymmetricObject;
    const by = o.where.findIndex((w) => w !== undefined);
    throw new HostFault(`${o.where[by]}: nvshmem_malloc mismatch: PE ${by} made a ${ordinal((this.calls[short] as number) - this.internal)} symmetric allocation ('${o.name}', ${o.bytes} bytes) that PE ${short} never made: every PE must make the same nvshmem_malloc calls in the same order`);
  }
}
