/**
 * NVSHMEM's device API in the kernel builder (`k.shmem`): each call is lowered to what NVSHMEM's
 * P2P (NVLink) path runs (NVIDIA/nvshmem non_abi/device/common/nvshmemi_common_device.cuh and
 * wait/nvshmemi_wait_until_apis.cuh; reference/runtime-system.md §7.2), built from the IR's own
 * instructions so that counts, timing and the parked-warp watch see what the GPU would run:
 * - p / g / put / get: a `peerptr` translation (the peer's heap base plus the offset in the heap),
 *   then plain stores / loads through it (`remote`: they travel the interconnect);
 * - put/get of n elements: nvshmemi_memcpy_threadgroup, 16-byte chunks when both ends are 16-byte
 *   aligned, then the rest by element, strided over the calling group's threads;
 * - signals: SET a volatile 64-bit store, ADD atomicAdd_system; AMOs: atomic*_system on the peer;
 * - waits: a polling loop of volatile loads (no backoff), then __threadfence() (signal_wait_until
 *   has none); test: one volatile load;
 * - quiet / fence: __threadfence_system (a `shmemfence`); barrier_all / sync_all: the
 *   dissemination barrier on NVSHMEM's pSync words (radix 2, thread scope).
 * The SASS of each, compiled from NVSHMEM 3.4.5's headers for sm_90, is kept in
 * test/fidelity/probes/nvshmem_device_sass/.
 */
import type { AtomOp, Instr, Operand, PtrType, ScalarKind, ScalarType, ShmemTrafficKind, SourceLoc, ValueType, VecType } from './types.js';
import { callerLoc } from './sourceLoc.js';
import { elemBytes, i32, i64, ptr as ptrType, typeName, u32, u64, vec } from './typesys.js';
import { irError, PtrVal, Val, VecVal, type KernelBuilder, type ValLike } from './builder.js';

/** what the builder lends this module: emission and registers (its own methods are private) */
export interface BuilderRaw {
  emit(i: Instr): void;
  reg(type: ValueType, loc: SourceLoc): number;
  use(v: Val, loc: SourceLoc): Operand;
  wrap(dst: number, type: ValueType): Val;
}

/** NVSHMEM_CMP_EQ, NE, GT, GE, LT, LE */
export type ShmemCmp = 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le';
/** NVSHMEM_SIGNAL_SET / NVSHMEM_SIGNAL_ADD */
export type SignalOp = 'set' | 'add';
/** which threads call a cooperative operation together: one thread, a warp (_warp) or the block (_block) */
export type ShmemGroup = 'thread' | 'warp' | 'block';

/** NVSHMEM's TYPENAME for a scalar kind (nvshmem_<TYPENAME>_p, …), for messages */
const TYPENAME: Partial<Record<ScalarKind, string>> = {
  f32: 'float', f64: 'double', i8: 'int8', u8: 'uint8', i16: 'int16', u16: 'uint16', i32: 'int', u32: 'uint', i64: 'long', u64: 'uint64',
};
/** the standard AMOs' types (int, long, long long, unsigned …, int32, int64, uint32, uint64, size_t, ptrdiff_t) */
const AMO_KINDS = new Set<ScalarKind>(['i32', 'u32', 'i64', 'u64']);
/** the extended AMOs (fetch, set, swap) also take float and double */
const EXT_AMO_KINDS = new Set<ScalarKind>(['i32', 'u32', 'i64', 'u64', 'f32', 'f64']);
const CMPS: readonly ShmemCmp[] = ['eq', 'ne', 'gt', 'ge', 'lt', 'le'];
/** the comparator that holds exactly when `cmp` does not (integers: no NaN) */
const NEGATED: Record<ShmemCmp, ShmemCmp> = { eq: 'ne', ne: 'eq', gt: 'le', ge: 'lt', lt: 'ge', le: 'gt' };

export class Shmem {
  /** cooperative call sites, for the partial-call check (shmemgroup.site) */
  private sites = 0;

  constructor(
    private readonly k: KernelBuilder,
    private readonly raw: BuilderRaw,
  ) {}

  // ---- queries --------------------------------------------------------------------------------

  /** nvshmem_my_pe(): an LDC from NVSHMEM's constant bank */
  my_pe(): Val {
    return this.state('my_pe', i32);
  }
  /** nvshmem_n_pes() */
  n_pes(): Val {
    return this.state('n_pes', i32);
  }

  // ---- single elements -------------------------------------------------------------------------

