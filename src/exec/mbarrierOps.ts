/**
 * mbarrier objects in shared memory (cuda::barrier; src/ir/mbarrier.ts): 8 bytes, the first word the
 * arrivals still expected in the current phase, the second the expected count * 2 + the phase bit.
 * An arrival takes one from the pending count; the last one of a phase flips the phase and re-arms the
 * count. A token is the phase the thread arrived in; a try_wait is true once the phase has moved on.
 * Lanes act in lane order, as the atomics do.
 */
import { KernelFault } from '../errors.js';
import type { Instr } from '../ir/types.js';
import type { Page } from '../memory/deviceMemory.js';
import type { Exec } from './codegen.js';
import type { ExecEnv } from './env.js';
import { threadDesc } from './memOps.js';
import type { RegArray } from './regFile.js';
import type { Warp } from './warp.js';

type MbarInstr = Extract<Instr, { op: 'mbarinit' }> | Extract<Instr, { op: 'mbararrive' }> | Extract<Instr, { op: 'mbartest' }>;

/** the most arrivals a phase may expect (PTX mbarrier: the count is 20 bits) */
const MAX_COUNT = (1 << 20) - 1;

export function genMbarrier(i: MbarInstr, env: ExecEnv): Exec {
  const where = `${i.loc.file}:${i.loc.line}`;
  const addrReg = 'reg' in i.addr ? i.addr.reg : -1;
  const addrImm = 'imm' in i.addr ? Number(i.addr.imm) : 0;
  const fault = (w: Warp, l: number, why: string): never => {
    throw new KernelFault('out-of-bounds', `${where}: ${why} by ${threadDesc(w, l, env)} in kernel '${env.kernel.name}'`);
  };
  return (w: Warp) => {
    const m = w.mask;
    if (m === 0) return;
    const words = (w.shared as Page).i32;
    const a = addrReg >= 0 ? (w.reg(addrReg) as RegArray) : null;
    for (let l = 0; l < 32; l++) {
      if (((m >>> l) & 1) === 0) continue;
      const off = a ? Number(a[l]) : addrImm;
      if (!(off >= 0 && off + 8 <= env.sharedBytes && off % 8 === 0)) fault(w, l, `mbarrier at shared offset ${off} is outside the block's ${env.sharedBytes} bytes of shared memory or not 8-byte aligned`);
      const at = off >> 2;
      if (i.op === 'mbarinit') {
        const c = 'reg' in i.count ? Number((w.reg(i.count.reg) as RegArray)[l]) >>> 0 : Number(i.count.imm);
        if (!(c >= 1 && c <= MAX_COUNT)) fault(w, l, `mbarrier init with count ${c}: the count of arrivals is 1 to ${MAX_COUNT}`);
        words[at] = c;
        words[at + 1] = c * 2;
        continue;
      }
      const state = words[at + 1] as number;
      const phase = state & 1;
      if (i.op === 'mbartest') {
        const tok = 'reg' in i.token ? BigInt((w.reg(i.token.reg) as BigInt64Array)[l] as bigint) : BigInt(i.token.imm);
        (w.reg(i.dst) as Int32Array)[l] = BigInt(phase) !== BigInt.asUintN(1, tok) ? 1 : 0;
        continue;
      }
      if (state >>> 1 === 0) fault(w, l, `arrive on an mbarrier that was not initialised (init(&bar, count) in one thread, then __syncthreads(), before any arrive)`);
      (w.reg(i.dst) as BigInt64Array)[l] = BigInt(phase);
      const pending = (words[at] as number) - 1;
      if (pending === 0) {
        words[at] = state >>> 1;
        words[at + 1] = state ^ 1;
      } else words[at] = pending;
    }
  };
}
