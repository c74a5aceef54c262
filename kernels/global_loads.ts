/**
 * Family 1 of the H200 ground truth (micro.cu `g_ld_<type>_<pattern>`): 4M threads (16384 x 256),
 * each thread one load `in[idx(i)]` and one coalesced store `out[i]`.
 * Patterns: coalesced (i), misaligned (i+1), stride2 (2i), stride32 (32i), broadcast (i & ~31: the
 * whole warp reads one element), and blockshared (the 8 warps of a block read the same 128 bytes).
 */
import { type ElemType, type KernelBuilder, type Val, defineKernel, ptr, u8, u16, u32, u64, vec } from 'warpsight';
import { G_THREADS, patternBuffer, sampleIndices } from './lib/groundtruth.js';

type Pattern = 'coalesced' | 'misaligned' | 'stride2' | 'stride32' | 'broadcast' | 'blockshared';

const TYPES: [string, ElemType][] = [
  ['u8', u8],
  ['u16', u16],
  ['u32', u32],
  ['u64', u64],
  ['u128', vec(u32, 4)],
];

/** micro.cu's pat_idx on the device */
function patternIndex(k: KernelBuilder, p: Pattern, i: Val): Val {
  switch (p) {
    case 'coalesced': return i;
    case 'misaligned': return i.add(1);
    case 'stride2': return i.mul(2);
    case 'stride32': return i.mul(32);
    case 'broadcast': return i.and(~31n);
    case 'blockshared': return i.shr(8).shl(5).add(i.and(31));
  }
}
/** and on the host, for the check */
function hostIndex(p: Pattern, i: number): number {
  switch (p) {
    case 'coalesced': return i;
    case 'misaligned': return i + 1;
    case 'stride2': return 2 * i;
    case 'stride32': return 32 * i;
    case 'broadcast': return i & ~31;
    case 'blockshared': return ((i >> 8) << 5) + (i & 31);
  }
}

function words(elem: ElemType): number {
  const bytes = elem.tag === 'vec' ? 16 : elem.kind === 'u64' ? 8 : elem.kind === 'u16' ? 2 : elem.kind === 'u8' ? 1 : 4;
  return bytes;
}

export function globalLoad(typeName: string, elem: ElemType, pattern: Pattern) {
  const bytes = words(elem);
  return defineKernel({
    name: `g_ld_${typeName}_${pattern}`,
    description: `${bytes}-byte loads, ${pattern} pattern, one coalesced store per thread`,
    params: { in: ptr('global', elem), out: ptr('global', elem) },
    launch: { grid: G_THREADS / 256, block: 256 },
    registers: 16,
    setup: (host) => ({
      // 2 GiB + 4 KiB of pattern, as micro.cu's `big` buffer (only the touched pages are materialised)
      in: patternBuffer(host, 32 * G_THREADS * 16 + 4096, 0x1234567, 'in'),
      // micro.cu pre-fills `out` too, but no kernel reads it: left zero, it costs nothing to set up
      out: host.alloc(u8, G_THREADS * 16, 'out'),
    }),
    check: (host, { in: src, out }, { grid, block }) => {
      // the threads that ran (--grid may shrink the launch)
      for (const i of sampleIndices(grid[0] * block[0])) {
        const j = hostIndex(pattern, i);
        for (let b = 0; b < bytes; b++) {
          const got = host.readNumber(host.offset(out, u8, i * bytes), u8, b);
          const want = host.readNumber(host.offset(src, u8, j * bytes), u8, b);
          if (got !== want) return `out[${i}] byte ${b} = ${got}, expected in[${j}] byte ${b} = ${want}`;
        }
      }
      return null;
    },
    body: (k, { in: src, out }) => {
      // size_t in micro.cu: 64-bit index arithmetic, as its SASS has it
      const i = k.blockIdx.x.cast(u64).mul(k.blockDim.x.cast(u64)).add(k.threadIdx.x.cast(u64));
      out.at(i).store(src.at(patternIndex(k, pattern, i)).load());
    },
  });
}

const PATTERNS: Pattern[] = ['coalesced', 'misaligned', 'stride2', 'stride32', 'broadcast'];

export default [
  ...TYPES.flatMap(([name, t]) => PATTERNS.map((p) => globalLoad(name, t, p))),
  globalLoad('u32', u32, 'blockshared'),
];
