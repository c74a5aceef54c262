/**
 * The race, sync and init checker: an observer of the interpreter (ExecEnv.check) that orders every
 * memory access of a launch by happens-before and reports the conflicting pairs it does not order.
 *
 * Happens-before (PTX memory consistency model, at warp granularity: the interpreter runs a warp's
 * lanes in step, so accesses of one warp are ordered by its program order):
 *   - a barrier (bar.sync / __syncthreads, named barriers with counts, bar.arrive) orders the accesses
 *     of every warp that arrived before it completed before those of the warps it releases;
 *   - release/acquire: a strong write with release semantics (atomic or st.release, or any strong
 *     write after a fence) publishes the writer's clock at the location; a strong read with acquire
 *     semantics (or any strong read followed by a fence) that reads the location takes it, when the
 *     two are morally strong (each one's scope includes the other's thread);
 *   - a fence (fence.sc / fence.acq_rel, __threadfence*) is both an acquire of what strong reads
 *     before it observed and a release for strong writes after it;
 *   - a launch's accesses happen after everything before the launch (kernel boundaries order).
 * Conflicting accesses (same bytes, different warps, at least one a write) that are not ordered are a
 * data race, unless both are strong and morally strong; strong but not morally strong (a block-scope
 * atomic used by two blocks) is a scope race; a weak load polled in a loop that races with a write
 * is a polled plain flag. Reads of device memory that nothing wrote are uninitialised reads.
 *
 * Limits (bounded memory; see shadow.ts): per 4-byte word the last write and two unordered reads;
 * the shadow stops growing at its budget (what lies beyond is not checked, and the report says so);
 * intra-warp races (lanes of one warp on divergent paths without __syncwarp) are not reported; races
 * between concurrent kernels of a program are not checked (each launch starts ordered after the past).
 */
import type { KernelFault } from '../errors.js';
import type { Program } from '../exec/compile.js';
import type { AccessCheck, ExecEnv } from '../exec/env.js';
import type { Warp } from '../exec/warp.js';
import { GENERIC_SHARED_WINDOW, GENERIC_SHARED_WINDOW_BYTES, type Instr, type MemOrder, type MemScope, type Operand } from '../ir/types.js';
import { elemBytes } from '../ir/typesys.js';
import { reportFileName } from '../report/explain.js';
import type { Allocation, DeviceMemory } from '../memory/deviceMemory.js';
import type { LaunchCheck } from '../profile/launch.js';
import { type Clock, copyClock, covers, join } from './clocks.js';
import { type AccessSite, type Finding, type FindingKind, MAX_FINDINGS, TOOL } from './findings.js';
import { fixFor, messageFor } from './explain.js';
import { pollingLoads } from './polling.js';
import { SCOPE_CODE, SCOPE_OF_CODE, includes, morallyStrong, narrower } from './scopes.js';
import {
  F, InitBits, R1_AGENT, R1_CLOCK, R2_AGENT, SHADOW_PAGE_BYTES, SHADOW_WORDS, ShadowBudget, ShadowSpace, W_AGENT, W_CLOCK, W_INFO,
  infoLane, infoMask, infoPoll, infoScope, infoSlot, packInfo,
} from './shadow.js';

/** what the checker knows of a memory instruction or fence, from its IR */
interface SlotInfo {
  op: 'ld' | 'st' | 'atom' | 'cpasync' | 'membar';
  space: 'global' | 'shared' | 'local' | 'generic';
  size: number;
  addr: Operand | null;
  read: boolean;
  write: boolean;
  /** strong (atomic or volatile): its scope code; 0 = weak */
  scope: number;
  order: MemOrder;
  poll: boolean;
  /** an atomic read-modify-write (continues a release sequence) */
  rmw: boolean;
  /** cp.async: the global source it reads */
  from: Operand | null;
  opcode: string;
  file: string;
  line: number;
}

interface WarpSync {
  blockLinear: number;
  agent: number;
  vc: Clock;
  /** the clock at the warp's last fence and its scope: strong writes after it release that clock */
  fence: { vc: Clock; scope: number; slot: number } | null;
  /** what strong reads observed since the last fence: the next fence acquires it */
  pending: { vc: Clock; block: number }[];
}

