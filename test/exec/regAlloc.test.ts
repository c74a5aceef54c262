/**
 * Values whose lifetimes do not overlap share a place in the warp's register file (src/exec/regAlloc.ts):
 * results stay those of one register per value, a value read in every trip of a loop keeps its place
 * through the loop, and a shuffle does not write the place of the value it reads from other lanes.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defineKernel, i32, ptr } from '../../src/api.js';
import type { Instr } from '../../src/ir/types.js';
import { storageOf } from '../../src/ir/typesys.js';
import { registerPlaces } from '../../src/exec/regAlloc.js';
import { buildKernel } from '../../src/profile/launch.js';
import { profileDefinitions } from '../../src/profile.js';

const FILE = fileURLToPath(import.meta.url);
const N = 64;
const TRIPS = 5;

const kernel = defineKernel({
  name: 'lifetimes',
  params: { out: ptr('global', i32), n: i32 },
  launch: { grid: 1, block: N },
  defaults: { n: TRIPS },
  setup: (h) => ({ out: h.alloc(i32, 2 * N, 'out') }),
  check: (h, { out }) => {
    for (let t = 0; t < N; t++) {
      let acc = 0;
      for (let i = 0; i < TRIPS; i++) acc += 2 * (3 * t + i);
      const want = acc + (t + 7) * (t + 7);
      if (h.readNumber(out, i32, t) !== want) return `out[${t}] = ${h.readNumber(out, i32, t)}, expected ${want}`;
      const down = t % 32 === 31 ? 5 * t : 5 * (t + 1);
      if (h.readNumber(out, i32, N + t) !== down) return `out[${N + t}] = ${h.readNumber(out, i32, N + t)}, expected ${down}`;
    }
    return null;
  },
  body: (k, { out, n }) => {
    const t = k.threadIdx.x.cast(i32);
    // last read in the loop's body, but on every trip: its place is not free until the loop ends
    const a = t.mul(3);
    const acc = k.let(i32, 0);
    k.for(0, n, 1, (i) => {
      const b = a.add(i);
      const c = b.mul(2);
      acc.set(acc.add(c));
    });
    // defined after the loop: free to take the loop's places
    const d = t.add(7);
    const e = d.mul(d);
    out.at(t).store(acc.add(e));
    const five = t.mul(5);
    out.at(t.add(N)).store(k.shfl('down', five, 1));
  },
});

/** the instructions of a list and of the lists inside it, in order */
const flat = (list: readonly Instr[]): Instr[] =>
  list.flatMap((i) => (i.op === 'loop' ? [i, ...flat(i.head), ...flat(i.body)] : i.op === 'if' ? [i, ...flat(i.then), ...flat(i.else ?? [])] : [i]));

describe('register places shared by values that do not live at once', () => {
  it('computes what one register per value computes', () => {
    const k = profileDefinitions([kernel], { file: FILE }).kernels[0];
    expect(k?.check).toEqual({ passed: true });
  });

  it('shares places, but not those of a value the loop reads on every trip, nor a shuffle source with its result', () => {
    const ir = buildKernel(kernel, FILE);
    const place = registerPlaces(ir, ir.regs.map((r) => storageOf(r.type)), () => false);
    const shared = [...place.keys()].filter((r) => place[r] !== r);
    expect(shared.length).toBeGreaterThan(0);
    const all = flat(ir.body);
    const mulBy = (imm: number) => all.find((i) => i.op === 'binary' && i.fn === 'mul' && 'imm' in i.b && i.b.imm === imm) as Extract<Instr, { op: 'binary' }>;
    const loop = all.find((i) => i.op === 'loop') as Extract<Instr, { op: 'loop' }>;
    const inLoop = new Set(flat([...loop.head, ...loop.body]).flatMap((i) => ('dst' in i && typeof i.dst === 'number' ? [i.dst] : [])));
    // a = t * 3 keeps its place through the loop; d = t + 7 after it takes a freed one
    const a = mulBy(3).dst;
    expect([...inLoop].filter((r) => place[r] === place[a])).toEqual([]);
    const five = mulBy(5).dst;
    const shfl = all.find((i) => i.op === 'shfl') as Extract<Instr, { op: 'shfl' }>;
    expect(place[shfl.dst]).not.toBe(place[five]);
  });
});
