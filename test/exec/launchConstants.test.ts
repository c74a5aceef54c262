/**
 * Arithmetic on a launch's parameters and launch-constant special registers alone is computed once
 * when the launch is compiled (src/exec/launchConstants.ts): its registers hold the values it would
 * compute in every lane, a k.let() variable and anything a thread's or block's index reaches stay
 * each warp's own, and the instructions still count.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defineKernel, f32, i32, i64, ptr } from '../../src/api.js';
import type { ExecEnv } from '../../src/exec/env.js';
import { launchConstants } from '../../src/exec/launchConstants.js';
import { buildKernel } from '../../src/profile/launch.js';
import { profileDefinitions } from '../../src/profile.js';

const FILE = fileURLToPath(import.meta.url);
const N = 64;
const ARGS = { n: 5, big: 3_000_000_000, s: 1.5 };

const kernel = defineKernel({
  name: 'parameter_arithmetic',
  params: { out: ptr('global', i32), out64: ptr('global', i64), outf: ptr('global', f32), n: i32, big: i64, s: f32 },
  launch: { grid: 2, block: N },
  defaults: ARGS,
  setup: (h) => ({ out: h.alloc(i32, 2 * N, 'out'), out64: h.alloc(i64, 2 * N, 'out64'), outf: h.alloc(f32, 2 * N, 'outf') }),
  check: (h, { out, out64, outf }) => {
    const scale = ARGS.n * 3 + N;
    for (let g = 0; g < 2 * N; g++) {
      const t = g % N;
      const want = [t + scale + (ARGS.n > 4 ? scale : ARGS.n) + ARGS.n * scale, ARGS.n * ARGS.big + g, Math.fround(ARGS.s * 2.5) + t];
      const got = [h.readNumber(out, i32, g), h.readNumber(out64, i64, g), h.readNumber(outf, f32, g)].map(Number);
      if (got.some((v, j) => v !== want[j])) return `thread ${g}: ${got.join(', ')}, expected ${want.join(', ')}`;
    }
    return null;
  },
  body: (k, { out, out64, outf, n, big, s }) => {
    const t = k.threadIdx.x.cast(i32);
    const g = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x).cast(i32);
    // launch constants: n * 3 + blockDim.x, a select on n, n as 64 bits times big, s * 2.5
    const scale = n.mul(3).add(k.blockDim.x.cast(i32));
    const pick = k.select(n.gt(4), scale, n);
    const wide = n.cast(i64).mul(big);
    const f = s.mul(2.5);
    // a k.let() variable: each warp's own, though only launch constants reach it
    const acc = k.let(i32, 0);
    k.for(0, n, 1, () => acc.set(acc.add(scale)));
    out.at(g).store(t.add(scale).add(pick).add(acc));
    out64.at(g).store(wide.add(g.cast(i64)));
    outf.at(g).store(f.add(t.cast(f32)));
  },
});

describe('launch constants', () => {
  it('computes what every lane computed', () => {
    expect(profileDefinitions([kernel], { file: FILE }).kernels[0]?.check).toEqual({ passed: true });
  });

  it('takes the parameters’ arithmetic, not a k.let() variable nor what an index reaches', () => {
    const ir = buildKernel(kernel, FILE);
    const env = { args: ARGS, grid: [2, 1, 1], block: [N, 1, 1], dynamicSharedBase: 0 } as Pick<ExecEnv, 'args' | 'grid' | 'block' | 'dynamicSharedBase'>;
    const c = launchConstants(ir, env as ExecEnv);
    // n*3, + blockDim.x (its cvt), n > 4, the select, n as i64, * big, s * 2.5
    expect([...c.derived].map((i) => i.op)).toEqual(['binary', 'cvt', 'binary', 'cmp', 'select', 'cvt', 'binary', 'binary']);
  });
});
