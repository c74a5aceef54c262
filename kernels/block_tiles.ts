/**
 * Tiles larger than a warp (issue 40): the sums of 256-element segments, two ways.
 *
 *   tile_reduce_256   cg::tiled_partition<256> with a block_tile_memory and cg::reduce, as CUDA 12 builds it:
 *                     each warp reduces its lanes (REDUX), stores its partial in the scratch, and arrives
 *                     at a barrier word in shared memory (MEMBAR + atomic OR by lane 0); the last warp of
 *                     the tile combines the partials (SHFL.BFLY) and releases the others (atomic AND);
 *                     the others poll the word until it does.
 *   block_reduce_256  the same sum written by hand for a block that is one tile: REDUX per warp, the
 *                     partials through shared memory and __syncthreads(), the 8 partials summed by a warp.
 *
 * Both give the same sums. The lesson is in the counts: the tile's reduce spends shared atomics,
 * memory fences and polling loads (the polls depend on which warp arrives last, so the count moves with
 * timing), where the block barrier costs one BAR.SYNC per warp. A tile larger than a warp is for
 * blocks split into several tiles that must not wait for one another; when the tile is the whole block,
 * __syncthreads() is the cheaper barrier.
 *
 *   __shared__ cg::block_tile_memory<1024> scratch;
 *   auto tile = cg::tiled_partition<256>(cg::this_thread_block(scratch));
 *   int s = cg::reduce(tile, x[i], cg::plus<int>());
 *   if (tile.thread_rank() == 0) out[i / 256] = s;
 *
 *   warpsight profile kernels/block_tiles.ts
 */
import { blockTileMemory, defineKernel, i32, ptr, reduce, tiledPartition } from 'warpsight';

const BLOCKS = 264;
const THREADS = 256;

/** x[i] = i % 13 - 6: the segment sums, computed on the host */
function expectedSums(blocks: number): number[] {
  const out: number[] = [];
  for (let b = 0; b < blocks; b++) {
    let s = 0;
    for (let i = b * THREADS; i < (b + 1) * THREADS; i++) s += (i % 13) - 6;
    out.push(s);
  }
  return out;
}

const setup = (h: Parameters<NonNullable<Parameters<typeof defineKernel>[0]['setup']>>[0]) => ({
  x: h.alloc(i32, BLOCKS * THREADS, 'x', (i) => (i % 13) - 6),
  out: h.alloc(i32, BLOCKS, 'out'),
});

export const tileReduce = defineKernel({
  name: 'tile_reduce_256',
  description: 'segment sums with cg::reduce over tiled_partition<256> (block_tile_memory)',
  params: { x: ptr('global', i32), out: ptr('global', i32) },
  launch: { grid: BLOCKS, block: THREADS },
  setup,
  check: (h, { out }) => {
    const want = expectedSums(BLOCKS);
    for (let b = 0; b < BLOCKS; b++) if (h.readNumber(out, i32, b) !== want[b]) return `out[${b}] = ${h.readNumber(out, i32, b)}, expected ${want[b]}`;
    return null;
  },
  body: (k, { x, out }) => {
    const mem = blockTileMemory(k);
    const tile = tiledPartition(k, 256, mem);
    const i = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x);
    const s = reduce(k, tile, x.at(i).get(), 'plus');
    k.when(tile.threadRank().eq(0), () => out.at(i.shr(8)).store(s));
  },
});

export const blockReduce = defineKernel({
  name: 'block_reduce_256',
  description: 'the same sums by hand: REDUX per warp, partials in shared memory, __syncthreads()',
  params: { x: ptr('global', i32), out: ptr('global', i32) },
  launch: { grid: BLOCKS, block: THREADS },
  setup,
  check: tileReduce.check,
  body: (k, { x, out }) => {
    const partials = k.shared(i32, [8], 'partials');
    const t = k.threadIdx.x;
    const i = k.blockIdx.x.mul(k.blockDim.x).add(t);
    const w = k.reduceSync('add', x.at(i).get());
    const lane = t.and(31);
    k.when(lane.eq(0), () => partials.at(t.shr(5)).store(w));
    k.syncthreads();
    k.if(t.lt(32), () => {
      const p = k.let(i32, 0);
      k.when(lane.lt(8), () => p.set(partials.at(lane).get()));
      const s = k.reduceSync('add', p);
      k.when(lane.eq(0), () => out.at(k.blockIdx.x).store(s));
    });
  },
});
