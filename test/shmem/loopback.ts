/**
 * A loopback "2-PE" for NVSHMEM device operations without the system layer: the kernel runs as PE 0
 * of `nPes`; each symmetric object has a copy per PE in one device memory, and the PeerEnv's
 * translate maps PE 0's address of an object to PE j's copy, as NVSHMEM's P2P path maps it to the
 * peer's heap. Traffic is recorded per kind and peer. Only PE 0's kernel runs: what another PE
 * would write, a test writes into that PE's copy before the launch.
 */
import { getArch } from '../../src/arch/index.js';
import { KernelFault } from '../../src/errors.js';
import { compile, type Program } from '../../src/exec/compile.js';
import { InstrCounters } from '../../src/exec/counters.js';
import type { ExecEnv } from '../../src/exec/env.js';
import { barrierAreaBytes, siteText, type PeerEnv } from '../../src/exec/peerEnv.js';
import { runGrid } from '../../src/exec/scheduler.js';
import type { ScalarType } from '../../src/ir/types.js';
import { elemBytes } from '../../src/ir/typesys.js';
import { Host } from '../../src/kernel/host.js';
import type { Dim3, KernelDef } from '../../src/kernel/define.js';
import { DeviceMemory, type DevicePtr } from '../../src/memory/deviceMemory.js';
import { buildKernel } from '../../src/profile/launch.js';
import type { RemoteLink } from '../../src/arch/remoteLink.js';
import { createTimingModel } from '../../src/timing/model.js';

/** one symmetric object: its copy on each PE */
export interface Symmetric {
  copies: DevicePtr[];
  bytes: number;
}

export interface LoopbackRun {
  prog: Program;
  counters: InstrCounters;
  warpInstructions: number;
  /** the timing model's metrics, when run with a link */
  metrics?: Record<string, number>;
}

export class Loopback {
  readonly mem = new DeviceMemory();
  readonly host = new Host(this.mem);
  private readonly objects: Symmetric[] = [];
  /** bytes per `${kind} ${pe}` */
  readonly traffic = new Map<string, number>();
  /** traffic calls (each a remote instruction's bytes to one peer) */
  trafficCalls = 0;
  readonly barrier: Symmetric;

  constructor(readonly nPes = 2) {
    const words = barrierAreaBytes(nPes) / 8;
    this.barrier = this.symmetric({ tag: 'scalar', kind: 'i64' }, words, 'nvshmem_psync');
  }

  /** nvshmem_malloc: a copy on every PE (the kernel, PE 0, names the first) */
  symmetric(type: ScalarType, count: number, name: string, init?: (pe: number, i: number) => number | bigint): Symmetric {
    const copies = Array.from({ length: this.nPes }, (_, pe) => this.host.alloc(type, count, `${name}@pe${pe}`, init ? (i: number) => init(pe, i) : undefined));
    const s = { copies, bytes: count * elemBytes(type) };
    this.objects.push(s);
    return s;
  }

  peers(collective: boolean): PeerEnv {
    const self = this;
    return {
      myPe: 0,
      nPes: this.nPes,
      collective,
      barrierArea: this.barrier.copies[0]?.address as number,
      translate(address: number, bytes: number, pe: number, site: string | (() => string)): number {
        const where = siteText(site);
        if (!Number.isInteger(pe) || pe < 0 || pe >= self.nPes) throw new KernelFault('out-of-bounds', `${where}: PE ${pe} does not exist (the program has ${self.nPes} PEs)`);
        const o = self.objects.find((s) => address >= (s.copies[0] as DevicePtr).address && address < (s.copies[0] as DevicePtr).address + s.bytes);
        if (!o) throw new KernelFault('out-of-bounds', `${where}: address 0x${address.toString(16)} is not in the symmetric heap`);
        const off = address - (o.copies[0] as DevicePtr).address;
        if (off + bytes > o.bytes) throw new KernelFault('out-of-bounds', `${where}: ${bytes} bytes at offset ${off} leave the ${o.bytes}-byte symmetric object`);
        return (o.copies[pe] as DevicePtr).address + off;
      },
      traffic(kind: string, pe: number, bytes: number): void {
        const key = `${kind} ${pe}`;
        self.traffic.set(key, (self.traffic.get(key) ?? 0) + bytes);
        self.trafficCalls++;
      },
    };
  }

  /** run `def` as PE 0 with the given pointer/scalar arguments */
  run(
    def: KernelDef,
    file: string,
    args: Record<string, DevicePtr | number | bigint>,
    grid: Dim3,
    block: Dim3,
    opts: { collective?: boolean; maxWarpInstructions?: number; peers?: boolean; link?: RemoteLink; blocksPerSm?: number } = {},
  ): LoopbackRun {
    const ir = buildKernel(def, file);
    const counters = new InstrCounters(4096);
    const env: ExecEnv = {
      kernel: ir,
      mem: this.mem,
      memsys: null,
      counters,
      args: Object.fromEntries(Object.entries(args).map(([k, v]) => [k, typeof v === 'object' ? v.address : v])),
      grid,
      block,
      dynamicSharedBase: Math.ceil(ir.sharedStaticBytes / 16) * 16,
      sharedBytes: Math.ceil(ir.sharedStaticBytes / 16) * 16,
      barrier: () => {
        throw new Error('barrier handler not installed');
      },
      // with a link: the timing model (compiled code holds this object, filled in below)
      observer: opts.link ? { issue: () => {}, memory: () => {} } : null,
      ...(opts.peers === false ? {} : { peers: this.peers(opts.collective ?? false) }),
    };
    const prog = compile(ir, env);
    const arch = getArch('h200');
    const blocksPerSm = opts.blocksPerSm ?? 1;
    const timing = opts.link ? createTimingModel(arch, { grid, block, blocksPerSm, kernel: ir, meta: prog.meta, remote: opts.link }) : null;
    if (timing) Object.assign(env.observer as object, timing.observer);
    const stats = runGrid(prog, env, { smCount: arch.smCount, blocksPerSm, quantum: 64, maxWarpInstructions: opts.maxWarpInstructions ?? 1_000_000 });
    return { prog, counters, warpInstructions: stats.warpInstructions, ...(timing ? { metrics: timing.finish({ sharedWavefronts: 0, lsuMiscInstructions: 0, aduInstructions: 0 }) } : {}) };
  }
}

/** warp-level executions per SASS opcode (inst_executed by opcode) */
export function opcodeCounts(r: LoopbackRun): Map<string, number> {
  const out = new Map<string, number>();
  r.prog.meta.forEach((m, s) => {
    if (!m.counted) return;
    const n = r.counters.inst[s] as number;
    if (n > 0) out.set(m.opcode, (out.get(m.opcode) ?? 0) + n);
  });
  return out;
}

/** warp-level executions of the slots lowered from source line `line` */
export function lineInstructions(r: LoopbackRun, line: number): number {
  let n = 0;
  r.prog.meta.forEach((m, s) => {
    if (m.counted && m.line === line) n += r.counters.inst[s] as number;
  });
  return n;
}
