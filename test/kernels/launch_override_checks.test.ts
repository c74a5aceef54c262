/**
 * A kernel's check is told the launch that ran: the global-memory kernels check the threads a smaller
 * --grid ran (micro.cu's samples below that count), and a check that fails on a changed launch says
 * the launch was changed, since most bundled checks read outputs of their kernel's own grid.
 */
import { describe, expect, it } from 'vitest';
import { profileFile } from '../../src/profile.js';

describe('result checks under --grid', () => {
  it('g_ld_* and g_st_* check what a two-block launch wrote', async () => {
    for (const [file, kernel] of [
      ['kernels/global_loads.ts', 'regex:^g_ld_u(8|128)_'],
      ['kernels/global_stores.ts', 'regex:^g_st_u32_'],
    ] as const) {
      const r = await profileFile({ file, kernel, grid: [2, 1, 1], timing: false });
      expect(r.kernels.length).toBeGreaterThanOrEqual(4);
      expect(r.kernels.map((k) => `${k.name}: ${k.check?.passed ? 'ok' : (k.check?.message ?? 'no check')}`)).toEqual(r.kernels.map((k) => `${k.name}: ok`));
    }
  }, 60_000);

  it("a check that reads outside the changed launch says the launch was changed", async () => {
    const [k] = (await profileFile({ file: 'kernels/fma_chain.ts', grid: [2, 1, 1], timing: false })).kernels;
    expect(k?.check?.passed).toBe(false);
    expect(k?.check?.message).toMatch(/^out\[\d+\] = 0, expected .* \(--grid\/--block changed the launch: the check may read outputs only the kernel's own launch writes\)$/);
    const [own] = (await profileFile({ file: 'kernels/fma_chain.ts', timing: false })).kernels;
    expect(own?.check).toEqual({ passed: true });
  }, 60_000);
});
