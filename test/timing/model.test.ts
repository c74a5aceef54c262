/**
 * The timing model on small kernels: deterministic, latency chains cost their latencies, barriers and
 * issue slots show up as their stall reasons, achieved occupancy follows the resident warps, and the
 * seed's 80-block example gets 100 % theoretical occupancy with ncu's small-grid advice.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defineKernel, f32, i32, ptr } from '../../src/api.js';
import { getArch } from '../../src/arch/index.js';
import { profileDefinitions, profileFile } from '../../src/profile.js';

const FILE = fileURLToPath(import.meta.url);
const H200 = getArch('h200');
type K = Parameters<typeof profileDefinitions>[0][number];
const run = (def: K) => {
  const k = profileDefinitions([def], { file: FILE }).kernels[0];
  if (!k) throw new Error('no kernel');
  return k;
};
const m = (k: { metrics: Record<string, number | string> }, id: string) => Number(k.metrics[id]);

/** one warp, a chain of `n` dependent global loads (a pointer chase) */
const chase = (n: number) =>
  defineKernel({
    name: `chase_${n}`,
    params: { p: ptr('global', i32) },
    launch: { grid: 1, block: 32 },
    setup: (h) => ({ p: h.alloc(i32, 1 << 17, 'p') }),
    body: (k, { p }) => {
      const i = k.let(i32, k.threadIdx.x.cast(i32).mul(1024));
      // the buffer holds zeros: each load's address depends on the previous load and is a new line
      for (let j = 0; j < n; j++) i.set(p.at(i).get().add(i).add(4096));
      p.at(k.threadIdx.x).store(i);
    },
  });

const fmaLoop = (blocks: number, threads: number) =>
  defineKernel({
    name: `fma_${blocks}x${threads}`,
    params: { out: ptr('global', f32) },
    launch: { grid: blocks, block: threads },
    setup: (h) => ({ out: h.alloc(f32, blocks * threads, 'out') }),
    body: (k, { out }) => {
      const x = k.let(f32, 1);
      k.for(0, 256, 1, () => x.set(x.fma(1.0001, 0.5)));
      out.at(k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x)).store(x);
    },
  });

