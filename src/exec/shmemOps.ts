/**
 * NVSHMEM device operations in the executor (the IR that src/ir/shmem.ts builds): the P2P address
 * translation (`peerptr`, through PeerEnv.translate), remote loads, stores and atomics (executed on
 * the translated address, counted as traffic per peer and kind), NVSHMEM's state (my_pe, n_pes, the
 * barrier area), quiet/fence, the cooperative calls' whole-group check and the collective-launch
 * check. Each IR instruction becomes the SASS instructions NVSHMEM's inline code compiles to on
 * sm_90 (nvcc 13.0, NVSHMEM 3.4.5 headers: test/fidelity/probes/nvshmem_device_sass/), so that
 * instruction counts are those the GPU would run.
 */
import { KernelFault } from '../errors.js';
import type { Instr, Operand } from '../ir/types.js';
import { elemBytes } from '../ir/typesys.js';
import type { Exec } from './codegen.js';
import type { InstrClass } from './compile.js';
import type { ExecEnv } from './env.js';
import { genAtomic, genGlobalAccess, readScalar, threadDesc } from './memOps.js';
import { laneAddrs } from './memoryModel.js';
import type { PeerEnv } from './peerEnv.js';
import type { RegLayout } from './regFile.js';
import { popc, type Warp } from './warp.js';

type Ld = Extract<Instr, { op: 'ld' }>;
type St = Extract<Instr, { op: 'st' }>;
type Atom = Extract<Instr, { op: 'atom' }>;
export type ShmemInstr =
  | Extract<Instr, { op: 'peerptr' }>
  | Extract<Instr, { op: 'shmem' }>
  | Extract<Instr, { op: 'shmemfence' }>
  | Extract<Instr, { op: 'shmemgroup' }>
  | Extract<Instr, { op: 'shmemcollective' }>;

export function isShmem(i: Instr): i is ShmemInstr {
  return i.op === 'peerptr' || i.op === 'shmem' || i.op === 'shmemfence' || i.op === 'shmemgroup' || i.op === 'shmemcollective';
}

/** one SASS instruction of a lowering: its opcode and class; `work` marks the slot that does the operation */
export interface SassStep {
  opcode: string;
  cls: InstrClass;
  /** the slot that executes the instruction (others only count) */
  work?: true;
  /** issued with no thread predicated on: `@!PT LDS RZ, [RZ]`, a branch not taken */
  predOff?: true;
}

const step = (opcode: string, cls: InstrClass, more: Partial<SassStep> = {}): SassStep => ({ opcode, cls, ...more });

/**
 * nvshmemi_p/g & co. over P2P (k_p, k_g in the probe's SASS): the device state's base
 * (LDC.64 c[0x3]), &peer_heap_base_p2p[pe] (IMAD.WIDE), its load (LDG.E.64.CONSTANT, an __ldg), the
 * null test (two ISETPs, a branch not taken), heap_base (ULDC.64) and the 64-bit add (IADD3, IADD3.X).
 * The constant load's L1 request is not counted (the state table is not in emulated memory).
 */
const PEER_PTR: readonly SassStep[] = [
  step('LDC.64', 'move'),
  step('IMAD.WIDE', 'alu'),
  step('LDG.E.64.CONSTANT', 'move'),
  step('ISETP.NE.U32.AND', 'alu'),
  step('ISETP.NE.AND.EX', 'alu'),
  // `@!P0 BRA` to the proxy path: not taken over NVLink (no thread predicated on)
  step('BRA', 'branch', { predOff: true }),
  step('ULDC.64', 'move'),
  step('IADD3', 'alu'),
  step('IADD3.X', 'alu', { work: true }),
];

/**
 * The AMOs' translation (k_aset, k_afetch, k_cswap): the job-connectivity test first (LDC, ISETP.GE,
 * `@!P0 BRA` over the proxy call, taken), then the state base and &peer_heap_base_p2p[pe] (LDC.64,
 * IMAD.WIDE), heap_base (LDC.64), the peer base's load and the 64-bit add; no null test
 */
const AMO_PTR: readonly SassStep[] = [
  step('LDC', 'move'),
  step('ISETP.GE.AND', 'alu'),
  step('BRA', 'branch'),
  step('LDC.64', 'move'),
  step('IMAD.WIDE', 'alu'),
  step('LDC.64', 'move'),
  step('LDG.E.64.CONSTANT', 'move'),
  step('IADD3', 'alu'),
  step('IADD3.X', 'alu', { work: true }),
];

/**
 * nvshmem_quiet / nvshmem_fence on an NVLink-only job (k_quiet, k_fence): the job-connectivity test
 * (LDC, ISETP, a branch), then __threadfence_system(): four predicated-off LDS, MEMBAR.ALL.CTA,
 * MEMBAR.SC.SYS, ERRBAR, CGAERRBAR, CCTL.IVALL
 */
