/**
 * nvcc's warp aggregation of a returning atomicAdd to one address (src/exec/atomicAggregation.ts),
 * end to end: each kernel against the same kernel with atomicExch (never aggregated, the same
 * operands and address: test/fidelity/probes/atomics/ret_probe.cu's exch_v), the differences
 * hand-derived from the H200's SASS (ret_probe_sass.txt, ret_probe2_sass.txt, filter_arr in the
 * cuda-samples SASS), the old values each thread gets checked on the host.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type Host, type KernelBuilder, type PtrVal, type Val, defineKernel, i32, ptr } from '../../src/api.js';
import { profileDefinitions } from '../../src/profile.js';
import type { KernelResult } from '../../types/report.schema.js';

const FILE = fileURLToPath(import.meta.url);
const INST = 'smsp__inst_executed.sum';
const BRANCHES = 'smsp__sass_branch_targets.sum';
const DIVERGENT = 'smsp__sass_branch_targets_threads_divergent.sum';
const PRED_ON = 'smsp__thread_inst_executed_pred_on.sum';
const ATOM = 'smsp__sass_inst_executed_op_global_atom.sum';

type Fn = 'add' | 'exch';
type Body = (k: KernelBuilder, g: PtrVal, fn: Fn, t: Val) => Val;

/**
 * out[t] = what thread t's atomic(s) returned; `want(h, out, g)` checks the add's results (null: ok)
 */
function kernel(name: string, block: number, fn: Fn, body: Body, want: (out: number[], g: number[]) => string | null) {
  return defineKernel({
    name: `${name}_${fn}`,
    params: { g: ptr('global', i32), out: ptr('global', i32) },
    launch: { grid: 1, block },
    setup: (h: Host) => ({ g: h.alloc(i32, 4, 'g', () => 0), out: h.alloc(i32, block, 'out', () => 0) }),
    check: (h, { g, out }) => {
      if (fn !== 'add') return null;
      const o = Array.from({ length: block }, (_, j) => h.readNumber(out, i32, j));
      return want(o, [0, 1, 2, 3].map((j) => h.readNumber(g, i32, j)));
    },
    body: (k, { g, out }) => {
      const t = k.threadIdx.x.cast(i32);
      out.at(t).store(body(k, g, fn, t));
    },
  });
}

/**
 * each warp's threads got the counter's value before the warp's atomic plus the values of the threads
 * below them in the warp (`value(t)`), and the warps' atomics came one after another: sorted by what
 * they found, each found the sum of those before
 */
function prefixes(block: number, value: (t: number) => number) {
  return (out: number[], g: number[]): string | null => {
    const bases: { base: number; total: number }[] = [];
    for (let w = 0; w * 32 < block; w++) {
      let run = out[w * 32] as number;
      for (let t = w * 32; t < Math.min(block, w * 32 + 32); t++) {
        if (out[t] !== run) return `thread ${t} got ${out[t]}, expected ${run} (its warp's first thread's value plus those below it)`;
        run += value(t);
      }
      bases.push({ base: out[w * 32] as number, total: run - (out[w * 32] as number) });
    }
    bases.sort((a, b) => a.base - b.base);
    let sum = 0;
    for (const b of bases) {
      if (b.base !== sum) return `a warp found ${b.base}, expected ${sum}`;
      sum += b.total;
    }
    return g[0] === sum ? null : `g[0] = ${g[0]}, expected ${sum}`;
  };
}

const perLane: Body = (_k, g, fn, t) => g.at(0).atomic(fn, t);
const one: Body = (_k, g, fn) => g.at(0).atomic(fn, 1);
const five: Body = (_k, g, fn) => g.at(0).atomic(fn, 5);
const twoOnes: Body = (_k, g, fn) => g.at(0).atomic(fn, 1).add(g.at(0).atomic(fn, 1));

