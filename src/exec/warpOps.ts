/**
 * Warp-level primitives with Volta+ semantics: every *_sync names its participants in a mask; a lane
 * named in the mask that is not executing the instruction (diverged or exited) is an error to report,
 * not a value to make up (CUDA Programming Guide, warp shuffle functions; ARCHITECTURE.md §5).
 */
import { KernelFault } from '../errors.js';
import type { Instr, Operand } from '../ir/types.js';
import type { ExecEnv } from './env.js';
import { threadDesc } from './memOps.js';
import type { RegArray, RegLayout } from './regFile.js';
import { type Exec, genShflMove } from './codegen.js';
import type { Warp } from './warp.js';

const lanesOf = (m: number): string => {
  const out: number[] = [];
  for (let l = 0; l < 32; l++) if ((m >>> l) & 1) out.push(l);
  if (out.length > 8) return `${out.slice(0, 8).join(',')},… (${out.length} lanes)`;
  return out.join(',');
};
const hex32 = (m: number) => `0x${(m >>> 0).toString(16).padStart(8, '0')}`;

/**
 * The mask each executing lane passes. Lanes may pass different masks (a cooperative-groups tile of 16
 * names its own half of the warp): each group is checked on its own. Returns whether all are the same.
 */
function masksOf(o: Operand, w: Warp, out: Int32Array): boolean {
  if ('imm' in o) {
    out.fill(Number(o.imm) | 0);
    return true;
  }
  const r = w.reg(o.reg) as Int32Array;
  const m = w.mask;
  let first: number | null = null;
  let same = true;
  for (let l = 0; l < 32; l++) {
    if (((m >>> l) & 1) === 0) continue;
    const v = r[l] as number;
    out[l] = v;
    if (first === null) first = v;
    else if (v !== first) same = false;
  }
  return same;
}

function badMask(w: Warp, mask: number, what: string, i: Instr, env: ExecEnv, why: string): never {
  throw new KernelFault(
    'bad-mask',
    `${i.loc.file}:${i.loc.line}: ${what} with mask ${hex32(mask)} in warp ${w.warpInBlock} of block (${w.ctaX},${w.ctaY},${w.ctaZ}), kernel '${env.kernel.name}': ${why}`,
  );
}

/** Volta+ rules for one mask: the lanes it names execute this instruction, and the caller is named */
export function checkMask(w: Warp, mask: number, what: string, i: Instr, env: ExecEnv, callers = w.mask): void {
  const missing = mask & ~w.mask;
  if (missing !== 0) {
    const exited = missing & w.exited;
    const absent = missing & ~w.valid;
    const why = absent
      ? `lanes ${lanesOf(absent)} do not exist in this warp (partial last warp)`
      : exited
        ? `lanes ${lanesOf(exited)} have exited`
        : `lanes ${lanesOf(missing)} are not executing this instruction (they diverged)`;
    badMask(w, mask, what, i, env, `${why}; a *_sync mask may name only lanes that execute it (expecting convergence is fine, assuming it is a bug)`);
  }
  const notNamed = callers & ~mask;
  if (notNamed !== 0)
    badMask(w, mask, what, i, env, `executed by lanes ${lanesOf(notNamed)} that the mask does not name (${threadDesc(w, 31 - Math.clz32(notNamed & -notNamed), env)}); each calling thread must be in the mask`);
}

/**
 * Checks every lane's mask; lanes that name each other must pass the same mask. Fills `group` with
 * the mask of each executing lane (what ballot/any/all/match combine over).
 */
function checkMasks(o: Operand, w: Warp, what: string, i: Instr, env: ExecEnv, group: Int32Array): void {
  if (masksOf(o, w, group)) {
    checkMask(w, group[31 - Math.clz32(w.mask & -w.mask)] as number, what, i, env);
    return;
  }
  const m = w.mask;
  for (let l = 0; l < 32; l++) {
    if (((m >>> l) & 1) === 0) continue;
    const mask = group[l] as number;
    checkMask(w, mask, what, i, env, 1 << l);
    for (let j = 0; j < 32; j++)
      if ((mask >>> j) & 1 && group[j] !== mask)
        badMask(w, mask, what, i, env, `lane ${l} names lane ${j}, which passes mask ${hex32(group[j] as number)}: the threads named in a mask must all pass that same mask`);
  }
}

