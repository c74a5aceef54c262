/**
 * The stream-ordered allocator's pool (cudaMallocAsync / cudaFreeAsync): freed blocks stay cached and
 * a later allocation of the same size reuses one — at once on the stream that freed it, on any stream
 * once the free has run and been synchronised — until a synchronize call releases what exceeds the
 * pool's release threshold (default 0, so by default a synchronize empties the cache and the next
 * allocation grows the pool again, the cost the seed's advice avoids).
 */
import type { DevicePtr } from '../memory/deviceMemory.js';

interface Cached {
  ptr: DevicePtr;
  bytes: number;
  /** the stream whose free returned it */
  stream: number;
  /** the free has run on the GPU */
  freed: () => boolean;
}

export class MemPool {
  releaseThreshold = 0;
  private cached: Cached[] = [];

  /** a cached block for `bytes` on `stream`, or null (the pool must grow) */
  take(bytes: number, stream: number): DevicePtr | null {
    const i = this.cached.findIndex((c) => c.bytes === bytes && (c.stream === stream || c.freed()));
    if (i < 0) return null;
    const [c] = this.cached.splice(i, 1);
    return (c as Cached).ptr;
  }

  give(ptr: DevicePtr, bytes: number, stream: number, freed: () => boolean): void {
    this.cached.push({ ptr, bytes, stream, freed });
  }

  /** at a synchronize: release freed blocks beyond the threshold; returns what was released */
  trim(): DevicePtr[] {
    const out: DevicePtr[] = [];
    let keep = this.cached.reduce((a, c) => a + c.bytes, 0);
    const kept: Cached[] = [];
    for (const c of this.cached) {
      if (c.freed() && keep > this.releaseThreshold) {
        keep -= c.bytes;
        out.push(c.ptr);
      } else kept.push(c);
    }
    this.cached = kept;
    return out;
  }
}
