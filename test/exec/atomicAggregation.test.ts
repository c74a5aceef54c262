/**
 * nvcc's warp aggregation of atomics to one address (src/exec/atomicAggregation.ts) and the moves an
 * immediate operand takes (isel.ts), end to end: kernels written as simpleAtomicIntrinsics' C reads,
 * their warp instructions against a kernel without the atomics, the differences hand-derived from the
 * H200's SASS of simpleAtomics_testKernel (the leader: VOTEU.ANY, UFLO.U32, S2R, ISETP; POPC and an
 * IMAD for a value the same in every thread; REDUX and its move for one that differs), the results
 * checked on the host.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type KernelBuilder, type PtrVal, defineKernel, i32, ptr, u32 } from '../../src/api.js';
import { profileDefinitions } from '../../src/profile.js';

const FILE = fileURLToPath(import.meta.url);
const N = 128;
const INST = 'smsp__inst_executed.sum';
const RED = 'smsp__sass_inst_executed_op_global_red.sum';

function kernel(name: string, body: (k: KernelBuilder, g: PtrVal, t: ReturnType<KernelBuilder['i32']>) => void, want: number[]) {
  return defineKernel({
    name,
    params: { g: ptr('global', i32) },
    launch: { grid: 1, block: N },
    setup: (h) => ({ g: h.alloc(i32, 4, 'g', () => 0) }),
    check: (h, { g }) => {
      for (const [n, v] of want.entries()) if (h.readNumber(g, i32, n) !== v) return `g[${n}] = ${h.readNumber(g, i32, n)}, expected ${v}`;
      return null;
    },
    body: (k, { g }) => body(k, g, k.threadIdx.x.cast(i32)),
  });
}

describe('atomics to one address for the whole warp', () => {
  it('are aggregated as nvcc aggregates simpleAtomics_testKernel', () => {
    const report = profileDefinitions(
      [
        kernel('none', () => {}, []),
        // atomicAdd(&g[0], 10): the leader (4), POPC, IMAD; the RED
        kernel('add_const', (_k, g) => g.at(0).reduce('add', 10), [10 * N]),
        // and atomicSub(&g[1], 10): one IMAD more (the leader and the count shared)
        kernel('add_sub_const', (_k, g) => {
          g.at(0).reduce('add', 10);
          g.at(1).reduce('add', -10);
        }, [10 * N, -10 * N]),
        // atomicMax(&g[2], t): the leader, REDUX.MAX.S32 and its move; the RED
        kernel('max_var', (_k, g, t) => g.at(2).reduce('max', t), [0, 0, N - 1]),
        // an address that differs per thread: no aggregation; the immediate 1 is a move
        kernel('add_each', (_k, g, t) => g.at(t.and(3)).reduce('add', 1), [N / 4, N / 4, N / 4, N / 4]),
        // atomicInc is not aggregated: its immediate is a move
        kernel('inc_const', (_k, g) => g.as(u32).at(3).reduce('inc', 1000), [0, 0, 0, N]),
      ],
      { file: FILE },
    );
    for (const k of report.kernels) expect(k.check, k.name).toEqual({ passed: true });
    const per = (name: string, metric = INST): number => Number(report.kernels.find((k) => k.name === name)?.metrics[metric]) / (N / 32);
    // what every kernel with one atomic shares (the parameter, the thread index, the exit): add_const
    // less its leader (4), POPC, IMAD and RED
    const base = per('add_const') - (4 + 2 + 1);
    expect(per('add_sub_const') - per('add_const')).toBe(1 + 1);
    expect(per('max_var') - base).toBe(4 + 2 + 1);
    // t & 3, its address (IMAD.WIDE), the move of the 1, the RED
    expect(per('add_each') - base).toBe(1 + 1 + 1 + 1);
    expect(per('inc_const') - base).toBe(1 + 1);
    // the REDs themselves: one per warp and atomic, as before
    expect(per('add_sub_const', RED)).toBe(2);
    expect(per('max_var', RED)).toBe(1);
  });
});
