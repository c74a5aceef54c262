// Race-free: the producer/consumer hand-off of named_barrier_wrong_count with the right count (128).
import { defineKernel, ptr, u32 } from 'warpsight';

export default defineKernel({
  name: 'named_barrier_correct',
  params: { out: ptr('global', u32) },
  launch: { grid: 1, block: 128 },
  setup: (host) => ({ out: host.alloc(u32, 64, 'out') }),
  body: (k, { out }) => {
    const buf = k.shared(u32, [64], 'buf');
    const t = k.threadIdx.x;
    k.if(
      t.lt(64),
      () => {
        buf.at(t).store(t.add(7));
        k.barArrive(1, 128);
      },
      () => {
        k.barSync(1, 128);
        out.at(t.sub(64)).store(buf.at(t.sub(64)).get());
      },
    );
  },
});
