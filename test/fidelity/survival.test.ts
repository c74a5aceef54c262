/**
 * Which lines of an old dirty buffer the L2 gives up, and which it only writes back, against our own
 * H200 probe (test/fidelity/probes/l2_survival_probe.cu, its two data files beside it; kernels/
 * l2_survival.ts): in an emptied L2, a 2.25 MiB seed written by a kernel (k), read by one (r: clean
 * lines) or written and then read (w); a 16 MiB copy or a read of 28 / 36 / 44 MiB; then every seed line
 * loaded once (the H200: timed from SM 0, a line is lost when it comes from DRAM; here: the survey
 * launch's DRAM reads), then every 16th line of the copy's in and out buffers. What the probe found:
 * - a copy loses 4 % of a written seed, 12 % of a read one; a read of 36 MiB 16 % and 27 %: a written
 *   line outlives a line read once of the same age;
 * - reading a written line again adds nothing (w loses what k loses);
 * - the DRAM bytes the workload writes are the seed's lines passed over, not only those evicted: the
 *   copy writes back 0.32 MB (2,500 lines) and evicts 730 of them, the read of 36 MiB 1.02 MB (7,900)
 *   and 2,900: a dirty line due for eviction is written back and kept, once;
 * - repeated, a run loses other lines (the copy: 170 of ~770 in common between two runs), mostly whole
 *   groups of four (address bits 7 and 9 apart); lines the host wrote (copy engine) are clean in the L2
 *   and go first (60-68 % lost, 0.02 MB written back);
 * - the workload's own lines are younger and stay: a copy keeps all but 0.2-0.4 % of its in lines and
 *   of its out lines; a read of 36 / 44 MiB has lost 7 / 37 % of the first 16 MiB it read.
 * The probe's `words` mode accesses the seed word by word: lines written whole by L2 atomics (on every
 * word, or on one word of each sector) are kept as lines stored whole (a copy loses 3-4 %, a read of 36
 * MiB 12-14 %), and so are lines read and then written one word, by an atomic or a store; lines of which
 * only the first sector was written (by atomics or stores, the rest never fetched) lose 28-35 % and
 * 37-46 %, more than lines read once (11 / 27 %), which lose as much when only their first 64 bytes
 * were read.
 * The L2's second-chance replacement (src/memory/l2Cache.ts L2Options.replacement 'sc': a line read
 * again or written whole is passed over once) does all of this but the last: such lines go here as lines
 * read once do. Known gaps: that (9-11 % lost after a copy); a read of 44 MiB loses 94 % of a written
 * seed here, 79 % on the H200; a read of 36 MiB 39 % of a read seed here, 27 % there (here the sets fill
 * more evenly, so they overflow together); the copy writes back 0.25 MB of a written seed here, 0.32-0.34
 * there.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_LINES, SAMPLE_STRIDE, SURVIVAL_RUNS, WORD_RUNS } from './probes/kernels/l2_survival.js';
import { getArch } from '../../src/arch/index.js';
import { fidelityReport } from './reports.js';

const SEED_LINES = 18_432;
const WR = 'dram__bytes_write.sum';
const RD = 'dram__bytes_read.sum';
/** the address bits whose parity picks a line's L2 partition, with a bit of its 4-MiB region (arch l2PartitionHash) */
const XOR_BITS = getArch('h200').l2PartitionHash.xorBits;
const bit = (a: number, b: number) => Math.floor(a / 2 ** b) % 2;

/** shares of a run's surveyed lines lost: the seed's, and the samples of the copy's in and out buffers */
interface Survey {
  seed: number;
  in: number;
  out: number;
}

interface Side {
  /** per run (mean over repeats) */
  lost: Map<string, Survey>;
  /** DRAM bytes the workload wrote, per run (mean) */
  written: Map<string, number>;
}

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

/**
 * The probe's latencies (one of its files; the seed's lines, then SAMPLE_LINES of in's and of out's): a
 * line is lost when its load took as long as a miss (near its SM: 500-625 cycles against 250-325 for a
 * hit; far: 650 and more against 425-500). Which partition is near: the hash's parity, its bit for each
 * 4-MiB region (a physical address bit) voted by the loads served near (under 375 cycles) in all runs.
 */
