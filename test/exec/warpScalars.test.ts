/**
 * Registers computed once per warp (src/exec/warpScalars.ts, codegen.ts): which ones qualify, and
 * that a kernel computing with them gets what one value per lane gets, in the cases where a warp's
 * lanes part ways: lanes that exited before a uniform loop (lane 0, where the value lives, among
 * them), an if-converted side whose condition fails for the whole warp, 64-bit values (as int32
 * halves and as BigInts), a value read by a shuffle from another lane, and a uniform value that is
 * not arithmetic (the global timer, written in the active lanes only). References are computed on
 * the host.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defineKernel, i32, ptr, u32, u64 } from '../../src/api.js';
import type { Instr } from '../../src/ir/types.js';
import { uniformRegisters } from '../../src/exec/compile.js';
import { warpScalars } from '../../src/exec/warpScalars.js';
import { buildKernel } from '../../src/profile/launch.js';
import { profileDefinitions } from '../../src/profile.js';

const FILE = fileURLToPath(import.meta.url);
const GRID = 3;
/** 80 threads: two full warps and one of 16 lanes */
const BLOCK = 80;
const TRIPS = 6;
const BIG = 0x1_2345_6789n;
/** outputs per thread */
const OUTS = 5;

function flat(list: readonly Instr[]): Instr[] {
  return list.flatMap((i) => (i.op === 'if' ? [i, ...flat(i.then), ...flat(i.else ?? [])] : i.op === 'loop' ? [i, ...flat(i.head), ...flat(i.body)] : [i]));
}

/** host twin of thread t of block b (t >= 10; the others return at once) */
function want(b: number, t: number): number[] {
  let u = 7 * b;
  let acc = 0;
  for (let i = 0; i < TRIPS; i++) {
    u = Math.imul(u + i, 3);
    acc += t * i;
  }
  const w = BigInt.asUintN(64, (BIG + BigInt(b)) * 3n);
  const lo = Number(BigInt.asIntN(32, w));
  const hi = Number(BigInt.asIntN(32, w >> 32n));
  return [acc + u + 5, lo, hi, u, 5];
}

const kernel = defineKernel({
  name: 'warp_scalars',
  params: { out: ptr('global', i32), n: i32, big: u64 },
  launch: { grid: GRID, block: BLOCK },
  defaults: { n: TRIPS, big: Number(BIG) },
  setup: (h) => ({ out: h.alloc(i32, GRID * BLOCK * OUTS, 'out') }),
  check: (h, { out }) => {
    for (let b = 0; b < GRID; b++)
      for (let t = 10; t < BLOCK; t++) {
        const w = want(b, t);
        for (let k = 0; k < OUTS; k++) {
          const at = (b * BLOCK + t) * OUTS + k;
          const got = h.readNumber(out, i32, at);
          if (got !== w[k]) return `block ${b} thread ${t} output ${k}: ${got}, expected ${w[k]}`;
        }
      }
    return null;
  },
  body: (k, { out, n, big }) => {
    const t = k.threadIdx.x.cast(i32);
    const b = k.blockIdx.x.cast(i32);
    const g = b.mul(k.blockDim.x.cast(i32)).add(t).mul(OUTS);
    // lanes 0-9 of every block leave: in warp 0 lane 0 no longer runs
    k.if(t.lt(10), () => k.return());
    const acc = k.let(i32, 0);
    const u = k.let(i32, b.mul(7));
    k.for(0, n, 1, (i) => {
      u.set(u.add(i).mul(3));
      acc.set(acc.add(t.mul(i)));
    });
    // if-converted, false in every lane of every warp: the move must not happen
    const v = k.let(i32, 5);
    k.if(b.gt(100), () => v.set(b));
    // 64-bit: the add and multiply on int32 halves, the shift on BigInts
    const w = big.add(b.cast(u64)).mul(3);
    // the global timer is uniform but written in the active lanes only: nothing is computed from its lane 0
    const tm = k.globalTimer();
    const zero = tm.add(5n).sub(tm).sub(5n).cast(i32);
    out.at(g).store(acc.add(u).add(v).add(zero));
    out.at(g.add(1)).store(w.cast(i32));
    out.at(g.add(2)).store(w.shr(32).cast(i32));
    // read from lane 12 (active in every warp): the value must be in all lanes, not only lane 0
    out.at(g.add(3)).store(k.shfl('idx', u, 12, { mask: k.activemask() }));
    out.at(g.add(4)).store(v);
  },
});

