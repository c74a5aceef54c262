/**
 * Redundant loads (src/exec/loadCse.ts) end to end: small kernels written as the C reads, profiled,
 * their memory instruction counts against the hand-derived number of loads nvcc keeps, their results
 * checked on the host (reusing a load changes counts, never values).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type KernelBuilder, type PtrVal, defineKernel, i32, ptr } from '../../src/api.js';
import { profileDefinitions } from '../../src/profile.js';

const FILE = fileURLToPath(import.meta.url);
const N = 64;
const LDS = 'smsp__sass_inst_executed_op_shared_ld.sum';
const LDG = 'smsp__sass_inst_executed_op_global_ld.sum';
const SECTORS = 'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum';
const IN = (i: number): number => ((i * 37 + 5) % 23) - 7;

/**
 * A 3-tap filter over a shared tile, 2 outputs per thread, unrolled as convolutionSeparable's is:
 * out[2t + o] = sum_j tile[3t + o + j] * w[j]. The C reads the tile 6 times; 4 distinct elements.
 * (3t: no two of a thread's elements are an aligned pair, which src/exec/vectorize.ts would merge.)
 * `between` runs between the two outputs (something that may or may not end the reuse).
 */
function taps(name: string, between: (k: KernelBuilder, tile: PtrVal, out: PtrVal) => void, expected: (t: number, o: number) => number = (t, o) => tapSum(t, o)) {
  return defineKernel({
    name,
    params: { in: ptr('global', i32), out: ptr('global', i32) },
    launch: { grid: 1, block: N },
    setup: (h) => ({ in: h.alloc(i32, 3 * N + 1, 'in', IN), out: h.alloc(i32, 2 * N, 'out') }),
    check: (h, { out }) => {
      for (let t = 0; t < N; t++)
        for (let o = 0; o < 2; o++) {
          const got = h.readNumber(out, i32, 2 * t + o);
          if (got !== expected(t, o)) return `out[${2 * t + o}] = ${got}, expected ${expected(t, o)}`;
        }
      return null;
    },
    body: (k, { in: src, out }) => {
      const s = k.shared(i32, [3 * N + 2]);
      const t = k.threadIdx.x.cast(i32);
      const tile = s.at(0).addr;
      // each thread fills 3 elements (and the last thread the one past the end)
      for (const o of [0, 1, 2]) tile.at(t.mul(3).add(o)).store(src.at(t.mul(3).add(o)).get());
      k.if(t.eq(N - 1), () => tile.at(t.mul(3).add(3)).store(src.at(t.mul(3).add(3)).get()));
      k.syncthreads();
      const mine = tile.add(t.mul(3));
      for (const o of [0, 1]) {
        if (o === 1) between(k, tile, out);
        const sum = k.let(i32, 0);
        for (let j = 0; j < 3; j++) sum.set(sum.add(mine.at(o + j).get().mul(j + 1)));
        out.at(t.mul(2).add(o)).store(sum);
      }
    },
  });
}
const tapSum = (t: number, o: number): number => [0, 1, 2].reduce((s, j) => s + IN(3 * t + o + j) * (j + 1), 0);

function profile(defs: ReturnType<typeof defineKernel>[]): Map<string, Record<string, number>> {
  const report = profileDefinitions(defs, { file: FILE });
  for (const k of report.kernels) expect(k.check, k.name).toEqual({ passed: true });
  return new Map(report.kernels.map((k) => [k.name, k.metrics as Record<string, number>]));
}
const perWarp = (m: Record<string, number> | undefined, metric: string): number => Number(m?.[metric]) / (N / 32);

