/**
 * Arithmetic instructions compiled to JavaScript: one small function per IR instruction with a
 * 32-lane loop over typed arrays, one per text (instructions alike but for their registers share it:
 * src/exec/regFile.ts instantiate), so V8 optimises each on its own. Pure arithmetic
 * computes every lane (inactive lanes' results are never read: the builder confines a value to the
 * block that defines it); only moves into k.let() variables are masked. A straight run of them is
 * also compiled into one function with one lane loop (genArithRun): a 32-lane loop over typed arrays
 * costs ~2 ns a lane on the CI machine, and the run's loop and calls are shared (ALU-heavy bench ~20 %
 * faster).
 */
import type { Instr, Operand, ScalarKind, Storage, ValueType } from '../ir/types.js';
import { is64, isSigned } from '../ir/typesys.js';
import { type RegLayout, RegRefs, instantiate } from './regFile.js';
import type { Warp } from './warp.js';

export type Exec = (w: Warp) => void;

/** helpers visible to generated code */
const f32buf = new Float32Array(1);
const i32buf = new Int32Array(f32buf.buffer);
const f64buf = new Float64Array(1);
const i64buf = new BigInt64Array(f64buf.buffer);
const H = {
  f2i(x: number): number {
    f32buf[0] = x;
    return i32buf[0] as number;
  },
  i2f(x: number): number {
    i32buf[0] = x;
    return f32buf[0] as number;
  },
  d2l(x: number): bigint {
    f64buf[0] = x;
    return i64buf[0] as bigint;
  },
  l2d(x: bigint): number {
    i64buf[0] = x;
    return f64buf[0] as number;
  },
  brev(x: number): number {
    let r = 0;
    for (let i = 0; i < 32; i++) r = (r << 1) | ((x >>> i) & 1);
    return r | 0;
  },
  popc(x: number): number {
    x = x - ((x >>> 1) & 0x55555555);
    x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
    return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
  },
  mulhiS(a: number, b: number): number {
    return Number((BigInt(a) * BigInt(b)) >> 32n) | 0;
  },
  /** the high 32 bits of the unsigned 64-bit product of two 32-bit words, in exact double arithmetic */
  umulhi(x: number, y: number): number {
    const a = x >>> 0;
    const b = y >>> 0;
    const a0 = a & 0xffff;
    const a1 = a >>> 16;
    const b0 = b & 0xffff;
    const b1 = b >>> 16;
    const m1 = a1 * b0 + ((a0 * b0) >>> 16);
    const m2 = a0 * b1 + (m1 % 65536);
    return (a1 * b1 + Math.floor(m1 / 65536) + Math.floor(m2 / 65536)) | 0;
  },
  mulhiU(a: number, b: number): number {
    return Number((BigInt(a >>> 0) * BigInt(b >>> 0)) >> 32n) | 0;
  },
  /** float -> integer conversion with PTX's saturation (cvt.rzi) */
  f2int(x: number, lo: number, hi: number): number {
    if (x !== x) return 0;
    const t = Math.trunc(x);
    return t < lo ? lo : t > hi ? hi : t;
  },
  f2long(x: number, signed: boolean): bigint {
    if (x !== x) return 0n;
    const t = Math.trunc(x);
    if (signed) {
      if (t <= -9223372036854775808) return -9223372036854775808n;
      if (t >= 9223372036854775807) return 9223372036854775807n;
      return BigInt(t);
    }
    if (t <= 0) return 0n;
    if (t >= 18446744073709551615) return -1n;
    return BigInt.asIntN(64, BigInt(t));
  },
};
export type Helpers = typeof H;

const RANGE: Partial<Record<ScalarKind, [number, number]>> = {
  i8: [-128, 127],
  u8: [0, 255],
  i16: [-32768, 32767],
  u16: [0, 65535],
  i32: [-2147483648, 2147483647],
  u32: [0, 4294967295],
};

/** normalise an int32-storage expression to the type's representation */
function norm(kind: ScalarKind, e: string): string {
  switch (kind) {
    case 'i8':
      return `((${e}) << 24 >> 24)`;
    case 'u8':
      return `((${e}) & 255)`;
    case 'i16':
      return `((${e}) << 16 >> 16)`;
    case 'u16':
      return `((${e}) & 65535)`;
    case 'pred':
      return `((${e}) & 1)`;
    default:
      return `((${e}) | 0)`;
  }
}

