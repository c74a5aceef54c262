import { describe, expect, it } from 'vitest';
import { persistenceAdvice } from '../../src/metrics/rules/persistenceAdvice.js';
import type { RuleContext } from '../../src/metrics/rules/types.js';

const L2 = 62914560;
function ctx(metrics: Record<string, number>): RuleContext {
  return { metrics: { 'warpsight__l2_size': L2, ...metrics }, instructions: [], launch: {} as RuleContext['launch'], device: {} as RuleContext['device'] };
}
const ids = (m: Record<string, number>) => (persistenceAdvice(ctx(m)) ?? []).map((r) => r.message);

describe('PersistenceAdvice', () => {
  it('is silent without a set-aside and without evictions of reused data', () => {
    expect(persistenceAdvice(ctx({ launch__persisting_l2_cache_size: 0 }))).toBeNull();
  });
  it('a window larger than the set-aside: lower hitRatio to set-aside / window', () => {
    const r = persistenceAdvice(ctx({ launch__persisting_l2_cache_size: 16e6, warpsight__l2_window_bytes: 32e6, warpsight__l2_window_hit_ratio: 1, warpsight__l2_window_hit_persisting: 1 }))!;
    expect(r[0]!.message).toContain('Lower hitRatio to about 0.50');
  });
  it('persisting lines left by earlier kernels and not used', () => {
    expect(ids({ launch__persisting_l2_cache_size: 39321600, warpsight__l2_persisting_bytes_at_start: 30e6 })[0]).toMatch(/held by persisting/);
    expect(persistenceAdvice(ctx({ launch__persisting_l2_cache_size: 39321600, warpsight__l2_persisting_bytes_at_start: 30e6, warpsight__l2_persisting_line_hits: 5 }))).toBeNull();
  });
  it('reused data evicted by unhinted accesses', () => {
    expect(ids({ launch__persisting_l2_cache_size: 0, warpsight__l2_reused_evicted_bytes: 20e6 })[0]).toMatch(/reused were evicted/);
  });
  it('a large set-aside with no persisting access only costs; the default 3/16 is not flagged', () => {
    expect(ids({ launch__persisting_l2_cache_size: 39321600 })[0]).toMatch(/set aside for/);
    expect(persistenceAdvice(ctx({ launch__persisting_l2_cache_size: 11796480 }))).toBeNull();
    expect(persistenceAdvice(ctx({ launch__persisting_l2_cache_size: 39321600, 'lts__t_sectors_srcunit_tex_evict_last_lookup_hit.sum': 10 }))).toBeNull();
  });
});
