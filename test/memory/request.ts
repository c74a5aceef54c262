/**
 * A reusable warp-level request for feeding a MemoryHierarchy directly (no interpreter): the sectors
 * 32 lanes touch, issued from a chosen SM.
 */
import type { AccessProperty, CacheOp, GlobalAccess, MemOp, MemoryHierarchy } from '../../src/memory/hierarchy.js';

const GLOBAL: AccessProperty = { kind: 'global' };

/** reusable request buffer */
export class Req {
  readonly sectors = new Float64Array(64);
  readonly masks = new Uint32Array(64);
  readonly a: GlobalAccess;
  private issued = 0;
  constructor() {
    this.a = { sm: 0, group: 0, op: 'ld', sectors: this.sectors, count: 0, writeMasks: this.masks, cacheOp: 'ca', property: GLOBAL };
  }
  /** the sectors touched by 32 lanes accessing `bytes` at addr(lane); ascending, distinct, with byte masks */
  fill(addrOf: (lane: number) => number, bytes: number): this {
    const map = new Map<number, number>();
    for (let lane = 0; lane < 32; lane++) {
      const a = addrOf(lane);
      for (let b = a; b < a + bytes; b++) {
        const s = Math.floor(b / 32);
        map.set(s, (map.get(s) ?? 0) | (1 << (b - s * 32)));
      }
    }
    const keys = [...map.keys()].sort((x, y) => x - y);
    keys.forEach((s, i) => {
      this.sectors[i] = s;
      this.masks[i] = map.get(s)! >>> 0;
    });
    this.a.count = keys.length;
    return this;
  }
  /** one full 128-B line (32 consecutive floats, 128-B aligned) */
  line(byteAddr: number): this {
    const s0 = byteAddr / 32;
    for (let i = 0; i < 4; i++) {
      this.sectors[i] = s0 + i;
      this.masks[i] = 0xffffffff;
    }
    this.a.count = 4;
    return this;
  }
  /** issue the request from `sm`; `group` as GlobalAccess.group (default: a group of its own) */
  go(m: MemoryHierarchy, sm: number, op: MemOp, property: AccessProperty = GLOBAL, cacheOp: CacheOp = op === 'ld' ? 'ca' : 'wb', group = -1 - this.issued) {
    this.issued++;
    this.a.sm = sm;
    this.a.group = group;
    this.a.op = op;
    this.a.property = property;
    this.a.cacheOp = cacheOp;
    return m.access(this.a);
  }
}
