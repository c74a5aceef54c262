/**
 * IR → executable program: the structured IR is laid out linearly (as SASS would be) with branch
 * instructions that drive each warp's reconvergence stack, and every instruction becomes one closure
 * (arithmetic ones generated JavaScript, see codegen.ts). Compiled once per launch.
 */
import type { Instr, KernelIR, MemScope, Operand, SpecialReg } from '../ir/types.js';
import { fenceSlots, genGlobalTimer, genInvalidateL1, genNanosleep, type MemModelRole, semSlots, strongOpcode, syncScope, withTimedVisibility } from './memoryModel.js';
import { elemBytes, isFloat, storageOf } from '../ir/typesys.js';
import { type Exec, genArith, genArithRun } from './codegen.js';
import { registerPlaces } from './regAlloc.js';
import { defsAndReaders, readsOf } from '../ir/regUse.js';
import { wideChoices, wideExtras } from './wideInt.js';
import { iselChoices } from './isel.js';
import { type ReturningAggregation, SCAN, SCAN_RESULT, SCAN_TEST, type ScanStep } from './atomicAggregation.js';
import { optimize } from './passes.js';
import type { ExecEnv } from './env.js';
import { genAtomic, genCpAsync, genGlobalAccess, genL2Line, genSharedAccess, readScalar } from './memOps.js';
import { launchConstant, launchConstants } from './launchConstants.js';
import { RegLayout } from './regFile.js';
import { popc, type Warp } from './warp.js';
import { genActivemask, genMatch, genRedux, genShfl, genSyncwarp, genVote } from './warpOps.js';
import { genLocalAccess } from './localOps.js';
import { genGenericAccess } from './genericOps.js';
import { genMbarrier } from './mbarrierOps.js';
import { genRemote, genShmem, isShmem, remoteOpcode, type ShmemInstr, shmemSteps } from './shmemOps.js';

/** what an instruction is, for counters and the timing model */
export type InstrClass =
  | 'alu' | 'fma' | 'fp64' | 'sfu' | 'conv' | 'move'
  | 'ldg' | 'stg' | 'lds' | 'sts' | 'atom' | 'atoms' | 'l2hint'
  /** LDL / STL: a thread's local memory (k.local arrays, localOps.ts) */
  | 'ldl' | 'stl'
  /** LD / ST through a generic pointer: global or shared per thread (genericOps.ts) */
  | 'ldgen' | 'stgen'
  /** LDGSTS (cp.async): a global load whose data goes to shared memory */
  | 'ldgsts'
  | 'branch' | 'exit' | 'bar' | 'warp' | 'membar'
  /** ERRBAR, CGAERRBAR, CCTL.IVALL, NANOSLEEP: the memory model's other instructions (memoryModel.ts) */
  | 'misc'
  /** bookkeeping with no SASS counterpart (stack pops): not counted */
  | 'pseudo';

type AtomInstr = Extract<Instr, { op: 'atom' }>;

export interface InstrMeta {
  opcode: string;
  cls: InstrClass;
  line: number;
  file: string;
  /** counted in inst_executed */
  counted: boolean;
  /** bytes per thread for memory instructions */
  bytes: number;
  /** the IR instruction this slot was lowered from (branches: their if/loop), for the timing model's register dependences */
  instr?: Instr;
  /** a fence's, L1 invalidation's or sleep's part in the memory model (timing model) */
  mm?: MemModelRole;
  /** a strong (atomic or volatile) global access: the scope it synchronises at */
  sync?: MemScope;
  /**
   * an uncounted slot whose result is these registers' work (a repeated expression: the first's
   * result; a multiply fused into its add: its operands), what readers of its result wait for
   */
  standsFor?: readonly number[];
  /**
   * a slot of a returning atomic's warp aggregation (atomicAggregation.ts): the path a warp takes
   * ends in one of its slots that writes the result, each of which a dropped copy of the result
   * (deps.ts foldDroppedSlots) is made by
   */
  partOf?: Instr;
  /** an instruction without an IR one of its own that takes the shared-memory pipe (SHFL, S2R SR_LANEID) */
  sharedPipe?: boolean;
}

export interface Program {
  kernel: KernelIR;
  fns: Exec[];
  meta: InstrMeta[];
  /**
   * per slot: how many slots the straight run of arithmetic starting there covers (0: none), and one
   * function for the whole run (genArithRun); the scheduler takes it when the run fits in the turn
   */
  runLength: Uint8Array;
  runFns: (Exec | null)[];
  /**
   * per slot: 1 at a reconvergence point (an if's join, a loop's exit): lanes pending there wait for
   * the others (BSYNC), so independent thread scheduling has nothing to run for them (Warp.switchPath)
   */
  joins: Uint8Array;
  /** where the registers live: registers whose value is the same in every lane of every warp of the launch are shared by all warps */
  layout: RegLayout;
}

interface Slot {
  fn: Exec | null;
  meta: InstrMeta;
  /** the instruction, when the slot is pure arithmetic (isArith) */
  arith?: Instr;
}

/** the most arithmetic slots of a run compiled into one function, and the most slots of a run */
const MAX_RUN = 16;
const MAX_RUN_SLOTS = 64;

/**
 * what a slot that only counts executes (a parameter's LDC, a BSSY, a pseudo-instruction): a run of
 * arithmetic takes such slots in (a kernel's prologue is a score of them), so that each is not a
 * turn of the scheduler's loop of its own. Not those of the memory classes: the scheduler's flags
 * (a global load ends a turn at its first use) are per slot, and a run's are only checked, not set.
 */
const NOOP: Exec = () => {};
const FUSABLE_NOOP = new Set<InstrClass>(['alu', 'fma', 'fp64', 'sfu', 'conv', 'move', 'warp', 'pseudo']);

const SFU = new Set(['sqrt', 'rsqrt', 'rcp', 'exp2', 'log2', 'sin', 'cos']);

function memSuffix(bytes: number, signedNarrow: boolean): string {
  switch (bytes) {
    case 1: return signedNarrow ? '.S8' : '.U8';
    case 2: return signedNarrow ? '.S16' : '.U16';
    case 8: return '.64';
    case 16: return '.128';
    default: return '';
  }
}

