/**
 * Cooperative-groups tiles larger than a warp (tiled_partition<64…1024> with block_tile_memory) and
 * cg::reduce (issue #40 item 2), profiled from kernels written as the C reads and checked against the
 * probe test/fidelity/probes/cudaparts/tile_probe.cu (SASS tile_probe_sass.txt, ncu tile_probe_h200.csv:
 * one block of 256 threads, tiles of 64, an int sum reduced then a tile.sync()).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { blockTileMemory, defineKernel, f32, i32, ptr, reduce, tiledPartition, u32 } from '../../src/api.js';
import { UserError } from '../../src/errors.js';
import { loadDefinitions } from '../../src/kernel/load.js';
import { profileDefinitions } from '../../src/profile.js';
import { readFileSync } from 'node:fs';
import { parseNcuRawCsv } from '../../src/report/ncuCsv.js';

const FILE = fileURLToPath(import.meta.url);
const PROBE = join(import.meta.dirname, '..', 'fidelity', 'probes', 'cudaparts');
// the file keeps ncu's ==PROF== lines and the program's output ahead of the CSV: start at its header
const csvFile = join(PROBE, 'tile_probe_h200.csv');
const csvText = readFileSync(csvFile, 'utf8');
const H200 = Object.fromEntries(
  Object.entries(parseNcuRawCsv(csvText.slice(csvText.indexOf('"ID"')), csvFile)[0]?.metrics ?? {}).map(([id, v]) => [id, Number(String(v.value).replace(/,/g, ''))]),
) as Record<string, number>;

type Defs = Parameters<typeof profileDefinitions>[0];
function profile(defs: Defs) {
  const report = profileDefinitions(defs, { file: FILE });
  for (const k of report.kernels) expect(k.check, k.name).toEqual({ passed: true });
  return report.kernels;
}
function opcodes(k: ReturnType<typeof profile>[number] | undefined): Map<string, number> {
  const m = new Map<string, number>();
  for (const i of k?.instructions ?? []) m.set(i.opcode, (m.get(i.opcode) ?? 0) + Number(i.metrics['inst_executed']));
  return m;
}

/** the probe's kernel tp at tile size n and block size b: out[t] = the sum of threadIdx.x over t's tile */
function tileSum(n: 64 | 128 | 256 | 512 | 1024, block: number) {
  return defineKernel({
    name: `tile_sum_${n}_${block}`,
    params: { out: ptr('global', i32) },
    launch: { grid: 1, block },
    setup: (h) => ({ out: h.alloc(i32, block, 'out') }),
    check: (h, { out }) => {
      for (let t = 0; t < block; t++) {
        const first = t - (t % n);
        // the sum of first .. first + n - 1
        const want = n * first + (n * (n - 1)) / 2;
        if (h.readNumber(out, i32, t) !== want) return `out[${t}] = ${h.readNumber(out, i32, t)}, expected ${want}`;
      }
      return null;
    },
    body: (k, { out }) => {
      const mem = blockTileMemory(k);
      const tile = tiledPartition(k, n, mem);
      const v = reduce(k, tile, k.threadIdx.x.cast(i32), 'plus');
      tile.sync();
      out.at(k.threadIdx.x).store(v);
    },
  });
}

