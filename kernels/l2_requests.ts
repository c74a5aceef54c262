/**
 * The L2 request probe (test/fidelity/probes/l2_request_probe.cu, measured on the H200, caches flushed
 * before each kernel): micro.cu's 4-byte copy over its buffers (16384 x 256 threads, out[i] once), with
 * a second read per thread that asks the L2 again for a line the copy reads (`reread`: the same SM,
 * after the first has been served; `other`: the neighbouring block's SM) or for one of 512 other lines
 * (`hot`). Reading its own lines again makes the H200 write back more of what ncu's replay left dirty
 * (0.58 -> 0.77 MB): the lines read twice are kept, the stores' dirty lines go in their place; reads of
 * other lines change little (test/fidelity/reread.test.ts).
 */
import { defineKernel, ptr, u8, u32, u64 } from '../src/api.js';
import { G_THREADS, patternBuffer, patternWord, sampleIndices } from './lib/groundtruth.js';

const IN_SEED = 0x1234567;
const HOT_SEED = 0x2468ace;
const HOT_WORDS = 16384;

type Variant = 'coalesced' | 'cg' | 'reread' | 'other' | 'hot' | 'misaligned';

const DESCRIPTIONS: Record<Variant, string> = {
  coalesced: 'out[i] = in[i]',
  cg: 'out[i] = in[i] with ld.global.cg',
  reread: 'in[i] read, then read again with .cg once served',
  other: "in[i] read, then the neighbouring block's in[i ^ 256] with .cg",
  hot: 'in[i] read, then a 64-KiB buffer with .cg',
  misaligned: 'out[i] = in[i + 1]',
};

/** what out[i] holds for each variant (the probe's values: the data's top bit is 0) */
function expected(v: Variant, i: number): number {
  const w = (k: number) => patternWord(k, IN_SEED);
  switch (v) {
    case 'coalesced':
    case 'cg':
    case 'reread': return w(i);
    case 'other': return (w(i) + w(i ^ 256)) >>> 0;
    case 'hot': return (w(i) + patternWord(i & (HOT_WORDS - 1), HOT_SEED)) >>> 0;
    case 'misaligned': return w(i + 1);
  }
}

export function requestCopy(v: Variant) {
  return defineKernel({
    name: `rq_${v}`,
    description: `4-byte copy: ${DESCRIPTIONS[v]}`,
    params: { in: ptr('global', u32), out: ptr('global', u32), hot: ptr('global', u32) },
    launch: { grid: G_THREADS / 256, block: 256 },
    registers: 16,
    setup: (host) => ({
      in: patternBuffer(host, 32 * G_THREADS * 16 + 4096, IN_SEED, 'in'),
      out: host.alloc(u8, G_THREADS * 16, 'out'),
      hot: patternBuffer(host, HOT_WORDS * 4, HOT_SEED, 'hot'),
    }),
    check: (host, { out }, { grid, block }) => {
      for (const i of sampleIndices(grid[0] * block[0])) {
        const got = host.readNumber(out, u32, i);
        if (got !== expected(v, i)) return `out[${i}] = ${got}, expected ${expected(v, i)}`;
      }
      return null;
    },
    body: (k, { in: src, out, hot }) => {
      const i = k.blockIdx.x.cast(u64).mul(k.blockDim.x.cast(u64)).add(k.threadIdx.x.cast(u64));
      if (v === 'coalesced') return out.at(i).store(src.at(i).get());
      if (v === 'cg') return out.at(i).store(src.at(i).get({ cache: 'cg' }));
      if (v === 'misaligned') return out.at(i).store(src.at(i.add(1)).get());
      const x = src.at(i).get();
      // a zero the second load's address waits for (the data's top bit is 0)
      const after = x.shr(31).cast(u64);
      if (v === 'reread') return out.at(i).store(src.at(i.add(after)).get({ cache: 'cg' }));
      if (v === 'other') return out.at(i).store(x.add(src.at(i.xor(256).add(after)).get({ cache: 'cg' })));
      return out.at(i).store(x.add(hot.at(i.add(after).and(HOT_WORDS - 1)).get({ cache: 'cg' })));
    },
  });
}

export default (['coalesced', 'cg', 'reread', 'other', 'hot', 'misaligned'] as const).map(requestCopy);