describe('a returning atomicAdd to one address for the whole warp', () => {
  const cases = [
    kernel('scan', 128, 'add', perLane, prefixes(128, (t) => t)),
    kernel('scan', 128, 'exch', perLane, () => null),
    // a full warp and one of 16 threads
    kernel('partial', 48, 'add', perLane, prefixes(48, (t) => t)),
    kernel('partial', 48, 'exch', perLane, () => null),
    kernel('one', 128, 'add', one, prefixes(128, () => 1)),
    kernel('one', 128, 'exch', one, () => null),
    kernel('five', 128, 'add', five, prefixes(128, () => 5)),
    kernel('five', 128, 'exch', five, () => null),
    kernel('two', 64, 'add', twoOnes, (out, g) => (g[0] === 128 && out.every((v, t) => v === 2 * (t % 32) + (out[t - (t % 32)] as number)) ? null : `g[0] = ${g[0]}, out = ${out.join(',')}`)),
    kernel('two', 64, 'exch', twoOnes, () => null),
  ];
  const report = profileDefinitions(cases, { file: FILE });
  const get = (name: string): KernelResult => {
    const k = report.kernels.find((x) => x.name === name);
    if (!k) throw new Error(`no kernel ${name}`);
    return k;
  };
  /** what the add kernel runs beyond the exch kernel, in a metric */
  const more = (name: string, metric: string): number => Number(get(`${name}_add`).metrics[metric]) - Number(get(`${name}_exch`).metrics[metric]);

  it('gives each thread its old value: the counter before the warp plus the values of the threads below it', () => {
    for (const k of report.kernels) expect(k.check, k.name).toEqual({ passed: true });
  });

  it('a value that differs per thread: the full-warp test, and the scan where the whole warp is there', () => {
    // per full warp: VOTE.ANY, ISETP, @!P BRA, the scan (IMAD.MOV, S2R, ISETP, 5 x SHFL.UP + IADD3),
    // lane 31's ATOMG, SHFL.UP, SHFL.IDX, IADD3: 2 + 1 + 13 + 1 + 3 (the per-thread ATOMG, predicated
    // off, is the exch kernel's ATOMG)
    expect(more('scan', INST)).toBe(4 * 20);
    expect(more('scan', BRANCHES)).toBe(4);
    expect(more('scan', DIVERGENT)).toBe(0);
    // threads: the test 2 x 32, the scan 3 x 32 + 5 x 32 + (31 + 30 + 28 + 24 + 16) in its adds,
    // lane 31's atomic 1, SHFL.UP and SHFL.IDX 2 x 32, the last add 31; the ATOMG and BRA of a
    // full warp none; less the exch's 32
    expect(more('scan', PRED_ON)).toBe(4 * (64 + 96 + 160 + 129 + 1 + 64 + 31 - 32));
    // one ATOMG per warp on either path, as for the exch
    expect(more('scan', ATOM)).toBe(0);
    expect(Number(get('scan_add').metrics[ATOM])).toBe(4);
  });

  it('a warp not all there takes each thread\'s own atomic and branches past the scan', () => {
    // the full warp as above; the one of 16: VOTE.ANY, ISETP, BRA
    expect(more('partial', INST)).toBe(20 + 3);
    expect(more('partial', BRANCHES)).toBe(2);
    expect(more('partial', PRED_ON)).toBe(64 + 96 + 160 + 129 + 1 + 64 + 31 - 32 + (2 * 16 + 16));
  });

  it('a value the same in every thread: the leader\'s atomic of the count, no branch', () => {
    // add: S2R, VOTEU.ANY, FLO.U32, ISETP (the leader), POPC, the ATOMG, S2R, LOP3.LUT, POPC (the
    // rank), SHFL.IDX, IADD3; exch: a MOV of the 1 and the ATOMG
    expect(more('one', INST)).toBe(4 * (11 - 2));
    expect(more('one', BRANCHES)).toBe(0);
    // the ATOMG is the leader's: one thread of 32
    expect(more('one', PRED_ON)).toBe(4 * (10 * 32 + 1 - 2 * 32));
    // 5: the count times 5 (IMAD) before, and IMAD for old + rank x 5
    expect(more('five', INST)).toBe(4 * (12 - 2));
    // two in one block share the leader, the count and the rank (ret_probe2's add_1x2): each its ATOMG,
    // SHFL.IDX and IADD3
    expect(more('two', INST)).toBe(2 * (4 + 1 + 3 + 2 * 3 - 2 * 2));
  });
});
