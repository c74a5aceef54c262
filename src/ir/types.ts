/**
 * Warpsight's warp-level IR: typed values, structured control flow, one memory instruction per SASS
 * LDG/STG/LDS/STS so that instruction and request counts compare with ncu's. Every instruction remembers
 * the kernel source line that built it.
 */

export type ScalarKind = 'pred' | 'i8' | 'u8' | 'i16' | 'u16' | 'i32' | 'u32' | 'i64' | 'u64' | 'f32' | 'f64';
/**
 * where a pointer points: 'generic' is C's plain pointer that may hold a shared or a global address
 * (PTX generic addressing, SASS LD/ST): which one is known only per thread at run time
 */
export type Space = 'global' | 'shared' | 'local' | 'generic';

/**
 * The emulator's generic address of shared offset 0: a generic pointer whose value lies in
 * [GENERIC_SHARED_WINDOW, + GENERIC_SHARED_WINDOW_BYTES) points into the block's shared memory, as
 * PTX's shared window does (cvta.shared). Below the device heap (deviceMemory.ts HEAP_BASE
 * 0x7f00_0000_0000), so no global allocation lies in it.
 */
export const GENERIC_SHARED_WINDOW = 0x7e00_0000_0000;
export const GENERIC_SHARED_WINDOW_BYTES = 1 << 24;

/** committed cp.async groups per warp the timing model keeps apart (waitPrior's N is below it; older ones merge) */
export const MAX_ASYNC_GROUPS = 16;

export interface ScalarType {
  readonly tag: 'scalar';
  readonly kind: ScalarKind;
}
/** 2- or 4-element vectors, for 64- and 128-bit loads and stores (int2, float4, …) */
export interface VecType {
  readonly tag: 'vec';
  readonly elem: ScalarType;
  readonly n: 2 | 4;
}
export type ElemType = ScalarType | VecType;

/** cuda::access_property carried by an annotated_ptr; static per pointer type, as in C++ */
export type AccessPropertyKind = 'global' | 'normal' | 'streaming' | 'persisting' | 'shared';
export type AccessProperty =
  | { kind: AccessPropertyKind }
  | {
      kind: 'interleaved';
      primary: 'normal' | 'streaming' | 'persisting';
      fraction: number;
      secondary?: 'normal' | 'streaming' | 'persisting' | 'global';
    }
  | {
      kind: 'range';
      /**
       * the range's first byte: an address, or a pointer parameter of the kernel whose value each launch
       * supplies (cuda::access_property(ptr, primary, total, ...) built from a runtime pointer; k.accessRange)
       */
      base: number | { param: string };
      primaryBytes: number;
      totalBytes: number;
      primary: 'normal' | 'streaming' | 'persisting';
      secondary?: 'normal' | 'streaming' | 'persisting' | 'global';
    };

export interface PtrType {
  readonly tag: 'ptr';
  readonly space: Space;
  readonly elem: ElemType;
  readonly property?: AccessProperty;
}
/** what a register can hold */
export type ValueType = ScalarType | PtrType;

/** storage class of a register: which typed array holds its 32 lanes */
export type Storage = 'i32' | 'f32' | 'f64' | 'i64';

export interface SourceLoc {
  file: string;
  line: number;
}

/** An operand: a register or an immediate of the operand's type */
export type Operand = { readonly reg: number; readonly type: ValueType } | { readonly imm: number | bigint; readonly type: ValueType };

export type UnaryOp = 'neg' | 'not' | 'abs' | 'sqrt' | 'rsqrt' | 'rcp' | 'exp2' | 'log2' | 'sin' | 'cos' | 'floor' | 'ceil' | 'trunc' | 'popc' | 'clz' | 'brev' | 'mov';
export type BinaryOp = 'add' | 'sub' | 'mul' | 'div' | 'rem' | 'and' | 'or' | 'xor' | 'shl' | 'shr' | 'min' | 'max' | 'mulhi';
export type CompareOp = 'lt' | 'le' | 'gt' | 'ge' | 'eq' | 'ne';
export type SpecialReg =
  | 'tid.x' | 'tid.y' | 'tid.z'
  | 'ntid.x' | 'ntid.y' | 'ntid.z'
  | 'ctaid.x' | 'ctaid.y' | 'ctaid.z'
  | 'nctaid.x' | 'nctaid.y' | 'nctaid.z'
  | 'laneid' | 'warpid'
  /** the SM the block runs on (%smid): which one follows the emulated dispatch order (arch smDispatchOrder) */
  | 'smid'
  /** base offset of dynamic (extern) shared memory */
  | 'dynsmem';

