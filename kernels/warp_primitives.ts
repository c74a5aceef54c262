/**
 * Warp-level primitives and cooperative groups, as in the seed's "update from shfl to shfl_sync"
 * examples: a broadcast with __shfl_sync(0xffffffff, x, 0) where every thread is known to take part,
 * the same through `tiled_partition<32>`, and the loop whose last trip leaves some lanes idle, written
 * with `binary_partition` so that no convergence is assumed ("expect, don't assume").
 * Plus the votes: __ballot_sync, __any_sync, __all_sync, __match_any_sync, __activemask, __syncwarp.
 */
import { binaryPartition, defineKernel, f32, i32, ptr, thisThreadBlock, tiledPartition, u32 } from 'warpsight';

const N = 1 << 16;
/** the seed's loop bound: not a multiple of the warp size */
const LOOP_N = 1000;
const LOOP_BLOCKS = 64;

const fill = (i: number): number => 1 + ((i * 37) % 101) * 0.25;

export const shflBroadcast = defineKernel({
  name: 'shfl_broadcast',
  description: 'y = __shfl_sync(0xffffffff, x, 0): every lane reads lane 0 (all threads known active)',
  params: { in: ptr('global', f32), out: ptr('global', f32) },
  launch: { grid: N / 256, block: 256 },
  setup: (h) => ({ in: h.alloc(f32, N, 'in', fill), out: h.alloc(f32, N, 'out') }),
  check: (h, { in: src, out }) => {
    for (let i = 0; i < N; i += 7) if (h.readNumber(out, f32, i) !== h.readNumber(src, f32, i & ~31)) return `out[${i}] is not in[${i & ~31}]`;
    return null;
  },
  body: (k, { in: src, out }) => {
    const i = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x);
    const x = src.at(i).get();
    out.at(i).store(k.shfl('idx', x, 0, { mask: 0xffffffff }));
  },
});

export const tileShfl = defineKernel({
  name: 'tile_shfl',
  description: 'tiled_partition<32>: tile32.shfl(x, 0); tiled_partition<16>: a butterfly sum with shfl_xor inside each half warp',
  params: { in: ptr('global', f32), out: ptr('global', f32), sums: ptr('global', f32) },
  launch: { grid: N / 256, block: 256 },
  setup: (h) => ({ in: h.alloc(f32, N, 'in', fill), out: h.alloc(f32, N, 'out'), sums: h.alloc(f32, N, 'sums') }),
  check: (h, { in: src, out, sums }) => {
    for (let i = 0; i < N; i += 5) {
      if (h.readNumber(out, f32, i) !== h.readNumber(src, f32, i & ~31)) return `out[${i}] is not in[${i & ~31}]`;
      let s = 0;
      for (let j = i & ~15; j < (i & ~15) + 16; j++) s += h.readNumber(src, f32, j);
      if (Math.abs(h.readNumber(sums, f32, i) - s) > 1e-4 * s) return `sums[${i}] = ${h.readNumber(sums, f32, i)}, expected ${s}`;
    }
    return null;
  },
  body: (k, { in: src, out, sums }) => {
    const block = thisThreadBlock(k);
    const i = k.blockIdx.x.mul(k.blockDim.x).add(block.threadRank());
    const x = src.at(i).get();
    const tile32 = tiledPartition(k, 32);
    out.at(i).store(tile32.shfl(x, 0));
    const tile16 = tiledPartition(k, 16);
    let s = x;
    for (let m = 8; m > 0; m >>= 1) s = s.add(tile16.shflXor(s, m));
    sums.at(i).store(s);
  },
});

export const binaryPartitionLoop = defineKernel({
  name: 'binary_partition_loop',
  description: "the seed's `for (i = tid; i < N; i += 256)` with a broadcast inside: binary_partition(tile32, tid + i < N), no convergence assumed",
  params: { in: ptr('global', f32), out: ptr('global', f32), n: i32 },
  defaults: { n: LOOP_N },
  launch: { grid: LOOP_BLOCKS, block: 256 },
  setup: (h) => ({ in: h.alloc(f32, LOOP_N * LOOP_BLOCKS, 'in', fill), out: h.alloc(f32, LOOP_N * LOOP_BLOCKS, 'out') }),
  check: (h, { in: src, out, n }) => {
    for (let b = 0; b < LOOP_BLOCKS; b++)
      for (let j = 0; j < n; j++) {
        const want = h.readNumber(src, f32, b * n + (j & ~31));
        if (h.readNumber(out, f32, b * n + j) !== want) return `out[${b * n + j}] = ${h.readNumber(out, f32, b * n + j)}, expected ${want}`;
      }
    return null;
  },
  body: (k, { in: src, out, n }) => {
    const tid = k.threadIdx.x.cast(i32);
    const base = k.blockIdx.x.cast(i32).mul(n);
    const tile32 = tiledPartition(k, 32);
    k.for(0, n, 256, (i) => {
      const inRange = tid.add(i).lt(n);
      const subtile = binaryPartition(k, tile32, inRange);
      k.if(inRange, () => {
        const x = src.at(base.add(tid).add(i)).get();
        out.at(base.add(tid).add(i)).store(subtile.shfl(x, 0));
      });
    });
  },
});

export const warpVotes = defineKernel({
  name: 'warp_votes',
  description: '__ballot_sync, __any_sync, __all_sync, __match_any_sync, __activemask in a branch, __syncwarp',
  params: { in: ptr('global', u32), out: ptr('global', u32) },
  launch: { grid: N / 256, block: 256 },
  setup: (h) => ({ in: h.alloc(u32, N, 'in', (i) => (i * 2654435761) >>> 29), out: h.alloc(u32, 5 * N, 'out') }),
  check: (h, { in: src, out }) => {
    for (let w = 0; w < N / 32; w += 3) {
      const v = Array.from({ length: 32 }, (_, l) => h.readNumber(src, u32, w * 32 + l));
      const ballot = v.reduce((m, x, l) => (x === 0 ? m | (1 << l) : m), 0) >>> 0;
      const any = v.some((x) => x === 7) ? 1 : 0;
      const all = v.every((x) => x < 8) ? 1 : 0;
      for (let l = 0; l < 32; l++) {
        const i = w * 32 + l;
        const match = v.reduce((m, x, j) => (x === v[l] ? m | (1 << j) : m), 0) >>> 0;
        const want = [ballot, any, all, match, l < 10 ? 0x3ff : 0];
        for (let f = 0; f < 5; f++) if (h.readNumber(out, u32, 5 * i + f) !== want[f]) return `out[${i}] field ${f} = ${h.readNumber(out, u32, 5 * i + f)}, expected ${want[f]}`;
      }
    }
    return null;
  },
  body: (k, { in: src, out }) => {
    const i = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x);
    const v = src.at(i).get();
    const o = out.add(i.mul(5));
    o.at(0).store(k.vote('ballot', v.eq(0)));
    o.at(1).store(k.vote('any', v.eq(7)).cast(u32));
    o.at(2).store(k.vote('all', v.lt(8)).cast(u32));
    o.at(3).store(k.matchAny(v));
    k.syncwarp();
    const am = k.let(u32, 0);
    k.if(k.laneId.lt(10), () => am.set(k.activemask()));
    o.at(4).store(am);
  },
});

export default [shflBroadcast, tileShfl, binaryPartitionLoop, warpVotes];
