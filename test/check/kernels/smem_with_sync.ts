// Race-free: the same exchange as smem_missing_sync, ordered by __syncthreads().
import { defineKernel, ptr, u32 } from 'warpsight';

export default defineKernel({
  name: 'smem_with_sync',
  params: { out: ptr('global', u32) },
  launch: { grid: 2, block: 64 },
  setup: (host) => ({ out: host.alloc(u32, 128, 'out') }),
  body: (k, { out }) => {
    const s = k.shared(u32, [64], 's');
    const t = k.threadIdx.x;
    s.at(t).store(t.mul(3));
    k.syncthreads();
    out.at(k.blockIdx.x.mul(64).add(t)).store(s.at(t.add(32).and(63)).get());
  },
});