function h200Surveys(file: string): Map<string, Survey[]> {
  const lines = gunzipSync(readFileSync(join(import.meta.dirname, 'probes', file))).toString().trim().split('\n');
  const [seedBase, inBase, outBase] = lines[0]!.split(',').slice(1).map(Number);
  const at = (base: number, stride: number, n: number) => Array.from({ length: n }, (_, j) => base + j * stride * 128);
  const addr = [...at(seedBase!, 1, SEED_LINES), ...at(inBase!, SAMPLE_STRIDE, SAMPLE_LINES), ...at(outBase!, SAMPLE_STRIDE, SAMPLE_LINES)];
  const parity = addr.map((a) => XOR_BITS.reduce((p, b) => p ^ bit(a, b), 0));
  const region = addr.map((a) => Math.floor(a / 2 ** 22));
  const runs = lines.slice(1).map((l) => {
    const c = l.split(',');
    return { run: c[1]!, lat: c.slice(3).map(Number) };
  });
  const votes = new Map<number, number>();
  for (const { lat } of runs) lat.forEach((t, j) => t < 375 && votes.set(region[j]!, (votes.get(region[j]!) ?? 0) + (parity[j] === 0 ? 1 : -1)));
  const near = parity.map((p, j) => p === ((votes.get(region[j]!) ?? 0) > 0 ? 0 : 1));
  const share = (lat: number[], from: number, n: number) => lat.slice(from, from + n).filter((t, j) => t >= (near[from + j] ? 450 : 600)).length / n;
  const out = new Map<string, Survey[]>();
  for (const { run, lat } of runs) {
    const survey = { seed: share(lat, 0, SEED_LINES), in: share(lat, SEED_LINES, SAMPLE_LINES), out: share(lat, SEED_LINES + SAMPLE_LINES, SAMPLE_LINES) };
    out.set(run, [...(out.get(run) ?? []), survey]);
  }
  return out;
}

/** a probe file's runs: lines lost (mean over repeats) and DRAM bytes the workload wrote (mean), by run */
function h200Side(reps: Map<string, Survey[]>, dramFile: string, skip: (c: string[]) => boolean): Side {
  const dram = readFileSync(join(import.meta.dirname, 'probes', dramFile), 'utf8').trim().split('\n').slice(1).map((l) => l.split(',')).filter((c) => !skip(c));
  const written = new Map<string, number>();
  for (const run of new Set(dram.map((c) => c[0]!))) written.set(run, mean(dram.filter((c) => c[0] === run).map((c) => Number(c[3]))));
  const avg = (xs: Survey[], k: keyof Survey) => mean(xs.map((x) => x[k]));
  const lost = new Map([...reps].map(([r, xs]) => [r, { seed: avg(xs, 'seed'), in: avg(xs, 'in'), out: avg(xs, 'out') }]));
  return { lost, written };
}

let h200: Side;
/** the probe's `words` mode (its own k and r runs, the seeds written word by word) */
let h200Words: Side;
let ours: Side;
/** the probe's seed losses, every repetition */
let h200Reps: Map<string, Survey[]>;
/** the probe side a run was measured in: the plain mode's runs, or the words mode's */
const h200Of = (r: string) => ((SURVIVAL_RUNS as readonly string[]).includes(r) ? h200 : h200Words);

beforeAll(() => {
  h200Reps = h200Surveys('l2_survival_probe_h200.csv.gz');
  // the program's first copy also writes back what its setup's memsets left dirty (the probe's other runs show it: 6.2 MB against 0.3)
  h200 = h200Side(h200Reps, 'l2_survival_probe_h200_dram.csv', (c) => c[0] === 'k.e.cp16' && c[1] === '0');
  h200Words = h200Side(h200Surveys('l2_survival_probe_words_h200.csv.gz'), 'l2_survival_probe_words_h200_dram.csv', (c) => c[0] === 'k.e.cp16');
  const runs = [...SURVIVAL_RUNS, ...WORD_RUNS];
  const kernels = fidelityReport('l2_survival').kernels;
  const surveys = kernels.filter((k) => k.name === 'l2sv_survey');
  const workloads = kernels.filter((k) => k.name !== 'l2sv_survey');
  expect(surveys.length).toBe(3 * runs.length);
  // three surveys per run (seed, in, out); one workload per run but the first (none)
  const share = (i: number, lines: number) => Number(surveys[i]!.metrics[RD]) / 64 / lines;
  ours = {
    lost: new Map(runs.map((r, i) => [r, { seed: share(3 * i, SEED_LINES), in: share(3 * i + 1, SAMPLE_LINES), out: share(3 * i + 2, SAMPLE_LINES) }])),
    written: new Map(runs.slice(1).map((r, i) => [r, Number(workloads[i]!.metrics[WR])])),
  };
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  for (const r of runs) {
    const h = h200Of(r);
    const [hl, ol] = [h.lost.get(r)!, ours.lost.get(r)!];
    console.log(
      `${r.padEnd(9)} lost H200 / warpsight: seed ${pct(hl.seed)} / ${pct(ol.seed)}, in ${pct(hl.in)} / ${pct(ol.in)}, out ${pct(hl.out)} / ${pct(ol.out)}` +
        (r.endsWith('none') ? '' : `; DRAM written ${(h.written.get(r)! / 1e6).toFixed(3)} vs ${(ours.written.get(r)! / 1e6).toFixed(3)} MB`),
    );
  }
});

const lost = (side: Side, r: string) => side.lost.get(r)!.seed;
const sides = () => [h200, ours] as const;