interface SyncLoc {
  vc: Clock;
  /** where the release was made (the fence of a fence-then-store, else the access), by whom */
  slot: number;
  agent: number;
  lane: number;
  scope: number;
  block: number;
}

/** what a strong write publishes: the clock at the release, its scope, and where it was made */
interface Released {
  vc: Clock;
  scope: number;
  slot: number;
}

const RELEASES = new Set<MemOrder>(['release', 'acq_rel', 'seq_cst']);
const ACQUIRES = new Set<MemOrder>(['acquire', 'acq_rel', 'seq_cst']);
/** strong reads remembered until the next fence (more are merged into the oldest) */
const MAX_PENDING = 16;

export interface CheckerOptions {
  /** the shadow memory's budget in bytes */
  shadowBytes: number;
}

export class Checker implements LaunchCheck {
  readonly findings: Finding[] = [];
  private readonly byKey = new Map<string, Finding>();
  /** notes on what was not checked (the shadow budget), one per launch that hit it */
  readonly notes: string[] = [];
  /** bytes of allocations without an initialiser that something wrote (kept across launches) */
  private readonly init = new Map<Allocation, InitBits>();
  private readonly whole = new Set<Allocation>();
  private launch = -1;
  /** every launch checked, profiled or not (a graph's replays too), in order */
  readonly launches: { kernel: string; grid: [number, number, number]; block: [number, number, number] }[] = [];
  private state: LaunchState | null = null;
  /** the largest number of shadow pages any launch held */
  peakShadowBytes = 0;

  constructor(
    readonly mem: DeviceMemory,
    private readonly opts: CheckerOptions,
  ) {
    mem.hostWrote = (a, offset, bytes) => {
      if (a.hasInit || this.whole.has(a)) return;
      // a whole allocation written at once (a zeroed host.alloc, a full memset): no bitmap needed
      if (offset === 0 && bytes >= a.bytes) this.whole.add(a);
      else this.initOf(a).mark(offset, bytes);
    };
  }

  /** whether every byte of the allocation has been written by the host, or has host data */
  initialised(a: Allocation): boolean {
    return a.hasInit || this.whole.has(a);
  }

  initOf(a: Allocation): InitBits {
    let b = this.init.get(a);
    if (!b) this.init.set(a, (b = new InitBits()));
    return b;
  }

  begin(env: ExecEnv): AccessCheck {
    this.launch++;
    this.launches.push({ kernel: env.kernel.name, grid: [...env.grid], block: [...env.block] });
    const st = new LaunchState(this, env, this.launch, new ShadowBudget(Math.max(1, Math.floor(this.opts.shadowBytes / SHADOW_PAGE_BYTES))));
    this.state = st;
    return st;
  }

  compiled(prog: Program): void {
    this.state?.compiled(prog);
  }

  end(): void {
    const st = this.state;
    if (!st) return;
    this.peakShadowBytes = Math.max(this.peakShadowBytes, st.budget.peak * SHADOW_PAGE_BYTES);
    if (st.budget.exceeded)
      this.notes.push(
        `kernel '${st.env.kernel.name}' (launch ${st.launch}): the shadow memory reached its budget of ${this.opts.shadowBytes} bytes; accesses to locations beyond it were not checked (raise --shadow-limit or shrink the launch with --grid)`,
      );
    this.state = null;
  }

