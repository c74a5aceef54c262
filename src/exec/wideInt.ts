/**
 * Integer and address arithmetic as ptxas selects SASS for it, most of it 64-bit. The SM's integer
 * datapath is 32 bits wide, so an operation on 64-bit values mostly takes an instruction per half
 * (wideExtras). What ptxas does with the size_t index arithmetic of every kernel in micro.cu (the
 * ground truth's SASS, e.g. g_ld_u32_coalesced: `IMAD.MOV.U32 R3, RZ, RZ, RZ; IMAD.WIDE.U32 R2, R5,
 * UR4, R2`) and with the kernels' other index arithmetic:
 * - a 32 x 32 -> 64-bit product of two widened values is one IMAD.WIDE(.U32) (mul.wide), and a 64-bit
 *   add of that product in the same block is folded into it (mad.wide; a loop adds a stride computed
 *   before it with IADD3 + IADD3.X);
 * - widening a 32-bit value costs nothing where only such a product reads it, else one instruction
 *   for the high half (IMAD.MOV.U32 of zero, or SHF.R.S32.HI of the sign);
 * - a 64-bit multiply by a power of two that only indexes addresses is the address's shift (its
 *   LEA / LEA.HI.X);
 * - a bitwise operation with a constant whose high word leaves the high half as it was or a constant
 *   (and/or with 0 or ~0, xor with 0) changes one half;
 * - a 64-bit index scaled for several addresses is shifted once, each address then an add pair;
 *   an index that is such an index plus a constant shares the shift, the constant the load's or
 *   store's immediate offset (g_ld_u32_misaligned), and one that is it and-ed with a constant clearing
 *   low bits shares it too, the and a LOP3 on the shifted low word (g_ld_u32_broadcast);
 * - narrowing to 32 bits is the low half's register, and a conversion between 32-bit integer types
 *   the same register;
 * - a constant offset of an address used only by loads and stores is their immediate, and so is the
 *   difference between addresses that differ by a constant (src/exec/addressOffsets.ts);
 * - a fused multiply-add of two constants moves one into a register (FFMA and IMAD encode one).
 */
import { readsOf, regs, writesOf } from '../ir/regUse.js';
import { fitsImmediate, onlyAddressUse, sharedAddressFolds } from './addressOffsets.js';
import type { Instr, Operand, ValueType } from '../ir/types.js';
import { is64, isInt, isSigned } from '../ir/typesys.js';

/** how one instruction of 64-bit arithmetic is counted, where it differs from an instruction per half */
export interface WideChoice {
  /** SASS opcode instead of the class's */
  opcode?: string;
  /** part of another instruction: not counted */
  folded?: boolean;
  /** the instructions it takes beyond its first, instead of wideExtras' */
  extras?: readonly string[];
}

/**
 * The SASS instructions a 64-bit integer operation takes beyond its first, for its second half
 * (IADD3 + IADD3.X, ISETP + ISETP.EX, LEA + LEA.HI.X, a LOP3 or SHF per half, a multiply IMAD.WIDE.U32
 * and two IMADs: the family-5 passes' ptrdiff_t addressing, g_st_u64's make_val)
 */
export function wideExtras(i: Instr): string[] {
  switch (i.op) {
    case 'binary':
      if (!is64(i.type) || i.fn === 'div' || i.fn === 'rem') return [];
      return i.fn === 'mul' ? ['IMAD', 'IMAD'] : [i.fn === 'add' || i.fn === 'sub' ? 'IADD3.X' : i.fn === 'shl' || i.fn === 'shr' ? 'SHF' : 'LOP3'];
    case 'unary':
      return is64(i.type) && (i.fn === 'neg' || i.fn === 'not') ? ['IADD3.X'] : [];
    case 'cmp':
      return is64(i.a.type) ? ['ISETP.EX'] : [];
    case 'lea':
      // a shared-memory address is 32 bits: a 64-bit index takes its low word only (cp_cg_memcpy_async's
      // size_t loop: `LEA R15, R16, UR5, 0x2` for sm[e])
      return is64(i.index.type) && i.type.space !== 'shared' ? ['LEA.HI.X'] : [];
    default:
      return [];
  }
}

type Lea = Extract<Instr, { op: 'lea' }>;
const narrowInt = (t: ValueType): boolean => isInt(t) && !is64(t);
const immBits = (o: Operand): bigint | null => ('imm' in o ? BigInt.asUintN(64, typeof o.imm === 'bigint' ? o.imm : BigInt(Math.trunc(o.imm))) : null);
const powerOfTwo = (v: bigint | null): boolean => v !== null && v > 0n && (v & (v - 1n)) === 0n;

