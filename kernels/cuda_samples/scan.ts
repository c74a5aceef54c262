/**
 * cuda-samples 2_Concepts_and_Techniques/scan: scanExclusiveShared on 4,096 arrays of 1024 uints
 * (the sample's scanExclusiveShort at its largest array length), 256 threads per array, then
 * uniformUpdate adding one value per array (the last step of the sample's large-array scan).
 *
 * Each thread loads a uint4, scans it in registers, and the 256 thread totals are scanned in
 * shared memory (scan1Inclusive: log2(256) steps of two barriers each, on a volatile array).
 */
import { type DevicePtr, type Host, defineKernel, defineProgram, ptr, u32, vec } from 'warpsight';
import { hashMod, scan1Inclusive, uint4Of } from './lib.js';

const N = 1 << 22;
const ARRAY_LENGTH = 1024;
const THREADBLOCK_SIZE = 256;
const BLOCKS = N / (4 * THREADBLOCK_SIZE);
const uint4 = vec(u32, 4);

const scanExclusiveShared = defineKernel({
  name: 'scanExclusiveShared',
  description: 'exclusive scan of 1024-uint arrays: a uint4 per thread, the thread totals scanned in shared memory (cuda-samples scan)',
  params: { d_Dst: ptr('global', uint4), d_Src: ptr('global', uint4), size: u32 },
  defaults: { size: ARRAY_LENGTH },
  launch: { grid: BLOCKS, block: THREADBLOCK_SIZE },
  registers: 18,
  setup: (h: Host) => ({ d_Src: h.alloc(u32, N, 'src', inputAt), d_Dst: h.alloc(u32, N, 'dst') }),
  body: (k, { d_Dst, d_Src, size }) => {
    const s_Data = k.shared(u32, [2 * THREADBLOCK_SIZE]).at(0).addr;
    const pos = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x);
    const { x, y, z, w } = uint4Of(d_Src.at(pos).load());
    // scan4Inclusive: the running sums of the four, then the exclusive scan of the thread totals
    const y1 = y.add(x);
    const z1 = z.add(y1);
    const w1 = w.add(z1);
    const oval = scan1Inclusive(k, w1, s_Data, size.shr(2)).sub(w1); // scan1Exclusive(idata4.w, s_Data, size / 4)
    // scan4Exclusive: odata4 = scan4Inclusive(idata4) - idata4
    d_Dst.at(pos).store([x.add(oval).sub(x), y1.add(oval).sub(y), z1.add(oval).sub(z), w1.add(oval).sub(w)]);
  },
});

const uniformUpdate = defineKernel({
  name: 'uniformUpdate',
  description: 'adds each 1024-uint array its block\'s value (cuda-samples scan)',
  params: { d_Data: ptr('global', uint4), d_Buffer: ptr('global', u32) },
  launch: { grid: BLOCKS, block: THREADBLOCK_SIZE },
  // ptxas: 14 registers; launched with 16
  registers: 16,
  setup: (h: Host) => ({ d_Data: h.alloc(u32, N, 'data'), d_Buffer: h.alloc(u32, BLOCKS, 'buffer', bufferAt) }),
  body: (k, { d_Data, d_Buffer }) => {
    const buf = k.shared(u32, [1]);
    const pos = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x);
    k.when(k.threadIdx.x.eq(0), () => buf.at(0).store(d_Buffer.at(k.blockIdx.x).get()));
    k.syncthreads();
    const data4 = uint4Of(d_Data.at(pos).load());
    const b = buf.at(0).get();
    d_Data.at(pos).store([data4.x.add(b), data4.y.add(b), data4.z.add(b), data4.w.add(b)]);
  },
});

/** samples.cu: hash32(i ^ 0x5ca) % 1024 and, per block, hash32(b ^ 0xbf) & 0xffff */
function inputAt(i: number): number {
  return hashMod(i, 0x5ca, 1024);
}
function bufferAt(b: number): number {
  return hashMod(b, 0xbf, 2 ** 32) & 0xffff;
}

let out: DevicePtr | null = null;

export default defineProgram({
  name: 'scan',
  description: 'exclusive scans of 4,096 arrays of 1024 uints, then uniformUpdate (cuda-samples scan)',
  run: (ctx) => {
    const h = ctx.host;
    const src = h.alloc(u32, N, 'src', inputAt);
    const dst = h.alloc(u32, N, 'dst');
    const buffer = h.alloc(u32, BLOCKS, 'buffer', bufferAt);
    out = dst;
    ctx.launch(scanExclusiveShared, { d_Dst: dst, d_Src: src, size: ARRAY_LENGTH });
    ctx.launch(uniformUpdate, { d_Data: dst, d_Buffer: buffer });
  },
  // the sample's scanExclusiveHost, plus the added value
  check: (h: Host) => {
    if (!out) return 'the program did not run';
    for (let a = 0; a < N; a += ARRAY_LENGTH * 37) {
      let s = bufferAt(a / ARRAY_LENGTH);
      for (let i = 0; i < ARRAY_LENGTH; i++) {
        const got = h.readNumber(out, u32, a + i);
        if (got !== s >>> 0) return `dst[${a + i}] = ${got}, expected ${s >>> 0}`;
        s += inputAt(a + i);
      }
    }
    return null;
  },
});
