/**
 * How much of an old dirty buffer kernels of each size push out of the L2, against our own H200 probe
 * (test/fidelity/probes/l2_pushout_probe.cu, its summary CSV beside it; test/fidelity/probes/kernels/l2_pushout.ts): u32
 * reads, copies and stores of micro.cu's family-1 shape, each from ncu's flushed L2 with its replay
 * residue (`seq`, 11 passes: arch ncuReplayDirtyBytes), and reads behind 2.25 MiB the application wrote
 * itself (`seed`, one pass, L2 kept). What holds: the residue is pushed out as the application's own old
 * buffer is; reads of up to 20 MiB push none of it out, 48 MiB and more nearly all; the stores' dirty
 * room. Known gap: the model's sets overflow later than the H200's (reads of 28-36 MiB push out 0.2-0.75
 * MB less; copies of 16-18 MiB 0.4-0.9 MB less), and how much a copy pushes out depends on where its
 * buffers lie relative to the residue (g_ld_u32_coalesced at the ground truth's addresses: 0.61 MB, the
 * H200 0.55; here 0.18, the H200 0.57; the H200 the same at both). Scattering the residue over the sets
 * (tried) removes that dependence but leaves 0.41 MB for g_ld_u32_coalesced; with 90 active slices
 * instead of 94 as well (tried) every family-1 figure is within 10 %, but the copy-lifetime, copy-sweep,
 * drain, near/far, residency, seed probes and this one fail (11 tests): they pin the capacity at 94.
 * A set index that fills the sets less evenly (tried: each block of lines permuted over the sets, and
 * 13 % of all lines hashed to any set) gives the copy the same push-out in every layout, as on the
 * H200 (0.56-0.58 MB over micro.cu's buffers, two 16-MiB ones and the div kernels' 64-MiB ones; the
 * H200 0.55-0.69; g_ld_u32_broadcast 0.563, the ground truth 0.558), and without the residue 0.12 MB
 * (the H200 in one pass 0.03-0.10, the even index 0.006). But the u32 stores then write 0.07-0.10 MB
 * back where the H200 writes 0.0005-0.015, and 15 tests in 8 files fail (family 5's annot,
 * annotdiscard and window variants write 22-31 % too much; near/far, copy lifetime and sweep, seed,
 * drain, store merge, this one): the dirty-room and capacity calibrations hold for the even index only.
 * Where those extra writes come from (counted by cause): the stores' are the per-set dirty cap cleaning
 * residue lines in the sets the uneven index fills most; family 5's (annot: pass 1 1.1-1.8 MB, pass 2
 * 0.6-0.7 MB per launch, the H200 0.26-0.98 and 0.10-0.16) are persisting lines evicted from sets holding
 * more of them than their set-aside ways. An uneven index would need the set-aside and the dirty room to
 * be budgets of a slice (hundreds of sets), not of each set. That was tried too: both as budgets of each
 * 320-set slice (its least recently used dirty or persisting line given up), each block permuted over
 * the sets and 16 % of lines hashed anywhere. Every copy layout then pushes out 0.58-0.60 MB, family 1
 * and family 5 hold their bounds, the push-out curves of reads and copies come closer, and 10 other
 * tests fail. Two of them rule the idea out: far reads of 24 MiB push 0.43 MB out where the H200 pushes
 * 0.01 (with every line copied, its sets overflow all at once, at 28 MiB: they are even), and stores of
 * 24 MiB 0.02 MB where the H200 writes 0.65 (its dirty room binds before a slice's would). What fills the
 * H200's sets unevenly for reads and copies but evenly for far reads is not a hash of the address alone.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { COPY_MIB, READ_MIB, SEED_READ_MIB, STORE_MIB } from './probes/kernels/l2_pushout.js';
import { fidelityReport } from './reports.js';

const MB = 1e6;
const RESIDUE_MB = 2.36;

interface Row {
  run: string;
  kernel: string;
  written: number;
}

/** the probe's rows of one run, in launch order: DRAM MB written */
function probeRun(run: string): Row[] {
  const rows = readFileSync(join(import.meta.dirname, 'probes', 'l2_pushout_probe_h200.csv'), 'utf8').trim().split('\n').slice(1);
  return rows
    .map((line) => line.split(','))
    .filter((c) => c[0] === run)
    .map((c) => ({ run: c[0]!, kernel: c[2]!, written: Number(c[4]) / MB }));
}

/** the `seq` launches: 5 reads of 4 MiB, then the reads, copies and stores by size */
function bySize(w: number[]) {
  const reads = w.slice(5, 5 + READ_MIB.length);
  const copies = w.slice(5 + READ_MIB.length, 5 + READ_MIB.length + COPY_MIB.length);
  const stores = w.slice(5 + READ_MIB.length + COPY_MIB.length);
  return { heads: w.slice(0, 5), reads, copies, stores };
}

