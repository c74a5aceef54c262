/**
 * Seed 003's lesson on fine-grained communication, measured as a round trip: two PEs bounce a value
 * back and forth, each waiting in its kernel for the other's write before it answers (the probe
 * test/fidelity/probes/nvshmem/nvsh_bench.cu k_pingpong_*, run on two NVLink-connected H200s):
 *  - pingpong_float:  nvshmem_float_p, the receiver spinning on a volatile load;
 *  - pingpong_int:    nvshmem_int_p and nvshmem_int_wait_until (its poll loop, then a __threadfence);
 *  - pingpong_signal: nvshmemx_signal_op(SET) and nvshmem_signal_wait_until.
 * A round trip is two link crossings plus each side's poll noticing the value: about 1.5 us on the
 * H200s, thousands of cycles — why a Jacobi halo sent element by element with p needs many threads in
 * flight, and why a wait is best left to a kernel that has other work.
 *
 *   warpsight profile kernels/nvshmem_pingpong.ts -k pingpong_float
 */
import { defineKernel, defineProgram, f32, i32, ptr, u64, type KernelBuilder, type Val } from 'warpsight';

type Kind = 'float' | 'int' | 'signal';

/** one side's loop: PE 0 sends first and waits for the answer; PE 1 waits, then answers */
function bounce(k: KernelBuilder, me: Val, iters: Val, send: (i: Val) => void, wait: (i: Val) => void): void {
  k.for(1, iters.add(1), 1, (i) => {
    k.if(
      me.eq(0),
      () => {
        send(i);
        wait(i);
      },
      () => {
        wait(i);
        send(i);
      },
    );
  });
}

const pingpong = (kind: Kind) =>
  defineKernel({
    name: `pingpong_${kind}_kernel`,
    description: `one thread per PE bouncing a value over the link (${kind})`,
    params: { buf: ptr('global', kind === 'float' ? f32 : kind === 'int' ? i32 : u64), iters: i32, me: i32, peer: i32, out: ptr('global', u64) },
    launch: { grid: 1, block: 1 },
    setup: () => ({}),
    body: (k, { buf, iters, me, peer, out }) => {
      const t0 = k.globalTimer();
      if (kind === 'float') {
        bounce(
          k,
          me,
          iters,
          (i) => k.shmem.p(buf, i.cast(f32), peer),
          (i) => k.doWhile(() => {}, () => buf.at(0).get({ cache: 'strong' }).ne(i.cast(f32))),
        );
      } else if (kind === 'int') {
        bounce(
          k,
          me,
          iters,
          (i) => k.shmem.p(buf, i, peer),
          (i) => k.shmem.wait_until(buf, 'eq', i),
        );
      } else {
        bounce(
          k,
          me,
          iters,
          (i) => k.shmem.signal_op(buf, i.cast(u64), 'set', peer),
          (i) => void k.shmem.signal_wait_until(buf, 'ge', i.cast(u64)),
        );
      }
      out.at(0).store(k.globalTimer().sub(t0));
    },
  });

const define = (kind: Kind) => {
  const kernel = pingpong(kind);
  return defineProgram({
    name: `pingpong_${kind}`,
    description: `round trip of a value between two PEs' kernels (${kind === 'signal' ? 'signal_op + signal_wait_until' : kind === 'int' ? 'int_p + int_wait_until' : 'float_p + a volatile spin'})`,
    pes: 2,
    defaults: { iters: 50 },
    run: async (ctx, { iters }) => {
      // the two sides bounce one value: a third PE would wait for ever (a deadlock the run reports)
      if (ctx.npes !== 2) throw new Error(`the ping-pong runs on 2 PEs (--pes 2), not ${ctx.npes}`);
      if (!Number.isInteger(iters) || (iters as number) < 1) throw new Error(`--param iters=${iters}: the number of round trips must be a whole number of at least 1`);
      const buf = ctx.shmem.malloc(8, 'pingpong');
      const out = ctx.malloc(8, 'elapsed');
      await ctx.shmem.barrierAll();
      // both kernels co-resident on their GPUs, as the probe's are (each waits for the other's)
      ctx.shmem.collectiveLaunch(kernel, { buf, iters: iters as number, me: ctx.pe, peer: 1 - ctx.pe, out }, { grid: 1, block: 1 });
      await ctx.deviceSynchronize();
      ctx.value('round trip', Number(ctx.host.readNumber(out, u64, 0)) / (iters as number), 'ns');
    },
  });
};

export const pingpongFloat = define('float');
export const pingpongInt = define('int');
export const pingpongSignal = define('signal');
