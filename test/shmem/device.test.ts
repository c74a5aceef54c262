/**
 * NVSHMEM device operations (issue 43 item 3) on the loopback 2-PE (loopback.ts): data, signals and
 * atomics land in the peer's copy and nowhere else, traffic is counted per peer and kind, the SASS
 * counts are those of NVSHMEM 3.4.5's inline code on sm_90 (test/fidelity/probes/nvshmem_device_sass),
 * waits complete when satisfied and park when nobody writes, and the located errors: a cooperative
 * call from part of its group, a device barrier outside a collective launch, NVSHMEM outside PEs.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defineKernel, f32, i32, i64, ptr, u64, type KernelBuilder, type PtrVal } from '../../src/api.js';
import { getArch } from '../../src/arch/index.js';
import { H200_NVLINK4 as H200_LINK } from '../../src/arch/interconnect.js';
import { remoteLinkOf } from '../../src/arch/remoteLink.js';
import { KernelFault } from '../../src/errors.js';
import type { DevicePtr } from '../../src/memory/deviceMemory.js';
import { lineInstructions, Loopback, opcodeCounts } from './loopback.js';

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

const noSetup = () => ({});
const pe0 = (s: { copies: DevicePtr[] }): DevicePtr => s.copies[0] as DevicePtr;
const pe1 = (s: { copies: DevicePtr[] }): DevicePtr => s.copies[1] as DevicePtr;

/** the line of this file that holds `text` (where a kernel's NVSHMEM call is) */
const lineOf = (text: string): number => readFileSync(FILE, 'utf8').split('\n').findIndex((l) => l.includes(text)) + 1;

describe('p and g', () => {
  it('nvshmem_float_p stores each thread\'s value into PE 1\'s copy; 9 address instructions and an ST.E per warp', () => {
    const lb = new Loopback();
    const dest = lb.symmetric(f32, 64, 'dest');
    const k = defineKernel({
      name: 'shmem_p',
      params: { dest: ptr('global', f32) },
      launch: { grid: 1, block: 64 },
      setup: noSetup,
      body: (k, { dest }) => {
        const t = k.threadIdx.x.cast(i32);
        k.shmem.p(dest.add(t), t.cast(f32).mul(1.5), 1);
      },
    });
    const r = lb.run(k, FILE, { dest: pe0(dest) }, [1, 1, 1], [64, 1, 1]);
    for (let i = 0; i < 64; i++) {
      expect(lb.host.readNumber(pe1(dest), f32, i)).toBe(i * 1.5);
      expect(lb.host.readNumber(pe0(dest), f32, i)).toBe(0);
    }
    expect(Object.fromEntries(lb.traffic)).toEqual({ 'p 1': 64 * 4 });
    // one traffic call per warp instruction (all lanes to PE 1)
    expect(lb.trafficCalls).toBe(2);
    const ops = opcodeCounts(r);
    expect(ops.get('ST.E')).toBe(2);
    expect(ops.get('LDG.E.64.CONSTANT')).toBe(2);
    expect(ops.get('IADD3.X')).toBe(2);
    // the call's SASS as NVSHMEM compiles it (k_p): LDC.64 IMAD.WIDE LDG.E.64.CONSTANT ISETP.NE.U32.AND
    // ISETP.NE.AND.EX BRA ULDC.64 IADD3 IADD3.X ST.E; the line also has dest.add(t)'s LEA, the value's
    // I2F and FMUL, and the kernel's EXIT
    const line = lineOf('k.shmem.p(dest.add(t), t.cast(f32).mul(1.5), 1)');
    const opcodes = r.prog.meta.filter((m) => m.counted && m.line === line).map((m) => m.opcode);
    expect(opcodes.join(' ')).toBe('LEA I2F FMUL LDC.64 IMAD.WIDE LDG.E.64.CONSTANT ISETP.NE.U32.AND ISETP.NE.AND.EX BRA ULDC.64 IADD3 IADD3.X ST.E EXIT');
    expect(lineInstructions(r, line)).toBe(2 * 14);
  });

  it('nvshmem_float_g loads PE 1\'s copy', () => {
    const lb = new Loopback();
    const src = lb.symmetric(f32, 64, 'src', (pe, i) => (pe === 1 ? i * 3 : -1));
    const out = lb.host.alloc(f32, 64, 'out');
    const k = defineKernel({
      name: 'shmem_g',
      params: { src: ptr('global', f32), out: ptr('global', f32) },
      launch: { grid: 1, block: 64 },
      setup: noSetup,
      body: (k, { src, out }) => {
        const t = k.threadIdx.x.cast(i32);
        out.at(t).store(k.shmem.g(src.add(t), 1));
      },
    });
    const r = lb.run(k, FILE, { src: pe0(src), out }, [1, 1, 1], [64, 1, 1]);
    for (let i = 0; i < 64; i++) expect(lb.host.readNumber(out, f32, i)).toBe(i * 3);
    expect(Object.fromEntries(lb.traffic)).toEqual({ 'g 1': 256 });
    expect(opcodeCounts(r).get('LD.E')).toBe(2);
  });

  it('an address outside the symmetric object is a located fault', () => {
    const lb = new Loopback();
    const dest = lb.symmetric(f32, 32, 'dest');
    const src = lb.host.alloc(f32, 40, 'src');
    const k = defineKernel({
      name: 'shmem_put_oob',
      params: { dest: ptr('global', f32), src: ptr('global', f32) },
      launch: { grid: 1, block: 64 },
      setup: noSetup,
      body: (k, { dest, src }) => k.if(k.threadIdx.x.eq(33), () => k.shmem.put(dest.add(2), src, 31, 1)),
    });
    const f = faultOf(() => lb.run(k, FILE, { dest: pe0(dest), src }, [1, 1, 1], [64, 1, 1]));
    expect(f.kind).toBe('out-of-bounds');
    expect(f.message).toMatch(/device\.test\.ts:\d+: nvshmem_float_put in kernel 'shmem_put_oob', thread \(33,0,0\) in block \(0,0,0\): 124 bytes at offset 8 leave the 128-byte symmetric object$/);
    expect(lb.traffic.size).toBe(0);
  });

  it('outside a multi-PE program an NVSHMEM call is a located fault', () => {
    const lb = new Loopback();
    const dest = lb.symmetric(f32, 32, 'dest');
    const k = defineKernel({
      name: 'shmem_alone',
      params: { dest: ptr('global', f32) },
      launch: { grid: 1, block: 32 },
      setup: noSetup,
      body: (k, { dest }) => k.shmem.p(dest, 1, 1),
    });
    const f = faultOf(() => lb.run(k, FILE, { dest: pe0(dest) }, [1, 1, 1], [32, 1, 1], { peers: false }));
    expect(f.kind).toBe('invalid-launch');
    expect(f.message).toMatch(/device\.test\.ts:\d+: nvshmem_float_p in kernel 'shmem_alone' runs outside a multi-PE program/);
  });
});