function kindOf(t: ValueType): ScalarKind | 'ptr' {
  return t.tag === 'ptr' ? 'ptr' : t.kind;
}

/** what a register's typed array makes of a value stored into it (a local must hold the same) */
const STORED: Record<Storage, (e: string) => string> = {
  i32: (e) => `((${e}) | 0)`,
  f32: (e) => `Math.fround(${e})`,
  f64: (e) => `(${e})`,
  i64: (e) => `BigInt.asIntN(64, ${e})`,
};

/** where a fused statement's store goes (Gen.set): a character no generated text has otherwise */
const STORE_MARK = '\u0001';
const STORE_MARKS = /\u0001(\d+)\u0001/g;

class Gen {
  private readonly refs: RegRefs;
  /** in a fused run: registers whose lane-`l` value an earlier statement holds in a local */
  private readonly locals = new Map<number, string>();
  private next = 0;
  /** registers read from the register file, not from a local of an earlier statement */
  private readonly fileReads = new Set<number>();
  /** in a fused run: the stores of results into the register file, each left out where nothing reads it there */
  private readonly stores: { reg: number; code: string }[] = [];
  constructor(
    private readonly layout: RegLayout,
    /** statements of one fused run share the lane loop: results stay in locals for the next ones */
    private readonly fused = false,
    /** registers no instruction outside the run reads: their results need no store if the run reads them from locals only */
    private readonly runLocal: (r: number) => boolean = () => false,
  ) {
    this.refs = new RegRefs(layout);
  }
  /** an expression for lane `l` of operand o */
  lane(o: Operand): string {
    if ('imm' in o) return literal(o.imm, o.type);
    const local = this.locals.get(o.reg);
    if (local !== undefined) return local;
    this.fileReads.add(o.reg);
    return this.refs.lane(o.reg, 'l');
  }
  /** the statement writing `e` to lane `l` of register `reg` (`masked`: only where the warp's mask has the lane) */
  set(reg: number, e: string, masked: boolean): string {
    const dst = this.refs.lane(reg, 'l');
    if (!this.fused) return `${dst} = ${e};`;
    if (masked) {
      // inactive lanes keep the register's old value, which no local holds
      this.locals.delete(reg);
      return `if (((m >>> l) & 1) !== 0) { ${dst} = ${e}; }`;
    }
    const t = `t${this.next++}`;
    // the store's place is marked; fn() puts it in unless nothing reads the register from the file
    const stmt = `const ${t} = ${STORED[this.layout.storages[reg] as Storage](e)}; ${STORE_MARK}${this.stores.length}${STORE_MARK}`;
    this.stores.push({ reg, code: `${dst} = ${t};` });
    this.locals.set(reg, t);
    return stmt;
  }
  /** lane `l` of a 64-bit integer operand as int32 expressions [low half, high half] */
  halves(o: Operand): [string, string] {
    if ('imm' in o) {
      const v = BigInt.asIntN(64, typeof o.imm === 'bigint' ? o.imm : BigInt(Math.trunc(o.imm)));
      return [numLit(Number(BigInt.asIntN(32, v))), numLit(Number(BigInt.asIntN(32, v >> 32n)))];
    }
    this.fileReads.add(o.reg);
    return this.refs.halves(o.reg, 'l');
  }
  /**
   * the statement writing a 64-bit integer to lane `l` of register `reg` as its halves `lo` and `hi`
   * (int32 expressions, after the statements `pre`); the register's BigInt is never made
   */
  setHalves(reg: number, pre: string, lo: string, hi: string, masked: boolean): string {
    // a later statement reads the register itself, not a local of an earlier value
    this.locals.delete(reg);
    const [dl, dh] = this.refs.halves(reg, 'l');
    const s = `{ ${pre} const lo = ${lo}, hi = ${hi}; ${dl} = lo; ${dh} = hi; }`;
    return this.fused && masked ? `if (((m >>> l) & 1) !== 0) ${s}` : s;
  }
  fn(statements: string, masked: boolean): Exec {
    const loopBody = statements.replace(STORE_MARKS, (_, n: string) => {
      const st = this.stores[Number(n)] as { reg: number; code: string };
      return this.runLocal(st.reg) && !this.fileReads.has(st.reg) ? '' : st.code;
    });
    const loop = this.fused
      ? `const m = w.mask; for (let l = 0; l < 32; l++) { ${loopBody} }`
      : masked
        ? `const m = w.mask; if (m === -1) { for (let l = 0; l < 32; l++) { ${loopBody} } } else { for (let l = 0; l < 32; l++) { if ((m >>> l) & 1) { ${loopBody} } } }`
        : `for (let l = 0; l < 32; l++) { ${loopBody} }`;
    const src = `return function exec(w) { ${this.refs.declarations()} ${loop} };`;
    return instantiate<Exec>('arith', ['H', ...this.refs.paramNames()], src, [H, ...this.refs.params]);
  }
}

