/**
 * test/fidelity/probes/shared_misc_probe.cu in the IR: which special-register reads and warp-level
 * primitives ncu counts as shared-memory data-pipe wavefronts (op_misc) in kernels without shared
 * memory. 1,024 blocks of 256 threads (k_tid2: 32 x 8). Left out: the probe's k_syncwarp (nvcc drops
 * the __syncwarp) and k_bar (one __syncthreads: the H200 adds ~0.85 wavefronts per block barrier,
 * which Warpsight does not imitate).
 */
import { type KernelBuilder, type PtrVal, type Val, defineKernel, i32, ptr } from 'warpsight';

const BLOCKS = 1024;
const WORDS = 1 << 21;

/** `if (v == 0x1234567) out[0] = v`: keeps v alive without a store per thread */
function sink(k: KernelBuilder, out: PtrVal, v: Val): void {
  k.if(v.eq(0x1234567), () => out.at(0).store(v));
}

/** a probe kernel whose only buffer is `out` */
function probe(name: string, description: string, body: (k: KernelBuilder, out: PtrVal) => void, block: number | [number, number] = 256) {
  return defineKernel({
    name,
    description,
    params: { out: ptr('global', i32) },
    launch: { grid: BLOCKS, block },
    setup: (h) => ({ out: h.alloc(i32, WORDS, 'out') }),
    body: (k, { out }) => body(k, out),
  });
}

/** out[blockIdx.x * blockDim.x + threadIdx.x] = 1 */
const storeOne = (k: KernelBuilder, out: PtrVal) => out.at(k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x)).store(1);

export default [
  defineKernel({
    name: 'k_empty',
    description: 'no special register: LDC and EXIT only',
    params: {},
    launch: { grid: BLOCKS, block: 256 },
    setup: () => ({}),
    body: () => {},
  }),
  probe('k_st', 'one store per thread (S2R SR_TID.X)', storeOne),
  defineKernel({
    name: 'k_ld2',
    description: 'two loads per thread',
    params: { in: ptr('global', i32), out: ptr('global', i32) },
    launch: { grid: BLOCKS, block: 256 },
    setup: (h) => ({ in: h.alloc(i32, WORDS, 'in'), out: h.alloc(i32, WORDS, 'out') }),
    body: (k, { in: src, out }) => {
      const i = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x);
      sink(k, out, src.at(i).get().add(src.at(i.add(262144)).get()));
    },
  }),
  probe('k_alu', 'a 100-trip integer loop on threadIdx.x', (k, out) => {
    const v = k.let(i32, k.threadIdx.x.cast(i32));
    k.for(0, 100, 1, () => v.set(v.mul(3).add(1)));
    sink(k, out, v);
  }),
  probe('k_halfexit', 'odd warps exit at once, even warps store', (k, out) => {
    k.if(k.threadIdx.x.and(32).ne(0), () => k.return());
    storeOne(k, out);
  }),
  probe('k_tid2', '32 x 8 blocks: SR_TID.X and SR_TID.Y', (k, out) => out.at(k.blockIdx.x.mul(k.blockDim.y).add(k.threadIdx.y).mul(k.blockDim.x).add(k.threadIdx.x)).store(1), [32, 8]),
  probe('k_ctaid', 'the block index alone (S2R SR_CTAID.X)', (k, out) => sink(k, out, k.blockIdx.x.cast(i32).mul(3).add(1))),
  probe('k_laneid', '%laneid (S2R SR_LANEID); lane 5 stores', (k, out) => k.if(k.laneId.eq(5), () => out.at(k.blockIdx.x).store(1))),
  probe('k_smid', '%smid (S2R SR_VIRTUALSMID)', (k, out) => sink(k, out, k.smId.cast(i32).mul(3).add(1))),
  probe('k_shfl', 'one __shfl_xor_sync (SHFL.BFLY)', (k, out) => sink(k, out, k.shfl('xor', k.threadIdx.x.cast(i32), 1).add(0x1000000))),
  probe('k_shfl3', 'three __shfl_down_sync (SHFL.DOWN)', (k, out) => {
    const v = k.let(i32, k.threadIdx.x.cast(i32));
    for (const d of [1, 2, 4]) v.set(v.add(k.shfl('down', v, d)));
    sink(k, out, v.add(0x1000000));
  }),
  probe('k_vote', 'one __ballot_sync (VOTE.ANY)', (k, out) => sink(k, out, k.vote('ballot', k.threadIdx.x.and(1).ne(0)).cast(i32))),
  probe('k_match', 'one __match_any_sync (MATCH.ANY)', (k, out) => sink(k, out, k.matchAny(k.threadIdx.x.and(3).cast(i32)).cast(i32))),
];
