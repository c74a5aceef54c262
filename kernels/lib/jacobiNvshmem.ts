/**
 * The device side of seed 003's multi-GPU Jacobi with NVSHMEM (NVIDIA multi-gpu-programming-models,
 * nvshmem/jacobi.cu; test/fidelity/probes/nvshmem/jacobi_nvshmem.cu is the port measured on two
 * H200s): each PE owns rows iy_start .. iy_end - 1 of the field plus a halo row above and below; after
 * its stencil a PE sends its first row into the halo row `topIy` of PE `topPe` and its last row into
 * row `bottomIy` of PE `bottomPe`.
 *
 *  - jacobi_p: every thread of an edge row sends its own value with nvshmem_float_p (fine-grained:
 *    one 4-byte store over the link per element);
 *  - jacobi_block: the blocks holding an edge row send it with nvshmemx_float_put_nbi_block (one
 *    aggregated copy per block, 16-byte stores when aligned);
 *  - sync_neighborhood: <<<1, 1>>> between iterations instead of barrier_all_on_stream: quiet, tell
 *    both neighbours the iteration count, wait until both have told us theirs.
 *
 * A multi-PE program launches them per PE (the host side: streams, barrier_all_on_stream, the norm).
 */
import { defineKernel, f32, i32, ptr, u64, type KernelBuilder, type PtrVal, type Val } from 'warpsight';

/** the thread's cell: row iy (counted from iyStart), column ix (from 1), and whether it is one the PE updates */
function cell(k: KernelBuilder, iyStart: Val, iyEnd: Val, nx: Val): { iy: Val; ix: Val; inside: Val } {
  const iy = k.blockIdx.y.mul(k.blockDim.y).add(k.threadIdx.y).cast(i32).add(iyStart);
  const ix = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x).cast(i32).add(1);
  return { iy, ix, inside: iy.lt(iyEnd).and(ix.lt(nx.sub(1))) };
}

/** the 5-point stencil of (ix, iy), stored into aNew; returns the squared residue (0 outside the PE's rows) */
function stencil(k: KernelBuilder, aNew: PtrVal, a: PtrVal, ix: Val, iy: Val, nx: Val, inside: Val): Val {
  const sq = k.let(f32, 0);
  k.if(inside, () => {
    const c = iy.mul(nx).add(ix);
    const v = a.at(c.add(1)).get().add(a.at(c.sub(1)).get()).add(a.at(c.add(nx)).get()).add(a.at(c.sub(nx)).get()).mul(0.25);
    aNew.at(c).store(v);
    const r = v.sub(a.at(c).get());
    sq.set(r.mul(r));
  });
  return sq;
}

/**
 * the block's squared residues into l2, as the original's cub::BlockReduce + atomicAdd: each warp's
 * shuffles, the warp sums through shared memory, and one atomic per block. (One atomic per warp would
 * be 32 times the float adds on one address, each 1.78 ns at its L2 slice: 117 us per iteration.)
 */
function addNorm(k: KernelBuilder, l2: PtrVal, sq: Val): void {
  const warpSums = k.shared(f32, [32]);
  const local = k.let(f32, sq);
  for (let o = 16; o > 0; o >>= 1) local.set(local.add(k.shfl('down', local, o)));
  const tid = k.threadIdx.y.mul(k.blockDim.x).add(k.threadIdx.x);
  const warp = tid.shr(5);
  const warps = k.blockDim.x.mul(k.blockDim.y).add(31).shr(5);
  k.when(k.laneId.eq(0), () => warpSums.at(warp).store(local));
  k.syncthreads();
  k.if(warp.eq(0), () => {
    const total = k.let(f32, k.select(k.laneId.lt(warps), warpSums.at(k.laneId).get(), k.f32(0)));
    for (let o = 16; o > 0; o >>= 1) total.set(total.add(k.shfl('down', total, o)));
    k.when(k.laneId.eq(0), () => l2.at(0).reduce('add', total));
  });
}

const params = {
  aNew: ptr('global', f32),
  a: ptr('global', f32),
  l2: ptr('global', f32),
  iyStart: i32,
  iyEnd: i32,
  nx: i32,
  topPe: i32,
  topIy: i32,
  bottomPe: i32,
  bottomIy: i32,
};

