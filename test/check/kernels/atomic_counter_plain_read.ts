// Planted: the counter is bumped atomically, but block 1 also reads it with a plain load while
// other blocks still add: an atomic and a weak access to one location are not morally strong.
import { defineKernel, ptr, u32 } from 'warpsight';

export default defineKernel({
  name: 'atomic_counter_plain_read',
  params: { count: ptr('global', u32), out: ptr('global', u32) },
  launch: { grid: 2, block: 32 },
  setup: (host) => ({ count: host.alloc(u32, 1, 'count'), out: host.alloc(u32, 2, 'out') }),
  body: (k, { count, out }) => {
    count.at(0).reduce('add', 1); // @second data-race
    k.if(k.threadIdx.x.eq(0), () => out.at(k.blockIdx.x).store(count.at(0).get())); // @first data-race
  },
});
