/**
 * Runtime loops unrolled as nvcc unrolls them (src/exec/runtimeUnroll.ts), end to end: the values
 * each layout computes checked on the host for every trip count 0..40 (the remainder's 0-3 trips, the
 * blocks of 4, 8 and 16), and the branches a warp executes against the layout's count derived by hand
 * from the SASS of test/fidelity/probes/unroll/ (p1: prolog form; p2 and p3: epilog form, its 4-copy
 * loop kept and unrolled again; p4: a long trip; p5: grid-stride).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defineKernel, f32, i32, ptr } from '../../src/api.js';
import { profileDefinitions } from '../../src/profile.js';

const FILE = fileURLToPath(import.meta.url);
const BRANCHES = 'smsp__sass_inst_executed_op_branch.sum';
const LOADS = 'l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum';
const STEP = 32;
const A = (i: number): number => (i % 7) + 1;
/** the 'big' body's six loads, a column apart (no two adjacent: nothing merges) */
const WIDE = [0, 2 * STEP * 64, 4 * STEP * 64, 6 * STEP * 64, 8 * STEP * 64, 10 * STEP * 64];

type Form = 'prolog' | 'epilog' | 'epilog16' | 'kept' | 'gridstride' | 'big';

/** one warp sums a[base + t * STEP] over t < trips, each lane its own column; out[lane] = the sum */
function loop(form: Form, trips: number) {
  return defineKernel({
    name: `${form}_${trips}`,
    params: { a: ptr('global', f32), out: ptr('global', f32), base: i32, n: i32 },
    defaults: { base: 3, n: 3 + trips * STEP },
    launch: { grid: 1, block: 32 },
    setup: (h) => ({ a: h.alloc(f32, 12 * 64 * STEP, 'a', A), out: h.alloc(f32, 32, 'out') }),
    check: (h, { out }) => {
      for (let l = 0; l < 32; l++) {
        let want = 0;
        for (let t = 0; t < trips; t++) want += form === 'big' ? WIDE.reduce((x, d) => x + A(3 + l + t * STEP + d), 0) : A(3 + l + t * STEP);
        if (h.readNumber(out, f32, l) !== want) return `out[${l}] = ${h.readNumber(out, f32, l)}, expected ${want} (${trips} trips)`;
      }
      return null;
    },
    body: (k, { a, out, base, n }) => {
      const lane = k.threadIdx.x.cast(i32);
      const sum = k.let(f32, 0);
      if (form === 'epilog') {
        // for (int t = 0; t < trips; t++): an index that starts at a constant (p2), the address computed from it
        const trip = n.sub(base).div(STEP);
        k.for(0, trip, 1, (t) => sum.set(sum.add(a.at(base.add(lane).add(t.mul(STEP))).get())));
      } else if (form === 'epilog16') {
        // an integer counted from 0 beside the sum (p3's int s = 0), the address the index itself
        const count = k.let(i32, 0);
        k.for(base.add(lane), n, STEP, (p) => {
          sum.set(sum.add(a.at(p).get()));
          count.set(count.add(1));
        });
        k.when(count.ne(trips), () => sum.set(-1));
      } else if (form === 'gridstride') {
        // a run-time step: nvcc keeps the loop (p5)
        k.for(base.add(lane), n, k.blockDim.x.cast(i32), (p) => sum.set(sum.add(a.at(p).get())));
      } else if (form === 'big') {
        // six loads a trip (p4): too long a trip for ptxas to unroll the 4-copy loop again
        k.for(base.add(lane), n, STEP, (p) => {
          for (const d of WIDE) sum.set(sum.add(a.at(p.add(d)).get()));
        });
      } else k.for(base.add(lane), n, STEP, (p) => sum.set(sum.add(a.at(p).get())), form === 'kept' ? { unroll: 1 } : {});
      out.at(lane).store(sum);
    },
  });
}

/** the warp's branches in each layout, from the SASS (the loop is not the kernel's last statement) */
function branches(form: Form, t: number): number {
  if (form === 'kept' || form === 'gridstride') return 1 + t; // the guard, a back-edge per trip
  if (t === 0) return 1;
  const r = t & 3;
  const m = t - r;
  // the 4-copy loop as NVVM leaves it: a back-edge per 4 trips (p4)
  if (form === 'big') return 1 + 1 + r + 1 + m / 4;
  // the 16-trip loop runs while more than 12 are left; its back-edge once per block of 16
  const n16 = m > 12 ? Math.floor((m - 13) / 16) + 1 : 0;
  if (form === 'prolog') {
    // the tests of more than 12 and more than 4 left, the test of any left (p1)
    const main = m >= 4 ? 3 + n16 : 0;
    // guard; the remainder's test and one back-edge per remainder trip; the test of t >= 4, the main part
    return 1 + 1 + r + 1 + main;
  }
  // p2's epilog: the 4-copy loop as NVVM leaves it, then the remainder
  if (form === 'epilog') return 1 + 1 + (m >= 4 ? m / 4 : 0) + 1 + r;
  // epilog (p3): a test that main trips are left, the tests of more than 12 and more than 4, the test
  // of the last 4 and their loop's back-edge (run when 4 are left after the 16s and the 8)
  const main = m >= 4 ? 4 + n16 + (m % 8 === 4 ? 1 : 0) : 0;
  // guard; the test of t >= 4, the main part; the remainder's test and its back-edges
  return 1 + 1 + main + 1 + r;
}

describe('runtime loops unrolled as nvcc unrolls them', () => {
  const trips = Array.from({ length: 41 }, (_, t) => t);
  for (const form of ['prolog', 'epilog', 'epilog16', 'big', 'kept', 'gridstride'] as const) {
    it(`${form}: every trip count computes the C's sum; the branches are the layout's`, () => {
      const report = profileDefinitions(trips.map((t) => loop(form, t)), { file: FILE });
      for (const k of report.kernels) expect(k.check, k.name).toEqual({ passed: true });
      const got = report.kernels.map((k) => Number(k.metrics[BRANCHES]));
      expect(got).toEqual(trips.map((t) => branches(form, t)));
      // the C's loads, whatever the layout
      expect(report.kernels.map((k) => Number(k.metrics[LOADS]))).toEqual(trips.map((t) => t * (form === 'big' ? WIDE.length : 1)));
    });
  }

  it("scalarProdGPU's 4 trips: six branches and no back-edge where the C's loop takes five", () => {
    expect(branches('prolog', 4)).toBe(6);
    expect(branches('kept', 4)).toBe(5);
    const report = profileDefinitions([loop('prolog', 4), loop('kept', 4)], { file: FILE });
    expect(report.kernels.map((k) => Number(k.metrics[BRANCHES]))).toEqual([6, 5]);
  });
});
