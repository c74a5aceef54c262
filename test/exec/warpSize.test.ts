/**
 * k.warpSize (C's warpSize): 32, but not a compile-time constant to nvcc, so that a division by it is
 * the reciprocal sequence of the cuda-samples shfl_scan SASS (src/exec/intDivision.ts
 * LATE_RECIPROCAL, lateConstantDivision), where a division by the literal 32 is a shift or a mask.
 * Counts per warp, hand-derived from that SASS; values checked on the host.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type KernelBuilder, type Val, defineKernel, i32, ptr, u32 } from '../../src/api.js';
import { profileDefinitions } from '../../src/profile.js';

const FILE = fileURLToPath(import.meta.url);
const N = 128;
const INST = 'smsp__inst_executed.sum';

function kernel(name: string, f: (k: KernelBuilder, t: Val) => Val, want: (t: number) => number) {
  return defineKernel({
    name,
    params: { out: ptr('global', u32) },
    launch: { grid: 1, block: N },
    setup: (h) => ({ out: h.alloc(u32, N, 'out') }),
    check: (h, { out }) => {
      for (let t = 0; t < N; t++) if (h.readNumber(out, u32, t) !== want(t) >>> 0) return `out[${t}] = ${h.readNumber(out, u32, t)}, expected ${want(t) >>> 0}`;
      return null;
    },
    body: (k, { out }) => {
      const t = k.threadIdx.x;
      out.at(t).store(f(k, t));
    },
  });
}

describe('k.warpSize', () => {
  it("divides as nvcc divides by warpSize: the reciprocal once, then each division's multiply and corrections", () => {
    const report = profileDefinitions(
      [
        kernel('lit_divrem', (_k, t) => t.div(32).add(t.rem(32)), (t) => Math.floor(t / 32) + (t % 32)),
        kernel('ws_divrem', (k, t) => t.div(k.warpSize.cast(u32)).add(t.rem(k.warpSize.cast(u32))), (t) => Math.floor(t / 32) + (t % 32)),
        kernel('ws_div_srem', (k, t) => t.div(k.warpSize.cast(u32)).add(t.cast(i32).sub(64).rem(k.warpSize).cast(u32)), (t) => Math.floor(t / 32) + ((t - 64) % 32)),
        kernel('lit_eq', (_k, t) => k0(t.eq(31)), (t) => (t === 31 ? 1 : 0)),
        kernel('ws_eq', (k, t) => k0(t.eq(k.warpSize.sub(1).cast(u32))), (t) => (t === 31 ? 1 : 0)),
      ],
      { file: FILE },
    );
    for (const k of report.kernels) expect(k.check, k.name).toEqual({ passed: true });
    const perWarp = (name: string): number => Number(report.kernels.find((k) => k.name === name)?.metrics[INST]) / (N / 32);
    // by the literal: SHF.R.U32.HI + LOP3.LUT; by warpSize: the reciprocal (7), the quotient (7), the
    // remainder from it (IADD3, SEL: 2)
    expect(perWarp('ws_divrem') - perWarp('lit_divrem')).toBe(7 + 7 + 2 - 2);
    // a signed remainder of another dividend: its own sequence (9) and the subtraction (1), the
    // reciprocal shared
    expect(perWarp('ws_div_srem') - perWarp('lit_divrem')).toBe(7 + 7 + 1 + 9 - 2);
    // warpSize - 1 is the immediate 0x1f to ptxas: no instruction
    expect(perWarp('ws_eq')).toBe(perWarp('lit_eq'));
  });
});

/** a predicate as 0 / 1 */
function k0(p: Val): Val {
  return p.k.select(p, p.k.u32(1), p.k.u32(0));
}
