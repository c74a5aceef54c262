/**
 * 32-bit integer division and remainder as ptxas (CUDA 13.0, sm_90, -O3) expands them: the SASS
 * sequence for `a / d` and `a % d`, measured on an H200 (test/fidelity/probes/isel/: isel_probe.cu,
 * its SASS in sass.txt and executed counts in isel_summary.txt). The SM has no integer divider:
 * - by a power of two, a shift or a mask (signed: with the fix-up that rounds toward zero);
 * - by another constant, a multiply by a magic number (IMAD.WIDE.U32 / IMAD.HI) and shifts
 *   (Granlund & Montgomery; Hacker's Delight 10-1 and 10-10);
 * - by a value known only at run time, the reciprocal of the divisor in floating point
 *   (I2F, MUFU.RCP, F2I), refined with integer multiplies and corrected twice, all predicated: no branch.
 * A remainder is the quotient's sequence and one IMAD (a - q * d), or a mask for a power of two.
 */

/** one SASS instruction of a sequence: its name and the pipe class the timing model charges */
export interface SassOp {
  opcode: string;
  cls: 'alu' | 'sfu' | 'conv' | 'move' | 'warp';
}

const alu = (opcode: string): SassOp => ({ opcode, cls: 'alu' });
const seq = (...names: string[]): SassOp[] =>
  names.map((n) => (n.startsWith('MUFU') ? { opcode: n, cls: 'sfu' } : n.startsWith('I2F') || n.startsWith('F2I') ? { opcode: n, cls: 'conv' } : n === 'HFMA2.MMA' || n.startsWith('IMAD.MOV') || n === 'MOV' ? { opcode: n, cls: 'move' } : alu(n)));

/** the multiplier and shifts of an unsigned division by a constant d (not a power of two, d < 2^31) */
export interface UnsignedMagic {
  /** the 32-bit multiplier */
  m: bigint;
  /** the quotient needs the dividend added back (the multiplier has 33 bits): (((a - hi) >> 1) + hi) */
  add: boolean;
  /** a shift of the dividend first (an even divisor whose multiplier would need the add) */
  pre: number;
  /** the shift after the multiply (after the add's own shift by one, when add) */
  post: number;
}

/**
 * Hacker's Delight's magicu2 for 32-bit words, as LLVM writes it (UnsignedDivisionByConstantInfo):
 * the least multiplier for dividends below 2^(32 - leadingZeros), and whether it needs the add
 */
function magicu(d: bigint, leadingZeros = 0): { m: bigint; add: boolean; s: number } {
  const W = 32n;
  const mask = (1n << W) - 1n;
  const allOnes = mask >> BigInt(leadingZeros);
  const signedMin = 1n << (W - 1n);
  const signedMax = signedMin - 1n;
  // nc: the largest dividend with remainder d - 1
  const nc = allOnes - ((allOnes + 1n - d) % d);
  let add = false;
  let p = W - 1n;
  let q1 = signedMin / nc;
  let r1 = signedMin - q1 * nc;
  let q2 = signedMax / d;
  let r2 = signedMax - q2 * d;
  let delta: bigint;
  do {
    p++;
    if (r1 >= nc - r1) {
      q1 = (2n * q1 + 1n) & mask;
      r1 = (2n * r1 - nc) & mask;
    } else {
      q1 = (2n * q1) & mask;
      r1 = (2n * r1) & mask;
    }
    if (r2 + 1n >= d - r2) {
      if (q2 >= signedMax) add = true;
      q2 = (2n * q2 + 1n) & mask;
      r2 = (2n * r2 + 1n - d) & mask;
    } else {
      if (q2 >= signedMin) add = true;
      q2 = (2n * q2) & mask;
      r2 = (2n * r2 + 1n) & mask;
    }
    delta = (d - 1n - r2) & mask;
  } while (p < 2n * W && (q1 < delta || (q1 === delta && r1 === 0n)));
  return { m: (q2 + 1n) & mask, add, s: Number(p - W) };
}