describe('timing model', () => {
  it('is deterministic', () => {
    const a = run(fmaLoop(264, 256));
    const b = run(fmaLoop(264, 256));
    for (const id of ['gpu__time_duration.sum', 'sm__warps_active.avg.pct_of_peak_sustained_active', 'smsp__average_warp_latency_per_inst_issued.ratio'])
      expect(m(a, id)).toBe(m(b, id));
  });

  it('charges each dependent DRAM load its latency (long scoreboard)', () => {
    const k4 = run(chase(4));
    const k12 = run(chase(12));
    const perLoad = (m(k12, 'gpc__cycles_elapsed.max') - m(k4, 'gpc__cycles_elapsed.max')) / 8;
    expect(perLoad).toBeGreaterThan(H200.latency.l2Hit);
    expect(perLoad).toBeLessThan(H200.latency.dram * 1.3);
    expect(m(k12, 'smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio')).toBeGreaterThan(
      m(k12, 'smsp__average_warps_issue_stalled_wait_per_issue_active.ratio'),
    );
  });

  it('a dependent FMA chain stalls on "wait"; many warps per scheduler fill the issue slots', () => {
    const few = run(fmaLoop(132, 32));
    const many = run(fmaLoop(132 * 8, 256));
    expect(m(few, 'smsp__average_warps_issue_stalled_wait_per_issue_active.ratio')).toBeGreaterThan(0.5);
    expect(m(few, 'smsp__issue_active.avg.pct_of_peak_sustained_active')).toBeLessThan(40);
    expect(m(many, 'smsp__issue_active.avg.pct_of_peak_sustained_active')).toBeGreaterThan(60);
    expect(m(many, 'smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio')).toBeGreaterThan(0.5);
  });

  it('achieved occupancy follows the resident warps: one 8-warp block per SM is at most 12.5 %', () => {
    const k = run(fmaLoop(132, 256));
    const occ = m(k, 'sm__warps_active.avg.pct_of_peak_sustained_active');
    expect(occ).toBeGreaterThan(8);
    expect(occ).toBeLessThanOrEqual(12.5 + 1e-9);
    // Scheduler/Warp State metrics are consistent: stall reasons add up to the cycles per issue
    const cpi = m(k, 'smsp__average_warp_latency_per_inst_issued.ratio');
    const sum = Object.entries(k.metrics)
      .filter(([id]) => /^smsp__average_warps_issue_stalled_\w+_per_issue_active\.ratio$/.test(id))
      .reduce((a, [, v]) => a + Number(v), 0);
    expect(Math.abs(sum - cpi) / cpi).toBeLessThan(0.02);
  });

  it('barrier waits are charged to "barrier"', () => {
    const k = run(
      defineKernel({
        name: 'unbalanced_barrier',
        params: { out: ptr('global', f32) },
        launch: { grid: 132, block: 256 },
        setup: (h) => ({ out: h.alloc(f32, 132 * 256, 'out') }),
        body: (k, { out }) => {
          const x = k.let(f32, 1);
          // warp 0 works, the others wait at the barrier
          k.if(k.threadIdx.x.lt(32), () => k.for(0, 200, 1, () => x.set(x.fma(1.0001, 0.5))));
          k.syncthreads();
          out.at(k.blockIdx.x.mul(256).add(k.threadIdx.x)).store(x);
        },
      }),
    );
    expect(m(k, 'smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio')).toBeGreaterThan(10);
  });

  // H200 measurements in test/fidelity/probes/timing_probe_h200.csv (timing_probe.cu under ncu)
  it('an exited warp is no longer active (H200 probe E1: 1.03 active warps when warp 0 of 8 works alone)', () => {
    const k = run(
      defineKernel({
        name: 'warp0_alone',
        params: { out: ptr('global', f32) },
        launch: { grid: 132, block: 256 },
        setup: (h) => ({ out: h.alloc(f32, 132 * 256, 'out') }),
        body: (k, { out }) => {
          k.if(k.threadIdx.x.ge(32), () => k.return());
          const x = k.let(f32, 1);
          k.for(0, 2000, 1, () => x.set(x.fma(1.0001, 0.5)));
          out.at(k.blockIdx.x.mul(256).add(k.threadIdx.x)).store(x);
        },
      }),
    );
    const active = m(k, 'sm__warps_active.avg.per_cycle_active');
    expect(active).toBeGreaterThanOrEqual(1);
    expect(active).toBeLessThan(1.1);
  });

  it("an L2 slice takes the SMs waiting on one counter in turn: a block's warps end a turn apart, its slot holds the exited ones (H200: test/fidelity/probes/occupancy)", () => {
    // one atomicAdd per warp on one counter, blocks of 512 threads (4 per SM), four waves: the
    // counter's 0.73 ns an operation decides when each warp ends (filter_arr's shape, without the data)
    const blocks = 132 * 4 * 4;
    const hot = defineKernel({
      name: 'hot_counter',
      params: { n: ptr('global', i32), out: ptr('global', i32) },
      launch: { grid: blocks, block: 512 },
      setup: (h) => ({ n: h.alloc(i32, 1, 'n'), out: h.alloc(i32, blocks * 16, 'out') }),
      body: (k, { n, out }) => {
        k.if(k.threadIdx.x.and(31).eq(0), () => out.at(k.blockIdx.x.mul(16).add(k.threadIdx.x.shr(5))).store(n.at(0).atomic('add', 1)));
      },
    });
    const turns = run(hot);
    // the same with the slice first come first served (arch throughput.l2AtomicSmTurns off)
    const t = H200.throughput;
    const was = t.l2AtomicSmTurns;
    t.l2AtomicSmTurns = false;
    let fcfs;
    try {
      fcfs = run(hot);
    } finally {
      t.l2AtomicSmTurns = was;
    }
    const occ = 'sm__warps_active.avg.pct_of_peak_sustained_active';
    const dur = 'gpu__time_duration.sum';
    // the H200 on filter_arr: 80.3 % of the warp slots active by the warps' own clocks, 94.6 % had each
    // stayed until its block's last; first come first served ends a block's warps together
    expect(m(fcfs, occ) - m(turns, occ)).toBeGreaterThan(8);
    // the unit's rate bounds both: 33,792 operations of 0.732 ns (24.7 us). Round robin keeps the H200's
    // unit as busy as first come first served would; the model's turns cost ~7.5 % here, at the end,
    // where SMs given more blocks than others still take turns (the model knows the others' requests
    // only as far as the interpreter has run them, so the shares it gives are not quite equal): held
    // below 10 %
    const floor = blocks * 16 * 0.732;
    expect(m(fcfs, dur)).toBeGreaterThan(floor);
    expect(m(turns, dur)).toBeGreaterThan(m(fcfs, dur));
    expect(m(turns, dur) / m(fcfs, dur)).toBeLessThan(1.1);
  });

  it('the SM launches one block per ctaLaunch cycles (H200 probe E2e: 160 empty 8-warp blocks per SM in 19,363 active cycles)', () => {
    const k = run(
      defineKernel({
        name: 'empty_blocks',
        params: {},
        launch: { grid: 132 * 160, block: 256 },
        setup: () => ({}),
        body: () => {},
      }),
    );
    expect(m(k, 'sm__cycles_active.avg') / 19_363).toBeGreaterThan(0.9);
    expect(m(k, 'sm__cycles_active.avg') / 19_363).toBeLessThan(1.1);
  });

  it('a loaded value kept in a variable is waited for where it is used (long scoreboard)', () => {
    const k = run(
      defineKernel({
        name: 'let_load_shfl',
        params: { p: ptr('global', i32) },
        launch: { grid: 1, block: 32 },
        setup: (h) => ({ p: h.alloc(i32, 32, 'p') }),
        body: (k, { p }) => {
          // `v = in[i]` then a shuffle of v: the register copy is no SASS instruction, the shuffle waits for the load
          const v = k.let(i32, p.at(k.threadIdx.x).get());
          v.set(v.add(k.shfl('down', v, 1)));
          p.at(k.threadIdx.x).store(v);
        },
      }),
    );
    expect(m(k, 'smsp__warps_issue_stalled_long_scoreboard.sum')).toBeGreaterThan(H200.latency.l2Hit);
  });

  it('the ADU pipe runs LDC, the shared window read, EXIT and barriers: half one per cycle, part of SM Throughput', () => {
    const k = run(
      defineKernel({
        name: 'adu_count',
        params: { out: ptr('global', f32), scale: i32 },
        defaults: { scale: 3 },
        launch: { grid: 264, block: 64 },
        setup: (h) => ({ out: h.alloc(f32, 264 * 64, 'out') }),
        body: (k, { out, scale }) => {
          const s = k.shared(f32, [64]);
          s.at(k.threadIdx.x).store(k.threadIdx.x.cast(f32));
          k.syncthreads();
          out.at(k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x)).store(s.at(k.threadIdx.x).get().mul(scale.cast(f32)));
        },
      }),
    );
    // per warp: LDC R1, LDC of the int parameter, LDC of blockDim (the pointer is a ULDC.64), S2UR of
    // SR_CgaCtaId, BAR, EXIT
    const warps = m(k, 'smsp__warps_launched.sum');
    expect(m(k, 'sm__inst_executed_pipe_adu.sum')).toBe(6 * warps);
    const adu = m(k, 'sm__inst_executed_pipe_adu.avg.pct_of_peak_sustained_elapsed');
    expect(adu).toBeCloseTo((100 * 6 * warps) / (m(k, 'sm__cycles_elapsed.sum') * H200.throughput.aduInstPerCyclePerSm), 6);
    expect(m(k, 'sm__throughput.avg.pct_of_peak_sustained_elapsed')).toBeGreaterThanOrEqual(adu);
    expect(m(k, 'sm__memory_throughput.avg.pct_of_peak_sustained_elapsed')).toBeGreaterThanOrEqual(adu);
  });

  it("the seed's example (512 threads, 8 registers, 8 KB shared, 80 blocks): 100 % theoretical, small-grid advice", async () => {
    const r = await profileFile({ file: 'kernels/occupancy.ts', kernel: 'seed_example_80blocks' });
    const k = r.kernels[0]!;
    expect(k.check?.passed).toBe(true);
    expect(m(k, 'sm__maximum_warps_per_active_cycle_pct')).toBe(100);
    // 80 blocks x 512 threads on 132 SMs x 2048 threads: 15 % of the H200, and achieved occupancy shows it
    expect((80 * 512) / (132 * 2048)).toBeCloseTo(0.1515, 3);
    expect(m(k, 'sm__warps_active.avg.pct_of_peak_sustained_active')).toBeLessThanOrEqual(25);
    const small = k.rules.find((x) => x.id === 'LaunchConfiguration' && x.title === 'Small Grid');
    expect(small?.message).toContain('only 80 blocks');
    expect(small?.message).toContain("GPU's 132 multiprocessors");
    expect(k.rules.some((x) => x.id === 'AchievedOccupancy')).toBe(true);
  });
});
