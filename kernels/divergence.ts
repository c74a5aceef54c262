/**
 * Family 3 of the H200 ground truth (micro.cu `div_*`): 4M threads (16384 x 256), each loads one
 * float, runs a loop that depends on its lane or warp, and stores the result.
 *
 * Written with the branch structure of their SASS (groundtruth/h200/sass.txt.gz): the odd/even split
 * is one `if/else` (one BRA, plus the BRA that jumps over the else at the end of the then side), each
 * side a `#pragma unroll 1` loop of n trips (a guard BRA, then one back-edge BRA per trip); the trip
 * count loops are a guard plus back-edges. That is what gives ncu's 132 branches per warp for
 * div_intra_warp (1 divergent: 99.2 % "branch efficiency") and 31 divergent back-edges out of 65 for
 * div_loop_lane_trip (52.3 %).
 */
import { type KernelBuilder, type Val, type Var, defineKernel, f32, hash32, i32, ptr } from 'warpsight';
import { G_THREADS } from './lib/groundtruth.js';

/** micro.cu's init_fill_f32: base * (1 + scale * (hash & 0xffff) / 65536), in float arithmetic */
export function fillF32(k: number, base: number, scale: number, seed: number): number {
  const h = hash32((k ^ seed) >>> 0) & 0xffff;
  const t = Math.fround(Math.fround(Math.fround(scale) * h) * (1 / 65536));
  return Math.fround(Math.fround(base) * Math.fround(1 + t));
}

/** x = fmaf(x, 1.0001f, 0.5f), n times */
function pathA(k: KernelBuilder, x: Var, n: Val): void {
  k.for(0, n, 1, () => x.set(x.fma(1.0001, 0.5)), { unroll: 1 });
}
/** x = fmaf(x, x, -0.25f) * 0.5f, n times */
function pathB(k: KernelBuilder, x: Var, n: Val): void {
  k.for(0, n, 1, () => x.set(x.fma(x, -0.25).mul(0.5)), { unroll: 1 });
}

const F1_0001 = Math.fround(1.0001);
function hostA(x: number, n: number): number {
  let v = Math.fround(x);
  for (let t = 0; t < n; t++) v = Math.fround(v * F1_0001 + 0.5);
  return v;
}
function hostB(x: number, n: number): number {
  let v = Math.fround(x);
  for (let t = 0; t < n; t++) v = Math.fround(Math.fround(v * v - 0.25) * 0.5);
  return v;
}

type Variant = 'div_intra_warp' | 'div_inter_warp' | 'div_loop_lane_trip' | 'div_loop_uniform_trip';

/** the CPU reference of micro.cu's run_div */
function expected(variant: Variant, x: number, tx: number, arg: number): number {
  switch (variant) {
    case 'div_intra_warp': return tx & 1 ? hostA(x, arg) : hostB(x, arg);
    case 'div_inter_warp': return (tx >> 5) & 1 ? hostA(x, arg) : hostB(x, arg);
    case 'div_loop_lane_trip': return hostA(x, arg * ((tx & 31) + 1));
    case 'div_loop_uniform_trip': return hostA(x, arg * 32);
  }
}

function divKernel(name: Variant, arg: number, description: string) {
  return defineKernel({
    name,
    description,
    params: { in: ptr('global', f32), out: ptr('global', f32), n: i32 },
    defaults: { n: arg },
    launch: { grid: G_THREADS / 256, block: 256 },
    registers: 16,
    setup: (h) => ({
      in: h.alloc(f32, 1 << 24, 'fin', (i) => fillF32(i, 1, 0.01, 17)),
      out: h.alloc(f32, 1 << 24, 'fout', (i) => fillF32(i, 3, 0.01, 18)),
    }),
    // micro.cu checks the first 4096 outputs
    check: (h, { in: src, out, n }) => {
      for (let t = 0; t < 4096; t++) {
        const want = expected(name, h.readNumber(src, f32, t), t % 256, n);
        const got = h.readNumber(out, f32, t);
        if (!(Math.abs(got - want) <= 1e-5 * Math.max(1, Math.abs(want)))) return `out[${t}] = ${got}, expected ${want}`;
      }
      return null;
    },
    body: (k, { in: src, out, n }) => {
      const i = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x);
      const x = k.let(f32, src.at(i).get());
      const tx = k.threadIdx.x;
      switch (name) {
        case 'div_intra_warp':
          k.if(tx.and(1).ne(0), () => pathA(k, x, n), () => pathB(k, x, n));
          break;
        case 'div_inter_warp':
          k.if(tx.shr(5).and(1).ne(0), () => pathA(k, x, n), () => pathB(k, x, n));
          break;
        case 'div_loop_lane_trip':
          pathA(k, x, n.mul(tx.and(31).add(1).cast(i32)));
          break;
        case 'div_loop_uniform_trip':
          pathA(k, x, n.mul(32));
          break;
      }
      out.at(i).store(x);
    },
  });
}

export default [
  divKernel('div_intra_warp', 64, 'odd and even lanes take two different 64-trip loops (intra-warp divergence)'),
  divKernel('div_inter_warp', 64, 'odd and even warps take two different 64-trip loops (no divergence inside a warp)'),
  divKernel('div_loop_lane_trip', 2, 'a loop of 2*(lane+1) trips: lanes leave it one by one'),
  divKernel('div_loop_uniform_trip', 2, 'a loop of 64 trips for every lane'),
];