  /** the launch stopped at a fault the interpreter found (memcheck's finding) */
  fault(e: KernelFault): boolean {
    const st = this.state;
    this.state = null;
    const kind = e.kind;
    if (kind !== 'out-of-bounds' && kind !== 'misaligned') return false;
    const m = /^(.*?):(\d+): /.exec(e.message);
    const site: AccessSite = { file: reportFileName(m?.[1] ?? ''), line: Number(m?.[2] ?? 0), opcode: '', access: /invalid \w+ read|misaligned/.test(e.message) ? 'read' : 'write', thread: [0, 0, 0], block: [0, 0, 0] };
    const t = /thread \((\d+),(\d+),(\d+)\) in block \((\d+),(\d+),(\d+)\)/.exec(e.message);
    if (t) {
      site.thread = [Number(t[1]), Number(t[2]), Number(t[3])];
      site.block = [Number(t[4]), Number(t[5]), Number(t[6])];
    }
    const addr = / at (0x[0-9a-f]+|\d+) by /.exec(e.message)?.[1] ?? '';
    this.add(`${kind}|${site.file}|${site.line}`, () => ({
      kind,
      tool: 'memcheck',
      launch: this.launch,
      kernel: st?.env.kernel.name ?? '',
      space: /invalid shared|misaligned shared/.test(e.message) ? 'shared' : 'global',
      second: site,
      address: addr,
      allocation: null,
      count: 1,
      message: e.message.replace(/^.*?:\d+: /, ''),
      fix: kind === 'misaligned' ? 'align the address to the access size (or use a narrower type)' : 'bound the index by the allocation size (a guard such as if (i < n))',
    }));
    return true;
  }

  /** record a finding (made only for the first occurrence), or count another occurrence of one recorded */
  add(key: string, make: () => Finding): void {
    const had = this.byKey.get(key);
    if (had) {
      had.count++;
      return;
    }
    if (this.findings.length >= MAX_FINDINGS) return;
    const f = make();
    this.byKey.set(key, f);
    this.findings.push(f);
  }
}

class LaunchState implements AccessCheck {
  readonly budget: ShadowBudget;
  private infos: (SlotInfo | null)[] = [];
  private prog: Program | null = null;
  private readonly warpsPerBlock: number;
  private readonly warps: (WarpSync | undefined)[] = [];
  private readonly global = new Map<Allocation, ShadowSpace>();
  private readonly shared: ({ blockLinear: number; space: ShadowSpace; init: InitBits } | undefined)[] = [];
  private readonly sync = new Map<number, SyncLoc>();
  private readonly barriers = new Map<number, Clock>();

  constructor(
    private readonly checker: Checker,
    readonly env: ExecEnv,
    readonly launch: number,
    budget: ShadowBudget,
  ) {
    this.budget = budget;
    const [bx, by, bz] = env.block;
    this.warpsPerBlock = Math.ceil((bx * by * bz) / 32);
  }

  compiled(prog: Program): void {
    this.prog = prog;
    const polls = pollingLoads(prog.kernel.body);
    this.infos = prog.meta.map((m) =>
      m.instr ? slotInfo(m.instr, m.opcode, polls) : m.mm?.role === 'membar' ? fenceInfo(m.mm.scope, m.opcode, m.file, m.line) : null,
    );
  }

  // ---- synchronisation ---------------------------------------------------------------------

  private warp(w: Warp): WarpSync {
    let s = this.warps[w.id];
    if (!s || s.blockLinear !== w.blockLinear) {
      const agent = w.blockLinear * this.warpsPerBlock + w.warpInBlock;
      s = { blockLinear: w.blockLinear, agent, vc: new Map([[agent, 1]]), fence: null, pending: [] };
      this.warps[w.id] = s;
    }
    return s;
  }

  /** the warp's own clock moves on after it released its present */
  private tick(s: WarpSync): void {
    s.vc.set(s.agent, (s.vc.get(s.agent) as number) + 1);
  }

  barrierArrive(w: Warp, id: number): void {
    const s = this.warp(w);
    const key = w.blockLinear * 16 + id;
    const c = this.barriers.get(key);
    if (c) join(c, s.vc);
    else this.barriers.set(key, copyClock(s.vc));
    this.tick(s);
  }

  barrierRelease(blockLinear: number, id: number, waiting: readonly Warp[]): void {
    const key = blockLinear * 16 + id;
    const c = this.barriers.get(key);
    if (!c) return;
    for (const w of waiting) join(this.warp(w).vc, c);
    this.barriers.delete(key);
  }

