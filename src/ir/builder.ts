/**
 * The kernel builder DSL. A kernel body is a TypeScript function that calls these methods; each call
 * appends a typed, source-located IR instruction. Type errors and scope errors are reported at build
 * time with the kernel's file:line.
 */
import { UserError } from '../errors.js';
import { callerLoc } from './sourceLoc.js';
// atomics.ts uses this module's classes only inside its methods: the import cycle is safe
import { AtomicRef } from './atomics.js';
import type {
  AccessProperty,
  AtomOp,
  BinaryOp,
  CacheOp,
  CompareOp,
  ElemType,
  Instr,
  MemOrder,
  MemScope,
  MemSemantics,
  ReduxOp,
  KernelIR,
  Operand,
  ParamDecl,
  PtrType,
  RegInfo,
  ScalarType,
  SharedAlloc,
  SourceLoc,
  SpecialReg,
  UnaryOp,
  ValueType,
  VoteMode,
  ShflMode,
} from './types.js';
import { elemBytes, f32, f64, i32, isFloat, isInt, pred, ptr as ptrType, sameType, typeName, u32, u64, i64 } from './typesys.js';
// shmem.ts uses this module's classes only inside its methods: the import cycle is safe
import { Shmem } from './shmem.js';
import { GENERIC_SHARED_WINDOW, GRID_WORKSPACE_PARAM, MAX_ASYNC_GROUPS, RESERVED_SHARED_PARAM } from './types.js';

export type Num = number | bigint;
export type ValLike = Val | Num | boolean;

/** the L2 line apply_access_property steps by (the 128-byte lines of prefetch.global.L2) */
const L2_LINE_BYTES = 128;

/** the longest loop k.for(..., { unroll: true }) lays out trip by trip */
const MAX_UNROLL = 1024;

function where(loc: SourceLoc): string {
  return `${loc.file}:${loc.line}`;
}

export function irError(loc: SourceLoc, msg: string): UserError {
  return new UserError(`${where(loc)}: ${msg}`);
}

interface Scope {
  id: number;
  parent: Scope | null;
  instrs: Instr[];
  inLoop: boolean;
  /** inside a predicated k.when() region */
  inWhen: boolean;
}

/** A value in a register (or an immediate). Arithmetic methods build new instructions. */
export class Val {
  constructor(
    readonly k: KernelBuilder,
    readonly operand: Operand,
  ) {}
  get type(): ValueType {
    return this.operand.type;
  }
  add(b: ValLike): Val { return this.k.binary('add', this, b); }
  sub(b: ValLike): Val { return this.k.binary('sub', this, b); }
  mul(b: ValLike): Val { return this.k.binary('mul', this, b); }
  div(b: ValLike): Val { return this.k.binary('div', this, b); }
  rem(b: ValLike): Val { return this.k.binary('rem', this, b); }
  and(b: ValLike): Val { return this.k.binary('and', this, b); }
  or(b: ValLike): Val { return this.k.binary('or', this, b); }
  xor(b: ValLike): Val { return this.k.binary('xor', this, b); }
  shl(b: ValLike): Val { return this.k.binary('shl', this, b); }
  shr(b: ValLike): Val { return this.k.binary('shr', this, b); }
  min(b: ValLike): Val { return this.k.binary('min', this, b); }
  max(b: ValLike): Val { return this.k.binary('max', this, b); }
  mulhi(b: ValLike): Val { return this.k.binary('mulhi', this, b); }
  lt(b: ValLike): Val { return this.k.cmp('lt', this, b); }
  le(b: ValLike): Val { return this.k.cmp('le', this, b); }
  gt(b: ValLike): Val { return this.k.cmp('gt', this, b); }
  ge(b: ValLike): Val { return this.k.cmp('ge', this, b); }
  eq(b: ValLike): Val { return this.k.cmp('eq', this, b); }
  ne(b: ValLike): Val { return this.k.cmp('ne', this, b); }
  neg(): Val { return this.k.unary('neg', this); }
  not(): Val { return this.k.unary('not', this); }
  abs(): Val { return this.k.unary('abs', this); }
  sqrt(): Val { return this.k.unary('sqrt', this); }
  /** fused multiply-add: this * b + c */
  fma(b: ValLike, c: ValLike): Val { return this.k.fma(this, b, c); }
  /** numeric conversion (cvt) */
  cast(t: ScalarType): Val { return this.k.cvt(this, t); }
  /** reinterpret the bits */
  bitcast(t: ScalarType): Val { return this.k.bitcast(this, t); }
  /** treat this pointer as a pointer to another element type (reinterpret_cast) */
  as(elem: ElemType): PtrVal {
    const t = this.k.expectPtr(this, 'as');
    return new PtrVal(this.k, { ...this.operand, type: ptrType(t.space, elem, t.property) } as Operand);
  }
}

/** a mutable variable (k.let): assignments are masked to the active, predicated-on lanes */
export class Var extends Val {
  set(v: ValLike): void {
    this.k.assign(this, v);
  }
}

/** a pointer value: index it with at(), offset it with add() */
export class PtrVal extends Val {
  get ptrType(): PtrType {
    return this.type as PtrType;
  }
  /** &p[index] */
  at(index: ValLike): Ref {
    return new Ref(this.k, this.add(index));
  }
  /** p + index (in elements) */
  add(index: ValLike): PtrVal {
    return this.k.lea(this, index, elemBytes(this.ptrType.elem));
  }
  /** p + bytes */
  addBytes(bytes: ValLike): PtrVal {
    return this.k.lea(this, bytes, 1);
  }
  /** the element this pointer points at */
  get ref(): Ref {
    return new Ref(this.k, this);
  }
  load(opts?: MemOpts): Val | VecVal {
    return this.ref.load(opts);
  }
  store(v: ValLike | VecVal | ValLike[], opts?: MemOpts): void {
    this.ref.store(v, opts);
  }
}

export interface MemOpts {
  /** PTX cache operator (ld: ca cg cs lu cv nc; st: wb cg cs wt) or 'strong' (volatile); 'nc' is __ldg */
  cache?: CacheOp;
  /** a `volatile` access (ld.volatile / st.volatile: relaxed at system scope, never cached in L1) */
  volatile?: boolean;
  /** an atomic load or store (ld.relaxed/acquire.scope, st.relaxed/release.scope); k.atomicRef builds these */
  sem?: MemSemantics;
}

/** cuda::thread_scope names, as atomic_ref<T, Scope> and atomic_thread_fence take them, and PTX's own */
export type ThreadScope = 'block' | 'device' | 'system' | MemScope;

/** cuda::thread_scope_block/device/system → PTX .cta/.gpu/.sys */
export function memScope(s: ThreadScope, loc: SourceLoc): MemScope {
  switch (s) {
    case 'block':
    case 'cta':
      return 'cta';
    case 'device':
    case 'gpu':
      return 'gpu';
    case 'system':
    case 'sys':
      return 'sys';
    default:
      throw irError(loc, `unknown thread scope '${String(s)}': use 'block', 'device' or 'system' (cuda::thread_scope_*)`);
  }
}

const ORDERS: readonly MemOrder[] = ['relaxed', 'acquire', 'release', 'acq_rel', 'seq_cst'];
export function checkOrder(o: MemOrder, loc: SourceLoc): MemOrder {
  if (!ORDERS.includes(o)) throw irError(loc, `unknown memory order '${String(o)}': use ${ORDERS.map((x) => `'${x}'`).join(', ')} (cuda::std::memory_order_*)`);
  return o;
}

/** the components of a 64/128-bit vector load */
export class VecVal {
  constructor(readonly parts: Val[]) {}
  get x(): Val { return this.get(0); }
  get y(): Val { return this.get(1); }
  get z(): Val { return this.get(2); }
  get w(): Val { return this.get(3); }
  get(i: number): Val {
    const v = this.parts[i];
    if (!v) throw new Error(`vector component ${i} out of range`);
    return v;
  }
}

