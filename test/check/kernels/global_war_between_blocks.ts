// Planted: block b reads buf[b + 1], which block b + 1 overwrites; blocks are not ordered.
import { defineKernel, ptr, u32 } from 'warpsight';

export default defineKernel({
  name: 'global_war_between_blocks',
  params: { buf: ptr('global', u32), out: ptr('global', u32) },
  launch: { grid: 2, block: 32 },
  setup: (host) => ({ buf: host.alloc(u32, 3, 'buf', (i) => i), out: host.alloc(u32, 2, 'out') }),
  body: (k, { buf, out }) => {
    const b = k.blockIdx.x;
    k.if(k.threadIdx.x.eq(0), () => {
      out.at(b).store(buf.at(b.add(1)).get()); // @first data-race
      buf.at(b).store(b.mul(10)); // @second data-race
    });
  },
});
