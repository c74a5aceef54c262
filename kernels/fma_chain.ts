/**
 * An ALU-bound kernel: every thread runs a dependent chain of fused multiply-adds on its value
 * (the shape of micro.cu's div_loop_uniform_trip, without the divergence). Used by `npm run bench`
 * as the ALU-heavy workload.
 */
import { defineKernel, f32, ptr, u32 } from 'warpsight';

const N = 1 << 20;

function hostChain(x: number, trips: number): number {
  let v = Math.fround(x);
  for (let t = 0; t < trips; t++) v = Math.fround(Math.fround(v * Math.fround(1.0001)) + 0.5);
  return v;
}

export default defineKernel({
  name: 'fma_chain',
  description: 'a dependent FMA chain of `trips` iterations per thread (ALU-bound)',
  params: { in: ptr('global', f32), out: ptr('global', f32), trips: u32 },
  defaults: { trips: 64 },
  launch: { grid: N / 256, block: 256 },
  setup: (h) => ({
    in: h.alloc(f32, N, 'in', (i) => 1 + (i % 1000) * 0.001),
    out: h.alloc(f32, N, 'out'),
  }),
  check: (h, { in: src, out, trips }) => {
    for (let i = 0; i < N; i += 4099) {
      const want = hostChain(h.readNumber(src, f32, i), trips);
      const got = h.readNumber(out, f32, i);
      if (Math.abs(got - want) > 1e-5 * Math.max(1, Math.abs(want))) return `out[${i}] = ${got}, expected ${want}`;
    }
    return null;
  },
  body: (k, { in: src, out, trips }) => {
    const i = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x);
    const x = k.let(f32, src.at(i).get());
    k.for(0, trips, 1, () => x.set(x.fma(1.0001, 0.5)));
    out.at(i).store(x);
  },
});
