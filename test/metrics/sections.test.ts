import { describe, expect, it } from 'vitest';
import { metricInfo } from '../../src/metrics/registry.js';
import { RULES } from '../../src/metrics/rules/index.js';
import { SECTIONS, appliesTo, ccNumber, sectionById, unknownSections } from '../../src/metrics/sections.js';

describe('sections as data', () => {
  it('has unique ids, in ncu`s order', () => {
    expect(new Set(SECTIONS.map((s) => s.id)).size).toBe(SECTIONS.length);
    expect(SECTIONS.map((s) => s.id)).toEqual([
      'SpeedOfLight',
      'ComputeWorkloadAnalysis',
      'MemoryWorkloadAnalysis',
      'MemoryWorkloadAnalysis_Tables',
      'SchedulerStats',
      'WarpStateStats',
      'InstructionStats',
      'LaunchStats',
      'Occupancy',
      'WorkloadDistribution',
      'SourceCounters',
    ]);
  });

  it('names ncu`s display names and labels', () => {
    expect(sectionById('LaunchStats')?.name).toBe('Launch Statistics');
    expect(sectionById('SpeedOfLight')?.name).toBe('GPU Speed Of Light Throughput');
    const ls = sectionById('LaunchStats')?.header ?? [];
    expect(ls.find((e) => e.metric === 'launch__registers_per_thread')).toEqual({
      metric: 'launch__registers_per_thread',
      label: 'Registers Per Thread',
      unit: 'register/thread',
    });
  });

  it('lists every metric once per section', () => {
    for (const s of SECTIONS) {
      const ids = s.header.map((e) => e.metric);
      expect(new Set(ids).size, s.id).toBe(ids.length);
    }
  });

  it('agrees with the metric registry on every unit both know', () => {
    for (const s of SECTIONS) {
      for (const e of [...s.header, ...(s.metrics ?? [])]) {
        const info = metricInfo(e.metric);
        if (info.label === e.metric) continue; // not in the registry (yet)
        expect(e.unit ?? '', `${s.id} ${e.metric}`).toBe(info.unit);
      }
    }
  });

  it('gives every grid row one cell per column', () => {
    for (const s of SECTIONS)
      for (const g of s.body ?? [])
        for (const t of g.tables)
          if (t.kind === 'grid') for (const r of t.rows) expect(r.cells.length, `${t.label} / ${r.label}`).toBe(t.columns.length);
  });

  it('knows the section of every rule', () => {
    for (const r of RULES) expect(sectionById(r.section), r.id).toBeDefined();
  });

  it('filters entries by compute capability', () => {
    expect(ccNumber('9.0')).toBe(90);
    expect(ccNumber('10.3')).toBe(103);
    expect(ccNumber('x')).toBeUndefined();
    const mwa = sectionById('MemoryWorkloadAnalysis')?.header ?? [];
    const lrc = mwa.find((e) => e.metric === 'lrc__ilc_input_sectors.sum');
    const gcomp = mwa.find((e) => e.metric === 'lts__gcomp_input_sectors.sum');
    expect(lrc && appliesTo(lrc, 90)).toBe(true);
    expect(gcomp && appliesTo(gcomp, 90)).toBe(false);
    expect(gcomp && appliesTo(gcomp, 80)).toBe(true);
    expect(gcomp && appliesTo(gcomp, undefined)).toBe(true);
  });

  it('names unknown section ids for a command`s error', () => {
    expect(unknownSections(['LaunchStats', 'LaunchStat'])).toEqual(['LaunchStat']);
  });
});
