import { describe, expect, it } from 'vitest';
import { Dram } from '../../src/memory/dram.js';
import { L2Cache } from '../../src/memory/l2Cache.js';
import { HINT_FIRST, HINT_LAST, HINT_UNCHANGED, WindowClassifier, interleaveSixteenths, resolveHint } from '../../src/memory/accessProperty.js';

const small = (bytes = 128 * 16 * 8, extra: object = {}) => {
  const dram = new Dram();
  const l2 = new L2Cache({ bytes, lineSize: 128, sectorSize: 32, ways: 16, fillGranularity: 64, ...extra }, dram);
  return { dram, l2 };
};

describe('L2Cache', () => {
  it('fills a 64-B sector pair on a read miss (surprise 5)', () => {
    const { dram, l2 } = small();
    expect(l2.read(10, 0b0001, HINT_UNCHANGED)).toBe(2);
    expect(dram.readSectors).toBe(2);
    expect(l2.read(10, 0b0011, HINT_UNCHANGED)).toBe(0);
    expect(l2.read(10, 0b1111, HINT_UNCHANGED)).toBe(2);
    expect(dram.readSectors).toBe(4);
  });

  it('counts the partner of a recent pair fill as a (merged) miss, an old one as a hit', () => {
    const { l2 } = small(128 * 16 * 64, { inflightRequests: 8 });
    l2.read(1, 0b0001, HINT_UNCHANGED);
    l2.read(1, 0b0010, HINT_UNCHANGED);
    expect(l2.readHit).toBe(0);
    l2.read(2, 0b0001, HINT_UNCHANGED);
    for (let i = 0; i < 10; i++) l2.read(100 + i, 0b1111, HINT_UNCHANGED);
    l2.read(2, 0b0010, HINT_UNCHANGED);
    expect(l2.readHit).toBe(1);
  });

  it('full-sector writes allocate without fill and hit; partial ones need a fill unless completed', () => {
    const { dram, l2 } = small();
    l2.write(5, 0b1111, 0b1111, HINT_UNCHANGED);
    expect(dram.readSectors).toBe(0);
    expect(l2.writeHit).toBe(4);
    // two halves of sector 0 of line 6 written by two requests: no fill
    l2.write(6, 0b0001, 0, HINT_UNCHANGED, [0x0000ffff, 0, 0, 0]);
    l2.write(6, 0b0001, 0, HINT_UNCHANGED, [0xffff0000, 0, 0, 0]);
    // never completed: one 32-B fill when drained
    l2.write(7, 0b0001, 0, HINT_UNCHANGED, [0x0000000f, 0, 0, 0]);
    l2.fillAllPartials();
    expect(dram.readSectors).toBe(1);
    expect(l2.writeFills).toBe(1);
  });

  it('keeps at most partialLinesPerSet lines waiting with partial sectors per set: the oldest is filled', () => {
    const { dram, l2 } = small(128 * 16, { partialLinesPerSet: 2 }); // one set
    const half = [0x0000ffff, 0x0000ffff, 0x0000ffff, 0x0000ffff];
    l2.write(1, 0b0011, 0, HINT_UNCHANGED, half);
    l2.write(2, 0b0001, 0, HINT_UNCHANGED, half);
    expect(dram.readSectors).toBe(0);
    // a second partial write to a waiting line adds a sector, no new line waits
    l2.write(2, 0b0010, 0, HINT_UNCHANGED, half);
    expect(dram.readSectors).toBe(0);
    // a third line: line 1 (oldest) fills its two partial sectors
    l2.write(3, 0b0001, 0, HINT_UNCHANGED, half);
    expect(dram.readSectors).toBe(2);
    expect(l2.writeFills).toBe(2);
    expect(l2.partialSectors()).toBe(3);
    // completing a waiting sector cancels its fill
    l2.write(3, 0b0001, 0, HINT_UNCHANGED, [0xffff0000, 0, 0, 0]);
    expect(l2.partialSectors()).toBe(2);
    // a read of a waiting sector fills it (read-merge)
    l2.read(2, 0b0001, HINT_UNCHANGED);
    expect(l2.partialSectors()).toBe(1);
    expect(l2.writeFills).toBe(3);
  });

  it('counts a line waiting with partial sectors as partialDirtyWeight lines in the dirty cap', () => {
    // one set, dirty cap 4 lines
    const run = (weight: number) => {
      const { dram, l2 } = small(128 * 16, { dirtyWays: 4, partialDirtyWeight: weight });
      l2.write(1, 0b0001, 0, HINT_UNCHANGED, [0xff, 0, 0, 0]);
      for (let line = 10; line < 13; line++) l2.write(line, 15, 15, HINT_UNCHANGED);
      return dram.writeSectors;
    };
    expect(run(1)).toBe(0); // 1 + 3 = 4 dirty lines: at the cap
    expect(run(2)).toBe(4); // 2 + 3 = 5 > 4: the LRU whole dirty line (line 10) is cleaned
  });

  it('holds dirtyWays dirty lines per set while a kernel runs and cleans the LRU ones down to idleDirtyWays after it', () => {
    // one set: a cap of 6 lines while busy, 4 once idle
    const { dram, l2 } = small(128 * 16, { dirtyWays: 6, idleDirtyWays: 4 });
    for (let line = 0; line < 7; line++) l2.write(line, 15, 15, HINT_UNCHANGED);
    expect(dram.writeSectors).toBe(4); // line 0 cleaned at the seventh
    l2.settleDirty();
    expect(dram.writeSectors).toBe(12); // lines 1 and 2, the LRU ones
    expect(l2.dirtySectors()).toBe(16);
    // the cleaned lines stay resident: reading them costs no DRAM read
    expect(l2.read(1, 15, HINT_UNCHANGED)).toBe(0);
  });

  it('reports its dirty room: the dirty cap of each set, less the set-aside ways and cleanWays', () => {
    // 8 sets of 16 ways, dirtyWays 7.71 and cleanWays 4 as the H200's: 7 or 8 ways per set without a
    // set-aside (the fraction dithered), 2 with 10/16 set aside, 4 with 8/16 (src/timing/model.ts
    // bounds the write-back rate by it)
    const { dram, l2 } = small(128 * 16 * 8, { dirtyWays: 7.71, cleanWays: 4 });
    const ways = () => l2.dirtyRoomBytes() / 128 / 8;
    expect(ways()).toBeGreaterThanOrEqual(7);
    expect(ways()).toBeLessThanOrEqual(8);
    l2.setPersistingBytes((128 * 16 * 8 * 10) / 16);
    expect(ways()).toBe(2);
    l2.setPersistingBytes((128 * 16 * 8 * 8) / 16);
    expect(ways()).toBe(4);
    // the dirty data it holds while a kernel runs stays within that room: 128 lines written whole
    for (let line = 0; line < 128; line++) l2.write(line, 15, 15, HINT_UNCHANGED);
    expect(l2.dirtySectors() * 32).toBeLessThanOrEqual(l2.dirtyRoomBytes());
    expect(dram.writeSectors * 32).toBeGreaterThanOrEqual(128 * 128 - l2.dirtyRoomBytes());
  });

  it('writes back dirty sectors on eviction and on flush', () => {
    const { dram, l2 } = small(128 * 16); // one set of 16 ways
    for (let line = 0; line < 17; line++) l2.write(line, 0b0011, 0b0011, HINT_UNCHANGED);
    expect(dram.writeSectors).toBe(2);
    l2.flush();
    expect(dram.writeSectors).toBe(34);
  });

  it('seeded dirty lines are the oldest: a stream that fills the set writes them back first', () => {
    const { dram, l2 } = small(128 * 16); // one set of 16 ways
    l2.seedDirty(1000, 3);
    expect(l2.dirtySectors()).toBe(12);
    for (let line = 0; line < 13; line++) l2.read(line, 0b1111, HINT_UNCHANGED);
    expect(dram.writeSectors).toBe(0);
    l2.read(13, 0b1111, HINT_UNCHANGED);
    expect(dram.writeSectors).toBe(4);
    for (let line = 14; line < 16; line++) l2.read(line, 0b1111, HINT_UNCHANGED);
    expect(dram.writeSectors).toBe(12);
    expect(l2.dirtySectors()).toBe(0);
  });

  it('second chance: a line read again, or written whole, is passed over once at the bottom of its set; LRU evicts it', () => {
    // one set: line 0 touched twice, then lines 1-15; line 16 needs room
    const run = (replacement: 'lru' | 'sc', first: (l2: L2Cache) => void, inflightRequests = 0) => {
      const { dram, l2 } = small(128 * 16, { replacement, inflightRequests });
      first(l2);
      for (let line = 1; line < 16; line++) l2.read(line, 15, HINT_UNCHANGED);
      l2.read(16, 15, HINT_UNCHANGED);
      const written = dram.writeSectors;
      l2.resetCounters();
      l2.read(0, 15, HINT_UNCHANGED);
      return { kept: l2.readHit === 4, written };
    };
    const readTwice = (l2: L2Cache) => [0, 0].forEach((line) => l2.read(line, 15, HINT_UNCHANGED));
    const write = (l2: L2Cache) => l2.write(0, 15, 15, HINT_UNCHANGED);
    expect(run('lru', readTwice)).toEqual({ kept: false, written: 0 });
    expect(run('sc', readTwice)).toEqual({ kept: true, written: 0 });
    // the dirty line passed over is written back as it is, and kept
    expect(run('lru', write)).toEqual({ kept: false, written: 4 });
    expect(run('sc', write)).toEqual({ kept: true, written: 4 });
    // read again while its fill is still in flight: part of the miss, no second chance
    expect(run('sc', readTwice, 100)).toEqual({ kept: false, written: 0 });
    // written whole by an atomic, or resident and written in part: a second chance as for a whole store
    expect(run('sc', (l2) => l2.atomic(0, 15, HINT_UNCHANGED))).toEqual({ kept: true, written: 4 });
    const readThenAtomic = (l2: L2Cache) => {
      l2.read(0, 15, HINT_UNCHANGED);
      l2.atomic(0, 1, HINT_UNCHANGED);
    };
    expect(run('sc', readThenAtomic)).toEqual({ kept: true, written: 1 });
    // only its first sector written (the others never fetched), by a store or an atomic: no second chance
    expect(run('sc', (l2) => l2.write(0, 1, 1, HINT_UNCHANGED))).toEqual({ kept: false, written: 1 });
    expect(run('sc', (l2) => l2.atomic(0, 1, HINT_UNCHANGED))).toEqual({ kept: false, written: 1 });
  });

  it('second chance: a line passed over goes at its next turn, clean; when every line had a chance the oldest goes', () => {
    const { dram, l2 } = small(128 * 16, { replacement: 'sc', inflightRequests: 0 });
    l2.write(0, 15, 15, HINT_UNCHANGED);
    for (let line = 1; line < 16; line++) l2.read(line, 15, HINT_UNCHANGED);
    l2.read(16, 15, HINT_UNCHANGED); // passes line 0 over (written back), evicts line 1
    l2.read(17, 15, HINT_UNCHANGED); // line 0 again: no chance left, clean
    expect(dram.writeSectors).toBe(4);
    l2.resetCounters();
    l2.read(0, 15, HINT_UNCHANGED);
    expect(l2.readHit).toBe(0);
    // every line of a full set written: each is passed over (and written back) once, then the oldest goes
    const full = small(128 * 16, { replacement: 'sc' });
    for (let line = 0; line < 16; line++) full.l2.write(line, 15, 15, HINT_UNCHANGED);
    full.l2.read(16, 15, HINT_UNCHANGED);
    expect(full.dram.writeSectors).toBe(64);
    full.l2.resetCounters();
    full.l2.read(1, 15, HINT_UNCHANGED);
    expect(full.l2.readHit).toBe(4);
  });

  it('evicts evict_first lines before normal ones', () => {
    const { l2 } = small(128 * 16);
    l2.read(0, 15, HINT_FIRST);
    for (let line = 1; line < 16; line++) l2.read(line, 15, HINT_UNCHANGED);
    l2.read(99, 15, HINT_UNCHANGED); // evicts line 0 (evict_first), not the LRU normal line 1
    l2.resetCounters();
    l2.read(1, 15, HINT_UNCHANGED);
    expect(l2.readHit).toBe(4);
    l2.read(0, 15, HINT_UNCHANGED);
    expect(l2.readHit).toBe(4);
  });

  it('confines persisting lines to the set-aside ways and treats them as normal with a 0 set-aside', () => {
    const { l2 } = small(128 * 16 * 4); // 4 sets
    l2.setPersistingBytes(128 * 16 * 4 * (4 / 16)); // 4 ways per set
    for (let line = 0; line < 64; line++) l2.read(line, 15, HINT_LAST);
    expect(l2.classCounts()[2]).toBe(16);
    l2.resetPersisting();
    expect(l2.classCounts()[2]).toBe(0);
    l2.setPersistingBytes(0);
    l2.read(1000, 15, HINT_LAST);
    expect(l2.classCounts()[2]).toBe(0);
  });

  it('takes the set-aside as a fraction of the reported size when fewer slices hold data (in ways per set)', () => {
    // half of the reported 8 sets hold data: a quarter of the reported bytes is still 4 ways per set
    const { l2 } = small(128 * 16 * 4, { nominalBytes: 128 * 16 * 8 });
    expect(l2.capacityBytes()).toBe(128 * 16 * 4);
    l2.setPersistingBytes(128 * 16 * 8 * (4 / 16));
    for (let line = 0; line < 64; line++) l2.read(line, 15, HINT_LAST);
    expect(l2.classCounts()[2]).toBe(16);
  });

  it('keeps persisting lines against a normal stream larger than the cache', () => {
    const { dram, l2 } = small(128 * 16 * 64);
    l2.setPersistingBytes(128 * 16 * 64 * 0.5);
    for (let line = 0; line < 256; line++) l2.write(line, 15, 15, HINT_LAST);
    for (let line = 10000; line < 20000; line++) l2.read(line, 15, HINT_FIRST);
    l2.resetCounters();
    const before = dram.readSectors;
    for (let line = 0; line < 256; line++) l2.read(line, 15, HINT_LAST);
    expect(l2.readHit).toBe(1024);
    expect(dram.readSectors).toBe(before);
  });

  it('discard drops a dirty line without write-back', () => {
    const { dram, l2 } = small();
    l2.write(3, 15, 15, HINT_UNCHANGED);
    l2.discard(3);
    l2.flush();
    expect(dram.writeSectors).toBe(0);
  });
});

