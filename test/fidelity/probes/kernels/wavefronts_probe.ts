/**
 * test/fidelity/probes/wavefronts/wavefronts_probe4.cu in the IR (issue #40, scan's gap: shared
 * accesses replayed by global traffic on the same SM), with launches of probes 4 and 3 (probe 3's
 * kernel is this one with all of A's warps in the loop and B's rows numbered from block 132 on:
 * the rows a warp streams change nothing in Warpsight's count, which follows time).
 *
 * Blocks of 512 threads, 8,448 bytes of dynamic shared memory. Group A (blocks < 132, one per SM,
 * launched first): warps < aw loop 2,048 conflict-free 32-bit shared accesses (aop 1 LDS, 2 STS,
 * one aligned 128-byte row each, #pragma unroll 8); with same = 1 the other warps of A stream
 * global data like B. Group B (the other blocks): bop bits 4 / 8: a loop of bi LDG / STG per thread,
 * wide 16 (int4) or 4 (int) bytes (#pragma unroll 4); 0: nothing (a block that starts and ends).
 *
 * `LAUNCHES` names the row of the H200's CSV (h200/p3/wv.csv or p4/wv.csv) each launch repeats.
 */
import { type KernelBuilder, type PtrVal, type Val, defineKernel, defineProgram, i32, ptr, u32, vec } from 'warpsight';

const A_BLOCKS = 132;
const WORDS = 1 << 25;
const ROWS = (1 << 22) - 1;
const int4 = vec(i32, 4);

export interface ProbeLaunch {
  /** the CSV it is measured in and its row there (0-based, in launch order) */
  csv: 'p3' | 'p4';
  row: number;
  aop: 1 | 2;
  aw: number;
  same: 0 | 1;
  nb: number;
  bop: number;
  bi: number;
  wide: 4 | 16;
}

const L = (csv: 'p3' | 'p4', row: number, aop: 1 | 2, aw: number, same: 0 | 1, nb: number, bop: number, bi: number, wide: 4 | 16): ProbeLaunch => ({ csv, row, aop, aw, same, nb, bop, bi, wide });

/**
 * The launches profiled (test/fidelity/wavefronts.test.ts): each shared op alone and beside each kind
 * of global traffic it meets or does not meet, the STS at two densities
 */
export const LAUNCHES: readonly ProbeLaunch[] = [
  L('p3', 15, 2, 16, 0, 0, 0, 0, 16), // STS alone (probe 3's pattern 0)
  L('p4', 0, 2, 16, 0, 132, 4, 128, 16), // STS beside a block streaming LDG.E.128
  L('p4', 2, 2, 4, 0, 132, 4, 128, 16), // ... 4 STS warps
  L('p4', 3, 2, 16, 0, 132, 4, 128, 4), // STS beside LDG.E (32-bit)
  L('p4', 5, 1, 16, 0, 132, 8, 128, 16), // LDS beside STG.E.128
  L('p4', 7, 1, 16, 0, 132, 8, 128, 4), // LDS beside STG.E
  L('p4', 9, 1, 16, 0, 8448, 0, 0, 16), // LDS beside 8,448 empty blocks starting
];

/** B's loop: bi trips of this warp's rows, loading and / or storing one element per thread */
function stream(k: KernelBuilder, g: PtrVal, gi: PtrVal, acc: ReturnType<KernelBuilder['let']>, p: { bop: Val; bi: Val; wide: Val }): void {
  const w = k.threadIdx.x.shr(5);
  const l = k.threadIdx.x.and(31);
  const e0 = k.blockIdx.x.mul(16).add(w);
  k.for(
    0,
    p.bi,
    1,
    (i) => {
      const e = e0.mul(p.bi.cast(u32)).add(i.cast(u32)).mul(32).add(l).and(ROWS);
      k.if(
        p.wide.eq(16),
        () => {
          k.if(p.bop.and(4).ne(0), () => {
            const y = g.at(e).load();
            if (!('parts' in y)) throw new TypeError('an int4 load gives four values');
            acc.set(acc.add(y.x.xor(y.y).xor(y.z).xor(y.w)));
          });
          k.if(p.bop.and(8).ne(0), () => g.at(e.add(1 << 22)).store([acc, i.cast(i32), e.cast(i32), l.cast(i32)]));
        },
        () => {
          k.if(p.bop.and(4).ne(0), () => acc.set(acc.add(gi.at(e).get())));
          k.if(p.bop.and(8).ne(0), () => gi.at(e.add(1 << 22)).store(acc.add(i.cast(i32))));
        },
      );
    },
    { unroll: 4 },
  );
}

const wavefrontsProbe = defineKernel({
  name: 'wavefronts_probe',
  description: 'conflict-free shared loops in one block per SM beside global streams or block starts (probes 3-4 of test/fidelity/probes/wavefronts)',
  params: { aop: i32, aw: i32, same: i32, bop: i32, bi: i32, wide: i32, g: ptr('global', int4) },
  defaults: { aop: 1, aw: 16, same: 0, bop: 0, bi: 0, wide: 16 },
  launch: { grid: A_BLOCKS, block: 512, dynamicShared: 8448 },
  setup: (h) => ({ g: h.alloc(i32, WORDS, 'g') }),
  body: (k, { aop, aw, same, bop, bi, wide, g }) => {
    const v = k.dynamicShared(i32);
    const gi = g.as(i32);
    const t = k.threadIdx.x;
    const w = t.shr(5);
    const l = t.and(31);
    const acc = k.let(i32, l.cast(i32));
    const shared = (): void =>
      k.for(
        0,
        2048,
        1,
        (i) => {
          const x = i.mul(16).add(w.cast(i32)).and(31).mul(32).add(l.cast(i32));
          k.if(aop.and(1).ne(0), () => acc.set(acc.add(v.at(x).get({ volatile: true }))));
          k.if(aop.and(2).ne(0), () => v.at(x.add(1056)).store(acc.add(i), { volatile: true }));
        },
        { unroll: 8 },
      );
    const p = { bop, bi, wide };
    k.if(
      k.blockIdx.x.lt(A_BLOCKS),
      () => k.if(w.cast(i32).lt(aw), shared, () => k.if(same.ne(0), () => stream(k, g, gi, acc, p))),
      () => stream(k, g, gi, acc, p),
    );
    k.if(acc.eq(0x7fffffff), () => gi.at(0).store(acc));
  },
});

export default defineProgram({
  name: 'wavefronts_probe',
  description: 'the launches of test/fidelity/probes/wavefronts probes 4 and 3 (scan traffic) in the order of their CSVs',
  run: (ctx) => {
    const g = ctx.host.alloc(i32, WORDS, 'g');
    for (const q of LAUNCHES)
      ctx.launch(wavefrontsProbe, { aop: q.aop, aw: q.aw, same: q.same, bop: q.bop, bi: q.bi, wide: q.wide, g }, { grid: A_BLOCKS + q.nb, block: 512, dynamicShared: 8448 });
  },
});
