/**
 * A fused run stores only the results something reads from the register file (codegen.ts
 * genArithRun, `runLocal`): a temporary that only the run's later statements read stays in its local,
 * a result read outside the run is stored, and so is a temporary a later statement reads from the
 * file (a 64-bit integer's halves are read from there). Whole kernels' results with the stores left
 * out are held by test/exec/arithRun.test.ts and every kernel's check.
 */
import { describe, expect, it } from 'vitest';
import { genArithRun } from '../../src/exec/codegen.js';
import { RegFile, RegLayout } from '../../src/exec/regFile.js';
import type { Warp } from '../../src/exec/warp.js';
import type { Instr, Operand, Storage, ValueType } from '../../src/ir/types.js';

const loc = { file: 'runLocals.test.ts', line: 1 };
const I32: ValueType = { tag: 'scalar', kind: 'i32' };
const I64: ValueType = { tag: 'scalar', kind: 'i64' };
const reg = (r: number, type: ValueType): Operand => ({ reg: r, type });
const imm = (v: number, type: ValueType): Operand => ({ imm: v, type });

/** registers 0 (x, i32, the input), 1-3 (i32), 4-6 (i64) */
const STORAGES: Storage[] = ['i32', 'i32', 'i32', 'i32', 'i64', 'i64', 'i64'];
const RUN: Instr[] = [
  // r1 = x * 3; r2 = r1 + 1 (temporaries); r3 = r2 * r2 (read after the run)
  { op: 'binary', fn: 'mul', dst: 1, type: I32, a: reg(0, I32), b: imm(3, I32), loc },
  { op: 'binary', fn: 'add', dst: 2, type: I32, a: reg(1, I32), b: imm(1, I32), loc },
  { op: 'binary', fn: 'mul', dst: 3, type: I32, a: reg(2, I32), b: reg(2, I32), loc },
  // r4 = 50 (i64); r6 = r4 / 10 (a BigInt, kept in a local), read as its halves by r5 = r6 + r6:
  // from the file, so stored
  { op: 'const', dst: 4, type: I64, value: 50n, loc },
  { op: 'binary', fn: 'div', dst: 6, type: I64, a: reg(4, I64), b: imm(10, I64), loc },
  { op: 'binary', fn: 'add', dst: 5, type: I64, a: reg(6, I64), b: reg(6, I64), loc },
];

function runOnce(runLocal: (r: number) => boolean): { i32: Int32Array; i64: BigInt64Array; layout: RegLayout } {
  const layout = new RegLayout(STORAGES, new Map());
  const file = new RegFile(layout, 1);
  const at = (r: number): number => layout.offset[r] as number;
  for (let l = 0; l < 32; l++) file.i32[at(0) + l] = l;
  genArithRun(RUN, layout, runLocal)({ i32: file.i32, f32: file.f32, f64: file.f64, i64: file.i64, rb4: 0, rb8: 0, mask: -1 } as unknown as Warp);
  return { i32: file.i32, i64: file.i64, layout };
}

describe('a fused run’s stores', () => {
  it('leaves out the temporaries only the run reads, and stores what is read outside it or from the file', () => {
    const { i32, i64, layout } = runOnce((r) => r !== 3);
    const lanes = (arr: Int32Array | BigInt64Array, r: number) => Array.from(arr.subarray(layout.offset[r] as number, (layout.offset[r] as number) + 32), Number);
    const want = Array.from({ length: 32 }, (_, l) => (3 * l + 1) ** 2);
    expect(lanes(i32, 3)).toEqual(want);
    // never stored: the file keeps its zeros
    expect(lanes(i32, 1)).toEqual(new Array(32).fill(0));
    expect(lanes(i32, 2)).toEqual(new Array(32).fill(0));
    // the i64 temporary is read from the file as halves: stored, and the sum right
    expect(lanes(i64, 6)).toEqual(new Array(32).fill(5));
    expect(lanes(i64, 5)).toEqual(new Array(32).fill(10));
  });

  it('stores everything when the caller knows of no run-local register', () => {
    const { i32, layout } = runOnce(() => false);
    const lane5 = (r: number): number => i32[(layout.offset[r] as number) + 5] as number;
    expect([lane5(1), lane5(2), lane5(3)]).toEqual([15, 16, 256]);
  });
});
