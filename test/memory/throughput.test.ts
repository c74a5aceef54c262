/**
 * A synthetic mixed stream through the hierarchy (the shape of the interpreter's hot path): 4-sector
 * line requests, a 64 MiB read stream interleaved with 32 MiB of stores, from all SMs. Speed is not
 * asserted here (speed targets live in `npm run bench`); this checks that the counters of a long
 * stream stay consistent.
 */
import { describe, expect, it } from 'vitest';
import { MemoryHierarchy } from '../../src/memory/hierarchy.js';
import { H200 } from './fixtures.js';

function syntheticStream(requests: number): { metrics: Record<string, number>; dirty: number; loads: number; stores: number } {
  const m = new MemoryHierarchy(H200);
  m.beginLaunch({ cacheControl: 'none' });
  const sec = new Float64Array(4);
  const a = { sm: 0, group: 0, op: 'ld' as 'ld' | 'st', sectors: sec, count: 4, cacheOp: 'ca' as const, property: { kind: 'global' as const } };
  let loads = 0;
  let stores = 0;
  for (let i = 0; i < requests; i++) {
    const st = i % 3 === 2;
    const line = st ? 0x1000000 + (i % 262144) : i % 524288;
    for (let j = 0; j < 4; j++) sec[j] = line * 4 + j;
    a.sm = (i >> 3) % 132;
    a.op = st ? 'st' : 'ld';
    m.access(a);
    if (st) stores++;
    else loads++;
  }
  // what is dirty when the kernel ends (endLaunch then cleans the excess over the idle cap, uncounted)
  const dirty = m.l2.dirtySectors();
  return { metrics: m.endLaunch(), dirty, loads, stores };
}

describe('synthetic mixed stream', () => {
  it('accounts every sector: L2 lookups, hits and misses, DRAM fills and write-backs', () => {
    const { metrics: o, dirty, loads, stores } = syntheticStream(500_000);
    expect(o['lts__t_sectors_srcunit_tex_op_read.sum']).toBe(4 * loads);
    expect(o['lts__t_sectors_srcunit_tex_op_write.sum']).toBe(4 * stores);
    // full-line reads of a stream larger than L2 (first pass): every read sector misses and is filled
    expect(o['lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum']).toBe(0);
    expect(o['dram__sectors_read.sum']).toBe(4 * loads);
    // full-sector stores allocate without fill and hit (surprise 4)
    expect(o['lts__t_sectors_srcunit_tex_op_write_lookup_hit.sum']).toBe(4 * stores);
    // what is not written back is still dirty in L2
    expect(o['dram__sectors_write.sum']! + dirty).toBe(4 * stores);
  });
});
