/**
 * cuda::barrier<cuda::thread_scope_block> in shared memory, as libcu++ builds it on sm_90 (an mbarrier;
 * test/fidelity/probes/cudaparts pipe_probe_sass.txt, kernel mb):
 *   init(&bar, n)        one thread: SYNCS.EXCH.64 (mbarrier.init), then the block syncs;
 *   bar.arrive()         SYNCS.ARRIVE.TRANS64.A1T0: a token of the phase arrived in;
 *   bar.wait(token)      a try_wait (SYNCS.PHASECHK.TRANS64.TRYWAIT) and, while the phase is still
 *                        open, libcu++'s polling: 16 spins, then __nanosleep back-off measured on
 *                        %globaltimer (the constants of atomic wait, src/ir/atomics.ts, which the SASS
 *                        shows: 0x10, 0x9c40, 0x3d0900, NANOSLEEP 0xf4240);
 *   bar.arrive_and_wait() both.
 *
 *   const bar = mbarrier(k);                       // __shared__ cuda::barrier<thread_scope_block> bar;
 *   k.if(k.threadIdx.x.eq(0), () => bar.init(k.blockDim.x)); k.syncthreads();
 *   const tok = bar.arrive(); bar.wait(tok);
 */
import type { KernelBuilder, PtrVal, Val, ValLike } from './builder.js';
import { backoffStep } from './atomics.js';
import { pred, u32, u64 } from './typesys.js';

export interface Mbarrier {
  /** the barrier's address in shared memory */
  readonly addr: PtrVal;
  /** init(&bar, count): call from one thread, then sync the block */
  init(count: ValLike): void;
  arrive(): Val;
  wait(token: Val): void;
  arriveAndWait(): void;
}

export function mbarrier(k: KernelBuilder, name = 'mbarrier'): Mbarrier {
  const addr = k.shared(u64, [1], name).base;
  const wait = (token: Val): void => {
    // the first try before any timing (the SASS reads %globaltimer first)
    const start = k.globalTimer();
    const done = k.let(pred, k.mbarTest(addr, token));
    k.if(done.not(), () => {
      const count = k.let(u32, 0);
      k.doWhile(() => {
        backoffStep(k, count, start);
        done.set(k.mbarTest(addr, token));
      }, () => done.not());
    });
  };
  return {
    addr,
    init: (count) => k.mbarInit(addr, count),
    arrive: () => k.mbarArrive(addr),
    wait,
    arriveAndWait: () => wait(k.mbarArrive(addr)),
  };
}