function literal(v: number | bigint, t: ValueType): string {
  if (typeof v === 'bigint') return `${BigInt.asIntN(64, v)}n`;
  const k = kindOf(t);
  if (k === 'i64' || k === 'u64') return `${BigInt.asIntN(64, BigInt(Math.trunc(v)))}n`;
  if (k === 'f32') return numLit(Math.fround(v));
  if (k === 'f64' || k === 'ptr') return numLit(v);
  if (k === 'u32') return numLit(v | 0);
  return numLit(Math.trunc(v) | 0);
}
function numLit(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return 'Infinity';
  if (v === -Infinity) return '-Infinity';
  if (Object.is(v, -0)) return '-0';
  return `(${String(v)})`;
}

function binaryExpr(fn: string, t: ValueType, A: string, B: string): string {
  const k = kindOf(t);
  if (k === 'f32' || k === 'f64') {
    switch (fn) {
      case 'add': return `${A} + ${B}`;
      case 'sub': return `${A} - ${B}`;
      case 'mul': return `${A} * ${B}`;
      case 'div': return `${A} / ${B}`;
      case 'rem': return `${A} % ${B}`;
      case 'min': return `Math.min(${A}, ${B})`;
      case 'max': return `Math.max(${A}, ${B})`;
    }
    throw new Error(`no ${fn} for ${k}`);
  }
  if (k === 'i64' || k === 'u64') {
    const s = k === 'i64';
    const U = (x: string) => `BigInt.asUintN(64, ${x})`;
    const wrap = (x: string) => `BigInt.asIntN(64, ${x})`;
    switch (fn) {
      case 'add': return wrap(`${A} + ${B}`);
      case 'sub': return wrap(`${A} - ${B}`);
      case 'mul': return wrap(`${A} * ${B}`);
      case 'div': return s ? `(${B} === 0n ? -1n : ${wrap(`${A} / ${B}`)})` : `(${B} === 0n ? -1n : ${wrap(`${U(A)} / ${U(B)}`)})`;
      case 'rem': return s ? `(${B} === 0n ? ${A} : ${A} % ${B})` : `(${B} === 0n ? ${A} : ${wrap(`${U(A)} % ${U(B)}`)})`;
      case 'and': return `(${A} & ${B})`;
      case 'or': return `(${A} | ${B})`;
      case 'xor': return `(${A} ^ ${B})`;
      case 'shl': return `(${U(B)} >= 64n ? 0n : ${wrap(`${A} << ${U(B)}`)})`;
      case 'shr': return s ? `(${A} >> (${U(B)} >= 63n ? 63n : ${U(B)}))` : `(${U(B)} >= 64n ? 0n : ${wrap(`${U(A)} >> ${U(B)}`)})`;
      case 'min': return s ? `(${A} < ${B} ? ${A} : ${B})` : `(${U(A)} < ${U(B)} ? ${A} : ${B})`;
      case 'max': return s ? `(${A} > ${B} ? ${A} : ${B})` : `(${U(A)} > ${U(B)} ? ${A} : ${B})`;
      case 'mulhi': return s ? wrap(`(${A} * ${B}) >> 64n`) : wrap(`(${U(A)} * ${U(B)}) >> 64n`);
    }
    throw new Error(`no ${fn} for ${k}`);
  }
  const kk = k as ScalarKind;
  const signed = isSigned(t);
  const n = (e: string) => norm(kk, e);
  const U = (x: string) => `(${x} >>> 0)`;
  const width = kk === 'i8' || kk === 'u8' ? 8 : kk === 'i16' || kk === 'u16' ? 16 : 32;
  switch (fn) {
    case 'add': return n(`${A} + ${B}`);
    case 'sub': return n(`${A} - ${B}`);
    case 'mul': return n(`Math.imul(${A}, ${B})`);
    case 'div': return signed ? `(${B} === 0 ? -1 : ${n(`Math.trunc(${A} / ${B})`)})` : `(${B} === 0 ? ${n('-1')} : ${n(`Math.trunc(${U(A)} / ${U(B)})`)})`;
    case 'rem': return signed ? `(${B} === 0 ? ${A} : ${n(`${A} % ${B}`)})` : `(${B} === 0 ? ${A} : ${n(`${U(A)} % ${U(B)}`)})`;
    case 'and': return `(${A} & ${B})`;
    case 'or': return `(${A} | ${B})`;
    case 'xor': return `(${A} ^ ${B})`;
    case 'shl': return `(${U(B)} >= ${width} ? 0 : ${n(`${A} << ${B}`)})`;
    case 'shr': return signed ? `(${A} >> (${U(B)} >= 31 ? 31 : ${B}))` : `(${U(B)} >= ${width} ? 0 : ${n(`${U(A)} >>> ${B}`)})`;
    case 'min': return signed ? `(${A} < ${B} ? ${A} : ${B})` : `(${U(A)} < ${U(B)} ? ${A} : ${B})`;
    case 'max': return signed ? `(${A} > ${B} ? ${A} : ${B})` : `(${U(A)} > ${U(B)} ? ${A} : ${B})`;
    case 'mulhi': return signed ? `H.mulhiS(${A}, ${B})` : `H.mulhiU(${A}, ${B})`;
  }
  throw new Error(`no ${fn} for ${k}`);
}