/** an lvalue: the address of one element */
export class Ref {
  constructor(
    readonly k: KernelBuilder,
    readonly addr: PtrVal,
  ) {}
  load(opts?: MemOpts): Val | VecVal {
    return this.k.load(this.addr, opts);
  }
  /** load a scalar element (throws at build time if the element is a vector) */
  get(opts?: MemOpts): Val {
    const v = this.k.load(this.addr, opts);
    if (v instanceof VecVal) throw irError(callerLoc(), `get() on a vector element; use load()`);
    return v;
  }
  store(v: ValLike | VecVal | ValLike[], opts?: MemOpts): void {
    this.k.store(this.addr, v, opts);
  }
  /** __ldg(&p[i]): a read-only load of global memory (ld.global.nc, SASS LDG.E.CONSTANT) */
  ldg(): Val | VecVal {
    return this.k.load(this.addr, { cache: 'nc' });
  }
  atomic(fn: AtomOp, a: ValLike, b?: ValLike): Val {
    return this.k.atomic(fn, this.addr, a, b, true) as Val;
  }
  /** atomic without a return value (RED) */
  reduce(fn: AtomOp, a: ValLike): void {
    this.k.atomic(fn, this.addr, a, undefined, false);
  }
}

/** a statically sized shared array with row-major indexing (padding = wider rows) */
export class SharedArray {
  constructor(
    readonly base: PtrVal,
    readonly dims: number[],
  ) {}
  at(...idx: ValLike[]): Ref {
    const k = this.base.k;
    if (idx.length !== this.dims.length) throw irError(callerLoc(), `shared array has ${this.dims.length} dimensions, indexed with ${idx.length}`);
    let flat: ValLike = idx[0] as ValLike;
    for (let d = 1; d < idx.length; d++) flat = k.toVal(flat, i32).mul(this.dims[d] as number).add(idx[d] as ValLike);
    return this.base.at(flat);
  }
}

/** a per-thread local array (k.local): row-major indexing as for shared arrays */
export class LocalArray extends SharedArray {}

/** the most local memory per thread the emulator keeps (each resident thread has its own copy) */
export const MAX_LOCAL_BYTES = 1024;

export interface Dim3Vals {
  x: Val;
  y: Val;
  z: Val;
}

export class KernelBuilder {
  private readonly regs: RegInfo[] = [];
  private scope: Scope;
  private nextScope = 1;
  private readonly sharedAllocs: SharedAlloc[] = [];
  private sharedBytes = 0;
  /** the register every cp.async writes and cp.async.wait reads (Instr 'cpasync'), made on first use */
  private asyncToken: number | null = null;
  private dynShared = false;
  /** bytes of the thread's local frame so far (k.local) and how many arrays it holds */
  private localBytes = 0;
  private localAllocs = 0;
  private readonly barrierIds = new Set<number>();
  private readonly specials = new Map<string, Val>();
  private readonly gridSyncSites: SourceLoc[] = [];
  private readonly blockMultiples: { threads: number; loc: SourceLoc; what: string }[] = [];
  private reservedBytes = 0;
  readonly params: Record<string, Val> = {};

  constructor(
    readonly name: string,
    readonly file: string,
    readonly paramDecls: ParamDecl[],
  ) {
    this.scope = { id: 0, parent: null, instrs: [], inLoop: false, inWhen: false };
    for (const p of paramDecls) {
      const dst = this.newReg(p.type, false, { file, line: 0 });
      this.emit({ op: 'param', dst, type: p.type, name: p.name, loc: { file, line: 0 } });
      this.params[p.name] = p.type.tag === 'ptr' ? new PtrVal(this, { reg: dst, type: p.type }) : new Val(this, { reg: dst, type: p.type });
    }
  }

  // ---- registers and emission -------------------------------------------------------------

  private newReg(type: ValueType, mutable: boolean, loc: SourceLoc): number {
    this.regs.push({ type, mutable, loc, scope: this.scope.id });
    return this.regs.length - 1;
  }

  private emit(i: Instr): void {
    this.scope.instrs.push(i);
  }

  private visible(scopeId: number): boolean {
    for (let s: Scope | null = this.scope; s; s = s.parent) if (s.id === scopeId) return true;
    return false;
  }

  /** an operand usable here: immediates pass; registers must be defined in an enclosing scope */
  private use(v: Val, loc: SourceLoc): Operand {
    if (v.k !== this) throw irError(loc, 'value from another kernel');
    const o = v.operand;
    if ('reg' in o) {
      const info = this.regs[o.reg];
      if (info && !this.visible(info.scope))
        throw irError(loc, `value defined at line ${info.loc.line} is used outside the block that defines it; declare it with k.let() before the block and set() it inside`);
    }
    return o;
  }

  private wrap(dst: number, type: ValueType): Val {
    return type.tag === 'ptr' ? new PtrVal(this, { reg: dst, type }) : new Val(this, { reg: dst, type });
  }

  /** lift a JS number/boolean to an immediate of `type` (or check a Val's type) */
  toVal(v: ValLike, type: ValueType, loc: SourceLoc = callerLoc()): Val {
    if (v instanceof Val) return v;
    if (typeof v === 'boolean') {
      if (!(type.tag === 'scalar' && type.kind === 'pred')) throw irError(loc, `boolean literal where ${typeName(type)} is expected`);
      return new Val(this, { imm: v ? 1 : 0, type: pred });
    }
    if (type.tag === 'ptr') throw irError(loc, `number literal where ${typeName(type)} is expected`);
    if (typeof v === 'bigint') {
      if (type.kind !== 'i64' && type.kind !== 'u64') throw irError(loc, `bigint literal where ${type.kind} is expected`);
      return new Val(this, { imm: v, type });
    }
    if (type.kind === 'i64' || type.kind === 'u64') {
      if (!Number.isInteger(v)) throw irError(loc, `non-integer literal ${v} where ${type.kind} is expected`);
      return new Val(this, { imm: BigInt(v), type });
    }
    if (isInt(type) && !Number.isInteger(v)) throw irError(loc, `non-integer literal ${v} where ${type.kind} is expected; write a float value with k.f32(${v})`);
    return new Val(this, { imm: v, type });
  }

  private operandsOf2(a: ValLike, b: ValLike, loc: SourceLoc, what: string): [Val, Val] {
    let va: Val;
    let vb: Val;
    if (a instanceof Val) {
      va = a;
      vb = this.toVal(b, a.type, loc);
    } else if (b instanceof Val) {
      vb = b;
      va = this.toVal(a, b.type, loc);
    } else {
      va = this.toVal(a, typeof a === 'boolean' ? pred : i32, loc);
      vb = this.toVal(b, va.type, loc);
    }
    if (!sameType(va.type, vb.type)) {
      const ta = va.type;
      const tb = vb.type;
      // two pointers: .cast() converts numbers, so the hint names what converts pointers
      if (ta.tag === 'ptr' && tb.tag === 'ptr') {
        if (typeName(ta.elem) !== typeName(tb.elem))
          throw irError(loc, `type error: ${what} of ${typeName(ta)} and ${typeName(tb)}: they point to different element types; reinterpret one with .as(${typeName(ta.elem)})`);
        throw irError(loc, `type error: ${what} of ${typeName(ta)} and ${typeName(tb)}: pointers into different memory spaces; make both generic pointers with k.generic(p) (C's plain pointer, cvta.to.generic)`);
      }
      throw irError(loc, `type error: ${what} of ${typeName(ta)} and ${typeName(tb)}; convert one side with .cast(${typeName(ta)})`);
    }
    return [va, vb];
  }

  // ---- constants, specials -----------------------------------------------------------------

  const(type: ScalarType, value: Num | boolean): Val {
    return this.toVal(value, type);
  }
  f32(v: number): Val { return this.toVal(v, f32); }
  f64(v: number): Val { return this.toVal(v, f64); }
  i32(v: number): Val { return this.toVal(v, i32); }
  u32(v: number): Val { return this.toVal(v, u32); }
  i64(v: Num): Val { return this.toVal(typeof v === 'number' ? BigInt(v) : v, i64); }
  u64(v: Num): Val { return this.toVal(typeof v === 'number' ? BigInt(v) : v, u64); }

