/**
 * Memory instructions: functional loads/stores in emulated device or shared memory (with bounds and
 * alignment checks reported like compute-sanitizer), then the counters: requests, sectors and the
 * cache hierarchy for global memory, wavefronts for shared memory.
 */
import { KernelFault } from '../errors.js';
import type { ElemType, Instr, ScalarKind, ScalarType, SourceLoc } from '../ir/types.js';
import { elemBytes } from '../ir/typesys.js';
import { Coalescer, distinctLines, idealSectors } from '../memory/coalesce.js';
import { CHUNK_SHIFT, devicePagesMade, type Page, PAGE_BYTES, UNWRITTEN } from '../memory/deviceMemory.js';

/** module-local copy: imported bindings cost a lookup in the hot loop */
const PB = PAGE_BYTES;
import { SharedBanks } from '../memory/sharedBanks.js';
import { resolveProperty } from '../memory/accessProperty.js';
import type { Exec } from './codegen.js';
import type { ExecEnv, GlobalAccess, MemorySystem } from './env.js';
import { type RegLayout, RegRefs, type RegArray, instantiate } from './regFile.js';
import { popc, type Warp } from './warp.js';

export type ViewName = 'u8' | 'i8' | 'u16' | 'i16' | 'i32' | 'f32' | 'f64' | 'i64';

/** the typed-array view and the element shift of a scalar kind (local frames use it too: localOps.ts) */
export function viewOf(k: ScalarKind): { view: ViewName; shift: number } {
  switch (k) {
    case 'pred':
    case 'u8':
      return { view: 'u8', shift: 0 };
    case 'i8':
      return { view: 'i8', shift: 0 };
    case 'u16':
      return { view: 'u16', shift: 1 };
    case 'i16':
      return { view: 'i16', shift: 1 };
    case 'i32':
    case 'u32':
      return { view: 'i32', shift: 2 };
    case 'f32':
      return { view: 'f32', shift: 2 };
    case 'f64':
      return { view: 'f64', shift: 3 };
    case 'i64':
    case 'u64':
      return { view: 'i64', shift: 3 };
  }
}

const hex = (a: number) => `0x${a.toString(16)}`;

/** thread and block coordinates of a lane, as compute-sanitizer prints them */
export function threadDesc(w: Warp, lane: number, env: ExecEnv): string {
  const [bx, by] = env.block;
  const t = w.warpInBlock * 32 + lane;
  const x = t % bx;
  const y = Math.floor(t / bx) % by;
  const z = Math.floor(t / (bx * by));
  return `thread (${x},${y},${z}) in block (${w.ctaX},${w.ctaY},${w.ctaZ})`;
}

export function where(loc: SourceLoc): string {
  return `${loc.file}:${loc.line}`;
}

function oobFault(env: ExecEnv, w: Warp, lane: number, addr: number, size: number, op: 'read' | 'write', space: string, loc: SourceLoc): never {
  let detail: string;
  if (space === 'shared') {
    detail = `offset ${addr} is outside the block's ${env.sharedBytes} bytes of shared memory`;
  } else {
    const near = env.mem.nearest(addr);
    if (!near) detail = `no allocation exists`;
    else if (near.offset < 0) detail = `${-near.offset} bytes before the start of allocation '${near.alloc.name}' (${near.alloc.bytes} bytes at ${hex(near.alloc.base)})`;
    else detail = `${near.offset - near.alloc.bytes} bytes after the end of allocation '${near.alloc.name}' (${near.alloc.bytes} bytes at ${hex(near.alloc.base)})`;
  }
  throw new KernelFault(
    'out-of-bounds',
    `${where(loc)}: invalid ${space} ${op} of ${size} bytes at ${space === 'shared' ? addr : hex(addr)} by ${threadDesc(w, lane, env)} in kernel '${env.kernel.name}': ${detail}`,
  );
}

function misalignedFault(env: ExecEnv, w: Warp, lane: number, addr: number, size: number, space: string, loc: SourceLoc): never {
  throw new KernelFault(
    'misaligned',
    `${where(loc)}: misaligned ${space} access of ${size} bytes at ${space === 'shared' ? addr : hex(addr)} by ${threadDesc(w, lane, env)} in kernel '${env.kernel.name}': the address must be a multiple of ${size}`,
  );
}

/** address registers of the lanes (an immediate address is broadcast into a scratch array) */
function addrSource(op: { reg: number } | { imm: number | bigint }): (w: Warp) => Float64Array {
  if ('reg' in op) {
    const r = op.reg;
    return (w) => w.reg(r) as Float64Array;
  }
  const scratch = new Float64Array(32).fill(Number(op.imm));
  return () => scratch;
}

const coalescer = new Coalescer();
const banks = new SharedBanks();

type GlobalLd = Extract<Instr, { op: 'ld' }>;
type GlobalSt = Extract<Instr, { op: 'st' }>;

