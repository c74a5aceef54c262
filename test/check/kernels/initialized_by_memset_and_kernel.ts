// Race-free and initialised: cudaMalloc'd buffers written by a memset and by a first kernel before a
// second kernel reads them (kernel boundaries order the launches; a memset initialises).
import { defineKernel, defineProgram, ptr, u32 } from 'warpsight';

const fill = defineKernel({
  name: 'fill',
  params: { dst: ptr('global', u32) },
  launch: { grid: 1, block: 32 },
  setup: () => ({}),
  body: (k, { dst }) => dst.at(k.threadIdx.x).store(k.threadIdx.x),
});

const add = defineKernel({
  name: 'add',
  params: { a: ptr('global', u32), b: ptr('global', u32), dst: ptr('global', u32) },
  launch: { grid: 1, block: 32 },
  setup: () => ({}),
  body: (k, { a, b, dst }) => {
    // the next lane's element: written by another thread of the first kernel
    const j = k.threadIdx.x.add(1).and(31);
    dst.at(k.threadIdx.x).store(a.at(j).get().add(b.at(j).get()));
  },
});

export default defineProgram({
  name: 'initialized_by_memset_and_kernel',
  run: (ctx) => {
    const a = ctx.malloc(128, 'a');
    const b = ctx.malloc(128, 'b');
    const dst = ctx.malloc(128, 'dst');
    ctx.memsetAsync(b, 0, 128);
    ctx.launch(fill, { dst: a });
    ctx.launch(add, { a, b, dst });
    ctx.deviceSynchronize();
  },
});