export const jacobiP = defineKernel({
  name: 'jacobi_p',
  description: 'Jacobi step; the edge rows go to the neighbours\' halos element by element (nvshmem_float_p)',
  params,
  launch: { grid: [1, 1], block: [32, 32] },
  // ptxas for sm_90: 25 registers (test/fidelity/probes/nvshmem/raw/ptxas_jacobi.txt)
  registers: 25,
  setup: () => ({}),
  body: (k, { aNew, a, l2, iyStart, iyEnd, nx, topPe, topIy, bottomPe, bottomIy }) => {
    const { iy, ix, inside } = cell(k, iyStart, iyEnd, nx);
    const sq = stencil(k, aNew, a, ix, iy, nx, inside);
    k.if(inside, () => {
      const v = aNew.at(iy.mul(nx).add(ix)).get();
      k.if(iy.eq(iyStart), () => k.shmem.p(aNew.add(topIy.mul(nx).add(ix)), v, topPe));
      k.if(iy.eq(iyEnd.sub(1)), () => k.shmem.p(aNew.add(bottomIy.mul(nx).add(ix)), v, bottomPe));
    });
    addNorm(k, l2, sq);
  },
});

export const jacobiCompute = defineKernel({
  name: 'jacobi_compute',
  description: 'Jacobi step only: the host-initiated variant sends the halo rows itself (nvshmemx_putmem_on_stream)',
  params,
  launch: { grid: [1, 1], block: [32, 32] },
  // ptxas for sm_90: 24 registers (test/fidelity/probes/nvshmem/raw/ptxas_jacobi.txt)
  registers: 24,
  setup: () => ({}),
  body: (k, { aNew, a, l2, iyStart, iyEnd, nx }) => {
    const { iy, ix, inside } = cell(k, iyStart, iyEnd, nx);
    addNorm(k, l2, stencil(k, aNew, a, ix, iy, nx, inside));
  },
});

export const jacobiBlock = defineKernel({
  name: 'jacobi_block',
  description: 'Jacobi step; the blocks holding an edge row put it into the neighbours\' halos at once (nvshmemx_float_put_nbi_block)',
  params,
  launch: { grid: [1, 1], block: [1024, 1] },
  // ptxas for sm_90: 24 registers (test/fidelity/probes/nvshmem/raw/ptxas_jacobi.txt)
  registers: 24,
  setup: () => ({}),
  body: (k, { aNew, a, l2, iyStart, iyEnd, nx, topPe, topIy, bottomPe, bottomIy }) => {
    const { iy, ix, inside } = cell(k, iyStart, iyEnd, nx);
    const sq = stencil(k, aNew, a, ix, iy, nx, inside);
    // the block's first row and column: whether it holds an edge row is the same for all its threads
    const blockIy = iy.sub(k.threadIdx.y.cast(i32));
    const blockIx = ix.sub(k.threadIdx.x.cast(i32));
    const rows = k.blockDim.y.cast(i32);
    const count = k.blockDim.x.cast(i32).min(nx.sub(1).sub(blockIx));
    k.if(blockIy.le(iyStart).and(iyStart.lt(blockIy.add(rows))), () =>
      k.shmem.put_nbi_block(aNew.add(topIy.mul(nx).add(blockIx)), aNew.add(iyStart.mul(nx).add(blockIx)), count, topPe),
    );
    k.if(blockIy.lt(iyEnd).and(iyEnd.le(blockIy.add(rows))), () =>
      k.shmem.put_nbi_block(aNew.add(bottomIy.mul(nx).add(blockIx)), aNew.add(iyEnd.sub(1).mul(nx).add(blockIx)), count, bottomPe),
    );
    addNorm(k, l2, sq);
  },
});

