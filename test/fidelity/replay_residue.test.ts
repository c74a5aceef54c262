/**
 * What ncu's multi-pass replay leaves dirty, against our own H200 probe (test/fidelity/probes/
 * l2_excess_probe.cu, raw ncu CSVs beside it; test/fidelity/probes/kernels/l2_replay_residue.ts): kernels that stream
 * 134-268 MB through the L2 under --cache-control all, replayed in 3 passes. The one without a
 * single store writes 2.35 MB to DRAM there (2.29-2.45 MB in 3 and 11 passes, 0.02 MB in one:
 * l2_tail_probe.cu): dirty lines that were in the L2 when the measured pass began. The emulator
 * seeds the flushed L2 with them (arch ncuReplayDirtyBytes); the same bytes are why
 * g_ld_u8/u16/u32_stride32 write more than they store (caches.test.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { h200 as H200_ARCH } from '../../src/arch/data/h200.js';
import { readNcuRawCsv } from '../../src/report/ncuCsv.js';
import { fidelityReport } from './reports.js';

const PROBE = join(import.meta.dirname, 'probes', 'l2_excess_probe_flushed_h200.csv');
/** the load-only stream (launch ID 4) replayed in 1, 3 and 11 passes */
const PASSES = [1, 3, 11].map((n) => join(import.meta.dirname, 'probes', `l2_tail_probe_plain_p${n}_h200.csv`));
const WR = 'dram__bytes_write.sum';
/** family 1 of the ground truth profiled six times with its 77 metrics (11 passes) and twice in one pass (run_gt_repeat.sh) */
const REPEAT = join(import.meta.dirname, 'probes', 'gt_repeat_h200.csv');
const L2_WRITES = 'lts__t_sectors_srcunit_tex_op_write.sum';

/** our kernel -> the probe's launch ID */
const LAUNCH: Record<string, number> = {
  l2x_u8_stride32_nostore: 1,
  l2x_u8_stride32_u32store: 4,
  l2x_u32_stride32_u8store: 5,
};

type Metrics = Record<string, unknown>;
let ours = new Map<string, Metrics>();
let h200 = new Map<string, Metrics>();
beforeAll(() => {
  ours = new Map(fidelityReport('l2_replay_residue').kernels.map((k) => [k.name, k.metrics as Metrics]));
  const byId = new Map(readNcuRawCsv(PROBE).map((l) => [l.id, Object.fromEntries(Object.entries(l.metrics).map(([m, v]) => [m, v.value]))]));
  h200 = new Map(Object.entries(LAUNCH).map(([k, id]) => [k, byId.get(id)!]));
});

const num = (m: Metrics | undefined, id: string) => Number(m?.[id]);

describe("dirty lines left by ncu's replay vs the H200 probe", () => {
  it('profiles every probe launch', () => {
    expect([...ours.keys()].sort()).toEqual(Object.keys(LAUNCH).sort());
  });

  it('a kernel without stores writes what the replay left: over 2 MB, no L2 write sectors, within 10 %', () => {
    const k = 'l2x_u8_stride32_nostore';
    for (const m of [ours.get(k), h200.get(k)]) {
      expect(num(m, L2_WRITES)).toBe(0);
      expect(num(m, WR)).toBeGreaterThan(2e6);
    }
    expect(Math.abs(num(ours.get(k), WR) - num(h200.get(k), WR))).toBeLessThan(0.1 * num(h200.get(k), WR));
  });

  it('the arch value is what multi-pass replay adds on the H200: the load-only stream in 3 and 11 passes less in one', () => {
    const [one, ...many] = PASSES.map((f) => Number(readNcuRawCsv(f).find((l) => l.id === 4)!.metrics[WR]!.value));
    expect(one!).toBeLessThan(0.1e6);
    for (const w of many) expect(Math.abs(w - one! - H200_ARCH.ncuReplayDirtyBytes)).toBeLessThan(0.1 * H200_ARCH.ncuReplayDirtyBytes);
  });

  it('and what it adds to every family-1 kernel that fills the L2: the median of 11-pass less 1-pass writes', () => {
    const runs = new Map<string, { many: number[]; one: number[] }>();
    for (const line of readFileSync(REPEAT, 'utf8').trim().split('\n').slice(1)) {
      const [run, kernel, wr] = line.split(',');
      const r = runs.get(kernel!) ?? { many: [], one: [] };
      if (run!.startsWith('family')) r.many.push(Number(wr));
      else if (run!.startsWith('single')) r.one.push(Number(wr));
      runs.set(kernel!, r);
    }
    const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
    const added = [...runs.values()].filter((r) => r.one.length > 0 && mean(r.one) > 1e6).map((r) => mean(r.many) - mean(r.one));
    added.sort((a, b) => a - b);
    expect(added.length).toBeGreaterThan(15);
    const median = added[added.length >> 1]!;
    expect(Math.abs(median - H200_ARCH.ncuReplayDirtyBytes)).toBeLessThan(0.05 * H200_ARCH.ncuReplayDirtyBytes);
  });

  it('DRAM bytes written within 10 % for stores of 1 and 4 bytes behind 134 / 268 MB of loads', () => {
    for (const k of Object.keys(LAUNCH)) {
      const o = num(ours.get(k), WR);
      const h = num(h200.get(k), WR);
      console.log(`${k.padEnd(28)} H200 ${(h / 1e6).toFixed(2)} MB  warpsight ${(o / 1e6).toFixed(2)} MB`);
      expect(Math.abs(o - h), k).toBeLessThan(0.1 * h);
    }
  });
});
