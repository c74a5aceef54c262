/**
 * cuda-samples 2_Concepts_and_Techniques/sortingNetworks, bitonicSortShared: 1,048,576 key/value
 * pairs sorted in arrays of 1024, one array per block of 512 threads, entirely in shared memory
 * (the sample's path for arrays that fit: bitonicSort() with arrayLength 1024, dir 0).
 *
 * Each thread loads two pairs; then log2(1024) merge stages of log2(size) compare-exchange steps,
 * each after a barrier. Comparator() swaps when `(keyA > keyB) == dir`: nvcc predicates the swap
 * (the two keys are loaded for the test; the values are loaded and both pairs stored only when
 * swapping), so a compare-exchange has no branch.
 */
import { type DevicePtr, type Host, type KernelBuilder, type SharedArray, type Val, defineKernel, ptr, u32 } from 'warpsight';
import { hashMod } from './lib.js';

const N = 1 << 20;
const SHARED_SIZE_LIMIT = 1024;
const ARRAY_LENGTH = 1024;

/** Comparator(s_key[a], s_val[a], s_key[b], s_val[b], dir) */
function comparator(k: KernelBuilder, sKey: SharedArray, sVal: SharedArray, a: Val, b: Val, dir: Val): void {
  const keyA = sKey.at(a).get();
  const keyB = sKey.at(b).get();
  // if ((keyA > keyB) == dir): the comparison is a 0/1 uint compared with dir
  k.when(k.select(keyA.gt(keyB), k.u32(1), k.u32(0)).eq(dir), () => {
    sKey.at(a).store(keyB);
    sKey.at(b).store(keyA);
    const valA = sVal.at(a).get();
    const valB = sVal.at(b).get();
    sVal.at(a).store(valB);
    sVal.at(b).store(valA);
  });
}

const keyAt = (i: number): number => hashMod(i, 0xb170, 2 ** 32) & 0xffff;

export const bitonicSortShared = defineKernel({
  name: 'bitonicSortShared',
  description: 'bitonic sort of 1024-key arrays in shared memory, 512 threads per array (cuda-samples sortingNetworks)',
  params: { d_DstKey: ptr('global', u32), d_DstVal: ptr('global', u32), d_SrcKey: ptr('global', u32), d_SrcVal: ptr('global', u32), arrayLength: u32, dir: u32 },
  defaults: { arrayLength: ARRAY_LENGTH, dir: 0 },
  launch: { grid: N / SHARED_SIZE_LIMIT, block: SHARED_SIZE_LIMIT / 2 },
  // ptxas: 18 registers
  registers: 18,
  setup: (h: Host) => ({
    d_SrcKey: h.alloc(u32, N, 'SrcKey', keyAt),
    d_SrcVal: h.alloc(u32, N, 'SrcVal', (i) => i),
    d_DstKey: h.alloc(u32, N, 'DstKey'),
    d_DstVal: h.alloc(u32, N, 'DstVal'),
  }),
  // the sample's validateSortedKeys / validateValues: each array sorted (dir 0: descending), values follow their keys
  check: (h: Host, { d_DstKey, d_DstVal, d_SrcKey }: { d_DstKey: DevicePtr; d_DstVal: DevicePtr; d_SrcKey: DevicePtr }, { grid }) => {
    for (let a = 0; a < grid[0] * SHARED_SIZE_LIMIT; a += ARRAY_LENGTH * 61) {
      for (let i = 0; i < ARRAY_LENGTH; i++) {
        const key = h.readNumber(d_DstKey, u32, a + i);
        if (i > 0 && key > h.readNumber(d_DstKey, u32, a + i - 1)) return `array at ${a}: key ${i} = ${key} above its predecessor (dir 0 sorts descending)`;
        const v = h.readNumber(d_DstVal, u32, a + i);
        if (v < a || v >= a + ARRAY_LENGTH || h.readNumber(d_SrcKey, u32, v) !== key) return `array at ${a}: value ${i} = ${v} does not hold key ${key}`;
      }
    }
    return null;
  },
  body: (k, { d_DstKey, d_DstVal, d_SrcKey, d_SrcVal, arrayLength, dir }) => {
    const s_key = k.shared(u32, [SHARED_SIZE_LIMIT]);
    const s_val = k.shared(u32, [SHARED_SIZE_LIMIT]);
    const tid = k.threadIdx.x;
    // d_SrcKey += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x, and the same for the other three
    const base = k.blockIdx.x.mul(SHARED_SIZE_LIMIT).add(tid);
    const srcKey = d_SrcKey.add(base);
    const srcVal = d_SrcVal.add(base);
    const dstKey = d_DstKey.add(base);
    const dstVal = d_DstVal.add(base);
    const HALF = SHARED_SIZE_LIMIT / 2;
    s_key.at(tid).store(srcKey.at(0).get());
    s_val.at(tid).store(srcVal.at(0).get());
    s_key.at(tid.add(HALF)).store(srcKey.at(HALF).get());
    s_val.at(tid.add(HALF)).store(srcVal.at(HALF).get());

    // for (uint size = 2; size < arrayLength; size <<= 1)
    const size = k.let(u32, 2);
    k.while(
      () => size.lt(arrayLength),
      () => {
        // uint ddd = dir ^ ((threadIdx.x & (size / 2)) != 0);
        const ddd = dir.xor(k.select(tid.and(size.shr(1)).ne(0), k.u32(1), k.u32(0)));
        const stride = k.let(u32, size.shr(1));
        k.while(
          () => stride.gt(0),
          () => {
            k.syncthreads();
            const pos = tid.mul(2).sub(tid.and(stride.sub(1)));
            comparator(k, s_key, s_val, pos, pos.add(stride), ddd);
            stride.set(stride.shr(1));
          },
        );
        size.set(size.shl(1));
      },
    );
    // ddd == dir for the last bitonic merge step
    const stride = k.let(u32, arrayLength.shr(1));
    k.while(
      () => stride.gt(0),
      () => {
        k.syncthreads();
        const pos = tid.mul(2).sub(tid.and(stride.sub(1)));
        comparator(k, s_key, s_val, pos, pos.add(stride), dir);
        stride.set(stride.shr(1));
      },
    );
    k.syncthreads();
    dstKey.at(0).store(s_key.at(tid).get());
    dstVal.at(0).store(s_val.at(tid).get());
    dstKey.at(HALF).store(s_key.at(tid.add(HALF)).get());
    dstVal.at(HALF).store(s_val.at(tid.add(HALF)).get());
  },
});

export default [bitonicSortShared];
