// Race-free: the classic shared-memory tree reduction, __syncthreads() after every halving step.
import { defineKernel, ptr, u32 } from 'warpsight';

export default defineKernel({
  name: 'tree_reduction',
  params: { src: ptr('global', u32), out: ptr('global', u32) },
  launch: { grid: 4, block: 128 },
  setup: (host) => ({ src: host.alloc(u32, 512, 'src', (i) => i), out: host.alloc(u32, 4, 'out') }),
  body: (k, { src, out }) => {
    const s = k.shared(u32, [128], 's');
    const t = k.threadIdx.x;
    s.at(t).store(src.at(k.blockIdx.x.mul(128).add(t)).get());
    k.syncthreads();
    const st = k.let(u32, 64);
    k.while(
      () => st.gt(0),
      () => {
        k.when(t.lt(st), () => s.at(t).store(s.at(t).get().add(s.at(t.add(st)).get())));
        k.syncthreads();
        st.set(st.shr(1));
      },
    );
    k.if(t.eq(0), () => out.at(k.blockIdx.x).store(s.at(0).get()));
  },
});
