// Planted: the tree reduction without the __syncthreads() inside the loop: a step reads partial sums
// another warp has not finished (or overwrites one it still reads).
import { defineKernel, ptr, u32 } from 'warpsight';

export default defineKernel({
  name: 'tree_reduction_missing_sync',
  params: { src: ptr('global', u32), out: ptr('global', u32) },
  launch: { grid: 1, block: 128 },
  setup: (host) => ({ src: host.alloc(u32, 128, 'src', (i) => i), out: host.alloc(u32, 1, 'out') }),
  body: (k, { src, out }) => {
    const s = k.shared(u32, [128], 's');
    const t = k.threadIdx.x;
    s.at(t).store(src.at(t).get());
    k.syncthreads();
    const st = k.let(u32, 64);
    k.while(
      () => st.gt(0),
      () => {
        k.when(t.lt(st), () => s.at(t).store(s.at(t).get().add(s.at(t.add(st)).get()))); // @first data-race @second data-race
        st.set(st.shr(1));
      },
    );
    k.syncthreads();
    k.if(t.eq(0), () => out.at(0).store(s.at(0).get()));
  },
});