  // ---- accesses ----------------------------------------------------------------------------

  before(w: Warp, index: number): void {
    const info = this.infos[index];
    if (!info) return;
    const s = this.warp(w);
    if (info.op === 'membar') {
      this.fence(s, info.scope, index);
      return;
    }
    if (info.space === 'local') return;
    const m = w.mask;
    if (m === 0) return;
    if (info.op === 'cpasync') {
      const from = lanes(w, info.from as Operand);
      const to = lanes(w, info.addr as Operand);
      for (let l = 0; l < 32; l++) {
        if (((m >>> l) & 1) === 0) continue;
        this.access(s, w, index, info, l, from[l] as number, 'global', true, false);
        this.access(s, w, index, info, l, to[l] as number, 'shared', false, true);
      }
      return;
    }
    const a = lanes(w, info.addr as Operand);
    // a release publishes the clock before the access; the clock then moves on
    let released: Released | null = null;
    if (info.scope !== 0 && info.write) {
      if (RELEASES.has(info.order)) released = { vc: copyClock(s.vc), scope: info.scope, slot: index };
      else if (s.fence) released = { vc: s.fence.vc, scope: narrower(s.fence.scope, info.scope), slot: s.fence.slot };
    }
    const acquire = info.scope !== 0 && info.read && ACQUIRES.has(info.order);
    for (let l = 0; l < 32; l++) {
      if (((m >>> l) & 1) === 0) continue;
      let addr = a[l] as number;
      // a generic address is a shared one inside the shared window (genericOps.ts), else global
      let space = info.space;
      if (space === 'generic') {
        const inWindow = addr >= GENERIC_SHARED_WINDOW && addr < GENERIC_SHARED_WINDOW + GENERIC_SHARED_WINDOW_BYTES;
        space = inWindow ? 'shared' : 'global';
        if (inWindow) addr -= GENERIC_SHARED_WINDOW;
      }
      this.access(s, w, index, info, l, addr, space as 'global' | 'shared', info.read, info.write);
      if (info.scope !== 0) this.strong(s, info, index, l, addr, released, acquire);
    }
    if (released !== null && RELEASES.has(info.order)) this.tick(s);
  }

  /** a fence: acquires what strong reads before it observed, and becomes the release point of strong writes after it */
  private fence(s: WarpSync, scope: number, slot: number): void {
    for (const p of s.pending) if (includes(scope, s.blockLinear, p.block)) join(s.vc, p.vc);
    s.pending = [];
    s.fence = { vc: copyClock(s.vc), scope, slot };
    this.tick(s);
  }

  /** the synchronisation a strong access makes at its location */
  private strong(s: WarpSync, info: SlotInfo, slot: number, lane: number, addr: number, released: Released | null, acquire: boolean): void {
    if (info.space !== 'shared' && info.scope < SCOPE_CODE.sys) {
      // host-mapped memory is shared with the CPU: synchronising through it below system scope leaves
      // the host outside the scope (seed 000's device-scope b read by thread 3 on the CPU)
      const alloc = this.env.mem.find(addr, info.size);
      if (alloc?.hostMapped) this.report('scope-race', 'global', null, s, slot, lane, addr, addr - alloc.base, alloc, info.read, info.write, info.scope);
    }
    const key = info.space === 'shared' ? -(s.blockLinear * 2 ** 20 + addr) - 1 : addr;
    const loc = this.sync.get(key);
    if (info.read && loc && loc.vc.size > 0) {
      if (morallyStrong(loc.scope, loc.block, info.scope, s.blockLinear)) {
        if (acquire) join(s.vc, loc.vc);
        else if (s.pending.length < MAX_PENDING) s.pending.push({ vc: copyClock(loc.vc), block: loc.block });
        else join((s.pending[0] as { vc: Clock }).vc, loc.vc);
      } else if (loc.agent !== s.agent) {
        // a release observed by a thread its scope does not include (a block-scope fence or atomic
        // between blocks): it synchronises nothing, whatever the flag's own accesses are
        let off = addr;
        let alloc: Allocation | null = null;
        if (info.space !== 'shared') {
          alloc = this.env.mem.find(addr, info.size);
          off = alloc ? addr - alloc.base : 0;
        }
        this.report('scope-race', info.space === 'shared' ? 'shared' : 'global', { agent: loc.agent, info: packInfo(loc.slot, loc.lane, 15, loc.scope, false), wasWrite: true }, s, slot, lane, addr, off, alloc, true, info.write, info.scope);
      }
    }
    if (!info.write) return;
    if (released) {
      // an RMW continues the release sequence: what earlier releasers published stays published (when
      // both are device-wide; a block-scope release is only for its own block, and replaces)
      if (info.rmw && loc && (loc.block === s.blockLinear || (loc.scope >= SCOPE_CODE.gpu && released.scope >= SCOPE_CODE.gpu))) join(loc.vc, released.vc);
      else this.sync.set(key, { vc: copyClock(released.vc), scope: released.scope, block: s.blockLinear, slot: released.slot, agent: s.agent, lane });
    } else if (!info.rmw) this.sync.delete(key);
  }

