/**
 * A finished grid's frame (block slots, warps, registers, shared pages) serves the next launch of its
 * shape (scheduler.ts takeFrame): that launch must see what a new grid sees. The probe's blocks read
 * their shared word before writing it: a block finds what the block before it in the same slot left
 * (shared memory is the slot's for the whole launch), and a launch's first blocks find zeros, the
 * emulator's fresh shared memory, even where the launch before (same kernel, same shape) filled it.
 */
import { describe, expect, it } from 'vitest';
import { defineKernel, defineProgram, ptr, u32 } from '../../src/api.js';
import { profileDefinitions } from '../../src/profile.js';
import type { ProgramRun } from '../../types/report.schema.js';

const BLOCK = 64;
/** the H200's resident blocks of 64 threads: 32 a SM (its block limit) on 132 SMs, one slot each */
const SLOTS = 132 * 32;
/** two waves: every slot runs a second block after its first */
const BLOCKS = 2 * SLOTS;

const probe = defineKernel({
  name: 'reuse_probe',
  params: { out: ptr('global', u32), fill: u32 },
  defaults: { fill: 0 },
  launch: { grid: BLOCKS, block: BLOCK },
  setup: (h) => ({ out: h.alloc(u32, BLOCKS * BLOCK, 'out') }),
  body: (k, { out, fill }) => {
    const words = k.shared(u32, [BLOCK]);
    const t = k.threadIdx.x;
    const g = k.blockIdx.x.mul(k.blockDim.x).add(t);
    const before = words.at(t).get();
    k.if(fill.ne(0), () => words.at(t).store(fill));
    out.at(g).store(before);
  },
});

const program = defineProgram({
  name: 'reuse_twice',
  run: (ctx) => {
    const n = BLOCKS * BLOCK;
    const first = ctx.malloc(n * 4, 'first');
    const second = ctx.malloc(n * 4, 'second');
    ctx.launch(probe, { out: first, fill: 7 });
    ctx.launch(probe, { out: second, fill: 0 });
    ctx.deviceSynchronize();
    let sevens = 0;
    let nonzero = 0;
    for (let i = 0; i < n; i++) {
      if (ctx.host.readNumber(first, u32, i) === 7) sevens++;
      if (ctx.host.readNumber(second, u32, i) !== 0) nonzero++;
    }
    ctx.value('first launch: reads of a filled word', sevens);
    ctx.value('second launch: nonzero reads', nonzero);
  },
});

describe('a reused grid frame', () => {
  it('starts with zeroed shared memory, as a new one does', () => {
    const p = profileDefinitions([program], { file: import.meta.filename }).programs?.[0] as ProgramRun;
    const value = (name: string): number => p.values.find((v) => v.name === name)?.value as number;
    // every block after the first of its slot reads the 7 its predecessor left: all but the slots' first blocks
    expect(value('first launch: reads of a filled word')).toBe((BLOCKS - SLOTS) * BLOCK);
    expect(value('second launch: nonzero reads')).toBe(0);
  });
});
