/**
 * cuda::barrier (mbarrier) arrive/wait: a block's warps hand data through shared memory with an
 * mbarrier instead of __syncthreads(); the counts of the SYNCS instructions follow from the kernel.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defineKernel, i32, mbarrier, ptr } from '../../src/api.js';
import { profileDefinitions } from '../../src/profile.js';

const FILE = fileURLToPath(import.meta.url);
const T = 256;

describe('cuda::barrier arrive/wait (mbarrier)', () => {
  // __shared__ int s[256]; __shared__ barrier bar; if (tid == 0) init(&bar, 256); __syncthreads();
  // s[tid] = tid * 3; bar.arrive_and_wait(); out[tid] = s[255 - tid]; then a second phase the same way
  const handoff = defineKernel({
    name: 'mbar_handoff',
    params: { out: ptr('global', i32) },
    launch: { grid: 2, block: T },
    setup: (h) => ({ out: h.alloc(i32, 2 * T, 'out') }),
    check: (h, { out }) => {
      for (let b = 0; b < 2; b++)
        for (let t = 0; t < T; t++) {
          const want = (T - 1 - t) * 3 + 1;
          if (h.readNumber(out, i32, b * T + t) !== want) return `out[${b * T + t}] = ${h.readNumber(out, i32, b * T + t)}, expected ${want}`;
        }
      return null;
    },
    body: (k, { out }) => {
      const s = k.shared(i32, [T]);
      const bar = mbarrier(k);
      const t = k.threadIdx.x.cast(i32);
      k.if(t.eq(0), () => bar.init(T));
      k.syncthreads();
      s.at(t).store(t.mul(3));
      bar.arriveAndWait();
      const v = s.at(k.i32(T - 1).sub(t)).get();
      // phase 2: everyone has read before anyone writes again
      bar.arriveAndWait();
      s.at(t).store(v.add(1));
      bar.arriveAndWait();
      out.at(k.blockIdx.x.cast(i32).mul(T).add(t)).store(s.at(t).get());
    },
  });

  it('hands data between warps through three phases: one init per block, one arrive and at least one try_wait per thread and phase', () => {
    const [k] = profileDefinitions([handoff], { file: FILE }).kernels;
    expect(k?.check).toEqual({ passed: true });
    const n = (op: string, m = 'inst_executed'): number => (k?.instructions ?? []).filter((x) => x.opcode === op).reduce((s, x) => s + (x.metrics[m] ?? 0), 0);
    const warps = 2 * (T / 32);
    expect(n('SYNCS.EXCH.64', 'thread_inst_executed')).toBe(2);
    expect(n('SYNCS.ARRIVE.TRANS64.A1T0')).toBe(3 * warps);
    expect(n('SYNCS.ARRIVE.TRANS64.A1T0', 'thread_inst_executed')).toBe(3 * 2 * T);
    // the first try of every wait, and more where a warp arrived before the others
    console.log(`try_waits per warp and phase: ${n('SYNCS.PHASECHK.TRANS64.TRYWAIT') / (3 * warps)}, instructions per warp ${(k?.metrics['smsp__inst_executed.sum'] as number) / warps}`);
    expect(n('SYNCS.PHASECHK.TRANS64.TRYWAIT')).toBeGreaterThanOrEqual(3 * warps);
  });

  it('faults naming the line when a thread arrives on a barrier nobody initialised', () => {
    const bad = defineKernel({
      name: 'mbar_uninit',
      params: { out: ptr('global', i32) },
      launch: { grid: 1, block: 32 },
      setup: (h) => ({ out: h.alloc(i32, 32, 'out') }),
      body: (k) => {
        mbarrier(k).arrive();
      },
    });
    expect(() => profileDefinitions([bad], { file: FILE })).toThrow(/mbarrier\.test\.ts:\d+: arrive on an mbarrier that was not initialised/);
  });
});
