// Planted: every block writes the same result slot (the last writer wins, whichever it is).
import { defineKernel, ptr, u32 } from 'warpsight';

export default defineKernel({
  name: 'global_waw_between_blocks',
  params: { out: ptr('global', u32) },
  launch: { grid: 3, block: 32 },
  setup: (host) => ({ out: host.alloc(u32, 1, 'out') }),
  body: (k, { out }) => {
    k.if(k.threadIdx.x.eq(0), () => out.at(0).store(k.blockIdx.x)); // @first data-race @second data-race
  },
});
