/**
 * cooperative_groups tiles larger than a warp (thread_block_tile<64…1024>) and cg::reduce, as CUDA 12
 * builds them on sm_90 (test/fidelity/probes/cudaparts/tile_probe.cu, its SASS tile_probe_sass.txt):
 *
 *   block_tile_memory  a scratch in shared memory: a barrier word (one bit per warp) at byte 0 and an
 *                      8-byte partial per warp from byte 0x20. `cg::this_thread_block(scratch)` has lane 0
 *                      of every warp clear its bit (MEMBAR + ATOM.AND), then the block syncs (BAR.SYNC).
 *   tile.sync()        lane 0 of each warp sets its bit (MEMBAR + ATOM.OR, the old word back); if that
 *                      completes the tile's bits, it clears them all (ATOM.AND): the release; otherwise it
 *                      polls the word (LD.STRONG.SM in a loop) until its own bit is cleared.
 *   cg::reduce(tile)   each warp reduces its lanes (REDUX for 32-bit integer ops, a SHFL.BFLY tree
 *                      otherwise) and stores its partial; then the barrier above, whose old word lane 0
 *                      broadcasts (SHFL.IDX); the warp that completes the tile has its first lanes (one
 *                      per warp of the tile) load the partials, combine them by SHFL.BFLY and store the
 *                      total back to every partial slot before the release (MEMBAR + ATOM.AND); every
 *                      warp then loads its slot.
 *
 * The probe's H200 counts for a block of 256 threads in tiles of 64 (tile_probe_h200.csv): 32 shared
 * atomics (8 init + 2 × (8 OR + 4 AND)), 12 shared stores (8 partials + 4 totals), 12 shared loads
 * besides the polls (4 partial loads + 8 result loads). How often a warp polls depends on timing.
 *
 * On sm_80+ CUDA places the scratch in the block's reserved 1 KB of shared memory (the probe's
 * shared_mem_per_block_static is 0; the SASS takes its address from c[0x0][0x6c] and SR_SWINHI): so does
 * Warpsight (k.reservedShared), so the kernel's own shared memory and occupancy are unchanged. Before
 * sm_80 (no reserved memory) cg uses the declared block_tile_memory; Warpsight does not model that.
 */
import { callerLoc } from './sourceLoc.js';
import { type KernelBuilder, type PtrVal, type Val, irError } from './builder.js';
import type { AtomicRef } from './atomics.js';
import type { Tile } from './coopGroups.js';
import type { KernelIR, ReduxOp, ScalarType, SourceLoc } from './types.js';
import { UserError } from '../errors.js';
import { u32 } from './typesys.js';

/** the scratch's barrier word at byte 0, the warps' partials from byte 0x20, 8 bytes each (the SASS's [R+0x20], warp * 8) */
const PARTIALS_OFFSET = 0x20;
const PARTIAL_STRIDE = 8;
/** a block has at most 32 warps */
const MAX_WARPS = 32;
export const BLOCK_TILE_MEMORY_BYTES = PARTIALS_OFFSET + MAX_WARPS * PARTIAL_STRIDE;

/** cg::plus, cg::less (min), cg::greater (max), cg::bit_and, cg::bit_or, cg::bit_xor */
export type ReduceOp = 'plus' | 'less' | 'greater' | 'bit_and' | 'bit_or' | 'bit_xor';
const REDUX_OF: Record<ReduceOp, ReduxOp> = { plus: 'add', less: 'min', greater: 'max', bit_and: 'and', bit_or: 'or', bit_xor: 'xor' };

/** the operator on two values */
export function combine(op: ReduceOp, a: Val, b: Val): Val {
  switch (op) {
    case 'plus':
      return a.add(b);
    case 'less':
      return a.min(b);
    case 'greater':
      return a.max(b);
    case 'bit_and':
      return a.and(b);
    case 'bit_or':
      return a.or(b);
    case 'bit_xor':
      return a.xor(b);
  }
}

