/**
 * The L1TEX and L2 cycle counters (ncu's GPU and Memory Workload Distribution section) against the
 * two H200 launches ncu profiled with --set full (full_raw_*.csv), and what the uncoalesced-access
 * rules make of them: speedup = the unit's active / elapsed cycles × excess / total sectors or
 * wavefronts (ncu 73.90 % for g_ld_u32_stride32's global loads, 91.42 % for the unpadded transpose's
 * shared accesses). Without these counters both rules had no cycles to weigh and said 0 %.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readNcuRawCsv } from '../../src/report/ncuCsv.js';
import { fidelityKernel } from './reports.js';

const GT = resolve(import.meta.dirname, '../../../shared/groundtruth/h200');

const CASES = [
  { run: 'global_loads', kernel: 'g_ld_u32_stride32', unit: 'lts', rule: 'UncoalescedGlobalAccess' },
  { run: 'transpose', kernel: 'sh_transpose_32x32_bd32x8', unit: 'l1tex', rule: 'UncoalescedSharedAccess' },
] as const;

function h200(kernel: string): Record<string, number> {
  const [l] = readNcuRawCsv(`${GT}/full_raw_${kernel}.csv`);
  const out: Record<string, number> = {};
  for (const [id, v] of Object.entries(l?.metrics ?? {})) if (typeof v.value === 'number') out[id] = v.value;
  return out;
}

describe('L1TEX and L2 active and elapsed cycles vs the H200 (--set full launches)', () => {
  for (const c of CASES)
    it(`${c.kernel}: each unit's active share within 3 points, and ${c.rule}'s speedup within 3 points of ncu's`, () => {
      const ncu = h200(c.kernel);
      const k = fidelityKernel(c.run, c.kernel);
      const m = (id: string) => Number(k.metrics[id]);
      for (const unit of ['l1tex', 'lts']) {
        const ours = m(`${unit}__cycles_active.sum`) / m(`${unit}__cycles_elapsed.sum`);
        const theirs = ncu[`${unit}__cycles_active.sum`]! / ncu[`${unit}__cycles_elapsed.sum`]!;
        expect(Math.abs(ours - theirs), `${unit}: H200 ${theirs.toFixed(3)}, warpsight ${ours.toFixed(3)}`).toBeLessThan(0.03);
      }
      // the L2 counts its own cycles (1.7 GHz, 94 slices): per ns of the launch as on the H200
      const perNs = (lts: number, ns: number) => lts / ns;
      expect(perNs(m('lts__cycles_elapsed.sum'), m('gpu__time_duration.sum')) / perNs(ncu['lts__cycles_elapsed.sum']!, ncu['gpu__time_duration.sum']!)).toBeCloseTo(1, 2);
      const rule = k.rules.find((r) => r.id === c.rule);
      expect(rule?.speedup?.type).toBe('global');
      const want = c.unit === 'lts' ? 73.9 : 91.42;
      expect(Math.abs(rule!.speedup!.value - want), `${c.rule}: ncu ${want} %, warpsight ${rule?.speedup?.value.toFixed(2)} %`).toBeLessThan(3);
    });
});
