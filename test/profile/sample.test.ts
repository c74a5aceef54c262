/**
 * `--sample`'s plan, its error bound and its slice (src/profile/sample.ts), and a sampled launch end to
 * end on a grid whose blocks do different work. The ground-truth kernels against their exact runs:
 * test/fidelity/sample.test.ts.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defineKernel, i32, ptr, u32 } from '../../src/api.js';
import { getArch } from '../../src/arch/index.js';
import { profileDefinitions } from '../../src/profile.js';
import { errorBound, planSample, type SamplePlan, sliceArch } from '../../src/profile/sample.js';
import { compareSampled, exactMismatches } from '../../src/profile/sampleCompare.js';

const H200 = getArch('h200');
const FILE = fileURLToPath(import.meta.url);

function plan(grid: number, blocksPerSm: number, opts = {}): SamplePlan {
  const p = planSample(H200, [grid, 1, 1], blocksPerSm, opts);
  if (typeof p === 'string') throw new Error(p);
  return p;
}

describe('the plan', () => {
  it('takes the slice\'s share of the blocks in 2 groups of 2 windows spanning the grid', () => {
    const p = plan(16384, 8);
    // 8 of 132 SMs: round(16384 * 8 / 132) = 993 blocks
    expect(p.sms).toBe(8);
    expect(p.blocks.length).toBe(993);
    expect(p.scale).toBeCloseTo(16384 / 993, 12);
    expect(p.windowCount).toEqual([249, 248, 248, 248]);
    expect(p.windowStart[0]).toBe(0);
    expect((p.windowStart[3] as number) + (p.windowCount[3] as number)).toBe(16384);
    // each window inside its quarter of the grid, the blocks in dispatch order, none twice
    p.windowStart.forEach((s, j) => {
      expect(s).toBeGreaterThanOrEqual(j * 4096);
      expect(s + (p.windowCount[j] as number)).toBeLessThanOrEqual((j + 1) * 4096);
    });
    for (let i = 1; i < p.blocks.length; i++) expect(p.blocks[i]).toBeGreaterThan(p.blocks[i - 1] as number);
    expect(p.groupBlocks).toEqual([8192, 8192]);
  });
  it('runs exact what it cannot sample, and says why', () => {
    // 2 waves of the slice: 8 SMs x 8 blocks x 2 = 128 blocks to simulate, a 64-block grid gives 4
    expect(planSample(H200, [64, 1, 1], 8)).toMatch(/^64 blocks are too few to sample: the slice of 8 SMs would run 4 blocks, fewer than 128/);
    expect(planSample(H200, [16384, 1, 1], 8, { sms: 132 })).toMatch(/the whole GPU/);
  });
  it('bounds the error from the two windows of each group', () => {
    // one group of 8 blocks, windows of 2 blocks with per-block rates 2 and 4: estimate 8 * 3 = 24,
    // variance 8^2 * (2 - 4)^2 / 4 = 64, two standard errors 16: 66.7 % of 24
    const p: SamplePlan = { total: 8, blocks: new Int32Array([0, 1, 6, 7]), windowStart: [0, 6], windowCount: [2, 2], groupBlocks: [8], groups: 1, sms: 1, smCount: 132, scale: 2 };
    expect(errorBound(p, new Float64Array([4, 8]))).toBeCloseTo((200 * 8) / 24, 10);
    expect(errorBound(p, new Float64Array([6, 6]))).toBe(0);
  });
  it('gives the slice its share of the L2 and DRAM bandwidth and of the L2, the SMs\' own resources whole', () => {
    const s = sliceArch(H200, plan(16384, 8));
    expect(s.smCount).toBe(8);
    expect(s.dramBandwidth).toBeCloseTo((H200.dramBandwidth * 8) / 132, 6);
    expect(s.throughput.l2BytesPerCycle).toBeCloseTo((H200.throughput.l2BytesPerCycle * 8) / 132, 9);
    expect(Math.abs(s.l2Size - (H200.l2Size * 8) / 132)).toBeLessThanOrEqual(H200.l2LineSize * 16);
    expect(s.persistingL2CacheDefaultLimit).toBeCloseTo((H200.persistingL2CacheDefaultLimit * 8) / 132, 6);
    expect(s.maxWarpsPerSm).toBe(H200.maxWarpsPerSm);
    expect(s.smDispatchOrder).toHaveLength(8);
  });
});

/** 16,384 one-warp blocks; block b loops (b >> 11) times: eight bands of work across the grid */
const banded = defineKernel({
  name: 'banded',
  params: { out: ptr('global', u32), n: i32 },
  defaults: { n: 1 },
  launch: { grid: 16384, block: 32 },
  setup: (h) => ({ out: h.alloc(u32, 16384 * 32, 'out') }),
  body: (k, { out }) => {
    const i = k.blockIdx.x.mul(32).add(k.threadIdx.x);
    const acc = k.let(u32, 0);
    k.for(0, k.blockIdx.x.shr(11).cast(i32), 1, () => acc.set(acc.add(i)));
    out.at(i).store(acc);
  },
});

