/**
 * Seed 003's multi-GPU Jacobi (kernels/jacobi_nvshmem.ts) on PEs: every variant's field equals the
 * single-GPU reference on every PE, both PEs time the same iterations, and a run on several PE counts
 * gives the strong-scaling table.
 */
import { describe, expect, it } from 'vitest';
import { profileFile } from '../../src/profile.js';

const FILE = 'kernels/jacobi_nvshmem.ts';
const SMALL = { nx: '128', ny: '128', iterations: '6' };

describe('multi-GPU Jacobi', () => {
  it.each(['p', 'block', 'p_nbr', 'host', 'graph'])('jacobi_%s on 2 PEs equals the single-GPU reference on both PEs', async (variant) => {
    const r = await profileFile({ file: FILE, kernel: `jacobi_${variant}`, params: SMALL, timing: false });
    const programs = r.programs ?? [];
    expect(programs.map((p) => p.name)).toEqual([`jacobi_${variant} (PE 0 of 2)`, `jacobi_${variant} (PE 1 of 2)`]);
    for (const p of programs) expect(p.values.find((v) => v.name === 'max |difference| from the single-GPU reference')?.value).toBe(0);
    // one loop on two GPUs: the barrier ties them, both see the same time per iteration
    const t = programs.map((p) => p.values.find((v) => v.name === 'time per iteration')?.value ?? NaN);
    expect(Math.abs((t[0] as number) - (t[1] as number))).toBeLessThan(0.02 * (t[0] as number));
    // the halo traffic: float_p sends the edge rows element by element, put_nbi_block and the host's puts row by row
    const traffic = programs[0]?.traffic ?? [];
    if (variant === 'p' || variant === 'p_nbr' || variant === 'graph') expect(traffic.find((x) => x.kind === 'p')?.bytes).toBe(2 * 6 * 126 * 4);
  });

  it('--pes 1,2: a strong-scaling table of what the program reported, by PE count', async () => {
    const r = await profileFile({ file: FILE, kernel: 'jacobi_p', params: SMALL, pes: [1, 2], timing: false });
    expect((r.programs ?? []).map((p) => p.name)).toEqual(['jacobi_p (PE 0 of 1)', 'jacobi_p (PE 0 of 2)', 'jacobi_p (PE 1 of 2)']);
    const sc = r.scaling ?? [];
    expect(sc.map((s) => s.value)).toEqual(['time per iteration']);
    const [one, two] = sc[0]?.points ?? [];
    const t = (name: string): number => Math.max(...(r.programs ?? []).filter((p) => p.name.endsWith(name)).map((p) => p.values[0]?.value ?? NaN));
    expect(one).toEqual({ pes: 1, value: t('of 1)'), speedup: 1, efficiency: 1 });
    expect(two?.value).toBe(t('of 2)'));
    expect(two?.speedup).toBeCloseTo((one?.value as number) / (two?.value as number), 12);
    expect(two?.efficiency).toBeCloseTo((two?.speedup as number) / 2, 12);
  });
});
