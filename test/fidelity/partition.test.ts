/**
 * The L2's two partitions against our own H200 probe (test/fidelity/probes/l2_partition_probe.cu, its
 * output gzipped beside it; no ncu: clock64() latencies and %smid). Lines written from the host and
 * loaded once from one SM come back in 240-320 cycles when homed in the SM's near partition, 400-500
 * over the L2 fabric. What holds: the arch's SM -> partition map is the probe's (two complementary
 * sets of 66 SMs), and the L2's home of every measured 4-KiB chunk of a 4-GiB buffer is the probe's
 * within each 4-MiB region, up to the one hashed bit per region (physical page bits) the model draws.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { h200 } from '../../src/arch/data/h200.js';
import { L2Cache } from '../../src/memory/l2Cache.js';
import { Dram } from '../../src/memory/dram.js';

const NEAR = 360;
let rows: string[][];

beforeAll(() => {
  const text = gunzipSync(readFileSync(join(import.meta.dirname, 'probes', 'l2_partition_probe_h200.csv.gz'))).toString('utf8');
  rows = text.trim().split('\n').map((l) => l.split(','));
});

describe('L2 partitions vs the H200 partition probe', () => {
  it('the SMs that see the same lines near are the arch smL2Partition sets', () => {
    const near = rows.filter((r) => r[0] === 'near');
    expect(near).toHaveLength(h200.smCount);
    // lines SM 0 sees near; every SM agrees with SM 0 on most lines (same partition) or on few (the other)
    const fast = (r: string[]) => r.slice(3).map((v) => Number(v) < NEAR);
    const ref = fast(near.find((r) => r[1] === '0')!);
    for (const r of near) {
      const f = fast(r);
      const agree = f.filter((v, j) => v === ref[j]).length / f.length;
      const same = h200.smL2Partition[Number(r[1])] === h200.smL2Partition[0];
      expect(agree, `SM ${r[1]}`).toBeGreaterThan(same ? 0.95 : 0);
      if (!same) expect(agree, `SM ${r[1]}`).toBeLessThan(0.55);
    }
    expect(h200.smL2Partition.filter((p) => p === 0)).toHaveLength(66);
  });

  it('every measured chunk is homed where the arch partition hash puts it, up to one bit per 4-MiB region', () => {
    const l2 = new L2Cache(
      { bytes: 1 << 20, lineSize: 128, sectorSize: 32, fillGranularity: 64, partitions: 2, partitionHash: h200.l2PartitionHash },
      new Dram(),
    );
    const chunkLines = h200.l2PartitionHash.unitBytes / 128;
    const flips = new Map<number, Set<boolean>>();
    let measured = 0;
    for (const r of rows) {
      if (r[0] !== 'home') continue;
      const chunk = Number(r[1]);
      const [a, b] = [r.slice(2, 5).map(Number), r.slice(5, 8).map(Number)];
      // SM 0 is in partition 0, SM 2 in partition 1: the chunk's home is the side that sees it near
      const home = a.some((v, j) => v < NEAR && b[j]! >= NEAR) ? h200.smL2Partition[0] : h200.smL2Partition[2];
      const region = Math.floor((chunk * h200.l2PartitionHash.unitBytes) / h200.l2PartitionHash.regionBytes);
      for (let k = 0; k < chunkLines; k += 11) {
        const set = flips.get(region) ?? new Set<boolean>();
        set.add(l2.homeOf(chunk * chunkLines + k) !== home);
        flips.set(region, set);
      }
      measured++;
    }
    expect(measured).toBe(16384 + 6 * 32);
    for (const [region, f] of flips) expect(f.size, `4-MiB region ${region}`).toBe(1);
  });
});
