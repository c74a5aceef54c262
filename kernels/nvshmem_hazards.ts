/**
 * The hazards seed 001 names for on-stream NVSHMEM, found as the program runs and reported with both
 * operations' lines and the seed's fix (each program has a fixed form: `--param fixed=1`):
 *  - malloc_during_barrier: a host nvshmem_malloc (a collective on NVSHMEM_TEAM_WORLD) while a
 *    barrier_all_on_stream the host has not waited for may still run;
 *  - collectives_two_streams: barrier_all_on_stream on two streams with nothing ordering them;
 *  - memcpy_then_put: cudaMemcpy into symmetric memory, then putmem_on_stream reading it (cudaMemcpy
 *    may complete asynchronously on NVSHMEM's VMM heap).
 *
 *   warpsight profile kernels/nvshmem_hazards.ts -k memcpy_then_put
 */
import { defineProgram, u32 } from 'warpsight';

export const mallocDuringBarrier = defineProgram({
  name: 'malloc_during_barrier',
  description: 'a host nvshmem_malloc while a barrier_all_on_stream may still run',
  pes: 2,
  defaults: { fixed: 0 },
  run: async (ctx, { fixed }) => {
    const s = ctx.streamCreate({ name: 'stream' });
    ctx.shmem.barrierAllOnStream(s);
    if (fixed) await ctx.streamSynchronize(s);
    ctx.shmem.malloc(4096, 'late buffer');
    await ctx.deviceSynchronize();
  },
});

export const collectivesTwoStreams = defineProgram({
  name: 'collectives_two_streams',
  description: 'barrier_all_on_stream on two streams with nothing ordering them',
  pes: 2,
  defaults: { fixed: 0 },
  run: async (ctx, { fixed }) => {
    const a = ctx.streamCreate({ name: 'stream A' });
    const b = ctx.streamCreate({ name: 'stream B' });
    ctx.shmem.barrierAllOnStream(a);
    if (fixed) {
      const e = ctx.eventCreate();
      ctx.eventRecord(e, a);
      ctx.streamWaitEvent(b, e);
    }
    ctx.shmem.barrierAllOnStream(b);
    await ctx.deviceSynchronize();
  },
});

export const memcpyThenPut = defineProgram({
  name: 'memcpy_then_put',
  description: 'cudaMemcpy into symmetric memory, then an on-stream put that reads it',
  pes: 2,
  defaults: { fixed: 0 },
  run: async (ctx, { fixed }) => {
    const out = ctx.shmem.malloc(4, 'out');
    const final = ctx.shmem.malloc(4, 'final');
    const host = ctx.mallocHost(4, 'out on the host');
    host.view().setUint32(0, 100 + ctx.pe, true);
    const s = ctx.streamCreate({ name: 'stream' });
    if (fixed) {
      ctx.memcpyAsync(out, host, 4, s);
      await ctx.streamSynchronize(s);
    } else await ctx.memcpy(out, host, 4);
    ctx.shmem.putmemOnStream(final, out, 4, (ctx.pe + 1) % ctx.npes, s);
    await ctx.streamSynchronize(s);
    await ctx.shmem.barrierAll();
    ctx.value(`final on PE ${ctx.pe}`, ctx.host.readNumber(final, u32, 0));
  },
});
