/**
 * Bad kernels are reported like compute-sanitizer would, on one line naming the place: type errors
 * at build time, out-of-bounds and misaligned accesses, runaway loops, invalid launches.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type Host, defineKernel, f32, i32, ptr, u8, u32 } from '../../src/api.js';
import { profileDefinitions } from '../../src/profile.js';

const FILE = fileURLToPath(import.meta.url);
const profile = (def: Parameters<typeof profileDefinitions>[0][number], extra: Partial<Parameters<typeof profileDefinitions>[1]> = {}) =>
  profileDefinitions([def], { file: FILE, ...extra });
const thisFile = /faults\.test\.ts:\d+/;

describe('build-time errors', () => {
  it('reports a type error with the kernel line', () => {
    const k = defineKernel({
      name: 'mixed',
      params: { out: ptr('global', f32) },
      launch: { grid: 1, block: 32 },
      setup: (h) => ({ out: h.alloc(f32, 32, 'out') }),
      body: (k, { out }) => {
        const t = k.threadIdx.x.cast(i32);
        out.at(t).store(t.add(k.threadIdx.x)); // i32 + u32
      },
    });
    expect(() => profile(k)).toThrowError(/faults\.test\.ts:\d+: type error: add of i32 and u32; convert one side with \.cast\(i32\)/);
  });
  it('reports a cp.async that is not global to shared, or of a size cp.async has not', () => {
    const params = { g: ptr('global', f32), out: ptr('global', f32) };
    const setup = (h: Host) => ({ g: h.alloc(f32, 32, 'g'), out: h.alloc(f32, 32, 'out') });
    const launch = { grid: 1, block: 32 };
    const backwards = defineKernel({ name: 'backwards', params, launch, setup, body: (k, { g, out }) => k.copyAsync(out.at(k.threadIdx.x), g.at(k.threadIdx.x)) });
    expect(() => profile(backwards)).toThrowError(/faults\.test\.ts:\d+: copyAsync copies global to shared memory, not global to global/);
    const narrow = defineKernel({
      name: 'narrow',
      params,
      launch,
      setup,
      body: (k, { g }) => k.copyAsync(k.shared(u8, [32]).at(k.threadIdx.x), g.as(u8).at(k.threadIdx.x)),
    });
    expect(() => profile(narrow)).toThrowError(/faults\.test\.ts:\d+: copyAsync copies 4, 8 or 16 bytes per thread \(cp\.async\), not 1/);
  });
  it('reports a loop that cannot be unrolled', () => {
    const params = { out: ptr('global', u32), n: i32 };
    const base = { params, defaults: { n: 4 }, launch: { grid: 1, block: 32 }, setup: (h: Host) => ({ out: h.alloc(u32, 32, 'out') }) };
    const runtime = defineKernel({ ...base, name: 'runtime_trips', body: (k, { n }) => k.for(0, n, 1, () => k.syncwarp(), { unroll: true }) });
    expect(() => profile(runtime)).toThrowError(/faults\.test\.ts:\d+: k\.for\(\.\.\., \{ unroll: true \}\) needs integer start, end and a positive step written as numbers/);
    const long = defineKernel({ ...base, name: 'long_unroll', body: (k) => k.for(0, 5000, 1, () => k.syncwarp(), { unroll: true }) });
    expect(() => profile(long)).toThrowError(/faults\.test\.ts:\d+: k\.for\(\.\.\., \{ unroll: true \}\) of 5000 trips: unroll at most 1024/);
  });
  it('reports an unknown --param', () => {
    const k = defineKernel({
      name: 'scaled',
      params: { out: ptr('global', f32), scale: f32 },
      defaults: { scale: 2 },
      launch: { grid: 1, block: 32 },
      setup: (h) => ({ out: h.alloc(f32, 32, 'out') }),
      body: (k, { out, scale }) => out.at(k.threadIdx.x).store(scale),
    });
    expect(() => profile(k, { params: { scal: '3' } })).toThrowError("--param scal=3: kernel 'scaled' has no parameter 'scal'; its scalar parameters are scale");
  });
  it('reports a value used outside its block', () => {
    const k = defineKernel({
      name: 'scoped',
      params: { out: ptr('global', u32) },
      launch: { grid: 1, block: 32 },
      setup: (h) => ({ out: h.alloc(u32, 32, 'out') }),
      body: (k, { out }) => {
        let leaked = k.threadIdx.x;
        k.if(k.threadIdx.x.lt(4), () => {
          leaked = k.threadIdx.x.add(1);
        });
        out.at(k.threadIdx.x).store(leaked);
      },
    });
    expect(() => profile(k)).toThrowError(/faults\.test\.ts:\d+: value defined at line \d+ is used outside the block that defines it/);
  });
});

describe('run-time faults', () => {
  it('stops an out-of-bounds read with lane, address, allocation and line', () => {
    const k = defineKernel({
      name: 'oob',
      params: { in: ptr('global', f32), out: ptr('global', f32) },
      launch: { grid: 1, block: 64 },
      setup: (h) => ({ in: h.alloc(f32, 48, 'in'), out: h.alloc(f32, 64, 'out') }),
      body: (k, { in: src, out }) => {
        const t = k.threadIdx.x;
        out.at(t).store(src.at(t).get());
      },
    });
    let message = '';
    try {
      profile(k);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(thisFile);
    expect(message).toMatch(/invalid global read of 4 bytes at 0x[0-9a-f]+ by thread \(48,0,0\) in block \(0,0,0\) in kernel 'oob': 0 bytes after the end of allocation 'in' \(192 bytes at 0x[0-9a-f]+\)/);
    expect(message.split('\n')).toHaveLength(1);
  });
  it('stops a misaligned access', () => {
    const k = defineKernel({
      name: 'misaligned',
      params: { buf: ptr('global', u32) },
      launch: { grid: 1, block: 32 },
      setup: (h) => ({ buf: h.alloc(u32, 64, 'buf') }),
      body: (k, { buf }) => buf.addBytes(2).at(k.threadIdx.x).store(1),
    });
    expect(() => profile(k)).toThrowError(/misaligned global access of 4 bytes .* by thread \(0,0,0\) in block \(0,0,0\)/);
  });
  it('stops a runaway loop at the instruction budget', () => {
    const k = defineKernel({
      name: 'forever',
      params: { out: ptr('global', u32) },
      launch: { grid: 1, block: 32 },
      setup: (h) => ({ out: h.alloc(u32, 32, 'out') }),
      body: (k, { out }) => {
        const n = k.let(u32, 0);
        k.while(() => n.ge(0), () => n.set(n.add(1)));
        out.at(k.threadIdx.x).store(n);
      },
    });
    const t0 = Date.now();
    expect(() => profile(k, { maxWarpInstructions: 100_000 })).toThrowError(/faults\.test\.ts:\d+: runaway loop: warp 0 of block \(0,0,0\) in kernel 'forever' executed more than 100,000 instructions/);
    expect(Date.now() - t0).toBeLessThan(5000);
  });
  it('rejects an invalid launch before running', () => {
    const k = defineKernel({
      name: 'huge_block',
      params: { out: ptr('global', u32) },
      launch: { grid: 1, block: 2048 },
      setup: (h) => ({ out: h.alloc(u32, 32, 'out') }),
      body: (k, { out }) => out.at(k.threadIdx.x).store(1),
    });
    expect(() => profile(k)).toThrowError("invalid launch of 'huge_block' <<<(1,1,1), (2048,1,1)>>>: 2048 threads per block; the maximum is 1024 (cudaErrorInvalidConfiguration)");
  });
});
