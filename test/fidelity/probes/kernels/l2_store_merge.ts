/**
 * The store-merge probe (test/fidelity/probes/l2_store_merge_probe.cu, measured on the H200 with caches
 * flushed, one replay pass): which partial-sector stores of neighbouring warps reach the L2 as one
 * write. 4M u32 (16 MiB) per kernel: out[i + 1] = i | 1 with 256 / 32 / 1024 threads per block, with a
 * block's warps in reverse order, with the odd warps late (a spin loop here, 1000 clock cycles in the
 * probe), as a copy out[i + 1] = in[i], two stride-2 stores per warp, and 1-byte stores.
 */
import { type KernelBuilder, type PtrVal, type ScalarType, type Val, defineKernel, ptr, u8, u32 } from 'warpsight';

const N = 1 << 22;
/** spin-loop trips of the late warps: far more instructions than a scheduler turn */
const DELAY_TRIPS = 256;

type Body = (k: KernelBuilder, out: PtrVal, input: PtrVal, i: Val) => void;

function probe(name: string, description: string, block: number, threads: number, elem: ScalarType, body: Body) {
  return defineKernel({
    name,
    description,
    params: { out: ptr('global', elem), in: ptr('global', u32) },
    launch: { grid: threads / block, block },
    registers: 16,
    setup: (host) => ({ out: host.alloc(u8, 2 * N * 4 + 4096, 'out'), in: host.alloc(u32, N + 1024, 'in') }),
    body: (k, { out, in: input }) => body(k, out, input, k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x)),
  });
}

const misaligned: Body = (k, out, _in, i) => out.at(i.add(1)).store(i.or(1));

export default [
  probe('sm_mis_256', 'out[i + 1] = i | 1, 256 threads per block', 256, N, u32, misaligned),
  probe('sm_mis_32', 'out[i + 1] = i | 1, one warp per block', 32, N, u32, misaligned),
  probe('sm_mis_1024', 'out[i + 1] = i | 1, 1024 threads per block', 1024, N, u32, misaligned),
  probe('sm_mis_rev', "out[i + 1] = i | 1, warp w writes its block's chunk 7 - w", 256, N, u32, (k, out, _in) => {
    const w = k.threadIdx.x.shr(5);
    const i = k.blockIdx.x.mul(k.blockDim.x).add(k.blockDim.x.shr(5).sub(1).sub(w).mul(32)).add(k.threadIdx.x.and(31));
    out.at(i.add(1)).store(i.or(1));
  }),
  probe('sm_mis_delay', 'out[i + 1] = i | 1, the odd warps spin first', 256, N, u32, (k, out, _in, i) => {
    const acc = k.let(u32, 0);
    k.if(k.threadIdx.x.shr(5).and(1).ne(0), () => k.for(0, DELAY_TRIPS, 1, () => acc.set(acc.add(1))));
    out.at(i.add(1)).store(i.or(acc));
  }),
  probe('sm_copy_mis', 'out[i + 1] = in[i]', 256, N, u32, (k, out, input, i) => out.at(i.add(1)).store(input.at(i).load())),
  probe('sm_two_half', 'out[64 w + 2 l] then out[64 w + 2 l + 1] (w the global warp, l the lane)', 256, N / 2, u32, (k, out, _in, i) => {
    const at = i.shr(5).mul(64).add(i.and(31).mul(2));
    out.at(at).store(i.and(31));
    out.at(at.add(1)).store(i.and(31).or(1));
  }),
  probe('sm_mis_u8', 'u8 out[i + 1] = i', 256, N, u8, (k, out, _in, i) => out.at(i.add(1)).store(i.cast(u8))),
];
