/**
 * cuda::apply_access_property with a size (one prefetch per 128-byte line of the range) and
 * cuda::access_property ranges whose base is a runtime pointer (a kernel's pointer parameter: each
 * launch's argument places the range). Counts derived by hand from the kernels.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defineKernel, f32, ptr, u64 } from '../../src/api.js';
import { profileDefinitions } from '../../src/profile.js';

const FILE = fileURLToPath(import.meta.url);
const N = 1024;

function prefetchKernel(name: string, bytes: number | 'param') {
  return defineKernel({
    name,
    params: { a: ptr('global', f32), nbytes: u64 },
    defaults: { nbytes: 1000 },
    launch: { grid: 1, block: 32 },
    setup: (h) => ({ a: h.alloc(f32, 2 * N, 'a', (i) => i) }),
    // apply_access_property(a + tid * 32, nbytes, persisting{}): each thread's range starts 128 bytes after the previous one's
    body: (k, { a, nbytes }) => k.l2Prefetch(a.add(k.threadIdx.x.mul(32)), 'persisting', bytes === 'param' ? nbytes : bytes),
  });
}

const lts = (m: Record<string, number>, hint: 'evict_last' | 'evict_first'): number =>
  (m[`lts__t_sectors_srcunit_tex_${hint}_lookup_hit.sum`] ?? 0) + (m[`lts__t_sectors_srcunit_tex_${hint}_lookup_miss.sum`] ?? 0);

describe('apply_access_property with a size, and ranges from a runtime pointer', () => {
  it('prefetches each 128-byte line of the range: a constant size laid out, a runtime size a loop', () => {
    const report = profileDefinitions([prefetchKernel('prefetch_const', 1000), prefetchKernel('prefetch_param', 'param')], { file: FILE });
    for (const k of report.kernels) {
      const pf = k.instructions.filter((x) => x.opcode === 'CCTL.E.PF2');
      // 1000 bytes = 8 lines: 8 prefetches per thread, one warp
      expect(pf.reduce((s, x) => s + (x.metrics.inst_executed ?? 0), 0), k.name).toBe(8);
      expect(pf.reduce((s, x) => s + (x.metrics.thread_inst_executed ?? 0), 0), k.name).toBe(8 * 32);
    }
    // laid out: 8 instructions; the loop: one instruction run 8 times
    expect(report.kernels[0]?.instructions.filter((x) => x.opcode === 'CCTL.E.PF2')).toHaveLength(8);
    expect(report.kernels[1]?.instructions.filter((x) => x.opcode === 'CCTL.E.PF2')).toHaveLength(1);
  });

  it("places a range at the launch's pointer argument: its primary part persisting, the rest streaming", () => {
    // cuda::access_property prop(a, 2048, 4096, persisting{}, streaming{}); annotated_ptr<const float, ...> p(a, prop); out[i] = p[i]
    const ranged = defineKernel({
      name: 'range_from_param',
      params: { a: ptr('global', f32), out: ptr('global', f32) },
      launch: { grid: N / 256, block: 256 },
      setup: (h) => ({ a: h.alloc(f32, N, 'a', (i) => i), out: h.alloc(f32, N, 'out') }),
      check: (h, { out }) => (h.readNumber(out, f32, N - 1) === N - 1 ? null : `out[${N - 1}] = ${h.readNumber(out, f32, N - 1)}`),
      body: (k, { a, out }) => {
        const p = k.annotate(a, k.accessRange(a, 2048, 4096, 'persisting', 'streaming'));
        const i = k.blockIdx.x.mul(256).add(k.threadIdx.x);
        out.at(i).store(p.at(i).get());
      },
    });
    const [k] = profileDefinitions([ranged], { file: FILE }).kernels;
    expect(k?.check).toEqual({ passed: true });
    const m = k?.metrics as Record<string, number>;
    // 4 KB of loads: the first 2 KB (64 sectors) evict_last, the next 2 KB evict_first; the stores none
    expect(lts(m, 'evict_last')).toBe(64);
    expect(lts(m, 'evict_first')).toBe(64);
  });

  it('refuses a range based on a pointer that is not a parameter', () => {
    const bad = defineKernel({
      name: 'range_from_local',
      params: { a: ptr('global', f32) },
      launch: { grid: 1, block: 32 },
      setup: (h) => ({ a: h.alloc(f32, 64, 'a') }),
      body: (k, { a }) => {
        k.accessRange(a.add(k.threadIdx.x), 128, 256, 'persisting');
      },
    });
    expect(() => profileDefinitions([bad], { file: FILE })).toThrow(/accessRange\.test\.ts:\d+: k\.accessRange: the range's base must be a global pointer parameter/);
  });
});