const CMP_OPS: Record<string, string> = { lt: '<', le: '<=', gt: '>', ge: '>=', eq: '===', ne: '!==' };

function cmpExpr(fn: string, t: ValueType, A: string, B: string): string {
  const k = kindOf(t);
  const op = CMP_OPS[fn] as string;
  let a = A;
  let b = B;
  if (k === 'u32') {
    a = `(${A} >>> 0)`;
    b = `(${B} >>> 0)`;
  } else if (k === 'u64') {
    a = `BigInt.asUintN(64, ${A})`;
    b = `BigInt.asUintN(64, ${B})`;
  }
  return `(${a} ${op} ${b} ? 1 : 0)`;
}

function unaryExpr(fn: string, t: ValueType, A: string): string {
  const k = kindOf(t);
  if (fn === 'mov') return A;
  if (k === 'f32' || k === 'f64') {
    switch (fn) {
      case 'neg': return `-${A}`;
      case 'abs': return `Math.abs(${A})`;
      case 'sqrt': return `Math.sqrt(${A})`;
      case 'rsqrt': return `1 / Math.sqrt(${A})`;
      case 'rcp': return `1 / ${A}`;
      case 'exp2': return `Math.pow(2, ${A})`;
      case 'log2': return `Math.log2(${A})`;
      case 'sin': return `Math.sin(${A})`;
      case 'cos': return `Math.cos(${A})`;
      case 'floor': return `Math.floor(${A})`;
      case 'ceil': return `Math.ceil(${A})`;
      case 'trunc': return `Math.trunc(${A})`;
    }
    throw new Error(`no ${fn} for ${k}`);
  }
  if (k === 'i64' || k === 'u64') {
    switch (fn) {
      case 'neg': return `BigInt.asIntN(64, -${A})`;
      case 'not': return `~${A}`;
      case 'abs': return `(${A} < 0n ? BigInt.asIntN(64, -${A}) : ${A})`;
    }
    throw new Error(`no ${fn} for ${k}`);
  }
  const kk = k as ScalarKind;
  switch (fn) {
    case 'neg': return norm(kk, `-${A}`);
    case 'not': return kk === 'pred' ? `(1 - ${A})` : norm(kk, `~${A}`);
    case 'abs': return norm(kk, `Math.abs(${A})`);
    case 'popc': return `H.popc(${A})`;
    case 'clz': return `Math.clz32(${A})`;
    case 'brev': return `H.brev(${A})`;
  }
  throw new Error(`no ${fn} for ${k}`);
}