/** where a global access's lanes land: the last page touched, and how to find another */
interface PageState {
  arr: Page[ViewName];
  /** a store's overwritten values, per lane and component (lane * components + k) */
  undo: Page[ViewName];
  cur: Page | null;
  pending: Uint8Array | null;
  pageBase: number;
  pageLen: number;
  /** the page is host-mapped memory (Allocation.hostMapped): its requests take the host link */
  host: boolean;
  /** devicePagesMade() when a load took UNWRITTEN for `cur`: once a page is made, it may be that one */
  madeAt: number;
  resolve(w: Warp, l: number, addr: number): void;
  misaligned(w: Warp, l: number, addr: number): never;
}

type LaneLoop = (w: Warp, m: number, st: PageState, sec: Float64Array, bm: Uint32Array) => number;

/** generated code for lane `l`'s address (an immediate address is the same number in every lane) */
function laneAddress(refs: RegRefs, address: { reg: number } | { imm: number | bigint }): (l: string) => string {
  const immAddr = 'imm' in address ? Number(address.imm) : 0;
  return (l) => ('reg' in address ? refs.lane(address.reg, l) : `(${Object.is(immAddr, -0) ? '-0' : String(immAddr)})`);
}

/** generated code moving lane `l`'s components between its registers and `arr[b + k]` */
function laneMoves(refs: RegRefs, isLoad: boolean, regIds: number[], imms: (number | bigint)[], undo = false): string {
  return regIds
    .map((r, k) => {
      const at = k === 0 ? 'b' : `b + ${k}`;
      if (isLoad) return `${refs.lane(r, 'l')} = arr[${at}];`;
      const imm = imms[k];
      const value = r >= 0 ? refs.lane(r, 'l') : typeof imm === 'bigint' ? `${imm}n` : String(imm);
      // a global store keeps what it overwrites (the memory model's stale L1 copies, staleL1 below)
      return `${undo ? `undo[l * ${regIds.length} + ${k}] = arr[${at}]; ` : ''}arr[${at}] = ${value};`;
    })
    .join(' ');
}

/**
 * The per-lane part of a global load/store, generated per instruction text and page view, so that its
 * inline caches see one typed-array kind (one generic body for all went megamorphic; instantiate). The
 * same pass coalesces: it collects the distinct 32-byte sectors (and, for stores, the bytes written
 * in each). Returns the sector count, negated minus one when lanes were not in address order.
 */
function laneLoop(
  view: ViewName,
  isLoad: boolean,
  size: number,
  shift: number,
  regIds: number[],
  imms: (number | bigint)[],
  address: { reg: number } | { imm: number | bigint },
  layout: RegLayout,
): LaneLoop {
  const refs = new RegRefs(layout);
  const addrLane = laneAddress(refs, address);
  const moves = laneMoves(refs, isLoad, regIds, imms, !isLoad);
  const laneAddr = addrLane('l');
  const fast = size <= 16 && (size & (size - 1)) === 0 ? contiguousPath(isLoad, size, shift, moves, addrLane) : '';
  const laneBytes = size >= 32 ? 0xffffffff : ((1 << size) - 1) >>> 0;
  const bits = (at: string) => `((${laneBytes} << (${at} & 31)) >>> 0)`;
  // offsets inside a page fit in 31 bits: lanes compute with int32 arithmetic there, and the sector
  // index is the page's first sector plus the offset / 32
  const src = `return function lanes(w, m, st, sec, bm) {
    ${refs.declarations()}
    let arr = st.arr, pageBase = st.pageBase, pageLen = st.pageLen, pending = st.pending, pageSec = st.pageBase / 32;
    let n = 0, prev = -1, sorted = true;
    ${isLoad ? '' : 'const undo = st.undo;'}
    ${fast}
    for (let l = 0; l < 32; l++) {
      if (((m >>> l) & 1) === 0) continue;
      const addr = ${laneAddr};
      let rel = addr - pageBase;
      if (rel < 0 || rel + ${size} > pageLen) {
        st.resolve(w, l, addr);
        arr = st.arr; pageBase = st.pageBase; pageLen = st.pageLen; pending = st.pending; pageSec = pageBase / 32;
        rel = addr - pageBase;
      }
      const ri = rel | 0;
      if ((ri & ${size - 1}) !== 0) st.misaligned(w, l, addr);
      if (pending !== null && pending[ri >> ${CHUNK_SHIFT}] === 1) st.cur.fill(ri >> ${CHUNK_SHIFT});
      const b = ri >> ${shift};
      ${moves}
      const s = pageSec + (ri >> 5);
      if (s !== prev) {
        if (s < prev) sorted = false;
        sec[n] = s;
        ${isLoad ? '' : `bm[n] = ${bits('ri')};`}
        n++;
        prev = s;
      }${isLoad ? '' : ` else bm[n - 1] = (bm[n - 1] | ${bits('ri')}) >>> 0;`}
    }
    return sorted ? n : -n - 1;
  };`;
  return instantiate<LaneLoop>(`global ${view}`, refs.paramNames(), src, refs.params);
}

