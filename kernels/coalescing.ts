/**
 * The seed's coalescing examples ("Memory Access Patterns": instructions, requests, sectors): a warp
 * copies with 4- and 8-byte coalesced accesses, 1-, 4- and 8-byte unaligned accesses and 1- and
 * 4-byte accesses with a stride of 2, in the slides' order. "How many different 32-byte sectors are
 * touched by the warp?" — the loads: 4, 8, 2, 5, 9, 2 and 8 per request
 * (`warpsight profile kernels/coalescing.ts --explain 35` shows each warp's lanes in its sectors).
 */
import { type ElemType, type Val, defineKernel, f32, f64, ptr, u8, u32 } from 'warpsight';

const N = 1 << 20;

function copy(name: string, elem: ElemType, bytes: number, index: (i: Val) => Val, host: (i: number) => number, description: string) {
  const count = 2 * N + 64;
  return defineKernel({
    name,
    description,
    params: { in: ptr('global', elem), out: ptr('global', elem), n: u32 },
    defaults: { n: N },
    launch: ({ n }) => ({ grid: Math.ceil((n ?? N) / 256), block: 256 }),
    setup: (h) => ({
      in: h.alloc(elem as never, count, 'in', (i) => (bytes === 1 ? (i * 7 + 1) & 255 : i * 0.5 + 1)),
      out: h.alloc(elem as never, count, 'out'),
    }),
    check: (h, { in: src, out, n }) => {
      for (let i = 0; i < n; i += 997) {
        const got = h.readNumber(out, elem as never, i);
        const want = h.readNumber(src, elem as never, host(i));
        if (got !== want) return `out[${i}] = ${got}, expected in[${host(i)}] = ${want}`;
      }
      return null;
    },
    body: (k, { in: src, out, n }) => {
      const i = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x);
      k.if(i.ge(n), () => k.return()); // if (i >= n) return;  — a predicated EXIT, as nvcc compiles it
      out.at(i).store(src.at(index(i)).load());
    },
  });
}

export default [
  copy('coalesced_4B', f32, 4, (i) => i, (i) => i, '4 bytes per thread, coalesced: 4 sectors per request'),
  copy('coalesced_8B', f64, 8, (i) => i, (i) => i, '8 bytes per thread, coalesced: 8 sectors per request'),
  copy('unaligned_1B', u8, 1, (i) => i.add(1), (i) => i + 1, '1 byte per thread, unaligned: 2 sectors per request'),
  copy('unaligned_4B', f32, 4, (i) => i.add(1), (i) => i + 1, '4 bytes per thread, unaligned: 5 sectors per request'),
  copy('unaligned_8B', f64, 8, (i) => i.add(1), (i) => i + 1, '8 bytes per thread, unaligned: 9 sectors per request'),
  copy('stride2_1B', u8, 1, (i) => i.mul(2), (i) => 2 * i, '1 byte per thread, stride 2: 2 sectors per request'),
  copy('stride2_4B', f32, 4, (i) => i.mul(2), (i) => 2 * i, '4 bytes per thread, stride 2: 8 sectors per request'),
];
