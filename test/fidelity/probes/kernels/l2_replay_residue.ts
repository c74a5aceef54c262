/**
 * The L2 write-excess probe (test/fidelity/probes/l2_excess_probe.cu, measured on the H200, caches
 * flushed before each kernel): kernels that stream 134-268 MB through the L2, so that everything
 * dirty in it at the start is written back. The one without stores still writes ~2.3 MB: what
 * ncu's multi-pass replay leaves dirty (arch ncuReplayDirtyBytes). In the probe's order, its launch
 * IDs 1, 4 and 5 (0, 2 and 3 are micro.cu's g_ld_u8/u16/u32_stride32).
 */
import { type ScalarType, defineKernel, ptr, u8, u32 } from 'warpsight';
import { G_THREADS, patternBuffer } from '../../../../kernels/lib/groundtruth.js';

const BYTES = new Map<ScalarType, number>([[u8, 1], [u32, 4]]);

/** in[32 i] as `load`, stored to out[i] as `store` (no store: only if the value is one the pattern never holds) */
function stream(name: string, load: ScalarType, store: ScalarType | null) {
  const lb = BYTES.get(load)!;
  return defineKernel({
    name,
    description: `${lb}-byte loads at stride 32, ${store ? `one coalesced ${BYTES.get(store)!}-byte store per thread` : 'no store'}`,
    params: { in: ptr('global', load), out: ptr('global', store ?? u8), sink: ptr('global', u32) },
    launch: { grid: G_THREADS / 256, block: 256 },
    registers: 16,
    setup: (host) => ({
      in: patternBuffer(host, 32 * G_THREADS * 4 + 4096, 0x1234567, 'in'),
      out: host.alloc(u8, G_THREADS * 4, 'out'),
      sink: host.alloc(u32, 1024, 'sink'),
    }),
    body: (k, { in: src, out, sink }) => {
      const i = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x);
      const v = src.at(i.mul(32)).load();
      const x = 'parts' in v ? v.x : v;
      // the pattern's bytes are odd: never 0x7e
      if (store === null) k.if(x.cast(u32).eq(load === u8 ? 0x7e : 0x7e7e7e7e), () => sink.at(i.and(1023)).store(1));
      else out.at(i).store(x.cast(store));
    },
  });
}

export default [
  stream('l2x_u8_stride32_nostore', u8, null),
  stream('l2x_u8_stride32_u32store', u8, u32),
  stream('l2x_u32_stride32_u8store', u32, u8),
];
