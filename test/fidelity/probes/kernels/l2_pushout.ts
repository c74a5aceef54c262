/**
 * The L2 push-out probe (test/fidelity/probes/l2_pushout_probe.cu, measured on the H200): how much of
 * an old dirty buffer read-only kernels, copies and stores of micro.cu's family-1 shape (256 threads
 * per block, one u32 per thread) push out of the L2, by size.
 * - `l2po_seq` (ncu's default cache control): each kernel starts from a flushed L2 holding ncu's
 *   replay residue (arch ncuReplayDirtyBytes): 4 MiB reads of two buffers' heads and tails (the first
 *   a throw-away in the probe, right after its memsets), reads of 8-64 MiB, copies of 8-24 MiB (in and
 *   out of that size each), stores of 16-40 MiB.
 * - `l2po_seed` (profile with --cache-control none): before each read, 128 MiB of reads (a clean L2) and
 *   2.25 MiB of 16-byte stores to a third buffer (an old dirty buffer the application wrote).
 */
import { type ProgramContext, defineKernel, defineProgram, ptr, u32, u8 } from 'warpsight';
import { I4, MIB, keep } from './readStream.js';
import { probe } from './l2_dirty_retention.js';
import { indexStores } from './l2_copy_sweep.js';

const BLOCK = 256;
const BUF_MIB = 64;
/** the seed: 2.25 MiB, as ncu's replay leaves */
const SEED_MIB = 2.25;
export const READ_MIB = [8, 16, 20, 24, 28, 32, 36, 40, 48, 64] as const;
export const COPY_MIB = [8, 12, 14, 16, 18, 20, 24] as const;
export const STORE_MIB = [16, 24, 32, 40] as const;
export const SEED_READ_MIB = [16, 24, 28, 32, 36, 40, 48] as const;

const grid = (mib: number) => (mib * MIB) / 4 / BLOCK;

/** x[i] read once, one u32 per thread (launched by programs, the grid theirs) */
export function readOnce(name: string) {
  return defineKernel({
    name,
    description: 'x[i] read once (kept live by a store that never happens)',
    params: { x: ptr('global', u32), sink: ptr('global', u32) },
    launch: { grid: 1, block: BLOCK },
    registers: 16,
    setup: () => {
      throw new Error('launched by programs only');
    },
    body: (k, { x, sink }) => {
      const v = x.at(k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x)).load();
      if ('parts' in v) throw new Error('u32 expected');
      keep(k, v, sink);
    },
  });
}

const read = readOnce('l2po_rd');

const copy = probe({ name: 'l2po_cp', elem: u32, stride: 1 });

const store = indexStores('l2po_st', u32);

/** s[i] = (i | 1, 1, 2, 3), one int4 per thread: an old dirty buffer the application wrote */
export function dirtySeeder(name: string) {
  return defineKernel({
    name,
    description: 's[i] = (i | 1, 1, 2, 3) for i < n',
    params: { s: ptr('global', I4), n: u32 },
    launch: { grid: 1, block: BLOCK },
    registers: 16,
    setup: () => {
      throw new Error('launched by programs only');
    },
    body: (k, { s, n }) => {
      const i = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x);
      k.if(i.lt(n), () => s.at(i).store([i.or(1), 1, 2, 3]));
    },
  });
}

const seeder = dirtySeeder('l2po_seed');

function buffers(ctx: ProgramContext) {
  const h = ctx.host;
  const sink = h.alloc(u32, 1024, 'sink');
  const c = h.alloc(u8, 8 * MIB, 'c');
  const a = h.alloc(u32, (BUF_MIB * MIB) / 4, 'a');
  const b = h.alloc(u32, (BUF_MIB * MIB) / 4, 'b');
  return { sink, c, a, b, tail: ((BUF_MIB - 4) * MIB) / 4 };
}

export default [
  defineProgram({
    name: 'l2po_seq',
    description: "reads, copies and stores of 4-64 MiB, each from ncu's flushed L2 with its replay residue",
    run: (ctx) => {
      const { sink, a, b, tail } = buffers(ctx);
      for (const [x, off] of [[b, tail], [a, tail], [a, 0], [b, tail], [b, 0]] as const) ctx.launch(read, { x: ctx.host.offset(x, u32, off), sink }, { grid: grid(4) });
      for (const mib of READ_MIB) ctx.launch(read, { x: a, sink }, { grid: grid(mib) });
      for (const mib of COPY_MIB) ctx.launch(copy, { in: a, out: b, sink }, { grid: grid(mib) });
      for (const mib of STORE_MIB) ctx.launch(store, { out: b }, { grid: grid(mib) });
    },
  }),
  defineProgram({
    name: 'l2po_seed',
    description: 'reads of 16-48 MiB behind 2.25 MiB of dirty lines, each after 128 MiB of clean-up reads',
    run: (ctx) => {
      const { sink, c, a, b } = buffers(ctx);
      for (const mib of SEED_READ_MIB) {
        ctx.launch(read, { x: a, sink }, { grid: grid(BUF_MIB) });
        ctx.launch(read, { x: b, sink }, { grid: grid(BUF_MIB) });
        ctx.launch(seeder, { s: c, n: (SEED_MIB * MIB) / 16 }, { grid: (SEED_MIB * MIB) / 16 / BLOCK });
        ctx.launch(read, { x: a, sink }, { grid: grid(mib) });
      }
    },
  }),
];
