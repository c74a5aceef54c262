/**
 * Family 9's kernel (micro.cu tiny_kernel): one block of 32 threads, thread 0 adds one to its
 * block's counter. A kernel whose launch costs more than its work: the launch-overhead programs
 * (kernels/launch_overhead.ts, test/bench/graphReplay.ts) launch it by the thousand.
 */
import { defineKernel, i32, ptr } from 'warpsight';

export const tiny = defineKernel({
  name: 'tiny_kernel',
  description: 'if (threadIdx.x == 0) p[blockIdx.x] += 1;',
  params: { p: ptr('global', i32) },
  launch: { grid: 1, block: 32 },
  setup: (host) => ({ p: host.alloc(i32, 1024, 'p') }),
  body: (k, { p }) => {
    k.if(k.threadIdx.x.eq(0), () => {
      const at = p.at(k.blockIdx.x);
      at.store(at.get().add(1));
    });
  },
});