function cvtExpr(from: ValueType, to: ValueType, A: string): string {
  const f = kindOf(from);
  const t = kindOf(to);
  const fInt64 = f === 'i64' || f === 'u64';
  const tInt64 = t === 'i64' || t === 'u64';
  const fFloat = f === 'f32' || f === 'f64' || f === 'ptr';
  if (t === 'pred') return fInt64 ? `(${A} !== 0n ? 1 : 0)` : `(${A} !== 0 ? 1 : 0)`;
  if (t === 'f32' || t === 'f64') {
    if (f === 'u64') return `Number(BigInt.asUintN(64, ${A}))`;
    if (f === 'i64') return `Number(${A})`;
    if (f === 'u32') return `(${A} >>> 0)`;
    return A;
  }
  if (tInt64) {
    if (f === 'ptr') return `BigInt(${A})`;
    if (fFloat) return `H.f2long(${A}, ${t === 'i64'})`;
    if (fInt64) return A;
    if (f === 'u32') return `BigInt(${A} >>> 0)`;
    return `BigInt(${A})`;
  }
  // to a 32-bit-storage integer
  const tk = t as ScalarKind;
  if (fFloat) {
    const r = RANGE[tk] as [number, number];
    return norm(tk, `H.f2int(${A}, ${r[0]}, ${r[1]})`);
  }
  if (fInt64) return norm(tk, `Number(BigInt.asIntN(32, ${A}))`);
  return norm(tk, A);
}

function bitcastExpr(from: ValueType, to: ValueType, A: string): string {
  const f = kindOf(from);
  const t = kindOf(to);
  if (f === 'f32' && (t === 'i32' || t === 'u32')) return `H.f2i(${A})`;
  if ((f === 'i32' || f === 'u32') && t === 'f32') return `H.i2f(${A})`;
  if (f === 'f64' && (t === 'i64' || t === 'u64')) return `H.d2l(${A})`;
  if ((f === 'i64' || f === 'u64') && t === 'f64') return `H.l2d(${A})`;
  if (f === 'ptr' && (t === 'i64' || t === 'u64')) return `BigInt(${A})`;
  return A; // same storage (i32 <-> u32, i64 <-> u64)
}

/**
 * 64-bit integer arithmetic on the registers' int32 halves, for what address arithmetic uses (moves,
 * constants, add, sub, multiply, bitwise, widening and narrowing, comparisons, an index): a BigInt per
 * lane and operation made such code several times slower. Other operations (divide, shifts) take
 * BigInts (statement); null for those.
 */
