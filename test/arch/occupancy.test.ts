/**
 * The occupancy calculator against the H200: every launch of the ground truth (summary.json, the raw
 * ncu pages and the two --set full details pages), plus launch configurations from a wider ncu sweep
 * on an H200 (SWEEP below).
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { h200 } from '../../src/arch/data/h200.js';
import { assertLaunchable, computeOccupancy, occupancyMetrics, type OccupancyInput } from '../../src/arch/occupancy.js';
import { seriesSum } from '../../src/arch/occupancy-series.js';
import { KernelFault } from '../../src/errors.js';

const GT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared/groundtruth/h200');

interface GtLaunch {
  kernel: string;
  instance: number;
  launch: { grid: number[]; block: number[]; dynamic_smem_bytes: number };
  ptxas: { registers: number };
  metrics: Record<string, number | string>;
}

const summary = JSON.parse(readFileSync(resolve(GT, 'summary.json'), 'utf8')) as GtLaunch[];
const product = (d: number[]): number => d.reduce((a, b) => a * b, 1);
const num = (v: number | string | undefined): number => (typeof v === 'number' ? v : Number(String(v).replace(/,/g, '')));

/**
 * The launch as the calculator sees it: ptxas registers (the calculator applies the 16-register
 * minimum), the block's static and dynamic shared memory, its named barriers. micro.cu raises
 * cudaFuncAttributeMaxDynamicSharedMemorySize to exactly the dynamic size of every dynamic launch.
 */
function inputOf(g: GtLaunch): OccupancyInput {
  const dynamic = num(g.metrics['launch__shared_mem_per_block_dynamic']);
  return {
    arch: h200,
    blockSize: product(g.launch.block),
    gridBlocks: product(g.launch.grid),
    registersPerThread: g.ptxas.registers,
    staticSmem: num(g.metrics['launch__shared_mem_per_block_static']),
    dynamicSmem: dynamic,
    barriers: num(g.metrics['launch__barrier_count']),
    ...(dynamic > 0 ? { maxDynamicSmem: dynamic } : {}),
  };
}

const round2 = (v: number): number => Math.round(v * 100) / 100;

/** metric -> how to compare ours with ncu's (ncu prints waves rounded to 2 decimals) */
const COMPARED: Record<string, (v: number | string) => number | string> = {
  launch__occupancy_limit_registers: (v) => v,
  launch__occupancy_limit_shared_mem: (v) => v,
  launch__occupancy_limit_warps: (v) => v,
  launch__occupancy_limit_blocks: (v) => v,
  launch__occupancy_limit_barriers: (v) => v,
  launch__shared_mem_config_size: (v) => v,
  launch__registers_per_thread: (v) => v,
  launch__registers_per_thread_allocated: (v) => v,
  sm__maximum_warps_per_active_cycle_pct: (v) => v,
  sm__maximum_warps_avg_per_active_cycle: (v) => v,
  launch__waves_per_multiprocessor: (v) => round2(num(v)),
  launch__shared_mem_per_block: (v) => v,
  launch__shared_mem_per_block_allocated: (v) => v,
  launch__shared_mem_per_block_driver: (v) => v,
  launch__shared_mem_per_block_static: (v) => v,
  launch__shared_mem_per_block_dynamic: (v) => v,
  launch__block_size: (v) => v,
  launch__grid_size: (v) => v,
  launch__thread_count: (v) => v,
  launch__sm_count: (v) => v,
  launch__barrier_count: (v) => v,
  launch__func_cache_config: (v) => v,
};

