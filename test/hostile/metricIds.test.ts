/**
 * Metric ids are checked against what Warpsight knows (src/metrics/known.ts): the catalogue must hold
 * every id a profile emits — with and without the timing model, for kernels and programs — so that a
 * known id is never refused, and an unknown one gets the nearest known ids suggested.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../types/report.schema.js';
import { UserError } from '../../src/errors.js';
import { checkMetricId, editDistance, knownMetricIds, nearest } from '../../src/metrics/known.js';
import { METRICS } from '../../src/metrics/registry.js';
import { kernelFile, runCli, scratch, tinyKernel } from './harness.js';

const dir = scratch('ids');

function thrown(f: () => void): string {
  try {
    f();
  } catch (e) {
    if (e instanceof UserError) return `${e.exitCode} ${e.message}`;
    throw e;
  }
  return 'no error';
}

describe('the metric catalogue', () => {
  it('knows every registry id and every id of the committed baseline', () => {
    const known = knownMetricIds();
    for (const m of METRICS) expect(known.has(m.id), m.id).toBe(true);
    const baseline = JSON.parse(readFileSync('reports/baseline.json', 'utf8')) as Report;
    const missing = baseline.kernels.flatMap((k) => Object.keys(k.metrics)).filter((id) => !known.has(id));
    expect([...new Set(missing)]).toEqual([]);
  });

  it('knows every id a profile emits, with and without the timing model (add new ids to src/metrics/known.ts)', async () => {
    const file = kernelFile(dir, tinyKernel());
    for (const timing of [[], ['--no-timing']]) {
      const r = await runCli(['profile', file, ...timing, '--json']);
      expect(r.code, r.stderr).toBe(0);
      const report = JSON.parse(r.stdout) as Report;
      const missing = report.kernels.flatMap((k) => Object.keys(k.metrics)).filter((id) => !knownMetricIds().has(id));
      expect(missing).toEqual([]);
    }
  });
});

describe('unknown ids and their suggestions', () => {
  it('edit distance', () => {
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('smsp__inst_exectued.sum', 'smsp__inst_executed.sum')).toBe(2);
  });
  it('suggests the nearest ids first', () => {
    expect(nearest('dram__bytes_raed.sum', knownMetricIds(), 1)).toEqual(['dram__bytes_read.sum']);
    expect(nearest('lts__t_sector_hit_rat.pct', knownMetricIds(), 1)).toEqual(['lts__t_sector_hit_rate.pct']);
  });
  const cases: [string, string, RegExp][] = [
    ['a transposed pair', 'smsp__inst_exectued.sum', /^2 x: unknown metric 'smsp__inst_exectued\.sum'; did you mean 'smsp__inst_executed\.sum'/],
    ['a missing rollup', 'dram__bytes_read', /did you mean 'dram__bytes_read\.sum'/],
    ['a wrong rollup', 'launch__grid_size.avg', /unknown metric 'launch__grid_size\.avg'; did you mean 'launch__grid_size'/],
    ['upper case', 'SMSP__INST_EXECUTED.SUM', /unknown metric 'SMSP__INST_EXECUTED\.SUM'/],
    ['an empty id', '', /unknown metric ''/],
    ['a pattern matching nothing', 'l1tex__t_sectorz*', /^2 x: the pattern 'l1tex__t_sectorz\*' matches no metric Warpsight knows; did you mean 'l1tex__t_sector/],
    ['a pattern of nothing but a typo', 'zzz*', /the pattern 'zzz\*' matches no metric/],
  ];
  for (const [title, id, message] of cases) it(title, () => expect(thrown(() => checkMetricId(id, 'x'))).toMatch(message));
  it('a known id and a matching pattern pass', () => {
    expect(thrown(() => checkMetricId('smsp__inst_executed.sum', 'x'))).toBe('no error');
    expect(thrown(() => checkMetricId('l1tex__t_sectors_pipe_lsu_mem_global*', 'x'))).toBe('no error');
    expect(thrown(() => checkMetricId('my__custom.sum', 'x', ['my__custom.sum']))).toBe('no error');
  });
  it('with patterns off, * is literal', () => {
    expect(thrown(() => checkMetricId('smsp__inst_executed*', 'x', [], false))).toMatch(/unknown metric 'smsp__inst_executed\*'/);
  });
});
