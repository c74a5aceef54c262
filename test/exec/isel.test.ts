/**
 * Instruction selection (src/exec/isel.ts, intDivision.ts, hoist.ts, compile.ts's if-conversion)
 * against the H200: the probe kernels of test/fidelity/probes/isel/isel_probe.cu written the way the C
 * reads, each `out[i] = f(in[i], ...)` on one block of 64 threads, and what each costs beyond the
 * copy kernel compared with ncu's smsp__inst_executed.sum for the same pair (ncu_raw.csv, measured on
 * the H200; the per-warp figures are in isel_summary.txt, the SASS in sass.txt). The difference takes
 * out what the kernels share (the index, the parameter loads) so that each row checks one selection.
 * The results are checked on the host too: the selection changes the counts, never the values.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type KernelBuilder, type PtrVal, type ScalarType, type Val, type Var, defineKernel, i32, ptr, u32 } from '../../src/api.js';
import { i8, u8 } from '../../src/ir/typesys.js';
import { profileDefinitions } from '../../src/profile.js';
import { readNcuRawCsv } from '../../src/report/ncuCsv.js';

const FILE = fileURLToPath(import.meta.url);
const PROBES = join(import.meta.dirname, '..', 'fidelity', 'probes', 'isel');
const N = 64;
const INST = 'smsp__inst_executed.sum';
const BRANCH = 'smsp__sass_inst_executed_op_branch.sum';

/** the H200's figures per probe kernel (ncu --page raw of isel_probe and ifconv_probe) */
function h200(csv: string): Map<string, Record<string, number>> {
  const m = new Map<string, Record<string, number>>();
  for (const l of readNcuRawCsv(join(PROBES, csv))) m.set(l.kernelName, Object.fromEntries(Object.entries(l.metrics).map(([id, v]) => [id, Number(String(v.value).replace(/,/g, ''))])));
  return m;
}
const H200 = new Map([...h200('ncu_raw.csv'), ...h200('ifconv_ncu_raw.csv')]);

/** each probe kernel's SASS opcodes in order (cuobjdump --dump-sass of isel_probe: sass.txt) */
const H200_SASS = new Map<string, string[]>();
for (const part of readFileSync(join(PROBES, 'sass.txt'), 'utf8').split(/\n\s*Function : /).slice(1)) {
  const [name = '', ...lines] = part.split('\n');
  H200_SASS.set(
    name.trim(),
    lines.flatMap((l) => {
      const m = /\/\*[0-9a-f]{4}\*\/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)/.exec(l);
      return m?.[1] && m[1] !== 'NOP' ? [m[1]] : [];
    }),
  );
}

/** our opcodes of a profiled probe kernel, as its report lists them */
const LISTINGS = new Map<string, string[]>();
/** our opcodes of a kernel from the first `from` to the last `to` */
function opcodesOf(name: string, from: string, to: string): string[] {
  const list = LISTINGS.get(name) ?? [];
  return list.slice(list.indexOf(from), list.lastIndexOf(to) + 1);
}

// the probe's inputs: in[i] = (i * 37 + 5) % 23, in2[i] = i % 13 + 1; p = 5, q = 3
const IN = (i: number): number => ((i * 37 + 5) >>> 0) % 23;
const IN2 = (i: number): number => (i % 13) + 1;
const P = 5;
const Q = 3;

interface Probe {
  name: string;
  type: ScalarType;
  /** the value thread i stores, on the host */
  want: (a: number, b: number, i: number) => number;
  body: (k: KernelBuilder, a: Val, b: () => Val, p: Val, q: Val, i: Val) => Val;
}

