/**
 * The L2 copy-size sweep (test/fidelity/probes/l2_copy_sweep_probe.cu, measured on the H200): micro.cu's
 * coalesced copies and u64 stores at 8-64 MiB. `l2cs_flushed` launches them alone (profile it with
 * ncu's default cache control: each starts from a flushed L2); `l2cs_clean` puts a read stream before
 * each (a clean full L2) and one at the end, whose DRAM writes are the dirty bytes the previous kernel
 * left (profile it with --cache-control none). The probe streams 512 MiB; 128 MiB clean everything here.
 */
import { defineKernel, defineProgram, ptr, u32, u64, u8 } from 'warpsight';
import { MIB, readStream } from './readStream.js';
import { U128, type Variant, probe } from './l2_dirty_retention.js';

const CLEAN_MIB = 128;
const BLOCK = 256;

/** out[i] = i | 1 as `elem` (stores only), on the grid each launch gives */
export function indexStores(name: string, elem: typeof u32 | typeof u64) {
  return defineKernel({
    name,
    description: `out[i] = i | 1 (${elem === u64 ? 8 : 4}-byte stores only)`,
    params: { out: ptr('global', elem) },
    launch: { grid: 1, block: BLOCK },
    registers: 16,
    setup: () => {
      throw new Error('launched by programs only');
    },
    body: (k, { out }) => {
      const i = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x);
      out.at(i).store(i.or(1).cast(elem));
    },
  });
}

/** the copies are micro.cu's g_ld_<T>_coalesced (l2_dirty_retention.ts), on the grid of each size */
const copy = (name: string, elem: Variant['elem']) => probe({ name, elem, stride: 1 });
const KERNELS = { u64: copy('l2cs_u64', u64), u128: copy('l2cs_u128', U128), u32: copy('l2cs_u32', u32), st: indexStores('l2cs_st_u64', u64) };
const ELEM_BYTES = { u64: 8, u128: 16, u32: 4, st: 8 };

/** the probe's configurations, in its order: kernel and MiB stored */
export const SWEEP: ReadonlyArray<readonly [keyof typeof KERNELS, number]> = [
  ...[8, 16, 20, 24, 28, 32, 40, 48, 64].map((m) => ['u64', m] as const),
  ['u128', 32],
  ['u128', 64],
  ...[16, 24, 32].map((m) => ['u32', m] as const),
  ...[16, 24, 28, 32, 40, 48].map((m) => ['st', m] as const),
];

function program(mode: 'flushed' | 'clean') {
  return defineProgram({
    name: `l2cs_${mode}`,
    description: `copies and stores of 8-64 MiB${mode === 'clean' ? ', each between clean-up read streams' : ''}`,
    run: (ctx) => {
      const h = ctx.host;
      const input = h.alloc(u8, 64 * MIB, 'in');
      const out = h.alloc(u8, 64 * MIB, 'out');
      const junk = h.alloc(u32, (CLEAN_MIB * MIB) / 4, 'junk');
      const sink = h.alloc(u32, 1024, 'sink');
      const clean = readStream('l2cs_clean');
      const cleanUp = () => ctx.launch(clean, { b: junk, n: (CLEAN_MIB * MIB) / 16, sink });
      for (const [kind, mib] of SWEEP) {
        if (mode === 'clean') cleanUp();
        const grid = (mib * MIB) / ELEM_BYTES[kind] / BLOCK;
        if (kind === 'st') ctx.launch(KERNELS.st, { out }, { grid });
        else ctx.launch(KERNELS[kind], { in: input, out, sink }, { grid });
      }
      if (mode === 'clean') cleanUp();
    },
  });
}

export default [program('flushed'), program('clean')];
