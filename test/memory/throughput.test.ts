import { describe, expect, it } from 'vitest';
import { MemoryHierarchy } from '../../src/memory/hierarchy.js';
import { H200 } from './fixtures.js';

/** synthetic stream: 4-sector line requests, a 64 MiB read stream interleaved with 32 MiB of stores */
export function syntheticRate(sectors: number): number {
  const m = new MemoryHierarchy(H200);
  m.beginLaunch({ cacheControl: 'none' });
  const sec = new Float64Array(4);
  const a = { sm: 0, op: 'ld' as 'ld' | 'st', sectors: sec, count: 4, cacheOp: 'ca' as const, property: { kind: 'global' as const } };
  const t0 = performance.now();
  for (let i = 0, n = sectors / 4; i < n; i++) {
    const st = i % 3 === 2;
    const line = st ? 0x1000000 + (i % 262144) : i % 524288;
    for (let j = 0; j < 4; j++) sec[j] = line * 4 + j;
    a.sm = (i >> 3) % 132;
    a.op = st ? 'st' : 'ld';
    m.access(a);
  }
  m.endLaunch();
  return sectors / ((performance.now() - t0) / 1000);
}

describe('throughput', () => {
  it('handles > 3 M sectors/s', () => {
    const rate = syntheticRate(8_000_000);
    expect(rate).toBeGreaterThan(3e6);
  });
});
