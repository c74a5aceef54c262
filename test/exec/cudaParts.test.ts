/**
 * The parts of CUDA of issue #40 item 2, each profiled from a kernel written the way its C reads and
 * checked against the H200: test/fidelity/probes/cudaparts/parts_probe.cu, measured with ncu
 * (`--cache-control all --clock-control none`, parts_probe_h200.csv; its SASS in parts_sass.txt).
 * One block of 32 threads per launch, so every count is one warp's.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type PtrVal, defineKernel, f64, i32, ptr } from '../../src/api.js';
import { profileDefinitions } from '../../src/profile.js';
import { readNcuRawCsv } from '../../src/report/ncuCsv.js';

const FILE = fileURLToPath(import.meta.url);
const PROBE = join(import.meta.dirname, '..', 'fidelity', 'probes', 'cudaparts');

/** the probe's launches in order: loc, locd, satom s=1, 0, 32, 2, gen sel=0, 1 */
const H200 = readNcuRawCsv(join(PROBE, 'parts_probe_h200.csv')).map((l) =>
  Object.fromEntries(Object.entries(l.metrics).map(([id, v]) => [id, Number(String(v.value).replace(/,/g, ''))])) as Record<string, number>,
);
const h200 = (launch: number, id: string): number => {
  const v = H200[launch]?.[id];
  if (v === undefined) throw new Error(`no ${id} in launch ${launch} of the probe`);
  return v;
};

function profile(defs: Parameters<typeof profileDefinitions>[0]) {
  const report = profileDefinitions(defs, { file: FILE });
  for (const k of report.kernels) expect(k.check, k.name).toEqual({ passed: true });
  return report.kernels;
}

const LOCAL = [
  'smsp__sass_inst_executed_op_local_ld.sum',
  'smsp__sass_inst_executed_op_local_st.sum',
  'l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum',
  'l1tex__t_requests_pipe_lsu_mem_local_op_st.sum',
  'l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum',
  'l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum',
];