  /** nvshmem_TYPENAME_p(dest, value, pe): one element stored into PE pe's dest */
  p(dest: PtrVal, value: ValLike, pe: ValLike): void {
    const loc = callerLoc();
    const t = this.scalarElem(dest, 'p', loc);
    const call = `nvshmem_${TYPENAME[t.kind] ?? t.kind}_p`;
    const peV = this.pe(pe, loc);
    const at = this.peerPtr(dest, peV, elemBytes(t), call, loc);
    const v = this.k.toVal(value, t, loc);
    if (typeName(v.type) !== typeName(t)) throw irError(loc, `type error: ${call} of ${typeName(v.type)} into ${typeName(t)}; convert with .cast(${typeName(t)})`);
    this.remoteStore(at, [this.raw.use(v, loc)], t, peV, 'p', call, 'wb', loc);
  }

  /** nvshmem_TYPENAME_g(source, pe): one element loaded from PE pe's source */
  g(source: PtrVal, pe: ValLike): Val {
    const loc = callerLoc();
    const t = this.scalarElem(source, 'g', loc);
    const call = `nvshmem_${TYPENAME[t.kind] ?? t.kind}_g`;
    const peV = this.pe(pe, loc);
    const at = this.peerPtr(source, peV, elemBytes(t), call, loc);
    return this.remoteLoad(at, t, peV, 'g', call, 'ca', loc)[0] as Val;
  }

  // ---- contiguous put / get --------------------------------------------------------------------

  /** nvshmem_TYPENAME_put(dest, source, n, pe): blocking (returns when source may be reused) */
  put(dest: PtrVal, source: PtrVal, n: ValLike, pe: ValLike): void { this.rma('put', 'thread', false, dest, source, n, pe, callerLoc()); }
  /** nvshmem_TYPENAME_put_nbi: completes at the next quiet */
  put_nbi(dest: PtrVal, source: PtrVal, n: ValLike, pe: ValLike): void { this.rma('put', 'thread', true, dest, source, n, pe, callerLoc()); }
  /** nvshmemx_TYPENAME_put_warp: called by all 32 threads of the warp */
  put_warp(dest: PtrVal, source: PtrVal, n: ValLike, pe: ValLike): void { this.rma('put', 'warp', false, dest, source, n, pe, callerLoc()); }
  put_nbi_warp(dest: PtrVal, source: PtrVal, n: ValLike, pe: ValLike): void { this.rma('put', 'warp', true, dest, source, n, pe, callerLoc()); }
  /** nvshmemx_TYPENAME_put_block: called by all threads of the block */
  put_block(dest: PtrVal, source: PtrVal, n: ValLike, pe: ValLike): void { this.rma('put', 'block', false, dest, source, n, pe, callerLoc()); }
  put_nbi_block(dest: PtrVal, source: PtrVal, n: ValLike, pe: ValLike): void { this.rma('put', 'block', true, dest, source, n, pe, callerLoc()); }
  /** nvshmem_TYPENAME_get(dest, source, n, pe): dest is local, source PE pe's */
  get(dest: PtrVal, source: PtrVal, n: ValLike, pe: ValLike): void { this.rma('get', 'thread', false, dest, source, n, pe, callerLoc()); }
  get_nbi(dest: PtrVal, source: PtrVal, n: ValLike, pe: ValLike): void { this.rma('get', 'thread', true, dest, source, n, pe, callerLoc()); }
  get_warp(dest: PtrVal, source: PtrVal, n: ValLike, pe: ValLike): void { this.rma('get', 'warp', false, dest, source, n, pe, callerLoc()); }
  get_nbi_warp(dest: PtrVal, source: PtrVal, n: ValLike, pe: ValLike): void { this.rma('get', 'warp', true, dest, source, n, pe, callerLoc()); }
  get_block(dest: PtrVal, source: PtrVal, n: ValLike, pe: ValLike): void { this.rma('get', 'block', false, dest, source, n, pe, callerLoc()); }
  get_nbi_block(dest: PtrVal, source: PtrVal, n: ValLike, pe: ValLike): void { this.rma('get', 'block', true, dest, source, n, pe, callerLoc()); }

  // ---- signals ---------------------------------------------------------------------------------

  /**
   * nvshmem[x]_TYPENAME_put_signal[_nbi][_warp|_block](dest, source, n, sig, value, op, pe): the data,
   * a group sync, then one thread fences (__threadfence_system) and updates PE pe's signal
   */
  put_signal(dest: PtrVal, source: PtrVal, n: ValLike, sig: PtrVal, value: ValLike, op: SignalOp, pe: ValLike, opts: { nbi?: boolean; group?: ShmemGroup } = {}): void {
    const loc = callerLoc();
    const group = opts.group ?? 'thread';
    const call = this.rmaName('put_signal', dest, opts.nbi ?? false, group, loc);
    this.checkLocal('put', dest, source, call, loc);
    this.signalPtr(sig, call, loc);
    const peV = this.pe(pe, loc);
    this.enterGroup(group, call, loc);
    this.copy('put', group, dest, source, n, peV, call, loc);
    this.groupSync(group, loc);
    const body = (): void => {
      this.k.membar('sys');
      this.signal(sig, value, op, peV, call, loc);
    };
    if (group === 'thread') body();
    else this.k.if(this.groupIndex(group).eq(0), body);
    this.groupSync(group, loc);
  }
  put_signal_nbi(dest: PtrVal, source: PtrVal, n: ValLike, sig: PtrVal, value: ValLike, op: SignalOp, pe: ValLike, opts: { group?: ShmemGroup } = {}): void {
    this.put_signal(dest, source, n, sig, value, op, pe, { ...opts, nbi: true });
  }

