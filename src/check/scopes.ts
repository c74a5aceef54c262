/**
 * PTX thread scopes as the checker uses them: which threads a scope includes, and whether two strong
 * operations are "morally strong" (PTX ISA, memory consistency model: both strong, each one's scope
 * including the other's thread), which is what exempts a conflicting pair from being a data race.
 */
import type { MemScope } from '../ir/types.js';

/** scope codes as shadow records store them (2 bits): 0 = not a strong access */
export const SCOPE_CODE: Record<MemScope, number> = { cta: 1, gpu: 2, sys: 3 };
export const SCOPE_OF_CODE: readonly (MemScope | null)[] = [null, 'cta', 'gpu', 'sys'];

/** a scope of a thread in block `from` includes a thread of block `to` (one GPU per launch: gpu and sys include every block) */
export function includes(code: number, from: number, to: number): boolean {
  return code >= 2 || (code === 1 && from === to);
}

export function morallyStrong(codeA: number, blockA: number, codeB: number, blockB: number): boolean {
  return codeA !== 0 && codeB !== 0 && includes(codeA, blockA, blockB) && includes(codeB, blockB, blockA);
}

/** the narrower of two scopes (a fence and the strong operation after it release at the narrower one) */
export function narrower(a: number, b: number): number {
  return Math.min(a, b);
}
