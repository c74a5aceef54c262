import { describe, expect, it } from 'vitest';
import type { InstructionCounters } from '../../types/report.schema.js';
import { hotSpots, summarizeSourceLines, threadsPerInstruction } from '../../src/report/sourceLines.js';
import { G_LD_U32_STRIDE32_INSTRUCTIONS, G_LD_U32_STRIDE32_SOURCE } from './terminalFixtures.js';

const inst = (index: number, opcode: string, line: number, metrics: Record<string, number>): InstructionCounters => ({ index, opcode, line, metrics });

describe('summarizeSourceLines', () => {
  it('sums the stride-32 kernel per line, with the line text', () => {
    const lines = summarizeSourceLines(G_LD_U32_STRIDE32_INSTRUCTIONS, G_LD_U32_STRIDE32_SOURCE);
    expect(lines.map((l) => l.line)).toEqual([12, 13]);
    expect(lines[0]).toMatchObject({
      text: '    const v = src.at(idx).load();',
      opcodes: ['LDG.E'],
      instructions: 131072,
      sectors: 4194304,
      sectorsIdeal: 524288,
      excessiveSectors: 3670016,
    });
    expect(threadsPerInstruction(lines[0]!)).toBe(32);
    expect(lines[1]?.excessiveSectors).toBe(0);
  });

  it('adds up several instructions of one line and counts bank conflicts per instruction', () => {
    const [line] = summarizeSourceLines([
      inst(0, 'LDS', 5, { inst_executed: 10, thread_inst_executed: 320, memory_l1_wavefronts_shared: 320, memory_l1_wavefronts_shared_ideal: 10 }),
      inst(1, 'FADD', 5, { inst_executed: 10, thread_inst_executed: 160 }),
      inst(2, 'LDS', 5, { inst_executed: 10, thread_inst_executed: 320, memory_l1_wavefronts_shared: 10, memory_l1_wavefronts_shared_ideal: 10 }),
    ]);
    expect(line).toMatchObject({ opcodes: ['LDS', 'FADD'], instructions: 30, wavefronts: 330, wavefrontsIdeal: 20, excessiveWavefronts: 310, text: undefined });
    expect(threadsPerInstruction(line!)).toBeCloseTo(800 / 30, 10);
  });
});

describe('hotSpots', () => {
  const summaries = summarizeSourceLines([
    inst(0, 'IADD', 3, { inst_executed: 1000 }),
    inst(1, 'LDS', 4, { inst_executed: 10, memory_l1_wavefronts_shared: 320, memory_l1_wavefronts_shared_ideal: 10 }),
    inst(2, 'LDG.E', 5, { inst_executed: 10, memory_l2_theoretical_sectors_global: 320, memory_l2_theoretical_sectors_global_ideal: 40 }),
    inst(3, 'IADD', 6, { inst_executed: 2000 }),
    inst(4, 'EXIT', 7, { inst_executed: 0 }),
  ]);

  it('orders by excessive sectors, then bank conflicts, then instructions', () => {
    expect(hotSpots(summaries, 10).map((s) => s.line)).toEqual([5, 4, 6, 3]);
  });

  it('keeps the first n', () => {
    expect(hotSpots(summaries, 2).map((s) => s.line)).toEqual([5, 4]);
    expect(hotSpots(summaries, 0)).toEqual([]);
  });
});
