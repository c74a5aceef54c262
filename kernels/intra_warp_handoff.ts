/**
 * Independent thread scheduling (Volta+; issue 39, seed 002): one lane of a warp waits for another
 * lane of the same warp. Lane 0 spins on a flag that lane 1 sets in the other side of the branch:
 *
 *   if (lane == 0) { while (flag.load(acquire) == 0); out[0] = data; }   // consumer
 *   else if (lane == 1) { data = 42; flag.store(1, release); }            // producer
 *
 * Before Volta a warp ran one side of a diverged branch to its end before the other: the consumer
 * spun for ever (the producer's side never ran). Since Volta each thread has its own program counter
 * and the scheduler interleaves the diverged paths, so the consumer's spin ends. Warpsight runs the
 * paths of a branch one after the other as nvcc's BSSY/BSYNC order them, and switches to the other path
 * when the current one spins without effect (src/exec/warp.ts, switchPath): the consumer spins about
 * a thousand instructions, the producer runs, the consumer sees the flag.
 *
 * The flag is a block-scope atomic: both threads are in one block (one warp). Each block has its own
 * flag and data; `out[b]` must be 42 for every block.
 *
 *   warpsight profile kernels/intra_warp_handoff.ts
 */
import { defineKernel, i32, ptr } from 'warpsight';

export const intraWarpHandoff = defineKernel({
  name: 'intra_warp_handoff',
  description: 'lane 0 waits for a flag that lane 1 of the same warp sets on the other side of the branch (needs independent thread scheduling)',
  params: { flags: ptr('global', i32), data: ptr('global', i32), out: ptr('global', i32) },
  launch: { grid: 4, block: 32 },
  setup: (h) => ({ flags: h.alloc(i32, 4, 'flags'), data: h.alloc(i32, 4, 'data'), out: h.alloc(i32, 4, 'out') }),
  check: (h, { out }) => {
    for (let b = 0; b < 4; b++) {
      const v = h.readNumber(out, i32, b);
      if (v !== 42) return `block ${b}: lane 0 read data = ${v} after lane 1's release (expected 42)`;
    }
    return null;
  },
  body: (k, { flags, data, out }) => {
    const b = k.blockIdx.x;
    const lane = k.laneId;
    const flag = k.atomicRef(flags.at(b), 'block');
    k.if(
      lane.eq(0),
      () => {
        // the consumer: spins until the producer lane's release
        k.while(() => flag.load('acquire').eq(0), () => {});
        out.at(b).store(data.at(b).get());
      },
      () => {
        k.if(lane.eq(1), () => {
          data.at(b).store(42);
          flag.store(1, 'release');
        });
      },
    );
  },
});
