/**
 * The key a kept fidelity report is reused under (test/setup/inputKey.ts) changes with every input of
 * a report and with nothing else.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { inputKey, runKey } from './inputKey.js';

function tree(): string {
  const root = mkdtempSync(join(tmpdir(), 'warpsight-key-'));
  for (const [f, text] of Object.entries({ 'src/a.ts': 'a', 'src/deep/b.ts': 'b', 'kernels/k.ts': 'k', 'test/fidelity/probes/kernels/p.ts': 'p', 'package.json': '{}', 'test/x.test.ts': 't' })) {
    mkdirSync(join(root, f, '..'), { recursive: true });
    writeFileSync(join(root, f), text);
  }
  return root;
}

describe('fidelity report input key', () => {
  afterEach(() => {
    delete process.env['WARPSIGHT_KEY_TEST'];
  });

  it('changes with a source, kernel or probe file, a new file, a manifest or a WARPSIGHT_ setting', () => {
    const root = tree();
    const k0 = inputKey(root);
    expect(inputKey(root)).toBe(k0);
    const keys = new Set([k0]);
    for (const [f, text] of [['src/deep/b.ts', 'b2'], ['kernels/k.ts', 'k2'], ['test/fidelity/probes/kernels/p.ts', 'p2'], ['src/new.ts', ''], ['package.json', '{ }']] as const) {
      writeFileSync(join(root, f), text);
      const k = inputKey(root);
      expect(keys.has(k), f).toBe(false);
      keys.add(k);
    }
    process.env['WARPSIGHT_KEY_TEST'] = '1';
    expect(keys.has(inputKey(root))).toBe(false);
  });

  it('does not change with a test file, and the same bytes under a moved name do change it', () => {
    const root = tree();
    const k0 = inputKey(root);
    writeFileSync(join(root, 'test/x.test.ts'), 'changed');
    writeFileSync(join(root, 'test/y.test.ts'), 'new');
    expect(inputKey(root)).toBe(k0);
    // 'a' + 'b' in two files is not 'ab' in one: names and contents are both hashed
    writeFileSync(join(root, 'src/a.ts'), 'ab');
    writeFileSync(join(root, 'src/deep/b.ts'), '');
    expect(inputKey(root)).not.toBe(k0);
  });

  it("a run's key depends on its arguments", () => {
    expect(runKey('k', ['a.ts', '-k', 'x'])).not.toBe(runKey('k', ['a.ts', '-k', 'y']));
    expect(runKey('k', ['a.ts'])).toBe(runKey('k', ['a.ts']));
    expect(runKey('k1', ['a.ts'])).not.toBe(runKey('k2', ['a.ts']));
  });
});