describe('what an old dirty buffer loses vs the H200 survival probe', () => {
  it('nothing without a workload, and each run of the probe repeats within 2 points', () => {
    for (const side of sides()) expect(lost(side, 'k.e.none')).toBe(0);
    expect(h200Reps.get('k.e.flush')!.map((x) => x.seed)).toEqual([1]);
    for (const r of ['k.e.cp16', 'k.e.rd36']) expect(Math.abs(h200Reps.get(r)![0]!.seed - h200Reps.get(r)![1]!.seed), r).toBeLessThan(0.02);
  });

  it('a copy loses few written lines (under 6 %), at least twice as many lines read once', () => {
    for (const side of sides()) {
      expect(lost(side, 'k.e.cp16')).toBeLessThan(0.06);
      expect(lost(side, 'w.e.cp16')).toBeLessThan(0.06);
      expect(lost(side, 'r.e.cp16')).toBeGreaterThan(2 * lost(side, 'k.e.cp16'));
    }
  });

  it('a written line read again is kept no better than one only written (within 3 points)', () => {
    for (const side of sides()) for (const w of ['cp16', 'rd36', 'rd44'] as const) expect(Math.abs(lost(side, `w.e.${w}`) - lost(side, `k.e.${w}`)), w).toBeLessThan(0.03);
  });

  it('a dirty line due for eviction is written back and kept: twice as many seed lines written back as lost', () => {
    for (const side of sides())
      for (const r of ['k.e.cp16', 'k.e.rd36', 'w.e.cp16', 'w.e.rd36'] as const) expect(side.written.get(r)! / 128 / (lost(side, r) * SEED_LINES), r).toBeGreaterThan(1.8);
  });

  it("the workload's own lines, surveyed after the seed: every run within 4 points of the H200 (a copy keeps its in and out; a read of 36 / 44 MiB loses 7 / 37 % of the first 16 MiB it read, the oldest)", () => {
    for (const r of [...SURVIVAL_RUNS, ...WORD_RUNS])
      for (const b of ['in', 'out'] as const) {
        const h = h200Of(r).lost.get(r)![b];
        expect(Math.abs(ours.lost.get(r)![b] - h), `${r} ${b}`).toBeLessThan(0.04);
      }
  });

  it('every run loses within 16 points of the H200', () => {
    for (const r of SURVIVAL_RUNS) expect(Math.abs(lost(ours, r) - lost(h200, r)), r).toBeLessThan(0.16);
  });

  it('a written seed: the workload writes back within 25 % of the H200 (the 28 MiB read: 0.05 MB); a read seed: under 0.15 MB in both', () => {
    for (const r of SURVIVAL_RUNS) {
      const h = h200.written.get(r)!;
      const o = ours.written.get(r)!;
      if (r.startsWith('r.')) for (const x of [h, o]) expect(x, r).toBeLessThan(0.15e6);
      else if (r === 'k.e.rd28') expect(Math.abs(o - h)).toBeLessThan(0.05e6);
      else if (!r.endsWith('none')) expect(Math.abs(o / h - 1), r).toBeLessThan(0.25);
    }
    // written whole by atomics
    for (const r of ['a.e.cp16', 'a.e.rd36']) expect(Math.abs(ours.written.get(r)! / h200Words.written.get(r)! - 1), r).toBeLessThan(0.25);
  });
});

describe('lines written word by word vs the probe (`words` mode: its own k and r runs)', () => {
  const pairs = () => [[h200Words, 'H200'], [ours, 'warpsight']] as const;

  it('written whole by L2 atomics (every word, or one word a sector), or read and then written one word (atomic or store), a line is kept as one stored whole (within 4 points of k)', () => {
    for (const [side, who] of pairs())
      for (const w of ['cp16', 'rd36']) for (const by of ['a', 'y', 'f', 'g']) expect(Math.abs(lost(side, `${by}.e.${w}`) - lost(side, `k.e.${w}`)), `${who} ${by}.e.${w}`).toBeLessThan(0.04);
  });

  it('only its first sector written (by atomics or a store; the rest never fetched), a line is not kept: 4 points and more above k', () => {
    for (const [side, who] of pairs())
      for (const w of ['cp16', 'rd36']) for (const by of ['b', 'd']) expect(lost(side, `${by}.e.${w}`) - lost(side, `k.e.${w}`), `${who} ${by}.e.${w}`).toBeGreaterThan(0.04);
  });

  it('only its first 64-byte granule read, a line goes as one read whole does (within 3 points of r)', () => {
    for (const [side, who] of pairs()) for (const w of ['cp16', 'rd36']) expect(Math.abs(lost(side, `q.e.${w}`) - lost(side, `r.e.${w}`)), `${who} ${w}`).toBeLessThan(0.03);
  });

  it('every run within 16 points of the H200, but a copy behind lines written in their first sector (29-35 % lost there, 9-11 % here)', () => {
    for (const r of WORD_RUNS) expect(Math.abs(lost(ours, r) - lost(h200Words, r)), r).toBeLessThan(r === 'b.e.cp16' || r === 'd.e.cp16' ? 0.25 : 0.16);
  });
});
