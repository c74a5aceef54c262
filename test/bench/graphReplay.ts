/**
 * The runtime's bench workload: 10,000 tiny kernels replayed from a CUDA graph (1,000 captured
 * launches, replayed ten times), as family 9's graph replay does at scale. Every kernel runs in the
 * interpreter; the runtime's own event queue carries every launch, block and node.
 */
import { defineKernel, defineProgram, i32, ptr } from '../../src/api.js';

const tiny = defineKernel({
  name: 'tiny_kernel',
  params: { p: ptr('global', i32) },
  launch: { grid: 1, block: 32 },
  setup: (host) => ({ p: host.alloc(i32, 1024, 'p') }),
  body: (k, { p }) => {
    k.if(k.threadIdx.x.eq(0), () => {
      const at = p.at(k.blockIdx.x);
      at.store(at.get().add(1));
    });
  },
});

export default defineProgram({
  name: 'graph_replay_10k',
  defaults: { nodes: 1000, replays: 10 },
  run: (ctx, { nodes, replays }) => {
    const s = ctx.streamCreate({ nonBlocking: true });
    const d = ctx.malloc(4096, 'counter');
    ctx.streamBeginCapture(s);
    for (let k = 0; k < (nodes as number); k++) ctx.launch(tiny, { p: d }, undefined, { stream: s, profile: false });
    const exec = ctx.graphInstantiate(ctx.streamEndCapture(s));
    for (let r = 0; r < (replays as number); r++) ctx.graphLaunch(exec, s);
    ctx.streamSynchronize(s);
    ctx.value('counter', ctx.host.readNumber(d, i32, 0));
  },
});
