/**
 * The seed's deadlocks (kernels/deadlocks.ts) end at once with the wait-for cycle named — PE, stream,
 * operation, program line — and the seed's fix; their fixed forms run to completion with the right values.
 */
import { describe, expect, it } from 'vitest';
import { profileFile } from '../../src/profile.js';
import { UserError } from '../../src/errors.js';

const FILE = 'kernels/deadlocks.ts';

async function failure(kernel: string, params: Record<string, string> = {}): Promise<UserError> {
  try {
    await profileFile({ file: FILE, kernel, params, timing: false });
  } catch (e) {
    if (e instanceof UserError) return e;
    throw e;
  }
  throw new Error(`${kernel} ran to completion`);
}

describe('deadlocks between PEs and streams', () => {
  it('case (a): the circular on-stream dependence between two PEs, edge by edge, with the fix', async () => {
    const t0 = performance.now();
    const e = await failure('circular_on_stream');
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(e.exitCode).toBe(3);
    const m = e.message;
    expect(m).toMatch(/^deadlock: no PE can go on \(2 PEs\)/);
    // PE 0's barrier waits for PE 1; its signal is queued behind the barrier (lines of the program)
    expect(m).toContain('PE 0: the host waits in cudaStreamSynchronize (kernels/deadlocks.ts:37)');
    expect(m).toContain('nvshmemx_barrier_all_on_stream waits for PE 1 to reach the same barrier (kernels/deadlocks.ts:31)');
    expect(m).toContain('nvshmemx_putmem_signal_on_stream is queued behind nvshmemx_barrier_all_on_stream (kernels/deadlocks.ts:31) on stream 13 (kernels/deadlocks.ts:32)');
    expect(m).toContain('nvshmemx_signal_wait_until_on_stream waits until its signal == 1 (now 0) (kernels/deadlocks.ts:34)');
    expect(m).toContain("cycle: PE 1's nvshmemx_signal_wait_until_on_stream (kernels/deadlocks.ts:34) waits for the signal PE 0's nvshmemx_putmem_signal_on_stream (kernels/deadlocks.ts:32) sets");
    expect(m).toContain('CUDA Streams and Circular Dependencies');
  });

  it('case (a) fixed: the signal lands on PE 1 and both PEs finish', async () => {
    const r = await profileFile({ file: FILE, kernel: 'circular_on_stream', params: { fixed: '1' }, timing: false });
    const programs = r.programs ?? [];
    expect(programs.map((p) => p.name)).toEqual(['circular_on_stream (PE 0 of 2)', 'circular_on_stream (PE 1 of 2)']);
    expect(programs[0]?.values).toEqual([{ name: 'signal on PE 0', value: 0, unit: '' }]);
    expect(programs[1]?.values).toEqual([{ name: 'signal on PE 1', value: 1, unit: '' }]);
    // PE 1's wait ended after PE 0's signal was put: the timeline orders them
    const put = programs[0]?.timeline.ops.find((o) => o.name === 'nvshmemx_putmem_signal_on_stream');
    const wait = programs[1]?.timeline.ops.find((o) => o.name === 'nvshmemx_signal_wait_until_on_stream');
    expect(put && wait && wait.endNs > put.startNs).toBe(true);
  });

  it('case (b): a spinning kernel on every SM holds the SMs the notifying kernel needs', async () => {
    const e = await failure('wait_holds_sms');
    const m = e.message;
    expect(m).toContain("kernel 'wait_kernel' (stream 13, hardware queue 0, launched at kernels/deadlocks.ts:83) spins holding 132 SMs (264 blocks resident)");
    expect(m).toContain("kernel 'notify_kernel' (stream 14, launched at kernels/deadlocks.ts:84) cannot start: no SM has room for its blocks beside 'wait_kernel'");
    expect(m).toContain('CUDA Stream Order and Execution Resources');
  });

  it('case (b) fixed, and with room for both: the waiting kernel sees the flag the notifier wrote', async () => {
    for (const params of [{ fixed: '1' }, { blocks: '1' }] as Record<string, string>[]) {
      const r = await profileFile({ file: FILE, kernel: 'wait_holds_sms', params, timing: false });
      expect(r.programs?.[0]?.values).toEqual([{ name: 'flag seen by block 0', value: 7, unit: '' }]);
    }
  });

  it('a symmetric allocation mismatch between PEs is a located error naming both calls', async () => {
    const { defineProgram } = await import('../../src/api.js');
    const prog = defineProgram({
      name: 'mismatch',
      pes: 2,
      run: (ctx) => {
        ctx.shmem.malloc(ctx.pe === 0 ? 64 : 128, 'buf');
      },
    });
    const { runPeProgram } = await import('../../src/system/run.js');
    const { getArch } = await import('../../src/arch/index.js');
    await expect(runPeProgram(prog, { arch: getArch('h200'), file: 'mismatch.ts', cacheControl: 'all', params: {} }, 2)).rejects.toThrow(
      /nvshmem_malloc mismatch: PE 1's 1st symmetric allocation asks 128 bytes, PE 0's \(.*\) asked 64: every PE must make the same nvshmem_malloc calls/,
    );
  });
});

