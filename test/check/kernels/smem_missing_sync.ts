// Planted: no __syncthreads() between the shared write and another warp's read of it.
import { defineKernel, ptr, u32 } from 'warpsight';

export default defineKernel({
  name: 'smem_missing_sync',
  params: { out: ptr('global', u32) },
  launch: { grid: 1, block: 64 },
  setup: (host) => ({ out: host.alloc(u32, 64, 'out') }),
  body: (k, { out }) => {
    const s = k.shared(u32, [64], 's');
    const t = k.threadIdx.x;
    s.at(t).store(t.mul(3)); // @first data-race
    // missing: k.syncthreads();
    k.if(t.ge(32), () => out.at(t).store(s.at(t.sub(32)).get())); // @second data-race
  },
});
