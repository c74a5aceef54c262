/**
 * cudaMalloc'd memory nobody has written reads as zeros without being made (deviceMemory.ts
 * UNWRITTEN): a kernel reading it allocates no host memory for it. A load keeps the page it last read
 * (memOps.ts PageState), so once a store makes that page, the same load instruction must find it.
 */
import { describe, expect, it } from 'vitest';
import { defineKernel, defineProgram, ptr, u32 } from '../../src/api.js';
import { devicePagesMade } from '../../src/memory/deviceMemory.js';
import { profileDefinitions } from '../../src/profile.js';
import type { ProgramRun } from '../../types/report.schema.js';

/** u32 words in a 1 MiB device page */
const PAGE_WORDS = 1 << 18;
const PAGES = 64;

/** thread t reads one word of page t, and a word every warp then writes, twice */
const reader = defineKernel({
  name: 'unwritten_reader',
  params: { big: ptr('global', u32), small: ptr('global', u32), out: ptr('global', u32), trips: u32 },
  launch: { grid: 1, block: PAGES },
  setup: () => {
    throw new Error('launched by the program');
  },
  body: (k, { big, small, out, trips }) => {
    const t = k.threadIdx.x;
    out.at(t).store(big.at(t.mul(PAGE_WORDS)).get());
    // trip 0 reads `small` unwritten, then writes it: trip 1's load (the same instruction) reads 7
    k.for(0, trips, 1, (i) => {
      const v = small.at(t).get();
      out.at(i.add(1).mul(PAGES).add(t)).store(v);
      small.at(t).store(v.add(7));
    });
  },
});

const program = defineProgram({
  name: 'unwritten_reads',
  run: (ctx) => {
    const big = ctx.malloc(PAGES * PAGE_WORDS * 4, 'big');
    const small = ctx.malloc(PAGES * 4, 'small');
    const out = ctx.malloc(3 * PAGES * 4, 'out');
    const before = devicePagesMade();
    ctx.launch(reader, { big, small, out, trips: 2 });
    ctx.deviceSynchronize();
    ctx.value('pages made by the launch', devicePagesMade() - before);
    const at = (i: number): number => Number(ctx.host.readNumber(out, u32, i));
    ctx.value('nonzero words read from big', Array.from({ length: PAGES }, (_, i) => at(i)).filter((v) => v !== 0).length);
    ctx.value('trip 0 reads of 0', Array.from({ length: PAGES }, (_, i) => at(PAGES + i)).filter((v) => v === 0).length);
    ctx.value('trip 1 reads of 7', Array.from({ length: PAGES }, (_, i) => at(2 * PAGES + i)).filter((v) => v === 7).length);
  },
});

describe('unwritten device memory', () => {
  const p = profileDefinitions([program], { file: import.meta.filename }).programs?.[0] as ProgramRun;
  const value = (name: string): number => p.values.find((v) => v.name === name)?.value as number;

  it('reads as zeros and makes no pages: 64 MiB read, only what is written is made', () => {
    expect(value('nonzero words read from big')).toBe(0);
    // `small` and `out`: one page each; big's 64 pages are never made
    expect(value('pages made by the launch')).toBe(2);
  });

  it('a load that read a page unwritten finds the page a store made since', () => {
    expect(value('trip 0 reads of 0')).toBe(PAGES);
    expect(value('trip 1 reads of 7')).toBe(PAGES);
  });
});
