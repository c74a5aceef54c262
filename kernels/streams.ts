/**
 * Streams, the seeds' lessons on one GPU (seed 002 "CUDA STREAMS", seed 001 "false dependencies"):
 *  - two_streams / one_stream: two kernels that each fill half the SMs overlap on two streams (the
 *    block scheduler puts them side by side) and serialise on one;
 *  - false_dependency: nine streams of two dependent kernels each, issued depth-first; with the
 *    default eight hardware queues (CUDA_DEVICE_MAX_CONNECTIONS) the ninth stream shares a queue with
 *    the first and waits behind its dependency; `--hw-queues 16` removes it;
 *  - malloc_sync / malloc_async: the seed's two streams of allocate, copy in, kernel, copy out, free:
 *    cudaMalloc/cudaFree stall the GPU, cudaMallocAsync/cudaFreeAsync from a pool do not.
 *
 *   warpsight profile kernels/streams.ts -k false_dependency
 *   warpsight profile kernels/streams.ts -k false_dependency --hw-queues 16
 */
import { defineKernel, defineProgram, f32, ptr, u32, type ProgramContext } from 'warpsight';

/** every thread runs a dependent FMA chain of `trips` steps: a kernel that takes time and nothing else */
const spin = defineKernel({
  name: 'spin',
  params: { out: ptr('global', f32), trips: u32 },
  defaults: { trips: 2000 },
  launch: { grid: 1, block: 32 },
  setup: (h) => ({ out: h.alloc(f32, 1 << 16, 'out') }),
  body: (k, { out, trips }) => {
    const i = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x);
    const x = k.let(f32, i.cast(f32));
    k.for(0, trips, 1, () => x.set(x.fma(1.0001, 0.5)));
    out.at(i).store(x);
  },
});

/** 66 blocks of 32 threads with 120 KiB of shared memory each: one block per SM, half of an H200 */
const HALF = { grid: 66, block: 32, dynamicShared: 120 * 1024 } as const;

/** the two half-GPU kernels, each on its own stream or both on one */
function twoHalves(ctx: ProgramContext, trips: number, streams: 1 | 2): void {
  const out = ctx.malloc(66 * 32 * 4 * 2, 'out');
  const a = ctx.streamCreate({ nonBlocking: true, name: 'stream A' });
  const b = streams === 2 ? ctx.streamCreate({ nonBlocking: true, name: 'stream B' }) : a;
  ctx.launch(spin, { out, trips }, HALF, { stream: a });
  ctx.launch(spin, { out: ctx.host.offset(out, f32, 66 * 32), trips }, HALF, { stream: b });
  ctx.deviceSynchronize();
}

export const twoStreams = defineProgram({
  name: 'two_streams',
  description: 'two half-GPU kernels on two streams: they run side by side',
  defaults: { trips: 10000 },
  run: (ctx, { trips }) => twoHalves(ctx, trips as number, 2),
});

export const oneStream = defineProgram({
  name: 'one_stream',
  description: 'the same two half-GPU kernels on one stream: one after the other',
  defaults: { trips: 10000 },
  run: (ctx, { trips }) => twoHalves(ctx, trips as number, 1),
});

export const falseDependency = defineProgram({
  name: 'false_dependency',
  description: 'nine streams of two dependent kernels, issued depth-first: the ninth shares a hardware queue with the first',
  defaults: { streams: 9, trips: 2000 },
  run: (ctx, { streams, trips }) => {
    const out = ctx.malloc(4 * 32 * 64, 'out');
    const ss = Array.from({ length: streams as number }, (_, i) => ctx.streamCreate({ nonBlocking: true, name: `stream ${i}` }));
    // a gate, as the runtime probe has: every stream first waits for a long kernel on another
    // stream, so the host's 5 us per launch does not space the kernels out
    const gate = ctx.streamCreate({ nonBlocking: true, name: 'gate' });
    const open = ctx.eventCreate({ disableTiming: true });
    ctx.launch(spin, { out: ctx.host.offset(out, f32, 32 * 63), trips: 8 * (trips as number) }, undefined, { stream: gate, profile: false });
    ctx.eventRecord(open, gate);
    // depth-first: A then B of one stream before the next stream's (B depends on A by stream order)
    ss.forEach((s, i) => {
      ctx.streamWaitEvent(s, open);
      const mine = ctx.host.offset(out, f32, 32 * i);
      ctx.launch(spin, { out: mine, trips }, undefined, { stream: s });
      ctx.launch(spin, { out: mine, trips }, undefined, { stream: s });
    });
    ctx.deviceSynchronize();
  },
});

/** one stream of the seed's example: allocate, copy in, kernel, copy out, free */
function pipeline(ctx: ProgramContext, async: boolean, n: number, trips: number): void {
  const bytes = n * 4;
  const streams = [0, 1].map((i) => ctx.streamCreate({ nonBlocking: true, name: `stream ${i}` }));
  const host = streams.map((_, i) => ctx.mallocHost(bytes, `host ${i}`));
  for (let rep = 0; rep < 4; rep++)
    streams.forEach((s, i) => {
      const h = host[i]!;
      const buf = async ? ctx.mallocAsync(bytes, s) : ctx.malloc(bytes, `buffer ${i}`);
      ctx.memcpyAsync(buf, h, bytes, s);
      ctx.launch(spin, { out: buf, trips }, { grid: n / 256, block: 256 }, { stream: s, profile: false });
      ctx.memcpyAsync(h, buf, bytes, s);
      if (async) ctx.freeAsync(buf, s);
      else ctx.free(buf);
    });
  ctx.deviceSynchronize();
}

export const mallocSync = defineProgram({
  name: 'malloc_sync',
  description: "seed 002: cudaMalloc / cudaFree in each stream's loop (cudaFree halts the GPU)",
  defaults: { n: 1 << 16, trips: 200 },
  run: (ctx, { n, trips }) => pipeline(ctx, false, n as number, trips as number),
});

export const mallocAsync = defineProgram({
  name: 'malloc_async',
  description: 'seed 002: cudaMallocAsync / cudaFreeAsync from the stream-ordered pool',
  defaults: { n: 1 << 16, trips: 200 },
  run: (ctx, { n, trips }) => pipeline(ctx, true, n as number, trips as number),
});