function classify(i: Instr): { opcode: string; cls: InstrClass; bytes: number } {
  switch (i.op) {
    case 'const':
    case 'assign':
      return { opcode: 'MOV', cls: 'move', bytes: 0 };
    // nvcc loads 64-bit parameters (pointers, size_t) into uniform registers (ULDC.64) and 32-bit ones
    // with LDC; blockDim with LDC c[0x0][0x0], gridDim with ULDC (the ground truth's SASS). LDC is an
    // ADU instruction, ULDC is not (sm__inst_executed_pipe_adu: test/fidelity/sol_breakdown.test.ts)
    case 'param':
      return { opcode: ['i32', 'f32'].includes(storageOf(i.type)) ? 'LDC' : 'ULDC.64', cls: 'move', bytes: 0 };
    case 'special':
      return { opcode: i.sreg.startsWith('ntid') ? 'LDC' : i.sreg.startsWith('nctaid') ? 'ULDC' : 'S2R', cls: 'move', bytes: 0 };
    case 'unary': {
      if (i.fn === 'mov') return { opcode: 'MOV', cls: 'move', bytes: 0 };
      if (SFU.has(i.fn)) return { opcode: `MUFU.${i.fn.toUpperCase()}`, cls: 'sfu', bytes: 0 };
      const f = isFloat(i.type);
      return { opcode: f ? 'FADD' : i.fn === 'popc' ? 'POPC' : i.fn === 'clz' ? 'FLO' : 'IADD3', cls: f && i.type.tag === 'scalar' && i.type.kind === 'f64' ? 'fp64' : 'alu', bytes: 0 };
    }
    case 'binary': {
      const f = isFloat(i.type);
      const d = i.type.tag === 'scalar' && i.type.kind === 'f64';
      const name: Record<string, string> = f
        ? { add: 'FADD', sub: 'FADD', mul: 'FMUL', div: 'FDIV', rem: 'FREM', min: 'FMNMX', max: 'FMNMX' }
        : { add: 'IADD3', sub: 'IADD3', mul: 'IMAD', div: 'IDIV', rem: 'IREM', and: 'LOP3', or: 'LOP3', xor: 'LOP3', shl: 'SHF', shr: 'SHF', min: 'IMNMX', max: 'IMNMX', mulhi: 'IMAD.HI' };
      const op = name[i.fn] ?? i.fn.toUpperCase();
      return { opcode: d ? op.replace(/^F/, 'D') : op, cls: d ? 'fp64' : f && (i.fn === 'mul' || i.fn === 'add' || i.fn === 'sub') ? 'fma' : 'alu', bytes: 0 };
    }
    case 'fma':
      return isFloat(i.type) ? { opcode: i.type.tag === 'scalar' && i.type.kind === 'f64' ? 'DFMA' : 'FFMA', cls: i.type.tag === 'scalar' && i.type.kind === 'f64' ? 'fp64' : 'fma', bytes: 0 } : { opcode: 'IMAD', cls: 'alu', bytes: 0 };
    case 'cmp':
      return { opcode: isFloat(i.a.type) ? 'FSETP' : 'ISETP', cls: 'alu', bytes: 0 };
    case 'select':
      return { opcode: 'SEL', cls: 'alu', bytes: 0 };
    case 'cvt': {
      // SASS names a conversion by its source and destination kinds (I2F, F2I, F2F, I2I)
      const from = isFloat(i.a.type) ? 'F' : 'I';
      return { opcode: `${from}2${isFloat(i.type) ? 'F' : 'I'}`, cls: 'conv', bytes: 0 };
    }
    case 'bitcast':
      return { opcode: 'MOV', cls: 'move', bytes: 0 };
    case 'lea':
      return { opcode: 'LEA', cls: 'alu', bytes: 0 };
    case 'ld': {
      const b = elemBytes(i.elem);
      const signedNarrow = i.elem.tag === 'scalar' && (i.elem.kind === 'i8' || i.elem.kind === 'i16');
      if (i.space === 'shared') return { opcode: `LDS${memSuffix(b, signedNarrow)}`, cls: 'lds', bytes: b };
      if (i.space === 'local') return { opcode: `LDL${memSuffix(b, signedNarrow)}`, cls: 'ldl', bytes: b };
      if (i.space === 'generic') return { opcode: `LD.E${memSuffix(b, signedNarrow)}`, cls: 'ldgen', bytes: b };
      const so = strongOpcode(i, memSuffix(b, signedNarrow));
      if (so) return { opcode: so, cls: 'ldg', bytes: b };
      const strong = i.cache === 'cv' ? '.STRONG.GPU' : '';
      // __ldg and loads through `const __restrict__` pointers: LDG.E.CONSTANT (isel_probe's ldg_u32,
      // ldg_restrict; the same count as a plain LDG.E)
      const constant = i.cache === 'nc' ? '.CONSTANT' : '';
      return { opcode: `LDG.E${memSuffix(b, signedNarrow)}${strong}${constant}`, cls: 'ldg', bytes: b };
    }
    case 'st': {
      const b = elemBytes(i.elem);
      if (i.space === 'shared') return { opcode: `STS${memSuffix(b, false)}`, cls: 'sts', bytes: b };
      if (i.space === 'local') return { opcode: `STL${memSuffix(b, false)}`, cls: 'stl', bytes: b };
      if (i.space === 'generic') return { opcode: `ST.E${memSuffix(b, false)}`, cls: 'stgen', bytes: b };
      return { opcode: strongOpcode(i, memSuffix(b, false)) ?? `STG.E${memSuffix(b, false)}`, cls: 'stg', bytes: b };
    }
    case 'cpasync': {
      const b = elemBytes(i.elem);
      return { opcode: `LDGSTS.E${i.cache === 'cg' ? '.BYPASS' : ''}${memSuffix(b, false)}`, cls: 'ldgsts', bytes: b };
    }
    case 'cpwait':
    case 'cpwaitprior':
      return { opcode: 'DEPBAR.LE', cls: 'warp', bytes: 0 };
    case 'cpcommit':
      return { opcode: 'LDGDEPBAR', cls: 'warp', bytes: 0 };
    // cuda::barrier's mbarrier operations as sm_90 SASS names them (pipe_probe_sass.txt, kernel mb)
    case 'mbarinit':
      return { opcode: 'SYNCS.EXCH.64', cls: 'warp', bytes: 0 };
    case 'mbararrive':
      return { opcode: 'SYNCS.ARRIVE.TRANS64.A1T0', cls: 'warp', bytes: 0 };
    case 'mbartest':
      return { opcode: 'SYNCS.PHASECHK.TRANS64.TRYWAIT', cls: 'warp', bytes: 0 };
    case 'atom': {
      const b = elemBytes(i.type);
      const base = i.space === 'shared' ? 'ATOMS' : i.dst === null ? 'RED' : 'ATOMG';
      return { opcode: strongOpcode(i, '') ?? `${base}.${i.fn.toUpperCase()}`, cls: i.space === 'shared' ? 'atoms' : 'atom', bytes: b };
    }
    case 'bar':
      return { opcode: i.mode === 'sync' ? 'BAR.SYNC' : 'BAR.ARV', cls: 'bar', bytes: 0 };
    case 'syncwarp':
      return { opcode: 'WARPSYNC', cls: 'warp', bytes: 0 };
    case 'shfl':
      return { opcode: `SHFL.${i.mode.toUpperCase()}`, cls: 'warp', bytes: 0 };
    case 'vote':
      return { opcode: i.mode === 'ballot' ? 'VOTE.ANY' : `VOTE.${i.mode.toUpperCase()}`, cls: 'warp', bytes: 0 };
    case 'match':
      return { opcode: 'MATCH.ANY', cls: 'warp', bytes: 0 };
    // REDUX.SUM UR6, R2 (redux_add), REDUX.MIN.S32 (redux_min of an int), REDUX.MAX (unsigned), REDUX
    // (and: the default operation has no suffix), REDUX.OR, REDUX.XOR
    case 'redux': {
      const name = i.fn === 'add' ? '.SUM' : i.fn === 'and' ? '' : `.${i.fn.toUpperCase()}`;
      const s32 = (i.fn === 'min' || i.fn === 'max') && i.type.tag === 'scalar' && i.type.kind === 'i32' ? '.S32' : '';
      return { opcode: `REDUX${name}${s32}`, cls: 'warp', bytes: 0 };
    }
    case 'activemask':
      return { opcode: 'VOTE.ANY', cls: 'warp', bytes: 0 };
    case 'l2prefetch':
      return { opcode: 'CCTL.E.PF2', cls: 'l2hint', bytes: 0 };
    case 'l2discard':
      return { opcode: 'CCTL.E.RML2', cls: 'l2hint', bytes: 0 };
    case 'membar':
      return { opcode: `MEMBAR.${i.order === 'acq_rel' ? 'ALL' : 'SC'}.${i.scope.toUpperCase()}`, cls: 'membar', bytes: 0 };
    case 'nanosleep':
      return { opcode: 'NANOSLEEP', cls: 'misc', bytes: 0 };
    case 'globaltimer':
      return { opcode: 'CS2R', cls: 'move', bytes: 0 };
    case 'return':
      return { opcode: 'EXIT', cls: 'exit', bytes: 0 };
    default:
      return { opcode: 'BRA', cls: 'branch', bytes: 0 };
  }
}

