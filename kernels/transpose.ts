/**
 * The 32x32 tile transpose of the seed (and micro.cu's `sh_transpose_*`, groundtruth family 2): a
 * 4096 x 4096 float matrix, one 32x32 tile per block. Rows of the tile are written from coalesced
 * global reads; the tile is then read by column, so that the global writes are coalesced too.
 *
 * With `float tile[32][32]` the column read makes all 32 lanes of a warp hit one bank: a 32-way bank
 * conflict (the H200 measured 32.1-32.3 wavefronts per LDS). Padding the rows to 33 floats moves
 * each row one bank over and the conflict is gone (1.03-1.05). Both block shapes of micro.cu:
 * 32x32 threads (one row per thread) and 32x8 (four rows per thread, unrolled by nvcc).
 */
import { type Val, defineKernel, f32, hash32, i32, i64, ptr } from 'warpsight';
import { fillF32 } from './divergence.js';

const TDIM = 32;
const W = 4096;

function transpose(pad: 0 | 1, rows: 32 | 8) {
  return defineKernel({
    name: `sh_transpose_32x${32 + pad}_bd32x${rows}`,
    description: `4096x4096 float transpose through a shared [32][${32 + pad}] tile, ${32 * rows} threads per block`,
    params: { odata: ptr('global', f32), idata: ptr('global', f32), width: i32 },
    defaults: { width: W },
    launch: ({ width = W }) => ({ grid: [width / TDIM, width / TDIM], block: [TDIM, rows] }),
    // launch__registers_per_thread on the H200 (summary.json)
    registers: rows === 32 ? 16 : 22,
    setup: (h, { width = W }) => ({
      idata: h.alloc(f32, width * width, 'fin', (i) => fillF32(i, 1, 0.01, 17)),
      odata: h.alloc(f32, width * width, 'fout', (i) => fillF32(i, 3, 0.01, 18)),
    }),
    // micro.cu's run_transpose: 64 random elements
    check: (h, { odata, idata, width }) => {
      for (let s = 0; s < 64; s++) {
        const r = hash32(s) % width;
        const c = hash32(s + 1000) % width;
        const got = h.readNumber(odata, f32, c * width + r);
        const want = h.readNumber(idata, f32, r * width + c);
        if (got !== want) return `odata[${c}][${r}] = ${got}, expected idata[${r}][${c}] = ${want}`;
      }
      return null;
    },
    body: (k, { odata, idata, width }) => {
      const tile = k.shared(f32, [TDIM, TDIM + pad]);
      const tx = k.threadIdx.x.cast(i32);
      const ty = k.threadIdx.y.cast(i32);
      const bx = k.blockIdx.x.cast(i32);
      const by = k.blockIdx.y.cast(i32);
      // nvcc unrolls `for (j = 0; j < 32; j += ROWS)` and steps the addresses by ROWS rows (with 32
      // rows there is no step: the loop runs once)
      const step = rows < TDIM ? width.mul(rows) : width;
      // tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x]
      // (size_t)(y + j) * width + x: a wide multiply of the widened ints, x widened and added to it
      const wideIndex = (y: Val, x: Val): Val => y.cast(i64).mul(width.cast(i64)).add(x.cast(i64));
      const src = k.letPtr(idata.add(wideIndex(by.mul(TDIM).add(ty), bx.mul(TDIM).add(tx))));
      const row = tile.at(ty, tx).addr;
      for (let j = 0; j < TDIM; j += rows) {
        row.at(j * (TDIM + pad)).store(src.load()); // the row write: consecutive words
        if (j + rows < TDIM) src.set(src.add(step));
      }
      k.syncthreads();
      // odata[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j], x and y from the swapped block
      const dst = k.letPtr(odata.add(wideIndex(bx.mul(TDIM).add(ty), by.mul(TDIM).add(tx))));
      const col = tile.at(tx, ty).addr;
      for (let j = 0; j < TDIM; j += rows) {
        dst.store(col.at(j).get()); // the column read: lanes 33 (or 32) words apart
        if (j + rows < TDIM) dst.set(dst.add(step));
      }
    },
  });
}

export default [transpose(0, 32), transpose(1, 32), transpose(0, 8), transpose(1, 8)];
