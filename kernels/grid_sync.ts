/**
 * A two-phase reduction in one kernel with cooperative groups' grid.sync() (issue 39): each block
 * writes its slice of the data, the grid synchronises, each block sums the slice its neighbour wrote
 * (so it reads other blocks' writes: without the grid barrier it could read them before they land)
 * into a per-block partial sum, the grid synchronises again, and block 0 adds the partial sums.
 *
 *   cg::grid_group grid = cg::this_grid();
 *   data[i] = i % 97;                       grid.sync();
 *   atomicAdd(&partial[b], data[neighbour]); grid.sync();
 *   if (b == 0 && t == 0) *out = sum(partial);
 *
 * grid.sync() is valid only in a cooperative launch (cudaLaunchCooperativeKernel: every block resident
 * at once; a grid that cannot be is cudaErrorCooperativeLaunchTooLarge). Each sync is what
 * cooperative_groups compiles it to: a block barrier, thread 0's `atom.add.release.gpu` on the grid
 * workspace's counter and its `ld.acquire.gpu` spin until the last block's arrival flips the
 * counter's top bit, a block barrier again.
 *
 *   warpsight profile kernels/grid_sync.ts
 *   warpsight profile kernels/grid_sync.ts --param cooperative=0   (the located error)
 */
import { defineKernel, defineProgram, ptr, u32 } from 'warpsight';

// launched by the program below only: alone it would not be a cooperative launch
const gridSum = defineKernel({
  name: 'grid_sum',
  description: 'two-phase reduction in one kernel: grid.sync() between the phases',
  params: { data: ptr('global', u32), partial: ptr('global', u32), out: ptr('global', u32) },
  launch: { grid: 264, block: 256 },
  setup: (h) => ({ data: h.alloc(u32, 264 * 256, 'data'), partial: h.alloc(u32, 264, 'partial'), out: h.alloc(u32, 1, 'out') }),
  body: (k, { data, partial, out }) => {
    const b = k.blockIdx.x;
    const t = k.threadIdx.x;
    const n = k.blockDim.x;
    const i = b.mul(n).add(t);
    data.at(i).store(i.rem(97));
    k.gridSync();
    // the neighbour block's slice: written by another block before the barrier
    const j = b.add(1).rem(k.gridDim.x).mul(n).add(t);
    partial.at(b).reduce('add', data.at(j).get());
    k.gridSync();
    k.if(b.eq(0).and(t.eq(0)), () => {
      const sum = k.let(u32, 0);
      k.for(0, k.gridDim.x, 1, (p) => sum.set(sum.add(partial.at(p).get())));
      out.at(0).store(sum);
    });
  },
});

export const gridSyncReduction = defineProgram({
  name: 'grid_sync_reduction',
  description: 'a cooperative launch whose kernel reduces in two phases separated by grid.sync()',
  defaults: { blocks: 264, threads: 256, cooperative: 1 },
  run: (ctx, scalars) => {
    const blocks = scalars.blocks ?? 264;
    const threads = scalars.threads ?? 256;
    const cooperative = scalars.cooperative ?? 1;
    const n = blocks * threads;
    const data = ctx.malloc(4 * n, 'data');
    const partial = ctx.malloc(4 * blocks, 'partial');
    const out = ctx.malloc(4, 'out');
    ctx.memset(partial, 0, 4 * blocks);
    ctx.launch(gridSum, { data, partial, out }, { grid: blocks, block: threads }, { attributes: { cooperative: cooperative !== 0 } });
    ctx.deviceSynchronize();
    let want = 0;
    for (let i = 0; i < n; i++) want += i % 97;
    const got = ctx.host.readNumber(out, u32, 0);
    ctx.value('sum', got);
    ctx.value('expected sum', want);
  },
});
