/**
 * Host-mapped (zero-copy) memory (issue 39): cudaHostAlloc(cudaHostAllocMapped) memory that kernels
 * address directly, each access crossing the host link (a load ~2,300 cycles on the H200 over PCIe
 * Gen5 against ~290 for device memory: test/fidelity/probes/zero_copy_probe.cu), and that the host
 * program reads and writes while kernels run: ctx.host on such a pointer waits for nothing.
 *
 * xab_cpu: seed 000's x/a/b example (CUDA Programming Guide, memory fence interference) with its real
 * thread 3 on the CPU (kernels/fence_cumulativity.ts has a GPU-only version):
 *
 *   x = 0 (plain int, host-mapped); a: cuda::atomic<int, thread_scope_device> (device memory);
 *   b: cuda::atomic<int, thread_scope_system> (host-mapped)
 *   thread 1 (block 0):  x = 1;  a = 1;
 *   thread 2 (block 1):  while (a != 1);  assert(x == 1);  b = 1;
 *   thread 3 (CPU):      while (b != 1);  assert(x == 1);
 *
 * Thread 2's system-scope release of b is cumulative: it makes x (which it observed through a)
 * visible to the CPU as well. Both asserts are reported as values (1 = held).
 *
 * host_handshake: a kernel and the host program hand a flag back and forth through mapped memory:
 * the kernel says it is ready and spins on `go`, which only the host writes. The spinning kernel
 * parks; the host's write through ctx.host wakes it, and it reports the value the host sent.
 *
 *   warpsight profile kernels/host_mapped.ts
 */
import { defineKernel, defineProgram, i32, ptr } from 'warpsight';

/** threads 1 and 2; `bScope` the scope of b's atomic ('system' as the seed has it; 'device' is the bug) */
const xabGpuKernel = (bScope: 'system' | 'device') =>
  defineKernel({
    name: bScope === 'system' ? 'xab_gpu_threads' : 'xab_gpu_threads_device_b',
    description: "seed 000's threads 1 and 2 (blocks 0 and 1); thread 3 is the host program",
    params: {
      x: ptr('global', i32),
      flags: ptr('global', i32),
      b: ptr('global', i32),
      ok: ptr('global', i32),
    },
    launch: { grid: 2, block: 32 },
    setup: (h) => ({
      x: h.alloc(i32, 1, 'x'),
      flags: h.alloc(i32, 1, 'flags'),
      b: h.alloc(i32, 1, 'b'),
      ok: h.alloc(i32, 2, 'ok'),
    }),
    body: (k, { x, flags, b, ok }) => {
      k.if(k.threadIdx.x.ne(0), () => k.return());
      const a = k.atomicRef(flags.at(0), 'device');
      const bs = k.atomicRef(b.at(0), bScope);
      const blk = k.blockIdx.x;
      k.if(blk.eq(0), () => {
        x.at(0).store(1);
        a.store(1);
      });
      k.if(blk.eq(1), () => {
        k.while(
          () => a.load().ne(1),
          () => {},
        );
        ok.at(1).store(k.select(x.at(0).get().eq(1), 1, 0));
        bs.store(1);
      });
    },
  });
const xabGpu = xabGpuKernel('system');

/** the x/a/b program with b's atomic at `bScope` */
const xabProgram = (bScope: 'system' | 'device') => {
  const kernel = bScope === 'system' ? xabGpu : xabGpuKernel(bScope);
  return defineProgram({
    name: bScope === 'system' ? 'xab_cpu' : 'xab_cpu_device_b',
    description:
      bScope === 'system'
        ? "seed 000's x/a/b cumulativity example with thread 3 on the CPU, through host-mapped x and b"
        : "seed 000's x/a/b example broken: b at device scope, though thread 3 is the CPU (warpsight check flags it)",
    run: (ctx) => {
      const x = ctx.hostAllocMapped(4, 'x (host-mapped)');
      const b = ctx.hostAllocMapped(4, 'b (host-mapped)');
      const flags = ctx.malloc(4, 'a');
      const ok = ctx.malloc(8, 'ok');
      ctx.host.write(x, i32, 0, 0);
      ctx.host.write(b, i32, 0, 0);
      ctx.memset(flags, 0, 4);
      ctx.memset(ok, 0, 8);
      ctx.launch(kernel, { x, flags, b, ok }, { grid: 2, block: 32 });
      // thread 3: spins on b while the kernel runs
      let polls = 0;
      while (ctx.host.readNumber(b, i32, 0) !== 1) polls++;
      ctx.value('thread 3 (CPU) saw x == 1', ctx.host.readNumber(x, i32, 0) === 1 ? 1 : 0);
      ctx.value('thread 3 (CPU) polls of b', polls);
      ctx.deviceSynchronize();
      ctx.value('thread 2 (block 1) saw x == 1', ctx.host.readNumber(ok, i32, 1));
    },
  });
};

