/**
 * The L2's write-back avoidance (src/memory/hierarchy.ts writeBackAvoidance): the more DRAM reads a
 * scheduler round brings, the more often a dirty victim is passed over for a clean one. An 8 MiB buffer
 * is written into an empty L2, then the same 40 MiB (with their far-partition copies more than the L2
 * holds) are read in rounds of different sizes.
 */
import { describe, expect, it } from 'vitest';
import { MemoryHierarchy } from '../../src/memory/hierarchy.js';
import { H200 } from './fixtures.js';
import { Req } from './request.js';

const LINE = 128;
const R_LINES = (8 << 20) / LINE;
const X_LINES = (40 << 20) / LINE;

/** bytes of the written buffer the read stream writes back, with a round every `linesPerRound` reads */
function writtenBackDuringStream(linesPerRound: number, maxSkip?: number): number {
  const m = new MemoryHierarchy(H200, maxSkip === undefined ? {} : { writeBackAvoidance: { maxSkip, halfReadBytes: 4e6, steepness: 4 } });
  const req = new Req();
  const touch = (line: number, i: number) => {
    req.a.sm = i % 132;
    m.access(req.line(line * LINE).a);
  };
  m.beginLaunch({ cacheControl: 'none' });
  req.a.op = 'st';
  for (let i = 0; i < R_LINES; i++) touch(i, i);
  m.endLaunch();
  m.beginLaunch({ cacheControl: 'none' });
  req.a.op = 'ld';
  for (let i = 0; i < X_LINES; i++) {
    touch(0x100000 + i, i);
    if ((i + 1) % linesPerRound === 0) m.endRound();
  }
  return m.endLaunch()['dram__bytes_write.sum']!;
}

describe('write-back avoidance', () => {
  it('a stream with few reads per round evicts the written buffer as LRU does; one with many passes over its dirty lines', () => {
    const lru = writtenBackDuringStream((8 << 20) / LINE, 0); // no avoidance at all
    const light = writtenBackDuringStream((1 << 20) / LINE); // 1 MiB read per round (64-B fills of whole lines)
    const heavy = writtenBackDuringStream((8 << 20) / LINE); // 8 MiB per round
    console.log(`written back of 8.39 MB: LRU ${(lru / 1e6).toFixed(2)} MB, light rounds ${(light / 1e6).toFixed(2)}, heavy ${(heavy / 1e6).toFixed(2)}`);
    expect(lru).toBeGreaterThan(0.5 * R_LINES * LINE);
    expect(Math.abs(light - lru)).toBeLessThan(0.02 * lru);
    expect(heavy).toBeLessThan(0.6 * lru);
  });
});
