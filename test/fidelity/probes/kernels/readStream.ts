/**
 * The H200 probes' grid-wide read-only stream (test/fidelity/probes/l2_copy_probe.cu,
 * l2_drain_probe.cu, l2_setaside_probe.cu, l2_residency_probe.cu): 8 blocks of 256 threads per SM read n int4 in a
 * grid-stride loop. It fills the L2 with clean lines of its buffer, evicting (and writing back) what
 * was there.
 */
import { type KernelBuilder, type PtrVal, type Val, defineKernel, ptr, u32, vec } from 'warpsight';

export const SMS = 132;
export const MIB = 1 << 20;
export const I4 = vec(u32, 4);

/** the accumulated words reach memory only if they equal a value the data never makes (keeps the loads live) */
export function keep(k: KernelBuilder, acc: Val, sink: PtrVal): void {
  k.if(acc.eq(0x12345678), () => sink.at(k.threadIdx.x).store(acc));
}

/** a grid-stride loop over [0, n): each thread from its global index, in steps of the whole grid */
export function gridStride(k: KernelBuilder, n: Val, body: (i: Val) => void): void {
  k.for(k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x), n, k.gridDim.x.mul(k.blockDim.x), body);
}

/** `reverse`: element n-1-i in step i (a read-back that meets the most recently written lines first) */
export function readStream(name: string, reverse = false) {
  return defineKernel({
    name,
    description: `grid-stride int4 read-only stream${reverse ? ', from the end' : ''}`,
    params: { b: ptr('global', I4), n: u32, sink: ptr('global', u32) },
    launch: { grid: SMS * 8, block: 256 },
    setup: () => {
      throw new Error('launched by programs only');
    },
    body: (k, { b, n, sink }) => {
      const acc = k.let(u32, 0);
      gridStride(k, n, (i) => {
        const v = b.at(reverse ? n.sub(1).sub(i) : i).load();
        if (!('parts' in v)) throw new Error('int4 expected');
        acc.set(acc.xor(v.y));
      });
      keep(k, acc, sink);
    },
  });
}
