/**
 * Warpsight's public API, the package's export (`import { defineKernel } from 'warpsight'`): what
 * kernel files import — the type constructors, the kernel/program definitions, host helpers and
 * cooperative groups — and the profiler's entry point for scripts.
 */
export { f32, f64, i8, i16, i32, i64, pred, ptr, u8, u16, u32, u64, vec } from './ir/typesys.js';
export type { KernelBuilder, PtrVal, Val, Var, VecVal, Ref, SharedArray, LocalArray, ThreadScope } from './ir/builder.js';
export type { AtomicRef } from './ir/atomics.js';
export type { MemOrder, MemScope } from './ir/types.js';
export type { AccessProperty, ScalarType, ElemType, PtrType } from './ir/types.js';
export { defineKernel, defineProgram } from './kernel/define.js';
export type { KernelDef, ProgramDef, ProgramContext, LaunchConfig, ScalarArgs, ArgVals } from './kernel/define.js';
export { Host, hash32 } from './kernel/host.js';
export type { DevicePtr } from './memory/deviceMemory.js';
export { binaryPartition, coalescedThreads, thisThreadBlock, tiledPartition } from './ir/coopGroups.js';
export type { CoalescedGroup, ThreadBlock, Tile } from './ir/coopGroups.js';
export { blockTileMemory, reduce } from './ir/blockTiles.js';
export type { BlockTile, BlockTileMemory, ReduceOp } from './ir/blockTiles.js';
export { pipeline } from './ir/pipeline.js';
export { mbarrier } from './ir/mbarrier.js';
export type { Mbarrier } from './ir/mbarrier.js';
export type { Pipeline } from './ir/pipeline.js';
export type { Shmem, ShmemCmp, ShmemGroup, SignalOp } from './ir/shmem.js';
export { profileFile } from './profile.js';
export type { ProfileRequest } from './profile.js';
export type { Report, KernelResult } from '../types/report.schema.js';
