/**
 * Put bandwidth over the link, emulated against what two H200s measured (test/fidelity/probes/nvshmem/
 * summary.md, "Put bandwidth by size": ns per put + quiet, medians of 14): CTAs of 1024 threads share
 * the bytes, each block (or warp) puts its part with put_nbi_block (put_nbi_warp), then quiets. The
 * emulated time is the launch's minus its fixed launch overhead (the measurement loops inside one kernel).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defineKernel, f32, i32, ptr } from '../../src/api.js';
import { getArch } from '../../src/arch/index.js';
import { H200_NVLINK4 } from '../../src/arch/interconnect.js';
import { remoteLinkOf } from '../../src/arch/remoteLink.js';
import type { DevicePtr } from '../../src/memory/deviceMemory.js';
import { Loopback } from './loopback.js';

const FILE = fileURLToPath(import.meta.url);
const link = remoteLinkOf(H200_NVLINK4) ?? undefined;

function putTime(mode: 'block' | 'warp', ctas: number, bytes: number): number {
  const lb = new Loopback();
  const n = bytes / 4;
  const dest = lb.symmetric(f32, n, 'dest');
  const src = lb.host.alloc(f32, n, 'src', (i) => i % 977);
  const k = defineKernel({
    name: `put_${mode}_bw`,
    params: { dest: ptr('global', f32), src: ptr('global', f32) },
    launch: { grid: ctas, block: 1024 },
    setup: () => ({}),
    body: (k, { dest, src }) => {
      const perCta = n / ctas;
      const base = k.blockIdx.x.cast(i32).mul(perCta);
      if (mode === 'block') {
        k.shmem.put_nbi_block(dest.add(base), src.add(base), perCta, 1);
        k.if(k.threadIdx.x.eq(0), () => k.shmem.quiet());
      } else {
        const per = perCta / 32;
        const at = base.add(k.threadIdx.x.cast(i32).shr(5).mul(per));
        k.shmem.put_nbi_warp(dest.add(at), src.add(at), per, 1);
        k.if(k.laneId.eq(0), () => k.shmem.quiet());
      }
    },
  });
  const r = lb.run(k, FILE, { dest: dest.copies[0] as DevicePtr, src }, [ctas, 1, 1], [1024, 1, 1], { link });
  for (const i of [0, n / 2, n - 1]) expect(lb.host.readNumber(dest.copies[1] as DevicePtr, f32, i)).toBe(i % 977);
  return (r.metrics?.['gpu__time_duration.sum'] as number) - getArch('h200').launchOverheadNs;
}

describe('put bandwidth over NVLink 4, within 10 % of two H200s', () => {
  const cases: [mode: 'block' | 'warp', ctas: number, bytes: number, measuredNs: number][] = [
    ['block', 1, 524288, 13260],
    ['block', 1, 2097152, 48240],
    ['warp', 1, 524288, 12860],
    ['block', 8, 8388608, 26470],
  ];
  for (const [mode, ctas, bytes, measured] of cases)
    it(`put_nbi_${mode}, ${ctas} CTA${ctas > 1 ? 's' : ''}, ${bytes / 1024} KiB: ${measured} ns measured`, () => {
      const t = putTime(mode, ctas, bytes);
      expect(t).toBeGreaterThan(measured * 0.9);
      expect(t).toBeLessThan(measured * 1.1);
    });
});
