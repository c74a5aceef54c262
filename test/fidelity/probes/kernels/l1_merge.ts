/**
 * The L1 miss-merging probe (test/fidelity/probes/l1merge/l1merge_probe.cu, measured on the H200 with
 * caches flushed, one pass each): warps of one SM loading the same sectors at about the same time.
 *   l1m_bs<W>      W warps per block (16384 blocks) read their block's one 128-B line (lane l: word l)
 *   l1m_bs8_late   as l1m_bs8, warp w first spins 16 w loop trips (the probe: w * D clock cycles,
 *                  D = 100 ... 10000; the H200 counts the same for every D)
 *   l1m_smshare    1-warp blocks, 16 per SM: every block reads the same 32 lines of its SM (%smid)
 *   l1m_rows       8-warp blocks, 4096: every warp reads its block's row of 16 lines (a tile's row)
 *   l1m_rows_rot   as l1m_rows, warp w starts at line 2w of the row
 * No stores: a thread writes only when its loaded sum is a value the data (bytes 0x01) cannot give.
 */
import { type KernelBuilder, type PtrVal, type Val, defineKernel, f32, i32, ptr, u32 } from 'warpsight';

type Body = (k: KernelBuilder, input: PtrVal, out: PtrVal) => void;

function probe(name: string, description: string, grid: number, block: number, body: Body) {
  return defineKernel({
    name,
    description,
    params: { in: ptr('global', u32), out: ptr('global', u32) },
    launch: { grid, block },
    registers: 16,
    // the probe's buffers: 16 MiB in (memset to 1s), 64 MiB out
    setup: (host) => ({ in: host.alloc(u32, (16 << 20) / 4, 'in', () => 0x01010101), out: host.alloc(u32, (64 << 20) / 4, 'out') }),
    body: (k, { in: input, out }) => body(k, input, out),
  });
}

/** the loaded value reaches memory only if it is one the data never makes (keeps the loads live) */
function keep(k: KernelBuilder, out: PtrVal, v: Val): void {
  k.if(v.eq(7), () => out.at(k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x)).store(v));
}

function blockShared(warps: number, lateTrips: number) {
  const late = lateTrips > 0;
  return probe(
    `l1m_bs${warps}${late ? '_late' : ''}`,
    `${warps} warps per block read the block's one 128-B line${late ? `, warp w after ${lateTrips} w loop trips` : ''}`,
    16384,
    32 * warps,
    (k, input, out) => {
      if (late) {
        const acc = k.let(u32, 0);
        k.for(0, k.threadIdx.x.shr(5).mul(lateTrips), 1, () => acc.set(acc.add(1)), { unroll: 1 });
        keep(k, out, input.at(k.blockIdx.x.mul(32).add(k.threadIdx.x.and(31)).add(acc.and(0))).get());
      } else keep(k, out, input.at(k.blockIdx.x.mul(32).add(k.threadIdx.x.and(31))).get());
    },
  );
}

function rows(rot: boolean) {
  return probe(`l1m_rows${rot ? '_rot' : ''}`, `every warp of a block reads the block's row of 16 lines${rot ? ', warp w from line 2w' : ''}`, 4096, 256, (k, input, out) => {
    const s = k.let(u32, 0);
    const w = k.threadIdx.x.shr(5);
    k.for(
      0,
      16,
      1,
      (i) => {
        const line = rot ? i.cast(u32).add(w.mul(2)).and(15) : i.cast(u32);
        s.set(s.add(input.at(k.blockIdx.x.mul(16).add(line).mul(32).add(k.threadIdx.x.and(31))).get()));
      },
      { unroll: 4 },
    );
    keep(k, out, s);
  });
}

const lines = [
  ...[1, 2, 4, 8, 32].map((w) => blockShared(w, 0)),
  blockShared(8, 16),
  probe('l1m_smshare', "1-warp blocks, 16 per SM, each reading the same 32 lines of its SM", 132 * 16, 32, (k, input, out) => {
    const s = k.let(u32, 0);
    k.for(0, 32, 1, (r) => s.set(s.add(input.at(k.smId.cast(u32).mul(32).add(r.cast(u32)).mul(32).add(k.threadIdx.x.and(31))).get())), { unroll: 1 });
    keep(k, out, s);
  }),
  rows(false),
  rows(true),
];

/**
 * Part 2 (l1merge_gemm_probe.cu): 512 x 512 float GEMMs whose warps and blocks read the same rows.
 *   l1m_gemm_naive     C[r][c] = sum_k A[r][k] B[k][c], blocks 32 x 8 (a warp: one r, 32 c)
 *   l1m_gemm_tiled<T>  the textbook shared-memory tiling, T x T tiles and threads
 */
const GN = 512;

function gemm(name: string, description: string, grid: [number, number], block: [number, number], body: (k: KernelBuilder, a: PtrVal, b: PtrVal, c: PtrVal) => void) {
  return defineKernel({
    name,
    description,
    params: { a: ptr('global', f32), b: ptr('global', f32), c: ptr('global', f32) },
    launch: { grid, block },
    registers: 32,
    // the probe's matrices: cudaMalloc'd in this order, A and B set to zero
    setup: (h) => ({ a: h.alloc(f32, GN * GN, 'A'), b: h.alloc(f32, GN * GN, 'B'), c: h.alloc(f32, GN * GN, 'C') }),
    body: (k, { a, b, c }) => body(k, a, b, c),
  });
}

