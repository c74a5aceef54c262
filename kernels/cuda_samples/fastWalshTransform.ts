/**
 * cuda-samples 5_Domain_Specific/fastWalshTransform, fwtBatchGPU(): the in-place Walsh-Hadamard
 * transform of 2^21 floats (the sample transforms 2^23) as the sample launches it —
 *   five fwtBatch2Kernel<<<(2048, 1), 256>>>(d, d, N / 4) for log2N = 21, 19, 17, 15, 13: radix-4
 *   butterflies straight from global memory, the stride shrinking by 4 each time;
 *   then fwtBatch1Kernel<<<1024, 512, 8 KB>>>(d, d, 11): the last 11 levels of each 2048-float
 *   block in shared memory (five radix-4 passes, and one radix-2 pass since 11 is odd).
 * The sample computes fwtBatch2Kernel's grid once, before the loop, so every launch has 2048 x 1 blocks.
 * The radix-2 pass reads s_data[2p] and s_data[2p + 1] and writes them back, as the C does: nvcc
 * merges each pair into one LDS.64 / STS.64, and so does Warpsight's compiler model
 * (src/exec/vectorize.ts).
 */
import { type DevicePtr, type Host, defineKernel, defineProgram, f32, i32, ptr } from 'warpsight';
import { hashMod } from './lib.js';

const LOG2_DATA = 21;
const DATA_N = 1 << LOG2_DATA;
const ELEMENTARY_LOG2SIZE = 11;
const THREAD_N = 256;

const fwtBatch2Kernel = defineKernel({
  name: 'fwtBatch2Kernel',
  description: 'one radix-4 level of the Walsh-Hadamard transform from global memory (cuda-samples fastWalshTransform)',
  params: { d_Output: ptr('global', f32), d_Input: ptr('global', f32), stride: i32 },
  defaults: { stride: DATA_N / 4 },
  launch: { grid: [DATA_N / (4 * THREAD_N), 1], block: THREAD_N },
  registers: 20,
  setup: (h: Host) => {
    const d = h.alloc(f32, DATA_N, 'data', (i) => hashMod(i, 0xf3, 16));
    return { d_Output: d, d_Input: d };
  },
  body: (k, { d_Output, d_Input, stride }) => {
    const pos = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x).cast(i32);
    const N = k.blockDim.x.mul(k.gridDim.x).mul(4).cast(i32);
    const d_Src = d_Input.add(k.blockIdx.y.cast(i32).mul(N));
    const d_Dst = d_Output.add(k.blockIdx.y.cast(i32).mul(N));
    const lo = pos.and(stride.sub(1));
    const i0 = pos.sub(lo).shl(2).add(lo);
    const i1 = i0.add(stride);
    const i2 = i1.add(stride);
    const i3 = i2.add(stride);
    let D0 = d_Src.at(i0).get();
    let D1 = d_Src.at(i1).get();
    let D2 = d_Src.at(i2).get();
    let D3 = d_Src.at(i3).get();
    let T = D0;
    D0 = D0.add(D2);
    D2 = T.sub(D2);
    T = D1;
    D1 = D1.add(D3);
    D3 = T.sub(D3);
    T = D0;
    d_Dst.at(i0).store(D0.add(D1));
    d_Dst.at(i1).store(T.sub(D1));
    T = D2;
    d_Dst.at(i2).store(D2.add(D3));
    d_Dst.at(i3).store(T.sub(D3));
  },
});

