// Planted: the last-block reduction without the writer's __threadfence(): the ticket's atomic does
// not release the partial sum written before it, so the last block's read of it races the write.
import { defineKernel, ptr, u32 } from 'warpsight';

const BLOCKS = 2;

export default defineKernel({
  name: 'last_block_unfenced',
  params: { partial: ptr('global', u32), ticket: ptr('global', u32), out: ptr('global', u32) },
  launch: { grid: BLOCKS, block: 32 },
  setup: (host) => ({ partial: host.alloc(u32, BLOCKS, 'partial'), ticket: host.alloc(u32, 1, 'ticket'), out: host.alloc(u32, 1, 'out') }),
  body: (k, { partial, ticket, out }) => {
    k.if(k.threadIdx.x.eq(0), () => {
      partial.at(k.blockIdx.x).store(k.blockIdx.x.add(1)); // @first data-race
      const t = ticket.at(0).atomic('add', 1);
      k.if(t.eq(BLOCKS - 1), () => {
        k.membar('gpu');
        const sum = k.let(u32, 0);
        k.for(0, BLOCKS, 1, (i) => sum.set(sum.add(partial.at(i).get()))); // @second data-race
        out.at(0).store(sum);
      });
    });
  },
});