/** profile probe kernels: `out[i] = body(in[i], in2[i], p, q)`, one block of 64 threads each */
function profile(probes: readonly Probe[]): Map<string, Record<string, number>> {
  const defs = probes.map((pr) =>
    defineKernel({
      name: pr.name,
      params: { in: ptr('global', pr.type), in2: ptr('global', pr.type), out: ptr('global', pr.type), p: pr.type, q: pr.type },
      defaults: { p: P, q: Q },
      launch: { grid: 1, block: N },
      setup: (h) => ({ in: h.alloc(pr.type, 8 * N, 'in', IN), in2: h.alloc(pr.type, N, 'in2', IN2), out: h.alloc(pr.type, N, 'out') }),
      check: (h, { out }) => {
        for (let i = 0; i < N; i++) {
          const got = h.readNumber(out, pr.type, i);
          const want = pr.type.kind === 'u32' ? pr.want(IN(i), IN2(i), i) >>> 0 : pr.want(IN(i), IN2(i), i) | 0;
          if (got !== want) return `out[${i}] = ${got}, expected ${want}`;
        }
        return null;
      },
      body: (k, a) => {
        const pin = a.in as PtrVal;
        currentIn = pin;
        const pin2 = a.in2 as PtrVal;
        const i = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x);
        const x = pin.at(i).get();
        (a.out as PtrVal).at(i).store(pr.body(k, x, () => pin2.at(i).get(), a.p as Val, a.q as Val, i));
      },
    }),
  );
  const report = profileDefinitions(defs, { file: FILE });
  for (const k of report.kernels) {
    expect(k.check, k.name).toEqual({ passed: true });
    LISTINGS.set(k.name, k.instructions.map((x) => x.opcode));
  }
  return new Map(report.kernels.map((k) => [k.name, k.metrics as Record<string, number>]));
}

const copy: Probe = { name: 'copy_u32', type: u32, want: (a) => a, body: (_k, a) => a };
const udiv = (name: string, d: number): Probe => ({ name, type: u32, want: (a) => Math.floor(a / d), body: (_k, a) => a.div(d) });
const urem = (name: string, d: number): Probe => ({ name, type: u32, want: (a) => a % d, body: (_k, a) => a.rem(d) });
const sdiv = (name: string, d: number): Probe => ({ name, type: i32, want: (a) => Math.trunc(a / d), body: (_k, a) => a.div(d) });
const srem = (name: string, d: number): Probe => ({ name, type: i32, want: (a) => a % d, body: (_k, a) => a.rem(d) });

/** per warp, this kernel's count minus the copy kernel's, on both sides */
function deltas(ours: Map<string, Record<string, number>>, names: readonly string[], metric = INST, baseline = 'copy_u32'): { name: string; h200: number; ours: number }[] {
  const base = (m: Map<string, Record<string, number>>, n: string): number => {
    const r = m.get(n);
    if (!r) throw new Error(`no ${n}`);
    return (r[metric] as number) / 2;
  };
  return names.map((name) => ({ name, h200: base(H200, name) - base(H200, baseline), ours: base(ours, name) - base(ours, baseline) }));
}

describe('integer division and remainder as ptxas expands them', () => {
  it('by constants (shift and mask, magic-number multiplies) and by values known at run time', () => {
    const probes: Probe[] = [
      copy,
      udiv('udiv_c8', 8), urem('urem_c8', 8), sdiv('sdiv_c8', 8), srem('srem_c8', 8),
      udiv('udiv_c7', 7), urem('urem_c7', 7), udiv('udiv_c3', 3), udiv('udiv_c10', 10), urem('urem_c10', 10), udiv('udiv_c1000', 1000),
      sdiv('sdiv_c7', 7), srem('srem_c7', 7), sdiv('sdiv_c3', 3), srem('srem_c3', 3), sdiv('sdiv_c10', 10),
      { name: 'udiv_v', type: u32, want: (a, b) => Math.floor(a / b), body: (_k, a, b) => a.div(b()) },
      { name: 'urem_v', type: u32, want: (a, b) => a % b, body: (_k, a, b) => a.rem(b()) },
      { name: 'sdiv_v', type: i32, want: (a, b) => Math.trunc(a / b), body: (_k, a, b) => a.div(b()) },
      { name: 'srem_v', type: i32, want: (a, b) => a % b, body: (_k, a, b) => a.rem(b()) },
      { name: 'udivrem_v', type: u32, want: (a, b) => Math.floor(a / b) + (a % b), body: (_k, a, b) => { const d = b(); return a.div(d).add(a.rem(d)); } },
    ];
    const ours = profile(probes);
    const rows = deltas(ours, probes.slice(1).map((p) => p.name));
    // by hand from sass.txt: a shift or mask (1), the signed power-of-two fix-up (3, 4), magic numbers
    // (2 to 5), the reciprocal sequences (18, 17, 24, 22: each with one more load of the divisor in
    // the _v kernels), and a remainder after its quotient (2 more)
    expect(Object.fromEntries(rows.map((r) => [r.name, r.ours]))).toEqual({
      udiv_c8: 1, urem_c8: 1, sdiv_c8: 3, srem_c8: 4,
      udiv_c7: 4, urem_c7: 5, udiv_c3: 2, udiv_c10: 2, urem_c10: 3, udiv_c1000: 2,
      sdiv_c7: 4, srem_c7: 5, sdiv_c3: 2, srem_c3: 3, sdiv_c10: 3,
      udiv_v: 3 + 18, urem_v: 3 + 17, sdiv_v: 3 + 24, srem_v: 3 + 22, udivrem_v: 3 + 18 + 2 + 1,
    });
    console.log(rows);
    for (const r of rows) expect(r.ours, r.name).toBe(r.h200);
  });
});