  private globalShadow(a: Allocation): ShadowSpace {
    let sp = this.global.get(a);
    if (!sp) this.global.set(a, (sp = new ShadowSpace(this.budget)));
    return sp;
  }

  private sharedOf(w: Warp): { space: ShadowSpace; init: InitBits } {
    const slot = Math.floor(w.id / this.warpsPerBlock);
    let sh = this.shared[slot];
    if (!sh) {
      sh = { blockLinear: w.blockLinear, space: new ShadowSpace(this.budget), init: new InitBits() };
      this.shared[slot] = sh;
    } else if (sh.blockLinear !== w.blockLinear) {
      // a new block in the slot: its shared memory starts unwritten, and unrelated to the last block's
      sh.space.clear();
      sh.init.clear();
      sh.blockLinear = w.blockLinear;
    }
    return sh;
  }

  /** one lane's access: initcheck, then the race check word by word, then the shadow's update */
  private access(s: WarpSync, w: Warp, slot: number, info: SlotInfo, lane: number, addr: number, space: 'global' | 'shared', read: boolean, write: boolean): void {
    const size = info.size;
    let shadow: ShadowSpace;
    let off: number;
    let alloc: Allocation | null = null;
    if (space === 'global') {
      alloc = this.env.mem.find(addr, size);
      // out of bounds or misaligned: the interpreter faults on it next (memcheck's finding)
      if (!alloc || addr % size !== 0) return;
      off = addr - alloc.base;
      shadow = this.globalShadow(alloc);
      if (!this.checker.initialised(alloc)) {
        const bits = this.checker.initOf(alloc);
        if (read && bits.firstUnset(off, size) >= 0) this.report('uninitialized-read', space, null, s, slot, lane, addr, off, alloc, read, write, 0);
        if (write) bits.mark(off, size);
      }
    } else {
      if (!(addr >= 0 && addr + size <= this.env.sharedBytes) || addr % size !== 0) return;
      off = addr;
      const sh = this.sharedOf(w);
      shadow = sh.space;
      if (read && sh.init.firstUnset(off, size) >= 0) this.report('uninitialized-read', space, null, s, slot, lane, addr, off, null, read, write, 0);
      if (write) sh.init.mark(off, size);
    }
    const vc = s.vc;
    const me = s.agent;
    const now = vc.get(me) as number;
    const poll = info.poll && read;
    for (let word = off >> 2, last = (off + size - 1) >> 2; word <= last; word++) {
      const lo = Math.max(off, word * 4) - word * 4;
      const hi = Math.min(off + size, word * 4 + 4) - word * 4;
      const mask = ((1 << hi) - 1) & ~((1 << lo) - 1);
      const page = shadow.page(word);
      if (page === null) return;
      const at = (word & (SHADOW_WORDS - 1)) * F;
      if (write) {
        // a race is reported once per word and access: the first conflicting record tells it
        if (!this.conflict(page, at + W_AGENT, true, s, mask, slot, lane, addr, off, alloc, space, read, write, info))
          if (!this.conflict(page, at + R1_AGENT, false, s, mask, slot, lane, addr, off, alloc, space, read, write, info))
            this.conflict(page, at + R2_AGENT, false, s, mask, slot, lane, addr, off, alloc, space, read, write, info);
        page[at + W_AGENT] = me + 1;
        page[at + W_CLOCK] = now;
        page[at + W_INFO] = packInfo(slot, lane, mask, info.scope, poll);
        page[at + R1_AGENT] = 0;
        page[at + R2_AGENT] = 0;
      } else if (read) {
        this.conflict(page, at + W_AGENT, true, s, mask, slot, lane, addr, off, alloc, space, read, write, info);
        const r1 = (page[at + R1_AGENT] as number) - 1;
        const to = at + (r1 < 0 || r1 === me || covers(vc, r1, page[at + R1_CLOCK] as number) ? R1_AGENT : R2_AGENT);
        page[to] = me + 1;
        page[to + 1] = now;
        page[to + 2] = packInfo(slot, lane, mask, info.scope, poll);
      }
    }
  }

