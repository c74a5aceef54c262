// Planted: a counter shared by two blocks bumped through cuda::atomic_ref<int, thread_scope_block>:
// block scope includes only the threads of one block, so the two blocks' atomics are not morally
// strong (a scope race: on the GPU the increments of the two SMs can be lost).
import { defineKernel, ptr, u32 } from 'warpsight';

export default defineKernel({
  name: 'cta_atomic_across_blocks',
  params: { count: ptr('global', u32) },
  launch: { grid: 2, block: 32 },
  setup: (host) => ({ count: host.alloc(u32, 1, 'count') }),
  body: (k, { count }) => {
    k.atomicRef(count.at(0), 'block').fetchAdd(1, 'relaxed'); // @first scope-race @second scope-race
  },
});
