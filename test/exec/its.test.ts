/**
 * Independent thread scheduling (issue 39, src/exec/warp.ts switchPath): a warp's diverged paths make
 * forward progress, so one lane can wait for another lane of the same warp; code without intra-warp
 * waiting runs as before, and a warp whose every path spins is still a deadlock.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defineKernel, i32, ptr } from '../../src/api.js';
import { KernelFault } from '../../src/errors.js';
import { loadDefinitions } from '../../src/kernel/load.js';
import { profileDefinitions } from '../../src/profile.js';

const FILE = fileURLToPath(import.meta.url);

describe('independent thread scheduling', () => {
  it('the bundled intra-warp handoff completes with the producer lane\'s value in every block', async () => {
    const defs = await loadDefinitions('kernels/intra_warp_handoff.ts');
    const r = profileDefinitions(defs, { file: 'kernels/intra_warp_handoff.ts', maxWarpInstructions: 100_000 });
    const k = r.kernels[0];
    expect(k?.check).toEqual({ passed: true });
  });

  it('a consumer in a nested branch and a producer two levels out (paths set aside inside others)', () => {
    const k = defineKernel({
      name: 'nested_handoff',
      params: { flags: ptr('global', i32), out: ptr('global', i32) },
      launch: { grid: 1, block: 32 },
      setup: (h) => ({ flags: h.alloc(i32, 2, 'flags'), out: h.alloc(i32, 32, 'out') }),
      check: (h, { out }) => {
        const got = [0, 1, 2, 3].map((l) => h.readNumber(out, i32, l));
        return got.join(',') === '1,2,3,0' ? null : `out = ${got.join(',')}`;
      },
      body: (k, { flags, out }) => {
        const lane = k.laneId;
        const a = k.atomicRef(flags.at(0), 'block');
        const b = k.atomicRef(flags.at(1), 'block');
        k.if(
          lane.lt(2),
          () => {
            k.if(
              lane.eq(0),
              // lane 0 waits for b, which lane 1 sets only after a, which lane 2 sets
              () => {
                k.while(() => b.load('acquire').eq(0), () => {});
                out.at(0).store(1);
              },
              () => {
                k.while(() => a.load('acquire').eq(0), () => {});
                out.at(1).store(2);
                b.store(1, 'release');
              },
            );
          },
          () => {
            k.if(lane.eq(2), () => {
              out.at(2).store(3);
              a.store(1, 'release');
            });
          },
        );
      },
    });
    const r = profileDefinitions([k], { file: FILE, maxWarpInstructions: 200_000 });
    expect(r.kernels[0]?.check).toEqual({ passed: true });
  });

  it('two lanes that each wait for the other are a deadlock, found before the instruction budget', () => {
    const k = defineKernel({
      name: 'mutual_wait',
      params: { flags: ptr('global', i32) },
      launch: { grid: 1, block: 32 },
      setup: (h) => ({ flags: h.alloc(i32, 2, 'flags') }),
      body: (k, { flags }) => {
        const a = k.atomicRef(flags.at(0), 'block');
        const b = k.atomicRef(flags.at(1), 'block');
        k.if(
          k.laneId.eq(0),
          () => {
            k.while(() => b.load('acquire').eq(0), () => {});
            a.store(1, 'release');
          },
          () => {
            k.while(() => a.load('acquire').eq(0), () => {});
            b.store(1, 'release');
          },
        );
      },
    });
    let fault: unknown;
    try {
      profileDefinitions([k], { file: FILE, maxWarpInstructions: 1_000_000 });
    } catch (e) {
      fault = e;
    }
    expect(fault).toBeInstanceOf(KernelFault);
    expect((fault as KernelFault).kind).toBe('deadlock');
    expect((fault as KernelFault).message).toMatch(/its\.test\.ts:\d+: deadlock in kernel 'mutual_wait': every resident warp spins without progress: 1 warp of block \(0,0,0\) re-read memory that no running warp writes/);
  });
});