describe('put and get', () => {
  it('a thread\'s put of 10 floats: two 16-byte chunks and two elements, all in PE 1\'s copy', () => {
    const lb = new Loopback();
    const dest = lb.symmetric(f32, 16, 'dest');
    const src = lb.host.alloc(f32, 16, 'src', (i) => i + 0.25);
    const k = defineKernel({
      name: 'shmem_put',
      params: { dest: ptr('global', f32), src: ptr('global', f32) },
      launch: { grid: 1, block: 32 },
      setup: noSetup,
      body: (k, { dest, src }) => k.if(k.threadIdx.x.eq(0), () => k.shmem.put(dest, src, 10, 1)),
    });
    const r = lb.run(k, FILE, { dest: pe0(dest), src }, [1, 1, 1], [32, 1, 1]);
    for (let i = 0; i < 16; i++) expect(lb.host.readNumber(pe1(dest), f32, i)).toBe(i < 10 ? i + 0.25 : 0);
    expect(Object.fromEntries(lb.traffic)).toEqual({ 'put 1': 40 });
    const ops = opcodeCounts(r);
    expect(ops.get('ST.E.128')).toBe(2);
    expect(ops.get('ST.E')).toBe(2);
    // one translation for the whole copy
    expect(ops.get('LDG.E.64.CONSTANT')).toBe(1);
  });

  it('put_nbi_block of 300 floats by 64 threads: 75 chunks strided over the block', () => {
    const lb = new Loopback();
    const dest = lb.symmetric(f32, 300, 'dest');
    const src = lb.host.alloc(f32, 300, 'src', (i) => 2 * i);
    const k = defineKernel({
      name: 'shmem_put_block',
      params: { dest: ptr('global', f32), src: ptr('global', f32) },
      launch: { grid: 1, block: 64 },
      setup: noSetup,
      body: (k, { dest, src }) => k.shmem.put_nbi_block(dest, src, 300, 1),
    });
    const r = lb.run(k, FILE, { dest: pe0(dest), src }, [1, 1, 1], [64, 1, 1]);
    for (let i = 0; i < 300; i++) expect(lb.host.readNumber(pe1(dest), f32, i)).toBe(2 * i);
    expect(Object.fromEntries(lb.traffic)).toEqual({ 'put 1': 1200 });
    const ops = opcodeCounts(r);
    // 75 chunks over 64 threads: every lane of both warps once, lanes 0-10 of warp 0 twice: 3 warp stores
    expect(ops.get('ST.E.128')).toBe(3);
    expect(ops.get('ST.E')).toBeUndefined();
    // group syncs before and after (nvshmemi_put_nbi_threadgroup)
    expect(ops.get('BAR.SYNC')).toBe(4);
  });

  it('get_warp of 50 floats, unaligned source: element by element into local memory', () => {
    const lb = new Loopback();
    const src = lb.symmetric(f32, 64, 'src', (pe, i) => (pe === 1 ? 100 + i : -1));
    const out = lb.host.alloc(f32, 64, 'out');
    const k = defineKernel({
      name: 'shmem_get_warp',
      params: { src: ptr('global', f32), out: ptr('global', f32) },
      launch: { grid: 1, block: 32 },
      setup: noSetup,
      body: (k, { src, out }) => k.shmem.get_warp(out, src.add(1), 50, 1),
    });
    const r = lb.run(k, FILE, { src: pe0(src), out }, [1, 1, 1], [32, 1, 1]);
    for (let i = 0; i < 64; i++) expect(lb.host.readNumber(out, f32, i)).toBe(i < 50 ? 101 + i : 0);
    expect(Object.fromEntries(lb.traffic)).toEqual({ 'get 1': 200 });
    expect(opcodeCounts(r).get('LD.E')).toBe(2);
    expect(opcodeCounts(r).get('LD.E.128')).toBeUndefined();
  });
});

