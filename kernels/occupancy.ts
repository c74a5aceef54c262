/**
 * Family 4 of the H200 ground truth (micro.cu `occ_*`, 512 threads per block) and the seed's
 * occupancy example:
 *  - occ_regs_{32,64,128}: 20/50/110 live floats under __launch_bounds__(512, 4/2/1); ptxas gave
 *    27/57/117 registers (no spills): 4/2/1 blocks per SM. 8M threads, `iters` = 8 rounds of
 *    v[j] = fmaf(v[j], v[(j+1) % NV], -0.9f) over the unrolled array, then the sum is stored;
 *  - occ_smem_{8k,48k,64k,100k,200k}: the same 16-round copy through dynamic shared memory
 *    (dsm[tid] = in[i]; sync; out[i] = dsm[(tid+1) & 511] + 1; sync) with 8-200 KB of it per block;
 *  - occ_grid_80blocks / occ_grid_full: one grid-stride loop out[k] = in[k] * 2 + 1 over 16M floats
 *    with 80 or 32,768 blocks (80 blocks: theoretical 100 %, achieved 24.5 %: 80 of 132 SMs busy);
 *  - seed_example_80blocks: the seed's example kernel (512 threads, 8 registers, 8 KB of shared
 *    memory) launched with only 80 blocks: 100 % theoretical occupancy, but 80 x 512 threads fill
 *    15 % of the H200's 132 x 2048 thread slots.
 */
import { type KernelBuilder, type Val, type Var, defineKernel, f32, i32, ptr, u32, u64 } from 'warpsight';
import { fillF32 } from './divergence.js';

const F_ELEMS = 1 << 24;
// micro.cu pre-fills the output buffers too; the kernels only write them, so they start zeroed here
const fin = (i: number): number => fillF32(i, 1, 0.01, 17);

// ---- registers ---------------------------------------------------------------------------------

/** micro.cu reg_body<NV> on the host, in float arithmetic (fmaf rounded once, as Math.fround(a*b+c) is for floats) */
function hostRegBody(x: number, nv: number, iters: number): number {
  const v: number[] = [];
  for (let j = 0; j < nv; j++) v.push(Math.fround(x * Math.fround(1 + Math.fround(j * 0.001))));
  for (let it = 0; it < iters; it++) for (let j = 0; j < nv; j++) v[j] = Math.fround((v[j] as number) * (v[(j + 1) % nv] as number) + Math.fround(-0.9));
  let s = 0;
  for (let j = 0; j < nv; j++) s = Math.fround(s + (v[j] as number));
  return s;
}

function occRegs(name: string, nv: number, registers: number) {
  const n = 1 << 23;
  return defineKernel({
    name,
    description: `${nv} live floats per thread under __launch_bounds__(512, ${Math.round(4 * 20 / nv) || 1}): ${registers} registers`,
    params: { in: ptr('global', f32), out: ptr('global', f32), iters: i32 },
    defaults: { iters: 8 },
    launch: { grid: n / 512, block: 512 },
    registers,
    setup: (h) => ({ in: h.alloc(f32, F_ELEMS, 'fin', fin), out: h.alloc(f32, F_ELEMS, 'fout') }),
    check: (h, { in: src, out, iters }) => {
      for (let t = 0; t < 1024; t++) {
        const got = h.readNumber(out, f32, t);
        const want = hostRegBody(h.readNumber(src, f32, t), nv, iters);
        if (!Number.isFinite(got)) return `out[${t}] = ${got} is not finite`;
        if (Math.abs(got - want) > 1e-4 * Math.max(1, Math.abs(want))) return `out[${t}] = ${got}, expected ${want}`;
      }
      return null;
    },
    body: (k, { in: src, out, iters }) => {
      const i = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x);
      const x = src.at(i).get();
      const v: Var[] = [];
      for (let j = 0; j < nv; j++) v.push(k.let(f32, x.mul(Math.fround(1 + Math.fround(j * 0.001)))));
      k.for(0, iters, 1, () => {
        for (let j = 0; j < nv; j++) (v[j] as Var).set((v[j] as Var).fma(v[(j + 1) % nv] as Var, -0.9));
      }, { unroll: 1 }); // #pragma unroll 1, as micro.cu has it
      let s = k.let(f32, 0);
      for (let j = 0; j < nv; j++) s.set(s.add(v[j] as Var));
      out.at(i).store(s);
    },
  });
}

// ---- shared memory -------------------------------------------------------------------------------

const SMEM_ITERS = 16;

