/**
 * `--explain`'s capture: for the memory instructions of the lines asked about, the addresses of the
 * active lanes of one representative warp — the lowest-numbered warp (by block, then warp in the
 * block) that executes the instruction, so that the explanation is that of warp 0 of block (0,0,0)
 * wherever that warp runs it, whichever warp the scheduler happened to let through a barrier first,
 * and the same on every run. Only a launch that asks for explanations gets a recorder
 * (ExecEnv.explain); without one memOps compiles exactly the closures it always did, so a normal run
 * pays nothing and its report does not change by a byte.
 */
import type { Instr, SourceLoc } from '../ir/types.js';
import type { Exec } from './codegen.js';
import type { Warp } from './warp.js';

export type ExplainSpace = 'global' | 'shared';

/** one memory instruction as the representative warp executed it the first time */
export interface ExplainSample {
  readonly index: number;
  readonly loc: SourceLoc;
  readonly space: ExplainSpace;
  /** bytes per lane */
  readonly size: number;
  /** per lane: the byte address (global) or the offset in the block's shared memory (shared) */
  readonly addrs: Float64Array;
  /** the lanes whose access happens (active and predicated on) */
  readonly mask: number;
  readonly block: readonly [number, number, number];
  readonly blockLinear: number;
  readonly warpInBlock: number;
  /** executions with an active lane by this warp (its requests of the instruction) */
  requests: number;
}

export class ExplainRecorder {
  /** by instruction index (the compiled program's slot, as the report's instructions name it) */
  readonly samples = new Map<number, ExplainSample>();
  /** every memory instruction compiled, wanted or not: where the lines with memory instructions are */
  readonly memoryLocs: SourceLoc[] = [];

  constructor(private readonly wants: (loc: SourceLoc) => boolean) {}

  /**
   * `fn` with the capture in front when the instruction's line is wanted; `addrs` reads the lanes'
   * address register. The addresses are copied before `fn` runs: a load may write its result into
   * the register that held its address (registers share places, regAlloc.ts).
   */
  wrap(fn: Exec, index: number, loc: SourceLoc, size: number, space: ExplainSpace, addrs: (w: Warp) => Float64Array): Exec {
    this.memoryLocs.push(loc);
    if (!this.wants(loc)) return fn;
    let sample: ExplainSample | null = null;
    return (w: Warp) => {
      const m = w.mask;
      if (m !== 0) {
        // warps are reused by later blocks: the linear block index tells them apart
        const same = sample !== null && w.blockLinear === sample.blockLinear && w.warpInBlock === sample.warpInBlock;
        if (same) (sample as ExplainSample).requests++;
        else if (sample === null || w.blockLinear < sample.blockLinear || (w.blockLinear === sample.blockLinear && w.warpInBlock < sample.warpInBlock)) {
          const a = addrs(w);
          const copy = new Float64Array(32).fill(Number.NaN);
          for (let l = 0; l < 32; l++) if ((m >>> l) & 1) copy[l] = Number(a[l]);
          sample = { index, loc, space, size, addrs: copy, mask: m, block: [w.ctaX, w.ctaY, w.ctaZ], blockLinear: w.blockLinear, warpInBlock: w.warpInBlock, requests: 1 };
          this.samples.set(index, sample);
        }
      }
      fn(w);
    };
  }
}

/** where a kernel's memory instructions are, from its IR: the instructions `wrap` is called for */
export function memoryInstructionLocs(list: readonly Instr[], out: SourceLoc[] = []): SourceLoc[] {
  for (const i of list) {
    if (i.op === 'ld' || i.op === 'st' || i.op === 'atom' || i.op === 'cpasync') out.push(i.loc);
    else if (i.op === 'if') {
      memoryInstructionLocs(i.then, out);
      if (i.else) memoryInstructionLocs(i.else, out);
    } else if (i.op === 'loop') {
      memoryInstructionLocs(i.head, out);
      memoryInstructionLocs(i.body, out);
    }
  }
  return out;
}