describe('multiply-add, promotion, repeated expressions', () => {
  it('fuse a multiply into its add: IMAD, LEA for a power of two, a move for a second constant', () => {
    const probes: Probe[] = [
      copy,
      { name: 'imad_vv', type: u32, want: (a, b) => a * b + P, body: (_k, a, b, p) => a.mul(b()).add(p) },
      { name: 'imad_c', type: i32, want: (a) => a * 3 + 5, body: (_k, a) => a.mul(3).add(5) },
      { name: 'imad_shl', type: u32, want: (a, b) => a * 8 + b, body: (_k, a, b) => a.mul(8).add(b()) },
      { name: 'imad_sub', type: i32, want: (a, b) => a * b - P, body: (_k, a, b, p) => a.mul(b()).sub(p) },
      { name: 'imul_only', type: i32, want: (a, b) => a * b, body: (_k, a, b) => a.mul(b()) },
    ];
    const ours = profile(probes);
    const rows = deltas(ours, probes.slice(1).map((p) => p.name));
    for (const r of rows) expect(r.ours, r.name).toBe(r.h200);
  });

  it('a repeated expression costs what writing it once costs (cse_twice, cse_once)', () => {
    const cse = (name: string, twice: boolean) =>
      defineKernel({
        name,
        params: { in: ptr('global', u32), out: ptr('global', u32), s: u32 },
        defaults: { s: 2 },
        launch: { grid: 1, block: N },
        setup: (h) => ({ in: h.alloc(u32, 4 * N, 'in', IN), out: h.alloc(u32, N, 'out') }),
        check: (h, { out }) => {
          for (let i = 0; i < N; i++) if (h.readNumber(out, u32, i) !== IN(2 * i + 1) + 2 * i + 1) return `out[${i}] = ${h.readNumber(out, u32, i)}`;
          return null;
        },
        body: (k, { in: src, out, s }) => {
          const i = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x);
          // out[i] = in[i * s + 1] + (i * s + 1): the C writes the index twice, or once into j
          const j = i.mul(s).add(1);
          out.at(i).store(src.at(j).get().add(twice ? i.mul(s).add(1) : j));
        },
      });
    const report = profileDefinitions([cse('cse_twice', true), cse('cse_once', false)], { file: FILE });
    const h = (name: string) => (H200.get(name)?.[INST] ?? NaN) / 2;
    // the H200: the same SASS for both (IMAD R9, R7, R4, 0x1 once); so here
    expect(h('cse_twice')).toBe(h('cse_once'));
    for (const k of report.kernels) {
      expect(k.check, k.name).toEqual({ passed: true });
      expect(Number(k.metrics[INST]) / 2, k.name).toBe(Number(report.kernels[1]?.metrics[INST]) / 2);
    }
    // and as many as the H200 runs: the copy's instructions, the parameter's LDC, the IMAD and the IADD3
    expect(Number(report.kernels[1]?.metrics[INST]) / 2).toBe(h('cse_once'));
  });
});