  /** nvshmemx_signal_op(sig, value, op, pe): SET a volatile store, ADD atomicAdd_system */
  signal_op(sig: PtrVal, value: ValLike, op: SignalOp, pe: ValLike): void {
    const loc = callerLoc();
    this.signalPtr(sig, 'nvshmemx_signal_op', loc);
    this.signal(sig, value, op, this.pe(pe, loc), 'nvshmemx_signal_op', loc);
  }

  /** nvshmem_signal_fetch(sig): a volatile load of the local signal */
  signal_fetch(sig: PtrVal): Val {
    const loc = callerLoc();
    this.signalPtr(sig, 'nvshmem_signal_fetch', loc);
    return this.k.load(sig, { cache: 'strong' }) as Val;
  }

  /** nvshmem_signal_wait_until(sig, cmp, value): polls the local signal; returns the value that satisfied it (no fence after) */
  signal_wait_until(sig: PtrVal, cmp: ShmemCmp, value: ValLike): Val {
    const loc = callerLoc();
    this.signalPtr(sig, 'nvshmem_signal_wait_until', loc);
    return this.poll(sig, cmp, value, loc);
  }

  // ---- atomics ---------------------------------------------------------------------------------

  /** nvshmem_TYPENAME_atomic_inc(dest, pe) */
  atomic_inc(dest: PtrVal, pe: ValLike): void { this.amo('inc', dest, undefined, undefined, pe, false, callerLoc()); }
  atomic_fetch_inc(dest: PtrVal, pe: ValLike): Val { return this.amo('fetch_inc', dest, undefined, undefined, pe, true, callerLoc()) as Val; }
  atomic_add(dest: PtrVal, value: ValLike, pe: ValLike): void { this.amo('add', dest, value, undefined, pe, false, callerLoc()); }
  atomic_fetch_add(dest: PtrVal, value: ValLike, pe: ValLike): Val { return this.amo('fetch_add', dest, value, undefined, pe, true, callerLoc()) as Val; }
  atomic_and(dest: PtrVal, value: ValLike, pe: ValLike): void { this.amo('and', dest, value, undefined, pe, false, callerLoc()); }
  atomic_fetch_and(dest: PtrVal, value: ValLike, pe: ValLike): Val { return this.amo('fetch_and', dest, value, undefined, pe, true, callerLoc()) as Val; }
  atomic_or(dest: PtrVal, value: ValLike, pe: ValLike): void { this.amo('or', dest, value, undefined, pe, false, callerLoc()); }
  atomic_fetch_or(dest: PtrVal, value: ValLike, pe: ValLike): Val { return this.amo('fetch_or', dest, value, undefined, pe, true, callerLoc()) as Val; }
  atomic_xor(dest: PtrVal, value: ValLike, pe: ValLike): void { this.amo('xor', dest, value, undefined, pe, false, callerLoc()); }
  atomic_fetch_xor(dest: PtrVal, value: ValLike, pe: ValLike): Val { return this.amo('fetch_xor', dest, value, undefined, pe, true, callerLoc()) as Val; }
  /** nvshmem_TYPENAME_atomic_compare_swap(dest, cond, value, pe): returns the old value */
  atomic_compare_swap(dest: PtrVal, cond: ValLike, value: ValLike, pe: ValLike): Val { return this.amo('compare_swap', dest, cond, value, pe, true, callerLoc()) as Val; }
  atomic_swap(dest: PtrVal, value: ValLike, pe: ValLike): Val { return this.amo('swap', dest, value, undefined, pe, true, callerLoc()) as Val; }
  /** nvshmem_TYPENAME_atomic_set(dest, value, pe): an atomic exchange whose old value is dropped */
  atomic_set(dest: PtrVal, value: ValLike, pe: ValLike): void { this.amo('set', dest, value, undefined, pe, false, callerLoc()); }
  /** nvshmem_TYPENAME_atomic_fetch(source, pe): nvcc makes it an atomic OR with 0 */
  atomic_fetch(source: PtrVal, pe: ValLike): Val { return this.amo('fetch', source, undefined, undefined, pe, true, callerLoc()) as Val; }

  // ---- point-to-point synchronisation -----------------------------------------------------------