function tiled(t: 16 | 32) {
  return gemm(`l1m_gemm_tiled${t}`, `shared-memory tiled GEMM, ${t} x ${t} tiles`, [GN / t, GN / t], [t, t], (k, a, b, c) => {
    const sa = k.shared(f32, [t, t]);
    const sb = k.shared(f32, [t, t]);
    const tx = k.threadIdx.x.cast(i32);
    const ty = k.threadIdx.y.cast(i32);
    const r = k.blockIdx.y.cast(i32).mul(t).add(ty);
    const col = k.blockIdx.x.cast(i32).mul(t).add(tx);
    const s = k.let(f32, 0);
    k.for(
      0,
      GN,
      t,
      (kk) => {
        sa.at(ty, tx).store(a.at(r.mul(GN).add(kk).add(tx)).get());
        sb.at(ty, tx).store(b.at(kk.add(ty).mul(GN).add(col)).get());
        k.syncthreads();
        k.for(0, t, 1, (j) => s.set(s.add(sa.at(ty, j).get().mul(sb.at(j, tx).get()))), { unroll: true });
        k.syncthreads();
      },
      { unroll: 1 },
    );
    c.at(r.mul(GN).add(col)).store(s);
  });
}

export const gemms = [
  gemm('l1m_gemm_naive', 'naive GEMM, a warp reads one row of A (broadcast) and 32 columns of B', [GN / 32, GN / 8], [32, 8], (k, a, b, c) => {
    const r = k.blockIdx.y.cast(i32).mul(8).add(k.threadIdx.y.cast(i32));
    const col = k.blockIdx.x.cast(i32).mul(32).add(k.threadIdx.x.cast(i32));
    const s = k.let(f32, 0);
    k.for(0, GN, 1, (kk) => s.set(s.add(a.at(r.mul(GN).add(kk)).get().mul(b.at(kk.mul(GN).add(col)).get()))), { unroll: 4 });
    c.at(r.mul(GN).add(col)).store(s);
  }),
  tiled(32),
  tiled(16),
];

/**
 * Part 3 (l1merge_group_probe.cu): one 1-warp block per SM (200 KB of dynamic shared memory each), the
 * warp reading 64 lines of its group's, the groups by %smid: mode 0 each SM its own, 1 the SMs of a
 * TPC (smid >> 1), 2 pairs of TPCs (smid >> 2), 3 sixteen SMs (smid >> 4), 4 even / odd SMs (no TPC
 * shares), 5 all SMs; `_late`: the odd SMs first spin (the probe: 20000 clock cycles; here 4096 loop trips)
 */
const GROUP_MODES = ['own', 'tpc', 'tpc2', 'sm16', 'parity', 'all'] as const;

function group(mode: number, late: boolean) {
  return defineKernel({
    name: `l1m_grp_${GROUP_MODES[mode]}${late ? '_late' : ''}`,
    description: `one warp per SM reads 64 lines its group (${GROUP_MODES[mode]}) shares${late ? ', the odd SMs late' : ''}`,
    params: { in: ptr('global', u32), out: ptr('global', u32) },
    launch: { grid: 132, block: 32, dynamicShared: 200 << 10 },
    registers: 16,
    setup: (host) => ({ in: host.alloc(u32, (4 << 20) / 4, 'in', () => 0x01010101), out: host.alloc(u32, (1 << 20) / 4, 'out') }),
    body: (k, { in: input, out }) => {
      const sm = k.smId.cast(u32);
      const g = [sm, sm.shr(1), sm.shr(2), sm.shr(4), sm.and(1), sm.and(0)][mode]!;
      const acc = k.let(u32, 0);
      if (late) k.if(sm.and(1).ne(0), () => k.for(0, 4096, 1, () => acc.set(acc.add(1)), { unroll: 1 }));
      const s = k.let(u32, acc.and(0));
      k.for(0, 64, 1, (r) => s.set(s.add(input.at(g.mul(64).add(r.cast(u32)).mul(32).add(k.threadIdx.x)).get())), { unroll: 8 });
      keep(k, out, s);
    },
  });
}

/**
 * Part 4 (l1merge_mask_probe.cu, modes 1 and 2): TPC pairs as l1m_grp_tpc, the odd SM's warp reading
 * only lanes 0-15 (sectors 0-1 of each line) or 16-31 (sectors 2-3)
 */
function halfPair(high: boolean) {
  return defineKernel({
    name: `l1m_msk_tpc_${high ? 'hi' : 'lo'}`,
    description: `the SMs of a TPC read the same 64 lines, the odd one only sectors ${high ? '2-3' : '0-1'} of each`,
    params: { in: ptr('global', u32), out: ptr('global', u32) },
    launch: { grid: 132, block: 32, dynamicShared: 200 << 10 },
    registers: 16,
    setup: (host) => ({ in: host.alloc(u32, (4 << 20) / 4, 'in', () => 0x01010101), out: host.alloc(u32, (1 << 20) / 4, 'out') }),
    body: (k, { in: input, out }) => {
      const sm = k.smId.cast(u32);
      const l = k.threadIdx.x;
      const s = k.let(u32, 0);
      const on = sm.and(1).eq(0).or(high ? l.ge(16) : l.lt(16));
      k.if(on, () => k.for(0, 64, 1, (r) => s.set(s.add(input.at(sm.shr(1).mul(64).add(r.cast(u32)).mul(32).add(l)).get())), { unroll: 8 }));
      keep(k, out, s);
    },
  });
}

export const groups = [...GROUP_MODES.map((_, m) => group(m, false)), group(1, true), group(5, true), halfPair(false), halfPair(true)];

export default [...lines, ...gemms, ...groups];