describe('cooperative calls from part of the group', () => {
  it('put_warp called by lanes 0-15: names the lanes that did not call it', () => {
    const lb = new Loopback();
    const dest = lb.symmetric(f32, 64, 'dest');
    const src = lb.host.alloc(f32, 64, 'src');
    const k = defineKernel({
      name: 'shmem_half_warp',
      params: { dest: ptr('global', f32), src: ptr('global', f32) },
      launch: { grid: 1, block: 64 },
      setup: noSetup,
      body: (k, { dest, src }) => k.if(k.laneId.lt(16), () => k.shmem.put_warp(dest, src, 32, 1)),
    });
    const f = faultOf(() => lb.run(k, FILE, { dest: pe0(dest), src }, [1, 1, 1], [64, 1, 1]));
    expect(f.kind).toBe('bad-mask');
    expect(f.message).toMatch(
      /device\.test\.ts:\d+: nvshmemx_float_put_warp called by part of a warp in kernel 'shmem_half_warp': lanes 0-15 of warp 0 of block \(0,0,0\) called it, lanes 16-31 did not \(exited or on another path\); a _warp operation must be called by all 32 threads of the warp/,
    );
    expect(f.message.split('\n')).toHaveLength(1);
  });

  it('put_block called by warp 0 of a 96-thread block: names warps 1-2, their threads', () => {
    const lb = new Loopback();
    const dest = lb.symmetric(f32, 64, 'dest');
    const src = lb.host.alloc(f32, 64, 'src');
    const k = defineKernel({
      name: 'shmem_part_block',
      params: { dest: ptr('global', f32), src: ptr('global', f32) },
      launch: { grid: 1, block: 96 },
      setup: noSetup,
      body: (k, { dest, src }) => k.if(k.threadIdx.x.lt(32), () => k.shmem.put_block(dest, src, 64, 1)),
    });
    const f = faultOf(() => lb.run(k, FILE, { dest: pe0(dest), src }, [1, 1, 1], [96, 1, 1]));
    expect(f.kind).toBe('bad-mask');
    expect(f.message).toMatch(
      /device\.test\.ts:\d+: nvshmemx_float_put_block called by part of block \(0,0,0\) in kernel 'shmem_part_block': warps 1-2 \(threads 32-63, 64-95\) did not call it/,
    );
    expect(lb.traffic.size).toBe(0);
  });

  it('the whole block calling put_block twice in a loop is no error', () => {
    const lb = new Loopback();
    const dest = lb.symmetric(f32, 256, 'dest');
    const src = lb.host.alloc(f32, 256, 'src', (i) => i);
    const k = defineKernel({
      name: 'shmem_block_loop',
      params: { dest: ptr('global', f32), src: ptr('global', f32) },
      launch: { grid: 1, block: 96 },
      setup: noSetup,
      body: (k, { dest, src }) => k.for(0, 2, 1, (r) => k.shmem.put_block(dest.add(r.mul(128)), src.add(r.mul(128)), 128, 1)),
    });
    lb.run(k, FILE, { dest: pe0(dest), src }, [1, 1, 1], [96, 1, 1]);
    for (let i = 0; i < 256; i++) expect(lb.host.readNumber(pe1(dest), f32, i)).toBe(i);
    expect(Object.fromEntries(lb.traffic)).toEqual({ 'put 1': 1024 });
  });
});

