/**
 * The L2 seed probe (test/fidelity/probes/l2_seed_probe.cu, `split` mode, measured on the H200 with
 * the L2 kept between kernels): how much of a small, old dirty buffer a kernel pushes out. Each
 * configuration: a 128 MiB read stream (a clean full L2; it also writes back what the previous kernel
 * left dirty), a seed kernel writing 0 / 2.25 / 4.5 MiB of 16-byte stores, then a grid-stride u32
 * kernel over 16 MiB: a copy (`l2sd_copy`, micro.cu's g_ld_u32_coalesced as a grid-stride loop), the
 * stride-2 copy (`l2sd_stride2`) or stores only (`l2sd_store`); a last stream at the end. 8 blocks of 256
 * threads per SM, as the probe. Profile it with --cache-control none.
 */
import { defineKernel, defineProgram, ptr, u32, u8 } from 'warpsight';
import { I4, MIB, SMS, gridStride, readStream } from './readStream.js';

const BLOCK = 256;
const GRID = SMS * 8;
const OUT_MIB = 16;
const CLEAN_MIB = 128;
/** the probe's seed sizes, MiB */
export const SEED_MIB = [0, 2.25, 4.5] as const;
export const SEED_MODES = ['copy', 'stride2', 'store'] as const;

const seeder = defineKernel({
  name: 'l2sd_seed',
  description: 'grid-stride 16-byte stores over n int4',
  params: { seed: ptr('global', I4), n: u32 },
  launch: { grid: GRID, block: BLOCK },
  registers: 16,
  setup: () => {
    throw new Error('launched by programs only');
  },
  body: (k, { seed, n }) => {
    gridStride(k, n, (i) => {
      seed.at(i).store([i.or(1), i.add(1), i.add(2), i.add(3)]);
    });
  },
});

function kernel(mode: (typeof SEED_MODES)[number]) {
  return defineKernel({
    name: `l2sd_${mode}`,
    description: mode === 'store' ? 'grid-stride out[i] = i | 1' : `grid-stride out[i] = in[${mode === 'copy' ? 'i' : '2i'}]`,
    params: { in: ptr('global', u32), out: ptr('global', u32), n: u32 },
    launch: { grid: GRID, block: BLOCK },
    registers: 16,
    setup: () => {
      throw new Error('launched by programs only');
    },
    body: (k, { in: src, out, n }) => {
      gridStride(k, n, (i) => {
        out.at(i).store(mode === 'store' ? i.or(1) : src.at(mode === 'copy' ? i : i.mul(2)).load());
      });
    },
  });
}

export default defineProgram({
  name: 'l2sd',
  description: 'a 16 MiB copy, stride-2 copy or store kernel behind 0-4.5 MiB of dirty lines, each after a clean-up stream',
  run: (ctx) => {
    const h = ctx.host;
    const n = (OUT_MIB * MIB) / 4;
    const input = h.alloc(u32, 2 * n, 'in');
    const out = h.alloc(u32, n, 'out');
    const seed = h.alloc(u8, 8 * MIB, 'seed');
    const junk = h.alloc(u8, CLEAN_MIB * MIB, 'junk');
    const sink = h.alloc(u32, 1024, 'sink');
    const clean = readStream('l2sd_clean');
    const cleanUp = () => ctx.launch(clean, { b: junk, n: (CLEAN_MIB * MIB) / 16, sink });
    for (const mode of SEED_MODES) {
      const k = kernel(mode);
      for (const mib of SEED_MIB) {
        cleanUp();
        if (mib > 0) ctx.launch(seeder, { seed, n: (mib * MIB) / 16 });
        ctx.launch(k, { in: input, out, n });
      }
    }
    cleanUp();
  },
});
