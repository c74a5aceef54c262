/**
 * PersistenceAdvice: Warpsight's own rule (ncu ships none for L2 persistence, nsight-compute.md §1.4):
 * advice on the L2 residency controls of a launch (set-aside, access-policy window, annotated_ptr
 * hints), from the launch's persisting size, the window, the eviction-policy counters and what the
 * emulated L2 saw (persisting lines left by earlier launches, reused lines evicted by unhinted data).
 * Messages, in order:
 *  - a window whose persisting share (num_bytes x hitRatio) exceeds the set-aside, with the hitRatio
 *    that would fit ([DOC] Programming Guide "L2 persistence example": hitRatio = set-aside / window);
 *  - persisting lines from earlier launches still holding the set-aside while this launch makes no
 *    persisting accesses (cudaCtxResetPersistingL2Cache / access_property::normal never called);
 *  - reused data evicted by accesses without a hint (mark the single-use stream streaming);
 *  - a set-aside with no persisting access at all: it only takes ways from normal data (H200
 *    ground truth surprise 8: the bare set-aside made the plain sweep ~2x slower and wrote 13 MB
 *    back per pass 2).
 */
import type { RuleResult } from '../../../types/report.schema.js';
import { f, link, num } from './common.js';
import type { RuleContext } from './types.js';

export const id = 'PersistenceAdvice';
export const section = 'MemoryWorkloadAnalysis';

const GUIDE = link('CUDA Programming Guide', 'https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#device-memory-l2-access-management');
const MB = 1e6;

function sumOf(ctx: RuleContext, ids: readonly string[]): number {
  let s = 0;
  for (const i of ids) s += num(ctx.metrics, i) ?? 0;
  return s;
}

export function persistenceAdvice(ctx: RuleContext): RuleResult[] | null {
  const m = ctx.metrics;
  const setAside = num(m, 'launch__persisting_l2_cache_size');
  if (setAside === undefined) return null;
  const winBytes = num(m, 'warpsight__l2_window_bytes') ?? 0;
  const hitRatio = num(m, 'warpsight__l2_window_hit_ratio') ?? 0;
  const winPersisting = (num(m, 'warpsight__l2_window_hit_persisting') ?? 0) > 0;
  const leftover = num(m, 'warpsight__l2_persisting_bytes_at_start') ?? 0;
  const reusedEvicted = num(m, 'warpsight__l2_reused_evicted_bytes') ?? 0;
  const l2 = num(m, 'warpsight__l2_size') ?? 0;
  const lastSectors = sumOf(ctx, ['lts__t_sectors_srcunit_tex_evict_last_lookup_hit.sum', 'lts__t_sectors_srcunit_tex_evict_last_lookup_miss.sum']);
  const firstSectors = sumOf(ctx, ['lts__t_sectors_srcunit_tex_evict_first_lookup_hit.sum', 'lts__t_sectors_srcunit_tex_evict_first_lookup_miss.sum']);
  const usesPersisting = lastSectors > 0 || (num(m, 'warpsight__l2_persisting_prefetch_bytes') ?? 0) > 0;
  const usesLeftover = (num(m, 'warpsight__l2_persisting_line_hits') ?? 0) > 0;
  const out: RuleResult[] = [];

  const persistingWindow = winBytes * Math.min(1, Math.max(0, hitRatio));
  if (winPersisting && setAside > 0 && persistingWindow > setAside * 1.001) {
    const fit = Math.max(0, Math.min(1, setAside / winBytes));
    out.push({
      id,
      section,
      type: 'OPT',
      message:
        `The access policy window marks ${f(persistingWindow / MB, 2)} MB as persisting (num_bytes ${f(winBytes / MB, 2)} MB x hitRatio ${f(hitRatio, 2)}) ` +
        `but the persisting L2 set-aside is ${f(setAside / MB, 2)} MB: persisting lines evict each other and part of the window misses anyway. ` +
        `Lower hitRatio to about ${f(fit, 2)} (set-aside / num_bytes) so that the persisting part fits, or raise cudaLimitPersistingL2CacheSize. See the ${GUIDE} on L2 access management.`,
    });
  }

  if (setAside > 0 && leftover > 0 && !usesPersisting && !winPersisting && !usesLeftover) {
    out.push({
      id,
      section,
      type: 'WRN',
      message:
        `${f(leftover / MB, 2)} MB of L2 are held by persisting lines left by earlier kernels, and this kernel makes no persisting access. ` +
        'Persisting lines are never reset by themselves: call cudaCtxResetPersistingL2Cache(), use an access policy window with hitProp cudaAccessPropertyNormal, ' +
        `or cuda::apply_access_property(ptr, size, cuda::access_property::normal{}) once the data is no longer reused. See the ${GUIDE}.`,
    });
  }

  if (l2 > 0 && reusedEvicted >= 0.1 * l2 && firstSectors === 0) {
    out.push({
      id,
      section,
      type: 'OPT',
      message:
        `${f(reusedEvicted / MB, 2)} MB of L2 lines that had been reused were evicted by accesses without a cache hint. ` +
        'If part of the data is read or written only once, mark it cuda::access_property::streaming (cuda::annotated_ptr, or missProp cudaAccessPropertyStreaming of an access policy window) ' +
        `and the reused data cuda::access_property::persisting, so that the stream is evicted first and the reused data stays in L2. See the ${GUIDE}.`,
    });
  }

  // the driver's default set-aside (3/16 of the H200's L2) is every process's: advise only on a larger one
  if (l2 > 0 && setAside > 0.25 * l2 && !usesPersisting && !winPersisting && !usesLeftover && leftover === 0) {
    out.push({
      id,
      section,
      type: 'WRN',
      message:
        `${f(setAside / MB, 2)} MB of L2 are set aside for persisting accesses, but this kernel makes none (no annotated_ptr persisting access, no access policy window). ` +
        'The set-aside then only constrains normal data (on the H200 a bare set-aside made a streaming kernel write dirty lines back early and run about 2x slower). ' +
        'Set cudaLimitPersistingL2CacheSize to 0 for this kernel, or give its reused data a persisting hint.',
    });
  }

  return out.length > 0 ? out : null;
}