  /** nvshmem_TYPENAME_wait_until(ivar, cmp, value): polls the local ivar, then __threadfence() */
  wait_until(ivar: PtrVal, cmp: ShmemCmp, value: ValLike): void {
    const loc = callerLoc();
    this.ivarElem(ivar, 'wait_until', loc);
    this.poll(ivar, cmp, value, loc);
    this.k.membar('gpu');
  }

  /** nvshmem_TYPENAME_wait_until_all(ivars, n, status, cmp, value): each ivar whose status is 0 (status null: all) */
  wait_until_all(ivars: PtrVal, n: ValLike, status: PtrVal | null, cmp: ShmemCmp, value: ValLike): void {
    const loc = callerLoc();
    this.ivarElem(ivars, 'wait_until_all', loc);
    this.k.for(0, n, 1, (i) => {
      const each = (): void => {
        this.poll(ivars.add(i), cmp, value, loc);
      };
      if (status) this.k.if(this.statusOf(status, i).eq(0), each);
      else each();
    });
    this.k.membar('gpu');
  }

  /**
   * nvshmem_TYPENAME_wait_until_any(ivars, n, status, cmp, value): the index of an ivar (status 0)
   * that satisfies the test, polling until one does; SIZE_MAX (u64, all ones) when none is eligible.
   * The lowest such index (NVSHMEM starts each call at a rotating index: not modelled)
   */
  wait_until_any(ivars: PtrVal, n: ValLike, status: PtrVal | null, cmp: ShmemCmp, value: ValLike): Val {
    const loc = callerLoc();
    this.ivarElem(ivars, 'wait_until_any', loc);
    const k = this.k;
    const none = -1n;
    const found = k.let(u64, none);
    const eligible = this.eligibleCount(n, status);
    k.if(eligible.gt(0), () => {
      k.doWhile(() => {
        k.for(0, n, 1, (i) => {
          const test = (): void => {
            const v = ivars.at(i).get({ cache: 'strong' });
            k.if(found.eq(none).and(this.compare(cmp, v, value, loc)), () => found.set(i.cast(u64)));
          };
          if (status) k.if(this.statusOf(status, i).eq(0), test);
          else test();
        });
      }, () => found.eq(none));
      k.membar('gpu');
    });
    return found;
  }

  /**
   * nvshmem_TYPENAME_wait_until_some(ivars, n, indices, status, cmp, value): polls until at least one
   * eligible ivar satisfies the test; writes their indices (ascending) to indices; returns how many
   * (0 when none is eligible)
   */
  wait_until_some(ivars: PtrVal, n: ValLike, indices: PtrVal, status: PtrVal | null, cmp: ShmemCmp, value: ValLike): Val {
    const loc = callerLoc();
    this.ivarElem(ivars, 'wait_until_some', loc);
    const k = this.k;
    const count = k.let(i32, 0);
    const eligible = this.eligibleCount(n, status);
    const idxType = indices.ptrType.elem;
    if (idxType.tag !== 'scalar' || !(idxType.kind === 'i32' || idxType.kind === 'u32' || idxType.kind === 'i64' || idxType.kind === 'u64'))
      throw irError(loc, `type error: nvshmem wait_until_some needs an integer indices array (size_t*), got ${typeName(idxType)}`);
    k.if(eligible.gt(0), () => {
      k.doWhile(() => {
        k.for(0, n, 1, (i) => {
          const test = (): void => {
            const v = ivars.at(i).get({ cache: 'strong' });
            k.if(this.compare(cmp, v, value, loc), () => {
              indices.at(count).store(i.cast(idxType));
              count.set(count.add(1));
            });
          };
          if (status) k.if(this.statusOf(status, i).eq(0), test);
          else test();
        });
      }, () => count.eq(0));
      k.membar('gpu');
    });
    return count;
  }

  /** nvshmem_TYPENAME_test(ivar, cmp, value): 1 when the local ivar satisfies the test now, else 0 */
  test(ivar: PtrVal, cmp: ShmemCmp, value: ValLike): Val {
    const loc = callerLoc();
    this.ivarElem(ivar, 'test', loc);
    const v = ivar.ref.get({ cache: 'strong' });
    return this.k.select(this.compare(cmp, v, value, loc), this.k.i32(1), this.k.i32(0));
  }

  // ---- ordering and collectives ----------------------------------------------------------------

  /** nvshmem_fence(): orders the delivery of this thread's puts, AMOs and stores to each PE */
  fence(): void {
    this.raw.emit({ op: 'shmemfence', fn: 'fence', loc: callerLoc() });
  }
  /** nvshmem_quiet(): completes this thread's puts, AMOs and stores (over NVLink: __threadfence_system) */
  quiet(): void {
    this.raw.emit({ op: 'shmemfence', fn: 'quiet', loc: callerLoc() });
  }

