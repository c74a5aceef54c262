/**
 * A multi-stage cp.async pipeline, as NVIDIA's globalToShmemAsyncCopy sample and CUDA's
 * "Asynchronous Data Copies" chapter write it with the pipeline primitives: a block streams TILES
 * tiles of 256 floats through shared memory, each thread copying one float per tile with
 * __pipeline_memcpy_async (LDGSTS), closing each tile's copies as a group with __pipeline_commit
 * (LDGDEPBAR), and waiting with __pipeline_wait_prior(N) (DEPBAR.LE SB0, N) before it reads a tile:
 *  - tiles_1stage: copy tile i, commit, wait_prior(0), compute: every tile's memory latency is waited
 *    out in full, with nothing else for the warp to do;
 *  - tiles_2stage: double buffering: copy tile i + 1 into the other buffer, commit, wait_prior(1) (all
 *    but the group just committed), compute tile i: the next tile's copy flies while this one is used;
 *  - tiles_pipeline: the same two stages with cuda::pipeline (make_pipeline, producer_acquire/commit,
 *    consumer_wait/release), whose wait count is known only at run time: nvcc branches to one
 *    DEPBAR.LE SB0, N per count (src/ir/pipeline.ts), a few instructions and branches more per tile.
 * Same instructions per tile (one LDGSTS, one LDGDEPBAR, one DEPBAR) and the same memory traffic; the
 * 2-stage kernel takes less time where the warps have latency to hide (few warps per SM: the grid
 * here is one wave of one block per SM).
 */
import { type KernelBuilder, type PtrVal, type Val, defineKernel, f32, i32, pipeline, ptr } from 'warpsight';

const THREADS = 256;
const TILES = 32;
/** one block per SM of the H200 (132 SMs): latency, not bandwidth, bounds the copies */
const BLOCKS = 132;
const fin = (i: number): number => ((i * 37) % 101) / 8;

/** the work on one tile: a short chain of FMAs on two of its floats (what the copy's latency can hide behind) */
function compute(k: KernelBuilder, buf: PtrVal, t: Val, acc: Val): Val {
  const a = buf.at(t).get();
  const b = buf.at(t.add(1).and(THREADS - 1)).get();
  let x = acc;
  for (let r = 0; r < 8; r++) x = x.fma(1.0001, a.mul(b));
  return x;
}

function host(src: (i: number) => number, block: number, t: number): number {
  let acc = 0;
  for (let tile = 0; tile < TILES; tile++) {
    const base = (block * TILES + tile) * THREADS;
    const a = src(base + t);
    const b = src(base + ((t + 1) & (THREADS - 1)));
    const p = Math.fround(a * b);
    for (let r = 0; r < 8; r++) acc = Math.fround(acc * Math.fround(1.0001) + p);
  }
  return acc;
}

/** the kernel body: `stages` 1 or 2 buffers of one tile each; 'pipeline': 2 stages through cuda::pipeline */
export function pipelinedTiles(k: KernelBuilder, src: PtrVal, out: PtrVal, stages: 1 | 2 | 'pipeline'): void {
  const bufs = k.shared(f32, [2, THREADS], 'bufs');
  const t = k.threadIdx.x.cast(i32);
  const first = k.blockIdx.x.cast(i32).mul(TILES);
  const copy = (tile: Val, slot: Val | number): void => k.copyAsync(bufs.at(slot, t), src.at(first.add(tile).mul(THREADS).add(t)));
  const buffer = (slot: Val): PtrVal => bufs.base.add(slot.mul(THREADS));
  const acc = k.let(f32, 0);
  if (stages === 'pipeline') {
    // for (s = 0; s < 2; s++) { pipe.producer_acquire(); memcpy_async(buf[s][t], in[s][t]); pipe.producer_commit(); }
    const pipe = pipeline(k);
    for (let s = 0; s < 2; s++) {
      pipe.producerAcquire();
      pipe.memcpyAsync(bufs.at(s, t), src.at(first.add(s).mul(THREADS).add(t)));
      pipe.producerCommit();
    }
    k.for(0, TILES, 1, (tile) => {
      pipe.consumerWait();
      k.syncthreads();
      acc.set(compute(k, buffer(tile.and(1)), t, acc));
      k.syncthreads();
      pipe.consumerRelease();
      // the stage just released takes tile + 2
      k.if(tile.add(2).lt(TILES), () => {
        pipe.producerAcquire();
        pipe.memcpyAsync(bufs.at(tile.and(1), t), src.at(first.add(tile.add(2)).mul(THREADS).add(t)));
        pipe.producerCommit();
      });
    });
  } else if (stages === 1) {
    k.for(0, TILES, 1, (tile) => {
      copy(tile, 0);
      k.commitAsyncCopies();
      k.waitPrior(0);
      k.syncthreads();
      acc.set(compute(k, buffer(k.i32(0)), t, acc));
      k.syncthreads();
    });
  } else {
    // prologue: tile 0 in flight; then each trip puts tile + 1 in flight and uses tile
    copy(k.i32(0), 0);
    k.commitAsyncCopies();
    k.for(0, TILES - 1, 1, (tile) => {
      copy(tile.add(1), tile.add(1).and(1));
      k.commitAsyncCopies();
      k.waitPrior(1);
      k.syncthreads();
      acc.set(compute(k, buffer(tile.and(1)), t, acc));
      k.syncthreads();
    });
    k.waitPrior(0);
    k.syncthreads();
    acc.set(compute(k, buffer(k.i32((TILES - 1) & 1)), t, acc));
  }
  out.at(k.blockIdx.x.cast(i32).mul(THREADS).add(t)).store(acc);
}

export function tilesKernel(name: string, stages: 1 | 2 | 'pipeline', blocks = BLOCKS) {
  return defineKernel({
    name,
    description: `${TILES} tiles of ${THREADS} floats per block through shared memory with cp.async, ${stages === 1 ? 'one buffer: copy, wait_prior(0), compute' : stages === 2 ? 'two buffers: the next tile copied while this one is used (wait_prior(1))' : 'two stages of a cuda::pipeline (consumer_wait / producer_commit)'}`,
    params: { in: ptr('global', f32), out: ptr('global', f32) },
    launch: { grid: blocks, block: THREADS },
    setup: (h) => ({ in: h.alloc(f32, blocks * TILES * THREADS, 'tiles_in', fin), out: h.alloc(f32, blocks * THREADS, 'tiles_out') }),
    check: (h, { out }) => {
      for (const b of [0, blocks - 1])
        for (let t = 0; t < THREADS; t += 31) {
          const want = host(fin, b, t);
          const got = h.readNumber(out, f32, b * THREADS + t);
          if (got !== want) return `out[${b * THREADS + t}] = ${got}, expected ${want}`;
        }
      return null;
    },
    body: (k, { in: src, out }) => pipelinedTiles(k, src, out, stages),
  });
}

export default [tilesKernel('tiles_1stage', 1), tilesKernel('tiles_2stage', 2), tilesKernel('tiles_pipeline', 'pipeline')];
