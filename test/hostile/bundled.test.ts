/**
 * The checks at the boundary must not refuse what the project itself ships: every bundled kernel and
 * program definition passes the shape checks (and its defaults the type-range checks).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkKernelDefinition, checkProgramDefinition } from '../../src/kernel/guard.js';
import { loadDefinitions } from '../../src/kernel/load.js';

describe('bundled kernels', () => {
  it('every definition in kernels/ passes the definition checks', async () => {
    const files = readdirSync('kernels').filter((f) => f.endsWith('.ts'));
    let n = 0;
    for (const f of files) {
      const file = join('kernels', f);
      for (const d of await loadDefinitions(file)) {
        if (d.kind === 'kernel') checkKernelDefinition(d, file);
        else checkProgramDefinition(d, file);
        n++;
      }
    }
    expect(n).toBeGreaterThan(50);
  });
});
