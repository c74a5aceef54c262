/**
 * Address streams of the ground-truth kernels (groundtruth/cuda/micro.cu), generated directly (no
 * interpreter), fed warp instruction by warp instruction into a MemoryHierarchy.
 *
 * Schedule assumed (the real GPU runs many blocks at once; these orders are what the tests rely on):
 *  - family 1: block b runs on SM b % 132; blocks in blockIdx order, the 8 warps of a block in order,
 *    each warp its load then its store; a scheduler round (the DRAM load the L2 sees) ends after
 *    every 8 blocks per SM (the resident warps at full occupancy);
 *  - family 5: the whole grid is one wave (512 blocks of 256 threads <= 132 SMs x 8), so warps advance
 *    in lockstep: for each loop iteration k, every warp (block-linear order) does iteration k;
 *    the 512 MB flush/evict kernels likewise iterate their grid-stride loop in lockstep.
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
  /** `n` consecutive full lines */
  lines(byteAddr: number, n: number): this {
    const s0 = byteAddr / 32;
    for (let i = 0; i < 4 * n; i++) {
      this.sectors[i] = s0 + i;
      this.masks[i] = 0xffffffff;
    }
    this.a.count = 4 * n;
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

// ---------------------------------------------------------------- family 1
export type Pattern = 'coalesced' | 'misaligned' | 'stride2' | 'stride32' | 'broadcast' | 'blockshared';
export const G_THREADS = 1 << 22;
/** device buffers of micro.cu: B.big (in, or out of g_st) and B.out */
export const BIG = 0x1_0000_0000;
export const OUT = 0x2_0000_0000;

export function patIdx(p: Pattern, i: number): number {
  switch (p) {
    case 'coalesced':
      return i;
    case 'misaligned':
      return i + 1;
    case 'stride2':
      return 2 * i;
    case 'stride32':
      return 32 * i;
    case 'blockshared':
      return Math.floor(i / 256) * 32 + (i & 31);
    default:
      return i - (i & 31);
  }
}

/** warps per SM at full occupancy (8 blocks of 256 threads) */
const RESIDENT_WARPS = 64;

/** g_ld_<T>_<pattern>: out[i] = in[pat(i)], 16384 blocks x 256 threads */
export function runGld(m: MemoryHierarchy, elemBytes: number, p: Pattern, smCount = 132): void {
  const r = new Req();
  const warps = G_THREADS / 32;
  for (let w = 0; w < warps; w++) {
    const sm = Math.floor(w / 8) % smCount;
    const t0 = w * 32;
    r.fill((l) => BIG + patIdx(p, t0 + l) * elemBytes, elemBytes).go(m, sm, 'ld');
    r.fill((l) => OUT + (t0 + l) * elemBytes, elemBytes).go(m, sm, 'st');
    if ((w + 1) % (smCount * RESIDENT_WARPS) === 0) m.endRound();
  }
}

/** g_st_<T>_<pattern>: out[pat(i)] = v, out = B.big */
export function runGst(m: MemoryHierarchy, elemBytes: number, p: Pattern, smCount = 132): void {
  const r = new Req();
  const warps = G_THREADS / 32;
  for (let w = 0; w < warps; w++) {
    const sm = Math.floor(w / 8) % smCount;
    const t0 = w * 32;
    // stores only: the warps of a block issue together (GlobalAccess.group)
    r.fill((l) => BIG + patIdx(p, t0 + l) * elemBytes, elemBytes).go(m, sm, 'st', GLOBAL, 'wb', Math.floor(w / 8));
    if ((w + 1) % (smCount * RESIDENT_WARPS) === 0) m.endRound();
  }
}

// ---------------------------------------------------------------- family 5
export const NX = 512;
export const NY = 256;
export const NZ = 32;
export const KS = NX * NY; // elements per k-plane
export const NPTS = NX * NY * NZ;
export const FIELD_BYTES = NPTS * 4; // 16 MiB
export const SRC = 0x10_0000_0000; // 4 fields, 64 MiB
export const DST = 0x20_0000_0000; // dst, then tmp: 32 MiB contiguous
export const TMP = DST + FIELD_BYTES;
export const FLUSH = 0x30_0000_0000; // 512 MiB
export const FLUSH_BYTES = 512 * 1024 * 1024;

export type Variant = 'plain' | 'setaside' | 'annot' | 'annotdiscard' | 'window';
const STREAMING: AccessProperty = { kind: 'streaming' };
const PERSISTING: AccessProperty = { kind: 'persisting' };

/** every warp of the (16, 32) x (32, 8) grid: [sm, byte offset of its row segment in a plane] */
function l2Warps(smCount: number): Array<[number, number]> {
  const ws: Array<[number, number]> = [];
  for (let by = 0; by < NY / 8; by++)
    for (let bx = 0; bx < NX / 32; bx++) {
      const sm = (by * (NX / 32) + bx) % smCount;
      for (let ty = 0; ty < 8; ty++) ws.push([sm, ((by * 8 + ty) * NX + bx * 32) * 4]);
    }
  return ws;
}

export function runPass1(m: MemoryHierarchy, annotated: boolean, smCount = 132): void {
  const r = new Req();
  const ws = l2Warps(smCount);
  const sp = annotated ? STREAMING : GLOBAL;
  const dp = annotated ? PERSISTING : GLOBAL;
  for (let k = 0; k < NZ; k++) {
    const plane = k * KS * 4;
    for (const [sm, off] of ws) {
      for (let f = 0; f < 4; f++) r.line(SRC + f * FIELD_BYTES + plane + off).go(m, sm, 'ld', sp);
      r.line(DST + plane + off).go(m, sm, 'st', dp);
      r.line(TMP + plane + off).go(m, sm, 'st', dp);
    }
  }
}

export function runPass2(m: MemoryHierarchy, annotated: boolean, discard: boolean, smCount = 132): void {
  const r = new Req();
  const ws = l2Warps(smCount);
  const dp = annotated ? PERSISTING : GLOBAL;
  for (let k = NZ - 1; k >= 0; k--) {
    const plane = k * KS * 4;
    for (const [sm, off] of ws) {
      r.line(TMP + plane + off).go(m, sm, 'ld', dp);
      r.line(DST + plane + off).go(m, sm, 'ld', dp);
      r.line(DST + plane + off).go(m, sm, 'st', dp);
    }
  }
  if (discard) for (const [, off] of ws) for (let k = 0; k < NZ; k++) m.discardL2(TMP + k * KS * 4 + off);
}

/** flush_body: 132*8 blocks x 256 threads, grid-stride float4 reads over 512 MiB */
export function runFlush(m: MemoryHierarchy, smCount = 132): void {
  const r = new Req();
  const blocks = 132 * 8;
  const stride = blocks * 256 * 16; // bytes per grid-stride iteration
  for (let base = 0; base < FLUSH_BYTES; base += stride)
    for (let b = 0; b < blocks; b++) {
      const sm = b % smCount;
      for (let w = 0; w < 8; w++) {
        const a = base + (b * 256 + w * 32) * 16;
        if (a >= FLUSH_BYTES) continue;
        r.lines(FLUSH + a, 4).go(m, sm, 'ld');
      }
    }
}

export interface LaunchResult {
  kernel: string;
  metrics: Record<string, number>;
}

/** run_l2() for one variant: flush, 4 x (pass1, pass2), reset + limit 0, evict; all cacheControl 'none' */
export function runVariant(m: MemoryHierarchy, v: Variant, reps = 4): LaunchResult[] {
  const out: LaunchResult[] = [];
  const launch = (kernel: string, body: () => void): void => {
    m.beginLaunch({ cacheControl: 'none' });
    body();
    out.push({ kernel, metrics: m.endLaunch() });
  };
  m.setPersistingLimit(v === 'plain' ? 0 : Number.MAX_SAFE_INTEGER);
  m.resetPersistingLines();
  launch('init_flush', () => runFlush(m));
  if (v === 'window')
    m.setAccessPolicyWindow({ base: DST, bytes: 2 * FIELD_BYTES, hitRatio: 1, hitProp: 'persisting', missProp: 'streaming' });
  const annotated = v === 'annot' || v === 'annotdiscard';
  for (let rep = 0; rep < reps; rep++) {
    launch(`l2_${v}_pass1`, () => runPass1(m, annotated));
    launch(`l2_${v}_pass2`, () => runPass2(m, annotated, v === 'annotdiscard'));
  }
  m.setAccessPolicyWindow(null);
  m.resetPersistingLines();
  m.setPersistingLimit(0);
  launch(`l2_${v}_evict`, () => runFlush(m));
  return out;
}
