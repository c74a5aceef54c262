/**
 * The PTX memory model as the H200 runs it, for the compiler and the executor:
 *
 *  - what each scoped operation becomes in SASS (nvcc 13 for sm_90, measured: shared/reference/
 *    runtime-system.md §9.2 and test/fidelity/probes/memmodel/memmodel_probe_sass.txt.gz): a release
 *    is `MEMBAR.ALL.<scope>; ERRBAR; CGAERRBAR` before a strong access, an acquire at gpu or sys scope
 *    is `CCTL.IVALL` (invalidate the SM's L1) after it, seq_cst puts a full fence.sc
 *    (`MEMBAR.SC.<scope>; ERRBAR; CGAERRBAR; CCTL.IVALL`) in front; block scope needs no L1
 *    invalidation (the L1 is the block's point of coherence) and its fences are MEMBAR.*.CTA alone;
 *  - strong (atomic or volatile) global accesses at gpu or sys scope do not hit in L1, and a
 *    CCTL.IVALL drops the SM's L1 lines, so that a later weak load misses (the hierarchy does both);
 *  - timed visibility: the interpreter runs warps in turns, not in time order, so a store can run
 *    before a load that in time comes before it. For the locations written by strong stores (flags),
 *    the value a strong load of another warp reads is the one visible at the L2 when the load gets
 *    there: a store's new value becomes visible when the store reaches the L2 (the timing model says
 *    when), and until then other warps read the old one. A warp that polls waits its turn while it is
 *    ahead in time of every other warp that can run (ExecEnv.hold), so its polls are as many as the
 *    time it waits allows, as on the GPU.
 */
import type { Instr, MemScope, MemSemantics } from '../ir/types.js';
import type { ExecEnv, ExecObserver } from './env.js';
import type { RegArray } from './regFile.js';
import type { Warp } from './warp.js';

/** a compiled slot's part in the memory model, for the timing model */
export type MemModelRole =
  /** MEMBAR.{SC,ALL}.<scope>: waits for the writes in flight it orders (`sc`: fence.sc) */
  | { role: 'membar'; scope: MemScope; sc: boolean }
  /** CCTL.IVALL; `afterMembar`: right behind the MEMBAR of a fence (it waits for the MEMBAR's drain) */
  | { role: 'ivall'; afterMembar: boolean }
  /** ERRBAR / CGAERRBAR behind a MEMBAR */
  | { role: 'errbar' }
  /** NANOSLEEP */
  | { role: 'sleep' };

/** one extra SASS instruction around a lowered memory-model operation */
export interface ExtraSlot {
  opcode: string;
  mm: MemModelRole;
}

/** SASS scope suffix of strong accesses (.STRONG.SM / .GPU / .SYS) */
export function strongSuffix(scope: MemScope): string {
  return scope === 'cta' ? 'SM' : scope === 'gpu' ? 'GPU' : 'SYS';
}

/** a fence as SASS: fence.sc / fence.acq_rel (and the release half of an access) at a scope */
export function fenceSlots(scope: MemScope, kind: 'sc' | 'acq_rel' | 'release'): ExtraSlot[] {
  const sc = kind === 'sc';
  const membar: ExtraSlot = { opcode: `MEMBAR.${sc ? 'SC' : 'ALL'}.${scope.toUpperCase()}`, mm: { role: 'membar', scope, sc } };
  // a block-scope fence is the MEMBAR alone (fence.acq_rel.cta: MEMBAR.ALL.CTA)
  if (scope === 'cta') return [membar];
  const out: ExtraSlot[] = [membar, { opcode: 'ERRBAR', mm: { role: 'errbar' } }, { opcode: 'CGAERRBAR', mm: { role: 'errbar' } }];
  if (kind !== 'release') out.push({ opcode: 'CCTL.IVALL', mm: { role: 'ivall', afterMembar: true } });
  return out;
}

/** the acquire half of an access: an L1 invalidation at gpu/sys scope */
function acquireSlots(scope: MemScope): ExtraSlot[] {
  return scope === 'cta' ? [] : [{ opcode: 'CCTL.IVALL', mm: { role: 'ivall', afterMembar: false } }];
}