  private special(sreg: SpecialReg, type: ValueType = u32): Val {
    const key = `${sreg}:${typeName(type)}`;
    let v = this.specials.get(key);
    if (!v) {
      // special registers are read once at kernel entry, so they are visible everywhere
      const saved = this.scope;
      let root = saved;
      while (root.parent) root = root.parent;
      this.scope = root;
      // read at kernel entry, attributed to the line that first used it
      const loc = callerLoc();
      const dst = this.newReg(type, false, loc);
      root.instrs.splice(this.paramDecls.length + this.specials.size, 0, { op: 'special', dst, sreg, type, loc });
      this.scope = saved;
      v = this.wrap(dst, type);
      this.specials.set(key, v);
    }
    return v;
  }
  /**
   * C's warpSize: 32, but not a compile-time constant to nvcc (PTX's WARP_SZ), so that `x % warpSize`
   * and `x / warpSize` are the division sequences nvcc emits (a reciprocal computed once, then a
   * multiply and two corrections per division: the cuda-samples shfl_scan SASS), not a mask or a
   * shift. Write 32 where the C writes 32.
   */
  get warpSize(): Val {
    let v = this.specials.get('warpSize');
    if (!v) {
      // defined at kernel entry, as a special register, so that it is visible everywhere
      const loc = callerLoc();
      let root = this.scope;
      while (root.parent) root = root.parent;
      const saved = this.scope;
      this.scope = root;
      const dst = this.newReg(i32, false, loc);
      root.instrs.splice(this.paramDecls.length + this.specials.size, 0, { op: 'const', dst, type: i32, value: 32, opaque: true, loc });
      this.scope = saved;
      v = this.wrap(dst, i32);
      this.specials.set('warpSize', v);
    }
    return v;
  }
  /** a dim3 of special registers, each read (S2R) only when used */
  private dim3(prefix: 'tid' | 'ctaid' | 'ntid' | 'nctaid'): Dim3Vals {
    const k = this;
    return {
      get x() { return k.special(`${prefix}.x`); },
      get y() { return k.special(`${prefix}.y`); },
      get z() { return k.special(`${prefix}.z`); },
    };
  }
  get threadIdx(): Dim3Vals { return this.dim3('tid'); }
  get blockIdx(): Dim3Vals { return this.dim3('ctaid'); }
  get blockDim(): Dim3Vals { return this.dim3('ntid'); }
  get gridDim(): Dim3Vals { return this.dim3('nctaid'); }
  /** lane index within the warp (%laneid) */
  get laneId(): Val { return this.special('laneid'); }
  /** warp index within the block (threadIdx linearised / 32) */
  get warpId(): Val { return this.special('warpid'); }
  /** the SM the block runs on (%smid; probes use it to pick work by the SM's L2 partition) */
  get smId(): Val { return this.special('smid'); }

  // ---- arithmetic --------------------------------------------------------------------------

  unary(fn: UnaryOp, a: ValLike): Val {
    const loc = callerLoc();
    const va = a instanceof Val ? a : this.toVal(a, i32, loc);
    const t = va.type;
    if (t.tag === 'ptr') throw irError(loc, `${fn} of a pointer`);
    if (['sqrt', 'rsqrt', 'rcp', 'exp2', 'log2', 'sin', 'cos', 'floor', 'ceil', 'trunc'].includes(fn) && !isFloat(t))
      throw irError(loc, `type error: ${fn} needs f32 or f64, got ${t.kind}`);
    if (['popc', 'clz', 'brev', 'not'].includes(fn) && isFloat(t)) throw irError(loc, `type error: ${fn} needs an integer or pred, got ${t.kind}`);
    const opA = this.use(va, loc);
    const dst = this.newReg(t, false, loc);
    this.emit({ op: 'unary', fn, dst, type: t, a: opA, loc });
    return this.wrap(dst, t);
  }

  binary(fn: BinaryOp, a: ValLike, b: ValLike): Val {
    const loc = callerLoc();
    if (fn === 'shl' || fn === 'shr') {
      // shift amounts may be any integer type: they are converted to the shifted type's width
      const va = a instanceof Val ? a : this.toVal(a, i32, loc);
      const vb = this.toVal(b instanceof Val ? b : b, va.type, loc);
      return this.binaryChecked(fn, va, vb.type === va.type ? vb : this.cvt(vb, va.type as ScalarType), loc);
    }
    const [va, vb] = this.operandsOf2(a, b, loc, fn);
    return this.binaryChecked(fn, va, vb, loc);
  }

  private binaryChecked(fn: BinaryOp, va: Val, vb: Val, loc: SourceLoc): Val {
    const t = va.type;
    if (t.tag === 'ptr') throw irError(loc, `type error: ${fn} of pointers; use p.add(n) or p.at(i)`);
    if (t.kind === 'pred' && !['and', 'or', 'xor'].includes(fn)) throw irError(loc, `type error: ${fn} of pred values`);
    if (isFloat(t) && ['and', 'or', 'xor', 'shl', 'shr', 'mulhi'].includes(fn)) throw irError(loc, `type error: ${fn} needs integers, got ${t.kind}`);
    const dst = this.newReg(t, false, loc);
    this.emit({ op: 'binary', fn, dst, type: t, a: this.use(va, loc), b: this.use(vb, loc), loc });
    return this.wrap(dst, t);
  }

  cmp(fn: CompareOp, a: ValLike, b: ValLike): Val {
    const loc = callerLoc();
    const [va, vb] = this.operandsOf2(a, b, loc, fn);
    const dst = this.newReg(pred, false, loc);
    this.emit({ op: 'cmp', fn, dst, a: this.use(va, loc), b: this.use(vb, loc), loc });
    return this.wrap(dst, pred);
  }

  fma(a: ValLike, b: ValLike, c: ValLike): Val {
    const loc = callerLoc();
    const [va, vb] = this.operandsOf2(a, b, loc, 'fma');
    const vc = this.toVal(c, va.type, loc);
    if (!sameType(vc.type, va.type)) throw irError(loc, `type error: fma of ${typeName(va.type)} with addend ${typeName(vc.type)}`);
    const t = va.type;
    if (t.tag === 'ptr' || t.kind === 'pred') throw irError(loc, 'type error: fma needs numbers');
    const dst = this.newReg(t, false, loc);
    this.emit({ op: 'fma', dst, type: t, a: this.use(va, loc), b: this.use(vb, loc), c: this.use(vc, loc), loc });
    return this.wrap(dst, t);
  }

  /** cond ? a : b */
  select(cond: ValLike, a: ValLike, b: ValLike): Val {
    const loc = callerLoc();
    const vcond = this.toVal(cond, pred, loc);
    if (!(vcond.type.tag === 'scalar' && vcond.type.kind === 'pred')) throw irError(loc, `type error: select condition must be pred, got ${typeName(vcond.type)}`);
    const [va, vb] = this.operandsOf2(...this.commonPointers(a, b), loc, 'select');
    const dst = this.newReg(va.type, false, loc);
    this.emit({ op: 'select', dst, type: va.type, cond: this.use(vcond, loc), a: this.use(va, loc), b: this.use(vb, loc), loc });
    return this.wrap(dst, va.type);
  }

  cvt(a: Val, t: ScalarType): Val {
    const loc = callerLoc();
    if (a.type.tag === 'ptr') {
      if (t.kind !== 'u64' && t.kind !== 'i64') throw irError(loc, `type error: a pointer converts only to u64/i64`);
    }
    if (a.type.tag === 'scalar' && a.type.kind === t.kind) return a;
    const dst = this.newReg(t, false, loc);
    this.emit({ op: 'cvt', dst, type: t, a: this.use(a, loc), loc });
    return this.wrap(dst, t);
  }

  bitcast(a: Val, t: ScalarType): Val {
    const loc = callerLoc();
    const from = a.type;
    const bytes = (x: ValueType) => (x.tag === 'ptr' ? 8 : elemBytes(x));
    if (bytes(from) !== bytes(t)) throw irError(loc, `type error: bitcast from ${typeName(from)} to ${t.kind} changes the size`);
    const dst = this.newReg(t, false, loc);
    this.emit({ op: 'bitcast', dst, type: t, a: this.use(a, loc), loc });
    return this.wrap(dst, t);
  }

  expectPtr(v: Val, what: string): PtrType {
    if (v.type.tag !== 'ptr') throw irError(callerLoc(), `type error: ${what} needs a pointer, got ${typeName(v.type)}`);
    return v.type;
  }

  lea(base: PtrVal, index: ValLike, scale: number): PtrVal {
    const loc = callerLoc();
    const vi = index instanceof Val ? index : this.toVal(index, i32, loc);
    if (!isInt(vi.type)) throw irError(loc, `type error: pointer index must be an integer, got ${typeName(vi.type)}`);
    const t = base.ptrType;
    const dst = this.newReg(t, false, loc);
    this.emit({ op: 'lea', dst, type: t, base: this.use(base, loc), index: this.use(vi, loc), scale, loc });
    return new PtrVal(this, { reg: dst, type: t });
  }

