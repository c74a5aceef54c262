/**
 * The L2 survival probe (test/fidelity/probes/l2_survival_probe.cu, measured on the H200): which lines
 * of an old dirty buffer a kernel pushes out. Each run empties the L2 (a 128 MiB read stream whose clean
 * lines are then dropped with discard.global.L2, as ncu's flush leaves it), writes a 2.25 MiB seed with
 * 16-byte stores from every SM (or reads it, or writes and then reads it: SURVIVAL_RUNS), runs the
 * workload (micro.cu's family-1 u32 shape: a 16 MiB copy, or a read of 28, 36 or 44 MiB) and then one
 * block reads every seed line once through an evict-first policy: the seed lines it reads from DRAM are
 * those the workload pushed out (the probe times each line's load from SM 0 instead); then every 16th
 * line of the copy's in and out buffers (SAMPLE_LINES each) the same way. The probe's `words` mode
 * accesses the seed word by word instead (WORD_RUNS). Profile with `--cache-control none`; the
 * workloads and the surveys are the profiled launches.
 */
import { defineKernel, defineProgram, ptr, u32, u8 } from 'warpsight';
import { probe } from './l2_dirty_retention.js';
import { dirtySeeder, readOnce } from './l2_pushout.js';
import { MIB, keep, readStream } from './readStream.js';

const BLOCK = 256;
const SEED_BYTES = 2.25 * MIB;
const SEED_LINES = SEED_BYTES / 128;
const JUNK_MIB = 128;
const SURVEY_THREADS = 1024;
/**
 * the probe's runs in an emptied L2, named as it names them (<seed>.e.<workload>): the seed written by a
 * kernel (k), read by one (r: clean lines), or written and then read (w)
 */
export const SURVIVAL_RUNS = ['k.e.none', 'k.e.cp16', 'k.e.rd28', 'k.e.rd36', 'k.e.rd44', 'r.e.cp16', 'r.e.rd36', 'r.e.rd44', 'w.e.cp16', 'w.e.rd36', 'w.e.rd44'] as const;
/**
 * the runs of the probe's `words` mode modelled here (after SURVIVAL_RUNS): the seed's lines accessed
 * word by word, none of them in the L2 before: an atomic on every word (a), on the first word (b), on the
 * first word of every sector (y); 4-byte stores to the first sector (d); a load of the first word (q);
 * read (as r), then an atomic (f) or a store (g) on the first word
 */
export const WORD_RUNS = ['a.e.cp16', 'a.e.rd36', 'b.e.cp16', 'b.e.rd36', 'y.e.cp16', 'y.e.rd36', 'd.e.cp16', 'd.e.rd36', 'q.e.cp16', 'q.e.rd36', 'f.e.cp16', 'f.e.rd36', 'g.e.cp16', 'g.e.rd36'] as const;
/** what each of WORD_RUNS' seeds does to `words` words of every line, `step` words apart from its first */
const WORD_ACCESS: Record<string, { op: 'atomic' | 'store' | 'load'; words: number; step: number }> = {
  a: { op: 'atomic', words: 32, step: 1 },
  b: { op: 'atomic', words: 1, step: 1 },
  y: { op: 'atomic', words: 4, step: 8 },
  d: { op: 'store', words: 8, step: 1 },
  q: { op: 'load', words: 1, step: 1 },
  f: { op: 'atomic', words: 1, step: 1 },
  g: { op: 'store', words: 1, step: 1 },
};

const clean = readStream('l2sv_clean');
const seeder = dirtySeeder('l2sv_seed');
const copy = probe({ name: 'l2sv_cp', elem: u32, stride: 1 });

const read = readOnce('l2sv_rd');