export const syncNeighborhood = defineKernel({
  name: 'sync_neighborhood',
  description: 'quiet, then signal both neighbours the iteration count and wait for theirs (<<<1, 1>>>)',
  params: { sync: ptr('global', u64), counter: u64 },
  launch: { grid: 1, block: 1 },
  // ptxas for sm_90: 24 registers (test/fidelity/probes/nvshmem/raw/ptxas_jacobi.txt)
  registers: 24,
  setup: () => ({}),
  body: (k, { sync, counter }) => {
    const me = k.shmem.my_pe();
    const n = k.shmem.n_pes();
    const next = me.add(1).rem(n);
    const prev = me.add(n).sub(1).rem(n);
    k.shmem.quiet();
    k.shmem.signal_op(sync, counter, 'set', next);
    k.shmem.signal_op(sync.add(1), counter, 'set', prev);
    k.shmem.wait_until_all(sync, 2, null, 'ge', counter);
  },
});

/**
 * The whole loop in one kernel, launched collectively on every PE (seed 003's "In-Kernel
 * Synchronization", stencil_multi_step): each iteration computes the PE's rows (every block strides
 * over them), waits at a grid barrier for its PE's other blocks (the next step reads their rows, and
 * the buffers swap), then the blocks of the first row band put both edge rows into the neighbours'
 * halos (put_nbi_block), quiet, and their thread 0 increments a flag on both neighbours
 * (atomic_inc); every block's thread 0 waits until both its flags count this step's puts (blocks per
 * row x steps done), so the next step reads halos that have landed. Two flags, one per neighbour
 * (sync[0] counts the top neighbour's puts, sync[1] the bottom one's), as the original's sync_arr: the
 * seed's single counter would let a fast neighbour's next step stand in for a slow one's, and on 4 PEs
 * it does (the field then differs from the reference). A neighbour puts into a buffer only after this
 * PE's increments of the step that read it, so no halo is overwritten while read. Even steps go
 * a -> aNew, odd ones aNew -> a.
 */
export const jacobiFused = defineKernel({
  name: 'jacobi_fused',
  description: 'all iterations in one collective launch: halos by put_nbi_block, then quiet + atomic_inc on both neighbours, wait_until their increments',
  params: { ...params, sync: ptr('global', u64), iterations: i32 },
  launch: { grid: [1, 1], block: [1024, 1] },
  setup: () => ({}),
  body: (k, { aNew, a, iyStart, iyEnd, nx, topPe, topIy, bottomPe, bottomIy, sync, iterations }) => {
    const ix = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x).cast(i32).add(1);
    const blockIx = ix.sub(k.threadIdx.x.cast(i32));
    const count = k.blockDim.x.cast(i32).min(nx.sub(1).sub(blockIx));
    const perRow = k.gridDim.x.cast(u64);
    const step = (from: PtrVal, to: PtrVal, it: Val): void => {
      // this block's rows of the PE's band
      k.for(k.blockIdx.y.cast(i32).add(iyStart), iyEnd, k.gridDim.y.cast(i32), (iy) => {
        stencil(k, to, from, ix, iy, nx, ix.lt(nx.sub(1)));
      });
      k.gridSync();
      k.if(k.blockIdx.y.eq(0), () => {
        k.shmem.put_nbi_block(to.add(topIy.mul(nx).add(blockIx)), to.add(iyStart.mul(nx).add(blockIx)), count, topPe);
        k.shmem.put_nbi_block(to.add(bottomIy.mul(nx).add(blockIx)), to.add(iyEnd.sub(1).mul(nx).add(blockIx)), count, bottomPe);
        k.syncthreads();
        k.shmem.quiet();
        k.if(k.threadIdx.x.eq(0), () => {
          // this PE is the bottom neighbour of topPe (its sync[1]) and the top one of bottomPe (its sync[0])
          k.shmem.atomic_inc(sync.add(1), topPe);
          k.shmem.atomic_inc(sync, bottomPe);
        });
      });
      k.if(k.threadIdx.x.eq(0), () => k.shmem.wait_until_all(sync, 2, null, 'ge', perRow.mul(it.add(1).cast(u64))));
      k.syncthreads();
    };
    k.for(0, iterations, 2, (it) => {
      step(a, aNew, it);
      k.if(it.add(1).lt(iterations), () => step(aNew, a, it.add(1)));
    });
  },
});
