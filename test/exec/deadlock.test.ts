/**
 * The grid's no-progress detector (issue 38, src/exec/parkedWatch.ts): resident warps that spin on
 * memory no running warp writes, while the block that would write it cannot become resident, are a
 * deadlock named as such, long before the instruction budget; spins that another warp ends, and loops
 * that change state, are not.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defineKernel, ptr, u32 } from '../../src/api.js';
import { KernelFault } from '../../src/errors.js';
import { loadDefinitions } from '../../src/kernel/load.js';
import { profileDefinitions } from '../../src/profile.js';

const FILE = fileURLToPath(import.meta.url);

function faultOf(f: () => unknown): KernelFault {
  try {
    f();
  } catch (e) {
    if (e instanceof KernelFault) return e;
    throw e;
  }
  throw new Error('no fault');
}

describe('inter-block deadlock', () => {
  it('names the spinning line, the waiting warps and the block that never started', async () => {
    const defs = await loadDefinitions('test/fixtures/interblock_deadlock.ts');
    // a budget of 100,000 instructions per warp: the deadlock is found well before it
    const f = faultOf(() => profileDefinitions(defs, { file: 'test/fixtures/interblock_deadlock.ts', maxWarpInstructions: 100_000 }));
    expect(f.kind).toBe('deadlock');
    expect(f.message).toMatch(
      /interblock_deadlock\.ts:21: deadlock in kernel 'interblock_deadlock': every resident warp spins without progress: 264 warps of blocks \(0,0,0\)-\(263,0,0\) re-read memory that no running warp writes \(line 21\); 8184 other warps of those blocks wait at barriers \(line 24\); block \(264,0,0\) never started: it needs a resident block to finish first \(264 blocks are resident at once\)\. A block must not wait for a block launched after it unless all are co-resident: launch at most 264 blocks/,
    );
    expect(f.message.split('\n')).toHaveLength(1);
  });

  it('runs the same kernel when all its blocks are resident', async () => {
    const defs = await loadDefinitions('test/fixtures/interblock_deadlock.ts');
    const r = profileDefinitions(defs, { file: 'test/fixtures/interblock_deadlock.ts', params: { blocks: '2' }, timing: false });
    expect(r.kernels[0]?.check?.passed ?? true).toBe(true);
  });

  it('a spin on a value nobody will write, all blocks resident: no block is left to start', () => {
    const k = defineKernel({
      name: 'wait_for_nobody',
      params: { flag: ptr('global', u32) },
      launch: { grid: 2, block: 32 },
      setup: (h) => ({ flag: h.alloc(u32, 1, 'flag') }),
      body: (k, { flag }) => {
        k.while(() => flag.at(0).get({ cache: 'strong' }).eq(0), () => {});
      },
    });
    const f = faultOf(() => profileDefinitions([k], { file: FILE, maxWarpInstructions: 100_000 }));
    expect(f.message).toMatch(/deadlock\.test\.ts:\d+: deadlock in kernel 'wait_for_nobody': every resident warp spins without progress: 2 warps of blocks \(0,0,0\)-\(1,0,0\) re-read memory that no running warp writes \(line \d+\); no other block is left to start: the value they wait for is never written$/);
  });
});

describe('not a deadlock', () => {
  it('a spin that a resident block ends after a long computation completes', () => {
    const k = defineKernel({
      name: 'late_flag',
      params: { flag: ptr('global', u32), out: ptr('global', u32) },
      launch: { grid: 2, block: 32 },
      setup: (h) => ({ flag: h.alloc(u32, 1, 'flag'), out: h.alloc(u32, 64, 'out') }),
      check: (h, { out }) => (h.readNumber(out, u32, 0) === 20_000 ? null : `out[0] = ${h.readNumber(out, u32, 0)}`),
      body: (k, { flag, out }) => {
        k.if(
          k.blockIdx.x.eq(1),
          () => {
            // 20,000 trips without a store: its registers change, so it is never parked
            const n = k.let(u32, 0);
            k.for(0, 20_000, 1, () => n.set(n.add(1)));
            flag.at(0).store(n, { cache: 'strong' });
          },
          () => {
            k.while(() => flag.at(0).get({ cache: 'strong' }).eq(0), () => {});
            out.at(k.threadIdx.x).store(flag.at(0).get({ cache: 'strong' }));
          },
        );
      },
    });
    const r = profileDefinitions([k], { file: FILE });
    expect(r.kernels[0]?.check).toEqual({ passed: true });
  });

  it('a loop that changes state for ever is still a runaway loop', () => {
    const k = defineKernel({
      name: 'counting',
      params: { out: ptr('global', u32) },
      launch: { grid: 1, block: 32 },
      setup: (h) => ({ out: h.alloc(u32, 32, 'out') }),
      body: (k, { out }) => {
        const n = k.let(u32, 0);
        k.while(() => n.ge(0), () => n.set(n.add(1)));
        out.at(k.threadIdx.x).store(n);
      },
    });
    const f = faultOf(() => profileDefinitions([k], { file: FILE, maxWarpInstructions: 100_000 }));
    expect(f.kind).toBe('runaway');
    expect(f.message).toMatch(/deadlock\.test\.ts:\d+: runaway loop: warp 0 of block \(0,0,0\) in kernel 'counting' executed more than 100,000 instructions without finishing; fix the loop condition or raise --max-warp-instructions$/);
  });
});