/**
 * The common case of laneLoop, ahead of its lane-by-lane pass: all 32 lanes active on consecutive
 * elements (a[l] = a[0] + l * size), aligned, inside the page of the last access. What the pass would
 * check for each lane then holds for all of them, and its results follow from the range: the chunks
 * to initialise and the sectors are those the range covers (in address order), a sector's written
 * bytes those of the range inside it. Anything else, or a range that leaves the page, takes the pass.
 * Only for power-of-two sizes up to 16 bytes: a lane then never straddles a 64-byte chunk.
 */
function contiguousPath(isLoad: boolean, size: number, shift: number, moves: string, addrLane: (l: string) => string): string {
  const span = 32 * size;
  // the range's page offset is `at`; its locals are names RegRefs does not give registers
  const masks = isLoad
    ? ''
    : `const lo = s === s0 ? at & 31 : 0, hi = s === s1 ? ((at + ${span - 1}) & 31) + 1 : 32;
          bm[n] = hi - lo === 32 ? 0xffffffff : (((1 << (hi - lo)) - 1) << lo) >>> 0;`;
  return `if (m === -1) {
      const a0 = ${addrLane('0')};
      const rel0 = a0 - pageBase;
      let l = 1;
      if (rel0 >= 0 && rel0 + ${span} <= pageLen) for (; l < 32; l++) if (${addrLane('l')} !== a0 + l * ${size}) break;
      const at = rel0 | 0;
      if (l === 32 && (at & ${size - 1}) === 0) {
        if (pending !== null)
          for (let c = at >> ${CHUNK_SHIFT}, ce = (at + ${span - 1}) >> ${CHUNK_SHIFT}; c <= ce; c++) if (pending[c] === 1) st.cur.fill(c);
        for (let l = 0, b = at >> ${shift}; l < 32; l++, b += ${size >> shift}) { ${moves} }
        const s0 = at >> 5, s1 = (at + ${span - 1}) >> 5;
        for (let s = s0; s <= s1; s++) {
          sec[n] = pageSec + s;
          ${masks}
          n++;
        }
        return n;
      }
    }`;
}

export function genGlobalAccess(i: GlobalLd | GlobalSt, index: number, env: ExecEnv, layout: RegLayout): Exec {
  const isLoad = i.op === 'ld';
  const size = elemBytes(i.elem);
  const comps = i.elem.tag === 'vec' ? i.elem.n : 1;
  const compKind = i.elem.tag === 'vec' ? i.elem.elem.kind : i.elem.kind;
  const { view, shift } = viewOf(compKind);
  const regIds = isLoad ? i.dsts : i.values.map((v) => ('reg' in v ? v.reg : -1));
  const imms = isLoad ? [] : i.values.map((v) => ('imm' in v ? v.imm : 0));
  const c = env.counters;
  const mem = env.mem;
  const memsys = env.memsys;
  const access: GlobalAccess = {
    sm: 0,
    group: 0,
    op: isLoad ? 'ld' : 'st',
    sectors: coalescer.sectors,
    count: 0,
    ...(isLoad ? {} : { writeMasks: coalescer.byteMasks }),
    cacheOp: i.cache,
    property: resolveProperty(i.property, env.args),
  };
  const observer = env.observer;
  // the page of the last access: most lanes of most instructions fall in it
  const st: PageState = {
    arr: new Uint8Array(0),
    undo: new UNDO[view](32 * comps),
    cur: null,
    pending: null,
    pageBase: 0,
    pageLen: -1,
    host: false,
    madeAt: -1,
    resolve(w: Warp, l: number, addr: number): void {
      const alloc = mem.find(addr, size);
      if (alloc === null) oobFault(env, w, l, addr, size, isLoad ? 'read' : 'write', 'global', i.loc);
      st.host = alloc.hostMapped;
      const off = addr - alloc.base;
      const pageIdx = Math.floor(off / PB);
      const page: Page = isLoad ? alloc.readPage(off) : (alloc.pages[pageIdx] ?? alloc.page(off));
      st.madeAt = page === UNWRITTEN ? devicePagesMade() : -1;
      st.cur = page;
      st.pending = page.pending;
      st.arr = page[view];
      st.pageBase = alloc.base + pageIdx * PB;
      st.pageLen = Math.min(PB, alloc.end - st.pageBase);
    },
    misaligned(w: Warp, l: number, addr: number): never {
      return misalignedFault(env, w, l, addr, size, 'global', i.loc);
    },
  };
  const lanesFn = laneLoop(view, isLoad, size, shift, regIds, imms, i.addr, layout);
  const l1Alloc = isLoad && (i.cache === 'ca' || i.cache === 'lu' || i.cache === 'cs');
  const stale = memsys?.keepStale ? staleL1(env, i, st.undo, comps, compKind, l1Alloc) : null;

  const run = (w: Warp) => {
    const m = w.mask;
    if (m === 0) return;
    // a store since made the page this load read as unwritten: find it again
    if (st.madeAt >= 0 && st.madeAt !== devicePagesMade()) st.pageLen = -1;
    const r = lanesFn(w, m, st, coalescer.sectors, coalescer.byteMasks);
    const n = r >= 0 ? (coalescer.count = r) : coalescer.merge(-r - 1);
    const lanes = popc(m);
    c.requests[index] = (c.requests[index] as number) + 1;
    c.sectors[index] = (c.sectors[index] as number) + n;
    c.sectorsIdeal[index] = (c.sectorsIdeal[index] as number) + idealSectors(lanes, size);
    const lines = distinctLines(coalescer.sectors, n);
    c.tagLookups[index] = (c.tagLookups[index] as number) + lines;
    c.bytes[index] = (c.bytes[index] as number) + lanes * size;
    // host-mapped memory (a warp's lanes in one allocation, as the page cache assumes): over the host
    // link, past the GPU's caches
    if (st.host) {
      if (observer?.hostMemory) observer.hostMemory(w, index, n, isLoad);
      return;
    }
    if (memsys) {
      access.sm = w.sm;
      if (!isLoad) access.group = w.storeGroup();
      access.count = n;
      const out = memsys.access(access);
      c.l1Hits[index] = (c.l1Hits[index] as number) + out.l1HitSectors;
      if (stale !== null && ((memsys.staleLines as number) > 0 || (memsys.sharedWrites as number[]).length > 0)) stale(w);
      if (observer) observer.memory(w, index, out, n, lines);
    } else if (observer) observer.memory(w, index, null, n, lines);
  };
  return env.explain ? env.explain.wrap(run, index, i.loc, size, 'global', addrSource(i.addr)) : run;
}

