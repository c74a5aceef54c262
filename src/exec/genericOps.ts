/**
 * Loads and stores through generic pointers (SASS LD/ST): each thread's address is shared when it lies
 * in the shared window (GENERIC_SHARED_WINDOW), else global, and the hardware serves each part as the
 * access of its space. ncu counts them so: on the H200 a generic load whose threads all point to
 * global memory counts in smsp__sass_inst_executed_op_global_ld with its requests and sectors, one whose
 * threads point to shared memory in op_shared_ld with its wavefronts (test/fidelity/probes/cudaparts,
 * gen); this ncu has no op_generic counters.
 *
 * The emulator runs the global lanes through genGlobalAccess and the shared ones through
 * genSharedAccess (their offsets put in the instruction's shadow register first); an execution with
 * shared lanes adds one to the slot's sharedExec, which kernelMetrics moves from the global counts to
 * the shared ones. A warp whose lanes point to both counts in both (an execution of each).
 * Timing: a shared part reports no memory event (the slot is timed as a global access; the result's
 * latency stays the global placeholder) [approximation].
 */
import { GENERIC_SHARED_WINDOW as WIN, GENERIC_SHARED_WINDOW_BYTES as WIN_BYTES, type Instr, type PtrType } from '../ir/types.js';
import type { Exec } from './codegen.js';
import type { ExecEnv } from './env.js';
import { genGlobalAccess, genSharedAccess } from './memOps.js';
import type { RegArray, RegLayout } from './regFile.js';
import type { Warp } from './warp.js';

type GenericLd = Extract<Instr, { op: 'ld' }>;
type GenericSt = Extract<Instr, { op: 'st' }>;

export function genGenericAccess(i: GenericLd | GenericSt, index: number, env: ExecEnv, layout: RegLayout): Exec {
  const shadow = i.shadow;
  if (shadow === undefined) throw new Error(`generic ${i.op} at ${i.loc.file}:${i.loc.line} has no shadow register`);
  const sharedType: PtrType = { tag: 'ptr', space: 'shared', elem: i.elem };
  const asShared = { ...i, space: 'shared' as const, addr: { reg: shadow, type: sharedType } };
  const asGlobal = { ...i, space: 'global' as const };
  const globalRun = genGlobalAccess(asGlobal, index, env, layout);
  // the shared part reports no memory event to the timing model (see above)
  const sharedRun = genSharedAccess(asShared, index, { ...env, observer: null, explain: undefined }, layout);
  const c = env.counters;
  const addrReg = 'reg' in i.addr ? i.addr.reg : -1;
  const immAddr = 'imm' in i.addr ? Number(i.addr.imm) : 0;
  return (w: Warp) => {
    const m = w.mask;
    if (m === 0) return;
    const a = addrReg >= 0 ? (w.reg(addrReg) as RegArray) : null;
    const sh = w.reg(shadow) as Float64Array;
    let sm = 0;
    for (let l = 0; l < 32; l++) {
      if (((m >>> l) & 1) === 0) continue;
      const addr = a ? (a[l] as number) : immAddr;
      if (addr >= WIN && addr < WIN + WIN_BYTES) {
        sm |= 1 << l;
        sh[l] = addr - WIN;
      }
    }
    if (sm === 0) {
      globalRun(w);
      return;
    }
    c.sharedExec[index] = (c.sharedExec[index] as number) + 1;
    if (sm === m) {
      sharedRun(w);
      return;
    }
    w.mask = m & ~sm;
    globalRun(w);
    w.mask = sm;
    sharedRun(w);
    w.mask = m;
  };
}
