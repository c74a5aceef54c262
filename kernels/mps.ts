/**
 * Seed 002's last advice, "share the GPU with multiple processes: MPS": two processes, each launching
 * kernels that fill only half of an H200 (66 blocks, one per SM). Run as PEs they are two processes;
 * `--share-gpu mps` puts both on one GPU through MPS (their kernels run side by side on the SMs),
 * `--share-gpu timeslice` without MPS (the GPU serves one process's context at a time), and without the
 * flag each has a GPU of its own.
 *
 *   warpsight profile kernels/mps.ts --share-gpu timeslice
 *   warpsight profile kernels/mps.ts --share-gpu mps
 */
import { defineKernel, defineProgram, f32, ptr, u32 } from 'warpsight';

/** every thread runs a dependent FMA chain: a kernel that takes time and nothing else */
const spin = defineKernel({
  name: 'half_gpu_spin',
  params: { out: ptr('global', f32), trips: u32 },
  defaults: { trips: 4000 },
  launch: { grid: 66, block: 32, dynamicShared: 120 * 1024 },
  setup: (h) => ({ out: h.alloc(f32, 66 * 32, 'out') }),
  body: (k, { out, trips }) => {
    const i = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x);
    const x = k.let(f32, i.cast(f32));
    k.for(0, trips, 1, () => x.set(x.fma(1.0001, 0.5)));
    out.at(i).store(x);
  },
});

export const twoProcesses = defineProgram({
  name: 'two_processes',
  description: 'two processes, each launching four half-GPU kernels one after another',
  pes: 2,
  defaults: { kernels: 4, trips: 4000 },
  run: async (ctx, { kernels, trips }) => {
    const out = ctx.malloc(66 * 32 * 4, 'out');
    const start = ctx.eventCreate();
    const end = ctx.eventCreate();
    ctx.eventRecord(start);
    for (let i = 0; i < (kernels as number); i++) ctx.launch(spin, { out, trips }, { grid: 66, block: 32, dynamicShared: 120 * 1024 }, { profile: i === 0 });
    ctx.eventRecord(end);
    await ctx.eventSynchronize(end);
    ctx.value(`process ${ctx.pe}: kernels`, ctx.eventElapsedTime(start, end) * 1000, 'us');
  },
});
