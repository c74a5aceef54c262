/**
 * cuda::access_property / access-policy window -> the L2 eviction hint of one access.
 *
 * Mapping (hardware-rules.md §5.2, CCCL access_property_encoding.h):
 *   persisting -> L2::evict_last, streaming -> L2::evict_first, normal -> evict_normal (demote),
 *   global (no hint) and shared -> evict_unchanged (the default evict_normal policy for misses).
 * Interleaved: fraction quantised to 1/16 (createpolicy.fractional), decided per 128-B line by a hash
 * (the hardware's choice is "random", [PG]#l2-policy-for-persisting-accesses; a stable per-address
 * hash keeps repeated accesses consistent, §5.1 [INFER]).
 * Range: primary on [base, base+primaryBytes), secondary on the rest of totalBytes and on the
 * preceding range of the same length (PTX createpolicy.range); elsewhere unchanged.
 */
import type { AccessProperty } from '../ir/types.js';

/** no hint: misses insert as normal, hits leave the line's class alone (evict_unchanged) */
export const HINT_UNCHANGED = 0;
/** streaming: L2::evict_first */
export const HINT_FIRST = 1;
/** persisting: L2::evict_last (confined to the set-aside; behaves as normal when the set-aside is 0) */
export const HINT_LAST = 2;
/** access_property::normal: evict_normal with demotion of persisting lines */
export const HINT_DEMOTE = 3;
export type L2Hint = 0 | 1 | 2 | 3;

/** cuda::access_property carried by an annotated_ptr (static per instruction, defined with the IR); 'global' = no hint */
export type { AccessProperty };

export interface AccessPolicyWindow {
  base: number;
  bytes: number;
  hitRatio: number;
  hitProp: 'normal' | 'streaming' | 'persisting';
  missProp: 'normal' | 'streaming';
}

export function hintOf(kind: 'global' | 'normal' | 'streaming' | 'persisting' | 'shared'): L2Hint {
  switch (kind) {
    case 'streaming':
      return HINT_FIRST;
    case 'persisting':
      return HINT_LAST;
    case 'normal':
      return HINT_DEMOTE;
    default:
      return HINT_UNCHANGED;
  }
}

/** 32-bit integer hash of a non-negative integer below 2^53 (splitmix-style, deterministic) */
export function hash32(x: number): number {
  let h = (x % 4294967296) ^ Math.floor(x / 4294967296);
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

/** createpolicy.fractional stores floor((fraction - eps) * 16): primary for (num+1)/16 of the lines */
export function interleaveSixteenths(fraction: number): number {
  if (!(fraction > 0)) return 0;
  if (fraction >= 1) return 16;
  return Math.floor((fraction - 1e-7) * 16) + 1;
}

/**
 * The hint of an access to the 128-B line `line` (byte address / 128) under `p`; `p` is assumed
 * not 'global' (the caller handles the window for unannotated accesses).
 */
export function resolveHint(p: AccessProperty, line: number, lineSize: number): L2Hint {
  switch (p.kind) {
    case 'interleaved': {
      const primary = (hash32(line) & 15) < interleaveSixteenths(p.fraction);
      return hintOf(primary ? p.primary : (p.secondary ?? 'global'));
    }
    case 'range': {
      // a parameter base is resolved per launch (resolveProperty) before any access reaches here
      if (typeof p.base !== 'number') throw new Error(`access property range based on parameter '${p.base.param}' was not resolved for the launch`);
      const a = line * lineSize;
      const secondaryBytes = p.totalBytes - p.primaryBytes;
      if (a >= p.base && a < p.base + p.primaryBytes) return hintOf(p.primary);
      if ((a >= p.base + p.primaryBytes && a < p.base + p.totalBytes) || (a < p.base && a >= p.base - secondaryBytes))
        return hintOf(p.secondary ?? 'global');
      return HINT_UNCHANGED;
    }
    default:
      return hintOf(p.kind);
  }
}

/**
 * Access-policy window: hitProp for a stable pseudo-random hitRatio fraction of the window's
 * segments, missProp for the rest ([DOC] cudaAccessPolicyWindow: "random with a probability of
 * approximately hitRatio"; per-segment hash [INFER] §5.1). Segment = `segmentBytes` (default 4 KiB).
 */
export class WindowClassifier {
  private readonly lo: number;
  private readonly hi: number;
  private readonly threshold: number;
  private readonly hit: L2Hint;
  private readonly miss: L2Hint;
  private readonly linesPerSegment: number;

  constructor(
    w: AccessPolicyWindow,
    private readonly lineSize: number,
    segmentBytes = 4096,
  ) {
    this.lo = w.base;
    this.hi = w.base + w.bytes;
    this.threshold = Math.max(0, Math.min(1, w.hitRatio)) * 4294967296;
    this.hit = hintOf(w.hitProp);
    this.miss = hintOf(w.missProp);
    this.linesPerSegment = Math.max(1, Math.floor(segmentBytes / lineSize));
  }

  /** hint for a line, or -1 when the line is outside the window */
  hintFor(line: number): L2Hint | -1 {
    const a = line * this.lineSize;
    if (a < this.lo || a >= this.hi) return -1;
    if (this.threshold >= 4294967296) return this.hit;
    const seg = Math.floor(line / this.linesPerSegment);
    return hash32(seg) < this.threshold ? this.hit : this.miss;
  }
}

/**
 * The property a launch's accesses carry: a range based on a pointer parameter takes that parameter's
 * value in this launch (`args`: the launch's argument values by name)
 */
export function resolveProperty(p: AccessProperty, args: Readonly<Record<string, number | bigint>>): AccessProperty {
  if (p.kind !== 'range' || typeof p.base === 'number') return p;
  const v = args[p.base.param];
  if (v === undefined) throw new Error(`access property range: no argument '${p.base.param}' in this launch`);
  return { ...p, base: Number(v) };
}
