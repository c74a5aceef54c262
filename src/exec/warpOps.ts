/**
 * Warp-level primitives with Volta+ semantics: every *_sync names its participants in a mask; a lane
 * named in the mask that is not executing the instruction (diverged or exited) is an error to report,
 * not a value to make up (CUDA Programming Guide, warp shuffle functions; ARCHITECTURE.md §5).
 */
import { KernelFault } from '../errors.js';
import type { Instr, Operand } from '../ir/types.js';
import type { Exec } from './codegen.js';
import type { ExecEnv } from './env.js';
import { threadDesc } from './memOps.js';
import { popc, type RegArray, type Warp } from './warp.js';

const lanesOf = (m: number): string => {
  const out: number[] = [];
  for (let l = 0; l < 32; l++) if ((m >>> l) & 1) out.push(l);
  if (out.length > 8) return `${out.slice(0, 8).join(',')},… (${out.length} lanes)`;
  return out.join(',');
};
const hex32 = (m: number) => `0x${(m >>> 0).toString(16).padStart(8, '0')}`;

/** the uniform value of a mask operand (the first executing lane's) */
function maskOf(o: Operand, w: Warp): number {
  if ('imm' in o) return Number(o.imm) | 0;
  const r = w.regs[o.reg] as Int32Array;
  const m = w.mask;
  for (let l = 0; l < 32; l++) if ((m >>> l) & 1) return r[l] as number;
  return 0;
}

export function checkMask(w: Warp, mask: number, what: string, i: Instr, env: ExecEnv): void {
  const missing = mask & ~w.mask;
  if (missing !== 0) {
    const exited = missing & w.exited;
    const absent = missing & ~w.valid;
    const why = absent
      ? `lanes ${lanesOf(absent)} do not exist in this warp (partial last warp)`
      : exited
        ? `lanes ${lanesOf(exited)} have exited`
        : `lanes ${lanesOf(missing)} are not executing this instruction (they diverged)`;
    throw new KernelFault(
      'bad-mask',
      `${i.loc.file}:${i.loc.line}: ${what} with mask ${hex32(mask)} in warp ${w.warpInBlock} of block (${w.ctaX},${w.ctaY},${w.ctaZ}), kernel '${env.kernel.name}': ${why}; a *_sync mask may name only lanes that execute it (expecting convergence is fine, assuming it is a bug)`,
    );
  }
  const notNamed = w.mask & ~mask;
  if (notNamed !== 0)
    throw new KernelFault(
      'bad-mask',
      `${i.loc.file}:${i.loc.line}: ${what} with mask ${hex32(mask)} executed by lanes ${lanesOf(notNamed)} that the mask does not name (${threadDesc(w, 31 - Math.clz32(notNamed & -notNamed), env)}); each calling thread must be in the mask`,
    );
}

type Shfl = Extract<Instr, { op: 'shfl' }>;
export function genShfl(i: Shfl, env: ExecEnv): Exec {
  const src = new Float64Array(32);
  const vals: (number | bigint)[] = new Array<number | bigint>(32).fill(0);
  return (w: Warp) => {
    const mask = maskOf(i.mask, w);
    checkMask(w, mask, `__shfl_${i.mode === 'idx' ? '' : `${i.mode}_`}sync`, i, env);
    const value = 'reg' in i.value ? (w.regs[i.value.reg] as RegArray) : null;
    const laneR = 'reg' in i.lane ? (w.regs[i.lane.reg] as Int32Array) : null;
    const laneImm = 'imm' in i.lane ? Number(i.lane.imm) : 0;
    const width = i.width;
    const m = w.mask;
    for (let l = 0; l < 32; l++) {
      vals[l] = value ? (value[l] as number | bigint) : 'imm' in i.value ? i.value.imm : 0;
      if (((m >>> l) & 1) === 0) continue;
      const b = laneR ? (laneR[l] as number) >>> 0 : laneImm;
      const segBase = l & ~(width - 1);
      let s: number;
      switch (i.mode) {
        case 'idx':
          s = segBase + (b & (width - 1));
          break;
        case 'up':
          s = l - b >= segBase ? l - b : l;
          break;
        case 'down':
          s = l + b < segBase + width ? l + b : l;
          break;
        default:
          s = (l ^ b) < segBase + width && (l ^ b) >= segBase ? l ^ b : l;
      }
      src[l] = s;
    }
    const dst = w.regs[i.dst] as RegArray;
    for (let l = 0; l < 32; l++) if ((m >>> l) & 1) dst[l] = vals[src[l] as number] as never;
  };
}

type Vote = Extract<Instr, { op: 'vote' }>;
export function genVote(i: Vote, env: ExecEnv): Exec {
  return (w: Warp) => {
    const mask = maskOf(i.mask, w);
    checkMask(w, mask, `__${i.mode}_sync`, i, env);
    const m = w.mask;
    let ballot = 0;
    if ('imm' in i.pred) ballot = Number(i.pred.imm) ? m : 0;
    else {
      const p = w.regs[i.pred.reg] as Int32Array;
      for (let l = 0; l < 32; l++) if ((m >>> l) & 1 && p[l]) ballot |= 1 << l;
    }
    const dst = w.regs[i.dst] as Int32Array;
    let v: number;
    switch (i.mode) {
      case 'ballot': v = ballot; break;
      case 'any': v = ballot !== 0 ? 1 : 0; break;
      case 'all': v = ballot === m ? 1 : 0; break;
      default: v = ballot === 0 || ballot === m ? 1 : 0;
    }
    dst.fill(v);
  };
}

type Match = Extract<Instr, { op: 'match' }>;
export function genMatch(i: Match, env: ExecEnv): Exec {
  return (w: Warp) => {
    const mask = maskOf(i.mask, w);
    checkMask(w, mask, '__match_any_sync', i, env);
    const m = w.mask;
    const v = 'reg' in i.value ? (w.regs[i.value.reg] as RegArray) : null;
    const dst = w.regs[i.dst] as Int32Array;
    for (let l = 0; l < 32; l++) {
      if (((m >>> l) & 1) === 0) continue;
      let same = 0;
      for (let j = 0; j < 32; j++) if ((m >>> j) & 1 && (!v || v[j] === v[l])) same |= 1 << j;
      dst[l] = same;
    }
  };
}

type SyncWarp = Extract<Instr, { op: 'syncwarp' }>;
export function genSyncwarp(i: SyncWarp, env: ExecEnv): Exec {
  return (w: Warp) => checkMask(w, maskOf(i.mask, w), '__syncwarp', i, env);
}

export function genActivemask(i: Extract<Instr, { op: 'activemask' }>): Exec {
  return (w: Warp) => (w.regs[i.dst] as Int32Array).fill(w.active);
}

export { popc };
