/**
 * Which loads poll: a weak load (not atomic, not volatile) inside a loop whose value decides whether
 * the loop ends — the loop's condition, or a break or return under a condition, depends on it through
 * the loop's registers. Polling a weak load is the "plain flag" of seed 002: nothing makes another
 * thread's write visible to it (the compiler may hoist it out of the loop; a stale L1 line may answer),
 * so when such a load reads memory another thread writes, the checker says so (instead of calling it
 * a plain data race).
 */
import type { Instr, Operand } from '../ir/types.js';

/** registers an instruction reads */
function reads(i: Instr): number[] {
  const out: number[] = [];
  const add = (o: Operand | null | undefined): void => {
    if (o && 'reg' in o) out.push(o.reg);
  };
  switch (i.op) {
    case 'unary':
    case 'cvt':
    case 'bitcast':
    case 'assign':
      add(i.a);
      break;
    case 'binary':
    case 'cmp':
      add(i.a);
      add(i.b);
      break;
    case 'fma':
      add(i.a);
      add(i.b);
      add(i.c);
      break;
    case 'select':
      add(i.cond);
      add(i.a);
      add(i.b);
      break;
    case 'lea':
      add(i.base);
      add(i.index);
      break;
    case 'shfl':
      add(i.value);
      break;
    case 'vote':
      add(i.pred);
      break;
    case 'match':
      add(i.value);
      break;
    default:
      break;
  }
  return out;
}

/** registers an instruction writes (the data-flow part the analysis follows) */
function writes(i: Instr): number[] {
  switch (i.op) {
    case 'unary':
    case 'binary':
    case 'fma':
    case 'cmp':
    case 'select':
    case 'cvt':
    case 'bitcast':
    case 'lea':
    case 'assign':
    case 'shfl':
    case 'vote':
    case 'match':
      return [i.dst];
    case 'ld':
      return i.dsts;
    default:
      return [];
  }
}

/** the loop's own instructions, through its ifs (not nested loops: they poll for themselves) */
function flatten(list: readonly Instr[], out: Instr[] = []): Instr[] {
  for (const i of list) {
    out.push(i);
    if (i.op === 'if') {
      flatten(i.then, out);
      if (i.else) flatten(i.else, out);
    }
  }
  return out;
}

/** conditions under which the loop is left early: ifs (of this loop) holding a break or return */
function exitConditions(list: readonly Instr[], out: Operand[] = []): Operand[] {
  for (const i of list) {
    if (i.op !== 'if') continue;
    const leaves = (l: readonly Instr[]): boolean => l.some((x) => x.op === 'break' || x.op === 'return' || (x.op === 'if' && (leaves(x.then) || (x.else !== null && leaves(x.else)))));
    if (leaves(i.then) || (i.else !== null && leaves(i.else))) out.push(i.cond);
    exitConditions(i.then, out);
    if (i.else) exitConditions(i.else, out);
  }
  return out;
}

/** a weak load: no memory order, not volatile ('strong', or 'cv' which reads through every cache) */
export function isWeakLoad(i: Instr): boolean {
  return i.op === 'ld' && i.space !== 'local' && i.sem === undefined && i.cache !== 'strong' && i.cache !== 'cv';
}

/** the polling loads of a kernel body */
export function pollingLoads(body: readonly Instr[]): Set<Instr> {
  const found = new Set<Instr>();
  const visit = (list: readonly Instr[]): void => {
    for (const i of list) {
      if (i.op === 'if') {
        visit(i.then);
        if (i.else) visit(i.else);
      } else if (i.op === 'loop') {
        const own = flatten([...i.head, ...i.body]);
        const deciders = [i.cond, ...exitConditions([...i.head, ...i.body])].flatMap((o) => ('reg' in o ? [o.reg] : []));
        for (const load of own) {
          if (!isWeakLoad(load)) continue;
          // the registers the load's value flows into, over the loop's iterations (to a fixed point)
          const tainted = new Set(writes(load));
          for (let changed = true; changed; ) {
            changed = false;
            for (const x of own) {
              if (x === load || !reads(x).some((r) => tainted.has(r))) continue;
              for (const d of writes(x))
                if (!tainted.has(d)) {
                  tainted.add(d);
                  changed = true;
                }
            }
          }
          if (deciders.some((r) => tainted.has(r))) found.add(load);
        }
        visit(i.head);
        visit(i.body);
      }
    }
  };
  visit(body);
  return found;
}