const QUIET: readonly SassStep[] = [
  step('LDC', 'move'),
  step('ISETP.GT.AND', 'alu'),
  // `@P0 BRA` to the transport's quiet: not taken on an NVLink-only job
  step('BRA', 'branch', { predOff: true }),
  step('LDS', 'alu', { predOff: true }),
  step('LDS', 'alu', { predOff: true }),
  step('LDS', 'alu', { predOff: true }),
  step('LDS', 'alu', { predOff: true }),
  // the sequence's cost is measured whole (quiet_empty: src/arch/remoteLink.ts sysFenceNs) and charged
  // at MEMBAR.SC.SYS; the others issue as plain instructions
  step('MEMBAR.ALL.CTA', 'alu'),
  step('MEMBAR.SC.SYS', 'membar', { work: true }),
  step('ERRBAR', 'alu'),
  step('CGAERRBAR', 'alu'),
  step('CCTL.IVALL', 'l2hint'),
];

/** nvshmem_fence (k_fence): the same, but its test is ISETP.GE and `@!P0 BRA` jumps over the transport's call (taken) */
const FENCE: readonly SassStep[] = [step('LDC', 'move'), step('ISETP.GE.AND', 'alu'), step('BRA', 'branch'), ...QUIET.slice(3)];

/** the SASS an NVSHMEM IR instruction lowers to (empty: a check with no instruction of its own) */
export function shmemSteps(i: ShmemInstr): readonly SassStep[] {
  switch (i.op) {
    case 'peerptr':
      return i.amo ? AMO_PTR : PEER_PTR;
    case 'shmem':
      // my_pe / n_pes: one LDC from NVSHMEM's constant bank each (k_mype); the team's pSync pointer likewise
      return [step(i.fn === 'psync' ? 'LDC.64' : 'LDC', 'move', { work: true })];
    case 'shmemfence':
      return i.fn === 'quiet' ? QUIET : FENCE;
    case 'shmemgroup':
    case 'shmemcollective':
      return [step('SYNC', 'pseudo', { work: true })];
  }
}

/** the SASS opcode of a remote access: generic LD/ST/ATOM (the peer address is not known to be global), .STRONG.SYS when volatile or atomic */
export function remoteOpcode(i: Ld | St | Atom): string {
  const bytes = i.op === 'atom' ? elemBytes(i.type) : elemBytes(i.elem);
  const size = bytes === 8 ? '.64' : bytes === 16 ? '.128' : bytes === 4 ? '' : bytes === 2 ? '.U16' : '.U8';
  if (i.op === 'atom') return `ATOM.E.${i.fn === 'exch' ? 'EXCH' : i.fn.toUpperCase()}${size}.STRONG.SYS`;
  const strong = i.cache === 'strong' ? '.STRONG.SYS' : '';
  return `${i.op === 'ld' ? 'LD' : 'ST'}.E${size}${strong}`;
}

function where(i: Instr): string {
  return `${i.loc.file}:${i.loc.line}`;
}

/** lanes as ranges ("0-15, 20") */
function ranges(mask: number): string {
  const out: string[] = [];
  for (let l = 0; l < 32; ) {
    if (((mask >>> l) & 1) === 0) {
      l++;
      continue;
    }
    let e = l;
    while (e + 1 < 32 && ((mask >>> (e + 1)) & 1) === 1) e++;
    out.push(e > l ? `${l}-${e}` : `${l}`);
    l = e + 1;
  }
  return out.join(', ');
}

function peersOf(env: ExecEnv, i: Instr, call: string): PeerEnv {
  if (env.peers) return env.peers;
  throw new KernelFault(
    'invalid-launch',
    `${where(i)}: ${call} in kernel '${env.kernel.name}' runs outside a multi-PE program: NVSHMEM device calls need PEs (run the program on several PEs, e.g. --pes 2)`,
  );
}

/** an operand's value in lane l */
function laneValue(o: Operand, w: Warp, l: number): number {
  if ('imm' in o) return Number(o.imm);
  return Number((w.reg(o.reg) as ArrayLike<number | bigint>)[l]);
}

/** the work slot of a `peerptr`: each active lane's address on its PE */
function genPeerPtr(i: Extract<Instr, { op: 'peerptr' }>, env: ExecEnv): Exec {
  const at = `${where(i)}: ${i.call} in kernel '${env.kernel.name}'`;
  return (w: Warp) => {
    const m = w.mask;
    if (m === 0) return;
    const peers = peersOf(env, i, i.call);
    const dst = w.reg(i.dst) as Float64Array;
    for (let l = 0; l < 32; l++) {
      if (((m >>> l) & 1) === 0) continue;
      const pe = laneValue(i.pe, w, l);
      const bytes = laneValue(i.bytes, w, l);
      dst[l] = peers.translate(laneValue(i.addr, w, l), bytes, pe, () => `${at}, ${threadDesc(w, l, env)}`);
    }
  };
}

