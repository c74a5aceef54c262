/**
 * Cooperative groups' grid.sync() (issue 39, KernelBuilder.gridSync): valid in a cooperative launch
 * only, the SASS cooperative_groups compiles it to, and a bundled two-phase reduction whose result is
 * exact.
 */
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { loadDefinitions } from '../../src/kernel/load.js';
import { profileDefinitions } from '../../src/profile.js';

const FILE = 'kernels/grid_sync.ts';

describe('grid.sync()', () => {
  it('the bundled two-phase reduction sums every block\'s neighbour slice exactly', async () => {
    const defs = await loadDefinitions(FILE);
    const r = profileDefinitions(defs, { file: FILE, params: { blocks: '132', threads: '128' }, maxWarpInstructions: 1_000_000 });
    const values = Object.fromEntries((r.programs?.[0]?.values ?? []).map((v) => [v.name, v.value]));
    // sum of i % 97 over 132 * 128 elements, computed on the host
    expect(values['sum']).toBe(values['expected sum']);
    expect(values['sum']).toBe(810297);
    const k = r.kernels[0];
    const byOpcode = new Map<string, number>();
    for (const i of k?.instructions ?? []) byOpcode.set(i.opcode, (byOpcode.get(i.opcode) ?? 0) + Number(i.metrics['inst_executed']));
    const warps = 132 * 4;
    // two syncs: each a block barrier before and after (every warp), one release atomic per block on
    // the grid workspace (thread 0), and at least one acquire poll per block
    expect(byOpcode.get('BAR.SYNC')).toBe(2 * 2 * warps);
    expect(byOpcode.get('ATOMG.E.ADD.STRONG.GPU')).toBe(2 * 132);
    expect(byOpcode.get('LD.E.STRONG.GPU')).toBeGreaterThanOrEqual(2 * 132);
    expect(byOpcode.get('CCTL.IVALL')).toBe(byOpcode.get('LD.E.STRONG.GPU'));
    // the release before the atomic (atom.add.release.gpu)
    expect(byOpcode.get('MEMBAR.ALL.GPU')).toBe(2 * 132);
  });

  it('outside a cooperative launch: a located one-line error', async () => {
    const defs = await loadDefinitions(FILE);
    let err: unknown;
    try {
      profileDefinitions(defs, { file: FILE, params: { blocks: '132', threads: '128', cooperative: '0' } });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toMatch(/grid_sync\.ts:36: kernel 'grid_sum' calls grid\.sync\(\) \(k\.gridSync\(\)\) but is not launched cooperatively/);
  });
});
