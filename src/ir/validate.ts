/**
 * Checks a built kernel for what the builder cannot see call by call: operand types of every
 * instruction, registers defined before use, barrier ids and counts known at build time.
 */
import { UserError } from '../errors.js';
import type { Instr, KernelIR, Operand, ValueType } from './types.js';
import { sameType, typeName } from './typesys.js';

/**
 * a pointer register read through `as()` (reinterpret_cast): the same address, another element type;
 * or a global pointer read as a generic one (k.generic: a global address is its own generic address)
 */
function reinterpreted(a: ValueType, b: ValueType): boolean {
  return a.tag === 'ptr' && b.tag === 'ptr' && (a.space === b.space || (a.space === 'global' && b.space === 'generic'));
}

export function validateKernel(ir: KernelIR): void {
  const defined = new Set<number>();
  const fail = (i: Instr, msg: string): never => {
    throw new UserError(`${i.loc.file}:${i.loc.line}: ${msg} (kernel '${ir.name}')`);
  };
  const use = (i: Instr, o: Operand | null | undefined): void => {
    if (!o || !('reg' in o)) return;
    if (!defined.has(o.reg)) fail(i, `register r${o.reg} is used before it is defined`);
    const info = ir.regs[o.reg];
    if (!info) fail(i, `unknown register r${o.reg}`);
    else if (!sameType(info.type, o.type) && !reinterpreted(info.type, o.type)) fail(i, `register r${o.reg} is ${typeName(info.type)} but used as ${typeName(o.type)}`);
  };
  const def = (r: number | null | undefined): void => {
    if (r !== null && r !== undefined) defined.add(r);
  };
  const walk = (list: readonly Instr[]): void => {
    for (const i of list) {
      switch (i.op) {
        case 'const':
        case 'param':
        case 'special':
        case 'activemask':
        case 'shmem':
          def(i.dst);
          break;
        case 'unary':
        case 'cvt':
        case 'bitcast':
        case 'assign':
          use(i, i.a);
          def(i.dst);
          break;
        case 'binary':
        case 'cmp':
          use(i, i.a);
          use(i, i.b);
          def(i.dst);
          break;
        case 'fma':
          use(i, i.a);
          use(i, i.b);
          use(i, i.c);
          def(i.dst);
          break;
        case 'select':
          use(i, i.cond);
          use(i, i.a);
          use(i, i.b);
          def(i.dst);
          break;
        case 'lea':
          use(i, i.base);
          use(i, i.index);
          def(i.dst);
          break;
        case 'ld':
          use(i, i.addr);
          use(i, i.remote?.pe);
          i.dsts.forEach(def);
          break;
        case 'cpasync':
          use(i, i.to);
          use(i, i.from);
          i.tmps.forEach(def);
          def(i.token);
          break;
        case 'st':
          use(i, i.addr);
          use(i, i.remote?.pe);
          i.values.forEach((v) => use(i, v));
          break;
        case 'atom':
          use(i, i.addr);
          use(i, i.remote?.pe);
          use(i, i.a);
          use(i, i.b);
          def(i.dst);
          break;
        case 'peerptr':
          use(i, i.addr);
          use(i, i.pe);
          use(i, i.bytes);
          def(i.dst);
          break;
        case 'bar': {
          use(i, i.id);
          use(i, i.count);
          if ('imm' in i.id) {
            const id = Number(i.id.imm);
            if (!Number.isInteger(id) || id < 0 || id > 15) fail(i, `barrier id ${id} is out of range: a block has 16 named barriers (0-15)`);
          }
          if (i.count && 'imm' in i.count) {
            const n = Number(i.count.imm);
            if (n <= 0 || n % 32 !== 0) fail(i, `bar.${i.mode} thread count ${n} must be a positive multiple of 32 (the warp size)`);
          } else if (i.mode === 'arrive' && !i.count) fail(i, 'bar.arrive needs a thread count');
          break;
        }
        case 'syncwarp':
          use(i, i.mask);
          break;
        case 'shfl':
          use(i, i.value);
          use(i, i.lane);
          use(i, i.mask);
          def(i.dst);
          break;
        case 'vote':
          use(i, i.pred);
          use(i, i.mask);
          def(i.dst);
          break;
        case 'redux':
          use(i, i.value);
          use(i, i.mask);
          def(i.dst);
          break;
        case 'match':
          use(i, i.value);
          use(i, i.mask);
          def(i.dst);
          break;
        case 'l2prefetch':
        case 'l2discard':
          use(i, i.addr);
          break;
        case 'nanosleep':
          use(i, i.ns);
          break;
        case 'mbarinit':
          use(i, i.addr);
          use(i, i.count);
          break;
        case 'mbararrive':
          use(i, i.addr);
          def(i.dst);
          break;
        case 'mbartest':
          use(i, i.addr);
          use(i, i.token);
          def(i.dst);
          break;
        case 'globaltimer':
          def(i.dst);
          break;
        case 'if':
          use(i, i.cond);
          walk(i.then);
          if (i.else) walk(i.else);
          break;
        case 'loop':
          walk(i.head);
          use(i, i.cond);
          walk(i.body);
          break;
        default:
          break;
      }
    }
  };
  walk(ir.body);
  if (ir.barrierIds.length > 16)
    throw new UserError(`${ir.file}: kernel '${ir.name}' uses ${ir.barrierIds.length} named barrier ids; a block has 16 (0-15)`);
}
