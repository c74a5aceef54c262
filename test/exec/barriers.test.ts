/**
 * Barriers and warp-level masks that can never work are diagnosed on one line, naming the warps, the
 * barrier and the source lines, and the run ends at once (it never hangs): divergent __syncthreads(),
 * mismatched thread counts, a named barrier aliasing __syncthreads()'s barrier 0, ids beyond 15,
 * and *_sync masks naming lanes that diverged or exited. Correct producer/consumer use completes.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defineKernel, i32, ptr, u32, type KernelDef } from '../../src/api.js';
import { KernelFault } from '../../src/errors.js';
import { profileDefinitions } from '../../src/profile.js';
import type { ParamTypes } from '../../src/kernel/define.js';

const FILE = fileURLToPath(import.meta.url);
const profile = (def: KernelDef<ParamTypes>) => profileDefinitions([def], { file: FILE });

/** a kernel over one u32 output per thread */
function kernel(name: string, block: number, body: KernelDef<{ out: ReturnType<typeof ptr> }>['body'], grid = 1) {
  return defineKernel({
    name,
    params: { out: ptr('global', u32) },
    launch: { grid, block },
    setup: (h) => ({ out: h.alloc(u32, grid * block, 'out') }),
    body,
  }) as unknown as KernelDef<ParamTypes>;
}

/** the line of the first source line containing `marker` in this file */
import { readFileSync } from 'node:fs';
const SOURCE = readFileSync(FILE, 'utf8').split('\n');
const lineOf = (marker: string): number => SOURCE.findIndex((l) => l.includes(marker)) + 1;

/** runs, expects a KernelFault of `kind`, returns its message and how long the run took */
function fault(def: KernelDef<ParamTypes>, kind: KernelFault['kind']): { message: string; ms: number } {
  const t0 = performance.now();
  try {
    profile(def);
  } catch (e) {
    const ms = performance.now() - t0;
    expect(e).toBeInstanceOf(KernelFault);
    expect((e as KernelFault).kind).toBe(kind);
    const message = (e as Error).message;
    expect(message).not.toContain('\n');
    return { message, ms };
  }
  throw new Error(`kernel '${def.name}' ran without a ${kind} fault`);
}