describe('tiled_partition<64…1024> with block_tile_memory', () => {
  it('cg::reduce over tiles of 64 and 256 threads equals the sum; counts as the H200 probe\'s SASS', () => {
    const [t64, t256] = profile([tileSum(64, 256), tileSum(256, 256)]);
    const m = t64?.metrics ?? {};
    // by the SASS (tile_probe_sass.txt), 8 warps in 4 tiles: init 8 ATOM.AND; the reduce's barrier 8 ATOM.OR
    // and 4 releasing ATOM.AND; tile.sync() the same again: 32 shared atomics, as ncu measured
    expect(m['smsp__sass_inst_executed_op_shared_atom.sum']).toBe(8 + 2 * (8 + 4));
    expect(m['smsp__sass_inst_executed_op_shared_atom.sum']).toBe(H200['smsp__sass_inst_executed_op_shared_atom.sum']);
    // 8 warp partials stored, and 4 totals (one per tile, by the last warp's lanes 0-1): 12, as ncu measured
    expect(m['smsp__sass_inst_executed_op_shared_st.sum']).toBe(8 + 4);
    expect(m['smsp__sass_inst_executed_op_shared_st.sum']).toBe(H200['smsp__sass_inst_executed_op_shared_st.sum']);
    // loads: 4 partial loads (last warps) + 8 result loads, plus the polls: at least one per waiting
    // warp (4 per barrier, 2 barriers); how many more depends on timing (the H200: 32 polls)
    // the scratch lives in the block's reserved 1 KB, as on the H200: no static shared memory of the kernel's own
    for (const id of ['launch__shared_mem_per_block_static', 'launch__shared_mem_per_block'])
      expect(m[id], id).toBe(H200[id]);
    const ops = opcodes(t64);
    expect(ops.get('BAR.SYNC')).toBe(8);
    expect(ops.get('REDUX.SUM')).toBe(8);
    expect(ops.get('SHFL.IDX')).toBe(8);
    // the last warp's two lanes combine the two partials: one butterfly step per tile
    expect(ops.get('SHFL.XOR')).toBe(4);
    // the releases: init 8, the reduce's arrivals 8 and its 4 releases, tile.sync()'s arrivals 8 (its release is relaxed)
    expect(ops.get('MEMBAR.ALL.CTA')).toBe(8 + 8 + 4 + 8);
    // the convergence points the SASS checks (BRA.DIV): two per tile.sync() in every warp, one in each tile's last warp of the reduce
    expect(ops.get('WARPSYNC')).toBe(8 * 2 + 4);
    const polls = Number(m['smsp__sass_inst_executed_op_shared_ld.sum']) - 12;
    expect(polls).toBeGreaterThanOrEqual(8);
    // the same kernel, 256-thread tiles: 8 warps in one tile, three butterfly steps for the 8 partials
    // in the one last warp, one release per barrier
    const m256 = t256?.metrics ?? {};
    expect(m256['smsp__sass_inst_executed_op_shared_atom.sum']).toBe(8 + 2 * (8 + 1));
    expect(m256['smsp__sass_inst_executed_op_shared_st.sum']).toBe(8 + 1);
    expect(opcodes(t256).get('SHFL.XOR')).toBe(3);
  });

  it('thread_rank, meta_group_rank, meta_group_size; float and min/max/xor reductions', () => {
    const ranks = defineKernel({
      name: 'tile_ranks',
      params: { out: ptr('global', u32), f: ptr('global', f32) },
      launch: { grid: 1, block: 512 },
      setup: (h) => ({ out: h.alloc(u32, 512 * 6, 'out'), f: h.alloc(f32, 512, 'f') }),
      check: (h, { out, f }) => {
        for (let t = 0; t < 512; t++) {
          const first = t - (t % 128);
          let x = 0;
          for (let s = first; s < first + 128; s++) x ^= s * 7;
          const want = [t % 128, t >> 7, 4, first, first + 127, x];
          for (let j = 0; j < 6; j++) if (h.readNumber(out, u32, j * 512 + t) !== want[j]) return `out[${j}][${t}] = ${h.readNumber(out, u32, j * 512 + t)}, expected ${want[j]}`;
          // the sum of (s + 0.5) over the tile, exact in f32
          const fs = 128 * first + (128 * 127) / 2 + 64;
          if (h.readNumber(f, f32, t) !== fs) return `f[${t}] = ${h.readNumber(f, f32, t)}, expected ${fs}`;
        }
        return null;
      },
      body: (k, { out, f }) => {
        const mem = blockTileMemory(k);
        const tile = tiledPartition(k, 128, mem);
        const t = k.threadIdx.x;
        out.at(t).store(tile.threadRank());
        out.at(t.add(512)).store(tile.metaGroupRank());
        out.at(t.add(1024)).store(tile.metaGroupSize());
        out.at(t.add(1536)).store(reduce(k, tile, t, 'less'));
        out.at(t.add(2048)).store(reduce(k, tile, t, 'greater'));
        out.at(t.add(2560)).store(reduce(k, tile, t.mul(7), 'bit_xor'));
        f.at(t).store(reduce(k, tile, t.cast(f32).add(0.5), 'plus'));
      },
    });
    const [r] = profile([ranks]);
    const ops = opcodes(r);
    // three integer reductions by REDUX (16 warps each), the float one by a 5-step butterfly per warp and
    // a 2-step one (4 warps per tile) in each tile's last warp
    expect((ops.get('REDUX.MIN') ?? 0) + (ops.get('REDUX.MAX') ?? 0) + (ops.get('REDUX.XOR') ?? 0)).toBe(3 * 16);
    expect(ops.get('SHFL.XOR')).toBe(16 * 5 + 4 * 2 + 3 * 4 * 2);
  });

  it('cg::reduce on tiles of a warp and less: REDUX for integers', () => {
    const small = defineKernel({
      name: 'tile8_sum',
      params: { out: ptr('global', i32) },
      launch: { grid: 1, block: 64 },
      setup: (h) => ({ out: h.alloc(i32, 64, 'out') }),
      check: (h, { out }) => {
        for (let t = 0; t < 64; t++) {
          const first = t - (t % 8);
          if (h.readNumber(out, i32, t) !== 8 * first + 28) return `out[${t}] = ${h.readNumber(out, i32, t)}, expected ${8 * first + 28}`;
        }
        return null;
      },
      body: (k, { out }) => {
        const tile = tiledPartition(k, 8);
        out.at(k.threadIdx.x).store(reduce(k, tile, k.threadIdx.x.cast(i32), 'plus'));
      },
    });
    // floats in tiles of 16: a 4-step butterfly within each tile (width 16), no REDUX
    const smallF = defineKernel({
      name: 'tile16_max_f32',
      params: { out: ptr('global', f32) },
      launch: { grid: 1, block: 64 },
      setup: (h) => ({ out: h.alloc(f32, 64, 'out') }),
      check: (h, { out }) => {
        // the largest of (t % 5) * 1.5 over the tile: 6 in every tile of 16 (t % 5 takes 4 in each)
        for (let t = 0; t < 64; t++) if (h.readNumber(out, f32, t) !== 6) return `out[${t}] = ${h.readNumber(out, f32, t)}, expected 6`;
        return null;
      },
      body: (k, { out }) => {
        const tile = tiledPartition(k, 16);
        const t = k.threadIdx.x;
        out.at(t).store(reduce(k, tile, t.rem(5).cast(f32).mul(1.5), 'greater'));
      },
    });
    const [r, rf] = profile([small, smallF]);
    expect(opcodes(rf).get('SHFL.XOR')).toBe(2 * 4);
    expect(opcodes(rf).has('REDUX.MAX')).toBe(false);
    expect(opcodes(r).get('REDUX.SUM')).toBe(2);
    expect(r?.metrics['smsp__sass_inst_executed_op_shared_atom.sum'] ?? 0).toBe(0);
  });
});