describe('access properties', () => {
  it('quantises interleaved fractions to 1/16 and applies them per line', () => {
    expect(interleaveSixteenths(1)).toBe(16);
    expect(interleaveSixteenths(0.5)).toBe(8);
    expect(interleaveSixteenths(0.01)).toBe(1);
    let last = 0;
    for (let line = 0; line < 16000; line++)
      if (resolveHint({ kind: 'interleaved', primary: 'persisting', fraction: 0.25, secondary: 'streaming' }, line, 128) === HINT_LAST) last++;
    expect(last / 16000).toBeGreaterThan(0.22);
    expect(last / 16000).toBeLessThan(0.28);
  });

  it('range property: primary, secondary, outside', () => {
    const p = { kind: 'range', base: 1 << 20, primaryBytes: 4096, totalBytes: 8192, primary: 'persisting', secondary: 'streaming' } as const;
    expect(resolveHint(p, (1 << 20) / 128, 128)).toBe(HINT_LAST);
    expect(resolveHint(p, ((1 << 20) + 5000) / 128, 128)).toBe(HINT_FIRST);
    expect(resolveHint(p, ((1 << 20) + 9000) / 128, 128)).toBe(HINT_UNCHANGED);
  });

  it('window: stable per-segment choice with about hitRatio persisting', () => {
    const w = new WindowClassifier({ base: 0, bytes: 64 << 20, hitRatio: 0.3, hitProp: 'persisting', missProp: 'streaming' }, 128);
    let hits = 0;
    const n = (64 << 20) / 128;
    for (let line = 0; line < n; line++) if (w.hintFor(line) === HINT_LAST) hits++;
    expect(hits / n).toBeGreaterThan(0.27);
    expect(hits / n).toBeLessThan(0.33);
    expect(w.hintFor(12345)).toBe(w.hintFor(12345));
    expect(w.hintFor(n)).toBe(-1);
  });

  it('counts the sectors SMs pass to a far home over the fabric: read misses, writes and atomics', () => {
    // two partitions, lines alternating (default hash), SM s in partition s % 2
    const { l2 } = small(128 * 16 * 64, { partitions: 2 });
    const far = (line: number) => 1 - l2.homeOf(line);
    const near = (line: number) => l2.homeOf(line);
    l2.read(1, 0b1111, HINT_UNCHANGED, far(1));
    l2.read(1, 0b1111, HINT_UNCHANGED, far(1)); // hits the near copy
    l2.read(2, 0b1111, HINT_UNCHANGED, near(2));
    expect(l2.fabricSectors).toBe(4);
    l2.write(3, 0b0011, 0b0011, HINT_UNCHANGED, undefined, far(3));
    l2.write(4, 0b0011, 0b0011, HINT_UNCHANGED, undefined, near(4));
    expect(l2.writeFabric).toBe(2);
    l2.atomic(5, 0b0001, HINT_UNCHANGED, far(5));
    l2.atomic(6, 0b0001, HINT_UNCHANGED, near(6));
    expect(l2.atomFabric).toBe(1);
  });
});

