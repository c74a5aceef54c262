/**
 * Which lines the L2 gives up, against our own H200 probe (test/fidelity/probes/l2_request_probe.cu,
 * l2_request_probe_h200.csv, 8 runs; kernels/l2_requests.ts): micro.cu's 4-byte copy under ncu (11-pass
 * replay, caches flushed) writes back part of the ~2.3 MB ncu's replay leaves dirty, and more when each
 * line it copies is read a second time by the same SM after the first read was served (`reread`, .cg):
 * the stores' dirty lines, never read, are then evicted in place of the clean lines read twice
 * (src/memory/l2Cache.ts L2Options.replacement 'rrip'). LRU writes back little more (0.64 MB): a read
 * only refreshes a line's recency, and the lines read twice came in before the stores did. A second
 * read of 512 other lines (`hot`) changes little on the H200.
 * Known gaps: `hot` writes back 0.67 MB here (the H200 0.59): the 512 hot lines and their copies each
 * take a way of a set that fills anyway. `other` (each line read again by the neighbouring block, .cg)
 * 0.77 MB where the H200 writes 0.94: there 13 % of the second reads miss in the SM's near partition
 * (another copy of the line), here none do (a block's neighbour runs in the same partition).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fidelityReport } from './reports.js';

const WR = 'dram__bytes_write.sum';
const RD = 'dram__bytes_read.sum';
const REQ = 'lts__t_requests_srcunit_tex_op_read.sum';
const HIT = 'lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum';
const IDS = [WR, RD, REQ, HIT] as const;
const VARIANTS = ['coalesced', 'cg', 'reread', 'other', 'hot', 'misaligned'] as const;
type Variant = (typeof VARIANTS)[number];
type Figures = Record<(typeof IDS)[number], number>;

let h200 = new Map<Variant, Figures>();
let ours = new Map<Variant, Figures>();

beforeAll(() => {
  const [head, ...rows] = readFileSync(join(import.meta.dirname, 'probes', 'l2_request_probe_h200.csv'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split(','));
  const col = (id: string) => head!.indexOf(id);
  h200 = new Map(
    VARIANTS.map((v) => {
      const runs = rows.filter((r) => r[1] === `rq_${v}`);
      expect(runs.length, v).toBe(8);
      return [v, Object.fromEntries(IDS.map((id) => [id, runs.reduce((s, r) => s + Number(r[col(id)]), 0) / runs.length])) as Figures];
    }),
  );
  const kernels = fidelityReport('l2_requests').kernels;
  ours = new Map(
    VARIANTS.map((v) => {
      const k = kernels.find((x) => x.name === `rq_${v}`)!;
      return [v, Object.fromEntries(IDS.map((id) => [id, Number(k.metrics[id])])) as Figures];
    }),
  );
  for (const v of VARIANTS)
    console.log(`${v.padEnd(10)} DRAM written H200 ${(h200.get(v)![WR] / 1e6).toFixed(3)} MB (8-run mean), warpsight ${(ours.get(v)![WR] / 1e6).toFixed(3)}`);
});

const written = (side: Map<Variant, Figures>, v: Variant) => side.get(v)![WR];

describe('lines read again vs the H200 request probe', () => {
  it('the same lines and requests reach the L2: DRAM reads within 1 %; reread 2 requests per warp, its second reads all hits', () => {
    for (const v of VARIANTS) expect(Math.abs(ours.get(v)![RD] / h200.get(v)![RD] - 1), v).toBeLessThan(0.01);
    for (const side of [h200, ours]) {
      expect(side.get('coalesced')![REQ]).toBe(131_072);
      expect(side.get('reread')![REQ]).toBe(262_144);
      expect(side.get('reread')![HIT]).toBe(524_288);
    }
  });

  it("reading each line again writes back more, within 10 % of the H200's (0.77 MB; the copy alone 0.58)", () => {
    expect(Math.abs(written(ours, 'reread') / written(h200, 'reread') - 1)).toBeLessThan(0.1);
    const rise = (side: Map<Variant, Figures>) => written(side, 'reread') - written(side, 'coalesced');
    expect(rise(ours) / rise(h200)).toBeGreaterThan(0.7);
    expect(rise(ours) / rise(h200)).toBeLessThan(1.3);
  });

  it('a second read of other lines raises it less than half as much, on the H200 and here', () => {
    for (const side of [h200, ours])
      expect(written(side, 'hot') - written(side, 'coalesced')).toBeLessThan(0.5 * (written(side, 'reread') - written(side, 'coalesced')));
  });

  it("the copy with .cg loads and the misaligned copy within 15 % of the H200's means", () => {
    for (const v of ['coalesced', 'cg', 'misaligned'] as const) expect(Math.abs(written(ours, v) / written(h200, v) - 1), v).toBeLessThan(0.15);
  });
});