describe('local memory: per-thread arrays indexed at run time (STL/LDL)', () => {
  // int a[16]; for (i = 0; i < 16; i++) a[(i + k) & 15] = o[i]; o[tid + 16] = a[tid & 15];
  const loc = defineKernel({
    name: 'loc',
    params: { o: ptr('global', i32), k: i32 },
    defaults: { k: 3 },
    launch: { grid: 1, block: 32 },
    setup: (h) => ({ o: h.alloc(i32, 64, 'o', (i) => i * 7) }),
    check: (h, { o }) => {
      // a[(i + 3) & 15] = 7i, so a[j] = 7 * ((j - 3) & 15)
      for (let t = 0; t < 32; t++) {
        const want = 7 * (((t & 15) - 3) & 15);
        if (h.readNumber(o, i32, t + 16) !== want) return `o[${t + 16}] = ${h.readNumber(o, i32, t + 16)}, expected ${want}`;
      }
      return null;
    },
    body: (k, { o, k: kk }) => {
      const a = k.local(i32, 16);
      k.for(0, 16, 1, (i) => a.at(i.add(kk).and(15)).store(o.at(i).get()), { unroll: true });
      const t = k.threadIdx.x;
      o.at(t.add(16)).store(a.at(t.and(15)).get());
    },
  });
  // double a[8]; for (i = 0; i < 8; i++) a[(i + k) & 7] = o[i]; o[tid + 8] = a[k & 7];
  const locd = defineKernel({
    name: 'locd',
    params: { o: ptr('global', f64), k: i32 },
    defaults: { k: 3 },
    launch: { grid: 1, block: 32 },
    setup: (h) => ({ o: h.alloc(f64, 64, 'o', (i) => i + 0.5) }),
    check: (h, { o }) => {
      for (let t = 0; t < 32; t++) if (h.readNumber(o, f64, t + 8) !== 0.5) return `o[${t + 8}] = ${h.readNumber(o, f64, t + 8)}, expected 0.5 (a[3] = o[0])`;
      return null;
    },
    body: (k, { o, k: kk }) => {
      const a = k.local(f64, 8);
      k.for(0, 8, 1, (i) => a.at(i.add(kk).and(7)).store(o.at(i).get()), { unroll: true });
      o.at(k.threadIdx.x.add(8)).store(a.at(kk.and(7)).get());
    },
  });

  it("counts the H200's local instructions, requests and sectors (the warp's frames interleaved in 4-byte words)", () => {
    const [ours32, ours64] = profile([loc, locd]);
    for (const [n, ours] of [[0, ours32], [1, ours64]] as const) {
      for (const id of LOCAL) expect(ours?.metrics[id], `${ours?.name} ${id}`).toBe(h200(n, id));
    }
    // by hand: 16 STL at one index each, 4 sectors; the LDL at tid & 15 touches 32 sectors (word w of
    // lane l is sector w * 4 + l / 8: all distinct); STL.64 two words, 2 requests and 8 sectors
    expect(ours32?.metrics['l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum']).toBe(16 * 4);
    expect(ours32?.metrics['l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum']).toBe(32);
    expect(ours64?.metrics['l1tex__t_requests_pipe_lsu_mem_local_op_st.sum']).toBe(8 * 2);
    expect(ours32?.instructions.map((x) => x.opcode)).toContain('STL');
    expect(ours64?.instructions.map((x) => x.opcode)).toContain('LDL.64');
  });

  it('faults naming the line, the thread and the frame on an index past the array', () => {
    const bad = defineKernel({
      name: 'local_oob',
      params: { o: ptr('global', i32) },
      launch: { grid: 1, block: 32 },
      setup: (h) => ({ o: h.alloc(i32, 32, 'o') }),
      body: (k, { o }) => {
        const a = k.local(i32, 4);
        a.at(k.threadIdx.x).store(1);
        o.at(k.threadIdx.x).store(a.at(0).get());
      },
    });
    expect(() => profileDefinitions([bad], { file: FILE })).toThrow(/cudaParts\.test\.ts:\d+: invalid local write of 4 bytes at offset 16 by thread \(4,0,0\) in block \(0,0,0\).*16 bytes of local memory/);
  });

  it('refuses an atomic on a local array at build time', () => {
    const bad = defineKernel({
      name: 'local_atomic',
      params: { o: ptr('global', i32) },
      launch: { grid: 1, block: 32 },
      setup: (h) => ({ o: h.alloc(i32, 32, 'o') }),
      body: (k) => {
        k.local(i32, 4).at(0).reduce('add', 1);
      },
    });
    expect(() => profileDefinitions([bad], { file: FILE })).toThrow(/cudaParts\.test\.ts:\d+: an atomic on local memory/);
  });
});

describe('shared atomics: instructions, wavefronts and bank conflicts', () => {
  // __shared__ int h[1024]; zero it; __syncthreads(); atomicAdd(&h[(tid * s) & 1023], 1); __syncthreads(); o[tid] = h[tid];
  const satom = (s: number) =>
    defineKernel({
      name: `satom_s${s}`,
      params: { o: ptr('global', i32), s: i32 },
      defaults: { s },
      launch: { grid: 1, block: 32 },
      setup: (h) => ({ o: h.alloc(i32, 32, 'o') }),
      check: (h, { o }) => {
        const want = new Array<number>(1024).fill(0);
        for (let t = 0; t < 32; t++) want[(t * s) & 1023]! += 1;
        for (let t = 0; t < 32; t++) if (h.readNumber(o, i32, t) !== want[t]) return `o[${t}] = ${h.readNumber(o, i32, t)}, expected ${want[t]}`;
        return null;
      },
      body: (k, { o, s: sv }) => {
        const h = k.shared(i32, [1024]);
        const t = k.threadIdx.x.cast(i32);
        k.for(t, 1024, 32, (i) => h.at(i).store(0));
        k.syncthreads();
        h.at(t.mul(sv).and(1023)).reduce('add', 1);
        k.syncthreads();
        o.at(t).store(h.at(t).get());
      },
    });
  it("counts the H200's ATOMS, their wavefronts and conflicts: distinct banks, one address, a 32-way and a 2-way conflict", () => {
    const strides = [1, 0, 32, 2];
    const ours = profile(strides.map(satom));
    strides.forEach((s, n) => {
      const k = ours[n];
      for (const id of [
        'smsp__inst_executed_op_shared_atom.sum',
        'smsp__sass_inst_executed_op_shared_atom.sum',
        'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum',
        'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum',
        // the shared total counts the ATOMS with the 32 STS and the LDS
        'smsp__sass_inst_executed_op_shared.sum',
      ])
        expect(k?.metrics[id], `s=${s} ${id}`).toBe(h200(2 + n, id));
    });
    // by hand: stride 32 puts all 32 lanes in bank 0 at distinct words: 32 wavefronts, 31 above one
    expect(ours[2]?.metrics['l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum']).toBe(31);
  });
});