/** the SASS before and after an atomic load, store or read-modify-write with memory order and scope */
export function semSlots(op: 'ld' | 'st' | 'atom', sem: MemSemantics): { pre: ExtraSlot[]; post: ExtraSlot[] } {
  const { order, scope } = sem;
  const pre: ExtraSlot[] = order === 'seq_cst' ? fenceSlots(scope, 'sc') : order === 'release' || order === 'acq_rel' ? fenceSlots(scope, 'release') : [];
  const acquires = op !== 'st' && (order === 'acquire' || order === 'acq_rel' || order === 'seq_cst');
  return { pre, post: acquires ? acquireSlots(scope) : [] };
}

/** the opcode of a strong global access (atomic_ref's generic LD/ST, a volatile LDG/STG, ATOMG/REDG) */
export function strongOpcode(i: Extract<Instr, { op: 'ld' | 'st' | 'atom' }>, sizeSuffix: string): string | null {
  if (i.space !== 'global') return null;
  if (i.op === 'atom') {
    if (!i.sem) return null;
    return `${i.dst === null ? 'REDG' : 'ATOMG'}.E.${i.fn.toUpperCase()}.STRONG.${strongSuffix(i.sem.scope)}`;
  }
  const base = i.op === 'ld' ? 'LD' : 'ST';
  // libcu++'s atomic_ref uses generic addressing (LD/ST); a volatile access through a global pointer is LDG/STG
  if (i.sem) return `${base}.E${sizeSuffix}.STRONG.${strongSuffix(i.sem.scope)}`;
  if (i.cache === 'strong') return `${base}G.E${sizeSuffix}.STRONG.SYS`;
  return null;
}

/** the scope a global access synchronises at (atomic or volatile: strong), or null for a weak one */
export function syncScope(i: Instr): MemScope | null {
  if ((i.op === 'ld' || i.op === 'st' || i.op === 'atom') && i.space === 'global') {
    if (i.sem) return i.sem.scope;
    if (i.op !== 'atom' && i.cache === 'strong') return 'sys';
  }
  return null;
}

// ---- timed visibility of strongly written locations ---------------------------------------------

interface Version {
  /** the value before the latest strong store (what other warps read until `visible`) */
  old: number | bigint;
  /** when the latest store reached the L2 (cycles) */
  visible: number;
  /** the storing warp (Warp.id) and its block: they see their own store at once */
  writer: number;
  writerBlock: number;
}

/** instructions between two polls of one wait loop at most (a poll, its test, the branch back; wait_until_all's loop over its ivars) */
const POLL_LOOP_STEPS = 64;

/** entries kept before the old ones are dropped (a flag or two per kernel is the usual) */
const VERSIONS_KEPT = 4096;

/**
 * The last strong store to each address, with the value it replaced: a strong load that reaches the L2
 * before the store did reads the replaced value. Bounded: beyond VERSIONS_KEPT addresses the entries
 * whose store is oldest go (their readers are long past them).
 */
export class SyncVersions {
  private readonly map = new Map<number, Version>();
  /** strong loads that read the same value at the same address as the warp's previous strong load: polls that found nothing new */
  repeats = 0;
  /** per warp (Warp.id): the address and value of its last strong load's first active lane */
  private readonly last = new Map<number, { addr: number; value: number | bigint }>();

  /** a warp's strong load of `value` at `addr`: counts it when it repeats the warp's previous one */
  polled(w: Warp, addr: number, value: number | bigint): void {
    const l = this.last.get(w.id);
    if (l === undefined) this.last.set(w.id, { addr, value });
    else {
      if (l.addr === addr && l.value === value) this.repeats++;
      l.addr = addr;
      l.value = value;
    }
  }

  record(addr: number, old: number | bigint, visible: number, w: Warp): void {
    const v = this.map.get(addr);
    if (v) {
      this.map.delete(addr);
      v.old = old;
      v.visible = visible;
      v.writer = w.id;
      v.writerBlock = w.blockLinear;
      this.map.set(addr, v);
    } else this.map.set(addr, { old, visible, writer: w.id, writerBlock: w.blockLinear });
    if (this.map.size > VERSIONS_KEPT) {
      const first = this.map.keys().next();
      if (!first.done) this.map.delete(first.value);
    }
  }