export const xabCpu = xabProgram('system');
export const xabCpuDeviceB = xabProgram('device');

const handshake = defineKernel({
  name: 'host_handshake',
  description: 'sets ready, spins on go (written by the host program only), returns what the host sent',
  params: {
    ready: ptr('global', i32),
    go: ptr('global', i32),
    out: ptr('global', i32),
  },
  launch: { grid: 1, block: 32 },
  setup: (h) => ({
    ready: h.alloc(i32, 1, 'ready'),
    go: h.alloc(i32, 1, 'go'),
    out: h.alloc(i32, 1, 'out'),
  }),
  body: (k, { ready, go, out }) => {
    k.if(k.threadIdx.x.ne(0), () => k.return());
    k.atomicRef(ready.at(0), 'system').store(1, 'release');
    const g = k.atomicRef(go.at(0), 'system');
    k.while(
      () => g.load('acquire').eq(0),
      () => {},
    );
    out.at(0).store(g.load('relaxed').add(1));
  },
});

export const hostHandshake = defineProgram({
  name: 'host_handshake',
  description: 'a kernel waits for a value the host program writes into mapped memory while the kernel runs',
  defaults: { value: 41 },
  run: (ctx, scalars) => {
    const value = scalars.value ?? 41;
    const ready = ctx.hostAllocMapped(4, 'ready');
    const go = ctx.hostAllocMapped(4, 'go');
    const out = ctx.malloc(4, 'out');
    ctx.host.write(ready, i32, 0, 0);
    ctx.host.write(go, i32, 0, 0);
    ctx.launch(handshake, { ready, go, out }, { grid: 1, block: 32 });
    let polls = 0;
    while (ctx.host.readNumber(ready, i32, 0) !== 1) polls++;
    ctx.value('host polls until the kernel was ready', polls);
    // the kernel is spinning on go now: this write wakes it
    ctx.host.write(go, i32, 0, value);
    ctx.deviceSynchronize();
    ctx.value('kernel returned', ctx.host.readNumber(out, i32, 0));
  },
});

/** one thread follows a chain of `steps` indices: each load waits for the one before */
const chase = defineKernel({
  name: 'pointer_chase',
  description: 'one thread chasing a chain of indices (each load depends on the last)',
  params: { next: ptr('global', i32), out: ptr('global', i32), steps: i32 },
  launch: { grid: 1, block: 1 },
  defaults: { steps: 32 },
  setup: (h) => ({
    next: h.alloc(i32, 32 * 32, 'next'),
    out: h.alloc(i32, 1, 'out'),
  }),
  body: (k, { next, out, steps }) => {
    const p = k.let(i32, 0);
    k.for(0, steps, 1, () => p.set(next.at(p).get({ cache: 'cv' })));
    out.at(0).store(p);
  },
});

export const zeroCopyLatency = defineProgram({
  name: 'zero_copy_latency',
  description: 'the same dependent-load chain in host-mapped memory and in device memory (zero_copy_probe.cu on the H200: ~2,300 vs ~290 cycles a load)',
  defaults: { steps: 32 },
  run: (ctx, scalars) => {
    const steps = scalars.steps ?? 32;
    // a new 128-byte line each step
    const words = 32 * (steps + 1);
    const mapped = ctx.hostAllocMapped(4 * words, 'chain (host-mapped)');
    const device = ctx.malloc(4 * words, 'chain (device)');
    const out = ctx.malloc(4, 'out');
    for (let i = 0; i <= steps; i++) ctx.host.write(mapped, i32, 32 * i, 32 * (i + 1));
    ctx.memcpy(device, mapped, 4 * words);
    ctx.launch(chase, { next: mapped, out, steps }, { grid: 1, block: 1 });
    ctx.launch(chase, { next: device, out, steps }, { grid: 1, block: 1 });
    ctx.deviceSynchronize();
    ctx.value('chain end', ctx.host.readNumber(out, i32, 0));
  },
});