/**
 * A remote load, store or atomic: the access itself as a global one on the translated address (its
 * requests, sectors and bytes are the SM's L1TEX traffic), without the local L1/L2 (the data lives in
 * the peer's memory); then its traffic per peer (PeerEnv.traffic), one call per peer the lanes address.
 */
export function genRemote(i: Ld | St | Atom, index: number, env: ExecEnv, layout: RegLayout): Exec {
  const remote = i.remote;
  if (!remote) throw new Error('genRemote of a local access');
  const local: ExecEnv = { ...env, memsys: null };
  const access = i.op === 'atom' ? genAtomic(i, index, local) : genGlobalAccess(i, index, local, layout);
  const size = i.op === 'atom' ? elemBytes(i.type) : elemBytes(i.elem);
  const pe = remote.pe;
  const isAtomic = i.op === 'atom';
  const perPe = new Float64Array(0);
  let bytesTo = perPe;
  const timed = i.op === 'ld' ? null : timedWrite(i, env);
  return (w: Warp) => {
    const m = w.mask;
    if (m === 0) return;
    const peers = peersOf(env, i, remote.call);
    const sectorsBefore = env.counters.sectors[index] as number;
    timed?.before(w);
    access(w);
    // genAtomic tells the timing model nothing (a local atomic's cost is its issue); a remote one's is the link's
    if (isAtomic && env.observer) {
      const n = (env.counters.sectors[index] as number) - sectorsBefore;
      env.observer.memory(w, index, null, n, n);
    }
    timed?.after(w);
    if ('imm' in pe) {
      peers.traffic(remote.kind, Number(pe.imm), popc(m) * size);
      return;
    }
    if (bytesTo.length !== peers.nPes) bytesTo = new Float64Array(peers.nPes);
    const r = w.reg(pe.reg) as Int32Array;
    for (let l = 0; l < 32; l++) if ((m >>> l) & 1) bytesTo[r[l] as number] = (bytesTo[r[l] as number] as number) + size;
    for (let p = 0; p < bytesTo.length; p++) {
      const b = bytesTo[p] as number;
      if (b === 0) continue;
      peers.traffic(remote.kind, p, b);
      bytesTo[p] = 0;
    }
  };
}

/**
 * A remote scalar store's or atomic's arrival at the peer (remoteArrivals.ts): the values it replaces
 * are noted before it runs, and after it, when it reaches the peer's memory on the system's clock.
 * Null without the program's arrivals, the launch's start or the timing model (writes visible at once).
 */
function timedWrite(i: St | Atom, env: ExecEnv): { before(w: Warp): void; after(w: Warp): void } | null {
  const peers = env.peers;
  const arrivals = peers?.arrivals;
  const startNs = peers?.startNs;
  const obs = env.observer;
  const elem = i.op === 'atom' ? i.type : i.elem;
  if (!arrivals || startNs === undefined || !obs || !env.syncVersions || elem.tag !== 'scalar') return null;
  const olds: (number | bigint)[] = new Array(32);
  const addrs = laneAddrs(i.addr);
  return {
    before: (w) => {
      const a = addrs(w);
      const m = w.mask;
      for (let l = 0; l < 32; l++) if ((m >>> l) & 1) olds[l] = readScalar(env, a[l] as number, elem);
    },
    after: (w) => {
      // the timing model is filled in after compilation: its hooks are looked up here
      if (!obs.atL2 || !obs.timerNs) return;
      const at = startNs + obs.timerNs(obs.atL2(w));
      const a = addrs(w);
      const m = w.mask;
      for (let l = 0; l < 32; l++) if ((m >>> l) & 1) arrivals.record(a[l] as number, olds[l] as number | bigint, at);
    },
  };
}

/** per call site of a _block operation and per block: which warps came, and how many went on */
interface BlockCall {
  arrived: number;
  passed: number;
  /** warps that came to the site's next call while this one was still being left */
  next: number;
}