function uniformImm(o: Operand | null, w: Warp): number {
  if (!o) return 0;
  if ('imm' in o) return Number(o.imm);
  const r = w.reg(o.reg) as Int32Array;
  const m = w.mask;
  for (let l = 0; l < 32; l++) if ((m >>> l) & 1) return (r[l] as number) >>> 0;
  return 0;
}

/** a predicate operand as a lane mask (predicates are int32 registers); `uniform`: uniformRegisters says its value is the same in every lane */
function predMask(o: Operand, layout: RegLayout, uniform: boolean): (w: Warp) => number {
  if ('imm' in o) {
    const m = Number(o.imm) ? -1 : 0;
    return () => m;
  }
  const r = o.reg;
  const shared = layout.shared[r];
  if (shared !== undefined || layout.storages[r] !== 'i32') {
    return (w) => {
      const p = (shared ?? w.reg(r)) as Int32Array;
      let m = 0;
      for (let l = 0; l < 32; l++) if (p[l]) m |= 1 << l;
      return m;
    };
  }
  const at = layout.offset[r] as number;
  // a uniform condition (a loop's trip count, a parameter's test) holds one value in every active lane:
  // its first active lane's says it for all (the callers take the mask with the active lanes)
  if (uniform)
    return (w) => {
      const a = w.active;
      return a !== 0 && w.i32[w.rb4 + at + 31 - Math.clz32(a & -a)] ? -1 : 0;
    };
  return (w) => {
    const p = w.i32;
    const o = w.rb4 + at;
    let m = 0;
    for (let l = 0; l < 32; l++) if (p[o + l]) m |= 1 << l;
    return m;
  };
}

/**
 * Which registers hold the same value in every thread, as far as nvcc can prove it: parameters,
 * blockIdx/blockDim/gridDim and arithmetic on them. threadIdx, lane and warp ids (nvcc computes the
 * warp id from threadIdx), loads and warp-primitive results are not; a k.let() variable is uniform
 * when every assignment is, and none happens under a thread-dependent condition. nvcc brackets
 * regions whose threads may not reconverge on their own with BSSY/BSYNC; we do the same with this.
 */
export function uniformRegisters(kernel: KernelIR): Set<number> {
  const UNIFORM_SREGS = new Set<SpecialReg>(['ctaid.x', 'ctaid.y', 'ctaid.z', 'ntid.x', 'ntid.y', 'ntid.z', 'nctaid.x', 'nctaid.y', 'nctaid.z', 'dynsmem', 'smid']);
  const varying = new Set<number>();
  const uni = (o: Operand | null | undefined): boolean => !o || 'imm' in o || !varying.has(o.reg);
  let changed = true;
  const mark = (dst: number | null, isUniform: boolean): void => {
    if (dst === null || isUniform || varying.has(dst)) return;
    varying.add(dst);
    changed = true;
  };
  const walk = (list: readonly Instr[], divergent: boolean): void => {
    for (const i of list) {
      switch (i.op) {
        case 'special': mark(i.dst, UNIFORM_SREGS.has(i.sreg)); break;
        case 'param':
        case 'const': break;
        case 'unary':
        case 'cvt':
        case 'bitcast': mark(i.dst, uni(i.a)); break;
        case 'binary':
        case 'cmp': mark(i.dst, uni(i.a) && uni(i.b)); break;
        case 'fma': mark(i.dst, uni(i.a) && uni(i.b) && uni(i.c)); break;
        case 'select': mark(i.dst, uni(i.cond) && uni(i.a) && uni(i.b)); break;
        case 'lea': mark(i.dst, uni(i.base) && uni(i.index)); break;
        case 'peerptr': mark(i.dst, uni(i.addr) && uni(i.pe) && uni(i.bytes)); break;
        case 'assign': mark(i.dst, !divergent && uni(i.a)); break;
        case 'ld': for (const d of i.dsts) mark(d, false); break;
        case 'cpasync': for (const d of [...i.tmps, i.token]) mark(d, false); break;
        case 'atom':
        case 'shfl':
        case 'vote':
        case 'match':
        case 'redux':
        case 'activemask': mark(i.dst, false); break;
        case 'if':
          walk(i.then, divergent || !uni(i.cond));
          if (i.else) walk(i.else, divergent || !uni(i.cond));
          break;
        case 'loop': {
          // the exit condition is known only after the head: walk twice so a varying trip count marks the body
          const d = divergent || !uni(i.cond);
          walk(i.head, d);
          walk(i.body, d || hasBreak(i.body));
          break;
        }
        default: break;
      }
    }
  };
  while (changed) {
    changed = false;
    walk(kernel.body, false);
  }
  const all = new Set<number>();
  kernel.regs.forEach((_, r) => {
    if (!varying.has(r)) all.add(r);
  });
  return all;
}