/** the value types cg::reduce takes here: 32-bit integers and floats */
function checkReduceType(v: Val, op: ReduceOp, loc: SourceLoc): ScalarType {
  const t = v.type;
  if (t.tag !== 'scalar' || !['i32', 'u32', 'f32'].includes(t.kind))
    throw irError(loc, `cg::reduce of ${t.tag === 'scalar' ? t.kind : 'a pointer'}: Warpsight reduces i32, u32 or f32 values; convert it with .cast(i32) or .cast(f32)`);
  if (t.kind === 'f32' && op.startsWith('bit_')) throw irError(loc, `cg::reduce with cg::${op} of f32: bit operators need an integer (bitcast it with .bitcast(u32))`);
  return t;
}

/**
 * the reduction over `width` lanes of a warp (width a power of two up to 32, mask the lanes): REDUX
 * for 32-bit integers (nvcc on sm_80+; cg::reduce calls __reduce_*_sync), else log2(width) SHFL.BFLY steps
 */
export function warpReduce(k: KernelBuilder, op: ReduceOp, v: Val, width: number, mask: Val | number, redux = true): Val {
  const t = v.type;
  if (redux && t.tag === 'scalar' && (t.kind === 'i32' || t.kind === 'u32')) return k.reduceSync(REDUX_OF[op], v, mask);
  let acc = v;
  for (let d = width >> 1; d >= 1; d >>= 1) acc = combine(op, acc, k.shfl('xor', acc, d, { mask, width }));
  return acc;
}

/** cg::block_tile_memory<N> with cg::this_thread_block(scratch): the scratch, initialised */
export class BlockTileMemory {
  readonly base: PtrVal;
  readonly barrier: AtomicRef;
  constructor(
    private readonly k: KernelBuilder,
    readonly loc: SourceLoc,
  ) {
    this.base = k.reservedShared(u32, BLOCK_TILE_MEMORY_BYTES);
    this.barrier = k.atomicRef(this.base, 'block');
    // every warp's lane 0 clears its bit of the barrier word, then the block syncs
    const rank = blockRank(k);
    k.if(rank.and(31).eq(0), () => {
      this.barrier.fetchAnd(k.u32(1).shl(rank.shr(5)).not(), 'release');
    });
    k.syncthreads();
  }
  /** the partial slot of warp `w` of the block */
  partial(w: Val, t: ScalarType): PtrVal {
    return this.base.addBytes(w.mul(PARTIAL_STRIDE).add(PARTIALS_OFFSET)).as(t);
  }
}

/** `__shared__ cg::block_tile_memory<N> scratch; auto block = cg::this_thread_block(scratch);` */
export function blockTileMemory(k: KernelBuilder): BlockTileMemory {
  return new BlockTileMemory(k, callerLoc());
}

/** block.thread_rank(), as cg computes it: (tid.z * ntid.y + tid.y) * ntid.x + tid.x (two IMADs) */
function blockRank(k: KernelBuilder): Val {
  const t = k.threadIdx;
  const d = k.blockDim;
  return t.z.mul(d.y).add(t.y).mul(d.x).add(t.x);
}

/** cg::thread_block_tile<N> for N of 64 to 1024: whole warps of the block */
export class BlockTile {
  /** warps in the tile */
  readonly warps: number;
  constructor(
    private readonly k: KernelBuilder,
    readonly size: number,
    private readonly mem: BlockTileMemory,
    loc: SourceLoc,
  ) {
    this.warps = size / 32;
    if (this.warps > MAX_WARPS) throw irError(loc, `tiled_partition<${size}>: a block has at most 1024 threads`);
    k.requireBlockMultiple(size, loc, `tiled_partition<${size}>`);
  }
  /** tile.thread_rank() */
  threadRank(): Val {
    return blockRank(this.k).and(this.size - 1);
  }
  /** tile.meta_group_rank(): which tile of the block this is */
  metaGroupRank(): Val {
    return blockRank(this.k).shr(Math.log2(this.size));
  }
  /** tile.meta_group_size(): tiles in the block */
  metaGroupSize(): Val {
    const d = this.k.blockDim;
    return d.x.mul(d.y).mul(d.z).shr(Math.log2(this.size));
  }
  /** tile.num_threads() */
  numThreads(): number {
    return this.size;
  }

