/**
 * The register-spill probes (test/fidelity/probes/spills/spill_probe.cu and spills2/spill_probe2.cu,
 * measured on the H200): K float accumulators loaded before a 16-trip loop, so all K are live across
 * it; 128 blocks of 256 threads. `registers` is the limit the probe was built with (-maxrregcount, as
 * __launch_bounds__ would set one): where it is below what the loop needs, ptxas spills
 * (probes/spills/README.md, probes/spills2/README.md). Warpsight takes the limit for occupancy only:
 * it does not spill. The loop's shapes (spill_probe2.cu's SHAPE):
 * 0 the ring, a[k] = a[k] * 1.0001f + a[(k + 1) % K] (spill_probe.cu's loop);
 * 1 independent, a[k] = a[k] * 1.0001f + x with x = xs[i * n + t] loaded each trip;
 * 2 far reads, a[k] = a[k] * 1.0001f + a[(k + K / 2) % K];
 * 3 the ring, and e += xs[i * n + t] * p1[i * n + t] + p2[i * n + t] each trip.
 */
import { defineKernel, f32, i32, ptr, type Val } from 'warpsight';

const N = 32768;
const TRIPS = 16;

export type SpillShape = 0 | 1 | 2 | 3;

/** the probes' launch: 128 blocks of 256 threads (`blocks` fewer: every warp runs the same code) */
export const PROBE_BLOCKS = N / 256;

export function accumulators(k: number, registers: number, shape: SpillShape = 0, blocks = PROBE_BLOCKS) {
  return defineKernel({
    name: `acc${k}_s${shape}_r${registers}`,
    description: `${k} accumulators live across a loop (shape ${shape}), built for ${registers} registers`,
    params: { in: ptr('global', f32), out: ptr('global', f32), xs: ptr('global', f32), p1: ptr('global', f32), p2: ptr('global', f32) },
    launch: { grid: blocks, block: 256 },
    registers,
    setup: (h) => {
      const xs = h.alloc(f32, TRIPS * N, 'xs');
      // spill_probe2.cu passes xs as p1 and p2 too
      return { in: h.alloc(f32, 48 * N, 'in'), out: h.alloc(f32, N, 'out'), xs, p1: xs, p2: xs };
    },
    body: (kb, { in: input, out, xs, p1, p2 }) => {
      const t = kb.blockIdx.x.mul(kb.blockDim.x).add(kb.threadIdx.x).cast(i32);
      const a = Array.from({ length: k }, (_, j) => kb.let(f32, input.at(t.add(j * N)).get()));
      const e = kb.let(f32, 0);
      // in order, as the C does: a[K-1] takes the new a[0] in the ring
      kb.for(0, TRIPS, 1, (i) => {
        const at = i.mul(N).add(t);
        const x = shape === 1 ? xs.at(at).get() : null;
        for (let j = 0; j < k; j++) {
          const other = x ?? (a[shape === 2 ? (j + k / 2) % k : (j + 1) % k] as Val);
          (a[j] as ReturnType<typeof kb.let>).set((a[j] as Val).mul(1.0001).add(other));
        }
        if (shape === 3) e.set(e.add(xs.at(at).get().mul(p1.at(at).get()).add(p2.at(at).get())));
      });
      let s: Val = e;
      for (const v of a) s = s.add(v);
      out.at(t).store(s);
    },
  });
}
