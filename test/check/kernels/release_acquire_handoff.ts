// Race-free: the hand-off with cuda::atomic_ref<int, thread_scope_device>: a release store of the
// flag after the data, acquire loads polling it before the data is read (seed 002's good version).
import { defineKernel, ptr, u32 } from 'warpsight';

export default defineKernel({
  name: 'release_acquire_handoff',
  params: { data: ptr('global', u32), flag: ptr('global', u32), out: ptr('global', u32) },
  launch: { grid: 2, block: 32 },
  setup: (host) => ({ data: host.alloc(u32, 32, 'data'), flag: host.alloc(u32, 1, 'flag'), out: host.alloc(u32, 32, 'out') }),
  body: (k, { data, flag, out }) => {
    const t = k.threadIdx.x;
    k.if(
      k.blockIdx.x.eq(0),
      () => {
        data.at(t).store(t.add(42));
        k.syncthreads();
        k.if(t.eq(0), () => k.atomicRef(flag.at(0), 'device').store(1, 'release'));
      },
      () => {
        k.if(t.eq(0), () => k.while(() => k.atomicRef(flag.at(0), 'device').load('acquire').eq(0), () => {}));
        k.syncthreads();
        out.at(t).store(data.at(t).get());
      },
    );
  },
});