function mismatchTable(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows.map((r) => r.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ')).join('\n');
}

describe('occupancy calculator vs the H200 ground truth (summary.json)', () => {
  it('covers all 120 launches', () => {
    expect(summary).toHaveLength(120);
  });

  it('reproduces every launch__ occupancy metric of every launch exactly', () => {
    const bad: string[][] = [['kernel', 'metric', 'ncu (H200)', 'warpsight']];
    for (const g of summary) {
      const ours = occupancyMetrics(computeOccupancy(inputOf(g)));
      for (const [metric, norm] of Object.entries(COMPARED)) {
        const want = g.metrics[metric];
        const got = ours[metric];
        if (want === undefined || got === undefined || norm(want) !== norm(got)) bad.push([`${g.kernel}#${g.instance}`, metric, String(want), String(got)]);
      }
    }
    expect(bad.length - 1, `mismatches:\n${mismatchTable(bad)}`).toBe(0);
  });

  it('flags the limiters the README lists (ties included)', () => {
    const ws = summary.find((g) => g.kernel === 'ws_cudadma_namedbar');
    const regs32 = summary.find((g) => g.kernel === 'occ_regs_32');
    const smem48 = summary.find((g) => g.kernel === 'occ_smem_48k');
    if (!ws || !regs32 || !smem48) throw new Error('ground truth kernels missing');
    expect(computeOccupancy(inputOf(ws)).limiters).toEqual(['registers', 'shared_mem']);
    expect(computeOccupancy(inputOf(regs32)).limiters).toEqual(['registers', 'warps']);
    expect(computeOccupancy(inputOf(smem48)).limiters).toEqual(['shared_mem', 'warps']);
  });
});

/** the raw ncu pages: one row per profiled launch with every launch__ metric, including the series sums */
function rawRows(): Record<string, string>[] {
  const out: Record<string, string>[] = [];
  for (const family of ['g', 'sh', 'div', 'occ', 'cp', 'sync', 'ws', 'l2']) {
    const lines = readFileSync(resolve(GT, `ncu_raw_${family}.csv`), 'utf8').split('\n').filter((l) => l.startsWith('"'));
    const parse = (l: string): string[] => [...l.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => (m[1] ?? '').replace(/""/g, '"'));
    const head = parse(lines[0] ?? '');
    for (const l of lines.slice(2)) {
      const cells = parse(l);
      out.push(Object.fromEntries(head.map((h, i) => [h, cells[i] ?? ''])));
    }
  }
  return out;
}

describe('"Impact of Varying ..." series vs ncu', () => {
  it('sums to ncu\'s launch__occupancy_per_* raw values for every ground-truth launch', () => {
    const rows = rawRows();
    expect(rows).toHaveLength(120);
    const bad: string[][] = [['kernel', 'metric', 'ncu (H200)', 'warpsight']];
    for (const r of rows) {
      const m = (k: string): number => num(r[k]);
      const dynamic = m('launch__shared_mem_per_block_dynamic');
      const ours = occupancyMetrics(
        computeOccupancy({
          arch: h200,
          blockSize: m('launch__block_size'),
          gridBlocks: m('launch__grid_size'),
          registersPerThread: m('launch__registers_per_thread'),
          staticSmem: m('launch__shared_mem_per_block_static'),
          dynamicSmem: dynamic,
          barriers: m('launch__barrier_count'),
          ...(dynamic > 0 ? { maxDynamicSmem: dynamic } : {}),
        }),
      );
      for (const s of ['register_count', 'block_size', 'shared_mem_size', 'barrier_count']) {
        const metric = `launch__occupancy_per_${s}`;
        if (ours[metric] !== m(metric)) bad.push([r['Kernel Name']?.split('(')[0] ?? '?', metric, String(m(metric)), String(ours[metric])]);
      }
    }
    expect(bad.length - 1, `mismatches:\n${mismatchTable(bad)}`).toBe(0);
  });

  /** ncu's details page (--print-details all): the series' instance values, "% ..." and "# Warps ..." tables */
  function detailsTables(kernel: string): Map<string, number[]> {
    const text = readFileSync(resolve(GT, `details_all_${kernel}.txt`), 'utf8');
    const tables = new Map<string, number[]>();
    for (const m of text.matchAll(/Table Name : (Impact of Varying [^\n]+)\n([\s\S]*?)\n\n/g)) {
      const body = m[2] ?? '';
      for (const v of body.matchAll(/\n {4}([%#][^\n]*?) {2,}[^\n]*?[\d,.]+ \(([^)]*)\)/g)) {
        const kind = (v[1] ?? '').startsWith('%') ? '%' : '#';
        tables.set(`${(m[1] ?? '').trim()} ${kind}`, (v[2] ?? '').split(';').map((s) => Number(s.trim().replace(/,/g, ''))));
      }
    }
    return tables;
  }

  for (const kernel of ['g_ld_u32_stride32', 'sh_transpose_32x32_bd32x8']) {
    it(`matches ncu's tables point by point for ${kernel}`, () => {
      const g = summary.find((x) => x.kernel === kernel);
      if (!g) throw new Error(`${kernel} missing from summary.json`);
      const { series } = computeOccupancy(inputOf(g));
      const tables = detailsTables(kernel);
      const pairs = [
        ['Impact of Varying Register Count Per Thread', series.registerCount],
        ['Impact of Varying Block Size', series.blockSize],
        ['Impact of Varying Shared Memory Usage Per Block', series.sharedMemSize],
        ['Impact of Varying Block Barriers', series.barrierCount],
      ] as const;
      for (const [title, s] of pairs) {
        expect(s.points.map((p) => p.warps), `${title} (# warps)`).toEqual(tables.get(`${title} #`));
        // ncu prints the shared-memory percentages in %/Kbyte (a unit artefact: 100 % shows as 0.10)
        const pct = tables.get(`${title} %`)?.map((v) => (title.includes('Shared Memory') ? Math.round(v * 1000) : v));
        if (!title.includes('Shared Memory')) expect(s.points.map((p) => p.pct), `${title} (%)`).toEqual(pct);
      }
    });
  }
});

/**
 * Launch configurations from an ncu sweep on an H200 (driver 580.159, ncu 2025.3.1) beyond the ground
 * truth: named barriers, block sizes that are not warp multiples, 40-212 registers, 0-200 KB of shared
 * memory. Each row: block size, registers (as launched), static smem, dynamic smem, barriers, then
 * ncu's launch__shared_mem_config_size (KB), launch__occupancy_limit_shared_mem, _registers, _barriers.
 * (80 of the 2,942 sweep launches, all of which carveout.ts reproduces.)
 */
const SWEEP: readonly (readonly [number, number, number, number, number, number, number, number, number])[] = [
  [7, 212, 0, 40000, 0, 228, 5, 8, 32],
  [32, 40, 0, 0, 0, 32, 32, 48, 32],
  [32, 64, 0, 49152, 0, 196, 4, 32, 32],
  [58, 16, 0, 3500, 16, 32, 7, 64, 4],
  [64, 72, 0, 30000, 0, 228, 7, 14, 32],
  [64, 94, 0, 9000, 0, 132, 13, 10, 32],
  [66, 16, 0, 4, 4, 32, 28, 42, 16],
  [73, 72, 0, 11000, 0, 132, 11, 9, 32],
  [81, 16, 0, 0, 4, 16, 16, 42, 16],
  [90, 16, 0, 0, 8, 8, 8, 42, 8],
  [95, 52, 0, 9000, 0, 132, 13, 12, 32],
  [96, 16, 0, 16, 0, 64, 56, 42, 32],
  [96, 32, 0, 1024, 0, 64, 32, 21, 32],
  [96, 40, 24000, 40000, 6, 196, 3, 16, 10],
  [96, 72, 0, 110000, 0, 228, 2, 9, 32],
  [105, 16, 0, 0, 8, 8, 8, 32, 8],
  [124, 40, 0, 14000, 0, 196, 13, 12, 32],
  [128, 16, 16, 16, 1, 32, 28, 32, 32],
  [128, 32, 0, 16, 0, 32, 28, 16, 32],
  [128, 32, 1024, 45000, 3, 196, 4, 16, 21],
  [160, 16, 4096, 16, 1, 132, 25, 25, 32],
  [160, 16, 4096, 1024, 1, 132, 22, 25, 32],
  [160, 128, 0, 2500, 0, 32, 9, 3, 32],
  [172, 212, 0, 0, 0, 8, 8, 1, 32],
  [176, 32, 1024, 200000, 3, 228, 1, 10, 21],
  [181, 32, 1024, 56000, 3, 228, 4, 10, 21],
  [186, 72, 0, 6500, 0, 64, 8, 4, 32],
  [190, 16, 0, 110000, 8, 228, 2, 21, 8],
  [192, 26, 0, 49152, 0, 196, 4, 10, 32],
  [200, 212, 0, 150000, 0, 164, 1, 1, 32],
  [226, 40, 24000, 1500, 6, 164, 6, 6, 10],
  [256, 16, 0, 90000, 8, 196, 2, 16, 8],
  [256, 32, 1024, 11000, 3, 132, 10, 8, 21],
  [298, 32, 1024, 90000, 3, 196, 2, 6, 21],
  [319, 16, 0, 6500, 16, 32, 4, 12, 4],
  [324, 16, 0, 512, 8, 16, 10, 11, 8],
  [331, 94, 0, 9000, 0, 16, 1, 1, 32],
  [370, 16, 0, 0, 8, 8, 8, 10, 8],
  [384, 16, 0, 1500, 8, 32, 12, 10, 8],
  [384, 26, 0, 2048, 0, 32, 10, 5, 32],
  [384, 26, 0, 4096, 0, 64, 12, 5, 32],
  [384, 26, 0, 98304, 0, 196, 2, 5, 32],
  [384, 32, 0, 98304, 0, 196, 2, 5, 32],
  [384, 64, 0, 512, 0, 8, 5, 2, 32],
  [389, 40, 0, 200000, 0, 228, 1, 3, 32],
  [392, 72, 0, 6500, 0, 32, 4, 2, 32],
  [411, 16, 0, 0, 8, 8, 8, 9, 8],
  [421, 40, 0, 45000, 0, 164, 3, 3, 32],
  [430, 16, 0, 110000, 0, 228, 2, 9, 32],
  [453, 16, 0, 6500, 16, 32, 4, 8, 4],
  [483, 16, 0, 150000, 4, 164, 1, 8, 16],
  [494, 72, 0, 45000, 0, 64, 1, 1, 32],
  [512, 122, 0, 49152, 0, 64, 1, 1, 32],
  [512, 122, 0, 98304, 0, 100, 1, 1, 32],
  [542, 16, 0, 70000, 8, 228, 3, 7, 8],
  [626, 52, 0, 0, 0, 8, 8, 1, 32],
  [627, 32, 1024, 45000, 3, 164, 3, 3, 21],
  [656, 16, 12000, 1500, 1, 100, 7, 6, 32],
  [657, 32, 1024, 5000, 3, 64, 9, 3, 21],
  [700, 16, 0, 0, 8, 8, 8, 5, 8],
  [736, 16, 0, 0, 8, 8, 8, 5, 8],
  [768, 16, 0, 0, 0, 8, 8, 5, 32],
  [768, 32, 0, 16384, 0, 100, 5, 2, 32],
  [768, 32, 0, 65536, 0, 132, 2, 2, 32],
  [768, 40, 0, 512, 0, 8, 5, 2, 32],
  [800, 16, 0, 3500, 8, 32, 7, 5, 8],
  [800, 40, 0, 0, 0, 8, 8, 1, 32],
  [896, 16, 0, 3072, 0, 16, 4, 4, 32],
  [896, 16, 4096, 7168, 1, 64, 5, 4, 32],
  [912, 40, 0, 1500, 0, 8, 3, 1, 32],
  [928, 16, 16, 15360, 1, 64, 3, 4, 32],
  [960, 16, 16, 3072, 1, 16, 3, 4, 32],
  [960, 32, 0, 16, 0, 8, 7, 2, 32],
  [960, 32, 0, 3072, 0, 8, 2, 2, 32],
  [971, 16, 0, 26000, 4, 64, 2, 4, 16],
  [1002, 32, 1024, 20000, 3, 64, 2, 2, 21],
  [1003, 16, 0, 56000, 0, 132, 2, 4, 32],
  [1018, 16, 0, 30000, 8, 64, 2, 4, 8],
  [1024, 16, 0, 16, 0, 8, 7, 4, 32],
  [1024, 16, 0, 3072, 0, 8, 2, 4, 32],
];

describe('driver carveout vs an H200 sweep of launch configurations', () => {
  it('reproduces launch__shared_mem_config_size and the limits of every sampled launch', () => {
    const bad: string[][] = [['block', 'regs', 'static', 'dynamic', 'barriers', 'ncu (config KB, S, R, B)', 'warpsight']];
    for (const [blockSize, registersPerThread, staticSmem, dynamicSmem, barriers, configKb, s, r, b] of SWEEP) {
      const occ = computeOccupancy({ arch: h200, blockSize, registersPerThread, staticSmem, dynamicSmem, barriers, maxDynamicSmem: h200.sharedMemPerBlockOptin - staticSmem });
      const got = [occ.sharedMemConfigSize / 1024, occ.limits.sharedMem, occ.limits.registers, occ.limits.barriers];
      if (got.join() !== [configKb, s, r, b].join()) bad.push([blockSize, registersPerThread, staticSmem, dynamicSmem, barriers].map(String).concat([`${configKb}, ${s}, ${r}, ${b}`, got.join(', ')]));
    }
    expect(bad.length - 1, `mismatches:\n${mismatchTable(bad)}`).toBe(0);
  });
});

describe('occupancy calculator', () => {
  it('gives the seed example 100 % theoretical occupancy: 512 threads, 8 registers, 8 KB, 80 blocks', () => {
    const occ = computeOccupancy({ arch: h200, blockSize: 512, registersPerThread: 8, dynamicSmem: 8 * 1024, gridBlocks: 80 });
    expect(occ.occupancyPct).toBe(100);
    expect(occ.activeWarpsPerSm).toBe(64);
    expect(occ.registers.perThread).toBe(16);
    expect(occ.sharedMemConfigSize).toBe(100 * 1024);
    expect(occ.limiters).toEqual(['warps']);
    expect(round2(occ.wavesPerSm ?? NaN)).toBe(0.15);
  });

  it('reports allocated registers per thread as ncu does for partial warps', () => {
    // 24 threads use one warp's 32 x 32 registers: 1024 / 24 = 42.67 (seen in the H200 sweep)
    expect(round2(computeOccupancy({ arch: h200, blockSize: 24, registersPerThread: 32 }).registers.perThreadAllocated)).toBe(42.67);
  });

  it('caps the reported barrier limit at the block limit but does not call it a limiter', () => {
    const occ = computeOccupancy({ arch: h200, blockSize: 32, registersPerThread: 16, barriers: 1 });
    expect(occ.limits.barriers).toBe(32);
    expect(occ.activeBlocksPerSm).toBe(32);
    expect(occ.limiters).toContain('blocks');
    expect(occ.limiters).not.toContain('barriers');
    // two barriers: 64 / 2 = 32 blocks, a tie with the block limit
    expect(computeOccupancy({ arch: h200, blockSize: 32, registersPerThread: 16, barriers: 2 }).limiters).toContain('barriers');
  });

  it('accepts a known carveout instead of the driver rule', () => {
    const occ = computeOccupancy({ arch: h200, blockSize: 256, registersPerThread: 16, dynamicSmem: 8192, sharedMemConfigSize: 228 * 1024 });
    expect(occ.limits.sharedMem).toBe(25);
    expect(occ.sharedMem.configSource).toBe('given');
  });

  it('evaluates register-file overflow as 0 blocks and refuses it as a launch', () => {
    const occ = computeOccupancy({ arch: h200, blockSize: 1024, registersPerThread: 72 });
    expect(occ.launchable).toBe(false);
    expect(occ.activeBlocksPerSm).toBe(0);
    expect(() => assertLaunchable(occ, h200)).toThrow(/too many resources requested for launch: 1,024 threads x 72 registers allocate 73,728/);
  });

  const invalid: [string, Partial<OccupancyInput>, RegExp][] = [
    ['a block above 1024 threads', { blockSize: 2048 }, /block size 2048; a block has 1 to 1,024 threads/],
    ['an empty block', { blockSize: 0 }, /block size 0/],
    ['more than 255 registers', { registersPerThread: 300 }, /registers per thread 300; ptxas allocates at most 255/],
    ['shared memory above the opt-in maximum', { dynamicSmem: 240_000 }, /240,000 B of shared memory per block .* at most 232,448 B/],
    ['dynamic shared memory above the kernel attribute', { dynamicSmem: 65536, maxDynamicSmem: 49152 }, /above the kernel's limit of 49,152 B; raise it with cudaFuncSetAttribute/],
    ['more than 16 named barriers', { barriers: 17 }, /named barriers 17; a block has 16 \(0-15\)/],
    ['a fractional grid', { gridBlocks: 1.5 }, /grid blocks 1.5/],
  ];
  for (const [what, change, message] of invalid)
    it(`throws KernelFault('invalid-launch') for ${what}`, () => {
      const run = (): unknown => computeOccupancy({ arch: h200, blockSize: 256, registersPerThread: 32, ...change });
      expect(run).toThrow(KernelFault);
      expect(run).toThrow(message);
      try {
        run();
      } catch (e) {
        expect((e as KernelFault).kind).toBe('invalid-launch');
      }
    });

  it('is deterministic', () => {
    const input: OccupancyInput = { arch: h200, blockSize: 200, registersPerThread: 20, staticSmem: 4224, gridBlocks: 1000 };
    expect(JSON.stringify(computeOccupancy(input))).toBe(JSON.stringify(computeOccupancy(input)));
  });

  it('matches the ncu probe of nsight-compute.md §4 (200 threads, 20 registers, 4,224 B static)', () => {
    const occ = computeOccupancy({ arch: h200, blockSize: 200, registersPerThread: 20, staticSmem: 4224, barriers: 1 });
    expect([occ.limits.blocks, occ.limits.registers, occ.limits.sharedMem, occ.limits.warps, occ.limits.barriers]).toEqual([32, 12, 19, 9, 32]);
    expect(occ.sharedMemConfigSize).toBe(100 * 1024);
    expect(occ.activeWarpsPerSm).toBe(63);
    expect(round2(occ.occupancyPct)).toBe(98.44);
    expect(seriesSum(occ.series.registerCount)).toBeGreaterThan(0);
  });
});
