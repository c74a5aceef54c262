/**
 * Partial sectors of consecutive store requests of one SM and group reach the L2 as one write
 * (src/memory/storeCombiner.ts), counted in lts__t_sectors_srcunit_tex_op_write; everything else
 * reaches it as before.
 */
import { describe, expect, it } from 'vitest';
import { MemoryHierarchy } from '../../src/memory/hierarchy.js';
import { H200 } from './fixtures.js';
import { Req } from './request.js';

const L2_WR = 'lts__t_sectors_srcunit_tex_op_write.sum';
const LINE = 0x4000_0000;

/** u32 stores of 32 lanes at word offset `first` of LINE (128 B from byte 4 * first) */
function words(r: Req, first: number): Req {
  return r.fill((l) => LINE + 4 * (first + l), 4);
}

function fresh(): MemoryHierarchy {
  const m = new MemoryHierarchy(H200);
  m.beginLaunch({ cacheControl: 'none' });
  return m;
}

describe('store combining between an SM and the L2', () => {
  it('two misaligned warps of one group write their shared sector once: 5 + 5 L1 sectors, 9 L2 sectors', () => {
    const m = fresh();
    const r = new Req();
    words(r, 1).go(m, 3, 'st', undefined, undefined, 7);
    words(r, 33).go(m, 3, 'st', undefined, undefined, 7);
    const o = m.endLaunch();
    expect(o['l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum']! + o['l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_miss.sum']!).toBe(10);
    expect(o[L2_WR]).toBe(9);
  });

  it('nothing is combined across groups or SMs', () => {
    for (const [sm2, g2] of [
      [3, 8],
      [4, 7],
    ] as const) {
      const m = fresh();
      const r = new Req();
      words(r, 1).go(m, 3, 'st', undefined, undefined, 7);
      words(r, 33).go(m, sm2, 'st', undefined, undefined, g2);
      expect(m.endLaunch()[L2_WR]).toBe(10);
    }
  });

  it('held sectors go on alone at the end of a scheduler round', () => {
    const m = fresh();
    const r = new Req();
    words(r, 1).go(m, 3, 'st', undefined, undefined, 7);
    m.endRound();
    words(r, 33).go(m, 3, 'st', undefined, undefined, 7);
    expect(m.endLaunch()[L2_WR]).toBe(10);
  });

  it('one warp completing its own sectors with two stride-2 stores: 8 + 8 L1 sectors, 8 whole L2 sectors, no fill', () => {
    const m = fresh();
    const r = new Req();
    r.fill((l) => LINE + 8 * l, 4).go(m, 0, 'st', undefined, undefined, -5);
    r.fill((l) => LINE + 8 * l + 4, 4).go(m, 0, 'st', undefined, undefined, -5);
    const o = m.endLaunch();
    expect(o[L2_WR]).toBe(8);
    expect(m.l2.partialSectors()).toBe(0);
    expect(o['dram__sectors_read.sum']).toBe(0);
  });

  it('a load of the SM touching a held line sends the held bytes first: the load fills them by read-merge', () => {
    const m = fresh();
    const r = new Req();
    r.fill((l) => LINE + (l & 3) * 4, 4).go(m, 2, 'st', undefined, undefined, 1);
    r.fill((l) => LINE + 4 * l, 4).go(m, 2, 'ld');
    const o = m.endLaunch();
    expect(o[L2_WR]).toBe(1);
    // sent after the load, the write would have found the sector valid: no write fill
    expect(o['lts__t_sectors_srcunit_tex_op_write_lookup_miss.sum']).toBe(1);
  });
});