export function unsignedMagic(d: number): UnsignedMagic {
  const dd = BigInt(d >>> 0);
  const { m, add, s } = magicu(dd);
  if (add && (dd & 1n) === 0n) {
    // an even divisor: divide the dividend by the divisor's power of two first, and the rest then
    // needs no add (LLVM's and ptxas's choice)
    let tz = 0;
    while (((dd >> BigInt(tz)) & 1n) === 0n) tz++;
    const r = magicu(dd >> BigInt(tz), tz);
    return { m: r.m, add: r.add, pre: tz, post: r.s };
  }
  return { m, add, pre: 0, post: add ? s - 1 : s };
}

/** Hacker's Delight 10-1 (magic): the multiplier and shift of a signed division by d (|d| >= 2, not a power of two) */
export function signedMagic(d: number): { m: number; s: number } {
  const two31 = 0x80000000;
  const ad = Math.abs(d);
  const t = two31 + (d >>> 31);
  const anc = t - 1 - (t % ad);
  let p = 31;
  let q1 = Math.floor(two31 / anc);
  let r1 = two31 - q1 * anc;
  let q2 = Math.floor(two31 / ad);
  let r2 = two31 - q2 * ad;
  let delta: number;
  do {
    p++;
    q1 *= 2;
    r1 *= 2;
    if (r1 >= anc) {
      q1++;
      r1 -= anc;
    }
    q2 *= 2;
    r2 *= 2;
    if (r2 >= ad) {
      q2++;
      r2 -= ad;
    }
    delta = ad - r2;
  } while (q1 < delta || (q1 === delta && r1 === 0));
  let m = (q2 + 1) % 0x100000000;
  if (m >= two31) m -= 0x100000000;
  if (d < 0) m = -m;
  return { m, s: p - 32 };
}

const isPow2 = (x: number): boolean => x > 0 && (x & (x - 1)) === 0;

/**
 * The SASS of `a / d` (`rem`: `a % d`) with d a constant, 32-bit; the empty list when it is no
 * instruction (by one)
 */
export function constantDivision(d: number, signed: boolean, rem: boolean): SassOp[] {
  if (!signed) {
    const u = d >>> 0;
    if (u === 1) return [];
    if (isPow2(u)) return seq(rem ? 'LOP3.LUT' : 'SHF.R.U32.HI');
    // a divisor of 2^31 or more: the quotient is 0 or 1
    if (u >= 0x80000000) return rem ? seq('ISETP.GE.U32.AND', 'IADD3') : seq('ISETP.GE.U32.AND', 'SEL');
    const g = unsignedMagic(u);
    const q = g.add
      // udiv_c7: IMAD.WIDE.U32 R4, R3, 0x24924925, RZ; IADD3 R4, R3, -R5; LEA.HI R0, R4, R5, RZ, 0x1f; SHF.R.U32.HI R7, RZ, 0x2, R0
      ? seq('IMAD.WIDE.U32', 'IADD3', 'LEA.HI', ...(g.post > 0 ? ['SHF.R.U32.HI'] : []))
      // udiv_c3 / c10 / c1000: IMAD.WIDE.U32 R4, R2, -0x55555555, RZ; SHF.R.U32.HI R5, RZ, 0x1, R5
      : seq(...(g.pre > 0 ? ['SHF.R.U32.HI'] : []), 'IMAD.WIDE.U32', ...(g.post > 0 ? ['SHF.R.U32.HI'] : []));
    return rem ? [...q, alu('IMAD')] : q;
  }
  const s = d | 0;
  if (s === 1) return [];
  if (s === -1) return rem ? [] : seq('IADD3');
  const ad = Math.abs(s);
  if (isPow2(ad)) {
    // sdiv_c8: SHF.R.S32.HI R9, RZ, 0x1f, R2; LEA.HI R9, R9, R2, RZ, 0x3; SHF.R.S32.HI R9, RZ, 0x3, R9
    // srem_c8: the same two, LOP3.LUT R9, R9, 0xfffffff8; IADD3 R9, R2, -R9
    const bias = ad === 2 ? ['LEA.HI'] : ['SHF.R.S32.HI', 'LEA.HI'];
    if (rem) return seq(...bias, 'LOP3.LUT', 'IADD3');
    return seq(...bias, 'SHF.R.S32.HI', ...(s < 0 ? ['IADD3'] : []));
  }
  const g = signedMagic(s);
  // a multiplier of the other sign than d adds (or subtracts) the dividend: IMAD.HI with the dividend
  // as the high word of its 64-bit addend, whose low word is a zeroed register (sdiv_c7: HFMA2.MMA R2,
  // -RZ, RZ, 0, 0; IMAD.HI R0, R3, -0x6db6db6d, R2)
  const addBack = (s > 0 && g.m < 0) || (s < 0 && g.m > 0);
  // then the quotient rounds toward zero: + its sign bit (sdiv_c10: SHF.R.U32.HI + LEA.HI.SX32; sdiv_c3: LEA.HI)
  const q = seq(...(addBack ? ['HFMA2.MMA'] : []), 'IMAD.HI', ...(g.s > 0 ? ['SHF.R.U32.HI', 'LEA.HI.SX32'] : ['LEA.HI']));
  return rem ? [...q, alu('IMAD')] : q;
}

