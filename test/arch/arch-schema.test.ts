/**
 * Every arch data file validates against schemas/arch.schema.json, names a source for every number,
 * and keeps the schema in step with the `Arch` interface (a field added to one must be added to the
 * other). Plus the registry: ids, lookup and its error.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ARCH, getArch, getArchSources, listArchs, listArchSpecs } from '../../src/arch/index.js';
import { archFieldPaths, type ArchSpec } from '../../src/arch/sources.js';
import { UserError } from '../../src/errors.js';

const SCHEMA_FILE = resolve(dirname(fileURLToPath(import.meta.url)), '../../schemas/arch.schema.json');

interface JsonSchema {
  required?: string[];
  properties?: Record<string, JsonSchema>;
  definitions?: Record<string, JsonSchema>;
  type?: string | string[];
}

const schema = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as JsonSchema;
const ajv = new Ajv({ allErrors: true, strict: true });
const validate = ajv.compile(schema) as ValidateFunction<ArchSpec>;

/** the leaf paths the schema's Arch definition describes */
function schemaPaths(s: JsonSchema, prefix = ''): string[] {
  return Object.entries(s.properties ?? {}).flatMap(([k, v]) => (v.type === 'object' ? schemaPaths(v, `${prefix}${k}.`) : [`${prefix}${k}`]));
}

describe('arch data', () => {
  for (const spec of listArchSpecs())
    describe(spec.arch.id, () => {
      it('validates against schemas/arch.schema.json', () => {
        const ok = validate(spec);
        expect(ok, ajv.errorsText(validate.errors, { separator: '\n' })).toBe(true);
      });

      it('names a source for every field it has', () => {
        const missing = archFieldPaths(spec.arch).filter((p) => !(p in spec.sources));
        expect(missing).toEqual([]);
        const tagged = /^\[(OBS|DOC|SRC|MEAS|NV|INFER|NV\/MEAS)\]|^Warpsight arch id$|^absent: /;
        const untagged = Object.entries(spec.sources).filter(([, s]) => !tagged.test(s)).map(([k]) => k);
        expect(untagged).toEqual([]);
      });

      it('is self-consistent', () => {
        const a = spec.arch;
        expect([...a.sharedMemCarveouts].sort((x, y) => x - y)).toEqual(a.sharedMemCarveouts);
        expect(a.sharedMemCarveouts.at(-1)).toBe(a.sharedMemPerSmMax);
        expect(a.maxWarpsPerSm).toBe(a.maxThreadsPerSm / a.warpSize);
        // from Volta on a block may opt in to all of the SM's shared memory; before, 48 KB is the most (cuda_occupancy.h cudaOccSMemPerBlock)
        if (a.cc[0] >= 7) expect(a.sharedMemPerBlockOptin).toBe(a.sharedMemPerSmMax - a.sharedMemReservedPerBlock);
        else expect(a.sharedMemPerBlockOptin).toBe(a.sharedMemPerBlockDefault);
        expect(a.sharedMemPerSmMax).toBeLessThanOrEqual(a.l1SharedSizePerSm);
        expect(a.persistingL2CacheDefaultLimit).toBeLessThanOrEqual(a.persistingL2CacheMaxSize);
        expect(a.registerAllocationUnit % a.warpSize).toBe(0);
        // the L2 partition map has one entry per SM, and the dispatch order names every SM once
        const sms = Array.from({ length: a.smCount }, (_, i) => i);
        expect(a.smL2Partition).toHaveLength(a.smCount);
        expect([...a.smDispatchOrder].sort((x, y) => x - y)).toEqual(sms);
      });
    });

  it('has a schema in step with the Arch fields the data files use', () => {
    const arch = schema.definitions?.['Arch'];
    if (!arch) throw new Error('schema has no Arch definition');
    const described = schemaPaths(arch).sort();
    const used = [...new Set(listArchs().flatMap((a) => archFieldPaths(a)))].sort();
    // top-level fields exactly; latency and throughput may grow timing-model entries the schema lets through
    const top = (paths: string[]): string[] => [...new Set(paths.map((p) => p.split('.')[0] ?? p))].sort();
    expect(top(described)).toEqual(top(used));
    expect(described.filter((p) => !used.includes(p))).toEqual([]);
    expect([...(schema.definitions?.['ArchSources']?.required ?? [])].sort()).toEqual(described);
  });

  it('carries the H200 values the ground truth measured', () => {
    const h200 = getArch('h200');
    expect(h200.dramFillGranularity).toBe(64);
    expect(h200.persistingL2CacheDefaultLimit).toBe(11_796_480);
    expect(h200.persistingL2CacheMaxSize).toBe(39_321_600);
    expect(h200.l2Size).toBe(62_914_560);
    expect(h200.sharedMemPerBlockOptin).toBe(232_448);
    expect(h200.minRegistersPerThread).toBe(16);
    expect(h200.latency).toMatchObject({ l1Hit: 32, l2Hit: 280 });
  });
});

describe('arch registry', () => {
  it('lists a100, h100, h200, the H200 MIG instances and p100, defaulting to h200', () => {
    expect(listArchs().map((a) => a.id)).toEqual(['a100', 'h100', 'h200', 'h200-mig-1g', 'h200-mig-2g', 'h200-mig-3g', 'h200-mig-4g', 'h200-mig-7g', 'p100']);
    expect(DEFAULT_ARCH).toBe('h200');
    expect(getArch(DEFAULT_ARCH).name).toBe('NVIDIA H200');
  });

  it('looks ids up case-insensitively', () => {
    expect(getArch('H100').id).toBe('h100');
    expect(getArchSources('a100').l2Size).toMatch(/41,943,040/);
  });

  it('rejects an unknown id with a UserError listing the valid ones', () => {
    expect(() => getArch('h300')).toThrow(UserError);
    expect(() => getArch('h300')).toThrow("unknown --arch 'h300': expected one of a100, h100, h200, h200-mig-1g, h200-mig-2g, h200-mig-3g, h200-mig-4g, h200-mig-7g, p100");
  });
});
