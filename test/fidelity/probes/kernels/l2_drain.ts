/**
 * The L2 drain probe (test/fidelity/probes/l2_drain_probe.cu, measured on the H200 with application
 * replay and the L2 kept between kernels): where the write-backs a load-then-store kernel avoids at
 * full occupancy go. Each configuration: the kernel (`l2dr_<kernel>_smem<K>k`, as
 * l2_dirty_retention.ts's, or a store-only one), then a read stream (`l2dr_after`) whose DRAM writes
 * are the dirty bytes the kernel left in the L2 and which leaves the L2 clean for the next one (the
 * probe streams 512 MiB before and after each kernel; 128 MiB drain everything here). On the H200
 * the two add up to the bytes stored: nothing is lost between kernels, the kernel at full occupancy
 * leaves more of its stores dirty.
 */
import { defineKernel, defineProgram, ptr, u32, u64, u8 } from 'warpsight';
import { G_THREADS } from '../../../../kernels/lib/groundtruth.js';
import { MIB, readStream } from './readStream.js';
import { U128, type Variant, probe } from './l2_dirty_retention.js';

const KB = 1024;
const AFTER_MIB = 128;

/** micro.cu's g_st_u128_coalesced with `smem` bytes of dynamic shared memory */
export function storeOnly(name: string, smem: number) {
  return defineKernel({
    name,
    description: `one coalesced 16-byte store per thread, ${smem / KB} KB dynamic shared memory`,
    params: { in: ptr('global', U128), out: ptr('global', U128), sink: ptr('global', u32) },
    launch: { grid: G_THREADS / 256, block: 256, dynamicShared: smem },
    registers: 16,
    setup: () => {
      throw new Error('launched by programs only');
    },
    body: (k, { out }) => {
      const i = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x);
      out.at(i).store([i.or(1), i.add(1), i.add(2), i.add(3)]);
    },
  });
}

const load = (name: string, elem: Variant['elem'], stride: number) =>
  [0, 200 * KB].map((smem) => probe({ name: `l2dr_${name}_smem${smem / KB}k`, elem, stride, smem }));

/** the probe's configurations, in its order */
const DRAIN_KERNELS = [
  ...load('u128_stride2', U128, 2),
  ...load('u128_coalesced', U128, 1),
  ...load('u64_stride2', u64, 2),
  ...load('u64_coalesced', u64, 1),
  storeOnly('l2dr_st_u128_smem0k', 0),
  storeOnly('l2dr_st_u128_smem200k', 200 * KB),
];

export default defineProgram({
  name: 'l2dr',
  description: 'each kernel between a clean L2 and a read stream that writes back what it left dirty',
  run: (ctx) => {
    const h = ctx.host;
    const input = h.alloc(u8, 2 * G_THREADS * 16 + 4096, 'in');
    const out = h.alloc(u8, G_THREADS * 16, 'out');
    const junk = h.alloc(u32, (AFTER_MIB * MIB) / 4, 'junk');
    const sink = h.alloc(u32, 1024, 'sink');
    const after = readStream('l2dr_after');
    for (const k of DRAIN_KERNELS) {
      ctx.launch(k, { in: input, out, sink });
      ctx.launch(after, { b: junk, n: (AFTER_MIB * MIB) / 16, sink });
    }
  },
});