type Shfl = Extract<Instr, { op: 'shfl' }>;

/**
 * PTX shfl.sync: the lane that lane `l` reads, for source-lane operand `b` (its bits 4:0); a source
 * outside the lane's segment of `width` lanes gives its own value (for bfly only the upper bound is
 * checked, as PTX specifies)
 */
function shflSource(mode: Shfl['mode'], l: number, b: number, width: number): number {
  const segBase = l & ~(width - 1);
  const segEnd = segBase + width - 1;
  switch (mode) {
    case 'idx':
      return segBase | (b & (width - 1));
    case 'up':
      return l - b >= segBase ? l - b : l;
    case 'down':
      return l + b <= segEnd ? l + b : l;
    default:
      return (l ^ b) <= segEnd ? l ^ b : l;
  }
}

export function genShfl(i: Shfl, env: ExecEnv, layout: RegLayout): Exec {
  const src = new Float64Array(32);
  const vals: (number | bigint)[] = new Array<number | bigint>(32).fill(0);
  const group = new Int32Array(32);
  const what = `__shfl_${i.mode === 'idx' ? '' : `${i.mode}_`}sync`;
  const width = i.width;
  // one mask for every lane (the usual 0xffffffff): checked as one, no per-lane groups to fill
  const immMask = 'imm' in i.mask ? Number(i.mask.imm) | 0 : null;
  const check = (w: Warp): void => {
    if (immMask !== null) checkMask(w, immMask, what, i, env);
    else checkMasks(i.mask, w, what, i, env, group);
  };
  // an immediate source lane (a reduction's offsets) from a register of numbers: every lane's source is known now
  if ('imm' in i.lane && 'reg' in i.value && layout.storages[i.value.reg] !== 'i64' && layout.storages[i.dst] !== 'i64') {
    const b = Number(i.lane.imm) & 31;
    const move = genShflMove(i.value.reg, i.dst, Int8Array.from({ length: 32 }, (_, l) => shflSource(i.mode, l, b, width)), layout);
    return (w: Warp) => {
      if (w.mask === 0) return; // predicated off
      check(w);
      move(w);
    };
  }
  return (w: Warp) => {
    if (w.mask === 0) return; // predicated off
    check(w);
    const value = 'reg' in i.value ? w.reg(i.value.reg) : null;
    const laneR = 'reg' in i.lane ? (w.reg(i.lane.reg) as Int32Array) : null;
    const laneImm = 'imm' in i.lane ? Number(i.lane.imm) : 0;
    const m = w.mask;
    for (let l = 0; l < 32; l++) {
      vals[l] = value ? (value[l] as number | bigint) : 'imm' in i.value ? i.value.imm : 0;
      if (((m >>> l) & 1) === 0) continue;
      src[l] = shflSource(i.mode, l, (laneR ? (laneR[l] as number) : laneImm) & 31, width);
    }
    const dst = w.reg(i.dst);
    for (let l = 0; l < 32; l++) if ((m >>> l) & 1) dst[l] = vals[src[l] as number] as never;
  };
}