describe('a sampled launch of a grid whose blocks differ', () => {
  it('extrapolates within its error bound, keeps the limits exact, and is deterministic', () => {
    const exact = profileDefinitions([banded], { file: FILE }).kernels[0]!;
    const sampled = profileDefinitions([banded], { file: FILE, sample: true }).kernels[0]!;
    const again = profileDefinitions([banded], { file: FILE, sample: true }).kernels[0]!;
    expect(JSON.stringify(again)).toBe(JSON.stringify(sampled));
    expect(exact.sampled).toBeUndefined();
    const s = sampled.sampled!;
    expect(s.blocksSimulated).toBe(993);
    // the windows of each group see different bands: the bound is not 0
    expect(s.errorBound.instructions).toBeGreaterThan(1);
    expect(exactMismatches(exact, sampled)).toEqual([]);
    const inst = compareSampled(exact, sampled).find((e) => e.id === 'smsp__inst_executed.sum')!;
    expect(inst.error * 100).toBeLessThanOrEqual(s.errorBound.instructions);
    // the stores are one per thread whatever the band: exact after scaling, to rounding
    const stores = compareSampled(exact, sampled).find((e) => e.id === 'smsp__sass_inst_executed_op_global_st.sum')!;
    expect(stores.error).toBeLessThan(1e-3);
  });
});

/**
 * 1,056 blocks of 1,024 threads (2 per SM): block b >= 128 spins until block b - 128 has set its
 * flag. Exact, the block it waits for started earlier and is resident or done; sampled, the windows
 * after the first wait for blocks the sample does not run
 */
const waitsBack = defineKernel({
  name: 'waits_back',
  params: { flags: ptr('global', u32) },
  launch: { grid: 1056, block: 1024 },
  setup: (h) => ({ flags: h.alloc(u32, 1056, 'flags') }),
  check: (h, { flags }) => {
    for (let b = 0; b < 1056; b++) if (h.readNumber(flags, u32, b) !== 1) return `flags[${b}] = ${h.readNumber(flags, u32, b)}, expected 1`;
    return null;
  },
  body: (k, { flags }) => {
    const b = k.blockIdx.x;
    k.if(k.threadIdx.x.eq(0), () => {
      k.if(b.ge(128), () => k.while(() => flags.at(b.sub(128)).get({ cache: 'strong' }).eq(0), () => {}));
      flags.at(b).store(1, { cache: 'strong' });
    });
  },
});

describe('a sampled launch whose blocks wait for blocks it does not run', () => {
  it('runs exact instead of reporting a deadlock the kernel does not have, and says why', () => {
    const r = profileDefinitions([waitsBack], { file: FILE, sample: true }).kernels[0]!;
    expect(r.sampled).toBeUndefined();
    expect(r.check).toEqual({ passed: true });
    expect(r.notes[0]).toMatch(/^Not sampled \(--sample\): its sampled blocks deadlocked, waiting for blocks the sample did not run \(.*sample\.test\.ts:\d+: deadlock in kernel 'waits_back'.*\); the launch ran exact\.$/);
    expect(r.metrics['sm__ctas_launched.sum']).toBe(1056);
  });
});
