// Planted: a block reads a shared array element that no thread of the block wrote (only the first
// half is filled).
import { defineKernel, ptr, u32 } from 'warpsight';

export default defineKernel({
  name: 'shared_uninitialized',
  params: { out: ptr('global', u32) },
  launch: { grid: 1, block: 32 },
  setup: (host) => ({ out: host.alloc(u32, 32, 'out') }),
  body: (k, { out }) => {
    const s = k.shared(u32, [64], 'tile');
    const t = k.threadIdx.x;
    s.at(t).store(t);
    k.syncthreads();
    out.at(t).store(s.at(t.add(32)).get()); // @second uninitialized-read
  },
});