/** the instruction writes register r (the producer of a value that is then assigned) */
function definesReg(i: Instr, r: number): boolean {
  switch (i.op) {
    case 'unary':
    case 'binary':
    case 'fma':
    case 'cmp':
    case 'select':
    case 'cvt':
    case 'bitcast':
    case 'lea':
    case 'shfl':
    case 'vote':
    case 'match':
    case 'redux':
    case 'activemask':
    case 'atom':
      return i.dst === r;
    case 'ld':
      return i.dsts.length === 1 && i.dsts[0] === r;
    default:
      return false;
  }
}

/** whether the list has a global memory access (a load, store, atomic or async copy from global memory) */
function usesGlobalMemory(list: readonly Instr[]): boolean {
  return list.some((i) =>
    i.op === 'if' ? usesGlobalMemory(i.then) || usesGlobalMemory(i.else ?? []) : i.op === 'loop' ? usesGlobalMemory(i.head) || usesGlobalMemory(i.body) : i.op === 'cpasync' || ((i.op === 'ld' || i.op === 'st' || i.op === 'atom') && (i.space === 'global' || i.space === 'generic')),
  );
}

/** a break directly in this loop body (not in a nested loop) */
function hasBreak(list: readonly Instr[]): boolean {
  for (const i of list) {
    if (i.op === 'break') return true;
    if (i.op === 'if' && (hasBreak(i.then) || (i.else !== null && hasBreak(i.else)))) return true;
  }
  return false;
}

/** whether control can reach the end of this list (false when it always ends in an exit) */
function fallsThrough(list: readonly Instr[]): boolean {
  const last = list[list.length - 1];
  if (!last) return true;
  if (last.op === 'return') return false;
  if (last.op === 'if' && !last.predicated && last.else !== null) return fallsThrough(last.then) || fallsThrough(last.else);
  // a `while (true)` whose only way out is an exit inside
  if (last.op === 'loop' && 'imm' in last.cond && Number(last.cond.imm) !== 0 && !hasBreak(last.body)) return false;
  return true;
}

/** the most SASS instructions an if's two sides may take for nvcc to predicate them rather than branch */
const MAX_PREDICATED = 10;

/**
 * Instructions nvcc predicates inside an if-converted region: arithmetic, loads and stores (if_store,
 * if_load and reduce0 in test/fidelity/probes/isel/ predicate STG, LDG, LDS and STS). Not barriers,
 * warp-wide operations, atomics, async copies or control flow.
 */
const PREDICABLE: ReadonlySet<Instr['op']> = new Set(['const', 'unary', 'binary', 'cmp', 'fma', 'select', 'cvt', 'bitcast', 'lea', 'assign', 'ld', 'st']);

