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
import { getArch } from '../../src/arch/index.js';
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
/** a shared counter (ATOMS: ret_probe's add_sh), copied out to g[0] by thread 0 at the end */
const sharedCounter: Body = (k, g, fn, t) => {
  const s = k.shared(i32, [1], 's');
  k.if(t.eq(0), () => s.at(0).store(0));
  k.syncthreads();
  const r = s.at(0).atomic(fn, t);
  k.syncthreads();
  k.if(t.eq(0), () => g.at(0).store(s.at(0).get()));
  return r;
};
/** under a branch only the even lanes take: never a full warp (ret_probe's add_if) */
const evenLanes: Body = (k, g, fn, t) => {
  const r = k.let(i32, -1);
  k.if(t.and(1).eq(0), () => r.set(g.at(0).atomic(fn, t)));
  return r;
};
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
    kernel('shared', 64, 'add', sharedCounter, prefixes(64, (t) => t)),
    kernel('shared', 64, 'exch', sharedCounter, () => null),
    kernel('even', 64, 'add', evenLanes, (out, g) => {
      const odd = out.findIndex((v, t) => t % 2 === 1 && v !== -1);
      if (odd >= 0) return `odd thread ${odd} got ${out[odd]}`;
      // the even threads of each warp: their old values step by the even values below them
      return prefixes(64, (t) => (t % 2 === 0 ? t : 0))(out.map((v, t) => (t % 2 === 1 ? (out[t - 1] as number) + t - 1 : v)), g);
    }),
    kernel('even', 64, 'exch', evenLanes, () => null),
    // the result read by nothing: C's dropped atomicAdd, a RED to nvcc, which the IR does not make it
    // yet: one ATOMG per thread, as the exch
    kernel('dropped', 64, 'add', (k, g, fn, t) => {
      g.at(0).atomic(fn, t);
      return k.i32(0);
    }, () => null),
    kernel('dropped', 64, 'exch', (k, g, fn, t) => {
      g.at(0).atomic(fn, t);
      return k.i32(0);
    }, () => null),
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

  it('a shared counter is aggregated as a global one (ATOMS)', () => {
    expect(more('shared', INST)).toBe(2 * 20);
    expect(more('shared', BRANCHES)).toBe(2);
    // one ATOMS per warp either way; the full warp's is lane 31's alone: one wavefront
    expect(Number(get('shared_add').metrics['smsp__sass_inst_executed_op_shared_atom.sum'])).toBe(2);
  });

  it('an atomicAdd whose result nothing reads stays one per thread', () => {
    expect(more('dropped', INST)).toBe(0);
    expect(more('dropped', BRANCHES)).toBe(0);
  });

  it('half a warp under a branch takes the per-thread path', () => {
    // VOTE.ANY, ISETP, BRA per warp (the if's own branch is in both kernels)
    expect(more('even', INST)).toBe(2 * 3);
    expect(more('even', BRANCHES)).toBe(2);
    expect(more('even', DIVERGENT)).toBe(0);
  });
});

describe('the L2 slice sees one atomic per full warp', () => {
  /** 64 blocks of 256 threads, 8 atomics each on one int: per-thread (exch) or aggregated (add) */
  const contended = (fn: Fn) =>
    defineKernel({
      name: `contended_${fn}`,
      params: { g: ptr('global', i32), out: ptr('global', i32) },
      launch: { grid: 64, block: 256 },
      setup: (h: Host) => ({ g: h.alloc(i32, 1, 'g', () => 0), out: h.alloc(i32, 64 * 256, 'out', () => 0) }),
      // each warp adds 1 + 2 + ... + 32 per trip
      check: (h, { g }) => (fn === 'exch' || h.readNumber(g, i32, 0) === 8 * ((64 * 256) / 32) * 528 ? null : `g[0] = ${h.readNumber(g, i32, 0)}`),
      body: (k, { g, out }) => {
        const r = k.let(i32, 0);
        k.for(0, 8, 1, () => r.set(r.add(g.at(0).atomic(fn, k.laneId.cast(i32).add(1)))));
        out.at(k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x)).store(r);
      },
    });
  it('a value taken from the atomic waits for it, on either path', () => {
    // r = atomicAdd(...) then out[t] = r: the copy into r is no instruction (ptxas writes the
    // result into r's register), so the store waits on the atomic's result: 4 full warps (the scan),
    // 4 warps of 16 threads (the per-thread path)
    const assigned = (name: string, grid: number, block: number) =>
      defineKernel({
        name,
        params: { g: ptr('global', i32), out: ptr('global', i32) },
        launch: { grid, block },
        setup: (h: Host) => ({ g: h.alloc(i32, 1, 'g', () => 0), out: h.alloc(i32, grid * block, 'out', () => 0) }),
        body: (k, { g, out }) => {
          const t = k.threadIdx.x.cast(i32);
          const r = k.let(i32, 0);
          r.set(g.at(0).atomic('add', t));
          out.at(k.blockIdx.x.cast(i32).mul(block).add(t)).store(r);
        },
      });
    const ks = profileDefinitions([assigned('assigned_full', 1, 128), assigned('assigned_partial', 4, 16)], { file: FILE }).kernels;
    const l2 = getArch('h200').latency.l2Hit;
    for (const k of ks) {
      const waited = Number(k.metrics['smsp__warps_issue_stalled_long_scoreboard.sum']);
      console.log(`${k.name}: 4 warps wait ${waited.toFixed(0)} cycles on the long scoreboard (L2 hit latency ${l2})`);
      // each of the 4 warps waits for its atomic's round trip to the L2
      expect(waited, k.name).toBeGreaterThan(4 * l2);
    }
  });

  it('so that the same-address atomics of full warps take a fraction of the per-thread time', () => {
    const report = profileDefinitions([contended('add'), contended('exch')], { file: FILE });
    for (const k of report.kernels) expect(k.check, k.name).toEqual({ passed: true });
    const us = (n: string): number => Number(report.kernels.find((k) => k.name === n)?.metrics['gpu__time_duration.sum']) / 1000;
    console.log(`same-address atomics, 64 x 256 threads x 8: per thread (exch) ${us('contended_exch').toFixed(1)} us, aggregated (add) ${us('contended_add').toFixed(1)} us`);
    // exch: 131,072 operations of 0.73 ns one after another (~96 us); add: 4,096 (one per warp and trip)
    expect(us('contended_exch')).toBeGreaterThan(80);
    expect(us('contended_add')).toBeLessThan(us('contended_exch') / 8);
  });
});