  /**
   * whether the record at `rec` (agent, clock, info) conflicts with this access: another warp, the
   * same bytes, not ordered before it, not a morally strong pair; reported when it does
   */
  private conflict(
    page: Int32Array,
    rec: number,
    wasWrite: boolean,
    s: WarpSync,
    mask: number,
    slot: number,
    lane: number,
    addr: number,
    off: number,
    alloc: Allocation | null,
    space: 'global' | 'shared',
    read: boolean,
    write: boolean,
    info: SlotInfo,
  ): boolean {
    const agent = (page[rec] as number) - 1;
    if (agent < 0 || agent === s.agent) return false;
    const their = page[rec + 2] as number;
    if ((infoMask(their) & mask) === 0) return false;
    if (covers(s.vc, agent, page[rec + 1] as number)) return false;
    const theirBlock = Math.floor(agent / this.warpsPerBlock);
    if (morallyStrong(infoScope(their), theirBlock, info.scope, s.blockLinear)) return false;
    const kind: FindingKind = infoScope(their) !== 0 && info.scope !== 0 ? 'scope-race' : (!wasWrite && infoPoll(their)) || (read && info.poll) ? 'plain-flag-poll' : 'data-race';
    this.report(kind, space, { agent, info: their, wasWrite }, s, slot, lane, addr, off, alloc, read, write, info.scope);
    return true;
  }

  private report(
    kind: FindingKind,
    space: 'global' | 'shared',
    other: { agent: number; info: number; wasWrite: boolean } | null,
    s: WarpSync,
    slot: number,
    lane: number,
    addr: number,
    off: number,
    alloc: Allocation | null,
    read: boolean,
    write: boolean,
    scope: number,
  ): void {
    const meta = this.prog?.meta ?? [];
    const firstSlot = other ? infoSlot(other.info) : -1;
    const key = `${this.env.kernel.name}|${kind}|${space}|${meta[firstSlot]?.file ?? ''}:${meta[firstSlot]?.line ?? ''}|${meta[slot]?.file}:${meta[slot]?.line}`;
    this.checker.add(key, () => {
      const second = this.site(slot, s.agent, lane, read && write ? 'atomic' : write ? 'write' : 'read', scope);
      const first = other ? this.site(firstSlot, other.agent, infoLane(other.info), other.wasWrite ? (this.infos[firstSlot]?.read ? 'atomic' : 'write') : 'read', infoScope(other.info)) : undefined;
      const hazard = other ? (other.wasWrite ? (write ? 'WAW' : 'RAW') : 'WAR') : undefined;
      const allocation = space === 'global' ? (alloc ? { name: alloc.name, offset: off } : null) : this.sharedAllocation(off);
      const f: Finding = {
        kind,
        tool: TOOL[kind],
        launch: this.launch,
        kernel: this.env.kernel.name,
        space,
        ...(hazard ? { hazard } : {}),
        ...(first ? { first } : {}),
        second,
        address: space === 'global' ? `0x${addr.toString(16)}` : String(addr),
        allocation,
        count: 1,
        message: '',
        fix: '',
      };
      f.message = messageFor(f);
      f.fix = fixFor(f);
      return f;
    });
  }