  /** nvshmem_barrier_all() on the device: quiet, then the dissemination sync; only in a collective launch */
  barrier_all(): void {
    this.deviceSync('nvshmem_barrier_all', true, callerLoc());
  }
  /** nvshmem_sync_all() on the device: the dissemination sync, without completing prior operations */
  sync_all(): void {
    this.deviceSync('nvshmem_sync_all', false, callerLoc());
  }

  // ---- lowering helpers -------------------------------------------------------------------------

  private state(fn: 'my_pe' | 'n_pes', t: ScalarType): Val {
    const loc = callerLoc();
    const dst = this.raw.reg(t, loc);
    this.raw.emit({ op: 'shmem', fn, dst, type: t, loc });
    return this.raw.wrap(dst, t);
  }

  private pe(pe: ValLike, loc: SourceLoc): Val {
    const v = this.k.toVal(pe, i32, loc);
    if (v.type.tag !== 'scalar' || (v.type.kind !== 'i32' && v.type.kind !== 'u32')) throw irError(loc, `type error: a PE number is an int, got ${typeName(v.type)}`);
    return v;
  }

  private symmetric(p: PtrVal, what: string, loc: SourceLoc): PtrType {
    if (!(p instanceof PtrVal) || p.type.tag !== 'ptr') throw irError(loc, `type error: ${what} needs a pointer to symmetric memory`);
    const t = p.ptrType;
    if (t.space !== 'global') throw irError(loc, `${what}: the remote object must be in global (symmetric) memory, not ${t.space} memory; allocate it with nvshmem_malloc`);
    return t;
  }

  private scalarElem(p: PtrVal, what: string, loc: SourceLoc): ScalarType {
    const t = this.symmetric(p, `nvshmem ${what}`, loc);
    if (t.elem.tag !== 'scalar' || t.elem.kind === 'pred') throw irError(loc, `type error: nvshmem ${what} on ${typeName(t.elem)}: NVSHMEM's TYPENAMEs are scalar types (float, double, int, long, …)`);
    return t.elem;
  }

  private ivarElem(p: PtrVal, what: string, loc: SourceLoc): ScalarType {
    const t = this.scalarElem(p, what, loc);
    if (!AMO_KINDS.has(t.kind) && t.kind !== 'i16' && t.kind !== 'u16')
      throw irError(loc, `type error: nvshmem ${what} on ${typeName(t)}: point-to-point synchronisation takes integer types (short, int, long, …, uint64)`);
    return t;
  }

  private signalPtr(sig: PtrVal, call: string, loc: SourceLoc): void {
    const t = this.symmetric(sig, call, loc);
    if (t.elem.tag !== 'scalar' || t.elem.kind !== 'u64') throw irError(loc, `type error: ${call} needs a uint64_t* signal, got a pointer to ${typeName(t.elem)}`);
  }

  /** dst = PE pe's address of `p`, checked for `bytes` bytes */
  private peerPtr(p: PtrVal, pe: Val, bytes: ValLike, call: string, loc: SourceLoc, amo = false): PtrVal {
    const t = p.ptrType;
    const b = this.k.toVal(bytes, i32, loc);
    const dst = this.raw.reg(t, loc);
    this.raw.emit({ op: 'peerptr', dst, type: t, addr: this.raw.use(p, loc), pe: this.raw.use(pe, loc), bytes: this.raw.use(b, loc), call, ...(amo ? { amo } : {}), loc });
    return this.raw.wrap(dst, t) as PtrVal;
  }

  private remoteStore(at: PtrVal, values: Operand[], elem: ScalarType | VecType, pe: Val, kind: ShmemTrafficKind, call: string, cache: 'wb' | 'strong', loc: SourceLoc): void {
    const t = at.ptrType;
    this.raw.emit({ op: 'st', space: 'global', values, elem, addr: this.raw.use(at, loc), cache, property: t.property ?? { kind: 'global' }, remote: { pe: this.raw.use(pe, loc), kind, call }, loc });
  }

  private remoteLoad(at: PtrVal, elem: ScalarType | VecType, pe: Val, kind: ShmemTrafficKind, call: string, cache: 'ca' | 'strong', loc: SourceLoc): Val[] {
    const t = at.ptrType;
    const scalars: ScalarType[] = elem.tag === 'vec' ? Array.from({ length: elem.n }, () => elem.elem) : [elem];
    const dsts = scalars.map((s) => this.raw.reg(s, loc));
    this.raw.emit({ op: 'ld', space: 'global', dsts, elem, addr: this.raw.use(at, loc), cache, property: t.property ?? { kind: 'global' }, remote: { pe: this.raw.use(pe, loc), kind, call }, loc });
    return dsts.map((d, i) => this.raw.wrap(d, scalars[i] as ScalarType));
  }

