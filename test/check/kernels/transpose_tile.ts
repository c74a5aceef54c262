// Race-free: a tiled transpose through a padded shared tile, one __syncthreads() between the tile's
// write and its transposed read, blocks on disjoint tiles.
import { defineKernel, f32, ptr, u32 } from 'warpsight';

const W = 64;

export default defineKernel({
  name: 'transpose_tile',
  params: { idata: ptr('global', f32), odata: ptr('global', f32) },
  launch: { grid: [W / 32, W / 32], block: [32, 8] },
  setup: (host) => ({ idata: host.alloc(f32, W * W, 'idata', (i) => i), odata: host.alloc(f32, W * W, 'odata') }),
  body: (k, { idata, odata }) => {
    const tile = k.shared(f32, [32, 33], 'tile');
    const x = k.blockIdx.x.mul(32).add(k.threadIdx.x);
    const y = k.blockIdx.y.mul(32).add(k.threadIdx.y);
    k.for(0, 32, 8, (j) => tile.at(k.threadIdx.y.add(j.cast(u32)), k.threadIdx.x).store(idata.at(y.add(j.cast(u32)).mul(W).add(x)).get()));
    k.syncthreads();
    const tx = k.blockIdx.y.mul(32).add(k.threadIdx.x);
    const ty = k.blockIdx.x.mul(32).add(k.threadIdx.y);
    k.for(0, 32, 8, (j) => odata.at(ty.add(j.cast(u32)).mul(W).add(tx)).store(tile.at(k.threadIdx.x, k.threadIdx.y.add(j.cast(u32))).get()));
  },
});
