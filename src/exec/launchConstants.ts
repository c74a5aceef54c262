/**
 * Registers every lane of every warp of a launch holds the same value in: parameters and the launch's
 * special registers (blockDim, gridDim, the dynamic shared base), known before compilation, and the
 * arithmetic on them alone (an address's parameter times a constant, a bound cast to 64 bits). Each is
 * one array shared by all warps, computed once when the launch is compiled: its instructions still
 * count and take their time, but execute nothing (compile.ts). Computed once per lane per warp, a
 * loop's tests of its parameters were a good part of its interpreted arithmetic (the wavefront probe's).
 */
import type { Instr, KernelIR, SpecialReg, Storage } from '../ir/types.js';
import { readsOf, writesOf } from '../ir/regUse.js';
import { storageOf } from '../ir/typesys.js';
import { genArith, isArith } from './codegen.js';
import type { ExecEnv } from './env.js';
import { REG_ARRAY, type RegArray, type RegLayout } from './regFile.js';
import type { Warp } from './warp.js';

/** special registers that are constants of the launch (blockDim, gridDim, dynamic shared base) */
export function launchConstant(sreg: SpecialReg, env: ExecEnv): number | null {
  switch (sreg) {
    case 'ntid.x': return env.block[0];
    case 'ntid.y': return env.block[1];
    case 'ntid.z': return env.block[2];
    case 'nctaid.x': return env.grid[0];
    case 'nctaid.y': return env.grid[1];
    case 'nctaid.z': return env.grid[2];
    case 'dynsmem': return env.dynamicSharedBase;
    default: return null;
  }
}

/** a register array holding one value in all 32 lanes */
function constantArray(s: Storage, v: number | bigint): RegArray {
  const r = new REG_ARRAY[s](32);
  return r instanceof BigInt64Array ? r.fill(BigInt(v)) : r.fill(Number(v));
}

export interface LaunchConstants {
  /** the shared array of each constant register (the derived ones' filled by evaluate) */
  arrays: Map<number, RegArray>;
  /** the instructions that compute derived constants, in program order */
  derived: Set<Instr>;
  /** fills the derived constants' arrays: once the register layout (which shares them) is made */
  evaluate(layout: RegLayout): void;
}

/** instructions in program order, an if's sides and a loop's head and body in place */
function* inOrder(list: readonly Instr[]): Generator<Instr> {
  for (const i of list) {
    yield i;
    if (i.op === 'if') {
      yield* inOrder(i.then);
      if (i.else) yield* inOrder(i.else);
    } else if (i.op === 'loop') {
      yield* inOrder(i.head);
      yield* inOrder(i.body);
    }
  }
}

/**
 * An arithmetic instruction's result is a launch constant when all it reads are (or immediates) and
 * it is its register's only definition, read nowhere before it: a k.let() variable (more than one
 * definition, a masked move) stays the warp's own. The generated code of a derived instruction reads
 * and writes only shared arrays, so running it once, lanes all active, fills its register.
 */
export function launchConstants(kernel: KernelIR, env: ExecEnv): LaunchConstants {
  const arrays = new Map<number, RegArray>();
  const defs = new Int32Array(kernel.regs.length);
  for (const i of inOrder(kernel.body)) for (const r of writesOf(i)) defs[r] = (defs[r] as number) + 1;
  const read = new Uint8Array(kernel.regs.length);
  const derived = new Set<Instr>();
  for (const i of inOrder(kernel.body)) {
    if (i.op === 'param') arrays.set(i.dst, constantArray(storageOf(i.type), env.args[i.name] ?? 0));
    else if (i.op === 'special') {
      const v = launchConstant(i.sreg, env);
      if (v !== null) arrays.set(i.dst, constantArray(storageOf(i.type), v));
    } else if (isArith(i) && i.op !== 'assign') {
      const [dst] = writesOf(i);
      if (dst !== undefined && defs[dst] === 1 && read[dst] === 0 && readsOf(i).every((r) => arrays.has(r))) {
        arrays.set(dst, new REG_ARRAY[storageOf(kernel.regs[dst]!.type)](32));
        derived.add(i);
      }
    }
    for (const r of readsOf(i)) read[r] = 1;
    if (i.op === 'if' || i.op === 'loop') for (const r of 'reg' in i.cond ? [i.cond.reg] : []) read[r] = 1;
  }
  return {
    arrays,
    derived,
    evaluate(layout) {
      for (const i of derived) (genArith(i, layout) as (w: Warp) => void)(ALL_LANES);
    },
  };
}

/** what a derived instruction's code sees of a warp: it reads no register of its own, and no lane is masked */
const ALL_LANES = { mask: -1 } as Warp;
