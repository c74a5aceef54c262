/**
 * The L2 dirty-retention probe (test/fidelity/probes/l2_dirty_probe.cu, measured on the H200):
 * family-1 load-then-store kernels whose DRAM writes = bytes stored minus the dirty bytes the L2
 * still holds at the end. Variants: the resident warps per SM cut by dynamic shared memory the
 * kernel never touches (100 KB: 2 blocks, 200 KB: 1 block), a store that does not wait for its
 * load, and the 8-byte kernels on twice the grid (the bytes of the 16-byte ones). The launches are
 * in the probe's order, its CSV IDs 1-18 and 21-22: ID 19 (the u8 kernel with an independent store)
 * lost its load to nvcc, and ID 20 (the 16-byte copy as two 8-byte halves) was merged by nvcc into
 * 16-byte accesses (71 MB of L2 store sectors, not the 134 MB of two half-sector stores).
 */
import { type ElemType, type Val, type VecVal, defineKernel, ptr, u8, u32, u64, vec } from 'warpsight';
import { G_THREADS, patternBuffer } from '../../../../kernels/lib/groundtruth.js';

export const U128 = vec(u32, 4);
const BYTES = new Map<ElemType, number>([[u8, 1], [u32, 4], [u64, 8], [U128, 16]]);
const KB = 1024;

export interface Variant {
  name: string;
  elem: ElemType;
  /** in[stride * i] */
  stride: number;
  /** dynamic shared memory per block (limits blocks per SM) */
  smem?: number;
  /** grid in units of micro.cu's 16384 blocks */
  gridScale?: number;
  /** the store does not depend on the load */
  independent?: boolean;
}

/** a value of `elem` that depends only on i (the independent store) */
function indexValue(elem: ElemType, i: Val): Val | Val[] {
  if (elem.tag === 'vec') return [i.or(1), i.mul(0), i.mul(0), i.mul(0)];
  return elem === u64 ? i.or(1).cast(u64) : i.or(1).cast(elem);
}

function firstWord(v: Val | VecVal): Val {
  return 'parts' in v ? v.x : v;
}

export function probe(v: Variant) {
  const bytes = BYTES.get(v.elem)!;
  const threads = G_THREADS * (v.gridScale ?? 1);
  return defineKernel({
    name: v.name,
    description: `${bytes}-byte loads at stride ${v.stride}, one coalesced store per thread${v.independent ? ' (independent of the load)' : ''}${v.smem ? `, ${v.smem / KB} KB dynamic shared memory` : ''}`,
    params: { in: ptr('global', v.elem), out: ptr('global', v.elem), sink: ptr('global', u32) },
    launch: { grid: threads / 256, block: 256, dynamicShared: v.smem ?? 0 },
    registers: 16,
    setup: (host) => ({
      in: patternBuffer(host, 32 * G_THREADS * 16 + 4096, 0x1234567, 'in'),
      out: host.alloc(u8, G_THREADS * 16, 'out'),
      sink: host.alloc(u32, 1024, 'sink'),
    }),
    body: (k, { in: src, out, sink }) => {
      const i = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x);
      const x = src.at(i.mul(v.stride)).load();
      if (!v.independent) {
        out.at(i).store(x);
        return;
      }
      out.at(i).store(indexValue(v.elem, i));
      // keeps the load: the pattern's bytes are never 0x7e
      k.if(firstWord(x).cast(u32).eq(0x7e7e7e7e), () => sink.at(i.and(1023)).store(1));
    },
  });
}

const occupancy = (name: string, elem: ElemType, stride: number) =>
  [0, 100 * KB, 200 * KB].map((smem) => probe({ name: `l2d_${name}_smem${smem / KB}k`, elem, stride, smem }));

export default [
  ...occupancy('u128_stride2', U128, 2),
  ...occupancy('u128_coalesced', U128, 1),
  ...occupancy('u64_coalesced', u64, 1),
  ...occupancy('u64_stride2', u64, 2),
  ...occupancy('u8_stride32', u8, 32),
  probe({ name: 'l2d_u128_stride2_indep', elem: U128, stride: 2, independent: true }),
  probe({ name: 'l2d_u128_coalesced_indep', elem: U128, stride: 1, independent: true }),
  probe({ name: 'l2d_u64_coalesced_indep', elem: u64, stride: 1, independent: true }),
  probe({ name: 'l2d_u64_stride2_x2', elem: u64, stride: 2, gridScale: 2 }),
  probe({ name: 'l2d_u64_coalesced_x2', elem: u64, stride: 1, gridScale: 2 }),
];