/**
 * PTX cache operators on loads (ca cg cs lu cv) and stores (wb cg cs wt); 'strong' = volatile/relaxed.gpu,
 * bypasses L1; 'nc' = ld.global.nc, the read-only path of __ldg and `const __restrict__` (SASS LDG.E.CONSTANT)
 */
export type CacheOp = 'ca' | 'cg' | 'cs' | 'lu' | 'cv' | 'wb' | 'wt' | 'strong' | 'nc';
export type ShflMode = 'idx' | 'up' | 'down' | 'xor';
export type VoteMode = 'any' | 'all' | 'ballot' | 'uni';
/** __reduce_<op>_sync: the warp-wide integer reductions of sm_80+ (SASS REDUX) */
export type ReduxOp = 'add' | 'min' | 'max' | 'and' | 'or' | 'xor';
export type AtomOp = 'add' | 'min' | 'max' | 'exch' | 'cas' | 'and' | 'or' | 'xor' | 'inc' | 'dec';
/** PTX thread scopes: cta (cuda::thread_scope_block), gpu (thread_scope_device), sys (thread_scope_system) */
export type MemScope = 'cta' | 'gpu' | 'sys';
/** PTX memory orders as cuda::memory_order names them */
export type MemOrder = 'relaxed' | 'acquire' | 'release' | 'acq_rel' | 'seq_cst';
/** the order and scope of an atomic operation (PTX memory consistency model) */
export interface MemSemantics {
  order: MemOrder;
  scope: MemScope;
}

/**
 * An NVSHMEM remote access (nvshmem_p/g/put/get, signals, AMOs) through an address a `peerptr`
 * instruction translated into PE `pe`'s memory: it travels the interconnect and is counted as
 * traffic of `kind` to that PE.
 */
export interface RemoteAccess {
  pe: Operand;
  kind: ShmemTrafficKind;
  /** the NVSHMEM call, for located errors */
  call: string;
}
/** what a remote access is counted as in the per-peer traffic (PeerEnv.traffic) */
export type ShmemTrafficKind = 'p' | 'g' | 'put' | 'get' | 'signal' | 'atomic';

interface InstrBase {
  readonly loc: SourceLoc;
}

