/**
 * The hierarchy's launch boundaries. (The cache counters against the H200 are judged through the
 * interpreter in test/fidelity/caches.test.ts and l2_persistence.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { MemoryHierarchy } from '../../src/memory/hierarchy.js';
import { H200 } from './fixtures.js';

describe('memory hierarchy launches', () => {
  it("a flushed launch starts with the dirty lines ncu's replay leaves; a kept L2 does not get them", () => {
    const h = new MemoryHierarchy(H200);
    h.beginLaunch({ cacheControl: 'none' });
    expect(h.l2.dirtySectors()).toBe(0);
    h.beginLaunch({ cacheControl: 'all' });
    expect(h.l2.dirtySectors() * 32).toBe(H200.ncuReplayDirtyBytes);
  });
});
