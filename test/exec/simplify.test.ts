/**
 * Add/subtract chains folded (src/exec/simplify.ts) and a variable the loop does not write hoisted
 * with what reads it (src/exec/hoist.ts), end to end: kernels written as the C reads, the warp
 * instructions of each against a kernel that writes the simplified form by hand (the same SASS for
 * nvcc: scanExclusiveShared's four outputs), the values checked on the host.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type KernelBuilder, type Val, defineKernel, i32, ptr } from '../../src/api.js';
import { profileDefinitions } from '../../src/profile.js';

const FILE = fileURLToPath(import.meta.url);
const N = 64;
const INST = 'smsp__inst_executed.sum';
const A = (i: number): number => ((i * 37 + 5) % 23) - 7;
const B = (i: number): number => (i * 11) % 17;

function kernel(name: string, f: (k: KernelBuilder, a: Val, b: Val) => Val, want: (a: number, b: number) => number) {
  return defineKernel({
    name,
    params: { a: ptr('global', i32), b: ptr('global', i32), out: ptr('global', i32) },
    launch: { grid: 1, block: N },
    setup: (h) => ({ a: h.alloc(i32, N, 'a', A), b: h.alloc(i32, N, 'b', B), out: h.alloc(i32, N, 'out') }),
    check: (h, { out }) => {
      for (let i = 0; i < N; i++) if (h.readNumber(out, i32, i) !== want(A(i), B(i))) return `out[${i}] = ${h.readNumber(out, i32, i)}, expected ${want(A(i), B(i))}`;
      return null;
    },
    body: (k, { a, b, out }) => {
      const i = k.threadIdx.x.cast(i32);
      out.at(i).store(f(k, a.at(i).get(), b.at(i).get()));
    },
  });
}

function perWarp(defs: ReturnType<typeof kernel>[]): Map<string, number> {
  const report = profileDefinitions(defs, { file: FILE });
  for (const k of report.kernels) expect(k.check, k.name).toEqual({ passed: true });
  return new Map(report.kernels.map((k) => [k.name, Number(k.metrics[INST]) / (N / 32)]));
}

describe('integer add/subtract chains', () => {
  it("fold as nvcc folds scan's (x + oval) - x and (y1 + oval) - y; not through a variable written between", () => {
    const m = perWarp([
      kernel('plain_b', (_k, _a, b) => b, (_a, b) => b),
      kernel('add_sub', (_k, a, b) => a.add(b).sub(a), (_a, b) => b),
      kernel('add_sub_other', (_k, a, b) => a.add(b).sub(b), (a) => a),
      kernel('plain_sum', (_k, a, b) => a.mul(3).add(b), (a, b) => 3 * a + b),
      // ((a + 3a) + b) - a = 3a + b
      kernel('chain', (_k, a, b) => a.add(a.mul(3)).add(b).sub(a), (a, b) => 3 * a + b),
      kernel(
        'through_variable',
        (k, a, b) => {
          const v = k.let(i32, a);
          const s = v.add(b);
          v.set(v.add(1));
          return s.sub(v);
        },
        (_a, b) => b - 1,
      ),
    ]);
    expect(m.get('add_sub')).toBe(m.get('plain_b'));
    expect(m.get('add_sub_other')).toBe(m.get('plain_b'));
    expect(m.get('chain')).toBe(m.get('plain_sum'));
    // v + b, v + 1 and the subtraction: three where the folded form would be one
    expect((m.get('through_variable') as number) - (m.get('plain_b') as number)).toBeGreaterThanOrEqual(3);
  });
});

describe('a variable the loop does not write', () => {
  it("is a value throughout the loop: the address it indexes is computed once, before it (scanExclusiveShared's s_Data[pos])", () => {
    const loop = (name: string, variable: boolean) =>
      defineKernel({
        name,
        params: { a: ptr('global', i32), out: ptr('global', i32), n: i32 },
        defaults: { n: 8 },
        launch: { grid: 1, block: N },
        setup: (h) => ({ a: h.alloc(i32, 2 * N, 'a', A), out: h.alloc(i32, N, 'out') }),
        check: (h, { out }) => {
          for (let i = 0; i < N; i++) {
            const want = 8 * A((2 * i + 1) % (2 * N));
            if (h.readNumber(out, i32, i) !== want) return `out[${i}] = ${h.readNumber(out, i32, i)}, expected ${want}`;
          }
          return null;
        },
        body: (k, { a, out, n }) => {
          const t = k.threadIdx.x.cast(i32);
          const s = k.shared(i32, [2 * N]);
          s.at(t).store(a.at(t).get());
          s.at(t.add(N)).store(a.at(t.add(N)).get());
          // pos = 2t; pos += 1 (a variable, as the C's), or the value 2t + 1
          let pos: Val;
          if (variable) {
            const v = k.let(i32, t.mul(2));
            v.set(v.add(1));
            pos = v;
          } else pos = t.mul(2).add(1);
          const acc = k.let(i32, 0);
          k.for(0, n, 1, () => {
            k.syncthreads();
            acc.set(acc.add(s.at(pos.rem(2 * N)).get({ volatile: true })));
          });
          out.at(t).store(acc);
        },
      });
    const report = profileDefinitions([loop('pos_variable', true), loop('pos_value', false)], { file: FILE });
    for (const k of report.kernels) expect(k.check, k.name).toEqual({ passed: true });
    const [v, c] = report.kernels.map((k) => Number(k.metrics[INST]) / (N / 32));
    // the same count: the remainder and the address leave the loop either way (per trip they would
    // be 2 x 8 trips more)
    expect(v).toBe(c);
  });
});
