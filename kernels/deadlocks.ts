/**
 * The seed's deadlocks (seed 001, "NVSHMEM and CUDA: deadlocks"), each with its fixed form, and what
 * Warpsight says when no PE can go on (ncu and Nsight Systems hang with such a program):
 *  - circular_on_stream (2 PEs): PE 0 enqueues [barrier_all_on_stream, putmem_signal_on_stream], PE 1
 *    [signal_wait_until_on_stream, barrier_all_on_stream]: each waits for the other; `--param fixed=1`
 *    puts PE 0's signal before its barrier;
 *  - wait_holds_sms: a waiting kernel that fills every SM spins on a flag that a notifying kernel on
 *    another stream would set, but the notifier cannot get an SM; `--param fixed=1` orders the notifier
 *    first through an event (blocks=1 also fits both).
 *
 *   warpsight profile kernels/deadlocks.ts -k circular_on_stream
 *   warpsight profile kernels/deadlocks.ts -k circular_on_stream --param fixed=1
 */
import { defineKernel, defineProgram, ptr, u32, u64 } from 'warpsight';

export const circularOnStream = defineProgram({
  name: 'circular_on_stream',
  description: "seed 001's circular dependence between two PEs' on-stream operations",
  pes: 2,
  defaults: { fixed: 0 },
  run: async (ctx, { fixed }) => {
    const data = ctx.shmem.malloc(1024, 'data');
    const sig = ctx.shmem.malloc(8, 'sig');
    const src = ctx.malloc(1024, 'src');
    ctx.memsetAsync(sig, 0, 8);
    await ctx.deviceSynchronize();
    await ctx.shmem.barrierAll();
    const s = ctx.streamCreate({ name: 'stream' });
    if (ctx.pe === 0) {
      if (fixed) ctx.shmem.putmemSignalOnStream(data, src, 1024, sig, 1, 'set', 1, s);
      ctx.shmem.barrierAllOnStream(s);
      if (!fixed) ctx.shmem.putmemSignalOnStream(data, src, 1024, sig, 1, 'set', 1, s);
    } else {
      ctx.shmem.signalWaitUntilOnStream(sig, 'eq', 1, s);
      ctx.shmem.barrierAllOnStream(s);
    }
    await ctx.streamSynchronize(s);
    ctx.value(`signal on PE ${ctx.pe}`, Number(ctx.host.read(sig, u64, 0)));
  },
});

/** thread 0 of each block spins on the flag; the block waits for it, then records what it saw */
const waitKernel = defineKernel({
  name: 'wait_kernel',
  params: { flag: ptr('global', u32), out: ptr('global', u32) },
  launch: { grid: 1, block: 1024 },
  setup: (h) => ({ flag: h.alloc(u32, 1, 'flag'), out: h.alloc(u32, 1024, 'out') }),
  body: (k, { flag, out }) => {
    k.if(k.threadIdx.x.eq(0), () => {
      k.while(() => flag.at(0).get({ cache: 'strong' }).eq(0), () => {});
    });
    k.syncthreads();
    k.if(k.threadIdx.x.eq(0), () => out.at(k.blockIdx.x).store(flag.at(0).get({ cache: 'strong' })));
  },
});

const notifyKernel = defineKernel({
  name: 'notify_kernel',
  params: { flag: ptr('global', u32) },
  launch: { grid: 1, block: 32 },
  setup: (h) => ({ flag: h.alloc(u32, 1, 'flag') }),
  body: (k, { flag }) => {
    k.if(k.threadIdx.x.eq(0), () => flag.at(0).store(7, { cache: 'strong' }));
  },
});

