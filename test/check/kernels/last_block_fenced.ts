// Race-free: the "last block" reduction of CUDA's threadFenceReduction sample, with the fences the
// PTX memory model asks for: each block writes its partial sum, __threadfence() (release pattern with
// the atomic after it), takes a ticket; the block that draws the last ticket fences (acquire pattern)
// and reads every partial sum.
import { defineKernel, ptr, u32 } from 'warpsight';

const BLOCKS = 4;

export default defineKernel({
  name: 'last_block_fenced',
  params: { partial: ptr('global', u32), ticket: ptr('global', u32), out: ptr('global', u32) },
  launch: { grid: BLOCKS, block: 32 },
  setup: (host) => ({ partial: host.alloc(u32, BLOCKS, 'partial'), ticket: host.alloc(u32, 1, 'ticket'), out: host.alloc(u32, 1, 'out') }),
  check: (host, { out }) => (host.readNumber(out, u32, 0) === 10 ? null : `out = ${host.readNumber(out, u32, 0)}, expected 10`),
  body: (k, { partial, ticket, out }) => {
    k.if(k.threadIdx.x.eq(0), () => {
      partial.at(k.blockIdx.x).store(k.blockIdx.x.add(1));
      k.membar('gpu');
      const t = ticket.at(0).atomic('add', 1);
      k.if(t.eq(BLOCKS - 1), () => {
        k.membar('gpu');
        const sum = k.let(u32, 0);
        k.for(0, BLOCKS, 1, (i) => sum.set(sum.add(partial.at(i).get())));
        out.at(0).store(sum);
      });
    });
  },
});
