import { describe, expect, it } from 'vitest';
import type { Report } from '../../types/report.schema.js';
import { compareReports, parseThreshold, percentChange, renderComparison, thresholdFor } from '../../src/report/compare.js';
import { fakeReport } from './fakeReport.js';

const BC = 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum';

function withConflicts(r: Report, value: number): Report {
  const k = r.kernels[1];
  if (!k) throw new Error('fake report changed');
  k.metrics[BC] = value;
  return r;
}

describe('compare', () => {
  it('identical reports: nothing changed, no regression', () => {
    const c = compareReports(fakeReport(), fakeReport(), { thresholds: [parseThreshold(`${BC}=1`)] });
    expect(c.regressions).toBe(0);
    expect(c.unmatched).toBe(0);
    expect(c.kernels.every((k) => k.metrics.every((m) => m.pct === 0))).toBe(true);
  });

  it('every numeric metric side by side, with delta and %', () => {
    const c = compareReports(fakeReport(), withConflicts(fakeReport(), 16400550 * 2));
    const row = c.kernels[1]?.metrics.find((m) => m.metric === BC);
    expect(row).toMatchObject({ base: 16400550, new: 32801100, delta: 16400550, pct: 100, regression: false });
    const numeric = Object.values(fakeReport().kernels[0]?.metrics ?? {}).filter((v) => typeof v === 'number').length;
    expect(c.kernels[0]?.metrics).toHaveLength(numeric);
  });

  it('a crossed threshold is a regression; within it is not', () => {
    const up = compareReports(fakeReport(), withConflicts(fakeReport(), 16400550 * 1.02), { thresholds: [parseThreshold(`${BC}=1`)] });
    expect(up.regressions).toBe(1);
    const within = compareReports(fakeReport(), withConflicts(fakeReport(), 16400550 * 1.005), { thresholds: [parseThreshold(`${BC}=1`)] });
    expect(within.regressions).toBe(0);
  });

  it('thresholds: exact ids win over * patterns; bad ones are user errors', () => {
    const ts = [parseThreshold('l1tex__*=5'), parseThreshold(`${BC}=1%`)];
    expect(thresholdFor(BC, ts)?.pct).toBe(1);
    expect(thresholdFor('l1tex__t_sectors.sum', ts)?.pct).toBe(5);
    expect(thresholdFor('dram__bytes.sum', ts)).toBeUndefined();
    expect(() => parseThreshold('nopct')).toThrow(/metric=percent/);
    expect(() => parseThreshold('x=abc')).toThrow(/metric=percent/);
    expect(parseThreshold('x=-1')).toEqual({ metric: 'x', pct: 1, direction: 'down' });
    expect(parseThreshold('x=+5%')).toEqual({ metric: 'x', pct: 5, direction: 'up' });
    expect(parseThreshold('x=±5%')).toEqual({ metric: 'x', pct: 5, direction: 'both' });
    expect(parseThreshold('x=5')).toEqual({ metric: 'x', pct: 5 });
  });

  it('a metric one report lacks (profile --no-timing) is counted apart from changed values', () => {
    const next = withConflicts(fakeReport(), 16400550 * 2);
    delete next.kernels[0]?.metrics['gpu__time_duration.sum'];
    const c = compareReports(fakeReport(), next);
    expect(c.kernels[0]?.metrics.find((m) => m.metric === 'gpu__time_duration.sum')).toMatchObject({ new: null, pct: null });
    expect(renderComparison(c)).toContain('2 kernels compared, 1 metric value changed, 1 metric in only one report, 0 thresholds crossed');
  });

  it('from zero is an infinite change', () => {
    expect(percentChange(0, 5)).toBe(Number.POSITIVE_INFINITY);
    expect(percentChange(0, 0)).toBe(0);
    expect(percentChange(-10, -5)).toBe(50);
  });

  it('rules that appeared or vanished', () => {
    const next = fakeReport();
    next.kernels[0]?.rules.pop();
    next.kernels[1]?.rules.push({ id: 'SharedMemoryConflicts', section: 'MemoryWorkloadAnalysis_Tables', type: 'OPT', message: 'm', speedup: { type: 'global', value: 50 } });
    const c = compareReports(fakeReport(), next);
    expect(c.kernels[0]?.rulesVanished.map((r) => r.id)).toEqual(['CustomNote']);
    expect(c.kernels[1]?.rulesAppeared).toEqual([{ id: 'SharedMemoryConflicts', section: 'MemoryWorkloadAnalysis_Tables', type: 'OPT', speedup: 50 }]);
  });

  it('matches by name and instance; single-kernel reports pair up whatever their names', () => {
    const base = fakeReport();
    const next = fakeReport();
    next.kernels.reverse();
    expect(compareReports(base, next).unmatched).toBe(0);
    const one = (name: string): Report => ({ ...fakeReport(), kernels: [{ ...(fakeReport().kernels[1] as Report['kernels'][number]), name }] });
    const c = compareReports(one('padded'), one('unpadded'));
    expect(c.kernels).toHaveLength(1);
    expect(c.kernels[0]).toMatchObject({ name: 'padded', newName: 'unpadded', status: 'matched' });
    const extra = fakeReport();
    extra.kernels.push({ ...(extra.kernels[0] as Report['kernels'][number]), id: 2 });
    const d = compareReports(fakeReport(), extra);
    expect(d.unmatched).toBe(1);
    expect(d.kernels[2]).toMatchObject({ name: 'g_ld_u8_coalesced', instance: 1, status: 'new-only' });
  });

  it('names thresholds that match no metric', () => {
    expect(compareReports(fakeReport(), fakeReport(), { thresholds: [parseThreshold('no_such.sum=1')] }).unusedThresholds).toEqual(['no_such.sum']);
  });

  it('renders plain text without ANSI codes off a terminal', () => {
    const text = renderComparison(compareReports(fakeReport(), withConflicts(fakeReport(), 1), { thresholds: [parseThreshold(`${BC}=±1`)] }), { tty: false, changedOnly: true });
    expect(text).not.toMatch(/\u001b\[/);
    expect(text).toContain('FAIL (±1%)');
    expect(text).toContain('-100%');
    expect(text).toMatch(/1 threshold crossed/);
  });
});