  /**
   * cvta.to.generic: the generic pointer (C's plain `T*`) of a shared or global pointer. A global
   * address is its own generic address; a shared offset becomes an address in the shared window
   * (GENERIC_SHARED_WINDOW). Loads and stores through it are SASS LD/ST, which the hardware resolves
   * per thread (genericOps.ts). k.select and a generic k.let variable convert on their own, as C does.
   */
  generic(p: PtrVal): PtrVal {
    const loc = callerLoc();
    const t = this.expectPtr(p, 'generic');
    if (t.space === 'generic') return p;
    if (t.space === 'local') throw irError(loc, `k.generic of a pointer to local memory: Warpsight's generic pointers point to shared or global memory; use the k.local array directly`);
    const gt = ptrType('generic', t.elem, t.property);
    if (t.space === 'global') {
      // the same address in the same register: no instruction
      const o = this.use(p, loc);
      return new PtrVal(this, ('reg' in o ? { reg: o.reg, type: gt } : { imm: o.imm, type: gt }) as Operand);
    }
    const dst = this.newReg(gt, false, loc);
    this.emit({ op: 'lea', dst, type: gt, base: { imm: GENERIC_SHARED_WINDOW, type: gt }, index: this.use(p, loc), scale: 1, loc });
    return new PtrVal(this, { reg: dst, type: gt });
  }

  /** C's usual conversions of two pointers to one type: a shared and a global pointer (or a generic one) meet as generic pointers */
  private commonPointers(a: ValLike, b: ValLike): [ValLike, ValLike] {
    if (!(a instanceof PtrVal) || !(b instanceof PtrVal)) return [a, b];
    const sa = a.ptrType.space;
    const sb = b.ptrType.space;
    if (sa === sb || sa === 'local' || sb === 'local' || typeName(a.ptrType.elem) !== typeName(b.ptrType.elem)) return [a, b];
    return [this.generic(a), this.generic(b)];
  }

  /** a pointer with a cuda::annotated_ptr access property */
  annotate(p: PtrVal, property: AccessProperty): PtrVal {
    const loc = callerLoc();
    const t = ptrType(p.ptrType.space, p.ptrType.elem, property);
    const dst = this.newReg(t, false, loc);
    this.emit({ op: 'unary', fn: 'mov', dst, type: t, a: this.use(p, loc), loc });
    return new PtrVal(this, { reg: dst, type: t });
  }

  // ---- variables ---------------------------------------------------------------------------

  let(type: ScalarType | PtrType, init: ValLike): Var {
    const loc = callerLoc();
    const dst = this.newReg(type, true, loc);
    const v = type.tag === 'ptr' ? new PtrVar(this, { reg: dst, type }) : new Var(this, { reg: dst, type });
    this.assignTo(dst, type, init, loc);
    return v;
  }

  assign(target: Var, v: ValLike): void {
    const loc = callerLoc();
    const o = target.operand;
    if (!('reg' in o) || !this.regs[o.reg]?.mutable) throw irError(loc, 'set() on a value that is not a k.let() variable');
    this.use(target, loc);
    this.assignTo(o.reg, o.type, v, loc);
  }

  private assignTo(dst: number, type: ValueType, v: ValLike, loc: SourceLoc): void {
    let val = this.toVal(v, type, loc);
    if (type.tag === 'ptr' && type.space === 'generic' && val instanceof PtrVal && val.ptrType.space !== 'generic' && typeName(val.ptrType.elem) === typeName(type.elem)) val = this.generic(val);
    if (!sameType(val.type, type)) throw irError(loc, `type error: assigning ${typeName(val.type)} to a ${typeName(type)} variable`);
    this.emit({ op: 'assign', dst, type, a: this.use(val, loc), loc });
  }

  // ---- memory ------------------------------------------------------------------------------

  load(addr: PtrVal, opts?: MemOpts): Val | VecVal {
    const loc = callerLoc();
    const t = addr.ptrType;
    if (opts?.cache === 'nc' && t.space !== 'global') throw irError(loc, `a read-only load (cache 'nc', __ldg) reads global memory, not ${t.space}: drop the cache option`);
    const elem = t.elem;
    const scalars: ScalarType[] = elem.tag === 'vec' ? Array.from({ length: elem.n }, () => elem.elem) : [elem];
    const dsts = scalars.map((s) => this.newReg(s, false, loc));
    this.checkSem(t, opts, loc);
    const cache = opts?.volatile || opts?.sem ? 'strong' : (opts?.cache ?? 'ca');
    const shadow = t.space === 'generic' ? { shadow: this.newReg(ptrType('shared', elem), false, loc) } : {};
    this.emit({ op: 'ld', space: t.space, dsts, elem, addr: this.use(addr, loc), cache, property: t.property ?? { kind: 'global' }, ...(opts?.sem ? { sem: opts.sem } : {}), ...shadow, loc });
    const vals = dsts.map((d, i) => this.wrap(d, scalars[i] as ScalarType));
    return elem.tag === 'vec' ? new VecVal(vals) : (vals[0] as Val);
  }

  store(addr: PtrVal, v: ValLike | VecVal | ValLike[], opts?: MemOpts): void {
    const loc = callerLoc();
    if (opts?.cache === 'nc') throw irError(loc, `cache 'nc' is the read-only load path (__ldg); a store takes wb, cg, cs or wt`);
    const t = addr.ptrType;
    const elem = t.elem;
    let values: Operand[];
    if (elem.tag === 'vec') {
      const parts = v instanceof VecVal ? v.parts : Array.isArray(v) ? v : null;
      if (!parts || parts.length !== elem.n) throw irError(loc, `type error: storing to ${typeName(elem)} needs ${elem.n} components`);
      values = parts.map((p) => {
        const pv = this.toVal(p, elem.elem, loc);
        if (!sameType(pv.type, elem.elem)) throw irError(loc, `type error: storing ${typeName(pv.type)} into a ${typeName(elem)} component`);
        return this.use(pv, loc);
      });
    } else {
      if (v instanceof VecVal || Array.isArray(v)) throw irError(loc, `type error: storing a vector to ${typeName(elem)}`);
      const pv = this.toVal(v, elem, loc);
      if (!sameType(pv.type, elem)) throw irError(loc, `type error: storing ${typeName(pv.type)} through a pointer to ${typeName(elem)}`);
      values = [this.use(pv, loc)];
    }
    this.checkSem(t, opts, loc);
    const cache = opts?.volatile || opts?.sem ? 'strong' : (opts?.cache ?? 'wb');
    const shadow = t.space === 'generic' ? { shadow: this.newReg(ptrType('shared', elem), false, loc) } : {};
    this.emit({ op: 'st', space: t.space, values, elem, addr: this.use(addr, loc), cache, property: t.property ?? { kind: 'global' }, ...(opts?.sem ? { sem: opts.sem } : {}), ...shadow, loc });
  }

  /** volatile and atomic accesses: a scalar in global or shared memory, no cache operator (PTX: "no cache ops") */
  private checkSem(t: PtrType, opts: MemOpts | undefined, loc: SourceLoc): void {
    if (!opts?.sem && !opts?.volatile) return;
    const what = opts.sem ? `an atomic ${opts.sem.order} access` : 'a volatile access';
    if (opts.cache !== undefined && opts.cache !== 'strong') throw irError(loc, `${what} takes no cache operator (got '${opts.cache}'): PTX allows none on ld/st.volatile, .relaxed, .acquire or .release`);
    if (t.space === 'local') throw irError(loc, `${what} to local memory: atomic and volatile accesses are to global or shared memory`);
    if (t.space === 'generic') throw irError(loc, `${what} through a generic pointer: Warpsight takes atomic and volatile accesses through a shared or a global pointer; access the array it points to directly`);
    if (opts.sem && t.elem.tag !== 'scalar') throw irError(loc, `${what} of ${typeName(t.elem)}: atomic loads and stores are of one scalar`);
  }