describe('atomics and signals', () => {
  it('atomic_inc, fetch_add, compare_swap, fetch, set on PE 1', () => {
    const lb = new Loopback();
    const x = lb.symmetric(i64, 8, 'x');
    const out = lb.host.alloc(i64, 64, 'out');
    const won = lb.host.alloc(i32, 64, 'won');
    const k = defineKernel({
      name: 'shmem_amo',
      params: { x: ptr('global', i64), out: ptr('global', i64), won: ptr('global', i32) },
      launch: { grid: 1, block: 64 },
      setup: noSetup,
      body: (k, { x, out, won }) => {
        const t = k.threadIdx.x.cast(i32);
        k.shmem.atomic_inc(x, 1);
        out.at(t).store(k.shmem.atomic_fetch_add(x.add(1), k.i64(2), 1));
        const old = k.shmem.atomic_compare_swap(x.add(2), k.i64(0), t.cast(i64).add(k.i64(1)), 1);
        won.at(t).store(k.select(old.eq(k.i64(0)), k.i32(1), k.i32(0)));
        k.shmem.atomic_set(x.add(3), k.i64(77), 1);
        k.when(t.eq(0), () => x.add(4).store(k.shmem.atomic_fetch(x.add(3), 1)));
      },
    });
    const r = lb.run(k, FILE, { x: pe0(x), out, won }, [1, 1, 1], [64, 1, 1]);
    // the AMO path of k_aset: connectivity test, translation without a null test, ATOM.E.EXCH (x.add(3)'s LEA first)
    const setLine = lineOf('k.shmem.atomic_set(x.add(3), k.i64(77), 1);');
    expect(r.prog.meta.filter((m) => m.counted && m.line === setLine).map((m) => m.opcode).join(' ')).toBe(
      'LEA LDC ISETP.GE.AND BRA LDC.64 IMAD.WIDE LDC.64 LDG.E.64.CONSTANT IADD3 IADD3.X ATOM.E.EXCH.64.STRONG.SYS',
    );
    const h = lb.host;
    expect(h.read(pe1(x), i64, 0)).toBe(64n);
    expect(h.read(pe1(x), i64, 1)).toBe(128n);
    // each thread got a distinct old value of the fetch_add: 0, 2, …, 126
    const olds = Array.from({ length: 64 }, (_, i) => Number(h.read(out, i64, i))).sort((a, b) => a - b);
    expect(olds).toEqual(Array.from({ length: 64 }, (_, i) => 2 * i));
    // exactly one compare_swap won; the value is the winner's
    const winners = Array.from({ length: 64 }, (_, i) => h.readNumber(won, i32, i)).map((w, i) => (w ? i : -1)).filter((i) => i >= 0);
    expect(winners).toHaveLength(1);
    expect(h.read(pe1(x), i64, 2)).toBe(BigInt((winners[0] as number) + 1));
    expect(h.read(pe1(x), i64, 3)).toBe(77n);
    // the fetch read PE 1's value into PE 0's own x[4]
    expect(h.read(pe0(x), i64, 4)).toBe(77n);
    for (let i = 0; i < 4; i++) expect(h.read(pe0(x), i64, i)).toBe(0n);
    // 64 threads × 4 AMOs × 8 bytes, and thread 0's fetch
    expect(Object.fromEntries(lb.traffic)).toEqual({ 'atomic 1': 64 * 4 * 8 + 8 });
  });

  it('put_signal (SET) lands the data and the signal; signal_op ADD from 64 threads adds 64', () => {
    const lb = new Loopback();
    const dest = lb.symmetric(f32, 8, 'dest');
    const sig = lb.symmetric(u64, 2, 'sig');
    const src = lb.host.alloc(f32, 8, 'src', (i) => 10 + i);
    const k = defineKernel({
      name: 'shmem_signal',
      params: { dest: ptr('global', f32), src: ptr('global', f32), sig: ptr('global', u64) },
      launch: { grid: 1, block: 64 },
      setup: noSetup,
      body: (k, { dest, src, sig }) => {
        k.if(k.threadIdx.x.eq(0), () => k.shmem.put_signal(dest, src, 8, sig, k.u64(5), 'set', 1));
        k.shmem.signal_op(sig.add(1), k.u64(1), 'add', 1);
      },
    });
    const r = lb.run(k, FILE, { dest: pe0(dest), src, sig: pe0(sig) }, [1, 1, 1], [64, 1, 1]);
    for (let i = 0; i < 8; i++) expect(lb.host.readNumber(pe1(dest), f32, i)).toBe(10 + i);
    expect(lb.host.read(pe1(sig), u64, 0)).toBe(5n);
    expect(lb.host.read(pe1(sig), u64, 1)).toBe(64n);
    expect(Object.fromEntries(lb.traffic)).toEqual({ 'put 1': 32, 'signal 1': 8 + 64 * 8 });
    const ops = opcodeCounts(r);
    expect(ops.get('ST.E.64.STRONG.SYS')).toBe(1);
    expect(ops.get('ATOM.E.ADD.64.STRONG.SYS')).toBe(2);
  });
});

