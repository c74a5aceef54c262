/**
 * Family 6 of the H200 ground truth (micro.cu `cp_*`): 1,024 blocks of 256 threads; each block
 * brings 16 tiles of 1,024 floats into shared memory, one after the other, and every thread then
 * stores cp_compute(tile, t) = Σ_q tile[e] * 1.5 + tile[(e + 1) & 1023] (e = q * 256 + t, q < 4,
 * unrolled as `#pragma unroll` does).
 *  - cp_plain_sync: each thread loads 4 floats into registers and stores them to shared memory;
 *  - cp_cg_memcpy_async: cooperative_groups::memcpy_async of the tile, 4 bytes per thread per copy
 *    (nvcc's choice without an alignment hint: 4 LDGSTS.E per thread and tile), then cg::wait;
 *  - cp_cg_memcpy_async_a16: the same with cuda::aligned_size_t<16>: one 16-byte LDGSTS.E.BYPASS.128
 *    per thread and tile, past L1.
 * The async copies count as global loads (l1tex__t_requests|sectors_pipe_lsu_mem_global_op_ld) and
 * their shared-memory writes only in the shared total (ground truth surprise 9).
 */
import { type KernelBuilder, type PtrVal, type SharedArray, type Val, defineKernel, f32, i32, ptr, u64, vec } from 'warpsight';
import { fillF32 } from './divergence.js';

const F_ELEMS = 1 << 24;
const TILE = 1024;
const TILES_PER_BLOCK = 16;
const TILES = F_ELEMS / TILE;
const fin = (i: number): number => fillF32(i, 1, 0.01, 17);

type Copy = 'plain' | 'async4' | 'async16';

/** cp_compute: the tile's four float pairs of this thread */
function compute(k: KernelBuilder, sm: SharedArray, t: Val): Val {
  let acc: Val = k.const(f32, 0);
  for (let q = 0; q < TILE / 256; q++) {
    const e = t.add(q * 256);
    acc = acc.add(sm.at(e).get().fma(1.5, sm.at(e.add(1).and(TILE - 1)).get()));
  }
  return acc;
}

/** the tile into shared memory, as each kernel does it (all threads of the block take part) */
function fill(k: KernelBuilder, copy: Copy, sm: SharedArray, src: PtrVal, tile: Val): void {
  if (copy === 'plain') {
    // for (int e = threadIdx.x; e < CP_TILE; e += blockDim.x) sm[e] = in[tile * CP_TILE + e]: a size_t
    // index, the int e widened
    k.for(k.threadIdx.x.cast(i32), TILE, k.blockDim.x.cast(i32), (e) => sm.at(e).store(src.at(tile.mul(TILE).add(e.cast(u64))).get()));
    k.syncthreads();
    return;
  }
  // cg::memcpy_async(block, sm, in + tile * CP_TILE, bytes): each thread copies the elements
  // thread_rank(), + the block's size, ... with a size_t counter
  const rank = k.threadIdx.z.mul(k.blockDim.y).add(k.threadIdx.y).mul(k.blockDim.x).add(k.threadIdx.x).cast(u64);
  const size = k.blockDim.x.mul(k.blockDim.y).mul(k.blockDim.z).cast(u64);
  if (copy === 'async4') k.for(rank, BigInt(TILE), size, (e) => k.copyAsync(sm.at(e), src.at(tile.mul(TILE).add(e))));
  else {
    const f4 = vec(f32, 4);
    const to = sm.base.as(f4);
    const from = src.as(f4);
    k.for(rank, BigInt(TILE / 4), size, (e) => k.copyAsync(to.at(e), from.at(tile.mul(TILE / 4).add(e)), { cache: 'cg' }));
  }
  // cg::wait(block): this thread's copies, then everyone's
  k.waitAsyncCopies();
  k.syncthreads();
}

function hostCompute(tile: (e: number) => number, t: number): number {
  let acc = 0;
  for (let q = 0; q < TILE / 256; q++) {
    const e = q * 256 + t;
    // fmaf(tile[e], 1.5f, tile[e + 1]): the double sum of two floats is exact, then rounded once
    acc = Math.fround(acc + Math.fround(tile(e) * 1.5 + tile((e + 1) & (TILE - 1))));
  }
  return acc;
}

function asyncCopyKernel(name: string, copy: Copy, registers: number, what: string) {
  return defineKernel({
    name,
    description: `16 tiles of 1,024 floats per block through shared memory: ${what}`,
    params: { in: ptr('global', f32), out: ptr('global', f32) },
    launch: { grid: TILES / TILES_PER_BLOCK, block: 256 },
    // as ptxas reports them for micro.cu (build_ptxas.txt)
    registers,
    setup: (h) => ({ in: h.alloc(f32, F_ELEMS, 'fin', fin), out: h.alloc(f32, TILES * 256, 'fout2') }),
    check: (h, { in: src, out }) => {
      for (const tile of [0, 1, 17, TILES - 1])
        for (let t = 0; t < 256; t += 37) {
          const want = hostCompute((e) => h.readNumber(src, f32, tile * TILE + e), t);
          const got = h.readNumber(out, f32, tile * 256 + t);
          if (got !== want) return `out[${tile * 256 + t}] = ${got}, expected ${want}`;
        }
      return null;
    },
    body: (k, { in: src, out }) => {
      const sm = k.shared(f32, [TILE], 'sm');
      const t = k.threadIdx.x;
      k.for(0, TILES_PER_BLOCK, 1, (tt) => {
        // const size_t tile = (size_t)blockIdx.x * CP_TPB + tt
        const tile = k.blockIdx.x.cast(u64).mul(TILES_PER_BLOCK).add(tt.cast(u64));
        fill(k, copy, sm, src, tile);
        out.at(tile.mul(256).add(t.cast(u64))).store(compute(k, sm, t));
        k.syncthreads();
      });
    },
  });
}

export default [
  asyncCopyKernel('cp_plain_sync', 'plain', 21, 'loaded into registers and stored, then __syncthreads'),
  asyncCopyKernel('cp_cg_memcpy_async', 'async4', 22, 'cooperative_groups::memcpy_async, 4-byte copies (LDGSTS.E), cg::wait'),
  asyncCopyKernel('cp_cg_memcpy_async_a16', 'async16', 22, 'cooperative_groups::memcpy_async with aligned_size_t<16> (LDGSTS.E.BYPASS.128), cg::wait'),
];