export type Instr =
  /**
   * `opaque`: a value nvcc's front end does not know (C's warpSize is PTX's WARP_SZ, a run-time
   * constant to it): a division by it is not strength-reduced, though ptxas encodes it as an immediate
   */
  | (InstrBase & { op: 'const'; dst: number; type: ValueType; value: number | bigint; opaque?: boolean })
  | (InstrBase & { op: 'special'; dst: number; sreg: SpecialReg; type: ValueType })
  | (InstrBase & { op: 'param'; dst: number; type: ValueType; name: string })
  | (InstrBase & { op: 'unary'; fn: UnaryOp; dst: number; type: ValueType; a: Operand })
  | (InstrBase & { op: 'binary'; fn: BinaryOp; dst: number; type: ValueType; a: Operand; b: Operand })
  | (InstrBase & { op: 'fma'; dst: number; type: ValueType; a: Operand; b: Operand; c: Operand })
  | (InstrBase & { op: 'cmp'; fn: CompareOp; dst: number; a: Operand; b: Operand })
  | (InstrBase & { op: 'select'; dst: number; type: ValueType; cond: Operand; a: Operand; b: Operand })
  | (InstrBase & { op: 'cvt'; dst: number; type: ValueType; a: Operand })
  | (InstrBase & { op: 'bitcast'; dst: number; type: ValueType; a: Operand })
  /** pointer arithmetic: dst = base + index * scale (bytes) */
  | (InstrBase & { op: 'lea'; dst: number; type: PtrType; base: Operand; index: Operand; scale: number })
  /** masked move into a mutable variable */
  | (InstrBase & { op: 'assign'; dst: number; type: ValueType; a: Operand })
  | (InstrBase & {
      op: 'ld';
      space: Space;
      dsts: number[];
      elem: ElemType;
      addr: Operand;
      cache: CacheOp;
      property: AccessProperty;
      /** an atomic load (ld.relaxed/acquire.scope; absent: a weak load, or volatile with cache 'strong') */
      sem?: MemSemantics;
      /** a load from a peer PE's symmetric memory (NVSHMEM) */
      remote?: RemoteAccess;
      /** a generic access: the emulator's register for the shared offsets of the lanes whose address is shared */
      shadow?: number;
    })
  | (InstrBase & {
      op: 'st';
      space: Space;
      values: Operand[];
      elem: ElemType;
      addr: Operand;
      cache: CacheOp;
      property: AccessProperty;
      /** an atomic store (st.relaxed/release.scope; absent: a weak store, or volatile with cache 'strong') */
      sem?: MemSemantics;
      /** a store to a peer PE's symmetric memory (NVSHMEM) */
      remote?: RemoteAccess;
      /** a generic access: the emulator's register for the shared offsets of the lanes whose address is shared */
      shadow?: number;
    })
  | (InstrBase & {
      op: 'atom';
      space: Space;
      fn: AtomOp;
      dst: number | null;
      type: ScalarType;
      addr: Operand;
      a: Operand;
      b?: Operand;
      property: AccessProperty;
      /** cuda::atomic_ref's memory order and thread scope (absent: atomicAdd & co., relaxed at gpu scope) */
      sem?: MemSemantics;
      /** an atomic on a peer PE's symmetric memory (NVSHMEM AMOs and signals: atomic*_system) */
      remote?: RemoteAccess;
    })
  /**
   * cp.async (SASS LDGSTS): one element from global to shared memory without passing through the
   * thread's registers. `tmps` carry the data inside the emulator only; `token` is the kernel's
   * async-copy register, written by every copy and read by cpwait, so that the timing model makes
   * the wait (not the copy) wait for memory. `cache` 'cg' bypasses L1 (LDGSTS.E.BYPASS, 16 bytes only).
   */
  | (InstrBase & {
      op: 'cpasync';
      to: Operand;
      from: Operand;
      elem: ElemType;
      cache: 'ca' | 'cg';
      property: AccessProperty;
      tmps: number[];
      token: number;
    })
  /** cp.async.wait_all (SASS LDGDEPBAR + DEPBAR.LE SB0, 0): the warp waits for its async copies (reads `token`) */
  | (InstrBase & { op: 'cpwait'; token: number })
  /** cp.async.commit_group (__pipeline_commit, pipeline.producer_commit; SASS LDGDEPBAR): the thread's uncommitted copies become a group */
  | (InstrBase & { op: 'cpcommit' })
  /**
   * cp.async.wait_group N (cg::wait_prior<N>, __pipeline_wait_prior(N); SASS DEPBAR.LE SB0, N): the warp
   * waits until at most the N most recent committed groups are still in flight
   */
  | (InstrBase & { op: 'cpwaitprior'; prior: number })
  /**
   * mbarrier.init.shared.b64 [addr], count (cuda::barrier's init; SASS SYNCS.EXCH.64): the 8-byte barrier
   * object in shared memory expects `count` arrivals per phase
   */
  | (InstrBase & { op: 'mbarinit'; addr: Operand; count: Operand })
  /** mbarrier.arrive.shared.b64 (barrier.arrive(); SASS SYNCS.ARRIVE.TRANS64.A1T0): dst = the token of the phase arrived in */
  | (InstrBase & { op: 'mbararrive'; dst: number; addr: Operand })
  /** mbarrier.try_wait (SASS SYNCS.PHASECHK.TRANS64.TRYWAIT): dst = the phase of `token` has completed */
  | (InstrBase & { op: 'mbartest'; dst: number; addr: Operand; token: Operand })
  /** bar.sync / bar.arrive id, count (count 0 = all threads of the block) */
  | (InstrBase & { op: 'bar'; mode: 'sync' | 'arrive'; id: Operand; count: Operand | null })
  | (InstrBase & { op: 'syncwarp'; mask: Operand })
  | (InstrBase & { op: 'shfl'; mode: ShflMode; dst: number; type: ScalarType; value: Operand; lane: Operand; width: number; mask: Operand })
  | (InstrBase & { op: 'vote'; mode: VoteMode; dst: number; pred: Operand; mask: Operand })
  /** __reduce_<fn>_sync(mask, value) on 32-bit integers: every named lane gets the reduction over them */
  | (InstrBase & { op: 'redux'; fn: ReduxOp; dst: number; type: ScalarType; value: Operand; mask: Operand })
  | (InstrBase & { op: 'match'; dst: number; value: Operand; mask: Operand })
  | (InstrBase & { op: 'activemask'; dst: number })
  /**
   * NVSHMEM device state (src/ir/shmem.ts): my_pe / n_pes (LDC from NVSHMEM's constant bank), and
   * the symmetric address of the library's barrier area (psync words per PE, then the sync counter)
   */
  | (InstrBase & { op: 'shmem'; fn: 'my_pe' | 'n_pes' | 'psync'; dst: number; type: ValueType })
  /**
   * NVSHMEM's P2P address translation: dst = the address on PE `pe` of the symmetric object holding
   * `addr` (the caller's symmetric address), checked for `bytes` bytes (PeerEnv.translate). NVSHMEM
   * computes it as peer_heap_base_p2p[pe] + (addr - heap_base): an LDG of the peer's base, a null
   * test and a 64-bit add (test/fidelity/probes/nvshmem_device_sass)
   */
  | (InstrBase & { op: 'peerptr'; dst: number; type: PtrType; addr: Operand; pe: Operand; bytes: Operand; call: string; amo?: boolean })
  /** nvshmem_quiet / nvshmem_fence over NVLink: the calling thread's __threadfence_system() */
  | (InstrBase & { op: 'shmemfence'; fn: 'quiet' | 'fence' })
  /**
   * a cooperative (_warp / _block) NVSHMEM call: 'enter' before its group sync records who called,
   * 'check' after it faults naming the lanes or warps of the group that did not (`site`: the call)
   */
  | (InstrBase & { op: 'shmemgroup'; scope: 'warp' | 'block'; phase: 'enter' | 'check'; site: number; call: string })
  /** a device-side collective (barrier_all, sync_all): valid only in a collective launch */
  | (InstrBase & { op: 'shmemcollective'; call: string })
  /** prefetch.global.L2::evict_last / evict_normal of the 128-byte line holding addr */
  | (InstrBase & { op: 'l2prefetch'; addr: Operand; prop: 'persisting' | 'normal' })
  /** discard.global.L2 [addr], 128 */
  | (InstrBase & { op: 'l2discard'; addr: Operand })
  /** fence.sc / fence.acq_rel at a scope (membar.cta|gl|sys is fence.sc); `order` absent: sc */
  | (InstrBase & { op: 'membar'; scope: MemScope; order?: 'sc' | 'acq_rel' })
  /** nanosleep.u32 ns (__nanosleep): the warp sleeps about `ns` nanoseconds (SASS NANOSLEEP) */
  | (InstrBase & { op: 'nanosleep'; ns: Operand })
  /** mov.u64 dst, %globaltimer (SASS CS2R SR_GLOBALTIMERLO): nanoseconds, read each time it executes */
  | (InstrBase & { op: 'globaltimer'; dst: number })
  | (InstrBase & { op: 'break' })
  | (InstrBase & { op: 'return' })
  /** structured if/else; `predicated` compiles to predicated instructions without a branch (nvcc's if-conversion) */
  | (InstrBase & { op: 'if'; cond: Operand; then: Instr[]; else: Instr[] | null; predicated: boolean })
  /**
   * a loop: `cond` is computed by `head`; `guard` emits the entry test (a `for`/`while`), else do-while;
   * `keep`: `#pragma unroll 1`, nvcc lays it out as written (no runtime unrolling)
   */
  | (InstrBase & { op: 'loop'; head: Instr[]; cond: Operand; body: Instr[]; guard: boolean; keep?: boolean });

