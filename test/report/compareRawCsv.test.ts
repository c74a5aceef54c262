/**
 * The raw CSV we write reads back through the reader `warpsight validate` uses on ncu's exports,
 * losing no metric: checked on the committed bench baseline (real emulator reports).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../types/report.schema.js';
import { roundAsNcuPrints, writeRawCsv } from '../../src/report/csv.js';
import { parseNcuRawCsv } from '../../src/report/ncuCsv.js';
import { unitOf } from '../../src/metrics/registry.js';

const baseline = JSON.parse(readFileSync('reports/baseline.json', 'utf8')) as Report;

describe('raw CSV round trip', () => {
  it('every metric of every kernel comes back, as ncu would print it, with its unit', () => {
    const launches = parseNcuRawCsv(writeRawCsv(baseline), 'baseline.csv');
    expect(launches).toHaveLength(baseline.kernels.length);
    baseline.kernels.forEach((k, i) => {
      const back = launches[i];
      expect(back?.kernelName).toBe(k.name);
      expect(back?.grid).toEqual(k.launch.grid);
      expect(back?.block).toEqual(k.launch.block);
      expect(Object.keys(back?.metrics ?? {}).sort()).toEqual(Object.keys(k.metrics).sort());
      for (const [id, v] of Object.entries(k.metrics)) {
        const got = back?.metrics[id];
        expect(got?.value, id).toEqual(typeof v === 'number' ? roundAsNcuPrints(v) : v);
        expect(got?.unit, id).toBe(unitOf(id));
      }
    });
  });
});