  atomic(fn: AtomOp, addr: PtrVal, a: ValLike, b: ValLike | undefined, returns: boolean, sem?: MemSemantics): Val | undefined {
    const loc = callerLoc();
    if (addr.ptrType.space === 'generic') throw irError(loc, 'an atomic through a generic pointer: Warpsight takes atomics through a shared or a global pointer; use the array it points to directly');
    if (addr.ptrType.space === 'local') throw irError(loc, 'an atomic on local memory: atomics are to global or shared memory (a k.local array is private to its thread; update it with load and store)');
    const t = addr.ptrType;
    if (t.elem.tag !== 'scalar') throw irError(loc, 'atomics need a scalar element');
    const et = t.elem;
    const va = this.toVal(a, et, loc);
    if (!sameType(va.type, et)) throw irError(loc, `type error: atomic ${fn} of ${typeName(va.type)} on ${et.kind}`);
    const vb = b === undefined ? undefined : this.toVal(b, et, loc);
    const dst = returns ? this.newReg(et, false, loc) : null;
    this.emit({ op: 'atom', space: t.space, fn, dst, type: et, addr: this.use(addr, loc), a: this.use(va, loc), ...(vb ? { b: this.use(vb, loc) } : {}), property: t.property ?? { kind: 'global' }, ...(sem ? { sem } : {}), loc });
    return dst === null ? undefined : this.wrap(dst, et);
  }

  /** __shared__ T name[d0][d1]…  (pad a dimension by declaring it wider, e.g. [32, 33]) */
  shared(elem: ElemType, dims: number[], name = `smem${this.sharedAllocs.length}`): SharedArray {
    const loc = callerLoc();
    if (dims.length === 0 || dims.some((d) => !Number.isInteger(d) || d <= 0)) throw irError(loc, `shared array dimensions must be positive integers, got [${dims.join(', ')}]`);
    const count = dims.reduce((a, b) => a * b, 1);
    const bytes = count * elemBytes(elem);
    const align = Math.max(16, elemBytes(elem));
    const offset = Math.ceil(this.sharedBytes / align) * align;
    this.sharedAllocs.push({ name, offset, bytes, align, loc });
    this.sharedBytes = offset + bytes;
    const base = this.constPtr(ptrType('shared', elem), offset, loc);
    return new SharedArray(base, dims);
  }

  /**
   * T name[d0][d1]… in a thread's local memory: a per-thread array indexed with values nvcc cannot
   * resolve to registers (a runtime index), which ptxas places in the thread's stack frame and reaches
   * with STL/LDL. Index it with .at(); loads and stores through it are local accesses.
   */
  local(elem: ElemType, dims: number | number[], name = `local${this.localAllocs}`): LocalArray {
    const loc = callerLoc();
    const d = typeof dims === 'number' ? [dims] : dims;
    if (d.length === 0 || d.some((x) => !Number.isInteger(x) || x <= 0)) throw irError(loc, `local array '${name}' dimensions must be positive integers, got [${d.join(', ')}]`);
    if (elem.tag === 'scalar' && elem.kind === 'pred') throw irError(loc, `local array '${name}' of pred: use u8 or u32 elements`);
    const bytes = d.reduce((a, b) => a * b, 1) * elemBytes(elem);
    const align = Math.max(4, elemBytes(elem));
    const offset = Math.ceil(this.localBytes / align) * align;
    // ptxas's frames are 8-byte granular; 16 keeps 128-bit elements aligned; the emulator keeps every
    // resident thread's frame, so it bounds them
    const frame = Math.ceil((offset + bytes) / 16) * 16;
    if (frame > MAX_LOCAL_BYTES)
      throw irError(loc, `local array '${name}' makes the thread's local memory ${frame} bytes; Warpsight emulates at most ${MAX_LOCAL_BYTES} bytes of local memory per thread: use a smaller array or shared memory`);
    this.localAllocs++;
    this.localBytes = offset + bytes;
    return new LocalArray(new PtrVal(this, { imm: offset, type: ptrType('local', elem) }), d);
  }

  /** extern __shared__ T name[] — placed after the static shared arrays */
  dynamicShared(elem: ElemType): PtrVal {
    const loc = callerLoc();
    void loc;
    this.dynShared = true;
    return this.special('dynsmem', ptrType('shared', elem)) as PtrVal;
  }

  /** shared pointers are byte offsets in the block's shared window */
  private constPtr(t: PtrType, offset: number, _loc: SourceLoc): PtrVal {
    return new PtrVal(this, { imm: offset, type: t });
  }

  // ---- control flow --------------------------------------------------------------------------

  private nested(inLoop: boolean, build: () => void, inWhen = false): Instr[] {
    const parent = this.scope;
    if (parent.inWhen) throw irError(callerLoc(), 'control flow inside k.when(): a predicated region must be straight-line code; use k.if()');
    const s: Scope = { id: this.nextScope++, parent, instrs: [], inLoop: inLoop || parent.inLoop, inWhen };
    this.scope = s;
    try {
      build();
    } finally {
      this.scope = parent;
    }
    return s.instrs;
  }

  private condOperand(cond: ValLike, loc: SourceLoc): Operand {
    const c = this.toVal(cond, pred, loc);
    if (!(c.type.tag === 'scalar' && c.type.kind === 'pred')) throw irError(loc, `type error: condition must be pred (a comparison), got ${typeName(c.type)}`);
    return this.use(c, loc);
  }

  /** if (cond) then() else otherwise() — a branch (BRA) in SASS */
  if(cond: ValLike, then: () => void, otherwise?: () => void): void {
    const loc = callerLoc();
    const c = this.condOperand(cond, loc);
    const t = this.nested(false, then);
    const e = otherwise ? this.nested(false, otherwise) : null;
    this.emit({ op: 'if', cond: c, then: t, else: e, predicated: false, loc });
  }

  /** a short conditional that nvcc if-converts: predicated instructions, no branch */
  when(cond: ValLike, body: () => void): void {
    const loc = callerLoc();
    const c = this.condOperand(cond, loc);
    const t = this.nested(false, body, true);
    this.emit({ op: 'if', cond: c, then: t, else: null, predicated: true, loc });
  }

  /**
   * for (i = start; i < end; i += step) body(i) — guard branch + back-edge branch, as nvcc emits.
   * `{ unroll: true }` is `#pragma unroll` on a loop with constant bounds (nvcc's default for short ones):
   * the body is laid out once per trip with i a constant, and there is no loop and no branch.
   * `{ unroll: n }` is `#pragma unroll n` on a loop whose trip count is known only at run time (nvcc
   * unrolls small runtime loops by 4 on its own, src/exec/runtimeUnroll.ts): see unrolledFor.
   * `{ unroll: 1 }` is `#pragma unroll 1`: the loop stays as written.
   */
  for(start: ValLike, end: ValLike, step: ValLike, body: (i: Val) => void, opts: { unroll?: boolean | number } = {}): void {
    const loc = callerLoc();
    if (opts.unroll === 1) {
      const startV = start instanceof Val ? start : end instanceof Val ? this.toVal(start, end.type, loc) : this.toVal(start, i32, loc);
      const i = this.let(startV.type as ScalarType, startV);
      this.loop(loc, () => i.lt(end), () => {
        body(i);
        i.set(i.add(step));
      }, true, true);
      return;
    }
    if (typeof opts.unroll === 'number') {
      this.unrolledFor(loc, start, end, step, body, opts.unroll);
      return;
    }
    if (opts.unroll) {
      if (typeof start !== 'number' || typeof end !== 'number' || typeof step !== 'number' || !Number.isInteger(start) || !Number.isInteger(end) || !Number.isInteger(step) || step <= 0)
        throw irError(loc, 'k.for(..., { unroll: true }) needs integer start, end and a positive step written as numbers (a loop nvcc can unroll has a trip count known at compile time)');
      const trips = Math.max(0, Math.ceil((end - start) / step));
      if (trips > MAX_UNROLL) throw irError(loc, `k.for(..., { unroll: true }) of ${trips} trips: unroll at most ${MAX_UNROLL} (nvcc keeps longer loops)`);
      for (let v = start; v < end; v += step) body(this.toVal(v, i32, loc));
      return;
    }
    const startV = start instanceof Val ? start : end instanceof Val ? this.toVal(start, end.type, loc) : this.toVal(start, i32, loc);
    const i = this.let(startV.type as ScalarType, startV);
    this.loop(loc, () => i.lt(end), () => {
      body(i);
      i.set(i.add(step));
    }, true);
  }

