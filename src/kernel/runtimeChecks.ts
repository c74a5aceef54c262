/**
 * Values a program hands the host runtime, checked as CUDA checks them (cudaErrorInvalidValue)
 * instead of being taken silently: an access-policy hitRatio of 7, a persisting-L2 limit of -5.
 */
import type { Arch } from '../arch/types.js';
import { UserError } from '../errors.js';
import type { AccessPolicyWindowSpec } from './define.js';

/**
 * cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, bytes): a whole number of bytes >= 0. Above
 * persistingL2CacheMaxSize the driver clamps (cuCtxSetLimit: "the driver is free to modify the
 * requested value … clamping to minimum or maximum values"), which the bundled programs rely on.
 */
export function checkPersistingL2Limit(bytes: number, arch: Arch): void {
  if (typeof bytes !== 'number' || !Number.isInteger(bytes) || bytes < 0)
    throw new UserError(`setPersistingL2Limit(${String(bytes)}): the limit is a whole number of bytes from 0 (the ${arch.name} clamps it to persistingL2CacheMaxSize, ${arch.persistingL2CacheMaxSize} bytes) (cudaErrorInvalidValue)`);
}

/** cudaAccessPolicyWindow: hitRatio in [0, 1], num_bytes within accessPolicyMaxWindowSize, known properties */
export function checkAccessPolicyWindow(w: AccessPolicyWindowSpec | null, arch: Arch): void {
  if (w === null) return;
  const bad = (what: string): never => {
    throw new UserError(`setAccessPolicyWindow: ${what} (cudaErrorInvalidValue)`);
  };
  if (typeof w !== 'object') bad('expected { base, bytes, hitRatio, hitProp, missProp } or null');
  if (typeof w.base !== 'object' || w.base === null || w.base.kind !== 'devptr') bad('base must be a buffer from host.alloc');
  if (typeof w.hitRatio !== 'number' || !(w.hitRatio >= 0 && w.hitRatio <= 1)) bad(`hitRatio ${String(w.hitRatio)} is not a fraction in [0, 1]`);
  if (typeof w.bytes !== 'number' || !Number.isInteger(w.bytes) || w.bytes < 0 || w.bytes > arch.accessPolicyMaxWindowSize)
    bad(`bytes ${String(w.bytes)} must be a whole number from 0 to the ${arch.name}'s accessPolicyMaxWindowSize (${arch.accessPolicyMaxWindowSize})`);
  if (!['normal', 'streaming', 'persisting'].includes(w.hitProp)) bad(`hitProp '${String(w.hitProp)}' must be 'normal', 'streaming' or 'persisting'`);
  if (!['normal', 'streaming'].includes(w.missProp)) bad(`missProp '${String(w.missProp)}' must be 'normal' or 'streaming'`);
}