/** udiv_v: the divisor's reciprocal, q = hi(a * rcp), then two corrections and the divide-by-zero result */
const UDIV = seq('I2F.U32.RP', 'IADD3', 'ISETP.NE.U32.AND', 'MUFU.RCP', 'IADD3', 'F2I.FTZ.U32.TRUNC.NTZ', 'HFMA2.MMA', 'IMAD', 'IMAD.HI.U32', 'IMAD.HI.U32', 'IADD3', 'IMAD', 'ISETP.GE.U32.AND', 'IADD3', 'IADD3', 'ISETP.GE.U32.AND', 'IADD3', 'LOP3.LUT');
/** urem_v: the same, the corrections on the remainder only */
const UREM = seq('I2F.U32.RP', 'IADD3', 'ISETP.NE.U32.AND', 'MUFU.RCP', 'IADD3', 'F2I.FTZ.U32.TRUNC.NTZ', 'HFMA2.MMA', 'IMAD', 'IMAD.HI.U32', 'IMAD.HI.U32', 'IADD3', 'IMAD', 'ISETP.GE.U32.AND', 'IADD3', 'ISETP.GE.U32.AND', 'IADD3', 'LOP3.LUT');
/** sdiv_v: the unsigned sequence on |a| and |d| (IABS), the quotient's sign from a ^ d */
const SDIV = seq('IABS', 'IABS', 'I2F.RP', 'IABS', 'MUFU.RCP', 'LOP3.LUT', 'ISETP.GE.AND', 'VIADD', 'F2I.FTZ.U32.TRUNC.NTZ', 'HFMA2.MMA', 'IMAD.MOV', 'IMAD', 'IMAD.HI.U32', 'IMAD.MOV', 'IMAD.HI.U32', 'IMAD', 'ISETP.GT.U32.AND', 'IADD3', 'VIADD', 'ISETP.NE.AND', 'ISETP.GE.U32.AND', 'IADD3', 'IADD3', 'LOP3.LUT');
/** srem_v: the remainder takes the dividend's sign */
const SREM = seq('IABS', 'IABS', 'I2F.RP', 'IABS', 'MUFU.RCP', 'ISETP.GE.AND', 'IADD3', 'F2I.FTZ.U32.TRUNC.NTZ', 'IMAD.MOV.U32', 'IADD3', 'IMAD', 'IMAD.HI.U32', 'IADD3', 'IMAD.HI.U32', 'IMAD', 'ISETP.GT.U32.AND', 'IMAD.IADD', 'ISETP.NE.AND', 'ISETP.GT.U32.AND', 'IADD3', 'IMAD.MOV', 'LOP3.LUT');

/**
 * The SASS of `a / d` (`rem`: `a % d`) with d a 32-bit value known at run time: 18 instructions
 * (udiv), 17 (urem), 24 (sdiv), 22 (srem). A divisor the same in every thread (a kernel parameter:
 * sdiv_p, srem_p) has its absolute value taken once where a per-thread one takes it twice.
 */
export function variableDivision(signed: boolean, rem: boolean, uniformDivisor: boolean): SassOp[] {
  if (!signed) return rem ? UREM : UDIV;
  const s = rem ? SREM : SDIV;
  return uniformDivisor ? s.slice(1) : s;
}