describe('waits', () => {
  it('wait_until on a value already there completes after one poll; test, signal_fetch and signal_wait_until read it', () => {
    const lb = new Loopback();
    const flag = lb.symmetric(u64, 4, 'flag', (pe, i) => (pe === 0 ? BigInt(5 + i) : 0n));
    const ivars = lb.symmetric(i32, 4, 'ivars', (pe, i) => (pe === 0 ? [0, 3, 9, 3][i] ?? 0 : 0));
    const status = lb.host.alloc(i32, 4, 'status', (i) => (i === 2 ? 1 : 0));
    const out = lb.host.alloc(i64, 8, 'out');
    const idx = lb.host.alloc(i32, 4, 'idx');
    const k = defineKernel({
      name: 'shmem_waits',
      params: { flag: ptr('global', u64), ivars: ptr('global', i32), status: ptr('global', i32), out: ptr('global', i64), idx: ptr('global', i32) },
      launch: { grid: 1, block: 32 },
      setup: noSetup,
      body: (k, { flag, ivars, status, out, idx }) => {
        k.shmem.wait_until(flag, 'ge', 5);
        out.at(0).store(k.shmem.signal_wait_until(flag.add(1), 'eq', 6).bitcast(i64));
        out.at(1).store(k.shmem.signal_fetch(flag.add(2)).bitcast(i64));
        out.at(2).store(k.shmem.test(ivars.add(1), 'eq', 3).cast(i64));
        out.at(3).store(k.shmem.test(ivars.add(1), 'gt', 3).cast(i64));
        k.shmem.wait_until_all(ivars.add(1), 3, status.add(1), 'le', 3);
        out.at(4).store(k.shmem.wait_until_any(ivars, 4, status, 'gt', 2).bitcast(i64));
        out.at(5).store(k.shmem.wait_until_some(ivars, 4, idx, status, 'eq', 3).cast(i64));
        out.at(6).store(k.shmem.wait_until_any(ivars, 1, status.add(2), 'gt', 2).bitcast(i64));
      },
    });
    lb.run(k, FILE, { flag: pe0(flag), ivars: pe0(ivars), status, out, idx }, [1, 1, 1], [32, 1, 1]);
    const h = lb.host;
    expect(h.read(out, i64, 0)).toBe(6n);
    expect(h.read(out, i64, 1)).toBe(7n);
    expect(h.read(out, i64, 2)).toBe(1n);
    expect(h.read(out, i64, 3)).toBe(0n);
    // ivars 0 3 9 3, status 0 0 1 0: the first eligible > 2 is index 1; == 3: indices 1 and 3
    expect(h.read(out, i64, 4)).toBe(1n);
    expect(h.read(out, i64, 5)).toBe(2n);
    expect([h.readNumber(idx, i32, 0), h.readNumber(idx, i32, 1)]).toEqual([1, 3]);
    // no eligible ivar: SIZE_MAX
    expect(h.read(out, i64, 6)).toBe(-1n);
    expect(lb.traffic.size).toBe(0);
  });

  it('wait_until on a value nobody writes parks: a deadlock fault when the PE runs alone, long before the budget', () => {
    const lb = new Loopback();
    const flag = lb.symmetric(u64, 1, 'flag');
    const k = defineKernel({
      name: 'shmem_wait_forever',
      params: { flag: ptr('global', u64) },
      launch: { grid: 1, block: 32 },
      setup: noSetup,
      body: (k, { flag }) => k.shmem.wait_until(flag, 'eq', 1),
    });
    const f = faultOf(() => lb.run(k, FILE, { flag: pe0(flag) }, [1, 1, 1], [32, 1, 1], { maxWarpInstructions: 1_000_000 }));
    expect(f.kind).toBe('deadlock');
    expect(f.message).toMatch(/device\.test\.ts:\d+: deadlock in kernel 'shmem_wait_forever': every resident warp spins without progress: 1 warp of block \(0,0,0\) re-read memory that no running warp writes/);
  });
});