/** a typed array of each page view's kind, for a store's overwritten values */
const UNDO: Record<ViewName, new (n: number) => Page[ViewName]> = {
  u8: Uint8Array, i8: Int8Array, u16: Uint16Array, i16: Int16Array, i32: Int32Array, f32: Float32Array, f64: Float64Array, i64: BigInt64Array,
};

/** a line's bytes as readLine leaves them, and a view of them: the callers copy what they keep */
const LINE = new Uint8Array(128);
const LINE_VIEW = new DataView(LINE.buffer);

/** the 128 bytes of a global line as memory has them now (zeros outside any allocation), in LINE */
function readLine(env: ExecEnv, line: number): Uint8Array {
  const out = LINE;
  out.fill(0);
  const base = line * 128;
  for (let at = 0; at < 128; ) {
    const alloc = env.mem.find(base + at, 1);
    if (!alloc) {
      at++;
      continue;
    }
    const off = base + at - alloc.base;
    const inPage = off & (PB - 1);
    const n = Math.min(128 - at, alloc.end - (base + at), PB - inPage);
    const bytes = (alloc.pages[Math.floor(off / PB)] ?? alloc.page(off)).ready(inPage, n).u8;
    for (let k = 0; k < n; k++) out[at + k] = bytes[inPage + k]!;
    at += n;
  }
  return out;
}

/** DataView access to one scalar of a line copy */
function getScalar(d: DataView, off: number, kind: ScalarKind): number | bigint {
  switch (kind) {
    case 'pred': case 'u8': return d.getUint8(off);
    case 'i8': return d.getInt8(off);
    case 'u16': return d.getUint16(off, true);
    case 'i16': return d.getInt16(off, true);
    case 'i32': case 'u32': return d.getInt32(off, true);
    case 'f32': return d.getFloat32(off, true);
    case 'f64': return d.getFloat64(off, true);
    case 'i64': case 'u64': return d.getBigInt64(off, true);
  }
}
function setScalar(d: DataView, off: number, kind: ScalarKind, v: number | bigint): void {
  switch (kind) {
    case 'pred': case 'u8': case 'i8': d.setUint8(off, Number(v) & 0xff); return;
    case 'u16': case 'i16': d.setUint16(off, Number(v) & 0xffff, true); return;
    case 'i32': case 'u32': d.setInt32(off, Number(v) | 0, true); return;
    case 'f32': d.setFloat32(off, Number(v), true); return;
    case 'f64': d.setFloat64(off, Number(v), true); return;
    case 'i64': case 'u64': d.setBigInt64(off, BigInt.asIntN(64, BigInt(v)), true); return;
  }
}

/**
 * The data side of the SMs' incoherent L1s (memory/l1Cache.ts keeps the copies): after a store's
 * access, every line it wrote while another L1 holds it is kept there as it was before (memory now,
 * with the store's overwritten values put back, last lane first); after a load's, this SM's stale
 * copies take the sectors it just filled from memory, and the lanes whose line this SM's L1 holds
 * stale read the copy, not memory. Runs only once some line was written while held elsewhere.
 */