/** the input pointer of the probe kernel being built (profile() passes it as `in`) */
let currentIn: PtrVal | null = null;
function pinOf(_k: KernelBuilder): PtrVal {
  if (!currentIn) throw new Error('no input pointer');
  return currentIn;
}

describe('narrow loads', () => {
  it('widen for free: a byte load and its promotion to 32 bits cost the load (byte_u8, byte_s8)', () => {
    const byte = (name: string, elem: ScalarType, to: ScalarType, f: (k: KernelBuilder, x: Val) => Val, want: (x: number) => number) =>
      defineKernel({
        name,
        params: { in: ptr('global', elem), out: ptr('global', to) },
        launch: { grid: 1, block: N },
        setup: (h) => ({ in: h.alloc(elem, N, 'in', (i) => (elem.kind === 'i8' ? ((IN(i) * 11) << 24) >> 24 : IN(i) * 11)), out: h.alloc(to, N, 'out') }),
        check: (h, { out }) => {
          for (let i = 0; i < N; i++) {
            const x = elem.kind === 'i8' ? ((IN(i) * 11) << 24) >> 24 : (IN(i) * 11) & 255;
            if (h.readNumber(out, to, i) !== want(x)) return `out[${i}] = ${h.readNumber(out, to, i)}, expected ${want(x)}`;
          }
          return null;
        },
        body: (k, { in: src, out }) => {
          const i = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x);
          out.at(i).store(f(k, src.at(i).get()));
        },
      });
    const report = profileDefinitions(
      [
        byte('byte_u8', u8, u32, (_k, x) => x.cast(u32).add(1), (x) => x + 1),
        byte('byte_s8', i8, i32, (_k, x) => x.cast(i32).mul(3), (x) => x * 3),
      ],
      { file: FILE },
    );
    for (const k of report.kernels) {
      expect(k.check, k.name).toEqual({ passed: true });
      const ops = k.instructions.filter((x) => Number(x.metrics.inst_executed) > 0).map((x) => x.opcode);
      // no conversion: the LDG.E.U8 / .S8 extended the byte
      expect(ops.some((o) => /^[IF]2[IF]/.test(o)), k.name).toBe(false);
      expect(ops.filter((o) => o.startsWith('LDG')), k.name).toEqual([k.name === 'byte_u8' ? 'LDG.E.U8' : 'LDG.E.S8']);
      // per warp as many instructions as the H200 runs (the byte address an IADD3 pair, the out address
      // one instruction, the arithmetic one)
      expect(Number(k.metrics[INST]) / 2, k.name).toBe((H200.get(k.name)?.[INST] ?? NaN) / 2);
    }
  });
});

describe('loop invariants', () => {
  it('a product of values the loop does not change is computed once, before it (hoist_loop, hoist_none)', () => {
    const loop = (name: string, invariant: boolean) =>
      defineKernel({
        name,
        params: { in: ptr('global', u32), out: ptr('global', u32), p: u32, q: u32, pq: u32, n: i32 },
        defaults: { p: 3, q: 5, pq: 15, n: 8 },
        launch: { grid: 1, block: N },
        setup: (h) => ({ in: h.alloc(u32, 8 * N, 'in', IN), out: h.alloc(u32, N, 'out') }),
        check: (h, { out }) => {
          for (let i = 0; i < N; i++) {
            let acc = 0;
            for (let j = 0; j < 8; j++) acc += IN(j * 64 + i) * 15;
            if (h.readNumber(out, u32, i) !== acc) return `out[${i}] = ${h.readNumber(out, u32, i)}, expected ${acc}`;
          }
          return null;
        },
        body: (k, { in: src, out, p, q, pq, n }) => {
          const i = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x);
          const acc = k.let(u32, 0);
          k.for(0, n, 1, (j) => acc.set(acc.add(src.at(j.cast(u32).mul(64).add(i)).get().mul(invariant ? p.mul(q) : pq))));
          out.at(i).store(acc);
        },
      });
    const report = profileDefinitions([loop('hoist_loop', true), loop('hoist_none', false)], { file: FILE });
    const [withPq, without] = report.kernels;
    expect(withPq?.check).toEqual({ passed: true });
    // per warp, p * q costs one instruction in all (the H200: 68 and 67, its UIMAD before the loop),
    // not one per trip (8); the H200's p and q come in one LDC.64 where each parameter is an LDC here
    const perWarp = (k: typeof withPq) => Number(k?.metrics[INST]) / 2;
    const h = (name: string) => (H200.get(name)?.[INST] ?? NaN) / 2;
    expect(h('hoist_loop') - h('hoist_none')).toBe(1);
    expect(perWarp(withPq) - perWarp(without)).toBe(1 + 1);
  });
});

