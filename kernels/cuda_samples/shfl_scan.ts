/**
 * cuda-samples 2_Concepts_and_Techniques/shfl_scan, its "simple sum" test: an inclusive prefix sum
 * of 65,536 ints in three launches, as the sample makes them —
 *   shfl_scan_test<<<256, 256, 32>>>(data, 32, partial_sums)  scan each block with __shfl_up_sync,
 *   shfl_scan_test<<<1, 256, 32>>>(partial_sums, 32)           scan the 256 block sums,
 *   uniform_add<<<255, 256>>>(data + 256, partial_sums, n)     add them to the blocks after the first.
 *
 * In each warp a 5-step __shfl_up_sync scan (the loop bound `width` is a kernel argument, so nvcc
 * keeps the loop); warp totals go through shared memory and warp 0 scans them the same way.
 *
 * `% warpSize` and `/ warpSize` divide by k.warpSize, as the C does: warpSize is not a compile-time
 * constant to nvcc, so each is the reciprocal division sequence (the reciprocal of 32 computed once),
 * not a mask or a shift. Where the port differs from the C: the shuffles' `width` is a number in the
 * IR, so the warp-sums scan writes
 * blockDim.x / warpSize = 8 for the 256-thread blocks both launches use; and `partial_sums != NULL`
 * is decided when the kernel is built (the IR has no null pointer), one kernel per case.
 */
import { type DevicePtr, type Host, type KernelBuilder, type PtrVal, type Val, defineKernel, defineProgram, i32, ptr, u32 } from 'warpsight';
import { hashMod } from './lib.js';

const N = 65536;
const BLOCK = 256;
const WARPS = BLOCK / 32;

function scanBody(k: KernelBuilder, data: PtrVal, width: Val, partial_sums: PtrVal | null): void {
  const sums = k.dynamicShared(i32);
  const id = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x).cast(i32);
  const lane_id = id.rem(k.warpSize); // id % warpSize
  const warp_id = k.threadIdx.x.div(k.warpSize.cast(u32)).cast(i32); // threadIdx.x / warpSize
  const value = k.let(i32, data.at(id).get());
  // for (int i = 1; i <= width; i *= 2) { int n = __shfl_up_sync(mask, value, i, width); if (lane_id >= i) value += n; }
  const i = k.let(i32, 1);
  k.while(
    () => i.le(width),
    () => {
      const n = k.shfl('up', value, i, { width: 32 });
      k.when(lane_id.ge(i), () => value.set(value.add(n)));
      i.set(i.mul(2));
    },
  );
  // if (threadIdx.x % warpSize == warpSize - 1) sums[warp_id] = value;
  k.when(k.threadIdx.x.rem(k.warpSize.cast(u32)).eq(k.warpSize.sub(1).cast(u32)), () => sums.at(warp_id).store(value));
  k.syncthreads();
  // if (warp_id == 0 && lane_id < (blockDim.x / warpSize)): && short-circuits, two branches
  const nWarps = k.blockDim.x.div(k.warpSize.cast(u32)).cast(i32);
  k.if(warp_id.eq(0), () => {
    k.if(lane_id.lt(nWarps), () => {
      const warp_sum = k.let(i32, sums.at(lane_id).get());
      const mask = k.u32(1).shl(nWarps).sub(1); // (1 << (blockDim.x / warpSize)) - 1
      const j = k.let(i32, 1);
      k.while(
        () => j.le(nWarps),
        () => {
          const n = k.shfl('up', warp_sum, j, { mask, width: WARPS });
          k.when(lane_id.ge(j), () => warp_sum.set(warp_sum.add(n)));
          j.set(j.mul(2));
        },
      );
      sums.at(lane_id).store(warp_sum);
    });
  });
  k.syncthreads();
  const blockSum = k.let(i32, 0);
  k.when(warp_id.gt(0), () => blockSum.set(sums.at(warp_id.sub(1)).get()));
  value.set(value.add(blockSum));
  data.at(id).store(value);
  if (partial_sums) {
    // if (partial_sums != NULL && threadIdx.x == blockDim.x - 1) partial_sums[blockIdx.x] = value;
    k.if(k.threadIdx.x.ne(k.blockDim.x.sub(1)), () => k.return());
    partial_sums.at(k.blockIdx.x).store(value);
  }
}