  /** the value a load by `w` reaching the L2 at `at` reads at `addr`, or undefined for memory's */
  read(addr: number, at: number, w: Warp): number | bigint | undefined {
    const v = this.map.get(addr);
    if (!v || at >= v.visible || v.writer === w.id) return undefined;
    return v.old;
  }

  get size(): number {
    return this.map.size;
  }
}

/** the active lanes' addresses (a register of pointers, or an immediate address) */
export function laneAddrs(op: { reg: number } | { imm: number | bigint }): (w: Warp) => ArrayLike<number> {
  if ('reg' in op) {
    const r = op.reg;
    return (w) => w.reg(r) as Float64Array;
  }
  const a = new Float64Array(32).fill(Number(op.imm));
  return () => a;
}

type Exec = (w: Warp) => void;

/**
 * A strong global store or load with timed visibility (see the module comment): a store records the
 * values it replaces and when it reached the L2; a load by another warp that reached the L2 earlier
 * reads the replaced value. `read(addr)` is the current value in memory (for the store's record).
 */
export function withTimedVisibility(
  i: Extract<Instr, { op: 'ld' | 'st' }>,
  run: Exec,
  env: ExecEnv,
  read: (addr: number) => number | bigint,
): Exec {
  const versions = env.syncVersions;
  const obs = env.observer;
  if (!versions || !obs || i.elem.tag !== 'scalar') return run;
  // the timing model fills the observer in after compilation: its hooks are looked up at run time
  const atL2 = (w: Warp): number => (obs.atL2 ? obs.atL2(w) : 0);
  const addrs = laneAddrs(i.addr);
  if (i.op === 'st') {
    const olds: (number | bigint)[] = new Array(32);
    return (w: Warp) => {
      const m = w.mask;
      if (m === 0) return;
      const a = addrs(w);
      for (let l = 0; l < 32; l++) if ((m >>> l) & 1) olds[l] = read(a[l] as number);
      run(w);
      const vis = atL2(w);
      for (let l = 0; l < 32; l++) if ((m >>> l) & 1) versions.record(a[l] as number, olds[l] as number | bigint, vis, w);
    };
  }
  const dst = i.dsts[0] as number;
  // a PE's loads also see remote writes when they arrive (remoteArrivals.ts)
  const arrivals = env.peers?.arrivals;
  const startNs = env.peers?.startNs;
  const remote = arrivals && startNs !== undefined ? arrivals : null;
  /** per warp: its polls' current run of one value at one address, and when the run's first poll reached the L2 */
  const runs = new Map<number, { addr: number; value: number | bigint; since: number; repeats: number; steps: number }>();
  return (w: Warp) => {
    run(w);
    const m = w.mask;
    if (m === 0) return;
    w.polled = true;
    const a = addrs(w);
    const first = 31 - Math.clz32(m & -m);
    if (remote !== null && obs.timerNs) {
      const at = (startNs as number) + obs.timerNs(atL2(w));
      let regs: RegArray | null = null;
      let pending = false;
      for (let l = 0; l < 32; l++) {
        if (((m >>> l) & 1) === 0) continue;
        const old = remote.read(a[l] as number, at);
        if (old === undefined) continue;
        regs ??= w.reg(dst) as RegArray;
        regs[l] = old as never;
        w.readOld = true;
        pending = true;
      }
      // a poll that finds nothing new and nothing on its way costs no time: the interpreter spins a
      // while before it finds the warp parked, and resumes it only once the writer has run; the warp
      // stays at its wait's first poll, and a write that arrives later is waited for by polling
      // (above), so that the wait ends when the write arrives
      const addr = a[first] as number;
      const value = (w.reg(dst) as RegArray)[first] as number | bigint;
      w.peerRead = !pending && remote.arrivedAt(addr, at) !== undefined;
      const run = runs.get(w.id);
      if (run !== undefined && run.addr === addr && run.value === value && w.steps - run.steps <= POLL_LOOP_STEPS) {
        if (!pending && obs.rewind) {
          obs.rewind(w, atL2(w) - run.since, false);
          w.lookSoon = true;
        }
        run.repeats++;
        run.steps = w.steps;
      } else {
        if (run !== undefined && run.repeats > 0 && obs.rewind) obs.rewind(w, 0, true);
        runs.set(w.id, { addr, value, since: atL2(w), repeats: 0, steps: w.steps });
      }
    }
    if (versions.size > 0) {
      const at = atL2(w);
      let regs: RegArray | null = null;
      for (let l = 0; l < 32; l++) {
        if (((m >>> l) & 1) === 0) continue;
        const old = versions.read(a[l] as number, at, w);
        if (old === undefined) continue;
        regs ??= w.reg(dst) as RegArray;
        regs[l] = old as never;
        w.readOld = true;
      }
    }
    versions.polled(w, a[first] as number, (w.reg(dst) as RegArray)[first] as number | bigint);
  };
}