describe('registers computed once per warp', () => {
  it('computes what one value per lane computes, where lanes exited, a side is skipped or a reader takes lanes', () => {
    const k = profileDefinitions([kernel], { file: FILE }).kernels[0];
    expect(k?.check).toEqual({ passed: true });
  });

  it('takes uniform arithmetic and keeps thread-dependent, divergent and non-arithmetic values lane by lane', () => {
    const probe = defineKernel({
      name: 'scalar_plan',
      params: { out: ptr('global', u32) },
      launch: { grid: 2, block: 64 },
      setup: (h) => ({ out: h.alloc(u32, 128, 'out') }),
      body: (k, { out }) => {
        const x = k.blockIdx.x.mul(k.blockDim.x);
        const y = x.add(k.threadIdx.x);
        const z = k.let(u32, 0);
        k.if(k.threadIdx.x.lt(4), () => z.set(x));
        const c = k.let(u32, 1);
        k.for(0, 3, 1, (i) => c.set(c.add(i.cast(u32))));
        const tm = k.globalTimer().cast(u32).add(1);
        out.at(y).store(z.add(c).add(tm));
        out.at(x).store(c);
      },
    });
    const ir = buildKernel(probe, FILE);
    const all = flat(ir.body);
    // compile.ts shares parameters and blockDim among all warps (one array each)
    const constants = new Set(all.flatMap((i) => (i.op === 'param' || (i.op === 'special' && i.sreg.startsWith('ntid')) ? [i.dst] : [])));
    const plan = warpScalars(ir, uniformRegisters(ir), (r) => constants.has(r));
    const dstOf = (f: (i: Instr) => boolean): number => {
      const i = all.find(f) as Instr & { dst: number };
      return i.dst;
    };
    const mul = dstOf((i) => i.op === 'binary' && i.fn === 'mul');
    const tid = dstOf((i) => i.op === 'special' && i.sreg === 'tid.x');
    const add = dstOf((i) => i.op === 'binary' && i.fn === 'add' && 'reg' in i.b && i.b.reg === tid);
    const divergent = dstOf((i) => i.op === 'assign' && 'reg' in i.a && i.a.reg === mul);
    const ctaid = dstOf((i) => i.op === 'special' && i.sreg === 'ctaid.x');
    const loop = all.find((i) => i.op === 'loop') as Extract<Instr, { op: 'loop' }>;
    const counter = flat(loop.body).filter((i) => i.op === 'assign').map((i) => (i as { dst: number }).dst);
    const timer = dstOf((i) => i.op === 'globaltimer');
    const fromTimer = dstOf((i) => i.op === 'cvt' && 'reg' in i.a && i.a.reg === timer);
    expect(plan.scalar.has(mul)).toBe(true);
    expect(plan.scalar.has(add)).toBe(false);
    expect(plan.scalar.has(divergent)).toBe(false);
    expect(plan.equal.has(ctaid)).toBe(true);
    // the loop's trip counter and `c` (assigned under the uniform loop) are scalar
    expect(counter.length).toBeGreaterThanOrEqual(2);
    for (const r of counter) expect(plan.scalar.has(r)).toBe(true);
    // uniform by the analysis, but the timer writes only the active lanes
    expect(plan.scalar.has(fromTimer)).toBe(false);
    // out + x is an address and c a stored value: memory accesses read lanes, so those go to all 32
    const address = dstOf((i) => i.op === 'lea' && 'reg' in i.index && i.index.reg === mul);
    expect(plan.scalar.has(address)).toBe(true);
    expect(plan.fill.has(address)).toBe(true);
    expect(plan.fill.has(mul)).toBe(false);
    expect([...counter].some((r) => plan.fill.has(r))).toBe(true);
    // and not every scalar register needs all lanes (the counter's own increment does not)
    expect(plan.fill.size).toBeLessThan(plan.scalar.size);
  });
});