describe('barrier deadlocks', () => {
  it('diagnoses __syncthreads() inside a thread-dependent branch', () => {
    const k = kernel('divergent_syncthreads', 64, (k, { out }) => {
      k.if(k.threadIdx.x.lt(16), () => {
        k.syncthreads(); // MARK divergent sync
      });
      out.at(k.threadIdx.x).store(1);
    });
    const { message, ms } = fault(k, 'deadlock');
    const line = lineOf('MARK divergent sync');
    expect(message).toContain(`barriers.test.ts:${line}: deadlock in kernel 'divergent_syncthreads', block (0,0,0): `);
    expect(message).toContain(`warp 0 waits at barrier 0 (__syncthreads(), line ${line}), 16 of 32 threads arrived`);
    expect(message).toContain(`warp 0 reached barrier 0 diverged: only lanes 0-15 arrived, lanes 16-31 (held at line ${line - 1}) cannot run until it completes`);
    // warp 1 skipped the branch and exited: __syncthreads() waits for the 32 threads left
    expect(message).toContain('warp 1 has exited');
    expect(message).toMatch(/no other thread of the block can arrive$/);
    expect(ms).toBeLessThan(1000);
  });

  it('diagnoses a named barrier whose count is never reached', () => {
    const k = kernel('short_count', 128, (k, { out }) => {
      const w = k.warpId;
      k.if(w.lt(2), () => {
        k.barSync(1, 128); // MARK waits for 128
      });
      out.at(k.threadIdx.x).store(w);
    });
    const { message, ms } = fault(k, 'deadlock');
    expect(message).toContain(`warps 0-1 wait at barrier 1 (bar.sync 1, 128, line ${lineOf('MARK waits for 128')}), 64 of 128 threads arrived`);
    expect(message).toContain('warps 2-3 have exited');
    expect(ms).toBeLessThan(1000);
  });

  it('names the warps that only arrived (bar.arrive) when the waiting ones can never be released', () => {
    // a producer warp signals, one consumer waits for 128 threads, the other two warps never come
    const k = kernel('arrive_short', 128, (k, { out }) => {
      const w = k.warpId;
      k.if(w.eq(0), () => k.barArrive(1, 128)); // MARK producer arrives
      k.if(w.eq(3), () => k.barSync(1, 128)); // MARK consumer waits
      out.at(k.threadIdx.x).store(w);
    });
    const { message } = fault(k, 'deadlock');
    expect(message).toContain(
      `warp 3 waits at barrier 1 (bar.sync 1, 128, line ${lineOf('MARK consumer waits')}), 64 of 128 threads arrived (bar.arrive at line ${lineOf('MARK producer arrives')} by warps 0)`,
    );
  });

  it('diagnoses two thread counts on one barrier', () => {
    const k = kernel('mismatched_counts', 128, (k, { out }) => {
      k.if(k.warpId.lt(2), () => k.barSync(2, 128), () => k.barSync(2, 64)); // MARK mismatched
      out.at(k.threadIdx.x).store(1);
    });
    const { message } = fault(k, 'deadlock');
    const line = lineOf('MARK mismatched');
    expect(message).toMatch(new RegExp(`barriers\\.test\\.ts:${line}: barrier 2 in kernel 'mismatched_counts', block \\(0,0,0\\): warp 2 arrives as bar\\.sync 2, 64 while warp 0 reached it as bar\\.sync 2, 128 at line ${line}: thread counts 128 and 64 on one barrier can never complete consistently; give each use its own barrier id`));
  });

  it('diagnoses a named barrier aliasing barrier 0 of __syncthreads()', () => {
    // CudaDMA with object id 0: the DMA warps' bar.arrive 0 meets the compute warps' __syncthreads()
    const k = kernel('aliasing_zero', 128, (k, { out }) => {
      k.if(k.warpId.lt(2), () => k.barArrive(0, 128), () => k.syncthreads()); // MARK aliasing
      out.at(k.threadIdx.x).store(1);
    });
    const { message } = fault(k, 'deadlock');
    expect(message).toContain(`barriers.test.ts:${lineOf('MARK aliasing')}: barrier 0 in kernel 'aliasing_zero'`);
    expect(message).toContain('warp 2 arrives as __syncthreads() while warp 0 reached it as bar.arrive 0, 128');
    expect(message).toContain('named barrier 0 aliases the one __syncthreads() uses: number named barriers from 1 (as CudaDMA does)');
  });

  it('rejects barrier ids beyond 15 at build time, and at run time when computed', () => {
    const constant = kernel('bar_16', 32, (k) => {
      k.barSync(16, 32); // MARK id 16
    });
    expect(() => profile(constant)).toThrowError(`barriers.test.ts:${lineOf('MARK id 16')}: barrier id 16 is out of range: a block has 16 named barriers (0-15) (kernel 'bar_16')`);
    const computed = kernel('bar_computed', 32, (k) => {
      k.barSync(k.blockDim.x.shr(1), 32); // MARK computed id
    });
    const { message } = fault(computed, 'deadlock');
    expect(message).toMatch(new RegExp(`barriers\\.test\\.ts:${lineOf('MARK computed id')}: barrier id 16 in kernel 'bar_computed' is out of range: a block has 16 named barriers \\(0-15\\)$`));
  });

  it('rejects a thread count that is not a multiple of 32', () => {
    const k = kernel('bar_count_48', 64, (k) => k.barSync(1, 48));
    expect(() => profile(k)).toThrowError(/bar\.sync thread count 48 must be a positive multiple of 32 \(the warp size\)/);
  });

  it('ends a deadlocking 16M-thread grid within a second', () => {
    const k = kernel('big_deadlock', 1024, (k) => {
      k.if(k.threadIdx.x.lt(512), () => k.barSync(1, 1024));
    }, 16384);
    const { ms } = fault(k, 'deadlock');
    expect(ms).toBeLessThan(1000);
  });
});

describe('barriers that complete', () => {
  it('runs a producer/consumer handoff on named barriers (bar.arrive + bar.sync)', () => {
    const k = defineKernel({
      name: 'handoff',
      params: { out: ptr('global', u32) },
      launch: { grid: 4, block: 128 },
      setup: (h) => ({ out: h.alloc(u32, 4 * 64, 'out') }),
      check: (h, { out }) => {
        for (let i = 0; i < 4 * 64; i++) if (h.readNumber(out, u32, i) !== (i % 64) * 3 + 1) return `out[${i}] = ${h.readNumber(out, u32, i)}`;
        return null;
      },
      body: (k, { out }) => {
        const buf = k.shared(u32, [64]);
        const tid = k.threadIdx.x.cast(i32);
        // producer warps 0-1 fill, then signal barrier 1; consumers wait on it
        k.if(tid.lt(64), () => {
          buf.at(tid).store(tid.mul(3).add(1).cast(u32));
          k.barArrive(1, 128);
        }, () => {
          k.barSync(1, 128);
          const c = tid.sub(64);
          out.at(k.blockIdx.x.cast(i32).mul(64).add(c)).store(buf.at(c).get());
        });
      },
    });
    const r = profile(k as unknown as KernelDef<ParamTypes>);
    expect(r.kernels[0]?.check).toEqual({ passed: true });
  });

  it('lets __syncthreads() complete after some threads exited', () => {
    const k = kernel('exit_then_sync', 64, (k, { out }) => {
      k.if(k.threadIdx.x.ge(40), () => k.return());
      k.syncthreads();
      out.at(k.threadIdx.x).store(7);
    });
    expect(profile(k).kernels[0]?.name).toBe('exit_then_sync');
  });
});