/** the `seed` runs' sized reads (each after two clean-up reads and the seed) */
const seededReads = (w: number[]) => SEED_READ_MIB.map((_, i) => w[4 * i + 3]!);

let h200: ReturnType<typeof bySize>;
let ours: ReturnType<typeof bySize>;
let h200Seed: number[];
let oursSeed: number[];

beforeAll(() => {
  const seq = probeRun('seq_p11');
  const mine = fidelityReport('l2_pushout').kernels;
  expect(mine.map((k) => k.name.replace('l2po_', ''))).toEqual(seq.map((r) => r.kernel));
  h200 = bySize(seq.map((r) => r.written));
  ours = bySize(mine.map((k) => Number(k.metrics['dram__bytes_write.sum']) / MB));
  const seed = probeRun('seed_none_p1');
  const mineSeed = fidelityReport('l2_pushout_seed').kernels;
  expect(mineSeed.map((k) => k.name.replace('l2po_', ''))).toEqual(seed.map((r) => (r.kernel === 'seeder' ? 'seed' : r.kernel)));
  h200Seed = seededReads(seed.map((r) => r.written));
  oursSeed = seededReads(mineSeed.map((k) => Number(k.metrics['dram__bytes_write.sum']) / MB));
  const fmt = (v: number[]) => v.map((x) => x.toFixed(2)).join(' ');
  console.log(`reads of ${READ_MIB.join(' ')} MiB write: H200 ${fmt(h200.reads)}, warpsight ${fmt(ours.reads)} MB`);
  console.log(`  behind the app's seed, ${SEED_READ_MIB.join(' ')} MiB: H200 ${fmt(h200Seed)}, warpsight ${fmt(oursSeed)} MB`);
  console.log(`copies of ${COPY_MIB.join(' ')} MiB: H200 ${fmt(h200.copies)}, warpsight ${fmt(ours.copies)} MB`);
  console.log(`stores of ${STORE_MIB.join(' ')} MiB: H200 ${fmt(h200.stores)}, warpsight ${fmt(ours.stores)} MB`);
});

const at = <T extends readonly number[]>(sizes: T, values: number[], mib: T[number]) => values[sizes.indexOf(mib)]!;

describe('an old dirty buffer pushed out by kernels of each size vs the H200 push-out probe', () => {
  it('4 MiB reads of the buffers find nothing of the residue and push none of it out', () => {
    for (const w of [...h200.heads, ...ours.heads]) expect(w).toBeLessThan(0.01);
  });

  it('reads of up to 20 MiB push none of it out, of 48 MiB and more nearly all (85 % of 2.36 MB)', () => {
    for (const [sizes, lists] of [
      [READ_MIB, [h200.reads, ours.reads]],
      [SEED_READ_MIB, [h200Seed, oursSeed]],
    ] as const) {
      for (const w of lists)
        for (const [i, mib] of sizes.entries()) {
          if (mib <= 20) expect(w[i]!, `${mib} MiB`).toBeLessThan(0.05);
          if (mib >= 48) expect(w[i]!, `${mib} MiB`).toBeGreaterThan(0.85 * RESIDUE_MB);
        }
    }
  });

  it("the replay residue goes as the application's own 2.25 MiB does (within 0.25 MB on the H200, 0.5 here)", () => {
    for (const mib of SEED_READ_MIB) {
      expect(Math.abs(at(READ_MIB, h200.reads, mib) - at(SEED_READ_MIB, h200Seed, mib)), `H200 ${mib} MiB`).toBeLessThan(0.25);
      expect(Math.abs(at(READ_MIB, ours.reads, mib) - at(SEED_READ_MIB, oursSeed, mib)), `ours ${mib} MiB`).toBeLessThan(0.5);
    }
  });

  it('stores: none pushed out at 16 MiB, the dirty room overflowing at 24-40 MiB within 0.35 MB or 10 %', () => {
    for (const [i, mib] of STORE_MIB.entries()) {
      if (mib === 16) expect(Math.max(h200.stores[i]!, ours.stores[i]!)).toBeLessThan(0.05);
      else expect(Math.abs(ours.stores[i]! - h200.stores[i]!), `${mib} MiB`).toBeLessThan(Math.max(0.35, 0.1 * h200.stores[i]!));
    }
  });

  it('known gap stays bounded: the sets overflow later than the H200 (never 0.35 MB more, at most 1 MB less)', () => {
    const pairs = [
      ...READ_MIB.map((m, i) => [`read ${m}`, ours.reads[i]!, h200.reads[i]!] as const),
      ...SEED_READ_MIB.map((m, i) => [`seeded read ${m}`, oursSeed[i]!, h200Seed[i]!] as const),
      ...COPY_MIB.map((m, i) => [`copy ${m}`, ours.copies[i]!, h200.copies[i]!] as const),
    ];
    for (const [what, o, h] of pairs) {
      expect(o - h, `${what} MiB`).toBeLessThan(0.35);
      expect(h - o, `${what} MiB`).toBeLessThan(1);
    }
  });
});
