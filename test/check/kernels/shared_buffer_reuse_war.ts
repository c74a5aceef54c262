// Planted: a block stages two chunks through one shared buffer with one __syncthreads() per chunk:
// the second chunk's write can overwrite an element another warp has not yet read from the first
// (the missing second barrier of double-buffered loops).
import { defineKernel, ptr, u32 } from 'warpsight';

export default defineKernel({
  name: 'shared_buffer_reuse_war',
  params: { src: ptr('global', u32), out: ptr('global', u32) },
  launch: { grid: 1, block: 64 },
  setup: (host) => ({ src: host.alloc(u32, 128, 'src', (i) => i), out: host.alloc(u32, 128, 'out') }),
  body: (k, { src, out }) => {
    const s = k.shared(u32, [64], 'stage');
    const t = k.threadIdx.x;
    k.for(0, 2, 1, (c) => {
      s.at(t).store(src.at(c.cast(u32).mul(64).add(t)).get()); // @second data-race
      k.syncthreads();
      out.at(c.cast(u32).mul(64).add(t)).store(s.at(t.xor(32)).get()); // @first data-race
      // missing: k.syncthreads() before the next chunk overwrites the buffer
    });
  },
});