function staleL1(env: ExecEnv, i: GlobalLd | GlobalSt, undo: Page[ViewName], comps: number, kind: ScalarKind, l1Alloc: boolean): (w: Warp) => void {
  const memsys = env.memsys as MemorySystem & Required<Pick<MemorySystem, 'keepStale' | 'staleCopy'>>;
  const addrs = addrSource(i.addr);
  const csize = elemBytes({ tag: 'scalar', kind });
  const dsts = i.op === 'ld' ? i.dsts : [];
  return (w: Warp) => {
    const m = w.mask;
    const a = addrs(w);
    const writes = memsys.sharedWrites as number[];
    for (let j = 0; j < writes.length; j++) {
      const line = writes[j] as number;
      const before = readLine(env, line);
      const d = LINE_VIEW;
      for (let l = 31; l >= 0; l--) {
        if (((m >>> l) & 1) === 0) continue;
        const addr = a[l] as number;
        if (Math.floor(addr / 128) !== line) continue;
        for (let k = 0; k < comps; k++) setScalar(d, addr - line * 128 + k * csize, kind, undo[l * comps + k] as number | bigint);
      }
      memsys.keepStale(w.sm, line, before);
    }
    const ref = memsys.refreshes as number[];
    for (let r = 0; r < ref.length; r += 2) {
      const line = ref[r] as number;
      const copy = memsys.staleCopy(w.sm, line);
      if (!copy) continue;
      const now = readLine(env, line);
      const mask = ref[r + 1] as number;
      for (let b = 0; b < 128; b++) if ((mask >>> (b >> 5)) & 1) copy[b] = now[b]!;
    }
    if (!l1Alloc || (memsys.staleLines as number) === 0) return;
    // lanes of one line in a row share its look-up
    let seen = -1;
    let copy: Uint8Array | undefined;
    for (let l = 0; l < 32; l++) {
      if (((m >>> l) & 1) === 0) continue;
      const addr = a[l] as number;
      const line = Math.floor(addr / 128);
      if (line !== seen) {
        seen = line;
        copy = memsys.staleCopy(w.sm, line);
      }
      if (!copy) continue;
      memsys.noteStaleRead?.();
      const d = new DataView(copy.buffer);
      for (let k = 0; k < comps; k++) (w.reg(dsts[k] as number) as RegArray)[l] = getScalar(d, addr - line * 128 + k * csize, kind) as never;
    }
  };
}

/**
 * The shared-memory wavefronts of one LDGSTS as ncu counts them on the H200 (in the shared total only,
 * not in op_st), measured by test/fidelity/probes/ldgsts_probe.cu: 3 per instruction, and through L1
 * (.ca) also the data's own — the write's bank wavefronts, or as many as the lanes that share one
 * source word when that is more (4 for 4-byte contiguous copies, 5 when lanes pair up on words, 7 for
 * 16-byte copies, 35 for a 32-way conflicted write). BYPASS copies (.cg) took 3 whatever the data.
 */
const LDGSTS_WAVEFRONTS = 3;

/** the most active lanes that read one source address (1 for the usual distinct addresses) */
function sharedSource(a: Float64Array, m: number): number {
  let prev = -Infinity;
  let increasing = true;
  for (let l = 0; l < 32 && increasing; l++) {
    if (((m >>> l) & 1) === 0) continue;
    if ((a[l] as number) <= prev) increasing = false;
    prev = a[l] as number;
  }
  if (increasing) return 1;
  const seen = new Map<number, number>();
  let most = 1;
  for (let l = 0; l < 32; l++) {
    if (((m >>> l) & 1) === 0) continue;
    const n = (seen.get(a[l] as number) ?? 0) + 1;
    seen.set(a[l] as number, n);
    if (n > most) most = n;
  }
  return most;
}

/**
 * The shared half of an access, or of an LDGSTS (`part`), whose slot counts the request: its
 * wavefronts follow LDGSTS_WAVEFRONTS, `from` being the copy's source addresses.
 */
export function genSharedAccess(
  i: GlobalLd | GlobalSt,
  index: number,
  env: ExecEnv,
  layout: RegLayout,
  part: 'own' | { bypass: boolean; from: { reg: number } | { imm: number | bigint } } = 'own',
): Exec {
  const copy = part === 'own' ? null : { bypass: part.bypass, from: addrSource(part.from) };
  const isLoad = i.op === 'ld';
  const size = elemBytes(i.elem);
  const compKind = i.elem.tag === 'vec' ? i.elem.elem.kind : i.elem.kind;
  const { view, shift } = viewOf(compKind);
  const regIds = isLoad ? i.dsts : i.values.map((v) => ('reg' in v ? v.reg : -1));
  const imms = isLoad ? [] : i.values.map((v) => ('imm' in v ? v.imm : 0));
  const c = env.counters;
  const fault = (w: Warp, l: number, off: number): never =>
    off < 0 || off + size > env.sharedBytes ? oobFault(env, w, l, off, size, isLoad ? 'read' : 'write', 'shared', i.loc) : misalignedFault(env, w, l, off, size, 'shared', i.loc);
  const lanesFn = sharedLaneLoop(view, isLoad, size, shift, env.sharedBytes, regIds, imms, i.addr, layout);
  const offs = new Float64Array(32);
  const run = (w: Warp) => {
    const m = w.mask;
    if (m === 0) return;
    lanesFn(w, m, (w.shared as Page)[view], offs, fault);
    const r = banks.run(offs, m, size);
    if (copy) {
      const data = copy.bypass ? 0 : Math.max(r.wavefronts, sharedSource(copy.from(w), m));
      c.wavefronts[index] = (c.wavefronts[index] as number) + LDGSTS_WAVEFRONTS + data;
      c.wavefrontsIdeal[index] = (c.wavefrontsIdeal[index] as number) + LDGSTS_WAVEFRONTS + (copy.bypass ? 0 : r.ideal);
      return;
    }
    c.wavefronts[index] = (c.wavefronts[index] as number) + r.wavefronts;
    c.wavefrontsIdeal[index] = (c.wavefrontsIdeal[index] as number) + r.ideal;
    c.requests[index] = (c.requests[index] as number) + 1;
    c.bytes[index] = (c.bytes[index] as number) + popc(m) * size;
    if (env.observer) env.observer.memory(w, index, null, r.wavefronts, r.words);
  };
  // an LDGSTS is explained by its global half (the request its slot counts sectors for)
  return env.explain && copy === null ? env.explain.wrap(run, index, i.loc, size, 'shared', addrSource(i.addr)) : run;
}