describe('the bundled kernels/block_tiles.ts', () => {
  it('cg::reduce over 256-thread tiles and the hand-written block reduction give the same sums; the tile pays in atomics and polls', async () => {
    const file = 'kernels/block_tiles.ts';
    const r = profileDefinitions(await loadDefinitions(file), { file });
    const [tile, block] = ['tile_reduce_256', 'block_reduce_256'].map((n) => r.kernels.find((k) => k.name === n));
    // each kernel's check compares its 264 sums with the host's
    expect(tile?.check).toEqual({ passed: true });
    expect(block?.check).toEqual({ passed: true });
    const blocks = 264;
    // per block (one tile of 8 warps): 8 init ANDs, 8 arrivals, 1 release
    expect(tile?.metrics['smsp__sass_inst_executed_op_shared_atom.sum']).toBe(blocks * (8 + 8 + 1));
    expect(block?.metrics['smsp__sass_inst_executed_op_shared_atom.sum']).toBe(0);
    // one BAR.SYNC per warp in each: block_tile_memory's init, and the hand-written __syncthreads()
    expect(opcodes(tile).get('BAR.SYNC')).toBe(blocks * 8);
    expect(opcodes(block).get('BAR.SYNC')).toBe(blocks * 8);
    // 7 waiting warps per block poll at least once each
    expect(Number(tile?.metrics['smsp__sass_inst_executed_op_shared_ld.sum'])).toBeGreaterThanOrEqual(blocks * (8 + 8 + 7));
    expect(Number(tile?.metrics['smsp__inst_executed.sum'])).toBeGreaterThan(Number(block?.metrics['smsp__inst_executed.sum']));
  });
});

describe('tile size errors', () => {
  const kernelWith = (n: number, block: number) =>
    defineKernel({
      name: `bad_tile_${n}`,
      params: { out: ptr('global', i32) },
      launch: { grid: 1, block },
      setup: (h) => ({ out: h.alloc(i32, block, 'out') }),
      body: (k, { out }) => {
        const mem = blockTileMemory(k);
        const tile = tiledPartition(k, n, mem);
        out.at(k.threadIdx.x).store(tile.threadRank().cast(i32));
      },
    });
  const errorOf = (defs: Defs): Error => {
    try {
      profileDefinitions(defs, { file: FILE });
    } catch (e) {
      return e as Error;
    }
    throw new Error('no error');
  };
  it('a size that is not a power of two: located, one line', () => {
    const e = errorOf([kernelWith(96, 192)]);
    expect(e).toBeInstanceOf(UserError);
    expect(e.message).toMatch(/blockTiles\.test\.ts:\d+: .*tiled_partition<96>: the tile size must be a power of two from 1 to 1024/);
    expect(e.message).not.toContain('\n');
  });
  it('a tile larger than a warp without a block_tile_memory: located, one line, saying how to make one', () => {
    const noMem = defineKernel({
      name: 'no_scratch',
      params: { out: ptr('global', i32) },
      launch: { grid: 1, block: 64 },
      setup: (h) => ({ out: h.alloc(i32, 64, 'out') }),
      body: (k, { out }) => {
        const tile = tiledPartition(k, 64);
        out.at(k.threadIdx.x).store(tile.threadRank().cast(i32));
      },
    });
    const e = errorOf([noMem]);
    expect(e).toBeInstanceOf(UserError);
    expect(e.message).toMatch(/blockTiles\.test\.ts:\d+: .*tiled_partition<64>: a tile larger than a warp syncs through a block_tile_memory: create it with blockTileMemory\(k\)/);
    expect(e.message).not.toContain('\n');
  });
  it('a tile larger than the block: located, one line', () => {
    const e = errorOf([kernelWith(512, 256)]);
    expect(e).toBeInstanceOf(UserError);
    expect(e.message).toMatch(/blockTiles\.test\.ts:\d+: kernel 'bad_tile_512': tiled_partition<512> in a block of 256 threads: the block must be a multiple of 512 threads/);
    expect(e.message).not.toContain('\n');
  });
});
