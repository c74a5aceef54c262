/**
 * cuda::atomic_ref<T, Scope> on top of the builder (k.atomicRef(p, scope)): loads, stores and
 * read-modify-writes carry their memory order and scope into the IR (`sem`), which the compiler lowers
 * to the SASS nvcc emits for them (fences, strong accesses, L1 invalidation; see exec/memoryModel.ts).
 *
 * wait/notify are built as libcu++ (CCCL `cuda/std/__atomic/wait/notify_wait.h`, `polling.h`) builds
 * them on sm_70+, and as the H200's SASS of `sync_flag_wait_notify` shows them: 17 polls of the
 * atomic load, then a loop that re-reads %globaltimer and polls, spinning 16 times before it starts
 * to back off: at 40 µs since the slow loop began it sleeps a quarter of the elapsed time, from 4 ms
 * on 1 ms per poll (NANOSLEEP). notify_one/notify_all compile to nothing: the waiter polls.
 */
import type { AtomOp, MemOrder, MemScope, ScalarType } from './types.js';
import { callerLoc } from './sourceLoc.js';
import { checkOrder, irError, type KernelBuilder, type PtrVal, type Val, type ValLike, type Var } from './builder.js';
import { u32 } from './typesys.js';

/** libcu++'s polls before the slow path (_LIBCUDACXX_POLLING_COUNT = 16) plus the slow path's first: 17 in the H200's SASS */
export const WAIT_FAST_POLLS = 17;
/** polls of the slow loop before it looks at the time (__cccl_thread_poll_with_backoff) */
export const WAIT_SPIN_POLLS = 16;
/** elapsed time (ns) from which the slow loop sleeps elapsed / 4 (SASS: ISETP.GE.U32 ..., 0x9c40) */
export const WAIT_BACKOFF_FROM_NS = 40_000;
/** elapsed time (ns) from which it sleeps the longest step (SASS: 0x3d0900) */
export const WAIT_LONG_FROM_NS = 4_000_000;
/** the longest sleep (SASS: NANOSLEEP 0xf4240) */
export const WAIT_LONG_SLEEP_NS = 1_000_000;

/**
 * one trip of libcu++'s poll back-off (atomic wait, cuda::barrier wait): WAIT_SPIN_POLLS polls at once,
 * then a nanosleep of a quarter of the time waited so far, then WAIT_LONG_SLEEP_NS at a time
 */
export function backoffStep(k: KernelBuilder, count: Var, start: Val): void {
  k.if(count.ge(WAIT_SPIN_POLLS), () => {
    const elapsed = k.globalTimer().sub(start);
    k.if(elapsed.ge(WAIT_LONG_FROM_NS), () => k.nanosleep(WAIT_LONG_SLEEP_NS), () => {
      k.if(elapsed.ge(WAIT_BACKOFF_FROM_NS), () => k.nanosleep(elapsed.shr(2).cast(u32)));
    });
  }, () => count.set(count.add(1)));
}

export class AtomicRef {
  constructor(
    readonly k: KernelBuilder,
    readonly addr: PtrVal,
    readonly scope: MemScope,
  ) {}

  private get elem(): ScalarType {
    return this.addr.ptrType.elem as ScalarType;
  }

  /** atomic_ref::load(order): relaxed, acquire or seq_cst (the default) */
  load(order: MemOrder = 'seq_cst'): Val {
    const loc = callerLoc();
    checkOrder(order, loc);
    if (order === 'release' || order === 'acq_rel') throw irError(loc, `atomic load with memory_order_${order}: a load is relaxed, acquire or seq_cst`);
    return this.k.load(this.addr, { sem: { order, scope: this.scope } }) as Val;
  }

  /** atomic_ref::store(v, order): relaxed, release or seq_cst (the default) */
  store(v: ValLike, order: MemOrder = 'seq_cst'): void {
    const loc = callerLoc();
    checkOrder(order, loc);
    if (order === 'acquire' || order === 'acq_rel') throw irError(loc, `atomic store with memory_order_${order}: a store is relaxed, release or seq_cst`);
    this.k.store(this.addr, v, { sem: { order, scope: this.scope } });
  }

  private rmw(fn: AtomOp, a: ValLike, b: ValLike | undefined, order: MemOrder): Val {
    checkOrder(order, callerLoc());
    return this.k.atomic(fn, this.addr, a, b, true, { order, scope: this.scope }) as Val;
  }

  /** atomic_ref::exchange(v, order): the old value */
  exchange(v: ValLike, order: MemOrder = 'seq_cst'): Val {
    return this.rmw('exch', v, undefined, order);
  }
  /** atomic_ref::compare_exchange_strong(expected, desired, order): the old value (equal to `expected` when it succeeded) */
  compareExchange(expected: ValLike, desired: ValLike, order: MemOrder = 'seq_cst'): Val {
    return this.rmw('cas', expected, desired, order);
  }
  fetchAdd(v: ValLike, order: MemOrder = 'seq_cst'): Val {
    return this.rmw('add', v, undefined, order);
  }
  /** fetch_sub(v) is an atomic add of -v */
  fetchSub(v: ValLike, order: MemOrder = 'seq_cst'): Val {
    const loc = callerLoc();
    const neg = this.k.toVal(v, this.elem, loc).neg();
    return this.rmw('add', neg, undefined, order);
  }
  fetchAnd(v: ValLike, order: MemOrder = 'seq_cst'): Val {
    return this.rmw('and', v, undefined, order);
  }
  fetchOr(v: ValLike, order: MemOrder = 'seq_cst'): Val {
    return this.rmw('or', v, undefined, order);
  }
  fetchXor(v: ValLike, order: MemOrder = 'seq_cst'): Val {
    return this.rmw('xor', v, undefined, order);
  }
  fetchMin(v: ValLike, order: MemOrder = 'seq_cst'): Val {
    return this.rmw('min', v, undefined, order);
  }
  fetchMax(v: ValLike, order: MemOrder = 'seq_cst'): Val {
    return this.rmw('max', v, undefined, order);
  }

  /**
   * atomic_ref::wait(old, order): returns once the value differs from `old`, polling as libcu++ does
   * (see the module comment): every poll is an atomic load with `order`.
   */
  wait(old: ValLike, order: MemOrder = 'seq_cst'): void {
    const k = this.k;
    const loc = callerLoc();
    checkOrder(order, loc);
    if (order === 'release' || order === 'acq_rel') throw irError(loc, `atomic wait with memory_order_${order}: wait takes relaxed, acquire or seq_cst`);
    const oldV = k.toVal(old, this.elem, loc);
    const poll = (): Val => k.load(this.addr, { sem: { order, scope: this.scope } }) as Val;
    const slow = (): void => {
      k.while(() => true, () => {
        const start = k.globalTimer();
        const cur = k.let(this.elem, poll());
        k.if(cur.eq(oldV), () => {
          const count = k.let(u32, 0);
          k.doWhile(() => {
            backoffStep(k, count, start);
            cur.set(poll());
          }, () => cur.eq(oldV));
        });
        k.if(poll().ne(oldV), () => k.break());
      });
    };
    const fast = (n: number): void => {
      k.if(poll().eq(oldV), () => (n > 1 ? fast(n - 1) : slow()));
    };
    fast(WAIT_FAST_POLLS);
  }

  /** atomic_ref::notify_one(): nothing on the device (sm_70+): the waiter polls */
  notifyOne(): void {}
  /** atomic_ref::notify_all(): nothing on the device (sm_70+): the waiter polls */
  notifyAll(): void {}
}
