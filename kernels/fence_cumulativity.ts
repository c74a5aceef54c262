/**
 * Seed 000 (CUDA Programming Guide §4.14.1, memory fence interference): the x/a/b example of
 * cumulativity, with "thread 3" a third block instead of a CPU thread (host-mapped memory is not
 * modelled here).
 *
 *   x = 0 (plain int); a: cuda::atomic<int, thread_scope_device>; b: cuda::atomic<int, thread_scope_system>
 *   block 0 (thread 1):  x = 1;  a = 1;
 *   block 1 (thread 2):  while (a != 1);  assert(x == 1);  b = 1;
 *   block 2 (thread 3):  while (b != 1);  assert(x == 1);
 *
 * The memory model guarantees both asserts. Block 1's release of b at system scope must make visible
 * not only its own writes but every write it has observed (x, through a): cumulativity. The hardware
 * cannot know which writes those are, so the system-scope fence in front of `b = 1` waits for a
 * conservatively wide set of writes in flight (MEMBAR.SC.SYS: 1159 cycles on the H200 against 391 at
 * device scope). The asserts are written to `ok` (1 = held) and checked on the host.
 */
import { defineKernel, i32, ptr } from 'warpsight';

export const xabCumulativity = defineKernel({
  name: 'xab_cumulativity',
  description: 'seed 000: x written by block 0, published by a device-scope flag a, republished by block 1 through a system-scope flag b to block 2',
  params: { x: ptr('global', i32), flags: ptr('global', i32), ok: ptr('global', i32) },
  launch: { grid: 3, block: 32 },
  setup: (h) => ({ x: h.alloc(i32, 32, 'x'), flags: h.alloc(i32, 64, 'flags'), ok: h.alloc(i32, 3, 'ok') }),
  check: (h, { ok }) => {
    for (const b of [1, 2]) if (h.readNumber(ok, i32, b) !== 1) return `block ${b} saw x != 1 after its acquire (ok[${b}] = ${h.readNumber(ok, i32, b)})`;
    return null;
  },
  body: (k, { x, flags, ok }) => {
    // one thread per block, as in the seed; a and b on lines of their own
    k.if(k.threadIdx.x.ne(0), () => k.return());
    const a = k.atomicRef(flags.at(0), 'device');
    const b = k.atomicRef(flags.at(32), 'system');
    const blk = k.blockIdx.x;
    k.if(blk.eq(0), () => {
      x.at(0).store(1);
      a.store(1);
    });
    k.if(blk.eq(1), () => {
      k.while(() => a.load().ne(1), () => {});
      ok.at(1).store(k.select(x.at(0).get().eq(1), 1, 0));
      b.store(1);
    });
    k.if(blk.eq(2), () => {
      k.while(() => b.load().ne(1), () => {});
      ok.at(2).store(k.select(x.at(0).get().eq(1), 1, 0));
    });
  },
});