describe('ordering and collectives', () => {
  it('quiet and fence: __threadfence_system as NVSHMEM compiles it (12 instructions, one MEMBAR.SC.SYS)', () => {
    const lb = new Loopback();
    const out = lb.host.alloc(i32, 64, 'out');
    const k = defineKernel({
      name: 'shmem_quiet',
      params: { out: ptr('global', i32) },
      launch: { grid: 1, block: 64 },
      setup: noSetup,
      body: (k, { out }) => {
        k.shmem.quiet();
        k.shmem.fence();
        out.at(k.threadIdx.x).store(k.shmem.my_pe().mul(100).add(k.shmem.n_pes()));
      },
    });
    const r = lb.run(k, FILE, { out }, [1, 1, 1], [64, 1, 1]);
    const ops = opcodeCounts(r);
    expect(ops.get('MEMBAR.SC.SYS')).toBe(4);
    expect(ops.get('CCTL.IVALL')).toBe(4);
    expect(ops.get('LDS')).toBe(16);
    // the predicated-off LDS have no thread predicated on
    let ldsOn = 0;
    r.prog.meta.forEach((m, s) => {
      if (m.opcode === 'LDS') ldsOn += r.counters.threadsPredOn[s] as number;
    });
    expect(ldsOn).toBe(0);
    expect(lb.host.readNumber(out, i32, 5)).toBe(2);
  });

  it('a device barrier outside a collective launch is a one-line located error', () => {
    const lb = new Loopback();
    const k = defineKernel({
      name: 'shmem_barrier_plain',
      params: {},
      launch: { grid: 1, block: 32 },
      setup: noSetup,
      body: (k) => k.if(k.threadIdx.x.eq(0), () => k.shmem.barrier_all()),
    });
    const f = faultOf(() => lb.run(k, FILE, {}, [1, 1, 1], [32, 1, 1], { collective: false }));
    expect(f.kind).toBe('invalid-launch');
    expect(f.message).toMatch(/^.*device\.test\.ts:\d+: device barrier outside a collective launch: nvshmem_barrier_all in kernel 'shmem_barrier_plain'/);
    expect(f.message.split('\n')).toHaveLength(1);
  });

  it('barrier_all in a collective launch: signals PE 1, waits for PE 1\'s signal, counts one barrier', () => {
    const lb = new Loopback();
    // PE 1 has already arrived: its round-0 signal (barrier count 1) is in PE 0's pSync[1]
    lb.host.write(pe0(lb.barrier), i64, 1, 1n);
    const k = defineKernel({
      name: 'shmem_barrier',
      params: {},
      launch: { grid: 1, block: 32 },
      setup: noSetup,
      body: (k) => k.if(k.threadIdx.x.eq(0), () => k.shmem.barrier_all()),
    });
    lb.run(k, FILE, {}, [1, 1, 1], [32, 1, 1], { collective: true });
    // PE 0 told PE 1 (pSync[0] on PE 1) and counted the barrier (its counter word, after nPes pSync words)
    expect(lb.host.read(pe1(lb.barrier), i64, 0)).toBe(1n);
    expect(lb.host.read(pe0(lb.barrier), i64, 2)).toBe(1n);
    expect(Object.fromEntries(lb.traffic)).toEqual({ 'signal 1': 8 });
  });

  it('barrier_all when PE 1 never arrives parks: a deadlock', () => {
    const lb = new Loopback();
    const k = defineKernel({
      name: 'shmem_barrier_alone',
      params: {},
      launch: { grid: 1, block: 32 },
      setup: noSetup,
      body: (k) => k.if(k.threadIdx.x.eq(0), () => k.shmem.sync_all()),
    });
    const f = faultOf(() => lb.run(k, FILE, {}, [1, 1, 1], [32, 1, 1], { collective: true }));
    expect(f.kind).toBe('deadlock');
  });
});

