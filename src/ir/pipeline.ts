/**
 * cuda::pipeline<cuda::thread_scope_thread> (cuda::make_pipeline()) as libcu++ compiles it for sm_80+:
 * two 8-bit stage counters, `head` (stages committed) and `tail` (stages released).
 *   producer_acquire(): nothing to wait for in a thread-scope pipeline;
 *   memcpy_async(to, from): a cp.async (LDGSTS);
 *   producer_commit(): cp.async.commit_group (LDGDEPBAR), head + 1;
 *   consumer_wait(): wait for all but the (head - tail - 1) newest groups: the count is known only at
 *     run time, and cp.async.wait_group takes a constant, so nvcc branches to one DEPBAR.LE SB0, N per
 *     count (a binary search over 0..7, 8 for anything larger: test/fidelity/probes/cudaparts
 *     pipe_probe_sass.txt, kernel ps), which is what this builds;
 *   consumer_release(): tail + 1.
 *
 *   const pipe = pipeline(k);
 *   pipe.producerAcquire(); pipe.memcpyAsync(buf.at(s, t), src.at(i)); pipe.producerCommit();
 *   pipe.consumerWait(); ...use the oldest stage...; pipe.consumerRelease();
 */
import type { KernelBuilder, Ref, Val, Var } from './builder.js';
import { u32 } from './typesys.js';

export interface Pipeline {
  producerAcquire(): void;
  memcpyAsync(to: Ref, from: Ref, opts?: { cache?: 'ca' | 'cg' }): void;
  producerCommit(): void;
  consumerWait(): void;
  consumerRelease(): void;
}

/** cuda::make_pipeline(): a thread-scope pipeline of cp.async stages */
export function pipeline(k: KernelBuilder): Pipeline {
  const head: Var = k.let(u32, 0);
  const tail: Var = k.let(u32, 0);
  // the binary search nvcc lays out over the count of groups left in flight
  const waitFor = (n: Val, lo: number, hi: number): void => {
    if (hi - lo === 1) {
      // a leaf: lo, hi or, past the last count, 8
      k.if(n.ne(lo), () => k.if(n.ne(hi), () => k.waitPrior(8), () => k.waitPrior(hi)), () => k.waitPrior(lo));
      return;
    }
    const mid = (lo + hi + 1) >> 1;
    k.if(n.gt(mid - 1), () => waitFor(n, mid, hi), () => waitFor(n, lo, mid - 1));
  };
  return {
    producerAcquire: () => {},
    memcpyAsync: (to, from, opts) => k.copyAsync(to, from, opts),
    producerCommit: () => {
      k.commitAsyncCopies();
      head.set(head.add(1).and(0xff));
    },
    consumerWait: () => {
      // (head - tail - 1) & 0xff, as `head + ~tail`
      const n = head.add(tail.not()).and(0xff);
      waitFor(n, 0, 7);
    },
    consumerRelease: () => {
      tail.set(tail.add(1).and(0xff));
    },
  };
}