describe('*_sync masks', () => {
  it('reports __shfl_sync(0xffffffff) in a loop whose last trip leaves lanes idle (the seed\'s bug)', () => {
    const k = kernel('shfl_full_mask_in_loop', 64, (k, { out }) => {
      const tid = k.threadIdx.x.cast(i32);
      k.for(tid, 40, 64, (i) => {
        const y = k.shfl('idx', i, 0, { mask: 0xffffffff }); // MARK full mask
        out.at(i).store(y.cast(u32));
      });
      // code after the loop: the lanes that skipped it wait to reconverge (a loop that ends the kernel
      // would send them to EXIT, and the message would say they have exited)
      out.at(tid).store(0);
    });
    const { message } = fault(k, 'bad-mask');
    expect(message).toContain(
      `barriers.test.ts:${lineOf('MARK full mask')}: __shfl_sync with mask 0xffffffff in warp 1 of block (0,0,0), kernel 'shfl_full_mask_in_loop': lanes 8,9,10,11,12,13,14,15,… (24 lanes) are not executing this instruction (they diverged); a *_sync mask may name only lanes that execute it (expecting convergence is fine, assuming it is a bug)`,
    );
  });

  it('reports a mask naming a lane that has exited', () => {
    const k = kernel('shfl_after_exit', 32, (k, { out }) => {
      k.if(k.laneId.ge(30), () => k.return());
      const v = k.shfl('down', k.laneId, 1, { mask: 0xffffffff }); // MARK exited
      out.at(k.threadIdx.x).store(v);
    });
    const { message } = fault(k, 'bad-mask');
    expect(message).toContain(`barriers.test.ts:${lineOf('MARK exited')}: __shfl_down_sync with mask 0xffffffff in warp 0 of block (0,0,0), kernel 'shfl_after_exit': lanes 30,31 have exited`);
  });

  it('reports a caller missing from its own mask, and groups that disagree', () => {
    const notNamed = kernel('ballot_not_named', 32, (k, { out }) => {
      out.at(k.threadIdx.x).store(k.vote('ballot', true, 0x0000ffff)); // MARK not named
    });
    expect(fault(notNamed, 'bad-mask').message).toContain(
      `barriers.test.ts:${lineOf('MARK not named')}: __ballot_sync with mask 0x0000ffff in warp 0 of block (0,0,0), kernel 'ballot_not_named': executed by lanes 16,17,18,19,20,21,22,23,… (16 lanes) that the mask does not name (thread (16,0,0) in block (0,0,0)); each calling thread must be in the mask`,
    );
    const disagree = kernel('syncwarp_disagree', 32, (k) => {
      // lanes 0-15 name the whole warp, lanes 16-31 only themselves
      const m = k.select(k.laneId.lt(16), k.u32(0xffffffff), k.u32(0xffff0000));
      k.syncwarp(m); // MARK disagree
    });
    expect(fault(disagree, 'bad-mask').message).toContain(
      `barriers.test.ts:${lineOf('MARK disagree')}: __syncwarp with mask 0xffffffff in warp 0 of block (0,0,0), kernel 'syncwarp_disagree': lane 0 names lane 16, which passes mask 0xffff0000: the threads named in a mask must all pass that same mask`,
    );
  });

  it('accepts per-tile masks and __syncwarp inside a branch that names only its lanes', () => {
    const k = kernel('half_warps', 64, (k, { out }) => {
      const half = k.u32(0xffff).shl(k.laneId.and(16));
      k.syncwarp(half);
      k.if(k.laneId.lt(16), () => k.syncwarp(0xffff), () => k.syncwarp(0xffff0000));
      out.at(k.threadIdx.x).store(k.vote('ballot', k.laneId.lt(4), half));
    });
    expect(profile(k).kernels[0]?.name).toBe('half_warps');
  });
});
