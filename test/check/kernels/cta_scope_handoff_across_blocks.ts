// Planted: the release/acquire hand-off between two blocks with thread_scope_block: the flag's
// release and acquire do not include the other block's thread (a scope race on the flag), so they
// order nothing between the blocks and the data read races the data write.
import { defineKernel, ptr, u32 } from 'warpsight';

export default defineKernel({
  name: 'cta_scope_handoff_across_blocks',
  params: { data: ptr('global', u32), flag: ptr('global', u32), out: ptr('global', u32) },
  launch: { grid: 2, block: 32 },
  setup: (host) => ({ data: host.alloc(u32, 1, 'data'), flag: host.alloc(u32, 1, 'flag'), out: host.alloc(u32, 1, 'out') }),
  body: (k, { data, flag, out }) => {
    k.if(k.threadIdx.x.eq(0), () => {
      k.if(
        k.blockIdx.x.eq(0),
        () => {
          data.at(0).store(42); // @first data-race
          k.atomicRef(flag.at(0), 'block').store(1, 'release'); // @first scope-race
        },
        () => {
          k.while(() => k.atomicRef(flag.at(0), 'block').load('acquire').eq(0), () => {}); // @second scope-race
          out.at(0).store(data.at(0).get()); // @second data-race
        },
      );
    });
  },
});
