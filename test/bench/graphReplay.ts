/**
 * The runtime's bench workload: 10,000 tiny kernels replayed from a CUDA graph (1,000 captured
 * launches, replayed ten times), as family 9's graph replay does at scale. Every kernel runs in the
 * interpreter; the runtime's own event queue carries every launch, block and node.
 */
import { defineProgram, i32 } from '../../src/api.js';
import { tiny } from '../../kernels/lib/tiny.js';

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