  /** a shared offset's array: its name in the kernel (k.shared(..., name)) or the dynamic window */
  private sharedAllocation(off: number): { name: string; offset: number } | null {
    for (const a of this.env.kernel.sharedStatic) if (off >= a.offset && off < a.offset + a.bytes) return { name: a.name, offset: off - a.offset };
    if (off >= this.env.dynamicSharedBase) return { name: 'extern __shared__', offset: off - this.env.dynamicSharedBase };
    return null;
  }

  private site(slot: number, agent: number, lane: number, access: AccessSite['access'], scope: number): AccessSite {
    const m = this.prog?.meta[slot];
    const [bx, by] = this.env.block;
    const [gx, gy] = this.env.grid;
    const blockLinear = Math.floor(agent / this.warpsPerBlock);
    const t = (agent % this.warpsPerBlock) * 32 + lane;
    const sc = SCOPE_OF_CODE[scope];
    return {
      file: reportFileName(m?.file ?? ''),
      line: m?.line ?? 0,
      opcode: m?.opcode ?? '',
      access,
      ...(sc ? { scope: sc } : {}),
      thread: [t % bx, Math.floor(t / bx) % by, Math.floor(t / (bx * by))],
      block: [blockLinear % gx, Math.floor(blockLinear / gx) % gy, Math.floor(blockLinear / (gx * gy))],
    };
  }
}

/** the lanes' values of an address operand (an immediate is the same in every lane) */
function lanes(w: Warp, o: Operand): Float64Array {
  if ('reg' in o) return w.reg(o.reg) as Float64Array;
  return new Float64Array(32).fill(Number(o.imm));
}

/** a fence: the MEMBAR of fence.sc / fence.acq_rel (__threadfence*, atomic_thread_fence), or the one an access with release or seq_cst order starts with */
function fenceInfo(scope: MemScope, opcode: string, file: string, line: number): SlotInfo {
  return { op: 'membar', space: 'global', size: 0, addr: null, read: false, write: false, scope: SCOPE_CODE[scope], order: 'seq_cst', poll: false, rmw: false, from: null, opcode, file, line };
}

function slotInfo(i: Instr, opcode: string, polls: Set<Instr>): SlotInfo | null {
  const base = { opcode, file: i.loc.file, line: i.loc.line, poll: false, rmw: false, from: null };
  switch (i.op) {
    case 'ld': {
      const volatile = i.cache === 'strong' || i.cache === 'cv';
      const scope = i.sem ? SCOPE_CODE[i.sem.scope] : volatile ? SCOPE_CODE.sys : 0;
      return { ...base, op: 'ld', space: i.space, size: elemBytes(i.elem), addr: i.addr, read: true, write: false, scope, order: i.sem?.order ?? 'relaxed', poll: polls.has(i) };
    }
    case 'st': {
      const scope = i.sem ? SCOPE_CODE[i.sem.scope] : i.cache === 'strong' ? SCOPE_CODE.sys : 0;
      return { ...base, op: 'st', space: i.space, size: elemBytes(i.elem), addr: i.addr, read: false, write: true, scope, order: i.sem?.order ?? 'relaxed' };
    }
    case 'atom':
      // atomicAdd & co. without a memory order: relaxed at device scope (cuda::atomic_ref's defaults differ, but carry sem)
      return { ...base, op: 'atom', space: i.space, size: elemBytes(i.type), addr: i.addr, read: true, write: true, scope: SCOPE_CODE[i.sem?.scope ?? 'gpu'], order: i.sem?.order ?? 'relaxed', rmw: true };
    case 'cpasync':
      return { ...base, op: 'cpasync', space: 'shared', size: elemBytes(i.elem), addr: i.to, from: i.from, read: false, write: true, scope: 0, order: 'relaxed' };
    default:
      return null;
  }
}
