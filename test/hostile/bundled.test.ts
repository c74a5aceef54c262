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
    // kernels/*.ts and the suites in subfolders (kernels/cuda_samples/), not the helpers in lib/ folders
    const files = readdirSync('kernels', { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !/(^|\/)lib(\/|\.ts$)/.test(f));
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
