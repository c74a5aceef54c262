/**
 * test/fidelity/probes/ldgsts_probe.cu in the IR: how the shared-memory side of cp.async (LDGSTS) is
 * counted. 1,024 blocks of 256 threads; each warp issues 16 copies, waits, syncs and stores one word
 * per thread. `ctrl` does no copy (the per-warp baseline). The variants differ in access size, L1 mode
 * (ca / cg = BYPASS), how many sectors the warp's sources span, and how the shared side lies in banks.
 */
import { type KernelBuilder, type PtrVal, type Val, defineKernel, ptr, u32, vec } from 'warpsight';

const ROUNDS = 16;
const BLOCKS = 1024;
const THREADS = 256;

/** per round: the copy of thread t (lane, warp w) from the round's 4 KiB words `g` into `sm` */
type Body = (k: KernelBuilder, sm: PtrVal, g: PtrVal, t: Val, lane: Val, w: Val) => void;

const v2 = vec(u32, 2);
const v4 = vec(u32, 4);

function probe(name: string, what: string, body: Body | null) {
  return defineKernel({
    name,
    description: what,
    params: { in: ptr('global', u32), out: ptr('global', u32) },
    launch: { grid: BLOCKS, block: THREADS },
    setup: (h) => ({ in: h.alloc(u32, BLOCKS * ROUNDS * THREADS * 4, 'in', () => 0x01010101), out: h.alloc(u32, BLOCKS * THREADS, 'out') }),
    body: (k, { in: src, out }) => {
      const sm = k.shared(u32, [THREADS * 8 * 2], 'sm').base;
      const t = k.threadIdx.x;
      const lane = t.and(31);
      const w = t.shr(5);
      const blk = src.add(k.blockIdx.x.mul(ROUNDS * THREADS * 4));
      if (body) k.for(0, ROUNDS, 1, (r) => body(k, sm, blk.add(r.cast(u32).mul(THREADS * 4)), t, lane, w));
      k.waitAsyncCopies();
      k.syncthreads();
      out.at(k.blockIdx.x.mul(THREADS).add(t)).store(sm.at(t).get());
    },
  });
}

export default [
  probe('ctrl', 'no copy: the per-warp baseline', null),
  probe('ca4_contig', '4 bytes, contiguous: 4 sectors, conflict-free', (k, sm, g, t) => k.copyAsync(sm.at(t), g.at(t))),
  probe('ca4_pairs', '4 bytes, lanes in pairs on one word: 2 sectors', (k, sm, g, t, lane, w) => k.copyAsync(sm.at(t), g.at(w.mul(32).add(lane.shr(1))))),
  probe('ca4_onesector', '4 bytes, 8 words of one sector for the warp', (k, sm, g, t, lane, w) => k.copyAsync(sm.at(t), g.at(w.mul(32).add(lane.and(7))))),
  probe('ca4_conflict', '4 bytes, shared stride 32 words: 32-way conflict', (k, sm, g, t, lane, w) => k.copyAsync(sm.at(lane.mul(32).add(w).and(THREADS * 16 - 1)), g.at(t))),
  probe('ca8_contig', '8 bytes, contiguous: 8 sectors', (k, sm, g, t) => k.copyAsync(sm.as(v2).at(t), g.as(v2).at(t))),
  probe('ca16_contig', '16 bytes through L1, contiguous: 16 sectors', (k, sm, g, t) => k.copyAsync(sm.as(v4).at(t), g.as(v4).at(t))),
  probe('cg16_contig', '16 bytes past L1 (BYPASS), contiguous', (k, sm, g, t) => k.copyAsync(sm.as(v4).at(t), g.as(v4).at(t), { cache: 'cg' })),
  probe('cg16_oneline', '16 bytes past L1, 8 pieces of one line for the warp', (k, sm, g, t, lane, w) => k.copyAsync(sm.as(v4).at(t), g.as(v4).at(w.mul(8).add(lane.and(7))), { cache: 'cg' })),
];