describe('timing over the link (H200 NVLink 4 figures: src/arch/interconnect.ts through remoteLink.ts)', () => {
  const H200_NVLINK4 = remoteLinkOf(H200_LINK) ?? undefined;
  it('the link derives from the measured interconnect', () => {
    expect(H200_NVLINK4).toEqual({ loadNs: 1011, storeAckNs: 1167 - 688.7, smBytesPerNs: 45.05, linkBytesPerNs: 369.4, sysFenceNs: 688.7, storeIssueNs: 128.3 });
  });
  const ns = (r: { metrics?: Record<string, number> }): number => r.metrics?.['gpu__time_duration.sum'] as number;

  it('p + quiet, repeated by one thread: the acknowledgement and the fence per iteration', () => {
    const run = (iters: number): number => {
      const lb = new Loopback();
      const dest = lb.symmetric(i32, 1, 'dest');
      const k = defineKernel({
        name: 'shmem_p_quiet',
        params: { dest: ptr('global', i32) },
        launch: { grid: 1, block: 1 },
        setup: noSetup,
        body: (k, { dest }) =>
          k.for(0, iters, 1, (i) => {
            k.shmem.p(dest, i, 1);
            k.shmem.quiet();
          }),
      });
      return ns(lb.run(k, FILE, { dest: pe0(dest) }, [1, 1, 1], [1, 1, 1], { link: H200_NVLINK4 }));
    };
    const perIter = (run(101) - run(1)) / 100;
    // measured on two H200s: int_p+quiet 1167 ns per op (test/fidelity/probes/nvshmem/summary.md)
    expect(perIter).toBeGreaterThan(1167 * 0.9);
    expect(perIter).toBeLessThan(1167 * 1.1);
  });

  it('p back to back by one thread, one quiet at the end: one store per issue interval', () => {
    const run = (iters: number): number => {
      const lb = new Loopback();
      const dest = lb.symmetric(i32, 1, 'dest');
      const k = defineKernel({
        name: 'shmem_p_issue',
        params: { dest: ptr('global', i32) },
        launch: { grid: 1, block: 1 },
        setup: noSetup,
        body: (k, { dest }) => {
          k.for(0, iters, 1, (i) => k.shmem.p(dest, i, 1));
          k.shmem.quiet();
        },
      });
      return ns(lb.run(k, FILE, { dest: pe0(dest) }, [1, 1, 1], [1, 1, 1], { link: H200_NVLINK4 }));
    };
    const perP = (run(201) - run(1)) / 200;
    // measured: int_p_issue 128.3 ns per nvshmem_int_p (test/fidelity/probes/nvshmem/summary.md)
    expect(perP).toBeGreaterThan(128.3 * 0.95);
    expect(perP).toBeLessThan(128.3 * 1.1);
  });

  it('a chain of dependent g: the remote load latency per link', () => {
    const run = (iters: number): number => {
      const lb = new Loopback();
      const src = lb.symmetric(i32, 1, 'src');
      const out = lb.host.alloc(i32, 1, 'out');
      const k = defineKernel({
        name: 'shmem_g_chain',
        params: { src: ptr('global', i32), out: ptr('global', i32) },
        launch: { grid: 1, block: 1 },
        setup: noSetup,
        body: (k, { src, out }) => {
          const acc = k.let(i32, 0);
          k.for(0, iters, 1, () => acc.set(k.shmem.g(src.add(acc.and(0)), 1).add(acc)));
          out.store(acc);
        },
      });
      return ns(lb.run(k, FILE, { src: pe0(src), out }, [1, 1, 1], [1, 1, 1], { link: H200_NVLINK4 }));
    };
    const perLoad = (run(101) - run(1)) / 100;
    expect(perLoad).toBeGreaterThan(1011);
    expect(perLoad).toBeLessThan(1011 * 1.15);
  });

  it('put_nbi_block of 2 MiB from 8 CTAs, then quiet: within 15 % of the 7765 ns measured (270 GB/s)', () => {
    const lb = new Loopback();
    const n = 512 * 1024;
    const dest = lb.symmetric(f32, n, 'dest');
    const src = lb.host.alloc(f32, n, 'src', (i) => i);
    const k = defineKernel({
      name: 'shmem_put_bw',
      params: { dest: ptr('global', f32), src: ptr('global', f32) },
      launch: { grid: 8, block: 1024 },
      setup: noSetup,
      body: (k, { dest, src }) => {
        const chunk = n / 8;
        const off = k.blockIdx.x.cast(i32).mul(chunk);
        k.shmem.put_nbi_block(dest.add(off), src.add(off), chunk, 1);
        k.if(k.threadIdx.x.eq(0), () => k.shmem.quiet());
      },
    });
    const r = lb.run(k, FILE, { dest: pe0(dest), src }, [8, 1, 1], [1024, 1, 1], { link: H200_NVLINK4 });
    expect(lb.host.readNumber(pe1(dest), f32, n - 1)).toBe(n - 1);
    // the measurement's iteration is put + quiet inside a long-running kernel: compare without the launch overhead
    const t = ns(r) - getArch('h200').launchOverheadNs;
    expect(t).toBeGreaterThan(7765 * 0.85);
    expect(t).toBeLessThan(7765 * 1.15);
  });
});