function occSmem(name: string, dynBytes: number) {
  return defineKernel({
    name,
    description: `16 rounds of a copy through ${dynBytes / 1024} KB of dynamic shared memory per block`,
    params: { in: ptr('global', f32), out: ptr('global', f32) },
    launch: { grid: F_ELEMS / (512 * SMEM_ITERS), block: 512, dynamicShared: dynBytes },
    registers: 18,
    setup: (h) => ({ in: h.alloc(f32, F_ELEMS, 'fin', fin), out: h.alloc(f32, F_ELEMS, 'fout') }),
    check: (h, { in: src, out }) => {
      for (let t = 0; t < 1024; t++) {
        const want = Math.fround(h.readNumber(src, f32, (t & ~511) + (((t % 512) + 1) & 511)) + 1);
        const got = h.readNumber(out, f32, t);
        if (got !== want) return `out[${t}] = ${got}, expected ${want}`;
      }
      return null;
    },
    body: (k: KernelBuilder, { in: src, out }) => {
      const dsm = k.dynamicShared(f32);
      const tid = k.threadIdx.x;
      // as nvcc compiles micro.cu's loop (the ground truth's SASS): the 16 constant trips unrolled (no
      // branch), both shared addresses computed once, and the size_t index
      // i = (blockIdx * 16 + r) * blockDim + tid kept as two pointers advanced by blockDim each trip
      const mine = dsm.add(tid);
      const next = dsm.add(tid.add(1).and(511));
      const i0 = k.blockIdx.x.cast(u64).mul(k.blockDim.x.cast(u64)).mul(SMEM_ITERS).add(tid.cast(u64));
      const from = k.letPtr(src.add(i0));
      const to = k.letPtr(out.add(i0));
      for (let r = 0; r < SMEM_ITERS; r++) {
        mine.store(from.load());
        k.syncthreads();
        to.store((next.load() as Val).add(1));
        k.syncthreads();
        if (r < SMEM_ITERS - 1) {
          from.set(from.add(k.blockDim.x));
          to.set(to.add(k.blockDim.x));
        }
      }
    },
  });
}

// ---- grid size -------------------------------------------------------------------------------------

function occGrid(name: string, blocks: number) {
  return defineKernel({
    name,
    description: `grid-stride loop out[k] = in[k] * 2 + 1 over 16M floats with ${blocks} blocks of 512`,
    // n and k are size_t in micro.cu: 64-bit compares and index arithmetic, as its SASS has them
    params: { in: ptr('global', f32), out: ptr('global', f32), n: u64 },
    defaults: { n: F_ELEMS },
    launch: { grid: blocks, block: 512 },
    registers: 16,
    setup: (h) => ({ in: h.alloc(f32, F_ELEMS, 'fin', fin), out: h.alloc(f32, F_ELEMS, 'fout') }),
    check: (h, { in: src, out }) => {
      for (let t = 0; t < 4096; t++) {
        const want = Math.fround(h.readNumber(src, f32, t) * 2 + 1);
        const got = h.readNumber(out, f32, t);
        if (got !== want) return `out[${t}] = ${got}, expected ${want}`;
      }
      return null;
    },
    body: (k, { in: src, out, n }) => {
      const start = k.blockIdx.x.cast(u64).mul(k.blockDim.x.cast(u64)).add(k.threadIdx.x.cast(u64));
      k.for(start, n, k.gridDim.x.cast(u64).mul(k.blockDim.x.cast(u64)), (i) => {
        out.at(i).store(src.at(i).get().fma(2, 1));
      });
    },
  });
}

// ---- the seed's example ------------------------------------------------------------------------------

/** 512 threads, 8 registers, 8 KB of shared memory: each block reverses its 2,048 floats through shared memory */
const seedExample = defineKernel({
  name: 'seed_example_80blocks',
  description: "the seed's occupancy example: 512 threads, 8 registers, 8 KB shared memory, only 80 blocks",
  params: { in: ptr('global', f32), out: ptr('global', f32) },
  launch: { grid: 80, block: 512 },
  registers: 8,
  setup: (h) => ({ in: h.alloc(f32, 80 * 2048, 'in', fin), out: h.alloc(f32, 80 * 2048, 'out') }),
  check: (h, { in: src, out }) => {
    for (let t = 0; t < 80 * 2048; t += 97) {
      const b = Math.floor(t / 2048);
      const want = h.readNumber(src, f32, b * 2048 + 2047 - (t % 2048));
      const got = h.readNumber(out, f32, t);
      if (got !== want) return `out[${t}] = ${got}, expected ${want}`;
    }
    return null;
  },
  body: (k, { in: src, out }) => {
    const tile = k.shared(f32, [2048], 'tile');
    const tid = k.threadIdx.x;
    const base = k.blockIdx.x.mul(2048);
    for (let j = 0; j < 4; j++) tile.at(tid.add(512 * j)).store(src.at(base.add(tid).add(512 * j)).get());
    k.syncthreads();
    for (let j = 0; j < 4; j++) out.at(base.add(tid).add(512 * j)).store(tile.at(tid.add(512 * j).mul(-1).add(2047)).get());
  },
});

export default [
  occRegs('occ_regs_32', 20, 27),
  occRegs('occ_regs_64', 50, 57),
  occRegs('occ_regs_128', 110, 117),
  occSmem('occ_smem_8k', 8 * 1024),
  occSmem('occ_smem_48k', 48 * 1024),
  occSmem('occ_smem_64k', 64 * 1024),
  occSmem('occ_smem_100k', 100 * 1024),
  occSmem('occ_smem_200k', 200 * 1024),
  occGrid('occ_grid_80blocks', 80),
  occGrid('occ_grid_full', F_ELEMS / 512),
  seedExample,
];