describe('if-conversion', () => {
  const N_IMADS = [3, 4, 5, 6, 7, 8, 9, 10];
  const ifKernel = (name: string, body: (k: KernelBuilder, v: Var, w: Val) => void) =>
    defineKernel({
      name,
      params: { in: ptr('global', i32), in2: ptr('global', i32), out: ptr('global', i32) },
      launch: { grid: 1, block: N },
      setup: (h) => ({ in: h.alloc(i32, N, 'in', IN), in2: h.alloc(i32, N, 'in2', IN), out: h.alloc(i32, N, 'out') }),
      body: (k, { in: src, in2, out }) => {
        const i = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x).cast(i32);
        const v = k.let(i32, src.at(i).get());
        body(k, v, in2.at(i).get());
        out.at(i).store(v);
      },
    });
  it("predicates a short if as nvcc does and branches around a long one: the H200's branch counts", () => {
    const defs = [
      ifKernel('if_then', (k, v) => k.if(v.gt(10), () => v.set(v.mul(3)))),
      ifKernel('if_ifelse', (k, v) => k.if(v.gt(10), () => v.set(v.mul(3)), () => v.set(v.add(1)))),
      ifKernel('if_mid', (k, v) =>
        k.if(v.gt(10), () => {
          v.set(v.mul(3));
          v.set(v.xor(v.shr(3)));
          v.set(v.add(7));
          v.set(v.mul(v));
        }),
      ),
      ifKernel('if_long', (k, v) =>
        k.if(v.gt(10), () => {
          v.set(v.mul(3));
          v.set(v.xor(v.shr(3)));
          v.set(v.add(7));
          v.set(v.mul(v));
          v.set(v.xor(v.shr(5)));
          v.set(v.add(11));
          v.set(v.mul(13));
          v.set(v.xor(v.shr(7)));
        }),
      ),
      ...N_IMADS.map((n) =>
        ifKernel(`ifn_${n}`, (k, v, w) =>
          k.if(v.gt(10), () => {
            for (let j = 0; j < n; j++) v.set(v.mul(w).add(j + 1));
          }),
        ),
      ),
    ];
    const report = profileDefinitions(defs, { file: FILE });
    for (const k of report.kernels) {
      const h = H200.get(k.name);
      expect(Number(k.metrics[BRANCH]) / 2, k.name).toBe((h?.[BRANCH] ?? NaN) / 2);
    }
    // the predicated sides run both (if_ifelse: ISETP, IMAD, @!P0 IADD3), each under its predicate
    const ifelse = report.kernels.find((k) => k.name === 'if_ifelse');
    const then = report.kernels.find((k) => k.name === 'if_then');
    expect(Number(ifelse?.metrics[INST]) - Number(then?.metrics[INST])).toBe((H200.get('if_ifelse')?.[INST] ?? NaN) - (H200.get('if_then')?.[INST] ?? NaN));
  });
});