/**
 * A remainder whose quotient the kernel has computed already (udivrem_v: `a / b + a % b`): a - q * d,
 * an IMAD, after q's negation when d is a variable (`IADD3 R4, -R7, RZ, RZ; IMAD R0, R5, R4, R0`)
 */
export function remainderAfterQuotient(variable: boolean): SassOp[] {
  return variable ? seq('IADD3', 'IMAD') : seq('IMAD');
}

/**
 * A divisor nvcc's front end does not know but ptxas does (C's warpSize: PTX WARP_SZ, 32). The
 * cuda-samples shfl_scan SASS (test/fidelity/groundtruth/cuda-samples/h200/sass.txt.gz,
 * shfl_scan_test) keeps the reciprocal sequence but with 32 as an immediate: the divisor's reciprocal
 * once, at the kernel's entry, for all the divisions by it (`I2F.U32.RP R10, 0x20; MUFU.RCP; VIADD
 * 0xffffffe; F2I.FTZ.U32.TRUNC.NTZ; IMAD.MOV.U32 R8, RZ, RZ, RZ; IMAD.U32 R7, R9, -0x20, RZ;
 * IMAD.HI.U32 R9, R9, R7, R8`), then per division a multiply and two corrections, no negation of the
 * divisor (an immediate) and no divide-by-zero result (it is not 0).
 */
export const LATE_RECIPROCAL = seq('I2F.U32.RP', 'MUFU.RCP', 'VIADD', 'F2I.FTZ.U32.TRUNC.NTZ', 'IMAD.MOV.U32', 'IMAD.U32', 'IMAD.HI.U32');

/**
 * Per division by such a divisor (after LATE_RECIPROCAL):
 * - unsigned quotient (`blockDim.x / warpSize`: IMAD.HI.U32, IMAD R8, R9, -0x20, R5, ISETP.GE.U32,
 *   @P0 IADD3, @P0 VIADD, ISETP.GE.U32, @P1 VIADD): 7;
 * - signed remainder (`id % warpSize`: IABS, ISETP.GE.AND for the dividend's sign, IMAD.HI.U32, IMAD,
 *   ISETP.GE.U32, @P1 VIADD, ISETP.GE.U32, @P2 VIADD, @!P4 IMAD.MOV): 9;
 * - unsigned remainder: the quotient's without the quotient's two increments and with the
 *   remainder's second correction (urem_v's shape less the divisor's negation and the zero test): 6;
 * - signed quotient: the unsigned one on |a|, negated for a negative dividend (sdiv_v's shape, less
 *   the divisor's IABS, sign and zero tests): 10.
 */
export function lateConstantDivision(signed: boolean, rem: boolean): SassOp[] {
  if (!signed) return rem ? seq('IMAD.HI.U32', 'IMAD', 'ISETP.GE.U32.AND', 'IADD3', 'ISETP.GE.U32.AND', 'IADD3') : seq('IMAD.HI.U32', 'IMAD', 'ISETP.GE.U32.AND', 'IADD3', 'VIADD', 'ISETP.GE.U32.AND', 'VIADD');
  return rem
    ? seq('IABS', 'ISETP.GE.AND', 'IMAD.HI.U32', 'IMAD', 'ISETP.GE.U32.AND', 'VIADD', 'ISETP.GE.U32.AND', 'VIADD', 'IMAD.MOV')
    : seq('IABS', 'ISETP.GE.AND', 'IMAD.HI.U32', 'IMAD', 'ISETP.GE.U32.AND', 'IADD3', 'VIADD', 'ISETP.GE.U32.AND', 'VIADD', 'IMAD.MOV');
}

/**
 * A remainder whose quotient by such a divisor was computed already (`threadIdx.x / warpSize` then
 * `threadIdx.x % warpSize`: the quotient's corrected remainder less the divisor once more: IADD3 R13,
 * R10, -0x20, RZ; SEL R13, R13, R10, P3): 2
 */
export const LATE_REMAINDER_AFTER_QUOTIENT = seq('IADD3', 'SEL');