export function compile(built: KernelIR, env: ExecEnv, optimized?: KernelIR): Program {
  // the middle end's passes first (src/exec/passes.ts: loop invariants hoisted, repeated loads
  // reused, runtime loops unrolled): everything below sees the instructions where and whether they
  // run. `optimized`: what optimize(built) gave the caller already (a launch sizes its counters by it)
  const kernel = optimized ?? optimize(built);
  const slots: Slot[] = [];
  const storages = kernel.regs.map((r) => storageOf(r.type));
  const constants = launchConstants(kernel, env);
  const layout = new RegLayout(storages, constants.arrays, registerPlaces(kernel, storages, (r) => constants.arrays.has(r)));
  constants.evaluate(layout);
  const c = env.counters;
  const meta = (i: Instr, counted = true, opcode?: string, cls?: InstrClass): InstrMeta => {
    const k = classify(i);
    return { opcode: opcode ?? k.opcode, cls: cls ?? k.cls, line: i.loc.line, file: i.loc.file, counted, bytes: k.bytes, instr: i };
  };
  const pseudo = (i: Instr): InstrMeta => ({ opcode: 'SYNC', cls: 'pseudo', line: i.loc.line, file: i.loc.file, counted: false, bytes: 0 });
  // BSYNC: each group of threads that reaches the reconvergence point on its own executes it once
  const bsync = (i: Instr): InstrMeta => ({ opcode: 'BSYNC', cls: 'warp', line: i.loc.line, file: i.loc.file, counted: true, bytes: 0 });
  // BSSY opens the region BSYNC closes: ncu counts it too (every BSYNC of the ground truth's SASS has
  // its BSSY, e.g. sh_ld_*'s `BSSY B0` before the fill loop), once per warp that enters
  const bssy = (i: Instr): InstrMeta => ({ opcode: 'BSSY', cls: 'warp', line: i.loc.line, file: i.loc.file, counted: true, bytes: 0 });
  const uniform = uniformRegisters(kernel);
  const wide = wideChoices(kernel.body);
  const isUniform = (o: Operand): boolean => 'imm' in o || uniform.has(o.reg);
  const isel = iselChoices(kernel, isUniform);
  /** how many SASS instructions an instruction lowers to (its extras included; folded: none) */
  const sassCount = (i: Instr): number => {
    const mine = wide.get(i)?.folded ? undefined : isel.get(i);
    const choice = mine ?? wide.get(i);
    if (choice?.folded) return 0;
    return 1 + (mine?.extras ?? wide.get(i)?.extras ?? wideExtras(i)).length;
  };
  /**
   * nvcc's if-conversion: an if whose sides are short straight-line code is predicated, no branch
   * (if_then, if_ifelse, if_mid: 5 instructions; if_long, 11, branches). The sweep in ifconv_probe.cu
   * predicates chains of up to 14 IMADs, so the limit is a choice between the measured cases
   */
  const ifConverts = (i: Extract<Instr, { op: 'if' }>): boolean => {
    const sides = [i.then, ...(i.else ? [i.else] : [])];
    const predicable = (x: Instr): boolean => PREDICABLE.has(x.op) && !((x.op === 'ld' || x.op === 'st') && x.space === 'local');
    if (!sides.every((l) => l.every(predicable))) return false;
    let n = 0;
    for (const l of sides) for (const x of l) n += x.op === 'assign' ? 0 : sassCount(x);
    return n <= MAX_PREDICATED;
  };
  const emit = (fn: Exec | null, m: InstrMeta): number => {
    slots.push({ fn, meta: m });
    return slots.length - 1;
  };
  const joinSlots = new Set<number>();
  const patch = (at: number, fn: Exec) => {
    (slots[at] as Slot).fn = fn;
  };

  /**
   * `tail`: nothing follows the list but the kernel's end. nvcc then ends the kernel where a construct
   * would skip to its end: a loop's guard and an if's branch around its body are `@!P EXIT`, an if/else's
   * then side ends in EXIT, and no BSYNC rejoins threads that only have the EXIT left (the ground truth's
   * SASS: occ_grid_*, family 5's passes)
   */
  const lower = (list: Instr[], tail = false): void => {
    let prev: Instr | null = null;
    const uncount = (at: number): void => {
      const m = slots[at]?.meta;
      if (m) m.counted = false;
    };
    for (const [n, i] of list.entries()) {
      const at = slots.length;
      lowerOne(i, tail && n === list.length - 1);
      // what the 64-bit selection drops stays dropped (an address another's plus a constant)
      const mine = wide.get(i)?.folded ? undefined : isel.get(i);
      const choice = mine ?? wide.get(i);
      if (choice?.opcode) Object.assign((slots[at] as Slot).meta, { opcode: choice.opcode, cls: mine?.cls ?? 'alu' });
      if (choice?.folded) {
        uncount(at);
        if (mine?.standsFor) (slots[at] as Slot).meta.standsFor = mine.standsFor;
      } else if (mine?.extras) for (const x of mine.extras) emit(NOOP, { ...meta(i), opcode: x.opcode, cls: x.cls });
      else for (const opcode of (mine ? null : wide.get(i)?.extras) ?? wideExtras(i)) emit(NOOP, { ...meta(i), opcode });
      // `x.set(x.fma(…))`: ptxas writes the result straight into x's register, so the move that the
      // interpreter needs (to keep the lanes the assignment does not cover) is no SASS instruction
      if (i.op === 'assign' && 'reg' in i.a && prev !== null && definesReg(prev, i.a.reg)) uncount(at);
      prev = i;
    }
  };

  /** the memory model's extra SASS around an instruction: no registers of their own (no `instr`) */
  const invalidate = genInvalidateL1(env);
  const extras = (i: Instr, list: readonly { opcode: string; mm: MemModelRole }[]): void => {
    for (const x of list) {
      const m = meta(i, true, x.opcode, x.mm.role === 'membar' ? 'membar' : 'misc');
      delete m.instr;
      m.mm = x.mm;
      emit(x.mm.role === 'ivall' ? invalidate : () => {}, m);
    }
  };

  const lowerOne = (i: Instr, tail: boolean): void => {
    const index = slots.length;
    // arithmetic on launch constants alone: its shared register was filled once (launchConstants.ts)
    if (constants.derived.has(i)) {
      emit(NOOP, meta(i));
      return;
    }
    const arith = genArith(i, layout);
    if (arith) {
      (slots[emit(arith, meta(i))] as Slot).arith = i;
      return;
    }
    // NVSHMEM (shmemOps.ts): a remote access is one slot on the peer's memory; the others their SASS
    if ((i.op === 'ld' || i.op === 'st' || i.op === 'atom') && i.remote) {
      emit(genRemote(i, index, env, layout), meta(i, true, remoteOpcode(i)));
      return;
    }
    if (isShmem(i)) {
      lowerShmem(i);
      return;
    }
    switch (i.op) {
      case 'param': {
        // arguments are known before compilation and the same in every lane of every warp: one shared
        // register array serves all warps (constantRegisters; no per-warp copy to write, the LDC still counts)
        emit(NOOP, meta(i));
        return;
      }
      case 'special': {
        // a launch constant is a shared register (constantRegisters)
        if (launchConstant(i.sreg, env) !== null) emit(NOOP, meta(i));
        else emit(genSpecial(i.sreg, i.dst, env, layout), meta(i));
        return;
      }
      case 'ld':
      case 'st':
      case 'atom': {
        const returning = i.op === 'atom' ? isel.get(i)?.returning : undefined;
        if (i.op === 'atom' && returning) {
          lowerReturningAggregation(i, returning);
          return;
        }
        // an atomic access with an order: its fences and L1 invalidation around it (memoryModel.ts)
        const around = i.sem ? semSlots(i.op, i.sem) : { pre: [], post: [] };
        extras(i, around.pre);
        const at = slots.length;
        if (i.op === 'atom') emit(genAtomic(i, at, env, isel.get(i)?.warpAggregated === true), meta(i));
        else if (i.space === 'shared') emit(genSharedAccess(i, at, env, layout), meta(i));
        else if (i.space === 'local') emit(genLocalAccess(i, at, env, kernel.localBytes ?? 0), meta(i));
        else if (i.space === 'generic') emit(genGenericAccess(i, at, env, layout), meta(i));
        else {
          const run = genGlobalAccess(i, at, env, layout);
          const scope = syncScope(i);
          emit(scope ? withTimedVisibility(i, run, env, (addr) => readScalar(env, addr, i.elem)) : run, meta(i));
        }
        const scope = syncScope(i);
        if (scope) (slots[at] as Slot).meta.sync = scope;
        extras(i, around.post);
        return;
      }
      case 'nanosleep': {
        const m = meta(i);
        m.mm = { role: 'sleep' };
        emit(genNanosleep(i, env), m);
        return;
      }
      case 'globaltimer':
        emit(genGlobalTimer(i, env), meta(i));
        return;
      case 'cpasync':
        emit(genCpAsync(i, index, env, layout), meta(i));
        return;
      case 'cpwait': {
        // LDGDEPBAR closes the group of copies, DEPBAR waits for it (only the latter reads the token)
        const commit = meta(i, true, 'LDGDEPBAR');
        delete commit.instr;
        emit(NOOP, commit);
        emit(NOOP, meta(i));
        return;
      }
      // the groups of copies and the waits for them matter only to the timing model (asyncGroups there)
      case 'cpcommit':
      case 'cpwaitprior':
        emit(NOOP, meta(i));
        return;
      case 'mbarinit':
      case 'mbararrive':
      case 'mbartest':
        emit(genMbarrier(i, env), meta(i));
        return;
      case 'l2prefetch':
      case 'l2discard':
        emit(genL2Line(i, env), meta(i));
        return;
      case 'membar':
        extras(i, fenceSlots(i.scope, i.order ?? 'sc'));
        return;
      case 'shfl':
        emit(genShfl(i, env, layout), meta(i));
        return;
      case 'vote':
        emit(genVote(i, env), meta(i));
        return;
      case 'match':
        emit(genMatch(i, env), meta(i));
        return;
      case 'redux':
        // the result lands in a uniform register: a MOV brings it to the thread's (`REDUX.SUM UR6, R2;
        // MOV R7, UR6`)
        emit(genRedux(i, env), meta(i));
        emit(NOOP, meta(i, true, 'MOV', 'move'));
        return;
      case 'syncwarp':
        emit(genSyncwarp(i, env), meta(i));
        return;
      case 'activemask':
        emit(genActivemask(i), meta(i));
        return;
      case 'bar': {
        const id = i.id;
        const count = i.count;
        const arrive = i.mode === 'arrive';
        const at = index;
        emit((w: Warp) => env.barrier(w, uniformImm(id, w), uniformImm(count, w), arrive, at), meta(i));
        return;
      }
      case 'return':
        emit((w: Warp) => w.exitLanes(w.mask), meta(i));
        return;
      case 'break':
        // nvcc emits a BRA to the loop exit for a break
        emit((w: Warp) => w.breakLanes(w.mask), meta(i));
        return;
      case 'if':
        lowerIf(i, tail);
        return;
      case 'loop':
        lowerLoop(i, tail);
        return;
      default:
        throw new Error(`cannot compile ${i.op}`);
    }
  };

  /** an NVSHMEM instruction: the SASS its inline code compiles to (shmemOps.ts), one slot doing the work */
  const lowerShmem = (i: ShmemInstr): void => {
    for (const s of shmemSteps(i)) {
      const counted = s.cls !== 'pseudo';
      const m = meta(i, counted, s.opcode, s.cls);
      if (s.work) {
        emit(genShmem(i, env), m);
        continue;
      }
      // the other instructions only count (their registers are the emulator's own: no dependences)
      delete m.instr;
      const at = emit(NOOP, m);
      if (s.predOff) patch(at, (w: Warp) => {
        c.threadsPredOn[at] = (c.threadsPredOn[at] as number) - (w.mask === w.active ? w.activeCount : popc(w.mask));
      });
    }
  };

  /**
   * a returning atomicAdd nvcc aggregates across the warp (atomicAggregation.ts). The atomic's memory
   * work is one slot whatever the shape: every lane's effect in lane order, which hands each lane
   * what the SASS computes (the old value plus the values of the lanes below it); the other
   * instructions only count (their registers are ptxas' own: no dependences of their own)
   */
  const lowerReturningAggregation = (i: AtomInstr, agg: ReturningAggregation): void => {
    /** `result`: the thread's value is made here: it reads the atomic's and writes it */
    const counting = (x: ScanStep, result = false): void => {
      const m = meta(i, true, x.opcode, x.cls);
      if (result && i.dst !== null) m.instr = { op: 'unary', fn: 'mov', dst: i.dst, type: i.type, a: { reg: i.dst, type: i.type }, loc: i.loc };
      else delete m.instr;
      m.partOf = i;
      if (x.sharedPipe) m.sharedPipe = true;
      const at = emit(NOOP, m);
      const off = 32 - (x.lanes ?? 32);
      // a predicated add of the scan: only on the full-warp path, whose 32 lanes are all active
      if (off > 0) patch(at, () => {
        c.threadsPredOn[at] = (c.threadsPredOn[at] as number) - off;
      });
    };
    /** the ATOM of the leader (or lane 31): one lane predicated on */
    const leaderAtom = (): void => {
      const at = slots.length;
      const run = genAtomic(i, at, env, true, true);
      emit((w: Warp) => {
        const on = w.mask === w.active ? w.activeCount : popc(w.mask);
        if (on > 1) c.threadsPredOn[at] = (c.threadsPredOn[at] as number) - on + 1;
        run(w);
      }, { ...meta(i), partOf: i });
    };
    const last = <T,>(l: readonly T[], x: T): boolean => l[l.length - 1] === x;
    if (agg.shape === 'count') {
      for (const x of agg.before) counting(x);
      leaderAtom();
      for (const x of agg.after) counting(x, last(agg.after, x));
      return;
    }
    // `VOTE.ANY R, PT, PT; ISETP.EQ.U32 P, R, -1`: the whole warp is there, or not
    const full = (w: Warp): boolean => w.mask === w.active ? w.activeCount === 32 : popc(w.mask) === 32;
    for (const x of SCAN_TEST) counting(x);
    // `@!P ATOMG`: each thread's own atomic
    const eachAt = slots.length;
    const each = genAtomic(i, eachAt, env);
    emit((w: Warp) => {
      if (!full(w)) each(w);
      else c.threadsPredOn[eachAt] = (c.threadsPredOn[eachAt] as number) - 32;
    }, { ...meta(i), partOf: i });
    // `@!P BRA`: past the full-warp path (every thread or none: one target, never divergent)
    const bra = meta(i, true, 'BRA', 'branch');
    delete bra.instr;
    bra.partOf = i;
    const braAt = emit(null, bra);
    for (const x of SCAN) counting(x);
    leaderAtom();
    for (const x of SCAN_RESULT) counting(x, last(SCAN_RESULT, x));
    const joinAt = emit(NOOP, pseudo(i));
    patch(braAt, (w: Warp) => {
      if (full(w)) c.threadsPredOn[braAt] = (c.threadsPredOn[braAt] as number) - 32;
      else w.pc = joinAt;
    });
  };

  /** `@!P EXIT` (the tail rule): the active lanes for which `cond` fails leave the kernel */
  const exitUnless = (i: Instr, condMask: (w: Warp) => number): void => {
    const at = emit(null, meta(i, true, 'EXIT', 'exit'));
    patch(at, (w: Warp) => {
      const leaving = w.active & ~condMask(w);
      c.threadsPredOn[at] = (c.threadsPredOn[at] as number) - w.activeCount + popc(leaving);
      if (leaving !== 0) w.exitLanes(leaving);
    });
  };

  const lowerIf = (i: Extract<Instr, { op: 'if' }>, tail: boolean): void => {
    const cond = i.cond;
    const condMask = predMask(cond, layout, isUniform(cond));
    // `if (c) return;` is a predicated EXIT in SASS, and a `when` region is if-converted: no branch
    const predicated = i.predicated || (i.else === null && i.then.length === 1 && i.then[0]?.op === 'return');
    if (predicated) {
      emit((w: Warp) => {
        w.predStack[w.psp++] = w.mask;
        w.mask = w.mask & condMask(w);
      }, pseudo(i));
      lower(i.then, tail);
      emit((w: Warp) => {
        // lanes that exited inside the region are gone from the restored mask
        w.mask = (w.predStack[--w.psp] as number) & ~w.exited;
      }, pseudo(i));
      return;
    }
    // at the kernel's end an if without else is `@!P EXIT` (the tail rule, below) even when short
    // (reduce0's `if (tid == 0)`); elsewhere a short if is predicated, each side under its predicate
    if (!(tail && i.else === null) && ifConverts(i)) {
      // the condition is read once, before either side runs (a side may write its register)
      emit((w: Warp) => {
        const m = w.mask;
        const p = condMask(w);
        w.predStack[w.psp++] = m;
        w.predStack[w.psp++] = m & ~p;
        w.mask = m & p;
      }, pseudo(i));
      lower(i.then);
      emit((w: Warp) => {
        w.mask = w.predStack[--w.psp] as number;
      }, pseudo(i));
      if (i.else) lower(i.else);
      emit((w: Warp) => {
        w.mask = w.predStack[--w.psp] as number;
      }, pseudo(i));
      return;
    }
    if (tail && i.else === null) {
      exitUnless(i, condMask);
      lower(i.then, true);
      return;
    }
    // nvcc brackets a thread-dependent if/else that rejoins with BSSY/BSYNC; at the kernel's end the
    // then side ends in an EXIT instead of a branch over the else side, and nothing rejoins
    const reconverges = !tail && !isUniform(cond) && (fallsThrough(i.then) || (i.else !== null && fallsThrough(i.else)));
    if (reconverges) emit(NOOP, bssy(i));
    const ifAt = emit(null, meta(i, true, 'BRA', 'branch'));
    lower(i.then, tail);
    let endThenAt = -1;
    if (i.else) endThenAt = emit(null, tail ? meta(i, true, 'EXIT', 'exit') : meta(i, true, 'BRA', 'branch'));
    const elseAt = slots.length;
    if (i.else) lower(i.else, tail);
    const joinAt = emit(null, reconverges ? bsync(i) : pseudo(i));
    joinSlots.add(joinAt);
    const after = joinAt + 1;
    patch(ifAt, (w: Warp) => {
      const act = w.active;
      const p = condMask(w);
      const t = act & p;
      const f = act & ~p;
      // `@!P BRA else`: the threads that jump are the predicated-on ones
      c.threadsPredOn[ifAt] = (c.threadsPredOn[ifAt] as number) - w.activeCount + popc(f);
      w.push(after, act);
      if (t !== 0 && f !== 0) {
        c.divergent[ifAt] = (c.divergent[ifAt] as number) + 1;
        w.push(elseAt, f);
        w.setActive(t);
      } else if (t === 0) {
        w.setActive(f);
        w.pc = elseAt;
      } else w.setActive(t);
    });
    // the then side jumps to the BSYNC, where it waits for the else side
    if (endThenAt >= 0) patch(endThenAt, tail ? (w: Warp) => w.exitLanes(w.active) : reconverges ? (w: Warp) => { w.pc = joinAt; } : (w: Warp) => w.resume());
    patch(joinAt, (w: Warp) => w.resume());
  };

  const lowerLoop = (i: Extract<Instr, { op: 'loop' }>, tail: boolean): void => {
    const cond = i.cond;
    const condMask = predMask(cond, layout, isUniform(cond));
    // a loop whose threads may leave at different trips is bracketed by BSSY/BSYNC, unless only the
    // kernel's end follows it
    const reconverges = !tail && (!isUniform(cond) || hasBreak(i.body));
    if (tail && i.guard) {
      lower(i.head);
      exitUnless(i, condMask);
    }
    if (reconverges) emit(NOOP, bssy(i));
    const enterAt = emit(null, pseudo(i));
    let guardAt = -1;
    if (i.guard && !tail) {
      lower(i.head);
      guardAt = emit(null, meta(i, true, 'BRA', 'branch'));
    }
    const top = slots.length;
    lower(i.body);
    lower(i.head);
    const backAt = emit(null, meta(i, true, 'BRA', 'branch'));
    const exit = slots.length;
    joinSlots.add(exit);
    const syncAt = reconverges ? emit(NOOP, bsync(i)) : -1;
    patch(enterAt, (w: Warp) => {
      w.loopBase[w.lsp++] = w.sp;
      w.push(exit, w.active);
    });
    const test = (at: number, loopTo: number) => (w: Warp) => {
      const act = w.active;
      const t = act & condMask(w);
      // the guard jumps to the exit (`@!P BRA exit`), the back edge to the top (`@P BRA top`)
      const jumping = loopTo >= 0 ? t : act & ~t;
      c.threadsPredOn[at] = (c.threadsPredOn[at] as number) - w.activeCount + popc(jumping);
      if (t !== 0 && t !== act) {
        c.divergent[at] = (c.divergent[at] as number) + 1;
        // the threads leaving now execute the BSYNC ahead of the others (their threads are counted
        // once, when the last group runs it with the whole mask)
        if (syncAt >= 0) c.inst[syncAt] = (c.inst[syncAt] as number) + 1;
      }
      if (t === 0) {
        w.setActive(0);
        w.resume();
        return;
      }
      w.setActive(t);
      if (loopTo >= 0) w.pc = loopTo;
    };
    if (guardAt >= 0) patch(guardAt, test(guardAt, -1));
    patch(backAt, test(backAt, top));
  };

  // every sm_90 kernel starts with LDC R1, c[0x0][0x28]: the ABI's stack pointer (in all 94 kernels of
  // the ground truth's SASS; an empty kernel executes it and EXIT, test/fidelity/probes/shared_misc_probe.cu)
  emit(NOOP, { opcode: 'LDC', cls: 'move', line: 0, file: kernel.file, counted: true, bytes: 0 });
  // a kernel with shared memory reads SR_CgaCtaId, the base of its block's window in the shared space,
  // once (S2UR or S2R: in all 27 of the ground truth's kernels that use shared memory)
  // and makes the window's base address of it: `S2UR UR5, SR_CgaCtaId; UMOV UR4, 0x400; ULEA UR4, UR5,
  // UR4, 0x18` (each S2UR / S2R of SR_CgaCtaId in the 27 kernels comes with its MOV 0x400 and LEA)
  if (kernel.sharedStaticBytes > 0 || kernel.usesDynamicShared)
    for (const opcode of ['S2UR', 'UMOV', 'ULEA']) emit(NOOP, { opcode, cls: 'move', line: 0, file: kernel.file, counted: true, bytes: 0 });
  // and one with global memory loads its memory descriptor (`ULDC.64 UR4, c[0x0][0x208]`, the
  // `desc[UR4]` of every LDG/STG: in each of the ground truth's kernels that access global memory)
  if (usesGlobalMemory(kernel.body))
    emit(NOOP, { opcode: 'ULDC.64', cls: 'move', line: 0, file: kernel.file, counted: true, bytes: 0 });
  lower(kernel.body, true);
  // falling off the end of the kernel: the remaining lanes exit (an EXIT instruction)
  const endLoc = kernel.body.length ? (kernel.body[kernel.body.length - 1] as Instr).loc : { file: kernel.file, line: 0 };
  emit((w: Warp) => w.exitLanes(w.active), { opcode: 'EXIT', cls: 'exit', line: endLoc.line, file: endLoc.file, counted: true, bytes: 0 });

  // `warpsight check`: every memory instruction and fence tells the checker first (its lanes' addresses
  // are still in their registers: a load may overwrite its address register)
  const check = env.check;
  if (check)
    slots.forEach((s, at) => {
      const op = s.meta.instr?.op;
      // a fence is its MEMBAR slot (the memory model's extra SASS, with no `instr` of its own)
      if (op !== 'ld' && op !== 'st' && op !== 'atom' && op !== 'cpasync' && s.meta.mm?.role !== 'membar') return;
      const fn = s.fn as Exec;
      s.fn = (w: Warp) => {
        check.before(w, at);
        fn(w);
      };
    });

  /**
   * The registers of a run that no instruction outside it reads: defined in it (once: not a k.let()
   * variable) and read only by its later instructions. A run is entered only at its first slot (a jump
   * lands after a slot that is not fusable: a branch, a join, a loop's entry; a turn that ends in the
   * middle ran the slots one by one, storing everything), so its results are not read from the file
   * where the run left them out.
   */
  const { defs, readers } = defsAndReaders(kernel);
  const runLocals = (instrs: readonly Instr[]): ((r: number) => boolean) => {
    const inRun = new Set(instrs);
    const reads = new Map<number, number>();
    for (const x of instrs) for (const r of readsOf(x)) reads.set(r, (reads.get(r) ?? 0) + 1);
    return (r) => inRun.has(defs.get(r) as Instr) && reads.get(r) === readers.get(r);
  };
  const runLength = new Uint8Array(slots.length);
  const runFns: (Exec | null)[] = slots.map(() => null);
  const fusable = (x: Slot): boolean => x.arith !== undefined || (x.fn === NOOP && FUSABLE_NOOP.has(x.meta.cls));
  for (let s = 0; s < slots.length; ) {
    let e = s;
    let arith = 0;
    for (; e < slots.length && e - s < MAX_RUN_SLOTS && fusable(slots[e] as Slot); e++) {
      if ((slots[e] as Slot).arith === undefined) continue;
      if (arith === MAX_RUN) break;
      arith++;
    }
    if (e - s >= 2) {
      const instrs = slots.slice(s, e).flatMap((x) => (x.arith ? [x.arith] : []));
      runLength[s] = e - s;
      runFns[s] = instrs.length > 0 ? genArithRun(instrs, layout, runLocals(instrs)) : NOOP;
    }
    s = Math.max(e, s + 1);
  }

  return {
    kernel,
    fns: slots.map((s) => s.fn as Exec),
    meta: slots.map((s) => s.meta),
    runLength,
    runFns,
    joins: Uint8Array.from(slots, (_, s) => (joinSlots.has(s) ? 1 : 0)),
    layout,
  };
}

