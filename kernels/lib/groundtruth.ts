/**
 * Helpers shared by the ground-truth kernels: the buffers and fill patterns of
 * ../shared/groundtruth/cuda/micro.cu, so the emulated kernels read the same data.
 */
import { type DevicePtr, type Host, hash32 } from 'warpsight';

/** 4M threads: the global-load/store and shared-load families (G_THREADS) */
export const G_THREADS = 1 << 22;

/** init_fill_u32: every byte non-zero */
export function patternWord(k: number, seed: number): number {
  return ((hash32((k ^ seed) >>> 0) & 0x7f7f7f7f) | 0x01010101) >>> 0;
}

/** a buffer of `bytes` bytes filled (lazily) with micro.cu's u32 pattern */
export function patternBuffer(host: Host, bytes: number, seed: number, name: string): DevicePtr {
  return host.allocWords(Math.ceil(bytes / 4), name, (words, first, from, to) => {
    for (let j = from; j < to; j++) {
      // hash32 inlined: this runs for every word a kernel touches
      let x = ((first + j) ^ seed) >>> 0;
      x = (x ^ (x >>> 16)) >>> 0;
      x = Math.imul(x, 0x7feb352d) >>> 0;
      x = (x ^ (x >>> 15)) >>> 0;
      x = Math.imul(x, 0x846ca68b) >>> 0;
      x = (x ^ (x >>> 16)) >>> 0;
      words[j] = ((x & 0x7f7f7f7f) | 0x01010101) >>> 0;
    }
  });
}

/** the sample indices micro.cu's checks read, of those below n: s*37 for s < 32, then the last 32 threads */
export function sampleIndices(n: number): number[] {
  const out = new Set<number>();
  for (let s = 0; s < 64; s++) {
    const i = s < 32 ? s * 37 : n - 64 + s;
    if (i >= 0 && i < n) out.add(i);
  }
  return [...out];
}
