/**
 * Helpers shared by the ground-truth kernels: the buffers and fill patterns of
 * ../shared/groundtruth/cuda/micro.cu, so the emulated kernels read the same data.
 */
import { type DevicePtr, type Host, hash32, u32 } from '../../src/api.js';

/** 4M threads: the global-load/store and shared-load families (G_THREADS) */
export const G_THREADS = 1 << 22;

/** init_fill_u32: every byte non-zero */
export function patternWord(k: number, seed: number): number {
  return ((hash32((k ^ seed) >>> 0) & 0x7f7f7f7f) | 0x01010101) >>> 0;
}

/** a buffer of `bytes` bytes filled (lazily) with micro.cu's u32 pattern */
export function patternBuffer(host: Host, bytes: number, seed: number, name: string): DevicePtr {
  return host.alloc(u32, Math.ceil(bytes / 4), name, (k) => patternWord(k, seed));
}

/** the 64 sample indices micro.cu's checks read: s*37 for s < 32, then the last 32 threads */
export function sampleIndices(n: number): number[] {
  const out: number[] = [];
  for (let s = 0; s < 64; s++) out.push(s < 32 ? s * 37 : n - 64 + s);
  return out;
}