  /**
   * nvcc's layout of a runtime loop unrolled n times (the ground truth's l2_*_pass1 SASS, 32 trips:
   * 9 branches per warp): a guard, the trip count and its remainder; if at least n trips, a loop of n
   * bodies with one back-edge; then, if a remainder is left, a loop of one body per trip. At the end of
   * a kernel the guard and the remainder test are EXITs (the tail rule). The index of an unrolled copy
   * is computed only when the body takes it.
   */
  private unrolledFor(loc: SourceLoc, start: ValLike, end: ValLike, step: ValLike, body: (i: Val) => void, n: number): void {
    if (!Number.isInteger(n) || n < 2 || n > MAX_UNROLL || (n & (n - 1)) !== 0)
      throw irError(loc, `k.for(..., { unroll: ${n} }): unroll by a power of two from 2 to ${MAX_UNROLL} (nvcc's #pragma unroll n), or by 1 to keep the loop as written (#pragma unroll 1)`);
    if (typeof step !== 'number' || !Number.isInteger(step) || step <= 0) throw irError(loc, `k.for(..., { unroll: ${n} }) needs a positive integer step written as a number`);
    const startV = start instanceof Val ? start : end instanceof Val ? this.toVal(start, end.type, loc) : this.toVal(start, i32, loc);
    const i = this.let(startV.type as ScalarType, startV);
    const endV = this.toVal(end, startV.type, loc);
    this.if(i.lt(endV), () => {
      const span = endV.sub(i);
      const trips = step === 1 ? span : span.add(step - 1).div(step);
      const rem = trips.and(n - 1);
      this.if(trips.ge(n), () => {
        const stop = endV.sub(step === 1 ? rem : rem.mul(step));
        this.doWhile(() => {
          for (let u = 0; u < n; u++) body(u === 0 || body.length === 0 ? i : i.add(u * step));
          i.set(i.add(n * step));
        }, () => i.lt(stop));
      });
      this.if(rem.ne(0), () => this.doWhile(() => {
        body(i);
        i.set(i.add(step));
      }, () => i.lt(endV)));
    });
  }

  /** while (cond()) body() */
  while(cond: () => ValLike, body: () => void): void {
    this.loop(callerLoc(), cond, body, true);
  }

  /** do body() while (cond()) */
  doWhile(body: () => void, cond: () => ValLike): void {
    this.loop(callerLoc(), cond, body, false);
  }

  private loop(loc: SourceLoc, cond: () => ValLike, body: () => void, guard: boolean, keep = false): void {
    let c: Operand | null = null;
    const head = this.nested(true, () => {
      c = this.condOperand(cond(), loc);
    });
    const b = this.nested(true, body);
    this.emit({ op: 'loop', head, cond: c as unknown as Operand, body: b, guard, loc, ...(keep ? { keep } : {}) });
  }

  break(): void {
    const loc = callerLoc();
    if (!this.scope.inLoop) throw irError(loc, 'break outside a loop');
    if (this.scope.inWhen) throw irError(loc, 'break inside k.when(); use k.if()');
    this.emit({ op: 'break', loc });
  }

  /** early return: the active threads exit */
  return(): void {
    this.emit({ op: 'return', loc: callerLoc() });
  }

  // ---- synchronisation and warp primitives --------------------------------------------------

  /** __syncthreads(): bar.sync 0 */
  syncthreads(): void {
    this.barrierIds.add(0);
    this.emit({ op: 'bar', mode: 'sync', id: { imm: 0, type: u32 }, count: null, loc: callerLoc() });
  }
  /** bar.sync id, count — count a multiple of 32; omit for all threads of the block */
  barSync(id: ValLike, count?: ValLike): void {
    this.bar('sync', id, count);
  }
  /** bar.arrive id, count */
  barArrive(id: ValLike, count: ValLike): void {
    this.bar('arrive', id, count);
  }
  private bar(mode: 'sync' | 'arrive', id: ValLike, count?: ValLike): void {
    const loc = callerLoc();
    const vid = this.toVal(id, u32, loc);
    if ('imm' in vid.operand) this.barrierIds.add(Number(vid.operand.imm));
    const vc = count === undefined ? null : this.toVal(count, u32, loc);
    this.emit({ op: 'bar', mode, id: this.use(vid, loc), count: vc ? this.use(vc, loc) : null, loc });
  }
  syncwarp(mask: ValLike = 0xffffffff): void {
    const loc = callerLoc();
    this.emit({ op: 'syncwarp', mask: this.use(this.toVal(mask, u32, loc), loc), loc });
  }
  shfl(mode: ShflMode, value: Val, lane: ValLike, opts: { mask?: ValLike; width?: number } = {}): Val {
    const loc = callerLoc();
    const t = value.type;
    if (t.tag !== 'scalar' || t.kind === 'pred') throw irError(loc, `type error: shfl of ${typeName(t)}`);
    const width = opts.width ?? 32;
    if (![1, 2, 4, 8, 16, 32].includes(width)) throw irError(loc, `shfl width must be a power of two up to 32, got ${width}`);
    const dst = this.newReg(t, false, loc);
    this.emit({
      op: 'shfl', mode, dst, type: t, value: this.use(value, loc), lane: this.use(this.toVal(lane, u32, loc), loc), width,
      mask: this.use(this.toVal(opts.mask ?? 0xffffffff, u32, loc), loc), loc,
    });
    return this.wrap(dst, t);
  }
  vote(mode: VoteMode, p: ValLike, mask: ValLike = 0xffffffff): Val {
    const loc = callerLoc();
    const dst = this.newReg(mode === 'ballot' ? u32 : pred, false, loc);
    this.emit({ op: 'vote', mode, dst, pred: this.condOperand(p, loc), mask: this.use(this.toVal(mask, u32, loc), loc), loc });
    return this.wrap(dst, mode === 'ballot' ? u32 : pred);
  }
  /**
   * __reduce_add_sync / _min_ / _max_ / _and_ / _or_ / _xor_sync(mask, value): the reduction of a 32-bit
   * integer over the lanes the mask names, in each of them (SASS REDUX into a uniform register and a MOV
   * back: isel_probe's redux_*). min and max compare as the value's type (signed for i32).
   */
  reduceSync(fn: ReduxOp, value: Val, mask: ValLike = 0xffffffff): Val {
    const loc = callerLoc();
    const t = value.type;
    if (t.tag !== 'scalar' || (t.kind !== 'i32' && t.kind !== 'u32'))
      throw irError(loc, `type error: __reduce_${fn}_sync takes a 32-bit integer (i32 or u32), got ${typeName(t)}; convert it with .cast(u32)`);
    const dst = this.newReg(t, false, loc);
    this.emit({ op: 'redux', fn, dst, type: t, value: this.use(value, loc), mask: this.use(this.toVal(mask, u32, loc), loc), loc });
    return this.wrap(dst, t);
  }
  matchAny(value: Val, mask: ValLike = 0xffffffff): Val {
    const loc = callerLoc();
    const dst = this.newReg(u32, false, loc);
    this.emit({ op: 'match', dst, value: this.use(value, loc), mask: this.use(this.toVal(mask, u32, loc), loc), loc });
    return this.wrap(dst, u32);
  }
  activemask(): Val {
    const loc = callerLoc();
    const dst = this.newReg(u32, false, loc);
    this.emit({ op: 'activemask', dst, loc });
    return this.wrap(dst, u32);
  }
  /** membar.cta / membar.gl / membar.sys: fence.sc at that scope */
  membar(scope: 'cta' | 'gpu' | 'sys'): void {
    const loc = callerLoc();
    this.emit({ op: 'membar', scope: memScope(scope, loc), loc });
  }
  /**
   * cuda::atomic_thread_fence(order, scope): seq_cst is fence.sc; acquire, release and acq_rel are
   * fence.acq_rel (libcu++ on sm_70+); relaxed emits nothing
   */
  atomicThreadFence(order: MemOrder, scope: ThreadScope = 'system'): void {
    const loc = callerLoc();
    checkOrder(order, loc);
    if (order === 'relaxed') return;
    this.emit({ op: 'membar', scope: memScope(scope, loc), order: order === 'seq_cst' ? 'sc' : 'acq_rel', loc });
  }
  /** __threadfence_block(): fence.sc.cta */
  threadfenceBlock(): void {
    this.emit({ op: 'membar', scope: 'cta', loc: callerLoc() });
  }
  /** __threadfence(): fence.sc.gpu */
  threadfence(): void {
    this.emit({ op: 'membar', scope: 'gpu', loc: callerLoc() });
  }
  /** __threadfence_system(): fence.sc.sys */
  threadfenceSystem(): void {
    this.emit({ op: 'membar', scope: 'sys', loc: callerLoc() });
  }
  /** __nanosleep(ns): the warp sleeps about ns nanoseconds (at most ~1 ms; SASS NANOSLEEP) */
  nanosleep(ns: ValLike): void {
    const loc = callerLoc();
    const v = this.toVal(ns, u32, loc);
    if (!(v.type.tag === 'scalar' && (v.type.kind === 'u32' || v.type.kind === 'i32'))) throw irError(loc, `type error: __nanosleep takes a u32 count of nanoseconds, got ${typeName(v.type)}`);
    this.emit({ op: 'nanosleep', ns: this.use(v, loc), loc });
  }
  /** %globaltimer: the GPU's nanosecond timer (u64), read each time (libcu++'s backoff measures with it) */
  globalTimer(): Val {
    const loc = callerLoc();
    const dst = this.newReg(u64, false, loc);
    this.emit({ op: 'globaltimer', dst, loc });
    return this.wrap(dst, u64);
  }
  /**
   * cuda::atomic_ref<T, scope>(*p): scoped atomic loads, stores, exchanges, compare-exchanges, fetch
   * ops, and wait/notify as libcu++ implements them. The default scope is system, as for
   * cuda::atomic_ref<T>; pass 'device' for cuda::thread_scope_device.
   */
  atomicRef(p: Ref | PtrVal, scope: ThreadScope = 'system'): AtomicRef {
    const loc = callerLoc();
    const addr = p instanceof Ref ? p.addr : p;
    const t = this.expectPtr(addr, 'atomicRef');
    if (t.elem.tag !== 'scalar' || t.elem.kind === 'pred' || elemBytes(t.elem) < 4) throw irError(loc, `atomicRef needs a 4- or 8-byte scalar element, got ${typeName(t.elem)}`);
    if (t.space === 'local') throw irError(loc, 'atomicRef on local memory: atomics are to global or shared memory');
    if (t.space === 'generic') throw irError(loc, 'atomicRef through a generic pointer: Warpsight takes atomics through a shared or a global pointer; use the array it points to directly');
    return new AtomicRef(this, addr, memScope(scope, loc));
  }
  /**
   * cuda::apply_access_property(p, bytes, persisting{} | normal{}): prefetch.global.L2::evict_last (or
   * evict_normal) of each 128-byte line from p's up to p + bytes, one per line as libcu++ loops over
   * them; without `bytes`, the line holding p. A byte count known here is laid out line by line (nvcc
   * unrolls the constant loop); one known at run time (a Val) is a loop.
   */
  l2Prefetch(p: PtrVal, prop: 'persisting' | 'normal', bytes?: ValLike): void {
    const loc = callerLoc();
    const t = this.expectPtr(p, 'l2Prefetch');
    if (t.space !== 'global') throw irError(loc, `apply_access_property (l2Prefetch) prefetches global memory into L2, not ${t.space} memory`);
    const one = (q: PtrVal): void => this.emit({ op: 'l2prefetch', addr: this.use(q, loc), prop, loc });
    if (bytes === undefined) {
      one(p);
      return;
    }
    if (typeof bytes === 'number') {
      if (!Number.isInteger(bytes) || bytes <= 0) throw irError(loc, `apply_access_property of ${bytes} bytes: the size is a positive whole number of bytes`);
      const lines = Math.ceil(bytes / L2_LINE_BYTES);
      if (lines > MAX_UNROLL) throw irError(loc, `apply_access_property of ${bytes} bytes with a constant size: at most ${MAX_UNROLL * L2_LINE_BYTES} bytes laid out line by line; pass the size as a value to loop over it`);
      for (let l = 0; l < lines; l++) one(l === 0 ? p : p.addBytes(l * L2_LINE_BYTES));
      return;
    }
    const n = this.toVal(bytes, u64, loc);
    if (!isInt(n.type)) throw irError(loc, `apply_access_property size must be an integer, got ${typeName(n.type)}`);
    // for (size_t i = 0; i < bytes; i += 128) prefetch(p + i)
    this.for(this.toVal(0, n.type, loc), n, L2_LINE_BYTES, (i) => one(p.addBytes(i)));
  }

