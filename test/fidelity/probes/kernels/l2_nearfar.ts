/**
 * The L2 near/far probe (test/fidelity/probes/l2_nearfar_probe.cu, measured on the H200): how much L2
 * room a line takes when the SM that reads or writes it is near its home partition, and when it is far
 * (the near partition keeps a copy). Each run: an unprofiled 128-MiB read stream (a clean L2; the probe
 * runs two, which in the model changes no read figure and stores' DRAM writes by < 1 KB), an unprofiled
 * 2.25-MiB seed of dirty lines (l2_pushout.ts's dirtySeeder), then the profiled kernel, which
 * reads (`l2nf_rsel`) or writes (`l2nf_ssel`) the first X MiB of buffer A in 4-KiB chunks: persistent
 * blocks (8 of 256 threads per SM) take chunk tickets from a list picked by mode:
 *   near (0): the chunks homed in the block's SM's partition; far (1): those homed in the other;
 *   mixed (2): all chunks in address order.
 * Its DRAM writes are the seed (and, for stores, the stores' own lines) pushed out. The probe finds
 * the homes by latency; the program asks the emulator (ProgramContext.l2HomeOf / l2PartitionOfSm).
 */
import { type ProgramContext, defineKernel, defineProgram, ptr, u32, u8 } from 'warpsight';
import { MIB, SMS, readStream } from './readStream.js';
import { dirtySeeder } from './l2_pushout.js';

const BLOCK = 256;
const CHUNK = 4096;
const A_MIB = 64;
const JUNK_MIB = 128;
const SEED_MIB = 2.25;
export const MODES = ['near', 'far', 'mixed'] as const;
export const NF_READ_MIB = [24, 28, 32, 40, 56] as const;
export const NF_STORE_MIB = [24, 32] as const;

const params = {
  a: ptr('global', u32),
  /** chunk lists: homed in partition 0 [0, n0), in 1 [n0, n0 + n1), all [n0 + n1, n0 + n1 + n2) */
  lists: ptr('global', u32),
  n0: u32,
  n1: u32,
  n2: u32,
  /** SM -> its partition */
  part: ptr('global', u32),
  mode: u32,
  /** one ticket counter per list */
  ctr: ptr('global', u32),
  sink: ptr('global', u32),
};

function select(name: string, store: boolean) {
  return defineKernel({
    name,
    description: `${store ? 'writes' : 'reads'} 4-KiB chunks of a taken from the list its SM's partition and the mode pick`,
    params,
    launch: { grid: SMS * 8, block: BLOCK },
    registers: 20,
    setup: () => {
      throw new Error('launched by programs only');
    },
    body: (k, { a, lists, n0, n1, n2, part, mode, ctr, sink }) => {
      const ticket = k.shared(u32, [1]);
      const tid = k.threadIdx.x;
      const p = part.at(k.smId).get();
      const q = k.select(mode.eq(0), p, k.select(mode.eq(1), k.u32(1).sub(p), k.u32(2)));
      const n = k.select(q.eq(0), n0, k.select(q.eq(1), n1, n2));
      const first = k.select(q.eq(0), k.u32(0), k.select(q.eq(1), n0, n0.add(n1)));
      const c = k.let(u32, 0);
      k.doWhile(
        () => {
          k.when(tid.eq(0), () => ticket.at(0).store(ctr.at(q).atomic('add', 1)));
          k.syncthreads();
          c.set(ticket.at(0).get());
          k.syncthreads();
          k.if(c.lt(n), () => {
            const base = lists.at(first.add(c)).get().mul(CHUNK / 4);
            const acc = k.let(u32, 0);
            for (let j = 0; j < 4; j++) {
              const e = a.at(base.add(j * BLOCK).add(tid));
              if (store) e.store(c.shl(10).or(j << 8).or(tid).or(1));
              else acc.set(acc.add(e.get()));
            }
            if (!store) k.when(acc.eq(7), () => sink.at(tid).store(acc));
          });
        },
        () => c.lt(n),
      );
    },
  });
}

const rsel = select('l2nf_rsel', false);
const ssel = select('l2nf_ssel', true);
const clean = readStream('l2nf_clean');
const seeder = dirtySeeder('l2nf_seed');

function run(ctx: ProgramContext, store: boolean, sizes: readonly number[]): void {
  const h = ctx.host;
  const junk = h.alloc(u8, JUNK_MIB * MIB, 'junk');
  const a = h.alloc(u32, (A_MIB * MIB) / 4, 'a');
  const c = h.alloc(u8, 8 * MIB, 'c');
  const sink = h.alloc(u32, 1024, 'sink');
  const ctr = h.alloc(u32, 4, 'ctr');
  const part = h.alloc(u32, SMS, 'part', (i) => ctx.l2PartitionOfSm(i));
  const chunks = (A_MIB * MIB) / CHUNK;
  const home = Array.from({ length: chunks }, (_, i) => ctx.l2HomeOf(a, i * CHUNK));
  const lists = h.alloc(u32, 2 * chunks, 'lists');
  const seedN = (SEED_MIB * MIB) / 16;
  for (const mib of sizes) {
    const n = (mib * MIB) / CHUNK;
    const homes = home.slice(0, n);
    const byHome = [0, 1].map((p) => homes.flatMap((hp, i) => (hp === p ? [i] : [])));
    [...byHome[0]!, ...byHome[1]!, ...homes.keys()].forEach((v, i) => h.write(lists, u32, i, v));
    const n0 = byHome[0]!.length;
    for (let mode = 0; mode < MODES.length; mode++) {
      ctx.launch(clean, { b: junk, n: (JUNK_MIB * MIB) / 16, sink }, {}, { profile: false });
      ctx.launch(seeder, { s: c, n: seedN }, { grid: seedN / BLOCK }, { profile: false });
      for (let i = 0; i < 4; i++) h.write(ctr, u32, i, 0);
      ctx.launch(store ? ssel : rsel, { a, lists, n0, n1: n - n0, n2: n, part, mode, ctr, sink });
    }
  }
}

export default [
  defineProgram({
    name: 'l2nf_reads',
    description: 'reads of 24-56 MiB in 4-KiB chunks by SMs near / far from their home / any, behind 2.25 MiB of dirty lines',
    run: (ctx) => run(ctx, false, NF_READ_MIB),
  }),
  defineProgram({
    name: 'l2nf_stores',
    description: 'stores of 24 and 32 MiB in 4-KiB chunks by SMs near / far from their home / any, behind 2.25 MiB of dirty lines',
    run: (ctx) => run(ctx, true, NF_STORE_MIB),
  }),
];