/** CCTL.IVALL: the SM's L1 lines are invalidated */
export function genInvalidateL1(env: ExecEnv): Exec {
  const memsys = env.memsys;
  return (w: Warp) => {
    if (w.mask !== 0 && memsys?.invalidateL1) memsys.invalidateL1(w.sm);
  };
}

/** NANOSLEEP: the longest sleep of the warp's active lanes (the warp sleeps as one) */
export function genNanosleep(i: Extract<Instr, { op: 'nanosleep' }>, env: ExecEnv): Exec {
  const obs = env.observer;
  const ns = i.ns;
  return (w: Warp) => {
    const m = w.mask;
    if (m === 0 || !obs?.sleep) return;
    // a sleeping warp waits for time: it must not run ahead of the warps it waits for
    w.slept = true;
    let most = 0;
    if ('imm' in ns) most = Number(ns.imm) >>> 0;
    else {
      const r = w.reg(ns.reg) as RegArray;
      for (let l = 0; l < 32; l++) if ((m >>> l) & 1) most = Math.max(most, Number(r[l]) >>> 0);
    }
    obs.sleep(w, most);
  };
}

/**
 * %globaltimer: the warp's clock in the timing model as nanoseconds; without a timing model, the
 * warp's instruction count (a clock that only moves forward, as code that measures time needs)
 */
export function genGlobalTimer(i: Extract<Instr, { op: 'globaltimer' }>, env: ExecEnv): Exec {
  const obs: ExecObserver | null = env.observer;
  const dst = i.dst;
  return (w: Warp) => {
    const m = w.mask;
    if (m === 0) return;
    const t = obs?.clockOf && obs.timerNs ? obs.timerNs(obs.clockOf(w)) : w.steps;
    // a warp that reads the timer waits for time (a back-off loop): it is held back like a sleeper
    w.slept = true;
    const r = w.reg(dst) as BigInt64Array;
    const v = BigInt(Math.floor(t));
    for (let l = 0; l < 32; l++) if ((m >>> l) & 1) r[l] = v;
  };
}

/**
 * ExecEnv.hold: a warp whose last turn polled (a strong load), slept or read the timer waits while its
 * clock is ahead of every other warp that can issue, so that what it polls for can be written in time
 * before its next poll, and so that a sleeping warp does not run far ahead in time of the others (the
 * timing model keeps its calendars from the slowest live warp on: the gap is what costs memory).
 */
export function pollHold(obs: ExecObserver): ((w: Warp) => boolean) | undefined {
  const clockOf = obs.clockOf?.bind(obs);
  const minOther = obs.minRunningClock?.bind(obs);
  if (!clockOf || !minOther) return undefined;
  return (w: Warp) => {
    if (!w.polled && !w.slept) return false;
    const c = clockOf(w);
    // a poller does not wait for warps that spin without effect (the parked watch's): if every warp
    // is one, that is a deadlock to report, not a wait. A sleeper waits for them too: they poll for
    // what it may write once it wakes, and it must not leave them far behind in time
    if (w.polled && c > minOther(w)) return true;
    if (w.slept && c > minOther(w, true)) return true;
    w.polled = false;
    w.slept = false;
    return false;
  };
}
