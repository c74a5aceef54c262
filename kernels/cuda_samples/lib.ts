/**
 * Inputs shared by the cuda-samples ports: the hashes test/fidelity/groundtruth/cuda-samples/samples.cu
 * fills its buffers with, so that the emulated kernels read the data the H200 read.
 */
import { type Val, type VecVal, hash32 } from 'warpsight';

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