  /** the bits of this warp and of the tile's warps in the barrier word */
  private bits(): { warp: Val; bit: Val; tileBits: Val; first: Val } {
    const k = this.k;
    const warp = blockRank(k).shr(5);
    const first = warp.and((~(this.warps - 1)) >>> 0);
    const all = this.warps === 32 ? 0xffffffff : ((1 << this.warps) - 1) >>> 0;
    return { warp, bit: k.u32(1).shl(warp), tileBits: k.u32(all).shl(first), first };
  }

  /**
   * tile.sync(): the warp converges, lane 0 arrives; the last warp releases, the others poll; then the
   * warp converges again (the SASS's two convergence checks, UMOV + BRA.DIV, at 0x610 and 0x810)
   */
  sync(): void {
    const k = this.k;
    const bar = this.mem.barrier;
    const { bit, tileBits } = this.bits();
    k.syncwarp();
    k.if(k.laneId.eq(0), () => {
      const old = bar.fetchOr(bit, 'acq_rel');
      k.if(old.or(bit).and(tileBits).ne(tileBits), () => {
        k.while(() => bar.load('acquire').and(bit).ne(0), () => {});
      }, () => {
        bar.fetchAnd(tileBits.not(), 'relaxed');
      });
    });
    k.syncwarp();
  }

  /** cg::reduce(tile, v, op): every thread of the tile gets the reduction of the tile's values */
  reduce(v: Val, op: ReduceOp): Val {
    const k = this.k;
    const loc = callerLoc();
    const t = checkReduceType(v, op, loc);
    const mem = this.mem;
    const bar = mem.barrier;
    const partialOfWarp = warpReduce(k, op, v, 32, 0xffffffff);
    const { warp, bit, tileBits, first } = this.bits();
    const mine = mem.partial(warp, t);
    mine.store(partialOfWarp);
    const lane = k.laneId;
    const arrived = k.let(u32, 0);
    k.if(lane.eq(0), () => arrived.set(bar.fetchOr(bit, 'acq_rel')));
    const old = k.shfl('idx', arrived, 0);
    k.if(old.or(bit).and(tileBits).ne(tileBits), () => {
      k.while(() => bar.load('acquire').and(bit).ne(0), () => {});
    }, () => {
      // the last warp to arrive: one lane per warp of the tile combines the partials
      k.if(lane.lt(this.warps), () => {
        const slot = mem.partial(first.add(lane), t);
        // cg's combine is a SHFL.BFLY tree over those lanes even for integers (the SASS's SHFL.BFLY 0x1)
        const total = warpReduce(k, op, slot.load() as Val, this.warps, this.warps === 32 ? 0xffffffff : ((1 << this.warps) - 1) >>> 0, false);
        slot.store(total);
      });
      // the warp converges before lane 0 releases (the SASS's BRA.DIV at 0x530)
      k.syncwarp();
      k.if(lane.eq(0), () => {
        bar.fetchAnd(tileBits.not(), 'release');
      });
    });
    return mine.load() as Val;
  }
}

/**
 * at launch: a tile larger than a warp needs a block of whole tiles (cg::tiled_partition divides the
 * block evenly; a partial tile's barrier would never complete)
 */
export function checkBlockMultiples(kernel: string, ir: KernelIR, block: readonly number[]): void {
  const threads = block.reduce((a, b) => a * b, 1);
  for (const m of ir.blockMultiples ?? []) {
    if (threads % m.threads === 0) continue;
    throw new UserError(`${m.loc.file}:${m.loc.line}: kernel '${kernel}': ${m.what} in a block of ${threads} threads: the block must be a multiple of ${m.threads} threads; launch it with a block of ${m.threads}, ${2 * m.threads}, … threads or use a smaller tile`);
  }
}

/**
 * cg::reduce(tile, value, op) (cooperative_groups/reduce.h): a tile of a warp or less reduces with
 * __reduce_*_sync over its lanes (REDUX) for 32-bit integers, a SHFL.BFLY tree of log2(size) steps
 * otherwise; a larger tile goes through its block_tile_memory (BlockTile.reduce).
 */
export function reduce(k: KernelBuilder, tile: Tile | BlockTile, value: Val, op: ReduceOp): Val {
  if (tile instanceof BlockTile) return tile.reduce(value, op);
  checkReduceType(value, op, callerLoc());
  return warpReduce(k, op, value, tile.size, tile.mask);
}