  private rmaName(what: string, p: PtrVal, nbi: boolean, group: ShmemGroup, loc: SourceLoc): string {
    const t = this.scalarElem(p, what, loc);
    const x = group === 'thread' ? '' : 'x';
    return `nvshmem${x}_${TYPENAME[t.kind] ?? t.kind}_${what}${nbi ? '_nbi' : ''}${group === 'thread' ? '' : `_${group}`}`;
  }

  /** nvshmemi_put/get_threadgroup: group sync, the copy over the peer pointer, group sync */
  private rma(dir: 'put' | 'get', group: ShmemGroup, nbi: boolean, dest: PtrVal, source: PtrVal, n: ValLike, pe: ValLike, loc: SourceLoc): void {
    const remote = dir === 'put' ? dest : source;
    const call = this.rmaName(dir, remote, nbi, group, loc);
    this.checkLocal(dir, dest, source, call, loc);
    const peV = this.pe(pe, loc);
    this.enterGroup(group, call, loc);
    this.copy(dir, group, dest, source, n, peV, call, loc);
    this.groupSync(group, loc);
  }

  /** the local end of a copy: global or shared memory, of the remote end's element type */
  private checkLocal(dir: 'put' | 'get', dest: PtrVal, source: PtrVal, call: string, loc: SourceLoc): void {
    const [remote, local] = dir === 'put' ? [dest, source] : [source, dest];
    if (!(local instanceof PtrVal) || local.ptrType.space === 'local') throw irError(loc, `type error: ${call} needs a pointer to global or shared memory for its local ${dir === 'put' ? 'source' : 'destination'}`);
    if (typeName(local.ptrType.elem) !== typeName(remote.ptrType.elem))
      throw irError(loc, `type error: ${call} copies ${typeName(remote.ptrType.elem)} ${dir === 'put' ? 'from' : 'to'} a pointer to ${typeName(local.ptrType.elem)}`);
  }

  /**
   * nvshmemi_memcpy_threadgroup over the peer pointer: 16-byte chunks when both addresses are 16-byte
   * aligned, then element by element (NVSHMEM goes on by 8, 4, 2 and 1 bytes: the element's width
   * stands for them here), each strided over the group's threads
   */
  private copy(dir: 'put' | 'get', group: ShmemGroup, dest: PtrVal, source: PtrVal, n: ValLike, pe: Val, call: string, loc: SourceLoc): void {
    const k = this.k;
    const remote = dir === 'put' ? dest : source;
    const elem = remote.ptrType.elem as ScalarType;
    const size = elemBytes(elem);
    const given = k.toVal(n, i32, loc);
    if (given.type.tag !== 'scalar' || !['i32', 'u32'].includes(given.type.kind)) throw irError(loc, `type error: ${call}'s element count is an int here, got ${typeName(given.type)}`);
    const count = given.type.kind === 'i32' ? given : given.cast(i32);
    const bytes = count.mul(size);
    const peer = this.peerPtr(remote, pe, bytes, call, loc);
    const [to, from] = dir === 'put' ? [peer, source] : [dest, peer];
    const idx = this.groupIndex(group);
    const step = this.groupSize(group);
    const kind: ShmemTrafficKind = dir;
    const v4 = vec(u32, 4);
    const aligned = to.cast(u64).or(from.cast(u64)).and(15n).eq(0n);
    const chunks = k.select(aligned, bytes.shr(4), k.i32(0));
    const to16 = to.as(v4);
    const from16 = from.as(v4);
    k.for(idx, chunks, step, (i) => {
      if (dir === 'put') {
        const v = from16.at(i).load() as VecVal;
        this.remoteStore(to16.add(i), v.parts.map((p) => this.raw.use(p, loc)), v4, pe, kind, call, 'wb', loc);
      } else {
        const parts = this.remoteLoad(from16.add(i), v4, pe, kind, call, 'ca', loc);
        to16.at(i).store(new VecVal(parts));
      }
    });
    const done = chunks.mul(16 / size);
    k.for(done.add(idx), count, step, (i) => {
      if (dir === 'put') {
        const v = from.at(i).get();
        this.remoteStore(to.add(i), [this.raw.use(v, loc)], elem, pe, kind, call, 'wb', loc);
      } else {
        const [v] = this.remoteLoad(from.add(i), elem, pe, kind, call, 'ca', loc);
        to.at(i).store(v as Val);
      }
    });
  }

  /** the calling thread's index in its group (nvshmemi_thread_id_in_threadgroup) */
  private groupIndex(group: ShmemGroup): Val {
    const k = this.k;
    if (group === 'thread') return k.i32(0);
    if (group === 'warp') return k.laneId.cast(i32);
    const t = k.threadIdx;
    const d = k.blockDim;
    return t.z.mul(d.y).add(t.y).mul(d.x).add(t.x).cast(i32);
  }
  private groupSize(group: ShmemGroup): Val | number {
    if (group === 'thread') return 1;
    if (group === 'warp') return 32;
    const d = this.k.blockDim;
    return d.x.mul(d.y).mul(d.z).cast(i32);
  }