describe('more of the lowering', () => {
  it('a wait that another warp ends: one LDG, ISETP, ISETP.EX and BRA per poll (k_wait\'s loop), not parked', () => {
    const lb = new Loopback();
    const flag = lb.symmetric(u64, 1, 'flag');
    const out = lb.host.alloc(i32, 64, 'out');
    const k = defineKernel({
      name: 'shmem_wait_woken',
      params: { flag: ptr('global', u64), out: ptr('global', i32) },
      launch: { grid: 1, block: 64 },
      setup: noSetup,
      body: (k, { flag, out }) => {
        const w = k.threadIdx.x.cast(i32).shr(5);
        k.if(w.eq(0), () => {
          k.shmem.wait_until(flag, 'eq', 1);
        }, () => {
          const acc = k.let(i32, 0);
          k.for(0, 3000, 1, (i) => acc.set(acc.add(i)));
          out.at(k.threadIdx.x).store(acc);
          k.when(k.laneId.eq(0), () => flag.store(k.u64(1), { cache: 'strong' }));
        });
      },
    });
    const r = lb.run(k, FILE, { flag: pe0(flag), out }, [1, 1, 1], [64, 1, 1]);
    const line = lineOf("k.shmem.wait_until(flag, 'eq', 1);");
    const count = (op: string | RegExp): number =>
      r.prog.meta.reduce((n, m, s) => n + (m.line === line && (typeof op === 'string' ? m.opcode === op : op.test(m.opcode)) ? (r.counters.inst[s] as number) : 0), 0);
    // a volatile load: LDG.E.64.STRONG.SYS in the probe's SASS (the opcode's scope is the memory model's business)
    const polls = count(/^LDG\.E\.64\.STRONG\./);
    expect(polls).toBeGreaterThan(10);
    expect(count('ISETP')).toBe(polls);
    expect(count('ISETP.EX')).toBe(polls);
    expect(count('BRA')).toBe(polls);
    expect(lb.host.readNumber(out, i32, 40)).toBe((2999 * 3000) / 2);
  });

  it('lanes addressing different PEs: traffic per peer', () => {
    const lb = new Loopback(4);
    const dest = lb.symmetric(i32, 32, 'dest');
    const k = defineKernel({
      name: 'shmem_p_spread',
      params: { dest: ptr('global', i32) },
      launch: { grid: 1, block: 32 },
      setup: noSetup,
      body: (k, { dest }) => {
        const t = k.threadIdx.x.cast(i32);
        k.shmem.p(dest.add(t), t, t.and(3));
      },
    });
    lb.run(k, FILE, { dest: pe0(dest) }, [1, 1, 1], [32, 1, 1]);
    expect(Object.fromEntries(lb.traffic)).toEqual({ 'p 0': 32, 'p 1': 32, 'p 2': 32, 'p 3': 32 });
    for (let pe = 0; pe < 4; pe++)
      for (let i = 0; i < 32; i++) expect(lb.host.readNumber(dest.copies[pe] as DevicePtr, i32, i)).toBe(i % 4 === pe ? i : 0);
  });

  it('wait_until_any on ivars nobody writes parks as well', () => {
    const lb = new Loopback();
    const ivars = lb.symmetric(i32, 4, 'ivars');
    const out = lb.host.alloc(i64, 1, 'out');
    const k = defineKernel({
      name: 'shmem_any_forever',
      params: { ivars: ptr('global', i32), out: ptr('global', i64) },
      launch: { grid: 1, block: 32 },
      setup: noSetup,
      body: (k, { ivars, out }) => out.store(k.shmem.wait_until_any(ivars, 4, null, 'ne', 0).bitcast(i64)),
    });
    const f = faultOf(() => lb.run(k, FILE, { ivars: pe0(ivars), out }, [1, 1, 1], [32, 1, 1], { maxWarpInstructions: 1_000_000 }));
    expect(f.kind).toBe('deadlock');
  });

  it('type errors at build time, located at the kernel line', () => {
    const lb = new Loopback();
    const build = (body: (k: KernelBuilder, p: { f: PtrVal; s: PtrVal }) => void): string => {
      const k = defineKernel({ name: 'shmem_bad', params: { f: ptr('global', f32), s: ptr('global', u64) }, launch: { grid: 1, block: 32 }, setup: noSetup, body: (k, p) => body(k, p as { f: PtrVal; s: PtrVal }) });
      try {
        lb.run(k, FILE, {}, [1, 1, 1], [32, 1, 1]);
      } catch (e) {
        return (e as Error).message;
      }
      return 'no error';
    };
    expect(build((k) => k.shmem.p(k.shared(f32, [32]).at(0).addr, 1, 1))).toMatch(/device\.test\.ts:\d+: nvshmem p: the remote object must be in global \(symmetric\) memory, not shared memory/);
    expect(build((k, { f }) => k.shmem.signal_op(f.as(u64).as(f32), k.u64(1), 'set', 1))).toMatch(/device\.test\.ts:\d+: type error: nvshmemx_signal_op needs a uint64_t\* signal, got a pointer to f32/);
    expect(build((k, { f }) => k.shmem.atomic_add(f, k.f32(1), 1))).toMatch(/device\.test\.ts:\d+: type error: nvshmem_float_atomic_add: NVSHMEM's standard AMOs take int, long/);
    expect(build((k, { s }) => k.shmem.wait_until(s, 'gte' as 'ge', 1))).toMatch(/device\.test\.ts:\d+: unknown comparator 'gte': use one of eq, ne, gt, ge, lt, le/);
    expect(build((k, { f, s }) => k.shmem.put_signal(f, f, 4, s, k.u64(1), 'or' as 'set', 1))).toMatch(/signal op 'or' is not NVSHMEM_SIGNAL_SET/);
  });
});
