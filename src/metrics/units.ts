/**
 * Units in the JSON report: the ncu base unit of every metric id its kernels carry, the same units
 * the raw CSV's second row prints (registry.ts unitOf), so a script reading the JSON need not know
 * ncu's units.
 */
import type { Report } from '../../types/report.schema.js';
import { unitOf } from './registry.js';

export function withUnits(report: Report): Report {
  const ids = [...new Set(report.kernels.flatMap((k) => Object.keys(k.metrics)))].sort();
  return { ...report, units: Object.fromEntries(ids.map((id) => [id, unitOf(id)])) };
}