  /** the group sync before a cooperative call, with the check that the whole group called it */
  private enterGroup(group: ShmemGroup, call: string, loc: SourceLoc): void {
    if (group === 'thread') return;
    const site = this.sites++;
    this.raw.emit({ op: 'shmemgroup', scope: group, phase: 'enter', site, call, loc });
    this.groupSync(group, loc);
    if (group === 'block') this.raw.emit({ op: 'shmemgroup', scope: group, phase: 'check', site, call, loc });
  }

  /** nvshmemi_threadgroup_sync: __syncwarp() for a warp, __syncthreads() for a block */
  private groupSync(group: ShmemGroup, _loc: SourceLoc): void {
    if (group === 'warp') this.k.syncwarp();
    else if (group === 'block') this.k.syncthreads();
  }

  private signal(sig: PtrVal, value: ValLike, op: SignalOp, pe: Val, call: string, loc: SourceLoc): void {
    const v = this.k.toVal(typeof value === 'number' ? BigInt(value) : value, u64, loc);
    if (typeName(v.type) !== 'u64') throw irError(loc, `type error: ${call}'s signal value is a uint64_t, got ${typeName(v.type)}; convert with .cast(u64)`);
    const at = this.peerPtr(sig, pe, 8, call, loc);
    if (op === 'set') {
      this.remoteStore(at, [this.raw.use(v, loc)], u64, pe, 'signal', call, 'strong', loc);
      return;
    }
    if (op !== 'add') throw irError(loc, `${call}: signal op '${String(op)}' is not NVSHMEM_SIGNAL_SET ('set') or NVSHMEM_SIGNAL_ADD ('add')`);
    this.remoteAtomic('add', at, v, undefined, u64, pe, 'signal', call, false, loc);
  }

  private remoteAtomic(fn: AtomOp, at: PtrVal, a: Val, b: Val | undefined, t: ScalarType, pe: Val, kind: ShmemTrafficKind, call: string, returns: boolean, loc: SourceLoc): Val | undefined {
    const dst = returns ? this.raw.reg(t, loc) : null;
    this.raw.emit({
      op: 'atom', space: 'global', fn, dst, type: t, addr: this.raw.use(at, loc), a: this.raw.use(a, loc), ...(b ? { b: this.raw.use(b, loc) } : {}),
      property: at.ptrType.property ?? { kind: 'global' }, sem: { order: 'relaxed', scope: 'sys' }, remote: { pe: this.raw.use(pe, loc), kind, call }, loc,
    });
    return dst === null ? undefined : this.raw.wrap(dst, t);
  }

  private amo(what: string, dest: PtrVal, a: ValLike | undefined, b: ValLike | undefined, pe: ValLike, returns: boolean, loc: SourceLoc): Val | undefined {
    const t = this.scalarElem(dest, `atomic_${what}`, loc);
    const call = `nvshmem_${TYPENAME[t.kind] ?? t.kind}_atomic_${what}`;
    const extended = what === 'fetch' || what === 'set' || what === 'swap';
    if (!(extended ? EXT_AMO_KINDS : AMO_KINDS).has(t.kind))
      throw irError(loc, `type error: ${call}: NVSHMEM's ${extended ? 'extended' : 'standard'} AMOs take ${extended ? 'int, long, …, uint64, float and double' : 'int, long, long long, unsigned …, int32, int64, uint32, uint64'}, not ${typeName(t)}`);
    const val = (x: ValLike | undefined): Val => {
      const v = this.k.toVal(x ?? 0, t, loc);
      if (typeName(v.type) !== typeName(t)) throw irError(loc, `type error: ${call} with a ${typeName(v.type)} operand on ${typeName(t)}`);
      return v;
    };
    const one = this.k.toVal(1, t, loc);
    const peV = this.pe(pe, loc);
    const at = this.peerPtr(dest, peV, elemBytes(t), call, loc, true);
    // atomicAdd_system & co. on the peer address (nvshmem_defines.h); fetch is an OR with 0 and
    // set an exchange, as nvcc compiles them (ATOM.E.OR …, RZ and ATOM.E.EXCH in the probe's SASS)
    switch (what) {
      case 'inc':
      case 'fetch_inc':
        return this.remoteAtomic('add', at, one, undefined, t, peV, 'atomic', call, returns, loc);
      case 'add':
      case 'fetch_add':
        return this.remoteAtomic('add', at, val(a), undefined, t, peV, 'atomic', call, returns, loc);
      case 'and':
      case 'fetch_and':
        return this.remoteAtomic('and', at, val(a), undefined, t, peV, 'atomic', call, returns, loc);
      case 'or':
      case 'fetch_or':
        return this.remoteAtomic('or', at, val(a), undefined, t, peV, 'atomic', call, returns, loc);
      case 'xor':
      case 'fetch_xor':
        return this.remoteAtomic('xor', at, val(a), undefined, t, peV, 'atomic', call, returns, loc);
      case 'compare_swap':
        return this.remoteAtomic('cas', at, val(a), val(b), t, peV, 'atomic', call, returns, loc);
      case 'swap':
      case 'set':
        return this.remoteAtomic('exch', at, val(a), undefined, t, peV, 'atomic', call, returns, loc);
      case 'fetch':
        return this.remoteAtomic('or', at, this.k.toVal(0, t, loc), undefined, t, peV, 'atomic', call, returns, loc);
      default:
        throw irError(loc, `unknown NVSHMEM atomic '${what}'`);
    }
  }