export interface RegInfo {
  type: ValueType;
  /** defined by an `assign`-able variable (k.let) */
  mutable: boolean;
  loc: SourceLoc;
  /** nesting scope id where the register is defined (for the validator) */
  scope: number;
}

export interface SharedAlloc {
  name: string;
  offset: number;
  bytes: number;
  align: number;
  loc: SourceLoc;
}

export interface ParamDecl {
  name: string;
  type: ValueType;
}

/** A built kernel: its instructions, registers, parameters and shared memory */
export interface KernelIR {
  name: string;
  file: string;
  params: ParamDecl[];
  regs: RegInfo[];
  body: Instr[];
  sharedStatic: SharedAlloc[];
  sharedStaticBytes: number;
  /** the kernel uses `extern __shared__` dynamic shared memory */
  usesDynamicShared: boolean;
  /** named barrier ids used (for the sm_90 barrier occupancy limit) */
  barrierIds: number[];
  /**
   * bytes of local memory per thread (k.local arrays, 16-byte aligned); absent: none. ptxas reports it as
   * "N bytes stack frame"; the hardware interleaves it across a warp's threads in 4-byte words
   */
  localBytes?: number;
  /** where the kernel calls grid.sync() (k.gridSync): it needs a cooperative launch; absent: nowhere */
  gridSyncSites?: SourceLoc[];
  /** block sizes the kernel needs (tiles larger than a warp: the block must be a multiple of the tile); absent: none */
  blockMultiples?: { threads: number; loc: SourceLoc; what: string }[];
  /** bytes the kernel keeps in the block's reserved shared memory (cooperative groups' scratch); absent: none */
  reservedSharedBytes?: number;
}

/**
 * the hidden parameter that carries a cooperative launch's grid workspace (the barrier word
 * cooperative_groups' grid.sync() counts arrivals in; the driver passes it to every cooperative grid)
 */
export const GRID_WORKSPACE_PARAM = '__cg_grid_workspace';

/**
 * the hidden parameter that carries the shared offset of the block's reserved shared memory (the 1 KB the
 * driver keeps per block from sm_80 on; the SASS reads it from the constant bank, c[0x0][0x6c]), where
 * cooperative groups keeps a block_tile_memory's scratch
 */
export const RESERVED_SHARED_PARAM = '__cg_reserved_shared';