/** the instructions of a kernel body whose 64-bit arithmetic ptxas selects otherwise than per half */
export function wideChoices(body: readonly Instr[]): Map<Instr, WideChoice> {
  const all: Instr[] = [];
  /** the list each instruction is in: a product computed before a loop is not fused into an add in it */
  const blockOf = new Map<Instr, readonly Instr[]>();
  const flat = (list: readonly Instr[]): void => {
    for (const i of list) {
      all.push(i);
      blockOf.set(i, list);
      if (i.op === 'if') {
        flat(i.then);
        if (i.else) flat(i.else);
      } else if (i.op === 'loop') {
        flat(i.head);
        flat(i.body);
      }
    }
  };
  flat(body);
  const defs = new Map<number, Instr[]>();
  const users = new Map<number, Instr[]>();
  const add = <K>(m: Map<K, Instr[]>, r: K, i: Instr): void => {
    const l = m.get(r);
    if (l) l.push(i);
    else m.set(r, [i]);
  };
  for (const i of all) {
    for (const r of writesOf(i)) add(defs, r, i);
    for (const r of i.op === 'if' || i.op === 'loop' ? regs(i.cond) : readsOf(i)) add(users, r, i);
  }
  const def = (o: Operand): Instr | null => ('reg' in o && defs.get(o.reg)?.length === 1 ? (defs.get(o.reg)?.[0] ?? null) : null);
  const usersOf = (r: number): Instr[] => users.get(r) ?? [];
  /** a value widened from a 32-bit integer (or a constant that fits in 32 bits) */
  const widened = (o: Operand): boolean => {
    const v = immBits(o);
    if (v !== null) return v < 1n << 32n;
    const d = def(o);
    return d !== null && d.op === 'cvt' && narrowInt(d.a.type) && is64(d.type);
  };

  const out = new Map<Instr, WideChoice>();
  const wideMuls = new Set<Instr>();
  for (const i of all) {
    if (i.op !== 'binary' || !is64(i.type)) continue;
    if (i.fn === 'mul' && widened(i.a) && widened(i.b) && ('reg' in i.a || 'reg' in i.b)) {
      const signed = [i.a, i.b].some((o) => {
        const d = def(o);
        return d !== null && d.op === 'cvt' && isSigned(d.a.type);
      });
      out.set(i, { opcode: signed ? 'IMAD.WIDE' : 'IMAD.WIDE.U32', extras: [] });
      wideMuls.add(i);
    } else if (i.fn === 'mul' && (powerOfTwo(immBits(i.a)) || powerOfTwo(immBits(i.b)))) {
      const only = usersOf(i.dst);
      if (only.length > 0 && only.every((u) => u.op === 'lea' && 'reg' in u.index && u.index.reg === i.dst && !('reg' in u.base && u.base.reg === i.dst))) out.set(i, { folded: true });
    } else if ((i.fn === 'and' || i.fn === 'or' || i.fn === 'xor') && [i.a, i.b].some((o) => {
      // and/or: a high word of 0 or ~0 leaves the high half as it was, or a constant; xor with ~0
      // complements it, an instruction of its own
      const hi = immBits(o);
      return hi !== null && ((hi >> 32n) === 0n || (i.fn !== 'xor' && (hi >> 32n) === 0xffff_ffffn));
    })) {
      out.set(i, { extras: [] });
    }
  }
  const onlyAddress = (lea: Instr): boolean => onlyAddressUse(lea, usersOf);
  /** leas that read register r as their index, and nothing else reads it */
  const indexOnly = (r: number): Lea[] | null => {
    const us = usersOf(r);
    return us.length > 0 && us.every((u) => u.op === 'lea' && 'reg' in u.index && u.index.reg === r && !('reg' in u.base && u.base.reg === r)) ? (us as Lea[]) : null;
  };
  /**
   * the register a 64-bit address index is derived from, seen through what ptxas applies after the
   * scaling: a constant added to it becomes the memory instruction's immediate offset (g_ld_u32_
   * misaligned: `LDG.E R3, [R2.64+0x4]` off the shifted i that out[i] uses too), and an and with a
   * constant that only clears low bits masks the shifted index (g_ld_u32_broadcast: `LOP3.LUT R0, R4,
   * 0xffffff80`, its LOP3 still counted)
   */
  const rootOf = (lea: Lea): number | null => {
    if (!('reg' in lea.index)) return null;
    const d = def(lea.index);
    if (d?.op !== 'binary' || !is64(d.type) || indexOnly(d.dst) === null) return lea.index.reg;
    const [x, c] = 'reg' in d.a ? [d.a, immBits(d.b)] : [d.b, immBits(d.a)];
    if (!('reg' in x) || c === null) return lea.index.reg;
    const leas = indexOnly(d.dst)!;
    const offset = BigInt.asIntN(64, d.fn === 'sub' ? -c : c);
    if ((d.fn === 'add' || (d.fn === 'sub' && 'reg' in d.a)) && leas.every((l) => onlyAddress(l) && fitsImmediate(offset * BigInt(l.scale)))) {
      out.set(d, { folded: true });
      return x.reg;
    }
    // (x & c) * 2^s = (x * 2^s) & (c * 2^s): the mask moves past a power-of-two scale only
    return d.fn === 'and' && c >> 32n === 0xffff_ffffn && powerOfTwo(BigInt(lea.scale)) ? x.reg : lea.index.reg;
  };
  // accesses whose address is another's plus a constant (src/exec/addressOffsets.ts)
  const shared = sharedAddressFolds(all, def, usersOf);
  // one 64-bit index scaled for several addresses: shifted once (IMAD.SHL + SHF.L.U64.HI), then each
  // address an IADD3 + IADD3.X (g_ld_u32_coalesced's in[i] and out[i]); a lone one is LEA + LEA.HI.X
  const byIndex = new Map<string, Instr[]>();
  for (const i of all) {
    if (i.op !== 'lea' || !is64(i.index.type) || shared.has(i)) continue;
    const root = rootOf(i);
    if (root !== null && i.scale > 1) add(byIndex, `${root}*${i.scale}`, i);
  }
  for (const leas of byIndex.values()) {
    if (leas.length < 2) continue;
    leas.forEach((i, n) => out.set(i, n === 0 ? { opcode: 'IMAD.SHL', extras: ['SHF.L.U64.HI', 'IADD3', 'IADD3.X'] } : { opcode: 'IADD3', extras: ['IADD3.X'] }));
  }
  // mad.wide: the add of a product only it reads
  for (const i of all) {
    if (i.op !== 'binary' || i.fn !== 'add' || !is64(i.type)) continue;
    const fused = [i.a, i.b].some((o) => {
      const d = def(o);
      return d !== null && wideMuls.has(d) && blockOf.get(d) === blockOf.get(i) && 'reg' in o && usersOf(o.reg).length === 1;
    });
    if (fused) out.set(i, { folded: true });
  }
  // a constant offset of an address only loads, stores and atomics use is their immediate (`LDS R0,
  // [R2+0x800]`, `STS [R7+0x1080]`): no instruction
  for (const i of all) if (i.op === 'lea' && 'imm' in i.index && onlyAddress(i)) out.set(i, { folded: true });
  // a conversion to a 32-bit integer from a 64-bit one is the low half's register, from another
  // 32-bit one the same register (the transposes' int x = blockIdx.x * 32 + threadIdx.x)
  const int32 = (t: ValueType): boolean => t.tag === 'scalar' && (t.kind === 'i32' || t.kind === 'u32');
  for (const i of all) if (i.op === 'cvt' && int32(i.type) && (is64(i.a.type) || int32(i.a.type))) out.set(i, { folded: true });
  // widening: free where only wide products read it, else the high half's instruction
  for (const i of all) {
    if (i.op !== 'cvt' || !narrowInt(i.a.type) || !is64(i.type)) continue;
    const readers = usersOf(i.dst);
    if (readers.length > 0 && readers.every((u) => wideMuls.has(u))) out.set(i, { folded: true });
    else out.set(i, { opcode: isSigned(i.a.type) ? 'SHF.R.S32.HI' : 'IMAD.MOV.U32' });
  }
  // FFMA / IMAD encode one immediate operand: a second is moved into a register first, and moved
  // again each time where the result takes that register (occ_grid's out[i] = in[i] * 2.0f + 1.0f:
  // `IMAD.MOV.U32 R9, RZ, RZ, 0x40000000; FFMA R9, R4, R9, 1` in the loop); an accumulator
  // (x = fmaf(x, 1.0001f, 0.5f), l2_delay_probe.cu) has its own register, so the constant's move is
  // made once, outside the loop (not counted)
  for (const i of all) {
    if (i.op !== 'fma' || [i.a, i.b, i.c].filter((o) => 'imm' in o).length < 2) continue;
    const accumulates = usersOf(i.dst).some((u) => u.op === 'assign' && [i.a, i.b, i.c].some((o) => 'reg' in o && o.reg === u.dst));
    if (!accumulates) out.set(i, { extras: ['IMAD.MOV.U32'] });
  }
  // an address another access's plus a constant, and what only fed it: no instruction at all
  for (const i of shared) out.set(i, { folded: true });
  return out;
}