type SharedLaneLoop = (w: Warp, m: number, arr: Page[ViewName], offs: Float64Array, fault: (w: Warp, l: number, off: number) => never) => void;

/**
 * The per-lane part of a shared load/store, generated per instruction as laneLoop is for global
 * ones (one typed-array kind, the registers through the launch's views): bounds and alignment
 * checked against the block's `limit` bytes, the data moved, each active lane's offset left in
 * `offs` for the bank model.
 */
function sharedLaneLoop(
  view: ViewName,
  isLoad: boolean,
  size: number,
  shift: number,
  limit: number,
  regIds: number[],
  imms: (number | bigint)[],
  address: { reg: number } | { imm: number | bigint },
  layout: RegLayout,
): SharedLaneLoop {
  const refs = new RegRefs(layout);
  const addr = laneAddress(refs, address)('l');
  const moves = laneMoves(refs, isLoad, regIds, imms);
  // a test by mask where the size allows: an offset is a double, and % on doubles is a runtime call
  const aligned = (size & (size - 1)) === 0 ? `(off | 0) === off && (off & ${size - 1}) === 0` : `off % ${size} === 0`;
  const src = `return function sharedLanes(w, m, arr, offs, fault) {
    ${refs.declarations()}
    for (let l = 0; l < 32; l++) {
      if (((m >>> l) & 1) === 0) continue;
      const off = ${addr};
      if (!(off >= 0 && off + ${size} <= ${limit} && ${aligned})) fault(w, l, off);
      offs[l] = off;
      const b = off >> ${shift};
      ${moves}
    }
  };`;
  return instantiate<SharedLaneLoop>(`shared ${view}`, refs.paramNames(), src, refs.params);
}

type CpAsync = Extract<Instr, { op: 'cpasync' }>;

/**
 * LDGSTS (cp.async): a global load into the copy's carrier registers — requests, sectors and the
 * caches as for an LDG, which is how ncu counts it (l1tex__t_*_pipe_lsu_mem_global_op_ld) — then
 * their store to shared memory at once. Storing at issue is safe: the data may be read only after
 * the wait, which the timing model holds back until the load has returned.
 */
export function genCpAsync(i: CpAsync, index: number, env: ExecEnv, layout: RegLayout): Exec {
  const { elem, property, loc } = i;
  const part: ScalarType = elem.tag === 'vec' ? elem.elem : elem;
  const load = genGlobalAccess({ op: 'ld', space: 'global', dsts: i.tmps, elem, addr: i.from, cache: i.cache, property, loc }, index, env, layout);
  const values = i.tmps.map((reg) => ({ reg, type: part }));
  const store = genSharedAccess({ op: 'st', space: 'shared', values, elem, addr: i.to, cache: 'wb', property, loc }, index, env, layout, { bypass: i.cache === 'cg', from: i.from });
  return (w: Warp) => {
    load(w);
    store(w);
  };
}

type AtomInstr = Extract<Instr, { op: 'atom' }>;

function atomApply(fn: AtomInstr['fn'], t: ScalarType, old: number | bigint, a: number | bigint, b: number | bigint | undefined): number | bigint {
  if (typeof old === 'bigint') {
    const x = a as bigint;
    const wrap = (v: bigint) => BigInt.asIntN(64, v);
    const unsigned = t.kind === 'u64';
    const lt = (p: bigint, q: bigint) => (unsigned ? BigInt.asUintN(64, p) < BigInt.asUintN(64, q) : p < q);
    switch (fn) {
      case 'add': return wrap(old + x);
      case 'min': return lt(x, old) ? x : old;
      case 'max': return lt(old, x) ? x : old;
      case 'exch': return x;
      case 'cas': return old === x ? (b as bigint) : old;
      case 'and': return old & x;
      case 'or': return old | x;
      case 'xor': return old ^ x;
      default: return wrap(old + 1n);
    }
  }
  const o = old;
  const x = a as number;
  const isF = t.kind === 'f32' || t.kind === 'f64';
  const unsigned = t.kind === 'u32';
  switch (fn) {
    case 'add': return isF ? o + x : (o + x) | 0;
    case 'min': return unsigned ? ((x >>> 0) < (o >>> 0) ? x : o) : Math.min(o, x);
    case 'max': return unsigned ? ((x >>> 0) > (o >>> 0) ? x : o) : Math.max(o, x);
    case 'exch': return x;
    case 'cas': return o === x ? (b as number) : o;
    case 'and': return o & x;
    case 'or': return o | x;
    case 'xor': return o ^ x;
    case 'inc': return (o >>> 0) >= (x >>> 0) ? 0 : (o + 1) | 0;
    case 'dec': return o === 0 || (o >>> 0) > (x >>> 0) ? x : (o - 1) | 0;
  }
}