describe('read-only loads', () => {
  const kernel = (name: string, load: (p: PtrVal, i: Val) => Val) =>
    defineKernel({
      name,
      params: { in: ptr('global', u32), out: ptr('global', u32) },
      launch: { grid: 1, block: N },
      setup: (h) => ({ in: h.alloc(u32, N, 'in', IN), out: h.alloc(u32, N, 'out') }),
      check: (h, { out }) => {
        for (let i = 0; i < N; i++) if (h.readNumber(out, u32, i) !== IN(i) + 1) return `out[${i}] = ${h.readNumber(out, u32, i)}`;
        return null;
      },
      body: (k, { in: src, out }) => {
        const i = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x);
        out.at(i).store(load(src, i).add(1));
      },
    });
  it('__ldg is LDG.E.CONSTANT, a global load like any other (ldg_u32, ldg_plain)', () => {
    const report = profileDefinitions([kernel('ldg_u32', (p, i) => p.at(i).ldg() as Val), kernel('ldg_plain', (p, i) => p.at(i).get())], { file: FILE });
    const [ldg, plain] = report.kernels;
    expect(ldg?.check).toEqual({ passed: true });
    expect(ldg?.instructions.map((x) => x.opcode)).toContain('LDG.E.CONSTANT');
    expect(plain?.instructions.map((x) => x.opcode)).toContain('LDG.E');
    for (const id of [INST, 'smsp__sass_inst_executed_op_global_ld.sum', 'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum', 'l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum'])
      expect(ldg?.metrics[id], id).toBe(plain?.metrics[id]);
    // the H200 runs 14 instructions per warp in each
    expect(Number(ldg?.metrics[INST]) / 2).toBe((H200.get('ldg_u32')?.[INST] ?? NaN) / 2);
  });
  it('a read-only store or a read-only load of shared memory is a located error', () => {
    const bad = (name: string, body: (k: KernelBuilder, p: PtrVal) => void) =>
      defineKernel({ name, params: { in: ptr('global', u32) }, launch: { grid: 1, block: 32 }, setup: (h) => ({ in: h.alloc(u32, 32, 'in') }), body: (k, { in: p }) => body(k, p) });
    expect(() => profileDefinitions([bad('st_nc', (k, p) => p.at(k.threadIdx.x).store(1, { cache: 'nc' }))], { file: FILE })).toThrow(/isel\.test\.ts:\d+: cache 'nc' is the read-only load path/);
    expect(() => profileDefinitions([bad('lds_nc', (k) => k.shared(u32, [32]).at(k.threadIdx.x).load({ cache: 'nc' }))], { file: FILE })).toThrow(/isel\.test\.ts:\d+: a read-only load .* not shared/);
  });
});

describe('warp reductions', () => {
  it('__reduce_*_sync: REDUX and a MOV back, the reduction over the named lanes (redux_*)', () => {
    const ops = [
      ['redux_add', 'add', u32, 'REDUX.SUM'],
      ['redux_min', 'min', i32, 'REDUX.MIN.S32'],
      ['redux_max', 'max', u32, 'REDUX.MAX'],
      ['redux_and', 'and', u32, 'REDUX'],
      ['redux_or', 'or', u32, 'REDUX.OR'],
      ['redux_xor', 'xor', u32, 'REDUX.XOR'],
    ] as const;
    const host = (fn: string, xs: number[]): number =>
      xs.reduce((a, b) => (fn === 'add' ? a + b : fn === 'min' ? Math.min(a, b) : fn === 'max' ? Math.max(a, b) : fn === 'and' ? a & b : fn === 'or' ? a | b : a ^ b));
    const probes: Probe[] = [
      copy,
      ...ops.map(([name, fn, type]): Probe => ({
        name,
        type,
        want: (_a, _b, i) => host(fn, Array.from({ length: 32 }, (_, l) => IN((i & ~31) + l))),
        body: (k, a) => k.reduceSync(fn, a),
      })),
    ];
    const ours = profile(probes);
    for (const [name, , , opcode] of ops) {
      expect(LISTINGS.get(name), name).toContain(opcode);
      // per warp the H200's count: the copy's and REDUX + MOV
      expect((ours.get(name)?.[INST] ?? NaN) / 2, name).toBe((H200.get(name)?.[INST] ?? NaN) / 2);
    }
    // the H200's SASS names them so
    for (const [name, , , opcode] of ops) expect(H200_SASS.get(name), name).toContain(opcode);
  });
  it('names a lane of the mask that does not take part', () => {
    const kernel = defineKernel({
      name: 'redux_diverged',
      params: { out: ptr('global', u32) },
      launch: { grid: 1, block: 32 },
      setup: (h) => ({ out: h.alloc(u32, 32, 'out') }),
      body: (k, { out }) => {
        const t = k.threadIdx.x;
        k.if(t.lt(16), () => out.at(t).store(k.reduceSync('add', t)));
      },
    });
    expect(() => profileDefinitions([kernel], { file: FILE })).toThrow(/isel\.test\.ts:\d+: __reduce_add_sync with mask 0xffffffff .*lanes 16,17/);
  });
});

