/**
 * Integer add/subtract chains as nvcc's instruction combining leaves them: integer addition wraps,
 * so it is associative and `(a + b) - a` is b, `((c + d) + b) - c` is d + b. The cuda-samples scan
 * (scanExclusiveShared: `odata4 = scan4Inclusive(idata4) - idata4` with the running sums
 * y1 = y + x, z1 = z + y1, w1 = w + z1) writes `(x + oval) - x`, `(y1 + oval) - y`, … and its SASS has
 * one IADD per output where the C has two (and none for the first: oval itself; sass.txt.gz, the
 * four IMAD.IADD / IADD3 before the STG.E.128).
 *
 * A subtraction of one of the addends of the sum it subtracts from is that sum's other addend; of an
 * addend of an addend, when nothing else reads the sum, a single add of what remains. The values involved must be values (SSA
 * registers or constants), not variables that may change between the add and the subtract. The add
 * that only the subtraction read goes (no instruction). The kernel is rewritten (a copy).
 */
import { defsAndReaders, readsOf } from '../ir/regUse.js';
import type { Instr, KernelIR, Operand } from '../ir/types.js';
import { isInt } from '../ir/typesys.js';
import { mapOperands } from './loadCse.js';

type Binary = Extract<Instr, { op: 'binary' }>;

export function simplifyArithmetic(kernel: KernelIR): KernelIR {
  const mutable = (r: number): boolean => kernel.regs[r]?.mutable === true;
  const { defs, readers } = defsAndReaders(kernel);

  const value = (o: Operand): boolean => 'imm' in o || !mutable(o.reg);
  const same = (a: Operand, b: Operand): boolean => ('reg' in a && 'reg' in b ? a.reg === b.reg : 'imm' in a && 'imm' in b && a.imm === b.imm);
  /** an integer add of values, of the type `t` */
  const addOf = (o: Operand, t: Binary['type']): Binary | null => {
    if (!('reg' in o) || mutable(o.reg)) return null;
    const d = defs.get(o.reg);
    return d?.op === 'binary' && d.fn === 'add' && JSON.stringify(d.type) === JSON.stringify(t) && value(d.a) && value(d.b) ? d : null;
  };

  /** a register replaced by an operand (the folded subtraction's result by the addend it is) */
  const subst = new Map<number, Operand>();
  const replaced = new Map<Instr, Instr>();
  const unreadBy: Instr[] = [];
  const visit = (list: readonly Instr[]): void => {
    for (const i of list) {
      if (i.op === 'if') {
        visit(i.then);
        if (i.else) visit(i.else);
        continue;
      }
      if (i.op === 'loop') {
        visit(i.head);
        visit(i.body);
        continue;
      }
      if (i.op !== 'binary' || i.fn !== 'sub' || !isInt(i.type) || mutable(i.dst) || !value(i.b)) continue;
      const sum = addOf(i.a, i.type);
      if (sum === null) continue;
      const c = i.b;
      let result: Operand | Binary | null = null;
      if (same(sum.a, c)) result = sum.b;
      else if (same(sum.b, c)) result = sum.a;
      else if (readers.get(sum.dst) === 1) {
        // only where the sum goes with it (one add for two): a sum read elsewhere stays, and the
        // subtraction's operands stay what the address arithmetic recognises (jacobi's c - 1 is c's
        // address less 4, an immediate offset)
        for (const [inner, other] of [[sum.a, sum.b], [sum.b, sum.a]] as const) {
          const add = addOf(inner, i.type);
          if (add === null) continue;
          const rest = same(add.a, c) ? add.b : same(add.b, c) ? add.a : null;
          if (rest !== null) {
            result = { ...i, fn: 'add', a: rest, b: other };
            break;
          }
        }
      }
      if (result === null) continue;
      if ('op' in result) replaced.set(i, result);
      else subst.set(i.dst, result);
      unreadBy.push(i);
    }
  };
  visit(kernel.body);
  if (unreadBy.length === 0) return kernel;

  // the sums only the rewritten subtractions read go (and what only they read)
  const dead = new Set<Instr>();
  const unread = (r: number): void => {
    const n = (readers.get(r) ?? 0) - 1;
    readers.set(r, n);
    const d = defs.get(r);
    if (n === 0 && d !== undefined && d.op === 'binary' && !dead.has(d)) {
      dead.add(d);
      for (const x of readsOf(d)) unread(x);
    }
  };
  for (const i of unreadBy) {
    // the rewritten add reads its new operands
    const now = replaced.get(i);
    if (now) for (const r of readsOf(now)) readers.set(r, (readers.get(r) ?? 0) + 1);
    else dead.add(i);
    for (const r of readsOf(i)) unread(r);
  }
  // a folded subtraction's result may stand for one that stands for another
  const resolve = (o: Operand): Operand => {
    let x = o;
    for (let n = 0; n < 64 && 'reg' in x && subst.has(x.reg); n++) x = subst.get(x.reg) as Operand;
    return x === o ? o : { ...x, type: o.type };
  };
  const rewrite = (list: readonly Instr[]): Instr[] =>
    list
      .filter((i) => !dead.has(i))
      .map((i) => {
        if (i.op === 'if') return { ...i, cond: resolve(i.cond), then: rewrite(i.then), else: i.else ? rewrite(i.else) : null };
        if (i.op === 'loop') return { ...i, cond: resolve(i.cond), head: rewrite(i.head), body: rewrite(i.body) };
        return mapOperands(replaced.get(i) ?? i, resolve) as Instr;
      });
  return { ...kernel, body: rewrite(kernel.body) };
}