/**
 * The operations a warp's global atomic takes at its L2 slice: the lanes on distinct words of a
 * sector are applied together, lanes on one address one after another (the H200,
 * test/fidelity/probes/atomics: 32 lanes on one address take 32 x 0.73 ns, 32 lanes on 32 words of
 * a line about 3.5 x): per sector, the most lanes on one of its addresses, summed over the sectors.
 */
const opSector = new Float64Array(32);
const opMost = new Int32Array(32);
function atomicOps(a: ArrayLike<number>, m: number): number {
  let nSec = 0;
  for (let l = 0; l < 32; l++) {
    if (((m >>> l) & 1) === 0) continue;
    const addr = a[l] as number;
    let same = 1;
    for (let p = 0; p < l; p++) if (((m >>> p) & 1) !== 0 && (a[p] as number) === addr) same++;
    const sec = Math.floor(addr / 32);
    let j = 0;
    while (j < nSec && opSector[j] !== sec) j++;
    if (j === nSec) {
      opSector[nSec] = sec;
      opMost[nSec++] = same;
    } else if (same > (opMost[j] as number)) opMost[j] = same;
  }
  let ops = 0;
  for (let j = 0; j < nSec; j++) ops += opMost[j] as number;
  return ops;
}

/** atomics: lanes of one instruction are applied in lane order (same-address atomics serialise) */
/**
 * `warpAggregated`: nvcc does the warp's atomic once, from a leader lane, on the warp's reduction of the
 * operands (atomicAggregation.ts): the lanes' effects are applied one by one as before (the same sum),
 * but the L2 slice sees one operation. `oneLane`: the SASS instruction is one lane's (a returning
 * atomicAdd's leader or lane 31, atomicAggregation.ts), which does the warp's work: every lane's
 * effect and old value as before, the request counted as that lane's alone
 */