  /**
   * cuda::access_property(p, primaryBytes, totalBytes, primary, secondary): a range property whose base is
   * the runtime pointer `p`, a pointer parameter of the kernel (each launch's argument is the range's base).
   * Annotate pointers with it: k.annotate(q, k.accessRange(p, ...)).
   */
  accessRange(p: PtrVal, primaryBytes: number, totalBytes: number, primary: 'normal' | 'streaming' | 'persisting', secondary?: 'normal' | 'streaming' | 'persisting' | 'global'): AccessProperty {
    const loc = callerLoc();
    const o = p.operand;
    const name = 'reg' in o ? Object.keys(this.params).find((k) => { const v = this.params[k]?.operand; return v !== undefined && 'reg' in v && v.reg === o.reg; }) : undefined;
    if (name === undefined || p.ptrType.space !== 'global')
      throw irError(loc, `k.accessRange: the range's base must be a global pointer parameter of the kernel (the launch supplies its value); pass the parameter itself, or give the range's address as a number with { kind: 'range', base: ... }`);
    return { kind: 'range', base: { param: name }, primaryBytes, totalBytes, primary, ...(secondary ? { secondary } : {}) };
  }
  /** discard.global.L2 of the 128-byte line at p (must be 128-byte aligned) */
  l2Discard(p: PtrVal): void {
    const loc = callerLoc();
    this.emit({ op: 'l2discard', addr: this.use(p, loc), loc });
  }

