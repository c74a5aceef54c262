/**
 * The interpreter computes real results under divergence, loops, break, early return, partial warps,
 * 64-bit and float arithmetic — and counts branches and threads as ncu does.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type Val, defineKernel, f32, i32, i64, ptr, u32, u64 } from '../../src/api.js';
import { profileDefinitions } from '../../src/profile.js';
import { h200 } from '../../src/arch/data/h200.js';

const FILE = fileURLToPath(import.meta.url);
const run = (def: Parameters<typeof profileDefinitions>[0][number], params: Record<string, string> = {}) => {
  const r = profileDefinitions([def], { file: FILE, params });
  const k = r.kernels[0];
  if (!k) throw new Error('no kernel');
  return k;
};
const metric = (k: { metrics: Record<string, number | string> }, id: string) => Number(k.metrics[id]);

describe('divergent if/else', () => {
  // sides long enough that nvcc keeps the branch (a short if/else is predicated: src/exec/compile.ts
  // ifConverts); the xors cancel, the value is t's
  const long = (t: Val): Val => t.xor(0x55).xor(0x55).xor(0x33).xor(0x33).xor(0x0f).xor(0x0f);
  const kernel = defineKernel({
    name: 'odd_even',
    params: { out: ptr('global', i32) },
    launch: { grid: 4, block: 64 },
    setup: (h) => ({ out: h.alloc(i32, 256, 'out') }),
    check: (h, { out }) => {
      for (let t = 0; t < 256; t++) {
        const want = t % 2 ? t * 3 : -t;
        if (h.readNumber(out, i32, t) !== want) return `out[${t}] = ${h.readNumber(out, i32, t)}, expected ${want}`;
      }
      return null;
    },
    body: (k, { out }) => {
      const t = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x).cast(i32);
      const v = k.let(i32, 0);
      k.if(t.and(1).eq(1), () => v.set(long(t).mul(3)), () => v.set(long(t).neg()));
      out.at(t).store(v);
    },
  });
  it('computes both sides and reconverges', () => {
    const k = run(kernel);
    expect(k.check).toEqual({ passed: true });
    // one divergent BRA per warp (8 warps), plus the BRA over the else, as nvcc emits
    expect(metric(k, 'smsp__sass_branch_targets_threads_divergent.sum')).toBe(8);
    expect(metric(k, 'smsp__sass_branch_targets.sum')).toBe(16);
    expect(metric(k, 'smsp__sass_average_branch_targets_threads_uniform.pct')).toBeCloseTo(50, 6);
  });

  it('at the end of the kernel: the then side ends in EXIT, no branch over the else, no BSYNC', () => {
    const tail = run(
      defineKernel({
        ...kernel,
        name: 'odd_even_tail',
        body: (k, { out }) => {
          const t = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x).cast(i32);
          k.if(t.and(1).eq(1), () => out.at(t).store(long(t).mul(3)), () => out.at(t).store(long(t).neg()));
        },
      }),
    );
    expect(tail.check).toEqual({ passed: true });
    expect(metric(tail, 'smsp__sass_branch_targets.sum')).toBe(8);
    expect(metric(tail, 'smsp__sass_branch_targets_threads_divergent.sum')).toBe(8);
    // per warp: the then side's EXIT, the else side's (the kernel's) EXIT
    expect(metric(tail, 'smsp__inst_executed_op_branch.sum') - metric(tail, 'smsp__sass_inst_executed_op_branch.sum')).toBe(8 * 2);
  });
});

describe('loops', () => {
  // micro.cu's div_loop_lane_trip: trip count 2 * (lane + 1)
  const kernel = defineKernel({
    name: 'lane_trip',
    params: { out: ptr('global', u32) },
    launch: { grid: 2, block: 64 },
    setup: (h) => ({ out: h.alloc(u32, 128, 'out') }),
    check: (h, { out }) => {
      for (let t = 0; t < 128; t++) if (h.readNumber(out, u32, t) !== 2 * ((t % 32) + 1)) return `out[${t}] wrong`;
      return null;
    },
    body: (k, { out }) => {
      const t = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x);
      const trips = k.laneId.add(1).mul(2);
      const n = k.let(u32, 0);
      k.for(0, trips, 1, () => n.set(n.add(1)));
      out.at(t).store(n);
    },
  });
  it('runs lane-dependent trip counts and counts divergent back-edges', () => {
    const k = run(kernel);
    expect(k.check).toEqual({ passed: true });
    // per warp: a guard branch + 64 back-edges; 31 of the back-edges split the warp (trips 2..62)
    expect(metric(k, 'smsp__sass_branch_targets.sum')).toBe(4 * 65);
    expect(metric(k, 'smsp__sass_branch_targets_threads_divergent.sum')).toBe(4 * 31);
  });

  // #pragma unroll: the same sums, with the loop laid out trip by trip
  const unrolled = (unroll: boolean) =>
    defineKernel({
      name: unroll ? 'sum_unrolled' : 'sum_loop',
      params: { out: ptr('global', u32) },
      launch: { grid: 2, block: 64 },
      setup: (h) => ({ out: h.alloc(u32, 128, 'out') }),
      check: (h, { out }) => {
        for (let t = 0; t < 128; t++) if (h.readNumber(out, u32, t) !== 5 * t + (1 + 4 + 7 + 10 + 13)) return `out[${t}] = ${h.readNumber(out, u32, t)}`;
        return null;
      },
      body: (k, { out }) => {
        const t = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x);
        const n = k.let(u32, 0);
        k.for(1, 14, 3, (i) => n.set(n.add(t).add(i.cast(u32))), { unroll });
        out.at(t).store(n);
      },
    });
  it('unrolls a loop with constant bounds: same results, no branch, no loop overhead', () => {
    const loop = run(unrolled(false));
    const flat = run(unrolled(true));
    expect(loop.check).toEqual({ passed: true });
    expect(flat.check).toEqual({ passed: true });
    // per warp: a guard branch + 5 back-edges in the loop; none unrolled
    expect(metric(loop, 'smsp__sass_branch_targets.sum')).toBe(4 * 6);
    expect(metric(flat, 'smsp__sass_branch_targets.sum')).toBe(0);
    expect(metric(flat, 'smsp__inst_executed.sum')).toBeLessThan(metric(loop, 'smsp__inst_executed.sum'));
  });

  // nvcc ends the kernel where a construct with nothing after it would skip to its end: the guard is
  // `@!P EXIT`, no branch, and no BSYNC follows (the ground truth's occ_grid_full: 1 branch per warp)
  const tailed = (after: boolean) =>
    defineKernel({
      name: after ? 'loop_then_store' : 'loop_ends_kernel',
      params: { out: ptr('global', u32) },
      launch: { grid: 2, block: 64 },
      setup: (h) => ({ out: h.alloc(u32, 256, 'out') }),
      check: (h, { out }) => {
        for (let t = 0; t < 100; t++) if (h.readNumber(out, u32, t) !== t + 1) return `out[${t}] = ${h.readNumber(out, u32, t)}`;
        if (after && h.readNumber(out, u32, 128) !== 7) return 'out[128] not written';
        return null;
      },
      body: (k, { out }) => {
        const t = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x);
        // threads 100..127 skip the loop (warp 3 splits at the guard); the others make one trip
        k.for(t, 100, 128, (i) => out.at(i).store(i.add(1)));
        if (after) k.when(t.eq(0), () => out.at(128).store(7));
      },
    });
  it('a loop that ends the kernel: an EXIT guard, back-edges only, no BSYNC', () => {
    const tail = run(tailed(false));
    const inner = run(tailed(true));
    expect(tail.check).toEqual({ passed: true });
    expect(inner.check).toEqual({ passed: true });
    // 4 warps: one back-edge each; followed by code, a guard branch each too
    expect(metric(tail, 'smsp__sass_branch_targets.sum')).toBe(4);
    expect(metric(inner, 'smsp__sass_branch_targets.sum')).toBe(8);
    // the inner one, per warp: a BSSY and a BSYNC, the store's ISETP and STG; warp 3's skipping lanes
    // reach the BSYNC on their own (+1), as its guard split it (the EXIT guard splits no branch)
    expect(metric(inner, 'smsp__inst_executed.sum') - metric(tail, 'smsp__inst_executed.sum')).toBe(4 * 4 + 1);
    expect(metric(inner, 'smsp__sass_branch_targets_threads_divergent.sum')).toBe(1);
    expect(metric(tail, 'smsp__sass_branch_targets_threads_divergent.sum')).toBe(0);
  });

  // #pragma unroll 4 on a runtime loop, as nvcc lays it out: trips 2 * (lane + 1) per lane
  const unrolled4 = (uniform: boolean) =>
    defineKernel({
      name: uniform ? 'unroll4_uniform' : 'unroll4_lane_trip',
      params: { out: ptr('global', u32) },
      launch: { grid: 2, block: 64 },
      setup: (h) => ({ out: h.alloc(u32, 128, 'out') }),
      check: (h, { out }) => {
        for (let t = 0; t < 128; t++) {
          const trips = uniform ? 6 : 2 * ((t % 32) + 1);
          if (h.readNumber(out, u32, t) !== (trips * (trips - 1)) / 2) return `out[${t}] = ${h.readNumber(out, u32, t)}`;
        }
        return null;
      },
      body: (k, { out }) => {
        const t = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x);
        const trips = uniform ? k.u32(6) : k.laneId.add(1).mul(2);
        const n = k.let(u32, 0);
        out.at(t).store(0);
        k.for(0, trips, 1, (i) => n.set(n.add(i)), { unroll: 4 });
        out.at(t).store(n);
      },
    });
  it('unrolls a runtime loop by 4 as nvcc does: the same sums, one back-edge per 4 trips, the remainder after', () => {
    const lanes = run(unrolled4(false));
    const six = run(unrolled4(true));
    expect(lanes.check).toEqual({ passed: true });
    expect(six.check).toEqual({ passed: true });
    // 6 trips per warp (4 warps): the guard, the test for a block of 4, its back-edge, the remainder's
    // test and its 2 back-edges
    expect(metric(six, 'smsp__sass_branch_targets.sum')).toBe(4 * 6);
    const by3 = defineKernel({
      name: 'unroll3',
      params: { out: ptr('global', u32) },
      launch: { grid: 1, block: 32 },
      setup: (h) => ({ out: h.alloc(u32, 32, 'out') }),
      body: (k, { out }) => k.for(0, k.u32(6), 1, (i) => out.at(i).store(i), { unroll: 3 }),
    });
    expect(() => run(by3)).toThrow(/unroll by a power of two/);
  });

  const breaking = defineKernel({
    name: 'break_early',
    params: { out: ptr('global', u32) },
    launch: { grid: 1, block: 32 },
    setup: (h) => ({ out: h.alloc(u32, 32, 'out') }),
    check: (h, { out }) => {
      for (let t = 0; t < 32; t++) if (h.readNumber(out, u32, t) !== Math.min(t, 20)) return `out[${t}] = ${h.readNumber(out, u32, t)}`;
      return null;
    },
    body: (k, { out }) => {
      const t = k.threadIdx.x;
      const n = k.let(u32, 0);
      k.while(() => n.lt(20), () => {
        k.if(n.eq(t), () => k.break());
        n.set(n.add(1));
      });
      out.at(t).store(n);
    },
  });
  it('break leaves only the breaking lanes', () => {
    expect(run(breaking).check).toEqual({ passed: true });
  });
});

describe('early return and partial warps', () => {
  const kernel = defineKernel({
    name: 'guarded',
    params: { out: ptr('global', f32), n: u32 },
    defaults: { n: 40 },
    launch: { grid: 1, block: 48 },
    setup: (h) => ({ out: h.alloc(f32, 48, 'out', () => -1) }),
    check: (h, { out, n }) => {
      for (let t = 0; t < 48; t++) {
        const want = t < n ? Math.fround(t * 0.5 + 1) : -1;
        if (h.readNumber(out, f32, t) !== want) return `out[${t}] = ${h.readNumber(out, f32, t)}, expected ${want}`;
      }
      return null;
    },
    body: (k, { out, n }) => {
      const t = k.threadIdx.x;
      k.if(t.ge(n), () => k.return());
      out.at(t).store(t.cast(f32).fma(0.5, 1));
    },
  });
  it('exits lanes with a predicated EXIT and honours --param', () => {
    const k = run(kernel);
    expect(k.check).toEqual({ passed: true });
    expect(metric(k, 'smsp__sass_branch_targets.sum')).toBe(0);
    // 48 threads = a full warp and a 16-lane warp
    expect(metric(k, 'smsp__warps_launched.sum')).toBe(2);
    expect(metric(k, 'l1tex__t_requests_pipe_lsu_mem_global_op_st.sum')).toBe(2);
    expect(run(kernel, { n: '10' }).check).toEqual({ passed: true });
  });
});

describe('64-bit and conversions', () => {
  const kernel = defineKernel({
    name: 'hash64',
    params: { out: ptr('global', u64), again: ptr('global', u64), out32: ptr('global', u32) },
    launch: { grid: 2, block: 32 },
    setup: (h) => ({ out: h.alloc(u64, 64, 'out'), again: h.alloc(u64, 64, 'again'), out32: h.alloc(u32, 64, 'out32') }),
    check: (h, { out, again, out32 }) => {
      for (let i = 0; i < 64; i++) {
        const want = BigInt.asUintN(64, (BigInt(i + 4_000_000) * 2654435761n) | 1n);
        for (const p of [out, again]) {
          const got = BigInt.asUintN(64, BigInt(h.read(p, u64, i)));
          if (got !== want) return `out[${i}] = ${got}, expected ${want}`;
        }
        if (h.readNumber(out32, u32, i) !== Number(want & 0xffffffffn)) return `out32[${i}] wrong`;
      }
      return null;
    },
    body: (k, { out, again, out32 }) => {
      // micro.cu's size_t index and make_val
      const i = k.blockIdx.x.cast(u64).mul(k.blockDim.x.cast(u64)).add(k.threadIdx.x.cast(u64));
      const v = i.add(4_000_000n).mul(2654435761n).or(1n);
      out.at(i).store(v);
      again.at(i).store(v);
      out32.at(i).store(v.cast(u32));
    },
  });
  it('matches BigInt arithmetic', () => {
    expect(run(kernel).check).toEqual({ passed: true });
  });

  it('takes the SASS instructions ptxas selects for 64-bit arithmetic on a 32-bit datapath', () => {
    const k = run(kernel);
    const ops = k.instructions.map((x) => x.opcode);
    const from = ops.indexOf('IMAD.WIDE.U32');
    expect(ops.slice(from, ops.lastIndexOf('STG.E') + 1)).toEqual([
      // i = (u64)blockIdx * (u64)blockDim + (u64)threadIdx: mad.wide, threadIdx's high half zeroed
      'IMAD.WIDE.U32', 'IMAD.MOV.U32',
      // + 4e6 (a pair), * 2654435761 (IMAD.WIDE.U32 and two IMADs), | 1 (the low half only)
      'IADD3', 'IADD3.X', 'IMAD', 'IMAD', 'IMAD', 'LOP3',
      // out[i] and again[i]: i * 8 shifted once, then an add pair each
      'IMAD.SHL', 'SHF.L.U64.HI', 'IADD3', 'IADD3.X', 'STG.E.64', 'IADD3', 'IADD3.X', 'STG.E.64',
      // out32[i]: (u32)v is v's low register; i * 4 a LEA pair
      'LEA', 'LEA.HI.X', 'STG.E',
    ]);
    // the memory descriptor, once
    expect(ops.filter((o) => o === 'ULDC.64').length).toBe(3 + 1);
  });
});

describe('64-bit address indexes derived from one index', () => {
  const kernel = defineKernel({
    name: 'derived64',
    params: { src: ptr('global', u32), out: ptr('global', u32), other: ptr('global', u32), n: ptr('global', u64) },
    launch: { grid: 2, block: 64 },
    setup: (h) => ({ src: h.alloc(u32, 256, 'src', (x) => x * 7), out: h.alloc(u32, 256, 'out'), other: h.alloc(u32, 256, 'other'), n: h.alloc(u64, 256, 'n') }),
    check: (h, { out, other, n }) => {
      for (let i = 0; i < 128; i++) {
        const want = 7 * (i + 1) + 7 * (i & ~31) + 7 * (i + 3);
        if (h.readNumber(out, u32, i + 2) !== want) return `out[${i + 2}] = ${h.readNumber(out, u32, i + 2)}, expected ${want}`;
        if (h.readNumber(other, u32, i) !== i) return `other[${i}] wrong`;
        if (Number(h.read(n, u64, i)) !== i + 3) return `n[${i}] wrong`;
      }
      return null;
    },
    body: (k, { src, out, other, n }) => {
      const i = k.blockIdx.x.cast(u64).mul(k.blockDim.x.cast(u64)).add(k.threadIdx.x.cast(u64));
      const j = i.add(3n);
      const sum = src.at(i.add(1n)).get().add(src.at(i.and(~31n)).get()).add(src.at(j).get());
      out.at(i.add(2n)).store(sum);
      // a 32-bit index: its add may wrap, so it is an instruction
      other.at(k.threadIdx.x.add(k.blockIdx.x.mul(64))).store(i.cast(u32));
      // j is a value stored, not only an address: its add stays
      n.at(i).store(j);
    },
  });
  it('fold a constant added into the load or store offset and mask the shared shifted index', () => {
    const k = run(kernel);
    expect(k.check).toEqual({ passed: true });
    const ops = k.instructions.map((x) => x.opcode);
    expect(ops.slice(ops.indexOf('IMAD.WIDE.U32'), ops.indexOf('LDG.E') + 1)).toEqual([
      'IMAD.WIDE.U32', 'IMAD.MOV.U32',
      // j = i + 3 is also stored: an add pair
      'IADD3', 'IADD3.X',
      // src[i + 1], src[i & ~31] and out[i + 2]: i * 4 shifted once, + 1 and + 2 the offsets of the LDG
      // and STG, & ~31 a LOP3 on the shifted low word; an add pair each
      'IMAD.SHL', 'SHF.L.U64.HI', 'IADD3', 'IADD3.X', 'LDG.E',
    ]);
    expect(ops.filter((o) => o === 'LOP3').length).toBe(1);
    // IADD3s: j's pair, the pairs of the three shared-shift addresses and the two adds of the sum (the
    // 32-bit add of other's index takes the multiply with it: one IMAD); src[j] is src[i + 1] + 8 bytes
    // (an immediate), n[i] a LEA pair
    expect(ops.filter((o) => o === 'IADD3').length).toBe(1 + 3 + 2);
    expect(ops.filter((o) => o === 'LEA.HI.X').length).toBe(1);
    expect(ops.filter((o) => o.startsWith('LDG')).length).toBe(3);
  });
});

describe('what ptxas needs no instruction for', () => {
  it('a conversion between 32-bit integer types, and a constant offset of an address only loads and stores use', () => {
    const kernel = defineKernel({
      name: 'free32',
      params: { out: ptr('global', i32) },
      launch: { grid: 1, block: 32 },
      setup: (h) => ({ out: h.alloc(i32, 64, 'out') }),
      check: (h, { out }) => (h.readNumber(out, i32, 63) === 31 * 3 ? null : `out[63] = ${h.readNumber(out, i32, 63)}`),
      body: (k, { out }) => {
        const t = k.threadIdx.x.cast(i32);
        const p = out.add(t);
        // p + 32 elements: the STG's immediate, though an IMAD comes between
        p.at(32).store(t.mul(3));
      },
    });
    const r = run(kernel);
    expect(r.check).toEqual({ passed: true });
    // no I2I for the cast, no LEA for p + 32
    expect(r.instructions.map((x) => x.opcode)).toEqual(['LDC', 'ULDC.64', 'ULDC.64', 'S2R', 'LEA', 'IMAD', 'STG.E', 'EXIT']);
  });
});

describe('a fused multiply-add of two constants', () => {
  it('moves one into a register: FFMA encodes a single immediate', () => {
    const kernel = defineKernel({
      name: 'ffma2',
      params: { out: ptr('global', f32) },
      launch: { grid: 1, block: 32 },
      setup: (h) => ({ out: h.alloc(f32, 96, 'out') }),
      check: (h, { out }) =>
        h.readNumber(out, f32, 31) === 63 && h.readNumber(out, f32, 63) === 32 * 31 && h.readNumber(out, f32, 64 + 31) === 63 ? null : 'wrong',
      body: (k, { out }) => {
        const x = k.threadIdx.x.cast(f32);
        out.at(k.threadIdx.x).store(x.fma(2, 1));
        out.at(k.threadIdx.x.add(32)).store(x.fma(32, x.mul(0)));
        // an accumulator keeps its register: the constant's move is made once, before
        const acc = k.let(f32, x);
        acc.set(acc.fma(2, 1));
        out.at(k.threadIdx.x.add(64)).store(acc);
      },
    });
    const r = run(kernel);
    expect(r.check).toEqual({ passed: true });
    const ops = r.instructions.map((x) => x.opcode);
    expect(ops.filter((o) => o === 'FFMA').length).toBe(3);
    // x * 2 + 1 takes the move; x * 32 + (x * 0) and the accumulator do not
    expect(ops.filter((o) => o === 'IMAD.MOV.U32').length).toBe(1);
  });
});

describe('addresses that differ by a constant', () => {
  const kernel = defineKernel({
    name: 'offsets',
    params: { src: ptr('global', i32), out: ptr('global', i32) },
    launch: { grid: 2, block: 64 },
    setup: (h) => ({ src: h.alloc(i32, 1024, 'src', (x) => x), out: h.alloc(i32, 256, 'out') }),
    check: (h, { out }) => {
      for (let b = 0; b < 2; b++)
        for (let t = 0; t < 64; t++) {
          // four rows of the block's tile, then src[t] and src[t + 16] through a pointer moved between them
          const want = [1, 2, 3, 4].reduce((s, q) => s + (b + q) * 64 + t, 0) + t + (t + 16);
          if (h.readNumber(out, i32, b * 64 + t) !== want) return `out[${b * 64 + t}] = ${h.readNumber(out, i32, b * 64 + t)}, expected ${want}`;
        }
      return null;
    },
    body: (k, { src, out }) => {
      const t = k.threadIdx.x.cast(i32);
      const b = k.blockIdx.x.cast(i32);
      // (b + q) * 64 + t for q = 1..4: one address, the rest the loads' immediates
      let acc = src.at(b.add(1).mul(64).add(t)).get();
      for (let q = 2; q <= 4; q++) acc = acc.add(src.at(b.add(q).mul(64).add(t)).get());
      // a variable holds different values: its two loads are two addresses
      const p = k.letPtr(src.add(t));
      acc = acc.add(p.load() as typeof acc);
      p.set(p.add(16));
      acc = acc.add(p.load() as typeof acc);
      out.at(b.mul(64).add(t)).store(acc);
    },
  });
  it('share one computation: the others are the loads’ immediate offsets, and what only fed them is no instruction', () => {
    const r = run(kernel);
    expect(r.check).toEqual({ passed: true });
    const ops = r.instructions.map((x) => x.opcode);
    expect(ops.slice(ops.lastIndexOf('S2R') + 1)).toEqual([
      // (b + 1) * 64 + t: the add, then the multiply by 64 and the add of t in one LEA (src/exec/isel.ts),
      // and the address's LEA; the other three rows add 64, 128, 192 words to it: LDGs only
      'IADD3', 'LEA', 'LEA', 'LDG.E', 'LDG.E', 'IADD3', 'LDG.E', 'IADD3', 'LDG.E', 'IADD3',
      // the variable pointer: a LEA for each value it holds
      'LEA', 'LDG.E', 'IADD3', 'LEA', 'LDG.E', 'IADD3',
      'LEA', 'LEA', 'STG.E', 'EXIT',
    ]);
  });
});

describe('64-bit bitwise operations with a constant', () => {
  it('take one instruction where the high half stays or becomes a constant, two where xor complements it', () => {
    const kernel = defineKernel({
      name: 'bits64',
      params: { out: ptr('global', u64) },
      launch: { grid: 1, block: 32 },
      setup: (h) => ({ out: h.alloc(u64, 4 * 32, 'out') }),
      body: (k, { out }) => {
        const v = k.threadIdx.x.cast(u64).mul(0x1_0000_0001n);
        const at = k.threadIdx.x.mul(4);
        // and/or with a high word of ~0 or 0, xor with 0: one LOP3 each; xor with ~0: two
        [v.and(~31n), v.or(0xffn), v.xor(0xffn), v.xor(~0xffn)].forEach((x, n) => out.at(at.add(n)).store(x));
      },
    });
    const ops = run(kernel).instructions.map((x) => x.opcode);
    expect(ops.filter((o) => o === 'LOP3').length).toBe(5);
  });
});

describe('64-bit integers on int32 halves (moves, add, sub, multiply, bitwise, widening, compares, an index)', () => {
  // per lane: a = (lane - 16) * (2^32 + 3) (BigInt multiply: both halves set, negative below lane 16),
  // b = u32(lane * 0x9e3779b9) widened (low half with its top bit set in most lanes): a + b and a - b
  // carry and borrow across the halves
  const M = 0x1_0000_0003n;
  const lanes = Array.from({ length: 32 }, (_, l) => {
    const a = BigInt(l - 16) * M;
    const b = BigInt(Math.imul(l, 0x9e3779b9) >>> 0);
    return { a, b, sum: BigInt.asIntN(64, a + b), diff: BigInt.asIntN(64, a - b) };
  });
  const kernel = defineKernel({
    name: 'halves64',
    params: { out: ptr('global', i64), flags: ptr('global', u32) },
    launch: { grid: 1, block: 32 },
    setup: (h) => ({ out: h.alloc(i64, 32 * 9, 'out'), flags: h.alloc(u32, 64, 'flags') }),
    check: (h, { out, flags }) => {
      for (const [l, { a, b, sum, diff }] of lanes.entries()) {
        const want = [sum, diff, a & b, a | b, a ^ ~b, -a, l % 3 === 0 ? a : b, BigInt(Math.imul(l, 0x9e3779b9) | 0), BigInt.asIntN(64, sum * diff)];
        for (const [j, w] of want.entries()) {
          const got = BigInt.asIntN(64, BigInt(h.read(out, i64, l * 9 + j)));
          if (got !== w) return `lane ${l} value ${j}: ${got}, expected ${w}`;
        }
        const au = BigInt.asUintN(64, a);
        const f = (a < b ? 1 : 0) | (a >= sum ? 2 : 0) | (au > b ? 4 : 0) | (a === diff + b ? 8 : 0);
        if (h.readNumber(flags, u32, l) !== f) return `lane ${l} flags ${h.readNumber(flags, u32, l)}, expected ${f}`;
        if (h.readNumber(flags, u32, 32 + l) !== Number(BigInt.asUintN(32, sum))) return `lane ${l}: the narrowed sum is wrong`;
      }
      return null;
    },
    body: (k, { out, flags }) => {
      const l = k.threadIdx.x.cast(i32);
      const a = k.let(i64, l.sub(16).cast(i64).mul(M));
      const b = l.cast(u32).mul(0x9e3779b9).cast(i64);
      const sum = a.add(b);
      const diff = a.sub(b);
      // the index: (l * 9 + 2^32) - 2^32, through a carry and a borrow
      const at = l.mul(9).cast(i64).add(0x1_0000_0000n).sub(0x1_0000_0000n);
      const vals = [sum, diff, a.and(b), a.or(b), a.xor(b.not()), a.neg(), k.select(l.rem(3).eq(0), a, b), l.mul(0x9e3779b9).cast(i64), sum.mul(diff)];
      for (const [j, v] of vals.entries()) out.at(at.add(j)).store(v);
      const au = a.cast(u64);
      const f = a.lt(b).cast(u32)
        .or(a.ge(sum).cast(u32).mul(2))
        .or(au.gt(b.cast(u64)).cast(u32).mul(4))
        .or(a.eq(diff.add(b)).cast(u32).mul(8));
      flags.at(l).store(f);
      flags.at(l.add(32)).store(sum.cast(u32));
    },
  });
  it('match BigInt arithmetic lane by lane', () => {
    expect(run(kernel).check).toEqual({ passed: true });
  });
});

describe('counting', () => {
  it('counts one request per warp instruction and the distinct sectors', () => {
    const kernel = defineKernel({
      name: 'strided',
      params: { in: ptr('global', u32), out: ptr('global', u32) },
      launch: { grid: 2, block: 128 },
      setup: (h) => ({ in: h.alloc(u32, 256 * 3, 'in', (i) => i), out: h.alloc(u32, 256, 'out') }),
      check: (h, { out }) => {
        for (let i = 0; i < 256; i++) if (h.readNumber(out, u32, i) !== 3 * i) return `out[${i}]`;
        return null;
      },
      body: (k, { in: src, out }) => {
        const i = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x);
        out.at(i).store(src.at(i.mul(3)).get());
      },
    });
    const k = run(kernel);
    expect(k.check).toEqual({ passed: true });
    expect(metric(k, 'l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum')).toBe(8);
    // stride 3 words: a warp spans 96 words = 12 sectors
    expect(metric(k, 'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum')).toBe(8 * 12);
    expect(metric(k, 'l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum')).toBe(8 * 4);
    const ld = k.instructions.find((x) => x.opcode === 'LDG.E');
    expect(ld?.metrics.memory_l2_theoretical_sectors_global).toBe(96);
    expect(ld?.metrics.memory_l2_theoretical_sectors_global_ideal).toBe(32);
    expect(ld?.line).toBeGreaterThan(0);
  });
});

describe('%smid', () => {
  // two blocks per SM, all in the first wave: block b runs on the SM the arch's dispatch order gives
  // its slot (the H200's measured order: l2_partition_probe.cu), the same for each of its warps
  const kernel = defineKernel({
    name: 'smid_of_blocks',
    params: { out: ptr('global', u32) },
    launch: { grid: 2 * 132, block: 64 },
    setup: (h) => ({ out: h.alloc(u32, 2 * 132 * 2, 'out') }),
    check: (h, { out }) => {
      for (let b = 0; b < 2 * 132; b++)
        for (let w = 0; w < 2; w++) {
          const want = h200.smDispatchOrder[b % 132]!;
          const got = h.readNumber(out, u32, 2 * b + w);
          if (got !== want) return `block ${b} warp ${w}: %smid ${got}, expected ${want}`;
        }
      return null;
    },
    body: (k, { out }) => {
      k.when(k.laneId.eq(0), () => out.at(k.blockIdx.x.mul(2).add(k.warpId)).store(k.smId));
    },
  });
  it("is the SM of the block's slot", () => {
    expect(run(kernel).check).toEqual({ passed: true });
  });
});