describe('generic pointers: a pointer that may point to shared or global memory (LD/ST)', () => {
  // __shared__ int s[64]; s[tid] = tid; __syncthreads(); int *p = sel ? s : g; p[tid] = p[tid] + 1;
  // __syncthreads(); g[tid + 32] = s[tid];
  const gen = (sel: number) =>
    defineKernel({
      name: `gen_sel${sel}`,
      params: { g: ptr('global', i32), sel: i32 },
      defaults: { sel },
      launch: { grid: 1, block: 32 },
      setup: (h) => ({ g: h.alloc(i32, 64, 'g', (i) => 100 + i) }),
      check: (h, { g }) => {
        for (let t = 0; t < 32; t++) {
          const wantG = sel ? 100 + t : 101 + t;
          const wantS = sel ? t + 1 : t;
          if (h.readNumber(g, i32, t) !== wantG) return `g[${t}] = ${h.readNumber(g, i32, t)}, expected ${wantG}`;
          if (h.readNumber(g, i32, t + 32) !== wantS) return `g[${t + 32}] = ${h.readNumber(g, i32, t + 32)}, expected ${wantS}`;
        }
        return null;
      },
      body: (k, { g, sel: s }) => {
        const smem = k.shared(i32, [64]);
        const t = k.threadIdx.x;
        smem.at(t).store(t.cast(i32));
        k.syncthreads();
        const p = k.select(s.ne(0), smem.base, g) as PtrVal;
        p.at(t).store(p.at(t).get().add(1));
        k.syncthreads();
        g.at(t.add(32)).store(smem.at(t).get());
      },
    });
  it('counts each generic access in the space its addresses resolve to, as the H200 does', () => {
    const ours = profile([gen(0), gen(1)]);
    for (const n of [0, 1]) {
      const k = ours[n];
      for (const id of [
        'smsp__sass_inst_executed_op_global_ld.sum',
        'smsp__sass_inst_executed_op_global_st.sum',
        'smsp__sass_inst_executed_op_shared_ld.sum',
        'smsp__sass_inst_executed_op_shared_st.sum',
        'l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum',
        'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum',
        'l1tex__t_requests_pipe_lsu_mem_global_op_st.sum',
        'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum',
        'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum',
      ])
        expect(k?.metrics[id], `sel=${n} ${id}`).toBe(h200(6 + n, id));
      // the H200's SASS (parts_sass.txt): LD.E and ST.E
      expect(k?.instructions.map((x) => x.opcode)).toEqual(expect.arrayContaining(['LD.E', 'ST.E']));
    }
  });

  it("names k.generic where two pointers into different spaces meet, and that hint builds", () => {
    const mixed = (fix: boolean) =>
      defineKernel({
        name: fix ? 'ptr_eq_generic' : 'ptr_eq_mixed',
        params: { g: ptr('global', i32) },
        launch: { grid: 1, block: 32 },
        setup: (h) => ({ g: h.alloc(i32, 32, 'g') }),
        check: (h, { g }) => (h.readNumber(g, i32, 0) === 0 ? null : `g[0] = ${h.readNumber(g, i32, 0)}, expected 0 (the pointers differ)`),
        body: (k, { g }) => {
          const smem = k.shared(i32, [32]);
          const same = fix ? k.generic(smem.base).eq(k.generic(g)) : smem.base.eq(g);
          g.at(k.threadIdx.x).store(k.select(same, 1, 0));
        },
      });
    expect(() => profileDefinitions([mixed(false)], { file: FILE })).toThrow(/cudaParts\.test\.ts:\d+: type error: eq of ptr<shared, i32> and ptr<global, i32>: pointers into different memory spaces; make both generic pointers with k\.generic\(p\)/);
    profile([mixed(true)]);
  });
});
