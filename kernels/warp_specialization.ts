/**
 * Family 8 of the H200 ground truth, warp specialisation in the CudaDMA style (micro.cu `ws_*`):
 * 256 threads per block, 8 tiles of 4096 floats (16 KB) per block; each compute thread reduces 8
 * float4 of a tile into one output.
 *
 * - ws_cudadma_namedbar: warps 0-3 are DMA warps that copy tiles global -> shared into two buffers,
 *   warps 4-7 compute. Named barriers 1 and 2 say "buffer b is full" (the DMA warps `bar.arrive`, the
 *   compute warps `bar.sync`), 3 and 4 "buffer b is empty" (the other way round); each counts all 256
 *   threads. nvcc lays the compute side out first (`@!P0 BRA` to the DMA side), unrolls its loop by 2
 *   and leaves it with a predicated EXIT; the DMA loop is fully unrolled.
 * - ws_baseline_syncthreads: every warp loads, `__syncthreads()`, warps 0-3 compute, `__syncthreads()`.
 *
 * CudaDMA numbers its objects from 1 because `__syncthreads()` is barrier 0 (seed 004).
 */
import { type DevicePtr, type Host, type KernelBuilder, type PtrVal, type Val, defineKernel, f32, i32, ptr, vec } from 'warpsight';
import { fillF32 } from './divergence.js';

const WS_TILE = 4096; // floats = 16 KB
const WS_TPB = 8; // tiles per block
const F_ELEMS = 1 << 24;
const TILES = F_ELEMS / WS_TILE;
const f4 = vec(f32, 4);

/** acc = Σ_q v.x*1.5 + v.y + v.z*0.5 + v.w over t4[q*128 + ct], q < 8 (unrolled) */
function wsCompute(k: KernelBuilder, t4: PtrVal, ct: Val): Val {
  const p = t4.add(ct);
  let acc: Val | null = null;
  for (let q = 0; q < 8; q++) {
    const v = p.at(q * 128).load();
    if (!('parts' in v)) throw new Error('float4 expected');
    // nvcc contracts v.x*1.5f + v.y + v.z*0.5f into two FFMAs
    const term = v.z.fma(0.5, v.x.fma(1.5, v.y)).add(v.w);
    acc = acc === null ? term : acc.add(term);
  }
  return acc ?? k.f32(0);
}

const common = {
  params: { in: ptr('global', f4), out: ptr('global', f32) },
  launch: { grid: TILES / WS_TPB, block: 256 },
  setup: (h: Host) => ({
    in: h.alloc(f32, F_ELEMS, 'fin', (i) => fillF32(i, 1, 0.01, 17)) as DevicePtr,
    out: h.alloc(f32, F_ELEMS, 'fout2'),
  }),
  // micro.cu checks every tile; this checks the tiles of the first 8 blocks (a reduced --grid still checks)
  check: (h: Host, { in: src, out }: { in: DevicePtr; out: DevicePtr }) => {
    for (let tile = 0; tile < 8 * WS_TPB; tile++)
      for (let ct = 0; ct < 128; ct++) {
        let acc = 0;
        for (let q = 0; q < 8; q++) {
          const base = tile * WS_TILE + (q * 128 + ct) * 4;
          const v = [0, 1, 2, 3].map((c) => h.readNumber(src, f32, base + c));
          acc = Math.fround(acc + Math.fround(Math.fround(Math.fround(Math.fround((v[0] as number) * 1.5) + (v[1] as number)) + Math.fround((v[2] as number) * 0.5)) + (v[3] as number)));
        }
        const got = h.readNumber(out, f32, tile * 128 + ct);
        if (!(Math.abs(got - acc) <= 1e-5 * Math.abs(acc))) return `out[${tile * 128 + ct}] = ${got}, expected ${acc}`;
      }
    return null;
  },
};

export const wsCudaDmaNamedBar = defineKernel({
  name: 'ws_cudadma_namedbar',
  description: 'DMA warps 0-3 fill two shared buffers, compute warps 4-7 consume them; named barriers 1-4',
  ...common,
  registers: 46,
  body: (k, { in: src, out }) => {
    const buf = k.shared(f4, [2, WS_TILE / 4]);
    const tid = k.threadIdx.x.cast(i32);
    const tile0 = k.blockIdx.x.cast(i32).mul(WS_TPB);
    const bufAt = (b: number): PtrVal => buf.base.add(b * (WS_TILE / 4));
    // compute warps (laid out first in the SASS; they leave through the EXIT in their loop)
    k.if(tid.ge(128), () => {
      const ct = tid.sub(128);
      k.barArrive(3, 256); // both buffers start empty
      k.barArrive(4, 256);
      const t = k.let(i32, 0);
      // for (t = 0; t < 8; ++t), unrolled by 2
      k.doWhile(
        () => {
          for (let b = 0; b < 2; b++) {
            const tb = t.add(b);
            k.barSync(1 + b, 256); // wait: buffer b full
            out.at(tile0.add(tb).mul(128).add(ct)).store(wsCompute(k, bufAt(b), ct));
            k.when(tb.add(2).lt(WS_TPB), () => k.barArrive(3 + b, 256)); // signal: buffer b empty
          }
          k.if(t.eq(WS_TPB - 2), () => k.return());
          t.set(t.add(2));
        },
        () => true,
      );
    });
    // DMA warps: for (t = 0; t < 8; ++t), fully unrolled
    for (let t = 0; t < WS_TPB; t++) {
      const b = t & 1;
      k.barSync(3 + b, 256); // wait: buffer b empty
      const from = src.add(tile0.add(t).mul(WS_TILE / 4).add(tid));
      const to = bufAt(b).add(tid);
      for (let q = 0; q < 8; q++) to.at(q * 128).store(from.at(q * 128).load());
      k.barArrive(1 + b, 256); // signal: buffer b full
    }
  },
});

export const wsBaselineSyncthreads = defineKernel({
  name: 'ws_baseline_syncthreads',
  description: 'every warp loads the tile, __syncthreads(), warps 0-3 compute, __syncthreads()',
  ...common,
  registers: 31,
  body: (k, { in: src, out }) => {
    const buf = k.shared(f4, [WS_TILE / 4]);
    const tid = k.threadIdx.x.cast(i32);
    const tile0 = k.blockIdx.x.cast(i32).mul(WS_TPB);
    for (let t = 0; t < WS_TPB; t++) {
      const from = src.add(tile0.add(t).mul(WS_TILE / 4).add(tid));
      const to = buf.base.add(tid);
      for (let q = 0; q < 4; q++) to.at(q * 256).store(from.at(q * 256).load());
      k.syncthreads();
      k.if(tid.lt(128), () => out.at(tile0.add(t).mul(128).add(tid)).store(wsCompute(k, buf.base, tid)));
      k.syncthreads();
    }
  },
});

export default [wsCudaDmaNamedBar, wsBaselineSyncthreads];
