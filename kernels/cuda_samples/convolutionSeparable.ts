/**
 * cuda-samples 2_Concepts_and_Techniques/convolutionSeparable: a 17-tap separable filter on a
 * 3072 x 3072 float image (the sample's size), a row pass then a column pass.
 *
 * - convolutionRowsKernel: 16 x 4 threads, each loads 8 pixels of its row plus one halo pixel on each
 *   side into shared memory (the halos only where they are inside the image: predicated loads), then
 *   computes 8 outputs of 17 multiply-adds each from shared memory.
 * - convolutionColumnsKernel: the same down columns, 16 x 8 threads, the tile padded by one float
 *   so that a warp's column reads spread over the banks.
 * Every loop carries `#pragma unroll` in the sample and is unrolled here. The 8 outputs of a thread
 * read overlapping taps (136 reads of 129 elements in the row pass, 73 in the column pass): as nvcc,
 * Warpsight's compiler model loads each element once (src/exec/loadCse.ts), the C reads it per use.
 *
 * The taps live in `__constant__ float c_Kernel[17]`; the IR has no constant bank, so they are the
 * literals samples.cu uploads ((5i + 3) mod 16, as the sample's rand() % 16): an FFMA with a constant
 * operand either way, but nvcc loads the 17 taps into uniform registers first (9 ULDC per warp).
 */
import { type KernelBuilder, type PtrVal, type Val, defineKernel, f32, i32, ptr } from 'warpsight';
import { hashMod } from './lib.js';

const W = 3072;
const H = 3072;
const KERNEL_RADIUS = 8;
const KERNEL_LENGTH = 2 * KERNEL_RADIUS + 1;
/** samples.cu's c_Kernel */
const c_Kernel = Array.from({ length: KERNEL_LENGTH }, (_, i) => (i * 5 + 3) % 16);

const ROWS_BLOCKDIM_X = 16;
const ROWS_BLOCKDIM_Y = 4;
const ROWS_RESULT_STEPS = 8;
const ROWS_HALO_STEPS = 1;

const COLUMNS_BLOCKDIM_X = 16;
const COLUMNS_BLOCKDIM_Y = 8;
const COLUMNS_RESULT_STEPS = 8;
const COLUMNS_HALO_STEPS = 1;

const params = { d_Dst: ptr('global', f32), d_Src: ptr('global', f32), imageW: i32, imageH: i32, pitch: i32 };
const defaults = { imageW: W, imageH: H, pitch: W };
const inputAt = (i: number): number => hashMod(i, 0xc0, 16);

/** the CPU reference of one output of a pass along a line (samples.cu compares every 97th row / 89th column) */
function reference(read: (t: number) => number, t: number, n: number): number {
  let s = 0;
  for (let j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++) if (t + j >= 0 && t + j < n) s = Math.fround(s + Math.fround(c_Kernel[KERNEL_RADIUS - j]! * read(t + j)));
  return s;
}

/** sum over j of c_Kernel[R - j] * tile[j], as the sample's inner loop (FFMA chain from 0) */
function taps(k: KernelBuilder, at: (j: number) => Val): Val {
  const sum = k.let(f32, 0);
  for (let j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++) sum.set(at(j).fma(c_Kernel[KERNEL_RADIUS - j]!, sum));
  return sum;
}

export const convolutionRowsKernel = defineKernel({
  name: 'convolutionRowsKernel',
  description: 'row pass of a 17-tap separable convolution, 3072 x 3072 floats, 16 x 4 threads x 8 outputs (cuda-samples convolutionSeparable)',
  params,
  defaults,
  launch: ({ imageW = W, imageH = H }) => ({ grid: [imageW / (ROWS_RESULT_STEPS * ROWS_BLOCKDIM_X), imageH / ROWS_BLOCKDIM_Y], block: [ROWS_BLOCKDIM_X, ROWS_BLOCKDIM_Y] }),
  registers: 32,
  setup: (h, { imageW = W, imageH = H }) => ({
    d_Src: h.alloc(f32, imageW * imageH, 'input', inputAt),
    d_Dst: h.alloc(f32, imageW * imageH, 'buffer'),
  }),
  check: (h, { d_Src, d_Dst, imageW }, { grid }) => {
    for (let y = 0; y < grid[1] * ROWS_BLOCKDIM_Y; y += 97)
      for (let x = 0; x < imageW; x += 7) {
        const want = reference((t) => h.readNumber(d_Src, f32, y * imageW + t), x, imageW);
        const got = h.readNumber(d_Dst, f32, y * imageW + x);
        if (got !== want) return `row pass (${x}, ${y}) = ${got}, expected ${want}`;
      }
    return null;
  },
  body: (k, { d_Dst, d_Src, imageW, pitch }) => {
    const TILE = (ROWS_RESULT_STEPS + 2 * ROWS_HALO_STEPS) * ROWS_BLOCKDIM_X;
    const s_Data = k.shared(f32, [ROWS_BLOCKDIM_Y, TILE]);
    const tx = k.threadIdx.x.cast(i32);
    const ty = k.threadIdx.y.cast(i32);
    const baseX = k.blockIdx.x.cast(i32).mul(ROWS_RESULT_STEPS).sub(ROWS_HALO_STEPS).mul(ROWS_BLOCKDIM_X).add(tx);
    const baseY = k.blockIdx.y.cast(i32).mul(ROWS_BLOCKDIM_Y).add(ty);
    // d_Src += baseY * pitch + baseX; d_Dst += the same
    const offset = baseY.mul(pitch).add(baseX);
    const src: PtrVal = d_Src.add(offset);
    const dst: PtrVal = d_Dst.add(offset);
    const row = s_Data.at(ty, tx).addr;
    // main data
    for (let i = ROWS_HALO_STEPS; i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS; i++) row.at(i * ROWS_BLOCKDIM_X).store(src.at(i * ROWS_BLOCKDIM_X).get());
    // left halo: (baseX >= -i * ROWS_BLOCKDIM_X) ? d_Src[i * ROWS_BLOCKDIM_X] : 0, a predicated load
    for (let i = 0; i < ROWS_HALO_STEPS; i++) {
      const v = k.let(f32, 0);
      k.when(baseX.ge(-i * ROWS_BLOCKDIM_X), () => v.set(src.at(i * ROWS_BLOCKDIM_X).get()));
      row.at(i * ROWS_BLOCKDIM_X).store(v);
    }
    // right halo: (imageW - baseX > i * ROWS_BLOCKDIM_X) ? d_Src[i * ROWS_BLOCKDIM_X] : 0
    for (let i = ROWS_HALO_STEPS + ROWS_RESULT_STEPS; i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS + ROWS_HALO_STEPS; i++) {
      const v = k.let(f32, 0);
      k.when(imageW.sub(baseX).gt(i * ROWS_BLOCKDIM_X), () => v.set(src.at(i * ROWS_BLOCKDIM_X).get()));
      row.at(i * ROWS_BLOCKDIM_X).store(v);
    }
    k.syncthreads();
    for (let i = ROWS_HALO_STEPS; i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS; i++) {
      const sum = taps(k, (j) => row.at(i * ROWS_BLOCKDIM_X + j).get());
      dst.at(i * ROWS_BLOCKDIM_X).store(sum);
    }
  },
});

