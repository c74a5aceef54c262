/**
 * The L2 delay probe (test/fidelity/probes/l2_delay_probe.cu, measured on the H200, caches flushed
 * before each kernel): micro.cu's 4-byte copy (16384 x 256 threads, 16 MiB in, 16 MiB out) in a process
 * of its own, with a dependent chain of D FMAs between each thread's load and its store. The lines
 * reach the L2 in the same order, only more slowly: what the kernel pushes out of what ncu's replay
 * left dirty does not depend on how long it takes.
 */
import { defineKernel, f32, i32, ptr } from 'warpsight';
import { G_THREADS } from '../../../../kernels/lib/groundtruth.js';

/** the delays profiled here (the probe also ran D = 512: 284 µs, 200M warp instructions to interpret) */
export const DELAYS = [0, 8, 32, 128] as const;

const F1_0001 = Math.fround(1.0001);

function copyDelay(d: number) {
  return defineKernel({
    name: `l2d_copy_d${d}`,
    description: `4-byte copy with ${d} dependent FMAs between each thread's load and its store`,
    params: { in: ptr('global', f32), out: ptr('global', f32), d: i32 },
    defaults: { d },
    launch: { grid: G_THREADS / 256, block: 256 },
    registers: 16,
    // the probe's buffers: cudaMalloc'd in this order, set to zero
    setup: (h) => ({ in: h.alloc(f32, G_THREADS, 'in'), out: h.alloc(f32, G_THREADS, 'out') }),
    check: (h, { out, d: n }) => {
      let want = 0;
      for (let k = 0; k < n; k++) want = Math.fround(want * F1_0001 + 0.5);
      for (let t = 0; t < 4096; t++) if (h.readNumber(out, f32, t) !== want) return `out[${t}] = ${h.readNumber(out, f32, t)}, expected ${want}`;
      return null;
    },
    body: (k, { in: src, out, d: n }) => {
      const i = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x);
      const x = k.let(f32, src.at(i).get());
      // #pragma unroll 1, as the probe's C has it
      k.for(0, n, 1, () => x.set(x.fma(1.0001, 0.5)), { unroll: 1 });
      out.at(i).store(x);
    },
  });
}

export default DELAYS.map(copyDelay);
