/**
 * Seed 003's NVSHMEM Jacobi kernels (kernels/lib/jacobiNvshmem.ts) on the loopback 2-PE: PE 0's step
 * equals a CPU stencil, and its edge rows land in PE 1's halo rows (float_p element by element,
 * put_nbi_block per block); the neighbourhood sync signals both neighbours and waits for theirs.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { f32, u64 } from '../../src/api.js';
import type { KernelDef } from '../../src/kernel/define.js';
import type { DevicePtr } from '../../src/memory/deviceMemory.js';
import { jacobiBlock, jacobiP, syncNeighborhood } from '../../kernels/lib/jacobiNvshmem.js';
import { Loopback, opcodeCounts } from './loopback.js';

const FILE = fileURLToPath(import.meta.url);
const NX = 64;
/** PE 0's rows: 1..CHUNK, halos 0 and CHUNK + 1 */
const CHUNK = 8;
const ROWS = CHUNK + 2;

const field = (pe: number, i: number): number => (pe === 0 ? Math.fround(((i * 37) % 101) / 10) : 0);

function step(def: KernelDef, grid: [number, number, number], block: [number, number, number]) {
  const lb = new Loopback(2);
  const a = lb.symmetric(f32, NX * ROWS, 'a', field);
  const aNew = lb.symmetric(f32, NX * ROWS, 'a_new');
  const l2 = lb.host.alloc(f32, 1, 'l2');
  const r = lb.run(
    def,
    FILE,
    { aNew: aNew.copies[0] as DevicePtr, a: a.copies[0] as DevicePtr, l2, iyStart: 1, iyEnd: CHUNK + 1, nx: NX, topPe: 1, topIy: CHUNK + 1, bottomPe: 1, bottomIy: 0 },
    grid,
    block,
  );
  const read = (p: DevicePtr, i: number): number => lb.host.readNumber(p, f32, i);
  return { lb, r, pe0: (i: number) => read(aNew.copies[0] as DevicePtr, i), pe1: (i: number) => read(aNew.copies[1] as DevicePtr, i), l2: read(l2, 0) };
}

/** the CPU stencil of PE 0's rows, in float arithmetic as the kernel does it */
function reference(): { a: Float32Array; norm: number } {
  const out = new Float32Array(NX * ROWS);
  let norm = 0;
  for (let y = 1; y <= CHUNK; y++)
    for (let x = 1; x < NX - 1; x++) {
      const c = y * NX + x;
      const f = Math.fround;
      const v = f(f(f(f(field(0, c + 1) + field(0, c - 1)) + field(0, c + NX)) + field(0, c - NX)) * 0.25);
      out[c] = v;
      norm += (v - field(0, c)) ** 2;
    }
  return { a: out, norm };
}

function expectStep(s: ReturnType<typeof step>): void {
  const ref = reference();
  for (let i = 0; i < NX * ROWS; i++) expect(s.pe0(i)).toBe(ref.a[i]);
  // PE 0's first row is PE 1's bottom halo (row CHUNK + 1), its last row PE 1's top halo (row 0); nothing else on PE 1
  for (let y = 0; y < ROWS; y++)
    for (let x = 0; x < NX; x++) {
      const from = y === CHUNK + 1 ? 1 : y === 0 ? CHUNK : -1;
      expect(s.pe1(y * NX + x)).toBe(from >= 0 && x >= 1 && x < NX - 1 ? ref.a[from * NX + x] : 0);
    }
  expect(Math.abs(s.l2 - ref.norm) / ref.norm).toBeLessThan(1e-5);
}

describe('NVSHMEM Jacobi step on PE 0 of 2', () => {
  it('jacobi_p: the stencil, and each edge row element sent with float_p', () => {
    const s = step(jacobiP, [2, 1, 1], [32, 32, 1]);
    expectStep(s);
    expect(Object.fromEntries(s.lb.traffic)).toEqual({ 'p 1': 2 * (NX - 2) * 4 });
    // two edge rows of 62 threads: two warps each, one ST.E per warp
    expect(opcodeCounts(s.r).get('ST.E')).toBe(4);
  });

  it('jacobi_block: the same field and halos, one put_nbi_block per edge row', () => {
    const s = step(jacobiBlock, [1, CHUNK, 1], [1024, 1, 1]);
    expectStep(s);
    expect(Object.fromEntries(s.lb.traffic)).toEqual({ 'put 1': 2 * (NX - 2) * 4 });
    // a_new + 1 is not 16-byte aligned: the copy goes element by element, 62 lanes = 2 warps per row
    expect(opcodeCounts(s.r).get('ST.E')).toBe(4);
  });

  it('sync_neighborhood: signals both neighbours, returns once both have signalled', () => {
    const lb = new Loopback(2);
    const sync = lb.symmetric(u64, 2, 'sync', (pe) => (pe === 0 ? 3n : 0n));
    lb.run(syncNeighborhood, FILE, { sync: sync.copies[0] as DevicePtr, counter: 3n }, [1, 1, 1], [1, 1, 1]);
    expect([lb.host.read(sync.copies[1] as DevicePtr, u64, 0), lb.host.read(sync.copies[1] as DevicePtr, u64, 1)]).toEqual([3n, 3n]);
    expect(Object.fromEntries(lb.traffic)).toEqual({ 'signal 1': 16 });
  });

  it('sync_neighborhood alone, the neighbour never signalling: parks (a deadlock)', () => {
    const lb = new Loopback(2);
    const sync = lb.symmetric(u64, 2, 'sync', (pe, i) => (pe === 0 && i === 0 ? 3n : 0n));
    expect(() => lb.run(syncNeighborhood, FILE, { sync: sync.copies[0] as DevicePtr, counter: 3n }, [1, 1, 1], [1, 1, 1])).toThrow(/jacobiNvshmem\.ts:\d+: deadlock in kernel 'sync_neighborhood'/);
  });
});
