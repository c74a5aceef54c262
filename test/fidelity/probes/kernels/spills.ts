/**
 * The register-spill probe (test/fidelity/probes/spills/spill_probe.cu, measured on the H200): K float
 * accumulators loaded before a 16-trip loop that updates each from its neighbour, so all K are live
 * across the loop; 128 blocks of 256 threads. `registers` is the limit the probe was built with
 * (-maxrregcount, as __launch_bounds__ would set one): where it is below what the loop needs, ptxas
 * spills (probes/spills/README.md). Warpsight takes the limit for occupancy only: it does not spill.
 */
import { defineKernel, f32, i32, ptr, type Val } from 'warpsight';

const N = 32768;
const TRIPS = 16;

export function accumulators(k: number, registers: number) {
  return defineKernel({
    name: `acc${k}_r${registers}`,
    description: `${k} accumulators live across a loop, built for ${registers} registers`,
    params: { in: ptr('global', f32), out: ptr('global', f32) },
    launch: { grid: N / 256, block: 256 },
    registers,
    setup: (h) => ({ in: h.alloc(f32, 48 * N, 'in'), out: h.alloc(f32, N, 'out') }),
    body: (kb, { in: input, out }) => {
      const t = kb.blockIdx.x.mul(kb.blockDim.x).add(kb.threadIdx.x).cast(i32);
      const a = Array.from({ length: k }, (_, j) => kb.let(f32, input.at(t.add(j * N)).get()));
      // a[j] = a[j] * 1.0001f + a[(j + 1) % K], in order: a[K-1] takes the new a[0], as the C does
      kb.for(0, TRIPS, 1, () => {
        for (let j = 0; j < k; j++) (a[j] as ReturnType<typeof kb.let>).set((a[j] as Val).mul(1.0001).add(a[(j + 1) % k] as Val));
      });
      let s: Val = kb.f32(0);
      for (const x of a) s = s.add(x);
      out.at(t).store(s);
    },
  });
}
