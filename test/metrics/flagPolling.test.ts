/**
 * The three flag-polling rules (FlagPolling: system scope, seq_cst, no back-off) end to end on the
 * seed's handoff versions (kernels/flag_handoff.ts): each fires on the versions that have its
 * problem and on no other, and the wait()/notify_all() version has none. The estimates follow from
 * the arch's fence costs (a system fence 1159 cycles with its CCTL.IVALL, a device one 555).
 */
import { describe, expect, it } from 'vitest';
import { profileFile } from '../../src/profile.js';
import type { KernelResult, RuleResult } from '../../types/report.schema.js';
import { getArch } from '../../src/arch/index.js';

const KERNELS = ['sync_flag_sys_seqcst', 'sync_flag_dev_seqcst', 'sync_flag_dev_acqrel', 'sync_flag_wait_notify'];

describe('FlagPolling on the seed handoff versions', async () => {
  const report = await profileFile({ file: 'kernels/flag_handoff.ts', kernel: KERNELS });
  const k = new Map((report.kernels as KernelResult[]).map((x) => [x.name, x]));
  const titles = (name: string): string[] => (k.get(name)?.rules ?? []).filter((r) => r.id === 'FlagPolling').map((r) => r.title ?? '');
  const find = (name: string, title: string): RuleResult | undefined => k.get(name)?.rules.find((r) => r.id === 'FlagPolling' && r.title === title);
  const SYS = 'System scope where device scope suffices';
  const SC = 'seq_cst where acquire/release suffices';
  const SPIN = 'Spinning without back-off';

  it('every version but wait/notify spins: the memory model counted polls that found the flag unchanged', () => {
    for (const name of KERNELS) expect(Number(k.get(name)?.metrics['warpsight__spin_polls'] ?? 0), name).toBeGreaterThan(100);
  });
  it('system seq_cst: all three problems', () => {
    expect(titles('sync_flag_sys_seqcst')).toEqual([SYS, SC, SPIN]);
  });
  it('device seq_cst: seq_cst and no back-off, not the scope', () => {
    expect(titles('sync_flag_dev_seqcst')).toEqual([SC, SPIN]);
  });
  it('device acquire/release: only the missing back-off', () => {
    expect(titles('sync_flag_dev_acqrel')).toEqual([SPIN]);
  });
  it('wait()/notify_all(): none (libcu++ backs off; its polls are short here)', () => {
    expect(titles('sync_flag_wait_notify')).toEqual([]);
  });

  it('estimates each from the fence costs: a device fence saves 1 - 555/1159 of a system one, an acquire poll the whole fence', () => {
    const mm = getArch('h200').memoryModel!;
    const sys = find('sync_flag_sys_seqcst', SYS);
    expect(sys?.speedup).toEqual({ type: 'local', value: 100 * (1 - (mm.membarGpu + mm.ivallAfterMembar) / (mm.membarSys + mm.ivallAfterMembar)) });
    const sc = find('sync_flag_dev_seqcst', SC);
    const fence = mm.membarGpu + mm.ivallAfterMembar;
    expect(sc?.speedup?.value).toBeCloseTo((100 * fence) / (fence + getArch('h200').latency.l2Hit + mm.ivall), 9);
    const spin = find('sync_flag_dev_acqrel', SPIN);
    expect(spin?.speedup?.value).toBeGreaterThan(0);
    expect(spin?.message).toContain('flag.wait(old, cuda::std::memory_order_acquire)');
  });

  it("does not fire on seed 000's x/a/b example, whose waits are brief (one empty poll), though its b is system-scope seq_cst", async () => {
    const r = await profileFile({ file: 'kernels/fence_cumulativity.ts' });
    const x = r.kernels[0] as KernelResult;
    expect(x.check).toEqual({ passed: true });
    expect(Number(x.metrics['warpsight__spin_polls'])).toBeLessThan(32);
    expect(x.rules.filter((q) => q.id === 'FlagPolling')).toEqual([]);
    // block 1's `b = 1` is a system-scope seq_cst store: a MEMBAR.SC.SYS the warp waits out
    expect(Number(x.metrics['smsp__warps_issue_stalled_membar.sum'])).toBeGreaterThan(getArch('h200').memoryModel!.membarSys);
  });

  it('the measured H200 gap agrees in direction: system seq_cst 646.6 us vs device acquire/release 414.3 us', () => {
    const d = (n: string) => Number(k.get(n)?.metrics['gpu__time_duration.sum']);
    expect(d('sync_flag_sys_seqcst')).toBeGreaterThan(d('sync_flag_dev_seqcst'));
    expect(d('sync_flag_dev_seqcst')).toBeGreaterThan(d('sync_flag_dev_acqrel'));
  });
});
