/**
 * Cooperative groups on top of the builder's warp primitives, as `cooperative_groups` compiles them:
 * a tile's collectives are the *_sync intrinsics with the tile's lanes as the mask, so they carry the
 * same Volta+ rules (a mask naming a lane that does not take part is reported, not made up).
 *
 *   const block = thisThreadBlock(k);            // cg::this_thread_block()
 *   const tile32 = tiledPartition(k, 32);         // cg::tiled_partition<32>(block)
 *   const y = tile32.shfl(x, 0);                  // tile32.shfl(x, 0)
 *   const sub = binaryPartition(k, tile32, p);    // cg::binary_partition(tile32, p)
 *   k.if(p, () => { y.set(sub.shfl(x, 0)); });    // subtile.shfl(x, 0)
 *
 * Tiles are 1, 2, 4, 8, 16 or 32 threads (thread_block_tile's shuffles and votes stop at a warp), or
 * 64, 128, 256, 512 or 1024 threads with a block_tile_memory (blockTiles.ts: sync and reduce through a
 * barrier word and per-warp partials, as CUDA 12 builds them).
 */
import { callerLoc } from './sourceLoc.js';
import { type KernelBuilder, type Val, type ValLike, irError } from './builder.js';
import { pred as predType, u32 } from './typesys.js';
import { BlockTile, type BlockTileMemory } from './blockTiles.js';

/** cg::thread_block */
export interface ThreadBlock {
  /** block.sync(): __syncthreads() */
  sync(): void;
  /** block.thread_rank(): the linear thread index in the block */
  threadRank(): Val;
  /** block.size(): threads in the block */
  size(): Val;
}

export function thisThreadBlock(k: KernelBuilder): ThreadBlock {
  return {
    sync: () => k.syncthreads(),
    threadRank: () => {
      const t = k.threadIdx;
      const d = k.blockDim;
      return t.z.mul(d.y).add(t.y).mul(d.x).add(t.x);
    },
    size: () => k.blockDim.x.mul(k.blockDim.y).mul(k.blockDim.z),
  };
}

/** what tiles and coalesced groups have in common: a lane mask that every member passes */
abstract class WarpGroup {
  constructor(
    protected readonly k: KernelBuilder,
    /** the member lanes, the same value in every member */
    readonly mask: Val,
  ) {}
  /** __syncwarp(mask) */
  sync(): void {
    this.k.syncwarp(this.mask);
  }
  /** __any_sync(mask, p) */
  any(p: ValLike): Val {
    return this.k.vote('any', p, this.mask);
  }
  /** __all_sync(mask, p) */
  all(p: ValLike): Val {
    return this.k.vote('all', p, this.mask);
  }
  /** __match_any_sync(mask, v) */
  matchAny(v: Val): Val {
    return this.k.matchAny(v, this.mask);
  }
}

/** cg::thread_block_tile<N> for N <= 32 */
export class Tile extends WarpGroup {
  constructor(
    k: KernelBuilder,
    readonly size: number,
    mask: Val,
    /** the tile's first lane in the warp */
    private readonly base: Val,
  ) {
    super(k, mask);
  }
  /** tile.thread_rank() */
  threadRank(): Val {
    return this.k.laneId.and(this.size - 1);
  }
  /** tile.meta_group_rank(): which tile of the block this is */
  metaGroupRank(): Val {
    return thisThreadBlock(this.k).threadRank().div(this.size);
  }
  /** tile.shfl(v, srcRank) */
  shfl(v: Val, srcRank: ValLike): Val {
    return this.k.shfl('idx', v, srcRank, { mask: this.mask, width: this.size });
  }
  shflUp(v: Val, delta: ValLike): Val {
    return this.k.shfl('up', v, delta, { mask: this.mask, width: this.size });
  }
  shflDown(v: Val, delta: ValLike): Val {
    return this.k.shfl('down', v, delta, { mask: this.mask, width: this.size });
  }
  shflXor(v: Val, laneMask: ValLike): Val {
    return this.k.shfl('xor', v, laneMask, { mask: this.mask, width: this.size });
  }
  /** tile.ballot(p): bit r for the tile's thread of rank r */
  ballot(p: ValLike): Val {
    const b = this.k.vote('ballot', p, this.mask);
    return this.size === 32 ? b : b.shr(this.base);
  }
}

