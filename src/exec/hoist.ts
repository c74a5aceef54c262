/**
 * Loop-invariant code motion, as nvcc does it (test/fidelity/probes/isel/ hoist_loop: `acc += in[j *
 * 64 + i] * (p * q)` multiplies p * q once, before the loop: UIMAD UR4, UR5, UR4 ahead of the loop,
 * one instruction fewer than a trip's worth). A pure arithmetic instruction of a loop's head or body
 * (not under a condition inside it) whose operands are constants, values defined outside the loop or
 * variables the loop does not write (one value throughout it: scanExclusiveShared's s_Data[pos], whose
 * address its SASS computes once, before the loop) moves to just before the loop; an inner loop's moved instructions can move on out of the loops
 * around it. The kernel is rewritten (a copy: the IR the builder made stays as it was), so that the
 * register allocation and the timing model see the instructions where they run.
 */
import { readsOf, writesOf, writtenIn } from '../ir/regUse.js';
import type { Instr, KernelIR } from '../ir/types.js';

const MOVABLE: ReadonlySet<Instr['op']> = new Set(['const', 'unary', 'binary', 'cmp', 'fma', 'select', 'cvt', 'bitcast', 'lea']);

export function hoistInvariants(kernel: KernelIR): KernelIR {
  const mutable = (r: number): boolean => kernel.regs[r]?.mutable === true;
  let moved = 0;
  /** a list with its loops' invariants moved out: each loop is preceded by what left it */
  const rewrite = (list: readonly Instr[]): Instr[] => {
    const outList: Instr[] = [];
    for (const i of list) {
      if (i.op === 'if') {
        outList.push({ ...i, then: rewrite(i.then), else: i.else ? rewrite(i.else) : null });
        continue;
      }
      if (i.op !== 'loop') {
        outList.push(i);
        continue;
      }
      // inner loops first: what leaves them lands in this loop's lists, and may leave this one too
      const head = rewrite(i.head);
      const body = rewrite(i.body);
      const inLoop = writtenIn([...head, ...body], new Set());
      const out: Instr[] = [];
      const take = (l: Instr[]): Instr[] =>
        l.filter((x) => {
          if (!MOVABLE.has(x.op)) return true;
          const dst = writesOf(x);
          if (dst.length !== 1 || mutable(dst[0] as number)) return true;
          // a variable the loop does not write holds one value throughout it (scanExclusiveShared's
          // s_Data[pos]: `pos` is set before the loop, its address computed once, before it)
          if (!readsOf(x).every((r) => !inLoop.has(r))) return true;
          // defined outside now: later instructions of the loop that read it may move too
          inLoop.delete(dst[0] as number);
          out.push(x);
          moved++;
          return false;
        });
      const h = take(head);
      const b = take(body);
      outList.push(...out, { ...i, head: h, body: b });
    }
    return outList;
  };
  const body = rewrite(kernel.body);
  return moved === 0 ? kernel : { ...kernel, body };
}