  /** value CMP operand, in the ivar's type (unsigned compares for unsigned types, as C does) */
  private compare(cmp: ShmemCmp, v: Val, value: ValLike, loc: SourceLoc): Val {
    if (!CMPS.includes(cmp)) throw irError(loc, `unknown comparator '${String(cmp)}': use one of ${CMPS.join(', ')} (NVSHMEM_CMP_EQ, NE, GT, GE, LT, LE)`);
    const t = v.type as ScalarType;
    const x = this.k.toVal(typeof value === 'number' && (t.kind === 'i64' || t.kind === 'u64') ? BigInt(value) : value, t, loc);
    if (typeName(x.type) !== typeName(t)) throw irError(loc, `type error: comparing a ${typeName(t)} ivar with ${typeName(x.type)}; convert with .cast(${typeName(t)})`);
    return this.k.cmp(cmp, v, x);
  }

  /** the polling loop: volatile loads of p until `value CMP` holds (a warp re-reading unchanged memory parks) */
  private poll(p: PtrVal, cmp: ShmemCmp, value: ValLike, loc: SourceLoc): Val {
    const k = this.k;
    const t = p.ptrType.elem as ScalarType;
    const v = k.let(t, t.kind === 'i64' || t.kind === 'u64' ? 0n : 0);
    // the loop goes on while the negated test holds: one ISETP per poll, as nvcc emits (no separate NOT)
    k.doWhile(() => v.set(p.ref.get({ cache: 'strong' })), () => this.compare(NEGATED[cmp] ?? cmp, v, value, loc));
    return v;
  }

  private statusOf(status: PtrVal, i: Val): Val {
    const t = status.ptrType.elem;
    if (t.tag !== 'scalar' || t.kind !== 'i32') throw irError(callerLoc(), `type error: a status array is int*, got a pointer to ${typeName(t)}`);
    return status.at(i).get();
  }

  /** how many of the n ivars take part (status[i] == 0; all without a status array) */
  private eligibleCount(n: ValLike, status: PtrVal | null): Val {
    const k = this.k;
    const count = k.toVal(n, i32);
    if (!status) return count;
    const c = k.let(i32, 0);
    k.for(0, count, 1, (i) => k.if(this.statusOf(status, i).eq(0), () => c.set(c.add(1))));
    return c;
  }

  /**
   * the device barrier (non_abi/device/coll/barrier.cuh, sync_dissem_pow2_threadgroup<2>): in round r
   * the PE stores its barrier count into pSync[my_pe] on PE my_pe + 2^r and waits until PE
   * my_pe - 2^r has stored it into its own; then the count goes up by one. barrier_all first
   * makes prior operations complete (__threadfence_system).
   */
  private deviceSync(call: string, complete: boolean, loc: SourceLoc): void {
    const k = this.k;
    this.raw.emit({ op: 'shmemcollective', call, loc });
    if (complete) k.membar('sys');
    const psync = this.raw.reg(ptrType('global', i64), loc);
    this.raw.emit({ op: 'shmem', fn: 'psync', dst: psync, type: ptrType('global', i64), loc });
    const sync = this.raw.wrap(psync, ptrType('global', i64)) as PtrVal;
    const me = this.my_pe();
    const n = this.n_pes();
    const counter = sync.at(n);
    const next = counter.get({ cache: 'strong' }).add(1n);
    const shift = k.let(i32, 1);
    k.while(() => shift.lt(n), () => {
      const to = me.add(shift).rem(n);
      const at = this.peerPtr(sync.add(me), to, 8, call, loc);
      this.remoteStore(at, [this.raw.use(next, loc)], i64, to, 'signal', call, 'strong', loc);
      const from = me.sub(shift).add(n).rem(n);
      this.poll(sync.add(from), 'ge', next, loc);
      shift.set(shift.shl(1));
    });
    counter.store(next, { cache: 'strong' });
  }
}