describe('L2Cache arrays (L2Arrays)', () => {
  it('a cache made from a released one\'s arrays behaves as a new one (L2Arrays: a session\'s L2 serves the next)', () => {
    const bytes = 128 * 16 * 64;
    const opts = { bytes, lineSize: 128, sectorSize: 32, ways: 16, fillGranularity: 64, partitions: 2 as const, nominalBytes: bytes };
    const arraysOf = (l2: L2Cache): Float64Array => (l2 as unknown as { tag: Float64Array }).tag;
    /** a fixed mix of reads, full and partial writes, atomics, persisting hints and a set-aside: what a launch leaves */
    const traffic = (l2: L2Cache): number[] => {
      const out: number[] = [];
      let x = 12345;
      const next = (): number => (x = (Math.imul(x, 1103515245) + 12345) >>> 0);
      l2.setPersistingBytes(bytes / 4);
      for (let i = 0; i < 6000; i++) {
        const line = next() % 3000;
        const hint = next() % 7 === 0 ? HINT_LAST : next() % 5 === 0 ? HINT_FIRST : HINT_UNCHANGED;
        const op = next() % 4;
        const sm = next() % 4;
        if (op === 0) out.push(l2.read(line, 1 << (next() % 4), hint, sm));
        else if (op === 1) out.push(l2.write(line, 0b1111, 0b1111, hint, undefined, sm));
        else if (op === 2) out.push(l2.write(line, 0b0010, 0, hint, [0, 0x00ff00ff, 0, 0], sm));
        else out.push(l2.atomic(line, 0b0001, hint, sm));
      }
      return [...out, l2.readHit, l2.readMiss, l2.writeHit, l2.writeMiss, l2.atomHit, l2.persistingLines(), l2.dirtySectors()];
    };
    const first = small(bytes, opts);
    traffic(first.l2);
    expect(first.l2.dirtySectors()).toBeGreaterThan(0);
    const used = arraysOf(first.l2);
    first.l2.release();
    const reused = small(bytes, opts);
    const fresh = small(bytes, opts);
    // the second cache took the first one's arrays, the third new ones
    expect(arraysOf(reused.l2)).toBe(used);
    expect(arraysOf(fresh.l2)).not.toBe(used);
    expect(traffic(reused.l2)).toEqual(traffic(fresh.l2));
    expect([reused.dram.readSectors, reused.dram.writeSectors]).toEqual([fresh.dram.readSectors, fresh.dram.writeSectors]);
  });
});