/**
 * cg::tiled_partition<n>(block) (or of a larger tile): n consecutive threads. A tile of 64 to 1024
 * threads spans warps: pass the block_tile_memory its sync and reduce go through (blockTileMemory(k),
 * CUDA's `cg::this_thread_block(scratch)`).
 */
export function tiledPartition(k: KernelBuilder, n: 64 | 128 | 256 | 512 | 1024, mem: BlockTileMemory): BlockTile;
export function tiledPartition(k: KernelBuilder, n: number): Tile;
export function tiledPartition(k: KernelBuilder, n: number, mem: BlockTileMemory): Tile | BlockTile;
export function tiledPartition(k: KernelBuilder, n: number, mem?: BlockTileMemory): Tile | BlockTile {
  if ([64, 128, 256, 512, 1024].includes(n)) {
    if (mem === undefined)
      throw irError(callerLoc(), `tiled_partition<${n}>: a tile larger than a warp syncs through a block_tile_memory: create it with blockTileMemory(k) (CUDA: __shared__ cg::block_tile_memory<N> scratch; cg::this_thread_block(scratch)) and pass it as tiledPartition(k, ${n}, mem)`);
    return new BlockTile(k, n, mem, callerLoc());
  }
  if (![1, 2, 4, 8, 16, 32].includes(n))
    throw irError(callerLoc(), `tiled_partition<${n}>: the tile size must be a power of two from 1 to 1024 (1 to 32 threads in a warp; 64 to 1024 with a block_tile_memory)`);
  if (n === 32) return new Tile(k, 32, k.u32(0xffffffff), k.u32(0));
  const base = k.laneId.and(~(n - 1) >>> 0);
  return new Tile(k, n, k.u32((1 << n) - 1 >>> 0).shl(base), base);
}

/** cg::coalesced_group: the lanes of mask, ranked by lane */
export class CoalescedGroup extends WarpGroup {
  /** group.size() */
  size(): Val {
    return this.k.unary('popc', this.mask);
  }
  /** group.thread_rank(): members below this lane */
  threadRank(): Val {
    const below = this.k.u32(1).shl(this.k.laneId).sub(1);
    return this.k.unary('popc', this.mask.and(below));
  }
  /** the lane of the member of rank r (__fns(mask, 0, r + 1)) */
  laneOfRank(rank: ValLike): Val {
    const k = this.k;
    if (rank === 0) {
      // the lowest set bit
      const low = this.mask.and(this.mask.neg());
      return k.u32(31).sub(k.unary('clz', low));
    }
    // binary search on the prefix counts: 5 steps of popc
    let base: Val = k.u32(0);
    let rem: Val = typeof rank === 'number' ? k.u32(rank) : k.toVal(rank, u32);
    for (const width of [16, 8, 4, 2, 1]) {
      const low = k.unary('popc', this.mask.shr(base).and((1 << width) - 1 >>> 0));
      const skip = rem.ge(low);
      rem = k.select(skip, rem.sub(low), rem);
      base = k.select(skip, base.add(width), base);
    }
    return base;
  }
  /** group.shfl(v, srcRank) */
  shfl(v: Val, srcRank: ValLike): Val {
    return this.k.shfl('idx', v, this.laneOfRank(srcRank), { mask: this.mask });
  }
  /** group.ballot(p): bit r for the member of rank r is not packed here: bits are lanes, as __ballot_sync */
  ballot(p: ValLike): Val {
    return this.k.vote('ballot', p, this.mask);
  }
}

/** cg::binary_partition(tile, pred): the lanes of the tile whose pred equals this lane's */
export function binaryPartition(k: KernelBuilder, tile: Tile | CoalescedGroup, pred: ValLike): CoalescedGroup {
  const yes = k.vote('ballot', pred, tile.mask);
  const p = k.toVal(pred, predType);
  return new CoalescedGroup(k, k.select(p, yes, yes.not().and(tile.mask)));
}

/** cg::coalesced_threads(): the lanes executing this point */
export function coalescedThreads(k: KernelBuilder): CoalescedGroup {
  return new CoalescedGroup(k, k.activemask());
}
