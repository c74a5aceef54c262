/**
 * Adjacent 32-bit accesses merged into 64-bit ones (src/exec/vectorize.ts) end to end: the radix-2
 * step of fastWalshTransform written as the C reads, its shared loads and stores per warp against
 * the hand-derived count (one LDS.64 and one STS.64 where the C has two of each, as the H200's SASS),
 * and the cases that must not merge; the results checked on the host.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type PtrVal, defineKernel, f32, i32, ptr } from '../../src/api.js';
import { profileDefinitions } from '../../src/profile.js';

const FILE = fileURLToPath(import.meta.url);
const N = 64;
const LDS = 'smsp__sass_inst_executed_op_shared_ld.sum';
const STS = 'smsp__sass_inst_executed_op_shared_st.sum';
const LDG = 'smsp__sass_inst_executed_op_global_ld.sum';
const LDS_WAVEFRONTS = 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum';
const IN = (i: number): number => (i * 7) % 13;

/** thread t: D0 = s[2t + off], D1 = s[2t + off + 1]; s[…] = D0 + D1, D0 - D1 (fwtBatch1Kernel's radix-2 step) */
function radix2(name: string, off: number, barrierBetween = false) {
  return defineKernel({
    name,
    params: { d: ptr('global', f32) },
    launch: { grid: 1, block: N },
    setup: (h) => ({ d: h.alloc(f32, 2 * N + 2, 'd', IN) }),
    check: (h, { d }) => {
      for (let t = 0; t < N; t++) {
        const [a, b] = [IN(2 * t + off), IN(2 * t + off + 1)];
        const got = [h.readNumber(d, f32, 2 * t + off), h.readNumber(d, f32, 2 * t + off + 1)];
        if (got[0] !== a + b || got[1] !== a - b) return `thread ${t}: ${got.join(', ')}, expected ${a + b}, ${a - b}`;
      }
      return null;
    },
    body: (k, { d }) => {
      const s = k.shared(f32, [2 * N + 2]);
      const t = k.threadIdx.x.cast(i32);
      const src = d as PtrVal;
      for (const o of [0, 1]) s.at(t.shl(1).add(o + off)).store(src.at(t.shl(1).add(o + off)).get());
      k.syncthreads();
      const i0 = t.shl(1).add(off);
      const i1 = i0.add(1);
      const D0 = s.at(i0).get();
      if (barrierBetween) k.syncthreads();
      const D1 = s.at(i1).get();
      s.at(i0).store(D0.add(D1));
      s.at(i1).store(D0.sub(D1));
      k.syncthreads();
      for (const o of [0, 1]) src.at(t.shl(1).add(o + off)).store(s.at(t.shl(1).add(o + off)).get());
    },
  });
}

describe('adjacent accesses', () => {
  it("merge into LDS.64 / STS.64 when the lower is 8-byte aligned, as fwtBatch1Kernel's s_data[2p], s_data[2p + 1]", () => {
    const report = profileDefinitions([radix2('radix2', 0), radix2('radix2_odd', 1), radix2('radix2_barrier', 0, true)], { file: FILE });
    for (const k of report.kernels) expect(k.check, k.name).toEqual({ passed: true });
    const perWarp = (name: string, metric: string): number => Number(report.kernels.find((k) => k.name === name)?.metrics[metric]) / (N / 32);
    // the fill (2 STS, and its 2 LDG: global addresses are not known to be aligned) and the copy back
    // (2 LDS) merge too: 2t and 2t + 1 of the same array. So: LDS 1 + 1, STS 1 + 1
    expect(perWarp('radix2', LDS)).toBe(2);
    expect(perWarp('radix2', STS)).toBe(2);
    expect(perWarp('radix2', LDG)).toBe(2);
    // a warp's LDS.64 of 256 consecutive bytes: 2 wavefronts, as the two LDS it replaces
    expect(perWarp('radix2', LDS_WAVEFRONTS)).toBe(2 * 2);
    // s[2t + 1], s[2t + 2]: the lower is 4 bytes past an 8-byte boundary, nothing merges
    expect(perWarp('radix2_odd', LDS)).toBe(4);
    expect(perWarp('radix2_odd', STS)).toBe(4);
    // a barrier between the two loads: they stay two (the stores still merge)
    expect(perWarp('radix2_barrier', LDS)).toBe(1 + 2);
    expect(perWarp('radix2_barrier', STS)).toBe(2);
  });
});