function statement64(i: Instr, g: Gen): string | null {
  switch (i.op) {
    case 'const':
      if (!is64(i.type)) return null;
      return g.setHalves(i.dst, '', ...g.halves({ imm: i.value, type: i.type }), false);
    case 'assign':
      if (!is64(i.type)) return null;
      return g.setHalves(i.dst, '', ...g.halves(i.a), true);
    case 'unary': {
      if (!is64(i.type)) return null;
      const [al, ah] = g.halves(i.a);
      if (i.fn === 'mov') return g.setHalves(i.dst, '', al, ah, false);
      if (i.fn === 'not') return g.setHalves(i.dst, '', `~${al}`, `~${ah}`, false);
      if (i.fn === 'neg') return g.setHalves(i.dst, `const s = -(${al} >>> 0);`, 's | 0', `(-${ah} - (s < 0 ? 1 : 0)) | 0`, false);
      return null;
    }
    case 'binary': {
      if (!is64(i.type)) return null;
      const [al, ah] = g.halves(i.a);
      const [bl, bh] = g.halves(i.b);
      switch (i.fn) {
        case 'add': return g.setHalves(i.dst, `const s = (${al} >>> 0) + (${bl} >>> 0);`, 's | 0', `(${ah} + ${bh} + (s > 4294967295 ? 1 : 0)) | 0`, false);
        case 'sub': return g.setHalves(i.dst, `const s = (${al} >>> 0) - (${bl} >>> 0);`, 's | 0', `(${ah} - ${bh} - (s < 0 ? 1 : 0)) | 0`, false);
        case 'and': return g.setHalves(i.dst, '', `${al} & ${bl}`, `${ah} & ${bh}`, false);
        case 'or': return g.setHalves(i.dst, '', `${al} | ${bl}`, `${ah} | ${bh}`, false);
        case 'xor': return g.setHalves(i.dst, '', `${al} ^ ${bl}`, `${ah} ^ ${bh}`, false);
        // the low 64 bits of the product: al * bl in full, the cross products' low words above it
        case 'mul': return g.setHalves(i.dst, `const x = ${al}, y = ${bl};`, 'Math.imul(x, y)', `(H.umulhi(x, y) + Math.imul(${ah}, y) + Math.imul(x, ${bh})) | 0`, false);
      }
      return null;
    }
    case 'select': {
      if (!is64(i.type)) return null;
      const c = g.lane(i.cond);
      const [al, ah] = g.halves(i.a);
      const [bl, bh] = g.halves(i.b);
      return g.setHalves(i.dst, `const c = ${c};`, `c ? ${al} : ${bl}`, `c ? ${ah} : ${bh}`, false);
    }
    case 'cmp': {
      if (!is64(i.a.type)) return null;
      const [al, ah] = g.halves(i.a);
      const [bl, bh] = g.halves(i.b);
      const hi = (x: string) => (kindOf(i.a.type) === 'u64' ? `(${x} >>> 0)` : x);
      const order = `(${ah} !== ${bh} ? (${hi(ah)} < ${hi(bh)} ? -1 : 1) : (${al} >>> 0) === (${bl} >>> 0) ? 0 : (${al} >>> 0) < (${bl} >>> 0) ? -1 : 1)`;
      return g.set(i.dst, `(${order} ${CMP_OPS[i.fn] as string} 0 ? 1 : 0)`, false);
    }
    case 'cvt': {
      const f = kindOf(i.a.type);
      const t = kindOf(i.type);
      const fFloat = f === 'f32' || f === 'f64' || f === 'ptr';
      if (is64(i.type)) {
        if (is64(i.a.type)) return g.setHalves(i.dst, '', ...g.halves(i.a), false);
        if (fFloat) return null;
        const a = g.lane(i.a);
        return g.setHalves(i.dst, `const a = ${a};`, 'a', f === 'u32' ? '0' : 'a >> 31', false);
      }
      if (!is64(i.a.type) || t === 'f32' || t === 'f64') return null;
      const [al, ah] = g.halves(i.a);
      if (t === 'pred') return g.set(i.dst, `((${al} | ${ah}) !== 0 ? 1 : 0)`, false);
      return g.set(i.dst, norm(t as ScalarKind, al), false);
    }
    case 'lea': {
      if (!is64(i.index.type)) return null;
      const [il, ih] = g.halves(i.index);
      const high = kindOf(i.index.type) === 'u64' ? `(${ih} >>> 0)` : ih;
      return g.set(i.dst, `${g.lane(i.base)} + (${high} * 4294967296 + (${il} >>> 0)) * ${i.scale}`, false);
    }
    default:
      return null;
  }
}

