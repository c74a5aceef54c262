/**
 * Local memory (k.local arrays: STL/LDL). Each thread has a private frame of KernelIR.localBytes; the
 * hardware interleaves the frames of a warp's 32 threads in 4-byte words (CUDA C Programming Guide,
 * "Local Memory": consecutive 32-bit words are accessed by consecutive thread IDs), so word w of lane l
 * sits at byte (w * 32 + l) * 4 of the warp's local window. A warp's access to one index is then one
 * 128-byte span per 4-byte word: 4 sectors for 32-bit elements, 8 for 64-bit ones; lanes at different
 * indices touch more (test/fidelity/probes/cudaparts: loc's STL 16 requests / 64 sectors, its LDL at
 * 16 distinct indices 32 sectors; locd's STL.64 2 requests and 8 sectors each).
 *
 * The emulator keeps the data per lane (lane * localBytes + offset) and counts sectors from the
 * interleaved address. The frames are modelled L1-resident: the working sets of per-thread arrays
 * that fit the bound (MAX_LOCAL_BYTES) stay in the SM's L1, so every sector is a hit and nothing goes
 * to L2 [INFER: no eviction of local lines is modelled].
 */
import { KernelFault } from '../errors.js';
import type { Instr } from '../ir/types.js';
import { elemBytes } from '../ir/typesys.js';
import type { Exec } from './codegen.js';
import type { ExecEnv } from './env.js';
import { threadDesc, viewOf, where } from './memOps.js';
import type { RegArray } from './regFile.js';
import { popc, type Warp } from './warp.js';

type LocalLd = Extract<Instr, { op: 'ld' }>;
type LocalSt = Extract<Instr, { op: 'st' }>;

/** one warp's local window: the same bytes through each element kind */
interface Frame {
  u8: Uint8Array;
  i8: Int8Array;
  u16: Uint16Array;
  i16: Int16Array;
  i32: Int32Array;
  f32: Float32Array;
  f64: Float64Array;
  i64: BigInt64Array;
}

/** the frames of a launch's warps, made on a warp's first local access (a warp object keeps its frame across the blocks it runs: local memory starts undefined, as on the GPU) */
const framesOf = new WeakMap<ExecEnv, WeakMap<Warp, Frame>>();

function frameOf(env: ExecEnv, w: Warp, bytesPerThread: number): Frame {
  let frames = framesOf.get(env);
  if (!frames) {
    frames = new WeakMap();
    framesOf.set(env, frames);
  }
  let f = frames.get(w);
  if (!f) {
    const b = new ArrayBuffer(bytesPerThread * 32);
    f = {
      u8: new Uint8Array(b), i8: new Int8Array(b), u16: new Uint16Array(b), i16: new Int16Array(b),
      i32: new Int32Array(b), f32: new Float32Array(b), f64: new Float64Array(b), i64: new BigInt64Array(b),
    };
    frames.set(w, f);
  }
  return f;
}

/** the 32-byte sectors of the warp's interleaved window that an access of `size` bytes at these offsets touches */
export function localSectors(offs: Float64Array, m: number, size: number, scratch: Int32Array): number {
  let n = 0;
  const words = Math.max(1, size >> 2);
  for (let l = 0; l < 32; l++) {
    if (((m >>> l) & 1) === 0) continue;
    const w0 = Math.floor((offs[l] as number) / 4);
    // word w of lane l is at byte (w * 32 + l) * 4: sector (w * 128 + l * 4) >> 5
    for (let k = 0; k < words; k++) scratch[n++] = (w0 + k) * 4 + (l >> 3);
  }
  const s = scratch.subarray(0, n).sort();
  let distinct = 0;
  for (let i = 0; i < n; i++) if (i === 0 || s[i] !== s[i - 1]) distinct++;
  return distinct;
}

/**
 * L1 requests of one local access: one per 128 bytes of a fully coalesced warp access, i.e. one per
 * 4-byte word of the element (LDL/STL: 1; LDL.64/STL.64: 2, measured by the probe; .128: 4 [INFER])
 */
export function localRequests(size: number): number {
  return Math.max(1, size >> 2);
}

export function genLocalAccess(i: LocalLd | LocalSt, index: number, env: ExecEnv, bytesPerThread: number): Exec {
  const isLoad = i.op === 'ld';
  const size = elemBytes(i.elem);
  const comps = i.elem.tag === 'vec' ? i.elem.n : 1;
  const kind = i.elem.tag === 'vec' ? i.elem.elem.kind : i.elem.kind;
  const { view, shift } = viewOf(kind);
  const compBytes = 1 << shift;
  const regIds = isLoad ? i.dsts : i.values.map((v) => ('reg' in v ? v.reg : -1));
  const imms = isLoad ? [] : i.values.map((v) => ('imm' in v ? v.imm : 0));
  const addrReg = 'reg' in i.addr ? i.addr.reg : -1;
  const addrImm = 'imm' in i.addr ? Number(i.addr.imm) : 0;
  const c = env.counters;
  const offs = new Float64Array(32);
  const scratch = new Int32Array(32 * Math.max(1, size >> 2));
  const fault = (w: Warp, l: number, off: number): never => {
    const oob = off < 0 || off + size > bytesPerThread;
    throw new KernelFault(
      oob ? 'out-of-bounds' : 'misaligned',
      `${where(i.loc)}: ${oob ? 'invalid' : 'misaligned'} local ${isLoad ? 'read' : 'write'} of ${size} bytes at offset ${off} by ${threadDesc(w, l, env)} in kernel '${env.kernel.name}': ` +
        (oob ? `the thread has ${bytesPerThread} bytes of local memory (its k.local arrays); check the array index` : `the offset must be a multiple of ${size}`),
    );
  };
  const run = (w: Warp) => {
    const m = w.mask;
    if (m === 0) return;
    const f = frameOf(env, w, bytesPerThread);
    const arr = f[view] as RegArray | Uint8Array | Int8Array | Uint16Array | Int16Array;
    const a = addrReg >= 0 ? (w.reg(addrReg) as RegArray) : null;
    for (let l = 0; l < 32; l++) {
      if (((m >>> l) & 1) === 0) continue;
      const off = a ? Number(a[l]) : addrImm;
      if (!(off >= 0 && off + size <= bytesPerThread && off % size === 0)) fault(w, l, off);
      offs[l] = off;
      const b = (l * bytesPerThread + off) / compBytes;
      for (let k = 0; k < comps; k++) {
        const r = regIds[k] as number;
        if (isLoad) (w.reg(r) as RegArray)[l] = arr[b + k] as never;
        else arr[b + k] = (r >= 0 ? (w.reg(r) as RegArray)[l] : imms[k]) as never;
      }
    }
    const sectors = localSectors(offs, m, size, scratch);
    // executions here; the L1 requests are these times localRequests (kernelMetrics)
    c.requests[index] = (c.requests[index] as number) + 1;
    c.sectors[index] = (c.sectors[index] as number) + sectors;
    c.bytes[index] = (c.bytes[index] as number) + popc(m) * size;
    c.l1Hits[index] = (c.l1Hits[index] as number) + sectors;
    // the L1 data stage moves the sectors as wavefronts of 128 bytes (the timing model's MIO path)
    if (env.observer) env.observer.memory(w, index, null, Math.ceil(sectors / 4), 0);
  };
  return run;
}
