/**
 * Which registers the generated code computes once per warp instead of once per lane (issue #42
 * item 1). A register qualifies when every lane of the warp holds the same value whenever it is
 * read, which holds when:
 * - it is uniform (compile.ts uniformRegisters: from blockIdx, blockDim, gridDim, parameters and
 *   constants, no k.let() assignment under a thread-dependent condition, no write under a
 *   divergent loop), and
 * - every instruction that writes it is pure arithmetic or a move (codegen.ts isArith), and every
 *   register those read holds one value in all 32 lanes too: another such register, a launch
 *   constant (one array shared by all warps) or blockIdx / smid (compile.ts genSpecial writes the
 *   same value to all 32 lanes).
 * Pure arithmetic computes all 32 lanes whatever the mask, so one value computed from lane 0 is what
 * every lane held before. A move into a k.let() variable writes only the active lanes; under
 * uniform control the lanes it leaves out have exited (or never existed: a block's last, partial
 * warp), so no lane reads what they kept, except when no lane is active (an if-converted side whose
 * condition is false for the whole warp): the move is skipped then.
 *
 * Such a register's value lives in its lane 0. Readers in generated arithmetic and branch conditions
 * read it there; any other reader (a memory access, a warp primitive, the checker) takes registers
 * lane by lane, so those registers are also written to all 32 lanes (`fill`).
 */
import type { Instr, KernelIR, SpecialReg } from '../ir/types.js';
import { writesOf } from '../ir/regUse.js';
import { isArith, type WarpScalars } from './codegen.js';

/** special registers compile.ts genSpecial writes as one value to all 32 lanes, and uniformRegisters counts uniform */
const EQUAL_SREGS: ReadonlySet<SpecialReg> = new Set<SpecialReg>(['ctaid.x', 'ctaid.y', 'ctaid.z', 'smid']);

/** every register operand anywhere in an instruction's fields (not in nested instruction lists) */
function operandRegs(i: Instr): number[] {
  const out: number[] = [];
  const scan = (v: unknown): void => {
    if (Array.isArray(v)) {
      for (const x of v) scan(x);
      return;
    }
    if (typeof v !== 'object' || v === null) return;
    const o = v as Record<string, unknown>;
    if (typeof o['reg'] === 'number') {
      out.push(o['reg']);
      return;
    }
    for (const x of Object.values(o)) scan(x);
  };
  for (const [k, v] of Object.entries(i)) {
    if (k === 'then' || k === 'else' || k === 'head' || k === 'body' || k === 'loc') continue;
    scan(v);
  }
  return out;
}

/**
 * The warp-scalar plan of a kernel: `uniform` from uniformRegisters, `shared` the launch constants
 * (registers one array serves for all warps). An empty plan computes everything lane by lane.
 */
export function warpScalars(kernel: KernelIR, uniform: ReadonlySet<number>, shared: (r: number) => boolean): WarpScalars {
  const defs = new Map<number, Instr[]>();
  const otherWrites = new Set<number>();
  const specials = new Set<number>();
  const lanewise = new Set<number>();
  const walk = (list: readonly Instr[]): void => {
    for (const i of list) {
      if (i.op === 'if' || i.op === 'loop') {
        // a branch condition is read through compile.ts predMask, which takes lane 0 of such a register
        if (i.op === 'if') {
          walk(i.then);
          if (i.else) walk(i.else);
        } else {
          walk(i.head);
          walk(i.body);
        }
        continue;
      }
      if (isArith(i)) {
        const d = (i as { dst: number }).dst;
        const list = defs.get(d) ?? [];
        list.push(i);
        defs.set(d, list);
        continue;
      }
      if (i.op === 'special' && EQUAL_SREGS.has(i.sreg)) specials.add(i.dst);
      else for (const r of writesOf(i)) otherWrites.add(r);
      if (i.op === 'cpasync') for (const r of i.tmps) otherWrites.add(r);
      for (const r of operandRegs(i)) lanewise.add(r);
    }
  };
  walk(kernel.body);
  // a special register written by anything else is not known to hold one value
  for (const r of otherWrites) specials.delete(r);
  for (const r of defs.keys()) specials.delete(r);
  const equalSource = (r: number): boolean => shared(r) || specials.has(r);

  const scalar = new Set<number>();
  for (const r of defs.keys()) if (uniform.has(r) && !shared(r) && !otherWrites.has(r)) scalar.add(r);
  // what a scalar register is computed from must hold one value in all lanes too
  for (let changed = true; changed; ) {
    changed = false;
    for (const r of [...scalar]) {
      const ok = (defs.get(r) as Instr[]).every((i) => operandRegs(i).every((o) => scalar.has(o) || equalSource(o)));
      if (!ok) {
        scalar.delete(r);
        changed = true;
      }
    }
  }
  const fill = new Set<number>([...scalar].filter((r) => lanewise.has(r)));
  const equal = new Set<number>([...scalar, ...specials]);
  return { scalar, fill, equal };
}
