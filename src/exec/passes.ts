/**
 * The IR passes that stand for nvcc's middle end, in the order they run before code generation: the
 * kernel as the builder made it stays as it was (each pass rewrites a copy), and the register
 * allocation and the timing model see the instructions where and whether they run.
 */
import type { KernelIR } from '../ir/types.js';
import { hoistInvariants } from './hoist.js';
import { reuseLoads } from './loadCse.js';
import { unrollRuntimeLoops } from './runtimeUnroll.js';
import { simplifyArithmetic } from './simplify.js';
import { vectorizeAccesses } from './vectorize.js';

/** each kernel's optimized form: a pure function of its IR, which every launch of it would redo */
const optimizedOf = new WeakMap<KernelIR, KernelIR>();

export function optimize(built: KernelIR): KernelIR {
  let out = optimizedOf.get(built);
  if (out === undefined) {
    out = passes(built);
    optimizedOf.set(built, out);
  }
  return out;
}

function passes(built: KernelIR): KernelIR {
  // add/subtract chains folded first; then invariants leave their loops (a load's address computed
  // outside is the same value inside); loops whose trip count is known only at run time are unrolled
  // as nvcc unrolls them (their invariants out first, so that the copies do not repeat them); loads
  // of what was read already go; what remains of adjacent accesses merges
  return vectorizeAccesses(reuseLoads(unrollRuntimeLoops(hoistInvariants(simplifyArithmetic(built)))));
}
