/**
 * Inputs shared by the cuda-samples ports: the hashes test/fidelity/groundtruth/cuda-samples/samples.cu
 * fills its buffers with, so that the emulated kernels read the data the H200 read.
 */
import { type KernelBuilder, type PtrVal, type Val, type VecVal, hash32, u32 } from 'warpsight';

/** samples.cu's unitF: (hash32(i ^ seed) & 0xffff) / 65536, a float in [0, 1) */
export function unitF(i: number, seed: number): number {
  return Math.fround((hash32((i ^ seed) >>> 0) & 0xffff) / 65536);
}

/** hash32(i ^ seed) % m, as samples.cu fills its integer inputs */
export function hashMod(i: number, seed: number, m: number): number {
  return hash32((i ^ seed) >>> 0) % m;
}

/** the four components of a uint4 load (a load of a vector element type gives them; a scalar never reaches here) */
export function uint4Of(v: Val | VecVal): VecVal {
  if (!('parts' in v)) throw new TypeError('a uint4 load gives four values');
  return v;
}

/** scan.cu's scan1Inclusive(idata, s_Data, size): a Hillis-Steele scan over `size` threads' values (on a volatile shared array) */
export function scan1Inclusive(k: KernelBuilder, idata: Val, s_Data: PtrVal, size: Val): Val {
  const tid = k.threadIdx.x;
  const pos = k.let(u32, tid.mul(2).sub(tid.and(size.sub(1))));
  s_Data.at(pos).store(0);
  pos.set(pos.add(size));
  s_Data.at(pos).store(idata);
  const offset = k.let(u32, 1);
  k.while(
    () => offset.lt(size),
    () => {
      k.syncthreads();
      const t = s_Data.at(pos).get().add(s_Data.at(pos.sub(offset)).get());
      k.syncthreads();
      s_Data.at(pos).store(t);
      offset.set(offset.shl(1));
    },
  );
  return s_Data.at(pos).get();
}