type Vote = Extract<Instr, { op: 'vote' }>;
export function genVote(i: Vote, env: ExecEnv): Exec {
  const group = new Int32Array(32);
  return (w: Warp) => {
    if (w.mask === 0) return; // predicated off
    checkMasks(i.mask, w, `__${i.mode}_sync`, i, env, group);
    const m = w.mask;
    let ballot = 0;
    if ('imm' in i.pred) ballot = Number(i.pred.imm) ? m : 0;
    else {
      const p = w.reg(i.pred.reg) as Int32Array;
      for (let l = 0; l < 32; l++) if ((m >>> l) & 1 && p[l]) ballot |= 1 << l;
    }
    const dst = w.reg(i.dst) as Int32Array;
    // each lane combines over the lanes its mask names
    for (let l = 0; l < 32; l++) {
      if (((m >>> l) & 1) === 0) continue;
      const g = (group[l] as number) & m;
      const b = ballot & g;
      switch (i.mode) {
        case 'ballot': dst[l] = b; break;
        case 'any': dst[l] = b !== 0 ? 1 : 0; break;
        case 'all': dst[l] = b === g ? 1 : 0; break;
        default: dst[l] = b === 0 || b === g ? 1 : 0;
      }
    }
  };
}

type Redux = Extract<Instr, { op: 'redux' }>;
/** __reduce_*_sync: each lane gets the reduction over the lanes its mask names */
export function genRedux(i: Redux, env: ExecEnv): Exec {
  const group = new Int32Array(32);
  const signed = i.type.tag === 'scalar' && i.type.kind === 'i32';
  const combine = (a: number, b: number): number => {
    switch (i.fn) {
      case 'add': return (a + b) | 0;
      case 'min': return signed ? Math.min(a, b) : (a >>> 0) < (b >>> 0) ? a : b;
      case 'max': return signed ? Math.max(a, b) : (a >>> 0) > (b >>> 0) ? a : b;
      case 'and': return a & b;
      case 'or': return a | b;
      default: return a ^ b;
    }
  };
  return (w: Warp) => {
    if (w.mask === 0) return; // predicated off
    checkMasks(i.mask, w, `__reduce_${i.fn}_sync`, i, env, group);
    const m = w.mask;
    const v = 'reg' in i.value ? (w.reg(i.value.reg) as Int32Array) : null;
    const imm = 'imm' in i.value ? Number(i.value.imm) | 0 : 0;
    const dst = w.reg(i.dst) as Int32Array;
    const out = new Int32Array(32);
    for (let l = 0; l < 32; l++) {
      if (((m >>> l) & 1) === 0) continue;
      const g = (group[l] as number) & m;
      let acc: number | null = null;
      for (let s = 0; s < 32; s++) if ((g >>> s) & 1) acc = acc === null ? (v ? (v[s] as number) : imm) : combine(acc, v ? (v[s] as number) : imm);
      out[l] = acc ?? 0;
    }
    // every lane reads the sources before any writes (dst may be the source's register)
    for (let l = 0; l < 32; l++) if ((m >>> l) & 1) dst[l] = out[l] as number;
  };
}

type Match = Extract<Instr, { op: 'match' }>;
export function genMatch(i: Match, env: ExecEnv): Exec {
  const group = new Int32Array(32);
  return (w: Warp) => {
    if (w.mask === 0) return; // predicated off
    checkMasks(i.mask, w, '__match_any_sync', i, env, group);
    const m = w.mask;
    const v = 'reg' in i.value ? (w.reg(i.value.reg) as RegArray) : null;
    const dst = w.reg(i.dst) as Int32Array;
    for (let l = 0; l < 32; l++) {
      if (((m >>> l) & 1) === 0) continue;
      const g = (group[l] as number) & m;
      let same = 0;
      for (let j = 0; j < 32; j++) if ((g >>> j) & 1 && (!v || v[j] === v[l])) same |= 1 << j;
      dst[l] = same;
    }
  };
}

type SyncWarp = Extract<Instr, { op: 'syncwarp' }>;
export function genSyncwarp(i: SyncWarp, env: ExecEnv): Exec {
  const group = new Int32Array(32);
  return (w: Warp) => {
    if (w.mask !== 0) checkMasks(i.mask, w, '__syncwarp', i, env, group);
  };
}

export function genActivemask(i: Extract<Instr, { op: 'activemask' }>): Exec {
  // the threads executing this instruction (inside a k.when region: the predicated-on ones)
  return (w: Warp) => (w.reg(i.dst) as Int32Array).fill(w.mask);
}