/** the work slot of an NVSHMEM state read, check or fence */
export function genShmem(i: ShmemInstr, env: ExecEnv): Exec {
  switch (i.op) {
    case 'peerptr':
      return genPeerPtr(i, env);
    case 'shmem': {
      const call = i.fn === 'psync' ? 'nvshmem_barrier_all' : `nvshmem_${i.fn}`;
      return (w: Warp) => {
        const peers = peersOf(env, i, call);
        let v: number;
        if (i.fn === 'my_pe') v = peers.myPe;
        else if (i.fn === 'n_pes') v = peers.nPes;
        else {
          if (peers.barrierArea === undefined)
            throw new KernelFault('invalid-launch', `${where(i)}: ${call} in kernel '${env.kernel.name}': the PEs have no NVSHMEM barrier area (PeerEnv.barrierArea); the program's PEs were set up without nvshmem_init`);
          v = peers.barrierArea;
        }
        (w.reg(i.dst) as Int32Array | Float64Array).fill(v);
      };
    }
    case 'shmemfence':
      // over NVLink the data of puts and AMOs is in the peer's memory when the store executes: quiet
      // and fence order nothing more in the emulator; their cost is the fence's (timing model)
      return () => {};
    case 'shmemcollective':
      return (w: Warp) => {
        if (w.mask === 0) return;
        peersOf(env, i, i.call);
        if (env.peers?.collective !== true)
          throw new KernelFault(
            'invalid-launch',
            `${where(i)}: device barrier outside a collective launch: ${i.call} in kernel '${env.kernel.name}' needs every PE's grid co-resident; launch the kernel with nvshmemx_collective_launch, or synchronise on the host (nvshmemx_barrier_all_on_stream) between kernels`,
          );
      };
    case 'shmemgroup':
      return i.scope === 'warp' || i.phase === 'enter' ? genGroupEnter(i, env) : genGroupCheck(i, env);
  }
}

const calls = new WeakMap<ExecEnv, Map<number, Map<number, BlockCall>>>();

function blockCalls(env: ExecEnv, site: number): Map<number, BlockCall> {
  let sites = calls.get(env);
  if (!sites) {
    sites = new Map();
    calls.set(env, sites);
  }
  let m = sites.get(site);
  if (!m) {
    m = new Map();
    sites.set(site, m);
  }
  return m;
}

function blockName(w: Warp): string {
  return `block (${w.ctaX},${w.ctaY},${w.ctaZ})`;
}

/** a _warp call, or a warp's arrival at a _block call: the whole warp must call it */
function genGroupEnter(i: Extract<Instr, { op: 'shmemgroup' }>, env: ExecEnv): Exec {
  const what = i.scope === 'warp' ? 'a _warp operation must be called by all 32 threads of the warp' : 'a _block operation must be called by all threads of the block';
  return (w: Warp) => {
    if (w.mask === 0) return;
    const missing = w.valid & ~w.mask;
    if (missing !== 0)
      throw new KernelFault(
        'bad-mask',
        `${where(i)}: ${i.call} called by part of a warp in kernel '${env.kernel.name}': lanes ${ranges(w.mask)} of warp ${w.warpInBlock} of ${blockName(w)} called it, lanes ${ranges(missing)} did not (exited or on another path); ${what} (NVSHMEM: "needs to be called by all threads")`,
      );
    if (i.scope !== 'block') return;
    const st = blockCalls(env, i.site);
    let c = st.get(w.blockLinear);
    if (!c) {
      c = { arrived: 0, passed: 0, next: 0 };
      st.set(w.blockLinear, c);
    }
    if (c.passed > 0) c.next |= 1 << w.warpInBlock;
    else c.arrived |= 1 << w.warpInBlock;
  };
}

/** after a _block call's __syncthreads(): every warp of the block must have come */
function genGroupCheck(i: Extract<Instr, { op: 'shmemgroup' }>, env: ExecEnv): Exec {
  const [bx, by, bz] = env.block;
  const warps = Math.ceil((bx * by * bz) / 32);
  const all = warps >= 32 ? -1 : (1 << warps) - 1;
  return (w: Warp) => {
    if (w.mask === 0) return;
    const st = blockCalls(env, i.site);
    const c = st.get(w.blockLinear);
    const arrived = c ? c.arrived : 0;
    if ((arrived | 0) !== all) {
      const missing = all & ~arrived;
      const list: number[] = [];
      for (let b = 0; b < warps; b++) if ((missing >>> b) & 1) list.push(b);
      const named = ranges(missing);
      throw new KernelFault(
        'bad-mask',
        `${where(i)}: ${i.call} called by part of ${blockName(w)} in kernel '${env.kernel.name}': warp${list.length === 1 ? '' : 's'} ${named} (threads ${list.map((b) => `${b * 32}-${Math.min(bx * by * bz, b * 32 + 32) - 1}`).join(', ')}) did not call it (exited or on another path); a _block operation must be called by all threads of the block (NVSHMEM: "needs to be called by all threads")`,
      );
    }
    if (!c) return;
    c.passed++;
    if (c.passed === popc(c.arrived)) {
      c.arrived = c.next;
      c.next = 0;
      c.passed = 0;
      if (c.arrived === 0) st.delete(w.blockLinear);
    }
  };
}