const shflScanWithPartials = defineKernel({
  name: 'shfl_scan_test',
  description: 'per-block inclusive scan with __shfl_up_sync, block totals to partial_sums',
  params: { data: ptr('global', i32), width: i32, partial_sums: ptr('global', i32) },
  defaults: { width: 32 },
  launch: { grid: N / BLOCK, block: BLOCK, dynamicShared: WARPS * 4 },
  registers: 22,
  setup: (h) => ({ data: h.alloc(i32, N, 'data'), partial_sums: h.alloc(i32, N / BLOCK, 'partial_sums') }),
  body: (k, { data, width, partial_sums }) => scanBody(k, data, width, partial_sums),
});

const shflScanNoPartials = defineKernel({
  name: 'shfl_scan_test',
  description: 'per-block inclusive scan with __shfl_up_sync (partial_sums NULL)',
  params: { data: ptr('global', i32), width: i32 },
  defaults: { width: 32 },
  launch: { grid: 1, block: BLOCK, dynamicShared: WARPS * 4 },
  registers: 22,
  setup: (h) => ({ data: h.alloc(i32, N / BLOCK, 'data') }),
  body: (k, { data, width }) => scanBody(k, data, width, null),
});

const uniformAdd = defineKernel({
  name: 'uniform_add',
  description: 'adds each block its preceding blocks\' total (one shared value per block)',
  params: { data: ptr('global', i32), partial_sums: ptr('global', i32), len: i32 },
  defaults: { len: N },
  launch: { grid: N / BLOCK - 1, block: BLOCK },
  // ptxas: 10 registers; launched with 16
  registers: 16,
  setup: (h) => ({ data: h.alloc(i32, N, 'data'), partial_sums: h.alloc(i32, N / BLOCK, 'partial_sums') }),
  body: (k, { data, partial_sums, len }) => {
    const buf = k.shared(i32, [1]);
    const id = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x).cast(i32);
    k.if(id.gt(len), () => k.return());
    // if (threadIdx.x == 0) buf = partial_sums[blockIdx.x]: nvcc predicates the load and the store
    k.when(k.threadIdx.x.eq(0), () => buf.at(0).store(partial_sums.at(k.blockIdx.x).get()));
    k.syncthreads();
    const d = data.at(id);
    d.store(d.get().add(buf.at(0).get()));
  },
});

/** the sample's input is all ones; samples.cu's is hash32(i ^ 0x5c4) & 7 */
const inputAt = (i: number): number => hashMod(i, 0x5c4, 2 ** 32) & 7;

let scanned: DevicePtr | null = null;

export default defineProgram({
  name: 'shfl_scan',
  description: 'inclusive scan of 65,536 ints: shfl_scan_test, shfl_scan_test on the block sums, uniform_add (cuda-samples shfl_scan)',
  run: (ctx) => {
    const h = ctx.host;
    const data = h.alloc(i32, N, 'data', inputAt);
    const partial = h.alloc(i32, N / BLOCK, 'partial_sums');
    scanned = data;
    ctx.launch(shflScanWithPartials, { data, width: 32, partial_sums: partial });
    ctx.launch(shflScanNoPartials, { data: partial, width: 32 });
    ctx.launch(uniformAdd, { data: h.offset(data, i32, BLOCK), partial_sums: partial, len: N });
  },
  // the sample's CPUverify: every prefix sum
  check: (h: Host) => {
    if (!scanned) return 'the program did not run';
    let sum = 0;
    for (let i = 0; i < N; i++) {
      sum += inputAt(i);
      const got = h.readNumber(scanned, i32, i);
      if (got !== sum) return `data[${i}] = ${got}, expected the prefix sum ${sum}`;
    }
    return null;
  },
});
