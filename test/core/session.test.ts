/**
 * A kernel file's kernels are independent launches: each one's buffers are freed after it, so a kernel
 * runs at the same device addresses, and reports the same counters, whichever others were selected
 * with it (`-k`), as a CUDA program's cudaMalloc hands freed memory back.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defineKernel, defineProgram, ptr, u32 } from '../../src/api.js';
import { profileDefinitions } from '../../src/profile.js';

const FILE = fileURLToPath(import.meta.url);

function copyKernel(name: string, n: number, seen: number[]) {
  return defineKernel({
    name,
    params: { src: ptr('global', u32), dst: ptr('global', u32) },
    launch: { grid: n / 256, block: 256 },
    setup: (h) => ({ src: h.alloc(u32, n, 'src'), dst: h.alloc(u32, n, 'dst') }),
    check: (_h, { src, dst }) => {
      seen.push(src.address, dst.address);
      return null;
    },
    body: (k, { src, dst }) => {
      const i = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x);
      dst.at(i).store(src.at(i).load());
    },
  });
}

describe('independent kernels of one file', () => {
  it('get the same addresses and counters alone as after other kernels', () => {
    const alone: number[] = [];
    const after: number[] = [];
    const other = copyKernel('big_first', 1 << 20, []);
    const a = profileDefinitions([copyKernel('copy', 1 << 16, alone)], { file: FILE });
    const b = profileDefinitions([other, copyKernel('copy', 1 << 16, after)], { file: FILE });
    expect(after).toEqual(alone);
    expect(alone[1]).toBeGreaterThan(alone[0]!);
    expect(b.kernels[1]!.metrics).toEqual(a.kernels[0]!.metrics);
  });
});

describe('a launch a program runs unprofiled', () => {
  it('leaves the L2 a profiled one leaves (only the timing model is skipped), without a report entry', () => {
    const n = 1 << 18;
    const write = copyKernel('write', n, []);
    const read = copyKernel('read', n, []);
    const program = (profileFirst: boolean) =>
      defineProgram({
        name: 'two',
        run: (ctx) => {
          const h = ctx.host;
          const a = h.alloc(u32, n, 'a');
          const b = h.alloc(u32, n, 'b');
          const c = h.alloc(u32, n, 'c');
          ctx.launch(write, { src: a, dst: b }, undefined, { profile: profileFirst });
          // reads b, which the first launch left dirty in the L2
          ctx.launch(read, { src: b, dst: c });
        },
      });
    const opts = { file: FILE, cacheControl: 'none' as const };
    const both = profileDefinitions([program(true)], opts);
    const last = profileDefinitions([program(false)], opts);
    expect(both.kernels.map((k) => k.name)).toEqual(['write', 'read']);
    expect(last.kernels.map((k) => k.name)).toEqual(['read']);
    const r = last.kernels[0]!.metrics;
    expect(r).toEqual(both.kernels[1]!.metrics);
    // the 1 MiB b is still in the L2: read without DRAM traffic
    expect(Number(r['dram__bytes_read.sum'])).toBe(0);
  });
});