export const convolutionColumnsKernel = defineKernel({
  name: 'convolutionColumnsKernel',
  description: 'column pass of a 17-tap separable convolution, 3072 x 3072 floats, 16 x 8 threads x 8 outputs (cuda-samples convolutionSeparable)',
  params,
  defaults,
  launch: ({ imageW = W, imageH = H }) => ({ grid: [imageW / COLUMNS_BLOCKDIM_X, imageH / (COLUMNS_RESULT_STEPS * COLUMNS_BLOCKDIM_Y)], block: [COLUMNS_BLOCKDIM_X, COLUMNS_BLOCKDIM_Y] }),
  registers: 32,
  setup: (h, { imageW = W, imageH = H }) => ({
    d_Src: h.alloc(f32, imageW * imageH, 'buffer', inputAt),
    d_Dst: h.alloc(f32, imageW * imageH, 'output'),
  }),
  check: (h, { d_Src, d_Dst, imageW, imageH }, { grid }) => {
    for (let x = 0; x < grid[0] * COLUMNS_BLOCKDIM_X; x += 89)
      for (let y = 0; y < Math.min(imageH, grid[1] * COLUMNS_RESULT_STEPS * COLUMNS_BLOCKDIM_Y); y += 7) {
        const want = reference((t) => h.readNumber(d_Src, f32, t * imageW + x), y, imageH);
        const got = h.readNumber(d_Dst, f32, y * imageW + x);
        if (got !== want) return `column pass (${x}, ${y}) = ${got}, expected ${want}`;
      }
    return null;
  },
  body: (k, { d_Dst, d_Src, imageH, pitch }) => {
    const TILE = (COLUMNS_RESULT_STEPS + 2 * COLUMNS_HALO_STEPS) * COLUMNS_BLOCKDIM_Y + 1;
    const s_Data = k.shared(f32, [COLUMNS_BLOCKDIM_X, TILE]);
    const tx = k.threadIdx.x.cast(i32);
    const ty = k.threadIdx.y.cast(i32);
    const baseX = k.blockIdx.x.cast(i32).mul(COLUMNS_BLOCKDIM_X).add(tx);
    const baseY = k.blockIdx.y.cast(i32).mul(COLUMNS_RESULT_STEPS).sub(COLUMNS_HALO_STEPS).mul(COLUMNS_BLOCKDIM_Y).add(ty);
    const offset = baseY.mul(pitch).add(baseX);
    const src: PtrVal = d_Src.add(offset);
    const dst: PtrVal = d_Dst.add(offset);
    const col = s_Data.at(tx, ty).addr;
    const step = pitch.mul(COLUMNS_BLOCKDIM_Y); // COLUMNS_BLOCKDIM_Y * pitch
    for (let i = COLUMNS_HALO_STEPS; i < COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS; i++) col.at(i * COLUMNS_BLOCKDIM_Y).store(src.at(step.mul(i)).get());
    for (let i = 0; i < COLUMNS_HALO_STEPS; i++) {
      const v = k.let(f32, 0);
      k.when(baseY.ge(-i * COLUMNS_BLOCKDIM_Y), () => v.set(src.at(step.mul(i)).get()));
      col.at(i * COLUMNS_BLOCKDIM_Y).store(v);
    }
    for (let i = COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS; i < COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS + COLUMNS_HALO_STEPS; i++) {
      const v = k.let(f32, 0);
      k.when(imageH.sub(baseY).gt(i * COLUMNS_BLOCKDIM_Y), () => v.set(src.at(step.mul(i)).get()));
      col.at(i * COLUMNS_BLOCKDIM_Y).store(v);
    }
    k.syncthreads();
    for (let i = COLUMNS_HALO_STEPS; i < COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS; i++) {
      const sum = taps(k, (j) => col.at(i * COLUMNS_BLOCKDIM_Y + j).get());
      dst.at(step.mul(i)).store(sum);
    }
  },
});

export default [convolutionRowsKernel, convolutionColumnsKernel];
