/**
 * The L2 request probe (test/fidelity/probes/l2_request_probe.cu, measured on the H200, caches flushed
 * before each kernel): micro.cu's 4-byte copy over its buffers (16384 x 256 threads, out[i] once), with
 * a second read per thread that asks the L2 again for a line the copy reads (`reread`: the same SM,
 * after the first has been served; `reread_part_<n>`: only every n-th warp; `other`: the neighbouring
 * block's SM) or for lines of a hot buffer (`hot_sweep_<log2 words>`; the probe's `hot` is the 64-KiB
 * one). Reading its own lines again makes the H200 write back more of what ncu's replay left dirty
 * (0.58 -> 0.77 MB): the lines read twice are kept, the stores' dirty lines go in their place
 * (test/fidelity/reread.test.ts).
 */
import { type KernelBuilder, type PtrVal, type Val, defineKernel, ptr, u8, u32, u64 } from 'warpsight';
import { G_THREADS, patternBuffer, patternWord, sampleIndices } from '../../../../kernels/lib/groundtruth.js';

const IN_SEED = 0x1234567;
const HOT_SEED = 0x2468ace;
/** the sweep's largest hot buffer, 4 MiB (the probe's other run allocates 64 KiB at the same place) */
const HOT_LOG2_MAX = 20;

interface Variant {
  name: string;
  description: string;
  /** out[i] on the host */
  expected: (i: number) => number;
  /** out[i] on the device */
  value: (k: KernelBuilder, src: PtrVal, hot: PtrVal, i: Val) => Val;
}

const word = (k: number) => patternWord(k, IN_SEED);
const load = (p: PtrVal, i: Val, cache?: 'cg') => p.at(i).get(cache ? { cache } : undefined);

/** in[i], then a second .cg read whose address waits for it (the data's top bit is 0: a zero to wait for) */
function readTwice(name: string, description: string, second: (i: Val, src: PtrVal, hot: PtrVal) => PtrVal, expected: (i: number) => number): Variant {
  return {
    name,
    description,
    expected,
    value: (k, src, hot, i) => {
      const x = k.let(u32, load(src, i));
      const after = x.shr(31).cast(u64);
      return x.add(second(i.add(after), src, hot).at(0).get({ cache: 'cg' }));
    },
  };
}

const hotSweep = (log2: number): Variant =>
  readTwice(`hot_sweep_${log2}`, `in[i] read, then a ${4 << (log2 - 10)}-KiB buffer with .cg`, (j, _s, hot) => hot.add(j.and(2 ** log2 - 1)), (i) => (word(i) + patternWord(i & (2 ** log2 - 1), HOT_SEED)) >>> 0);

const VARIANTS: Variant[] = [
  { name: 'coalesced', description: 'out[i] = in[i]', expected: word, value: (_k, src, _h, i) => load(src, i) },
  { name: 'cg', description: 'out[i] = in[i] with ld.global.cg', expected: word, value: (_k, src, _h, i) => load(src, i, 'cg') },
  {
    name: 'reread',
    description: 'in[i] read, then read again with .cg once served',
    expected: word,
    value: (_k, src, _h, i) => load(src, i.add(load(src, i).shr(31).cast(u64)), 'cg'),
  },
  readTwice('other', "in[i] read, then the neighbouring block's in[i ^ 256] with .cg", (j, src) => src.add(j.xor(256)), (i) => (word(i) + word(i ^ 256)) >>> 0),
  { name: 'misaligned', description: 'out[i] = in[i + 1]', expected: (i) => word(i + 1), value: (_k, src, _h, i) => load(src, i.add(1)) },
  ...[14, 16, 18, 20].map(hotSweep),
  ...[4, 2].map(
    (every): Variant => ({
      name: `reread_part_${every}`,
      description: `in[i] read, then read again with .cg once served, by every ${every}th warp`,
      expected: word,
      value: (k, src, _h, i) => {
        const x = k.let(u32, load(src, i));
        k.if(i.shr(5).and(every - 1).eq(0), () => x.set(load(src, i.add(x.shr(31).cast(u64)), 'cg')));
        return x;
      },
    }),
  ),
];

export function requestCopy(v: Variant) {
  return defineKernel({
    name: `rq_${v.name}`,
    description: `4-byte copy: ${v.description}`,
    params: { in: ptr('global', u32), out: ptr('global', u32), hot: ptr('global', u32) },
    launch: { grid: G_THREADS / 256, block: 256 },
    registers: 16,
    setup: (host) => ({
      in: patternBuffer(host, 32 * G_THREADS * 16 + 4096, IN_SEED, 'in'),
      out: host.alloc(u8, G_THREADS * 16, 'out'),
      hot: patternBuffer(host, 4 << HOT_LOG2_MAX, HOT_SEED, 'hot'),
    }),
    check: (host, { out }, { grid, block }) => {
      for (const i of sampleIndices(grid[0] * block[0])) {
        const got = host.readNumber(out, u32, i);
        if (got !== v.expected(i)) return `out[${i}] = ${got}, expected ${v.expected(i)}`;
      }
      return null;
    },
    body: (k, { in: src, out, hot }) => {
      const i = k.blockIdx.x.cast(u64).mul(k.blockDim.x.cast(u64)).add(k.threadIdx.x.cast(u64));
      out.at(i).store(v.value(k, src, hot, i));
    },
  });
}

export default VARIANTS.map(requestCopy);
