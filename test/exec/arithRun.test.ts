/**
 * Straight runs of arithmetic are compiled into one lane loop (codegen.ts genArithRun) and run whole
 * when the turn has room (scheduler.ts): the results must be those of one instruction at a time, the
 * value a register holds (f32 rounded, 32-bit wrapped) carried from one statement to the next, and a
 * masked move leaving inactive lanes alone. The loops make the warps' turns end at every place in the
 * runs, so the instruction-by-instruction path runs them too. References are computed on the host.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type KernelBuilder, type ScalarType, type Val, defineKernel, f32, i32, ptr, u32 } from '../../src/api.js';
import { profileDefinitions } from '../../src/profile.js';

const FILE = fileURLToPath(import.meta.url);
const N = 2 * 96;
const TRIPS = 7;
/** a kernel of 2 x 96 threads whose thread t stores body(t) to out[t], checked against want(t) on the host */
function profileChain(name: string, elem: ScalarType, want: (t: number) => number, body: (k: KernelBuilder, t: Val) => Val) {
  const kernel = defineKernel({
    name,
    params: { out: ptr('global', elem) },
    launch: { grid: 2, block: 96 },
    setup: (h) => ({ out: h.alloc(elem, N, 'out') }),
    check: (h, { out }) => {
      for (let t = 0; t < N; t++) if (h.readNumber(out, elem, t) !== want(t)) return `out[${t}] = ${h.readNumber(out, elem, t)}, expected ${want(t)}`;
      return null;
    },
    body: (k, { out }) => {
      const t = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x);
      out.at(t.cast(i32)).store(body(k, t));
    },
  });
  const k = profileDefinitions([kernel], { file: FILE }).kernels[0];
  if (!k) throw new Error('no kernel');
  return k;
}

/** host twin of the f32 chain: every step rounded to float32 as the register holds it */
function f32Chain(t: number): number {
  const f = Math.fround;
  let acc = f(1);
  for (let r = 0; r < TRIPS; r++) {
    const a = f(f(t) * f(0.1));
    const b = f(f(a + f(r)) * f(1.0000001));
    const c = f(f(b * b) - f(a / f(3)));
    acc = f(f(acc * f(0.5)) + c);
  }
  return acc;
}

/** host twin of the u32 chain: products wrap at 32 bits, shifts and compares unsigned */
function u32Chain(t: number): number {
  let x = t >>> 0;
  for (let r = 0; r < TRIPS; r++) {
    const h = Math.imul(x, 0x9e3779b1) >>> 0;
    const s = (h >>> 7) ^ (h << 3);
    x = (s >>> 0 > 0x80000000 ? s - 12345 : s + r) >>> 0;
  }
  return x;
}

describe('fused arithmetic runs', () => {
  it('f32: each result rounded as its register holds it', () => {
    const k = profileChain('f32_chain', f32, f32Chain, (k, t) => {
      const acc = k.let(f32, 1);
      k.for(0, TRIPS, 1, (r) => {
        const a = t.cast(f32).mul(0.1);
        const b = a.add(r.cast(f32)).mul(1.0000001);
        const c = b.mul(b).sub(a.div(3));
        acc.set(acc.mul(0.5).add(c));
      });
      return acc;
    });
    expect(k.check).toEqual({ passed: true });
  });

  it('u32: products wrap and compares are unsigned inside a run', () => {
    const k = profileChain('u32_chain', u32, u32Chain, (k, t) => {
      const x = k.let(u32, t);
      k.for(0, TRIPS, 1, (r) => {
        const h = x.mul(0x9e3779b1);
        const s = h.shr(7).xor(h.shl(3));
        x.set(k.select(s.gt(0x80000000), s.sub(12345), s.add(r.cast(u32))));
      });
      return x;
    });
    expect(k.check).toEqual({ passed: true });
  });

  it('a masked move under a thread-dependent condition leaves the other lanes, and the run after it reads the register', () => {
    const want = (t: number): number => {
      let v = t;
      for (let r = 0; r < TRIPS; r++) {
        if (t % 3 === 0) v = (v * 3 + r) | 0;
        v = (v + 1) | 0;
      }
      return (v * 2) | 0;
    };
    const k = profileChain('masked_runs', i32, want, (k, tu) => {
      const t = tu.cast(i32);
      const v = k.let(i32, t);
      k.for(0, TRIPS, 1, (r) => {
        k.if(t.rem(3).eq(0), () => v.set(v.mul(3).add(r)));
        v.set(v.add(1));
      });
      return v.mul(2);
    });
    expect(k.check).toEqual({ passed: true });
    // the if is short, so it is predicated as nvcc does (compile.ts ifConverts): the move runs under the
    // predicate, the warps do not branch; the loop's guard and back-edges are the only branches
    expect(Number(k.metrics['smsp__sass_branch_targets_threads_divergent.sum'])).toBe(0);
    expect(Number(k.metrics['smsp__sass_inst_executed_op_branch.sum'])).toBe(6 * (TRIPS + 1));
  });
});
