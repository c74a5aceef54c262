// Planted: producer warps 0-1 fill a buffer and bar.arrive(1, 64); consumer warps 2-3 bar.sync(1, 64).
// The count should be 128 (both sides): with 64 the producers' arrivals complete the barrier alone,
// and the consumers' bar.sync is a barrier of their own that orders nothing they read.
import { defineKernel, ptr, u32 } from 'warpsight';

export default defineKernel({
  name: 'named_barrier_wrong_count',
  params: { out: ptr('global', u32) },
  launch: { grid: 1, block: 128 },
  setup: (host) => ({ out: host.alloc(u32, 64, 'out') }),
  body: (k, { out }) => {
    const buf = k.shared(u32, [64], 'buf');
    const t = k.threadIdx.x;
    k.if(
      t.lt(64),
      () => {
        buf.at(t).store(t.add(7)); // @first data-race
        k.barArrive(1, 64);
      },
      () => {
        k.barSync(1, 64);
        out.at(t.sub(64)).store(buf.at(t.sub(64)).get()); // @second data-race
      },
    );
  },
});