describe("the cuda-samples reduce0, written as its C reads", () => {
  it("counts the H200's instructions and branches per warp: `tid % (2 * s)` is the remainder sequence, the add predicated", () => {
    // for (s = 1; s < blockDim.x; s *= 2) { if ((tid % (2 * s)) == 0) sdata[tid] += sdata[tid + s]; __syncthreads(); }
    const reduce0 = defineKernel({
      name: 'reduce0',
      params: { g_idata: ptr('global', u32), g_odata: ptr('global', u32), n: u32 },
      defaults: { n: 256 },
      launch: { grid: 1, block: 256 },
      setup: (h) => ({ g_idata: h.alloc(u32, 256, 'in', IN), g_odata: h.alloc(u32, 1, 'out') }),
      check: (h, { g_odata }) => {
        let sum = 0;
        for (let i = 0; i < 256; i++) sum += IN(i);
        return h.readNumber(g_odata, u32, 0) === sum ? null : `sum ${h.readNumber(g_odata, u32, 0)}, expected ${sum}`;
      },
      body: (k, { g_idata, g_odata, n }) => {
        const sdata = k.shared(u32, [256]);
        const tid = k.threadIdx.x;
        const i = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x);
        const v = k.let(u32, 0);
        k.if(i.lt(n), () => v.set(g_idata.at(i).get()));
        sdata.at(tid).store(v);
        k.syncthreads();
        const s = k.let(u32, 1);
        k.while(() => s.lt(k.blockDim.x), () => {
          k.if(tid.rem(s.mul(2)).eq(0), () => sdata.at(tid).store(sdata.at(tid).get().add(sdata.at(tid.add(s)).get())));
          k.syncthreads();
          s.set(s.mul(2));
        });
        k.if(tid.eq(0), () => g_odata.at(k.blockIdx.x).store(sdata.at(0).get()));
      },
    });
    const k = profileDefinitions([reduce0], { file: FILE }).kernels[0];
    expect(k?.check).toEqual({ passed: true });
    const h = H200.get('reduce0');
    const warps = 8;
    // branches: the loop's guard and its 8 back-edges (the if inside is predicated): 9 per warp
    expect(Number(k?.metrics[BRANCH]) / warps).toBe((h?.[BRANCH] ?? NaN) / warps);
    // instructions, by hand from sass.txt: the H200's 248 per warp are a prologue of 22 (the predicated
    // load of g_idata[i] among them), 8 trips of 28 (SHF.L for 2 * s, the 17 of the remainder, ISETP,
    // the predicated IMAD of &sdata[tid + s], LDS, LDS, IADD3 and STS, the copy of 2 * s into s, BAR,
    // ISETP, BRA) and a tail of 2 (@P0 EXIT, warp 0's 8 / 8). Here the prologue is 22 too and a trip 28:
    // 2 * s is computed once for the remainder and for s (the variable s is not written between), its
    // copy into s is no instruction (the move of an assignment from the value just made), and
    // &sdata[tid + s] is an IADD3 and a LEA where ptxas adds s * 4 to &sdata[tid] (one IMAD); the tail
    // 2.5 (ISETP and EXIT, warp 0's 4 / 8)
    const ours = Number(k?.metrics[INST]) / warps;
    expect((h?.[INST] ?? NaN) / warps).toBe(248);
    expect(ours).toBe(22 + 8 * 28 + 2.5);
    expect(ours - 248).toBe(0.5);
  });
});
