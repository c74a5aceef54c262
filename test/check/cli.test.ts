/**
 * `warpsight check` end to end: the console page and its exit status (1 with findings, 0 without, as
 * compute-sanitizer --error-exitcode 1), --json against schemas/check.schema.json, byte-identical
 * output on a second run, --tool filtering, and bad input as one error line.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { CLI_ENTRY } from '../setup/cli.js';

const ROOT = join(import.meta.dirname, '..', '..');
const K = 'test/check/kernels';
const run = (...args: string[]) => spawnSync(process.execPath, [...CLI_ENTRY, 'check', ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CI: '' } });

describe('warpsight check (command)', () => {
  it('prints each finding with both lines, threads, address, allocation and fix; exits 1', () => {
    const r = run(`${K}/polled_plain_flag.ts`);
    expect(r.status).toBe(1);
    const lines = readFileSync(join(ROOT, K, 'polled_plain_flag.ts'), 'utf8').split('\n');
    const at = (s: string): number => lines.findIndex((l) => l.includes(s)) + 1;
    expect(r.stdout).toContain('Error [synccheck]: polled plain flag at global 0x');
    expect(r.stdout).toContain('(flag+0)');
    expect(r.stdout).toContain(`first:  write STG.E at ${K}/polled_plain_flag.ts:${at('flag.at(0).store(1)')} by thread (0,0,0) in block (0,0,0)`);
    expect(r.stdout).toContain(`second: read LDG.E at ${K}/polled_plain_flag.ts:${at('k.while(')} by thread (0,0,0) in block (1,0,0)`);
    expect(r.stdout).toContain('Error [racecheck]: RAW data race at global 0x');
    expect(r.stdout).toMatch(/fix: make the flag an atomic/);
    expect(r.stdout.trim().split('\n').at(-1)).toBe('========= ERROR SUMMARY: 2 errors (1 racecheck, 1 synccheck) in 1 launch');
  });

  it('exits 0 with no finding on a race-free kernel', () => {
    const r = run(`${K}/tree_reduction.ts`);
    expect(r.status).toBe(0);
    expect(r.stdout.trim().split('\n').at(-1)).toBe('========= ERROR SUMMARY: 0 errors in 1 launch');
  });

  it('--json validates against the schema, and is the same byte for byte on a second run', () => {
    const a = run(`${K}/cta_scope_handoff_across_blocks.ts`, '--json');
    const b = run(`${K}/cta_scope_handoff_across_blocks.ts`, '--json');
    expect(a.status).toBe(1);
    expect(a.stdout).toBe(b.stdout);
    const report = JSON.parse(a.stdout) as { findings: { kind: string; first: { scope?: string }; allocation: { name: string } }[] };
    const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
    const validate = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'schemas/check.schema.json'), 'utf8')) as object);
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    const scope = report.findings.find((f) => f.kind === 'scope-race');
    expect(scope?.first.scope).toBe('cta');
    expect(scope?.allocation.name).toBe('flag');
  });

  it('--tool keeps only that tool\'s findings', () => {
    const r = run(`${K}/polled_plain_flag.ts`, '--tool', 'racecheck', '--json');
    const report = JSON.parse(r.stdout) as { findings: { tool: string }[]; tools: string[] };
    expect(report.tools).toEqual(['racecheck']);
    expect(report.findings.map((f) => f.tool)).toEqual(['racecheck']);
  });

  it('bad input: one error line and exit 2', () => {
    const r = run(`${K}/no_such_file.ts`);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^error: /);
    const t = run(`${K}/tree_reduction.ts`, '--tool', 'bogus');
    expect(t.status).toBe(2);
  });
});
