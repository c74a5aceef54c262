/**
 * Ground-truth family 9 (../shared/groundtruth/cuda/micro.cu run_launch): what launching costs.
 * A 1-block kernel launched N times on a stream, the same N captured once into a CUDA graph and
 * replayed, launch + synchronize per kernel, and cudaMalloc/kernel/cudaFree against
 * cudaMallocAsync/kernel/cudaFreeAsync per iteration — timed with events and the host's clock as
 * micro.cu times them. The H200 (launch_overhead.txt): 4.98 us per stream launch, 0.746 us per
 * graph-replayed kernel, 10.69 us launch + sync, 13.85 / 6.52 us per malloc / mallocAsync iteration.
 *
 *   warpsight profile kernels/launch_overhead.ts --param n=1000
 */
import { defineProgram, i32 } from 'warpsight';
import { tiny } from './lib/tiny.js';

/** median of a series, as micro.cu takes it (the upper middle) */
function median(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

export default defineProgram({
  name: 'launch_overhead',
  description: 'family 9: stream launches vs graph replay, launch + sync, cudaMalloc vs cudaMallocAsync',
  defaults: { n: 1000, reps: 3, syncs: 200 },
  run: (ctx, { n, reps, syncs }) => {
    const N = n as number;
    const s = ctx.streamCreate({ nonBlocking: true, name: 'launch stream' });
    const d = ctx.malloc(4096, 'counter');
    ctx.memsetAsync(d, 0, 4096, s);
    const e0 = ctx.eventCreate();
    const e1 = ctx.eventCreate();
    const quiet = { stream: s, profile: false } as const;
    for (let k = 0; k < 20; k++) ctx.launch(tiny, { p: d }, undefined, quiet);
    ctx.streamSynchronize(s);

    // A: back-to-back launches on one stream
    const aGpu: number[] = [];
    const aSubmit: number[] = [];
    const aWall: number[] = [];
    for (let r = 0; r < (reps as number); r++) {
      const t0 = ctx.hostTimeNs();
      ctx.eventRecord(e0, s);
      for (let k = 0; k < N; k++) ctx.launch(tiny, { p: d }, undefined, quiet);
      ctx.eventRecord(e1, s);
      const t1 = ctx.hostTimeNs();
      ctx.eventSynchronize(e1);
      const t2 = ctx.hostTimeNs();
      aGpu.push((ctx.eventElapsedTime(e0, e1) * 1000) / N);
      aSubmit.push((t1 - t0) / 1000 / N);
      aWall.push((t2 - t0) / 1000 / N);
    }
    // B: the same launches captured once into a graph, replayed
    ctx.streamBeginCapture(s);
    for (let k = 0; k < N; k++) ctx.launch(tiny, { p: d }, undefined, quiet);
    const graph = ctx.streamEndCapture(s);
    const exec = ctx.graphInstantiate(graph);
    ctx.graphLaunch(exec, s);
    ctx.streamSynchronize(s);
    const bGpu: number[] = [];
    const bSubmit: number[] = [];
    for (let r = 0; r < (reps as number); r++) {
      const t0 = ctx.hostTimeNs();
      ctx.eventRecord(e0, s);
      ctx.graphLaunch(exec, s);
      ctx.eventRecord(e1, s);
      const t1 = ctx.hostTimeNs();
      ctx.eventSynchronize(e1);
      bGpu.push((ctx.eventElapsedTime(e0, e1) * 1000) / N);
      bSubmit.push((t1 - t0) / 1000 / N);
    }
    // C: launch + stream synchronize per kernel (the round trip)
    const cWall: number[] = [];
    for (let r = 0; r < (reps as number); r++) {
      const t0 = ctx.hostTimeNs();
      for (let k = 0; k < (syncs as number); k++) {
        ctx.launch(tiny, { p: d }, undefined, quiet);
        ctx.streamSynchronize(s);
      }
      cWall.push((ctx.hostTimeNs() - t0) / 1000 / (syncs as number));
    }
    // D: cudaMalloc + kernel + cudaFree per iteration (cudaFree waits for the device)
    const dWall: number[] = [];
    for (let r = 0; r < (reps as number); r++) {
      const t0 = ctx.hostTimeNs();
      for (let k = 0; k < N; k++) {
        const p = ctx.malloc(1 << 20, 'scratch');
        ctx.launch(tiny, { p }, undefined, quiet);
        ctx.free(p);
      }
      ctx.streamSynchronize(s);
      dWall.push((ctx.hostTimeNs() - t0) / 1000 / N);
    }
    // E: cudaMallocAsync + kernel + cudaFreeAsync per iteration (stream-ordered pool)
    const eWall: number[] = [];
    const eGpu: number[] = [];
    for (let r = 0; r < (reps as number); r++) {
      const t0 = ctx.hostTimeNs();
      ctx.eventRecord(e0, s);
      for (let k = 0; k < N; k++) {
        const p = ctx.mallocAsync(1 << 20, s);
        ctx.launch(tiny, { p }, undefined, quiet);
        ctx.freeAsync(p, s);
      }
      ctx.eventRecord(e1, s);
      ctx.streamSynchronize(s);
      eWall.push((ctx.hostTimeNs() - t0) / 1000 / N);
      eGpu.push((ctx.eventElapsedTime(e0, e1) * 1000) / N);
    }
    ctx.value('stream_launch_gpu_us_per_kernel', median(aGpu), 'us');
    ctx.value('stream_launch_host_submit_us_per_kernel', median(aSubmit), 'us');
    ctx.value('stream_launch_wall_us_per_kernel', median(aWall), 'us');
    ctx.value('graph_replay_gpu_us_per_kernel', median(bGpu), 'us');
    ctx.value('graph_replay_host_submit_us_per_kernel', median(bSubmit), 'us');
    ctx.value('launch_plus_sync_wall_us_per_kernel', median(cWall), 'us');
    ctx.value('malloc_kernel_free_wall_us_per_iter', median(dWall), 'us');
    ctx.value('mallocasync_kernel_freeasync_wall_us_per_iter', median(eWall), 'us');
    ctx.value('mallocasync_kernel_freeasync_gpu_us_per_iter', median(eGpu), 'us');
    ctx.value('tiny_kernel_counter', ctx.host.readNumber(d, i32, 0), '');
  },
  check: () => null,
});