/** `words` (a power of two) words of every seed line, `step` apart: an L2 atomic add on each, a 4-byte store, or a load */
function wordAccess(seed: string, { op, words, step }: (typeof WORD_ACCESS)[string]) {
  const shift = Math.log2(words);
  return defineKernel({
    name: `l2sv_words_${seed}`,
    description: `${{ atomic: 'atomicAdd(s[32 * line + w], 1)', store: 's[32 * line + w] = i | 1', load: 's[32 * line + w] read' }[op]} for ${words} words w of every line, ${step} apart`,
    params: { s: ptr('global', u32), sink: ptr('global', u32) },
    launch: { grid: 1, block: BLOCK },
    registers: 16,
    setup: () => {
      throw new Error('launched by the l2_survival program');
    },
    body: (k, { s, sink }) => {
      const i = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x);
      const word = s.at(i.shr(shift).mul(32).add(i.and(words - 1).mul(step)));
      if (op === 'atomic') word.reduce('add', 1);
      else if (op === 'store') word.store(i.or(1));
      else keep(k, word.get(), sink);
    },
  });
}
const wordKernels = new Map(Object.entries(WORD_ACCESS).map(([seed, a]) => [seed, wordAccess(seed, a)]));

const drop = defineKernel({
  name: 'l2sv_drop',
  description: "discard.global.L2 of the thread's 128-byte line",
  params: { p: ptr('global', u32) },
  launch: { grid: 1, block: BLOCK },
  registers: 16,
  setup: () => {
    throw new Error('launched by the l2_survival program');
  },
  body: (k, { p }) => k.l2Discard(p.add(k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x).mul(32))),
});

/** samples of the workload's own buffers surveyed after the seed: every 16th line of in's and of out's first 16 MiB */
export const SAMPLE_LINES = 8192;
export const SAMPLE_STRIDE = 16;

const survey = defineKernel({
  name: 'l2sv_survey',
  description: 'one load of the first word of each of n lines `stride` lines apart, evict-first (.cg)',
  params: { buf: ptr('global', u32), sink: ptr('global', u32), n: u32, stride: u32 },
  launch: { grid: 1, block: SURVEY_THREADS },
  registers: 16,
  setup: () => {
    throw new Error('launched by the l2_survival program');
  },
  body: (k, { buf, sink, n, stride }) => {
    const s = k.annotate(buf, { kind: 'streaming' });
    const acc = k.let(u32, 0);
    k.for(k.threadIdx.x, n, SURVEY_THREADS, (line) => acc.set(acc.xor(s.at(line.mul(stride).mul(32)).get({ cache: 'cg' }))));
    keep(k, acc, sink);
  },
});

export default defineProgram({
  name: 'l2_survival',
  description: 'a 2.25 MiB dirty seed behind a copy or a read, then which of its lines are left',
  run: (ctx) => {
    const h = ctx.host;
    const junk = h.alloc(u8, JUNK_MIB * MIB, 'junk');
    const seed = h.alloc(u8, SEED_BYTES, 'seed');
    const a = h.alloc(u32, (64 * MIB) / 4, 'in');
    const b = h.alloc(u32, (64 * MIB) / 4, 'out');
    const sink = h.alloc(u32, SURVEY_THREADS, 'sink');
    const unprofiled = { profile: false };
    for (const run of [...SURVIVAL_RUNS, ...WORD_RUNS]) {
      ctx.launch(clean, { b: junk, n: (JUNK_MIB * MIB) / 16, sink }, undefined, unprofiled);
      ctx.launch(drop, { p: junk }, { grid: (JUNK_MIB * MIB) / 128 / BLOCK }, unprofiled);
      const [by, , work] = run.split('.') as [string, string, string];
      if (by === 'k' || by === 'w') ctx.launch(seeder, { s: seed, n: SEED_BYTES / 16 }, { grid: SEED_BYTES / 16 / BLOCK }, unprofiled);
      if ('rwfg'.includes(by)) ctx.launch(read, { x: seed, sink }, { grid: SEED_BYTES / 4 / BLOCK }, unprofiled);
      const words = wordKernels.get(by);
      if (words) ctx.launch(words, { s: seed, sink }, { grid: (SEED_LINES * WORD_ACCESS[by]!.words) / BLOCK }, unprofiled);
      const grid = (Number(work.slice(2)) * MIB) / 4 / BLOCK;
      if (work.startsWith('cp')) ctx.launch(copy, { in: a, out: b, sink }, { grid });
      if (work.startsWith('rd')) ctx.launch(read, { x: a, sink }, { grid });
      ctx.launch(survey, { buf: seed, sink, n: SEED_LINES, stride: 1 });
      for (const buf of [a, b]) ctx.launch(survey, { buf, sink, n: SAMPLE_LINES, stride: SAMPLE_STRIDE });
    }
  },
});
