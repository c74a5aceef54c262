// Race-free: the hand-off with relaxed device-scope atomics and cuda::atomic_thread_fence: a release
// fence before the flag's relaxed store, an acquire fence after the relaxed load that saw it (PTX's
// release and acquire patterns).
import { defineKernel, ptr, u32 } from 'warpsight';

export default defineKernel({
  name: 'fence_acq_rel_handoff',
  params: { data: ptr('global', u32), flag: ptr('global', u32), out: ptr('global', u32) },
  launch: { grid: 2, block: 32 },
  setup: (host) => ({ data: host.alloc(u32, 1, 'data'), flag: host.alloc(u32, 1, 'flag'), out: host.alloc(u32, 1, 'out') }),
  body: (k, { data, flag, out }) => {
    k.if(k.threadIdx.x.eq(0), () => {
      k.if(
        k.blockIdx.x.eq(0),
        () => {
          data.at(0).store(42);
          k.atomicThreadFence('release', 'device');
          k.atomicRef(flag.at(0), 'device').store(1, 'relaxed');
        },
        () => {
          k.while(() => k.atomicRef(flag.at(0), 'device').load('relaxed').eq(0), () => {});
          k.atomicThreadFence('acquire', 'device');
          out.at(0).store(data.at(0).get());
        },
      );
    });
  },
});
