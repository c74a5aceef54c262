/**
 * The report validator compiled at build time (scripts/gen-validator.mjs, ajv standalone) judges as
 * the schema compiled at run time does: the same verdicts and the same error paths and messages, on
 * a real report (reports/baseline.json) and on broken copies of it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { describe, expect, it } from 'vitest';
import { checkReport } from '../../src/report/schema.js';
import type { Report } from '../../types/report.schema.js';

const ROOT = join(import.meta.dirname, '..', '..');
const schemaText = readFileSync(join(ROOT, 'schemas', 'report.schema.json'), 'utf8');

function generated(): ValidateFunction & { schemaSha256: string } {
  const out = join(mkdtempSync(join(tmpdir(), 'warpsight-validator-')), 'report.validate.cjs');
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'gen-validator.mjs'), out], { cwd: ROOT });
  const mod = createRequire(import.meta.url)(out) as { default: ValidateFunction; schemaSha256: string };
  return Object.assign(mod.default, { schemaSha256: mod.schemaSha256 });
}

const real = JSON.parse(readFileSync(join(ROOT, 'reports', 'baseline.json'), 'utf8')) as Report;
/** a copy of the real report, its fields open to values the schema forbids */
const clone = (): Record<string, unknown> => structuredClone(real) as unknown as Record<string, unknown>;
const first = (r: Record<string, unknown>): Record<string, unknown> => (r as unknown as Report).kernels[0] as unknown as Record<string, unknown>;
const metrics = (r: Record<string, unknown>): Record<string, unknown> => first(r)['metrics'] as Record<string, unknown>;

const BROKEN: Array<[string, () => unknown]> = [
  ['an array', () => []],
  ['no kernels', () => { const r = clone(); delete r['kernels']; return r; }],
  ['a metric that is an object', () => { const r = clone(); metrics(r)['smsp__inst_executed.sum'] = { v: 1 }; return r; }],
  ['a bad version', () => { const r = clone(); r['version'] = 'x'; return r; }],
  ['an unknown property', () => { const r = clone(); first(r)['bogus'] = 1; return r; }],
  ['three problems at once', () => { const r = clone(); r['version'] = 2; r['tool'] = 5; first(r)['launch'] = { grid: 'big' }; return r; }],
];

describe('build-time report validator', () => {
  const pre = generated();
  const runtime = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(JSON.parse(schemaText) as object);

  it('records the sha-256 of the schema it was made from', () => {
    expect(pre.schemaSha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('accepts the real report the runtime-compiled schema accepts', () => {
    expect(runtime(real)).toBe(true);
    expect(pre(real)).toBe(true);
  });

  for (const [title, make] of BROKEN)
    it(`rejects ${title} with the runtime-compiled schema's errors`, () => {
      const v = make();
      expect(runtime(v)).toBe(false);
      expect(pre(v)).toBe(false);
      expect(pre.errors).toEqual(runtime.errors);
    });

  it("checkReport's message names the JSON path either way", () => {
    const r = clone();
    metrics(r)['smsp__inst_executed.sum'] = { v: 1 };
    expect(() => checkReport(r, 'x.json')).toThrow(/^x\.json is not a Warpsight report: \/kernels\/0\/metrics\/smsp__inst_executed\.sum must be/);
  });
});
