/**
 * Family 2 of the H200 ground truth, shared loads (micro.cu `sh_ld_<type>_<pattern>`): 4M threads
 * (16384 x 256). Each block fills 8 KB of shared memory with conflict-free 4-byte stores (a
 * thread-strided loop), then each thread does one shared load of 4, 8 or 16 bytes and stores it.
 *
 * What the H200 showed (groundtruth surprise 2): per warp instruction, conflict-free 32-bit loads take
 * 1 wavefront, 64-bit 2, 128-bit 4; with stride 2 they take 2, 4 and 8; u32 stride 32 takes 32 (31
 * conflicts); a broadcast takes 1, except 128-bit which takes 2.
 */
import { type ElemType, type Val, defineKernel, i32, ptr, u32, u64, vec } from 'warpsight';
import { G_THREADS } from './lib/groundtruth.js';

const SH_WORDS = 2048;
type Pattern = 'stride1' | 'stride2' | 'stride32' | 'broadcast';

/** micro.cu's sh_word(w, blk) */
function shWord(w: number, blk: number): number {
  return ((Math.imul(w, 2654435761) + blk) | 0x01010101) >>> 0;
}

/** the element index each thread loads, on the device and on the host */
function deviceIndex(p: Pattern, t: Val): Val {
  switch (p) {
    case 'stride1': return t;
    case 'stride2': return t.mul(2);
    case 'stride32': return t.mul(32).and(SH_WORDS - 1);
    case 'broadcast': return t.shr(5);
  }
}
function hostIndex(p: Pattern, t: number): number {
  switch (p) {
    case 'stride1': return t;
    case 'stride2': return 2 * t;
    case 'stride32': return (32 * t) & (SH_WORDS - 1);
    case 'broadcast': return t >> 5;
  }
}

function sharedLoad(typeName: 'u32' | 'u64' | 'u128', elem: ElemType, pattern: Pattern) {
  const words = typeName === 'u32' ? 1 : typeName === 'u64' ? 2 : 4;
  return defineKernel({
    name: `sh_ld_${typeName}_${pattern}`,
    description: `one ${words * 4}-byte shared load per thread, ${pattern}, after an 8 KB conflict-free fill`,
    params: { out: ptr('global', elem) },
    launch: { grid: G_THREADS / 256, block: 256 },
    registers: 16,
    // micro.cu's B.out: G_THREADS * 16 bytes of the u32 pattern
    setup: (h) => ({ out: h.alloc(u32, G_THREADS * 4, 'out', (i) => 0x89abcde ^ i) }),
    // micro.cu samples thread (s*37)%256 of blocks 0-31 and of the last block; this samples blocks
    // 0-63, so that the check still holds when the grid is reduced (--grid, the fidelity tests)
    check: (h, { out }) => {
      for (let s = 0; s < 64; s++) {
        const blk = s;
        const t = (s * 37) % 256;
        for (let w = 0; w < words; w++) {
          const got = h.readNumber(out, u32, (blk * 256 + t) * words + w);
          const want = shWord(hostIndex(pattern, t) * words + w, blk);
          if (got !== want) return `out[${blk * 256 + t}] word ${w} = 0x${got.toString(16)}, expected 0x${want.toString(16)}`;
        }
      }
      return null;
    },
    body: (k, { out }) => {
      const sw = k.shared(u32, [SH_WORDS]);
      const blk = k.blockIdx.x;
      // for (w = threadIdx.x; w < SH_WORDS; w += blockDim.x) sw[w] = sh_word(w, blockIdx.x)
      k.for(k.threadIdx.x, SH_WORDS, k.blockDim.x, (w) => sw.at(w).store(w.mul(2654435761).add(blk).or(0x01010101)));
      k.syncthreads();
      const t = k.threadIdx.x;
      const s = sw.base.as(elem);
      // out[(size_t)blockIdx.x * blockDim.x + t] with int t: a wide multiply and t widened
      out.at(blk.cast(u64).mul(k.blockDim.x.cast(u64)).add(t.cast(i32).cast(u64))).store(s.at(deviceIndex(pattern, t)).load());
    },
  });
}

const u128 = vec(u32, 4);
export default [
  sharedLoad('u32', u32, 'stride1'),
  sharedLoad('u32', u32, 'stride2'),
  sharedLoad('u32', u32, 'stride32'),
  sharedLoad('u32', u32, 'broadcast'),
  sharedLoad('u64', u64, 'stride1'),
  sharedLoad('u64', u64, 'stride2'),
  sharedLoad('u64', u64, 'broadcast'),
  sharedLoad('u128', u128, 'stride1'),
  sharedLoad('u128', u128, 'stride2'),
  sharedLoad('u128', u128, 'broadcast'),
];
