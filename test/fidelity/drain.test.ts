/**
 * Where the write-backs a load-then-store kernel avoids go, against our own H200 probe
 * (test/fidelity/probes/l2_drain_probe.cu, raw ncu CSV beside it, two repetitions; test/fidelity/probes/kernels/l2_drain.ts):
 * each kernel runs between a clean L2 and a read stream, the L2 kept (application replay,
 * --cache-control none). The kernel's DRAM writes and the stream's (the dirty bytes the kernel left)
 * add up to the bytes stored (on the H200 within 0.4-0.9 MB): nothing is written back outside the
 * kernels. With 8 blocks per SM the load-then-store kernels leave more of their stores dirty than
 * with 1 (the u128 stride-2 copy 20.5 vs 13.5 MB), a store-only kernel does not (28.4 MB, the L2's
 * dirty cap): the busier the DRAM with reads, the more often the L2 passes over a dirty victim
 * (src/memory/hierarchy.ts writeBackAvoidance).
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readNcuRawCsv } from '../../src/report/ncuCsv.js';
import { fidelityReport } from './reports.js';

const PROBE = join(import.meta.dirname, 'probes', 'l2_drain_probe_h200.csv');
const WR = 'dram__bytes_write.sum';
/** the probe's configurations in its order (each: the kernel, then the read stream) */
const CONFIGS = ['u128_stride2', 'u128_coalesced', 'u64_stride2', 'u64_coalesced', 'st_u128'].flatMap((k) => [`${k}_smem0k`, `${k}_smem200k`]);
const STORED: Record<string, number> = { u128: 67_108_864, u64: 33_554_432, st: 67_108_864 };
const stored = (c: string) => STORED[c.split('_')[0]!]!;

interface Pair {
  kernel: number;
  after: number;
}
let h200 = new Map<string, Pair>();
let ours = new Map<string, Pair>();

beforeAll(() => {
  // the H200: the mean of the two repetitions (they agree within 0.4 MB)
  const w = readNcuRawCsv(PROBE).map((l) => Number(l.metrics[WR]?.value));
  const per = CONFIGS.length * 3;
  h200 = new Map(
    CONFIGS.map((c, j) => {
      const at = (rep: number, k: number) => w[rep * per + 3 * j + k]!;
      return [c, { kernel: (at(0, 1) + at(1, 1)) / 2, after: (at(0, 2) + at(1, 2)) / 2 }];
    }),
  );
  const ks = fidelityReport('l2_drain').kernels;
  ours = new Map(CONFIGS.map((c, j) => [c, { kernel: Number(ks[2 * j]!.metrics[WR]), after: Number(ks[2 * j + 1]!.metrics[WR]) }]));
  expect(ks.map((k) => k.name).filter((n) => n !== 'l2dr_after')).toEqual(CONFIGS.map((c) => `l2dr_${c}`));
});

const mb = (b: number) => (b / 1e6).toFixed(1).padStart(5);

describe('L2 write-backs during and after a kernel vs the H200 drain probe', () => {
  it('the kernel and the next one write back the bytes stored: none go missing', () => {
    expect(h200.size).toBe(CONFIGS.length);
    for (const c of CONFIGS) {
      for (const [who, m] of [['H200', h200], ['warpsight', ours]] as const) {
        const p = m.get(c)!;
        expect(p.kernel + p.after, `${who} ${c}`).toBeGreaterThan(0.97 * stored(c));
        expect(p.kernel + p.after, `${who} ${c}`).toBeLessThan(1.01 * stored(c));
      }
    }
  });

  it('DRAM bytes written in the kernel and left dirty for the next within 10 % or 2 MB', () => {
    const off: string[] = [];
    for (const c of CONFIGS) {
      const h = h200.get(c)!;
      const o = ours.get(c)!;
      console.log(`${c.padEnd(22)} kernel H200 ${mb(h.kernel)} MB warpsight ${mb(o.kernel)} MB   left dirty H200 ${mb(h.after)} MB warpsight ${mb(o.after)} MB`);
      if (Math.abs(o.kernel - h.kernel) > Math.max(0.1 * h.kernel, 2e6)) off.push(`${c} kernel: H200 ${mb(h.kernel)}, warpsight ${mb(o.kernel)}`);
      if (Math.abs(o.after - h.after) > Math.max(0.1 * h.after, 2e6)) off.push(`${c} left dirty: H200 ${mb(h.after)}, warpsight ${mb(o.after)}`);
    }
    expect(off).toEqual([]);
  });

  it('at full occupancy the load-then-store kernels leave more dirty, the store-only kernel the same', () => {
    for (const m of [h200, ours]) {
      for (const k of ['u128_stride2', 'u128_coalesced', 'u64_stride2', 'u64_coalesced'])
        expect(m.get(`${k}_smem0k`)!.after, k).toBeGreaterThan(m.get(`${k}_smem200k`)!.after + 1e6);
      expect(Math.abs(m.get('st_u128_smem0k')!.after - m.get('st_u128_smem200k')!.after)).toBeLessThan(1e6);
    }
    // the effect grows with the DRAM bytes in flight: largest for the stride-2 16-byte copy
    for (const m of [h200, ours]) {
      const gain = (k: string) => m.get(`${k}_smem0k`)!.after - m.get(`${k}_smem200k`)!.after;
      expect(gain('u128_stride2')).toBeGreaterThan(gain('u128_coalesced'));
      expect(gain('u128_coalesced')).toBeGreaterThan(gain('u64_coalesced'));
    }
  });
});