describe('schedules the runtime may choose, and in-kernel synchronisation', () => {
  it('case (c): fine by default; --explore finds the in-order single queue that deadlocks, and the fixed form passes it', async () => {
    const ok = await profileFile({ file: FILE, kernel: 'queue_in_order', timing: false });
    expect(ok.programs?.[0]?.values).toEqual([{ name: 'flag seen by block 0', value: 7, unit: '' }]);
    let m = '';
    try {
      await profileFile({ file: FILE, kernel: 'queue_in_order', timing: false, explore: true });
    } catch (e) {
      m = e instanceof UserError ? e.message : String(e);
    }
    expect(m).toMatch(/^--explore: the runtime may schedule every stream in one hardware work queue, each work item after the one before it ends, and then: /);
    expect(m).toContain("kernel 'notify_kernel' of stream 14 (kernels/deadlocks.ts:110) waits at the head of hardware queue 0, behind kernel 'wait_kernel' of stream 13 (kernels/deadlocks.ts:109), which the queue runs before it, in order");
    expect(m).toContain('CUDA Streams and False Circular Dependencies');
    const fixed = await profileFile({ file: FILE, kernel: 'queue_in_order', timing: false, explore: true, params: { fixed: '1' } });
    expect(fixed.programs?.[0]?.values).toEqual([{ name: 'flag seen by block 0', value: 7, unit: '' }]);
  });

  it('case (d): blocks that wait for blocks that can never be resident, on both PEs; collectively launched, every block arrives', async () => {
    const e = await failure('grid_sync_without_collective');
    const m = e.message;
    for (const pe of [0, 1]) expect(m).toContain(`PE ${pe}: the host waits in cudaDeviceSynchronize (kernels/deadlocks.ts:144); stream 7: kernel 'all_blocks_arrive' spins holding 132 SMs`);
    expect(m).toContain('block (264,0,0) never started');
    expect(m).toContain('nvshmemx_collective_launch');
    const r = await profileFile({ file: FILE, kernel: 'grid_sync_without_collective', params: { fixed: '1' }, timing: false });
    expect(r.programs?.map((p) => p.values[0]?.value)).toEqual([264, 264]);
  });

  it('a collective launch that cannot be co-resident is a located error', async () => {
    const { defineProgram } = await import('../../src/api.js');
    const { runPeProgram } = await import('../../src/system/run.js');
    const { getArch } = await import('../../src/arch/index.js');
    const mod = await import('../../kernels/deadlocks.js');
    void mod;
    const k = (await import('../../src/api.js')).defineKernel({
      name: 'big',
      params: {},
      launch: { grid: 1, block: 1024 },
      setup: () => ({}),
      body: () => {},
    });
    const prog = defineProgram({ name: 'too_big', pes: 2, run: (ctx) => ctx.shmem.collectiveLaunch(k, {}, { grid: 265, block: 1024 }) });
    await expect(runPeProgram(prog, { arch: getArch('h200'), file: 'too_big.ts', cacheControl: 'all', params: {} }, 2)).rejects.toThrow(
      /cooperative launch of 'big' with 265 blocks, but only 2 per SM x 132 SMs = 264 can be resident at once \(cudaErrorCooperativeLaunchTooLarge\)/,
    );
  });
});
