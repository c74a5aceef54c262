// Planted: the last thread reads one element past the end of its buffer (memcheck).
import { defineKernel, ptr, u32 } from 'warpsight';

export default defineKernel({
  name: 'out_of_bounds',
  params: { src: ptr('global', u32), out: ptr('global', u32) },
  launch: { grid: 1, block: 32 },
  setup: (host) => ({ src: host.alloc(u32, 32, 'src', (i) => i), out: host.alloc(u32, 32, 'out') }),
  body: (k, { src, out }) => {
    out.at(k.threadIdx.x).store(src.at(k.threadIdx.x.add(1)).get()); // @second out-of-bounds
  },
});