export const waitHoldsSms = defineProgram({
  name: 'wait_holds_sms',
  description: 'a waiting kernel on every SM spins; the notifying kernel on another stream cannot start',
  defaults: { blocks: 264, fixed: 0 },
  run: (ctx, { blocks, fixed }) => {
    const flag = ctx.malloc(4, 'flag');
    const out = ctx.malloc(4 * 1024, 'out');
    ctx.memsetAsync(flag, 0, 4);
    const a = ctx.streamCreate({ nonBlocking: true, name: 'stream A' });
    const b = ctx.streamCreate({ nonBlocking: true, name: 'stream B' });
    const notified = ctx.eventCreate();
    if (fixed) {
      ctx.launch(notifyKernel, { flag }, { grid: 1, block: 32 }, { stream: b });
      ctx.eventRecord(notified, b);
      ctx.streamWaitEvent(a, notified);
    }
    ctx.launch(waitKernel, { flag, out }, { grid: blocks as number, block: 1024 }, { stream: a });
    if (!fixed) ctx.launch(notifyKernel, { flag }, { grid: 1, block: 32 }, { stream: b });
    ctx.deviceSynchronize();
    ctx.value('flag seen by block 0', ctx.host.readNumber(out, u32, 0));
  },
});

export const queueInOrder = defineProgram({
  name: 'queue_in_order',
  description: 'a one-block waiting kernel and its notifier on two streams: fine by default, a deadlock when the runtime puts both in one in-order queue (--explore)',
  defaults: { fixed: 0 },
  run: (ctx, { fixed }) => {
    const flag = ctx.malloc(4, 'flag');
    const out = ctx.malloc(4 * 1024, 'out');
    ctx.memsetAsync(flag, 0, 4);
    ctx.deviceSynchronize();
    const a = ctx.streamCreate({ nonBlocking: true, name: 'stream A' });
    const b = ctx.streamCreate({ nonBlocking: true, name: 'stream B' });
    if (fixed) {
      // the notifier first, and a dependence the runtime can see: the waiting kernel's stream waits for it
      const notified = ctx.eventCreate();
      ctx.launch(notifyKernel, { flag }, { grid: 1, block: 32 }, { stream: b });
      ctx.eventRecord(notified, b);
      ctx.streamWaitEvent(a, notified);
      ctx.launch(waitKernel, { flag, out }, { grid: 1, block: 1024 }, { stream: a });
    } else {
      ctx.launch(waitKernel, { flag, out }, { grid: 1, block: 1024 }, { stream: a });
      ctx.launch(notifyKernel, { flag }, { grid: 1, block: 32 }, { stream: b });
    }
    ctx.deviceSynchronize();
    ctx.value('flag seen by block 0', ctx.host.readNumber(out, u32, 0));
  },
});

/** every block adds itself to a counter, then waits until all have: a grid-wide barrier by hand */
const allBlocksArrive = defineKernel({
  name: 'all_blocks_arrive',
  params: { count: ptr('global', u32), out: ptr('global', u32) },
  launch: { grid: 265, block: 1024 },
  setup: (h) => ({ count: h.alloc(u32, 1, 'count'), out: h.alloc(u32, 1024, 'out') }),
  body: (k, { count, out }) => {
    k.if(k.threadIdx.x.eq(0), () => {
      count.at(0).atomic('add', 1);
      k.while(() => count.at(0).get({ cache: 'strong' }).lt(k.gridDim.x), () => {});
      out.at(k.blockIdx.x).store(1);
    });
    k.syncthreads();
  },
});

export const gridSyncWithoutCollective = defineProgram({
  name: 'grid_sync_without_collective',
  description: 'in-kernel synchronisation of every block on each PE: 265 blocks of 1024 threads cannot all be resident; --param fixed=1 launches 264 collectively',
  pes: 2,
  defaults: { fixed: 0 },
  run: async (ctx, { fixed }) => {
    const count = ctx.malloc(4, 'count');
    const out = ctx.malloc(4 * 1024, 'out');
    ctx.memsetAsync(count, 0, 4);
    if (fixed) ctx.shmem.collectiveLaunch(allBlocksArrive, { count, out }, { grid: 264, block: 1024 });
    else ctx.launch(allBlocksArrive, { count, out }, { grid: 265, block: 1024 });
    await ctx.deviceSynchronize();
    ctx.value(`blocks arrived on PE ${ctx.pe}`, ctx.host.readNumber(count, u32, 0));
  },
});
