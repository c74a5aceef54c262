/**
 * The checker's suite: small kernels with and without planted races (test/check/kernels). A kernel
 * file marks the lines of what it plants: `// @first <kind>` on the earlier access of a pair,
 * `// @second <kind>` on the access that finds it (single-access findings have only @second). The
 * checker must report exactly those (kind, first line, second line) and nothing else; a file without
 * markers is race-free and must be clean.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkFile } from '../../src/check/run.js';

const DIR = join(import.meta.dirname, 'kernels');

/** the (kind first second) triples a file's markers expect */
function expected(file: string): string[] {
  const firsts = new Map<string, number[]>();
  const seconds = new Map<string, number[]>();
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((text, i) => {
      for (const m of text.matchAll(/@(first|second) ([a-z-]+)/g)) {
        const to = m[1] === 'first' ? firsts : seconds;
        to.set(m[2] as string, [...(to.get(m[2] as string) ?? []), i + 1]);
      }
    });
  const out: string[] = [];
  for (const [kind, lines] of seconds) {
    const fs = firsts.get(kind) ?? [];
    lines.forEach((l, n) => out.push(`${kind} ${fs.length ? fs[Math.min(n, fs.length - 1)] : '-'} ${l}`));
  }
  return out.sort();
}

const files = readdirSync(DIR).filter((f) => f.endsWith('.ts')).sort();

describe('warpsight check: the planted-race suite', () => {
  it('has at least 20 kernels, planted and race-free', () => {
    expect(files.length).toBeGreaterThanOrEqual(20);
    const planted = files.filter((f) => expected(join(DIR, f)).length > 0);
    expect(planted.length).toBeGreaterThanOrEqual(10);
    expect(files.length - planted.length).toBeGreaterThanOrEqual(8);
  });
  for (const f of files) {
    it(f, async () => {
      const file = join(DIR, f);
      const r = await checkFile({ file });
      const got = r.findings.map((x) => `${x.kind} ${x.first ? x.first.line : '-'} ${x.second.line}`).sort();
      expect(got, JSON.stringify(r.findings.map((x) => x.message), null, 1)).toEqual(expected(file));
      for (const x of r.findings) expect(x.second.file.endsWith(f)).toBe(true);
    });
  }
});