describe('a load of what a dominating load read is no instruction', () => {
  it('an unrolled filter loads each shared element once; a shared store or a barrier between ends the reuse', () => {
    const m = profile([
      taps('taps_plain', () => {}),
      // a global store between: another state space, the tile is still known
      taps('taps_global_store', (k, _tile, out) => out.at(k.threadIdx.x.cast(i32).mul(2).add(1)).store(k.i32(0))),
      taps('taps_shared_store', (k, tile) => tile.at(3 * N + 1).store(k.i32(0))),
      taps('taps_barrier', (k) => k.syncthreads()),
    ]);
    // 6 reads of tile[3t .. 3t + 3]: 4 distinct elements; the fill's loads are global
    expect(perWarp(m.get('taps_plain'), LDS)).toBe(4);
    expect(perWarp(m.get('taps_global_store'), LDS)).toBe(4);
    // after a shared store (to an element the filter does not read, but the compiler cannot tell
    // without the indices' ranges) or a barrier the second output loads its 3 again: 3 + 3
    expect(perWarp(m.get('taps_shared_store'), LDS)).toBe(6);
    expect(perWarp(m.get('taps_barrier'), LDS)).toBe(6);
  });

  it('a global load is kept across a relaxed atomic on another argument (filter_arr), not one on the same', () => {
    const kernel = (name: string, same: boolean) =>
      defineKernel({
        name,
        params: { src: ptr('global', i32), dst: ptr('global', i32), counter: ptr('global', i32) },
        launch: { grid: 1, block: N },
        setup: (h) => ({ src: h.alloc(i32, N + 1, 'src', IN), dst: h.alloc(i32, N, 'dst'), counter: h.alloc(i32, 1, 'counter') }),
        check: (h, { dst, src, counter }) => {
          // the atomic adds 0 (same) or 1 (another array): the value read again is the one read first
          void src;
          void counter;
          for (let i = 0; i < N; i++) if (h.readNumber(dst, i32, i) !== 2 * IN(i)) return `dst[${i}] = ${h.readNumber(dst, i32, i)}, expected ${2 * IN(i)}`;
          return null;
        },
        body: (k, { src, dst, counter }) => {
          const i = k.threadIdx.x.cast(i32);
          const a = src.at(i).get();
          if (same) src.at(N).reduce('add', 0);
          else counter.at(0).reduce('add', 1);
          dst.at(i).store(a.add(src.at(i).get()));
        },
      });
    const m = profile([kernel('atom_other', false), kernel('atom_same', true)]);
    expect(perWarp(m.get('atom_other'), LDG)).toBe(1);
    // one load's sectors: 32 lanes x 4 bytes = 4 sectors per warp
    expect(perWarp(m.get('atom_other'), SECTORS)).toBe(4);
    expect(perWarp(m.get('atom_same'), LDG)).toBe(2);
  });

  it('a load before a loop is reused inside it only when the loop writes nothing it reads', () => {
    const kernel = (name: string, storeInLoop: boolean, volatile = false) =>
      defineKernel({
        name,
        params: { src: ptr('global', i32), dst: ptr('global', i32) },
        launch: { grid: 1, block: N },
        setup: (h) => ({ src: h.alloc(i32, N, 'src', IN), dst: h.alloc(i32, N, 'dst') }),
        check: (h, { dst }) => {
          for (let i = 0; i < N; i++) {
            const want = storeInLoop ? 0 : 5 * IN(i);
            if (h.readNumber(dst, i32, i) !== want) return `dst[${i}] = ${h.readNumber(dst, i32, i)}, expected ${want}`;
          }
          return null;
        },
        body: (k, { src, dst }) => {
          const i = k.threadIdx.x.cast(i32);
          const s = k.shared(i32, [N]);
          s.at(i).store(src.at(i).get());
          const first = s.at(i).get(volatile ? { volatile: true } : undefined);
          const acc = k.let(i32, 0);
          k.for(0, 4, 1, () => {
            acc.set(acc.add(s.at(i).get(volatile ? { volatile: true } : undefined)));
            if (storeInLoop) s.at(i).store(k.i32(0));
          });
          dst.at(i).store(acc.add(first).sub(storeInLoop ? acc.add(first) : k.i32(0)));
        },
      });
    const m = profile([kernel('loop_reuse', false), kernel('loop_store', true), kernel('loop_volatile', false, true)]);
    // the first read only; the loop's 4 trips read a register
    expect(perWarp(m.get('loop_reuse'), LDS)).toBe(1);
    // the loop's store reaches the next trip's read: 1 + 4
    expect(perWarp(m.get('loop_store'), LDS)).toBe(5);
    // volatile reads are each a load
    expect(perWarp(m.get('loop_volatile'), LDS)).toBe(5);
  });
});