/** the lane-loop statement of an arithmetic/move instruction (isArith) */
function statement(i: Instr, g: Gen): string {
  const fast = statement64(i, g);
  if (fast !== null) return fast;
  switch (i.op) {
    case 'const':
      return g.set(i.dst, literal(i.value, i.type), false);
    case 'unary':
      return g.set(i.dst, unaryExpr(i.fn, i.type, g.lane(i.a)), false);
    case 'binary':
      return g.set(i.dst, binaryExpr(i.fn, i.type, g.lane(i.a), g.lane(i.b)), false);
    case 'cmp':
      return g.set(i.dst, cmpExpr(i.fn, i.a.type, g.lane(i.a), g.lane(i.b)), false);
    case 'fma': {
      const k = kindOf(i.type);
      const A = g.lane(i.a);
      const B = g.lane(i.b);
      const C = g.lane(i.c);
      const e =
        k === 'f32' || k === 'f64'
          ? `${A} * ${B} + ${C}`
          : k === 'i64' || k === 'u64'
            ? `BigInt.asIntN(64, ${A} * ${B} + ${C})`
            : norm(k as ScalarKind, `Math.imul(${A}, ${B}) + ${C}`);
      return g.set(i.dst, e, false);
    }
    case 'select':
      return g.set(i.dst, `${g.lane(i.cond)} ? ${g.lane(i.a)} : ${g.lane(i.b)}`, false);
    case 'cvt':
      return g.set(i.dst, cvtExpr(i.a.type, i.type, g.lane(i.a)), false);
    case 'bitcast':
      return g.set(i.dst, bitcastExpr(i.a.type, i.type, g.lane(i.a)), false);
    case 'lea': {
      const it = i.index.type;
      const k = kindOf(it);
      const I = g.lane(i.index);
      const idx = k === 'u32' ? `(${I} >>> 0)` : k === 'i64' ? `Number(${I})` : k === 'u64' ? `Number(BigInt.asUintN(64, ${I}))` : I;
      return g.set(i.dst, `${g.lane(i.base)} + ${idx} * ${i.scale}`, false);
    }
    case 'assign':
      return g.set(i.dst, g.lane(i.a), true);
    default:
      throw new Error(`${i.op} is not arithmetic`);
  }
}

const ARITH: ReadonlySet<Instr['op']> = new Set(['const', 'unary', 'binary', 'cmp', 'fma', 'select', 'cvt', 'bitcast', 'lea', 'assign']);

/** whether `genArith` compiles the instruction: pure arithmetic or a move, lane by lane, no other state */
export function isArith(i: Instr): boolean {
  return ARITH.has(i.op);
}

/** compile an arithmetic/move instruction; null for instructions that are not pure arithmetic */
export function genArith(i: Instr, layout: RegLayout): Exec | null {
  if (!isArith(i)) return null;
  const g = new Gen(layout);
  return g.fn(statement(i, g), i.op === 'assign');
}

/**
 * One function for a straight run of arithmetic instructions (isArith), with one lane loop: each lane
 * goes through the run in order. The same as running them one after another, as every one reads and
 * writes only its own lane; a result is kept in a local for the statements after it, as the register's
 * typed array would hold it. A result that only statements of the run read (`runLocal`: the caller
 * knows no instruction outside the run reads the register, and no jump enters the run between) is not
 * stored at all: most of a run's results are such temporaries (an address's parts, a condition's).
 */
export function genArithRun(run: readonly Instr[], layout: RegLayout, runLocal?: (r: number) => boolean): Exec {
  const g = new Gen(layout, true, runLocal);
  return g.fn(run.map((i) => statement(i, g)).join(' '), false);
}

/**
 * A shuffle whose every lane's source lane is known at compile time (an immediate offset: a
 * reduction's), of a register that holds numbers: the values are gathered and the lanes in the mask
 * take theirs. Generated per register layout, as arithmetic is, so that each instruction's loads and
 * stores see one array type (a closure shared by every shuffle saw them all). The mask's rules are
 * checked by the caller (warpOps.genShfl).
 */
export function genShflMove(value: number, dst: number, sources: Int8Array, layout: RegLayout): Exec {
  const refs = new RegRefs(layout);
  const read = refs.lane(value, 'l');
  const write = refs.lane(dst, 'l');
  const src = `return function exec(w) { ${refs.declarations()} const m = w.mask; for (let l = 0; l < 32; l++) T[l] = ${read}; for (let l = 0; l < 32; l++) { if ((m >>> l) & 1) { ${write} = T[S[l]]; } } };`;
  return instantiate<Exec>('shfl', ['T', 'S', ...refs.paramNames()], src, [new Float64Array(32), sources, ...refs.params]);
}