export function genAtomic(i: AtomInstr, index: number, env: ExecEnv, warpAggregated = false, oneLane = false): Exec {
  const size = elemBytes(i.type);
  const { view, shift } = viewOf(i.type.kind);
  const addrs = addrSource(i.addr);
  const aSrc = 'reg' in i.a ? i.a.reg : -1;
  const aImm = 'imm' in i.a ? i.a.imm : 0;
  const bSrc = i.b && 'reg' in i.b ? i.b.reg : -1;
  const bImm = i.b && 'imm' in i.b ? i.b.imm : undefined;
  const c = env.counters;
  const isShared = i.space === 'shared';
  /** each lane's value before its atomic, for the stale copies of other L1s */
  const wideOld = i.type.kind === 'i64' || i.type.kind === 'u64';
  const olds: Float64Array | BigInt64Array = wideOld ? new BigInt64Array(32) : new Float64Array(32);
  const access: GlobalAccess = {
    sm: 0,
    group: 0,
    op: i.dst === null ? 'red' : 'atom',
    sectors: coalescer.sectors,
    count: 0,
    writeMasks: coalescer.byteMasks,
    cacheOp: 'strong',
    property: resolveProperty(i.property, env.args),
  };
  const run = (w: Warp) => {
    const m = w.mask;
    if (m === 0) return;
    const a = addrs(w);
    let host = false;
    const dst = i.dst === null ? null : (w.reg(i.dst) as RegArray);
    const ar = aSrc >= 0 ? (w.reg(aSrc) as RegArray) : null;
    const br = bSrc >= 0 ? (w.reg(bSrc) as RegArray) : null;
    for (let l = 0; l < 32; l++) {
      if (((m >>> l) & 1) === 0) continue;
      const addr = a[l] as number;
      let arr: RegArray | Uint8Array | Int8Array | Uint16Array | Int16Array;
      let idx: number;
      if (isShared) {
        if (addr < 0 || addr + size > env.sharedBytes) oobFault(env, w, l, addr, size, 'write', 'shared', i.loc);
        if (addr % size !== 0) misalignedFault(env, w, l, addr, size, 'shared', i.loc);
        arr = (w.shared as Page)[view];
        idx = addr >> shift;
      } else {
        const alloc = env.mem.find(addr, size);
        if (!alloc) oobFault(env, w, l, addr, size, 'write', 'global', i.loc);
        if (alloc.hostMapped) host = true;
        if (addr % size !== 0) misalignedFault(env, w, l, addr, size, 'global', i.loc);
        const off = addr - alloc.base;
        const page = (alloc.pages[Math.floor(off / PB)] ?? alloc.page(off)).ready(off & (PB - 1), size);
        arr = page[view];
        idx = (off & (PB - 1)) >> shift;
      }
      const old = arr[idx] as number | bigint;
      olds[l] = old as never;
      const av = ar ? (ar[l] as number | bigint) : aImm;
      const bv = br ? (br[l] as number | bigint) : bImm;
      arr[idx] = atomApply(i.fn, i.type, old, av, bv) as never;
      if (dst) dst[l] = old as never;
    }
    c.requests[index] = (c.requests[index] as number) + 1;
    // the lanes the request is counted for (oneLane: the warp's last, all lanes' address being one)
    const cm = oneLane ? (1 << (31 - Math.clz32(m))) >>> 0 : m;
    if (isShared) {
      const r = banks.run(a, cm, size);
      c.wavefronts[index] = (c.wavefronts[index] as number) + r.wavefronts;
      c.wavefrontsIdeal[index] = (c.wavefrontsIdeal[index] as number) + r.ideal;
      return;
    }
    const n = coalescer.run(a, cm, size);
    c.sectors[index] = (c.sectors[index] as number) + n;
    c.sectorsIdeal[index] = (c.sectorsIdeal[index] as number) + idealSectors(popc(cm), size);
    c.bytes[index] = (c.bytes[index] as number) + popc(cm) * size;
    if (host) {
      // an atomic on host-mapped memory: over the host link (a fetching one waits for its reply)
      env.observer?.hostMemory?.(w, index, n, i.dst !== null);
      return;
    }
    if (env.memsys) {
      access.sm = w.sm;
      access.count = n;
      const out = env.memsys.access(access);
      // the timing model: the request's atomic operations at its L2 slice (a remote atomic is timed
      // by the link: shmemOps tells the model)
      if (env.observer && !i.remote) env.observer.memory(w, index, out, n, distinctLines(coalescer.sectors, n), warpAggregated || oneLane ? 1 : atomicOps(a, m), Math.floor((a[31 - Math.clz32(m & -m)] as number) / 128));
      // the lines other L1s hold keep what the atomics replaced (stale copies, staleL1)
      const shared = env.memsys.sharedWrites;
      if (shared !== undefined && shared.length > 0 && env.memsys.keepStale) {
        for (let j = 0; j < shared.length; j++) {
          const line = shared[j] as number;
          const before = readLine(env, line);
          const d = LINE_VIEW;
          for (let l = 31; l >= 0; l--) {
            if (((m >>> l) & 1) === 0) continue;
            const addr = a[l] as number;
            if (Math.floor(addr / 128) === line) setScalar(d, addr - line * 128, i.type.kind, olds[l] as number | bigint);
          }
          env.memsys.keepStale(w.sm, line, before);
        }
      }
    }
  };
  return env.explain ? env.explain.wrap(run, index, i.loc, size, isShared ? 'shared' : 'global', addrs) : run;
}

type L2Instr = Extract<Instr, { op: 'l2prefetch' }> | Extract<Instr, { op: 'l2discard' }>;

/** apply_access_property (prefetch to L2 with a priority) and discard_memory, one 128-byte line per lane */
export function genL2Line(i: L2Instr, env: ExecEnv): Exec {
  const addrs = addrSource(i.addr);
  return (w: Warp) => {
    const m = w.mask;
    if (m === 0) return;
    const a = addrs(w);
    let prev = -1;
    for (let l = 0; l < 32; l++) {
      if (((m >>> l) & 1) === 0) continue;
      const addr = a[l] as number;
      if (!env.mem.find(addr, 1)) oobFault(env, w, l, addr, 128, 'write', 'global', i.loc);
      const line = Math.floor(addr / 128) * 128;
      if (i.op === 'l2discard' && line !== addr) misalignedFault(env, w, l, addr, 128, 'global', i.loc);
      if (line === prev) continue;
      prev = line;
      if (!env.memsys) continue;
      if (i.op === 'l2prefetch') env.memsys.prefetchL2(line, i.prop);
      else env.memsys.discardL2(line);
    }
  };
}

/** the scalar at a global address now (for the memory model's record of what a strong store replaces) */
export function readScalar(env: ExecEnv, addr: number, elem: ElemType): number | bigint {
  if (elem.tag !== 'scalar') return 0;
  const size = elemBytes(elem);
  const alloc = env.mem.find(addr, size);
  if (!alloc || addr % size !== 0) return 0;
  const { view, shift } = viewOf(elem.kind);
  const off = addr - alloc.base;
  const page = (alloc.pages[Math.floor(off / PB)] ?? alloc.page(off)).ready(off & (PB - 1), size);
  return page[view][(off & (PB - 1)) >> shift] as number | bigint;
}