const fwtBatch1Kernel = defineKernel({
  name: 'fwtBatch1Kernel',
  description: 'the last 11 levels of the Walsh-Hadamard transform of each 2048-float block in shared memory (cuda-samples fastWalshTransform)',
  params: { d_Output: ptr('global', f32), d_Input: ptr('global', f32), log2N: i32 },
  defaults: { log2N: ELEMENTARY_LOG2SIZE },
  launch: ({ log2N = ELEMENTARY_LOG2SIZE }) => ({ grid: DATA_N >> log2N, block: (1 << log2N) / 4, dynamicShared: (1 << log2N) * 4 }),
  registers: 20,
  setup: (h: Host) => {
    const d = h.alloc(f32, DATA_N, 'data', (i) => hashMod(i, 0xf3, 16));
    return { d_Output: d, d_Input: d };
  },
  body: (k, { d_Output, d_Input, log2N }) => {
    const N = k.i32(1).shl(log2N);
    const base = k.blockIdx.x.cast(i32).shl(log2N);
    const s_data = k.dynamicShared(f32);
    const d_Src = d_Input.add(base);
    const d_Dst = d_Output.add(base);
    const tid = k.threadIdx.x.cast(i32);
    const bdim = k.blockDim.x.cast(i32);
    k.for(tid, N, bdim, (p) => s_data.at(p).store(d_Src.at(p).get()));
    const pos = tid;
    // for (int stride = N >> 2; stride > 0; stride >>= 2)
    const stride = k.let(i32, N.shr(2));
    k.while(
      () => stride.gt(0),
      () => {
        const lo = pos.and(stride.sub(1));
        const i0 = pos.sub(lo).shl(2).add(lo);
        const i1 = i0.add(stride);
        const i2 = i1.add(stride);
        const i3 = i2.add(stride);
        k.syncthreads();
        let D0 = s_data.at(i0).get();
        let D1 = s_data.at(i1).get();
        let D2 = s_data.at(i2).get();
        let D3 = s_data.at(i3).get();
        let T = D0;
        D0 = D0.add(D2);
        D2 = T.sub(D2);
        T = D1;
        D1 = D1.add(D3);
        D3 = T.sub(D3);
        T = D0;
        s_data.at(i0).store(D0.add(D1));
        s_data.at(i1).store(T.sub(D1));
        T = D2;
        s_data.at(i2).store(D2.add(D3));
        s_data.at(i3).store(T.sub(D3));
        stride.set(stride.shr(2));
      },
    );
    // if (log2N & 1): the radix-2 level
    k.if(log2N.and(1).ne(0), () => {
      k.syncthreads();
      k.for(tid, N.div(2), bdim, (p) => {
        const i0 = p.shl(1);
        const i1 = i0.add(1);
        const D0 = s_data.at(i0).get();
        const D1 = s_data.at(i1).get();
        s_data.at(i0).store(D0.add(D1));
        s_data.at(i1).store(D0.sub(D1));
      });
    });
    k.syncthreads();
    k.for(tid, N, bdim, (p) => d_Dst.at(p).store(s_data.at(p).get()));
  },
});

/** the Walsh-Hadamard transform on the CPU (exact: integer data, |values| < 2^25) */
function reference(input: (i: number) => number): Float64Array {
  const r = Float64Array.from({ length: DATA_N }, (_, i) => input(i));
  for (let len = 1; len < DATA_N; len <<= 1)
    for (let i = 0; i < DATA_N; i += 2 * len)
      for (let j = i; j < i + len; j++) {
        const a = r[j]!;
        const b = r[j + len]!;
        r[j] = a + b;
        r[j + len] = a - b;
      }
  return r;
}

const inputAt = (i: number): number => hashMod(i, 0xf3, 16);
let data: DevicePtr | null = null;

export default defineProgram({
  name: 'fastWalshTransform',
  description: 'Walsh-Hadamard transform of 2^21 floats: 5 x fwtBatch2Kernel, fwtBatch1Kernel (cuda-samples fastWalshTransform)',
  run: (ctx) => {
    const d = ctx.host.alloc(f32, DATA_N, 'data', inputAt);
    data = d;
    // fwtBatchGPU(d, 1, 21)
    let log2N = LOG2_DATA;
    let N = 1 << log2N;
    let M = 1;
    const grid: [number, number] = [(1 << log2N) / (4 * THREAD_N), M];
    for (; log2N > ELEMENTARY_LOG2SIZE; log2N -= 2, N >>= 2, M <<= 2) ctx.launch(fwtBatch2Kernel, { d_Output: d, d_Input: d, stride: N / 4 }, { grid, block: THREAD_N });
    ctx.launch(fwtBatch1Kernel, { d_Output: d, d_Input: d, log2N }, { grid: M, block: N / 4, dynamicShared: N * 4 });
  },
  check: (h: Host) => {
    if (!data) return 'the program did not run';
    const want = reference(inputAt);
    for (let i = 0; i < DATA_N; i += 31) {
      const got = h.readNumber(data, f32, i);
      if (got !== want[i]) return `data[${i}] = ${got}, expected ${want[i]}`;
    }
    return null;
  },
});
