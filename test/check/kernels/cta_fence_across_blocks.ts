// Planted: the volatile-flag hand-off of volatile_flag_fenced with __threadfence_block() instead of
// __threadfence(): a block-scope fence orders the writer's accesses only for its own block, so the
// consumer block's fence-after-flag acquires nothing (a scope race: the release is observed by a
// thread outside its scope) and the data read races the data write.
import { defineKernel, ptr, u32 } from 'warpsight';

export default defineKernel({
  name: 'cta_fence_across_blocks',
  params: { data: ptr('global', u32), flag: ptr('global', u32), out: ptr('global', u32) },
  launch: { grid: 2, block: 32 },
  setup: (host) => ({ data: host.alloc(u32, 1, 'data'), flag: host.alloc(u32, 1, 'flag'), out: host.alloc(u32, 1, 'out') }),
  body: (k, { data, flag, out }) => {
    k.if(k.threadIdx.x.eq(0), () => {
      k.if(
        k.blockIdx.x.eq(0),
        () => {
          data.at(0).store(42); // @first data-race
          k.threadfenceBlock(); // @first scope-race
          flag.at(0).store(1, { volatile: true });
        },
        () => {
          k.while(() => flag.at(0).get({ volatile: true }).eq(0), () => {}); // @second scope-race
          k.threadfenceBlock();
          out.at(0).store(data.at(0).get()); // @second data-race
        },
      );
    });
  },
});