/** per-warp special registers (the launch constants are shared arrays, see launchConstant) */
function genSpecial(sreg: SpecialReg, dst: number, env: ExecEnv, layout: RegLayout): Exec {
  const [bx, by] = env.block;
  // special registers are int32 registers of the warp's own: written through the launch's int32 view
  // (anything else through the warp's own array for the register)
  const flat = layout.storages[dst] === 'i32' && !layout.isShared(dst);
  const at = layout.offset[dst] as number;
  const regOf = (w: Warp): Int32Array => (flat ? w.i32 : (w.reg(dst) as Int32Array));
  const baseOf = (w: Warp): number => (flat ? w.rb4 + at : 0);
  const uniform = (f: (w: Warp) => number): Exec => (w: Warp) => {
    const r = regOf(w);
    const o = baseOf(w);
    const v = f(w);
    for (let l = 0; l < 32; l++) r[o + l] = v;
  };
  switch (sreg) {
    // thread t = warpInBlock * 32 + lane has x = t % bx, y = floor(t / bx) % by, z = floor(t / (bx * by)):
    // divide once for the warp's first thread and count up across the lanes (a division per lane
    // was a visible part of a short kernel's run)
    case 'tid.x':
      return (w: Warp) => {
        const r = regOf(w);
        const o = baseOf(w);
        let x = (w.warpInBlock * 32) % bx;
        for (let l = 0; l < 32; l++) {
          r[o + l] = x;
          if (++x === bx) x = 0;
        }
      };
    case 'tid.y':
      return (w: Warp) => {
        const r = regOf(w);
        const o = baseOf(w);
        const base = w.warpInBlock * 32;
        let x = base % bx;
        let y = Math.floor(base / bx) % by;
        for (let l = 0; l < 32; l++) {
          r[o + l] = y;
          if (++x === bx) {
            x = 0;
            if (++y === by) y = 0;
          }
        }
      };
    case 'tid.z':
      return (w: Warp) => {
        const r = regOf(w);
        const o = baseOf(w);
        const base = w.warpInBlock * 32;
        const plane = bx * by;
        let xy = base % plane;
        let z = Math.floor(base / plane);
        for (let l = 0; l < 32; l++) {
          r[o + l] = z;
          if (++xy === plane) {
            xy = 0;
            z++;
          }
        }
      };
    case 'laneid':
      return (w: Warp) => {
        const r = regOf(w);
        const o = baseOf(w);
        for (let l = 0; l < 32; l++) r[o + l] = l;
      };
    case 'ctaid.x': return uniform((w) => w.ctaX);
    case 'ctaid.y': return uniform((w) => w.ctaY);
    case 'ctaid.z': return uniform((w) => w.ctaZ);
    case 'warpid': return uniform((w) => w.warpInBlock);
    case 'smid': return uniform((w) => w.sm);
    default: throw new Error(`${sreg} is a launch constant`);
  }
}