  /**
   * cp.async (cooperative_groups / cuda::memcpy_async as nvcc lowers them): `*to = *from`, one 4-, 8-
   * or 16-byte element per thread from global to shared memory without a register (SASS LDGSTS).
   * The copy is asynchronous: read the shared data only after waitAsyncCopies() (and a barrier when
   * other threads copied it). `cache: 'cg'` (16-byte elements) bypasses L1, as nvcc does for
   * cuda::aligned_size_t<16> copies (LDGSTS.E.BYPASS.128).
   */
  copyAsync(to: Ref, from: Ref, opts: { cache?: 'ca' | 'cg' } = {}): void {
    const loc = callerLoc();
    const dt = to.addr.ptrType;
    const st = from.addr.ptrType;
    if (dt.space !== 'shared' || st.space !== 'global') throw irError(loc, `copyAsync copies global to shared memory, not ${st.space} to ${dt.space}`);
    if (typeName(dt.elem) !== typeName(st.elem)) throw irError(loc, `type error: copyAsync from ${typeName(st.elem)} to ${typeName(dt.elem)}`);
    const elem = dt.elem;
    const bytes = elemBytes(elem);
    if (bytes !== 4 && bytes !== 8 && bytes !== 16) throw irError(loc, `copyAsync copies 4, 8 or 16 bytes per thread (cp.async), not ${bytes}: use a wider element type`);
    const cache = opts.cache ?? 'ca';
    if (cache === 'cg' && bytes !== 16) throw irError(loc, `copyAsync with cache 'cg' needs 16-byte elements (cp.async.cg), not ${bytes}`);
    const scalars: ScalarType[] = elem.tag === 'vec' ? Array.from({ length: elem.n }, () => elem.elem) : [elem];
    const tmps = scalars.map((s) => this.newReg(s, false, loc));
    this.emit({ op: 'cpasync', to: this.use(to.addr, loc), from: this.use(from.addr, loc), elem, cache, property: st.property ?? { kind: 'global' }, tmps, token: this.token(loc), loc });
  }
  /** cp.async.wait_all (cooperative_groups::wait's first half): this thread's async copies have landed */
  waitAsyncCopies(): void {
    const loc = callerLoc();
    this.emit({ op: 'cpwait', token: this.token(loc), loc });
  }
  /**
   * cp.async.commit_group (__pipeline_commit(), cuda::pipeline's producer_commit(); SASS LDGDEPBAR): the
   * copies this thread issued since its last commit become one group, which waitPrior counts
   */
  commitAsyncCopies(): void {
    this.emit({ op: 'cpcommit', loc: callerLoc() });
  }
  /**
   * cp.async.wait_group N (cg::wait_prior<N>, __pipeline_wait_prior(N); SASS DEPBAR.LE SB0, N): wait
   * until all but the N most recently committed groups of this thread's copies have landed, so that a
   * multi-stage pipeline reads one stage while the next N are in flight. Uncommitted copies are not
   * waited for (commit them first with commitAsyncCopies). N = 0 waits for every committed group.
   */
  waitPrior(n: number): void {
    const loc = callerLoc();
    // the timing model keeps the last MAX_ASYNC_GROUPS groups of each warp (ptxas emits DEPBAR.LE SB0 counts up to 8 at least: pipe_probe's ps)
    if (!Number.isInteger(n) || n < 0 || n >= MAX_ASYNC_GROUPS)
      throw irError(loc, `waitPrior(${n}): the count of groups left in flight is an integer from 0 to ${MAX_ASYNC_GROUPS - 1} (cp.async.wait_group N; Warpsight tracks ${MAX_ASYNC_GROUPS} groups per warp)`);
    this.emit({ op: 'cpwaitprior', prior: n, loc });
  }
  // ---- mbarrier (cuda::barrier; src/ir/mbarrier.ts builds the object and its wait) ----
  /** mbarrier.init: the barrier at `addr` (8 bytes of shared memory) expects `count` arrivals per phase */
  mbarInit(addr: PtrVal, count: ValLike): void {
    const loc = callerLoc();
    this.expectMbar(addr, loc);
    this.emit({ op: 'mbarinit', addr: this.use(addr, loc), count: this.use(this.toVal(count, u32, loc), loc), loc });
  }
  /** mbarrier.arrive: this thread arrives; the result is the token of the phase it arrived in */
  mbarArrive(addr: PtrVal): Val {
    const loc = callerLoc();
    this.expectMbar(addr, loc);
    const dst = this.newReg(u64, false, loc);
    this.emit({ op: 'mbararrive', dst, addr: this.use(addr, loc), loc });
    return this.wrap(dst, u64);
  }
  /** mbarrier.try_wait: whether the phase of `token` has completed */
  mbarTest(addr: PtrVal, token: Val): Val {
    const loc = callerLoc();
    this.expectMbar(addr, loc);
    const dst = this.newReg(pred, false, loc);
    this.emit({ op: 'mbartest', dst, addr: this.use(addr, loc), token: this.use(this.toVal(token, u64, loc), loc), loc });
    return this.wrap(dst, pred);
  }
  private expectMbar(addr: PtrVal, loc: SourceLoc): void {
    const t = this.expectPtr(addr, 'mbarrier');
    if (t.space !== 'shared' || elemBytes(t.elem) !== 8) throw irError(loc, `an mbarrier (cuda::barrier) is 8 bytes of shared memory: use k.mbarrier() or a pointer to a shared u64, not ${typeName(t)}`);
  }

  private token(loc: SourceLoc): number {
    if (this.asyncToken === null) this.asyncToken = this.newReg(u32, false, loc);
    return this.asyncToken;
  }

  // ---- result --------------------------------------------------------------------------------

  finish(): KernelIR {
    let root = this.scope;
    while (root.parent) root = root.parent;
    return {
      name: this.name,
      file: this.file,
      params: this.paramDecls,
      regs: this.regs,
      body: root.instrs,
      sharedStatic: this.sharedAllocs,
      sharedStaticBytes: this.sharedBytes,
      usesDynamicShared: this.dynShared,
      ...(this.localBytes > 0 ? { localBytes: Math.ceil(this.localBytes / 16) * 16 } : {}),
      barrierIds: [...this.barrierIds].sort((a, b) => a - b),
      ...(this.gridSyncSites.length ? { gridSyncSites: this.gridSyncSites } : {}),
      ...(this.blockMultiples.length ? { blockMultiples: this.blockMultiples } : {}),
      ...(this.reservedBytes > 0 ? { reservedSharedBytes: this.reservedBytes } : {}),
    };
  }

  // ---- appended: cooperative groups' grid sync ---------------------------------------------

  /**
   * cooperative_groups::this_grid().sync(), as CUDA 12's cooperative_groups/details/sync.h
   * (sync_grids_arrive / sync_grids_wait) does it on sm_70+: a block barrier; then the block's thread 0
   * adds its arrival to the grid workspace's barrier word (`atom.add.release.gpu`: 1, or for block 0
   * 0x80000000 - (blocks - 1), so that the last arrival flips the top bit) and polls it with
   * `ld.acquire.gpu` until the top bit has flipped; then a block barrier again. The counts, the
   * polling and the cost follow from those operations. Valid only in a cooperative launch (the
   * launch checks; the workspace is the launch's hidden parameter GRID_WORKSPACE_PARAM).
   */
  gridSync(): void {
    const loc = callerLoc();
    if (this.scope.inWhen) throw irError(loc, 'grid.sync() inside a `when` region: every thread of the grid must reach it');
    this.gridSyncSites.push(loc);
    const wsType = ptrType('global', u32);
    const dst = this.newReg(wsType, false, loc);
    this.emit({ op: 'param', dst, type: wsType, name: GRID_WORKSPACE_PARAM, loc });
    const arrived = this.atomicRef(new PtrVal(this, { reg: dst, type: wsType }), 'device');
    this.syncthreads();
    const t = this.threadIdx;
    const b = this.blockIdx;
    this.if(t.x.add(t.y).add(t.z).eq(0), () => {
      const g = this.gridDim;
      const expected = g.x.mul(g.y).mul(g.z);
      const nb = this.select(b.x.add(b.y).add(b.z).eq(0), this.toVal(0x80000000, u32).sub(expected.sub(1)), this.toVal(1, u32));
      const old = arrived.fetchAdd(nb, 'release');
      // bar_has_flipped: the top bit of the word differs from what this block's arrival saw
      this.while(() => old.xor(arrived.load('acquire')).and(0x80000000).eq(0), () => {});
    });
    this.syncthreads();
  }

  /**
   * `bytes` of the block's reserved shared memory (what cooperative groups keeps there: blockTiles.ts),
   * 16-byte aligned: a pointer from the hidden parameter RESERVED_SHARED_PARAM (LDC, as the SASS reads
   * c[0x0][0x6c]); it is not the kernel's static shared memory
   */
  reservedShared(elem: ElemType, bytes: number): PtrVal {
    const loc = callerLoc();
    const t = ptrType('shared', elem);
    const dst = this.newReg(t, false, loc);
    this.emit({ op: 'param', dst, type: t, name: RESERVED_SHARED_PARAM, loc });
    const offset = this.reservedBytes;
    this.reservedBytes = offset + Math.ceil(bytes / 16) * 16;
    const base = new PtrVal(this, { reg: dst, type: t });
    return offset === 0 ? base : base.addBytes(offset);
  }

  /** the launch must have a block of a multiple of `threads` threads (a tile larger than a warp: blockTiles.ts); checked at launch */
  requireBlockMultiple(threads: number, loc: SourceLoc, what: string): void {
    this.blockMultiples.push({ threads, loc, what });
  }

  // ---- appended: pointer variables, named-barrier helpers, warp primitives -------------------

  /** a mutable pointer variable (k.let for pointers, typed so that load/store/at work on it) */
  letPtr(init: PtrVal): PtrVar {
    return this.let(init.ptrType, init) as unknown as PtrVar;
  }

  // ---- appended: NVSHMEM device API (src/ir/shmem.ts lowers its calls with these) ------------

  private shmemApi: Shmem | null = null;
  /** NVSHMEM's device-side operations: k.shmem.p(dest, v, pe), k.shmem.wait_until(ivar, 'ge', 1), … */
  get shmem(): Shmem {
    this.shmemApi ??= new Shmem(this, {
      emit: (i) => this.emit(i),
      reg: (t, loc) => this.newReg(t, false, loc),
      use: (v, loc) => this.use(v, loc),
      wrap: (d, t) => this.wrap(d, t),
    });
    return this.shmemApi;
  }
}

/** a mutable pointer variable */
export class PtrVar extends PtrVal {
  set(v: ValLike): void {
    this.k.assign(this as unknown as Var, v);
  }
}

export { f32, f64, i32, u32, i64, u64, pred };export { AtomicRef };
