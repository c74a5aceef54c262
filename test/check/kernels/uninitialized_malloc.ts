// Planted: a program allocates with cudaMalloc and launches a kernel that reads the buffer before
// anything wrote it (cudaMalloc's memory is undefined until written).
import { defineKernel, defineProgram, ptr, u32 } from 'warpsight';

const copy = defineKernel({
  name: 'copy_uninitialized',
  params: { src: ptr('global', u32), dst: ptr('global', u32) },
  launch: { grid: 1, block: 32 },
  setup: () => ({}),
  body: (k, { src, dst }) => {
    dst.at(k.threadIdx.x).store(src.at(k.threadIdx.x).get()); // @second uninitialized-read
  },
});

export default defineProgram({
  name: 'uninitialized_malloc',
  run: (ctx) => {
    const src = ctx.malloc(128, 'src');
    const dst = ctx.malloc(128, 'dst');
    ctx.launch(copy, { src, dst });
    ctx.deviceSynchronize();
  },
});
