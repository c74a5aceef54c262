/**
 * The runtime end to end: bundled programs profiled, their timelines read. Concurrency through the
 * block scheduler, false dependencies through hardware queues, the legacy default stream, stream
 * capture and graph replay, events, the allocation pool, pageable copies, and the rules that name them.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ProgramRun, TimelineOp } from '../../types/report.schema.js';
import { defineKernel, defineProgram, f32, ptr, u32 } from '../../src/api.js';
import { profileDefinitions, profileFile } from '../../src/profile.js';
import { H200_RUNTIME as C } from '../../src/arch/runtimeCosts.js';
import type { ProgramDef } from '../../src/kernel/define.js';

const KERNELS = join(import.meta.dirname, '..', '..', 'kernels');
const HERE = import.meta.filename;

async function program(file: string, name: string, extra: { hwQueues?: number; params?: Record<string, string> } = {}): Promise<ProgramRun> {
  const r = await profileFile({ file: join(KERNELS, file), kernel: name, ...extra });
  const p = r.programs?.[0];
  if (!p) throw new Error(`${name}: no program in the report`);
  return p;
}

function run(p: ProgramDef, hwQueues?: number): ProgramRun {
  const r = profileDefinitions([p], { file: HERE, ...(hwQueues ? { hwQueues } : {}) });
  return r.programs?.[0] as ProgramRun;
}

const kernels = (p: ProgramRun): TimelineOp[] => p.timeline.ops.filter((o) => o.kind === 'kernel');
const span = (ops: readonly TimelineOp[]): number => Math.max(...ops.map((o) => o.endNs)) - Math.min(...ops.map((o) => o.startNs));
const value = (p: ProgramRun, name: string): number => p.values.find((v) => v.name === name)?.value as number;

/** a 1-warp kernel that takes `trips` dependent FMAs */
const spin = defineKernel({
  name: 'spin',
  params: { out: ptr('global', f32), trips: u32 },
  defaults: { trips: 2000 },
  launch: { grid: 1, block: 32 },
  setup: (h) => ({ out: h.alloc(f32, 32, 'out') }),
  body: (k, { out, trips }) => {
    const x = k.let(f32, 0);
    k.for(0, trips, 1, () => x.set(x.fma(1.0001, 0.5)));
    out.at(k.threadIdx.x).store(x);
  },
});

describe('kernels share the GPU', () => {
  it('two half-GPU kernels overlap on two streams and serialise on one', async () => {
    const two = await program('streams.ts', 'two_streams');
    const one = await program('streams.ts', 'one_stream');
    const [a, b] = kernels(two) as [TimelineOp, TimelineOp];
    const single = a.endNs - a.startNs;
    // side by side: the pair takes about one kernel (the second starts a launch later), not two
    expect(span(kernels(two))).toBeLessThan(1.15 * single);
    expect(b.startNs).toBeLessThan(a.endNs);
    // one stream: the second starts after the first ends (plus the front end's gap)
    const [c, d] = kernels(one) as [TimelineOp, TimelineOp];
    expect(d.startNs).toBeGreaterThanOrEqual(c.endNs + C.gpu.kernelGapNs - 1);
    expect(span(kernels(one))).toBeGreaterThan(1.9 * single);
    // 66 + 66 SMs in use at once on two streams, never more than 66 on one
    expect(Math.max(...two.timeline.smBusy.map((s) => s.busySms))).toBe(132);
    expect(Math.max(...one.timeline.smBusy.map((s) => s.busySms))).toBe(66);
  });
});

describe('MIG instances', () => {
  it('on a 3g instance (60 SMs) the two 66-block kernels no longer fit side by side; the 1g instance has 16 SMs', async () => {
    const full = await program('streams.ts', 'two_streams');
    const r = await profileFile({ file: join(KERNELS, 'streams.ts'), kernel: 'two_streams', arch: 'h200-mig-3g' });
    const mig = r.programs?.[0] as ProgramRun;
    expect(Math.max(...mig.timeline.smBusy.map((s) => s.busySms))).toBe(60);
    const single = (kernels(full)[0] as TimelineOp).endNs - (kernels(full)[0] as TimelineOp).startNs;
    // 132 blocks of one per SM on 60 SMs: three waves
    expect(span(kernels(mig))).toBeGreaterThan(2.5 * single);
    const one = await profileFile({ file: join(KERNELS, 'transpose.ts'), kernel: 'sh_transpose_32x32_bd32x8', arch: 'h200-mig-1g' });
    expect(one.kernels[0]?.metrics['launch__sm_count']).toBe(16);
  });
});

describe('hardware queues: the false dependency', () => {
  it('with 8 queues the ninth stream waits behind the first; the rule names both launches; with 16 it does not', async () => {
    const eight = await program('streams.ts', 'false_dependency');
    const sixteen = await program('streams.ts', 'false_dependency', { hwQueues: 16 });
    const ninth = eight.timeline.streams.find((s) => s.name === 'stream 8');
    const first = eight.timeline.streams.find((s) => s.name === 'stream 0');
    expect(ninth?.queue).toBe(first?.queue);
    const delayed = kernels(eight).filter((o) => o.delayedBy);
    expect(delayed).toHaveLength(1);
    const held = delayed[0] as TimelineOp;
    expect(held.stream).toBe(ninth?.id);
    expect(held.delayedBy?.cause).toBe('hardware-queue');
    const blocker = eight.timeline.ops[held.delayedBy?.op as number] as TimelineOp;
    expect(blocker.stream).toBe(first?.id);
    // it waited for the first stream's dependency: about one kernel
    const k = held.endNs - held.startNs;
    expect(held.delayedBy?.ns).toBeGreaterThan(0.9 * k);
    const f = eight.findings.find((x) => x.rule === 'FalseDependency');
    expect(f?.message).toContain("'stream 8'");
    expect(f?.message).toContain("'stream 0'");
    expect(f?.message).toMatch(/kernels\/streams\.ts:\d+/);
    expect(f?.ops).toEqual([held.id, blocker.id]);
    // 16 queues: nobody waits, the program is one kernel shorter
    expect(kernels(sixteen).some((o) => o.delayedBy)).toBe(false);
    expect(sixteen.findings.some((x) => x.rule === 'FalseDependency')).toBe(false);
    expect(span(kernels(eight)) - span(kernels(sixteen))).toBeGreaterThan(0.9 * k);
  });
});

describe('the legacy default stream', () => {
  const legacy = (nonBlocking: boolean): ProgramDef =>
    defineProgram({
      name: 'legacy',
      run: (ctx) => {
        const out = ctx.malloc(4096);
        const s = ctx.streamCreate({ nonBlocking, name: 'worker' });
        ctx.launch(spin, { out, trips: 20000 }, undefined, { stream: s });
        ctx.launch(spin, { out: ctx.host.offset(out, f32, 32), trips: 100 }); // the default stream
        ctx.deviceSynchronize();
      },
    });
  it('a blocking stream and the legacy stream wait for each other; the rule names both launches', () => {
    const p = run(legacy(false));
    const [long, short] = kernels(p) as [TimelineOp, TimelineOp];
    expect(short.stream).toBe(7);
    expect(short.startNs).toBeGreaterThanOrEqual(long.endNs);
    expect(short.delayedBy).toMatchObject({ cause: 'legacy-stream', op: long.id });
    const f = p.findings.find((x) => x.rule === 'LegacyStreamSync');
    expect(f?.message).toContain('nonBlocking');
    expect(f?.message).toContain('runtime.test.ts:');
  });
  it('a non-blocking stream does not', () => {
    const p = run(legacy(true));
    const [long, short] = kernels(p) as [TimelineOp, TimelineOp];
    expect(short.startNs).toBeLessThan(long.endNs);
    expect(p.findings.some((x) => x.rule === 'LegacyStreamSync')).toBe(false);
  });
});

describe('graphs', () => {
  it("stream capture of seed 003's Jacobi iteration: the DOT has its three nodes and two edges", () => {
    let dot = '';
    let nodes = 0;
    const p = defineProgram({
      name: 'capture',
      run: (ctx) => {
        const s = ctx.streamCreate({ nonBlocking: true });
        const d = ctx.malloc(4096);
        const h = ctx.mallocHost(4);
        ctx.streamBeginCapture(s);
        ctx.memsetAsync(d, 0, 4, s);
        ctx.launch(spin, { out: d, trips: 10 }, undefined, { stream: s });
        ctx.memcpyAsync(h, d, 4, s);
        const g = ctx.streamEndCapture(s);
        nodes = g.nodes.length;
        dot = ctx.graphDebugDotPrint(g);
      },
    });
    run(p);
    expect(nodes).toBe(3);
    const id = /subgraph cluster_(\d+)/.exec(dot)?.[1];
    expect(dot.split('\n')).toEqual([
      'digraph dot {',
      `subgraph cluster_${id} {`,
      `label="graph_${id}" graph[style="dashed"];`,
      `"graph_${id}_node_0"[style="solid" shape="rectangle" label="0\\nMEMSET\\n"];`,
      `"graph_${id}_node_1"[style="bold" shape="octagon" label="1\\nspin\\n"];`,
      `"graph_${id}_node_2"[style="solid" shape="rectangle" label="2\\nMEMCPY\\n"];`,
      `"graph_${id}_node_0" -> "graph_${id}_node_1";`,
      `"graph_${id}_node_1" -> "graph_${id}_node_2";`,
      '}',
      '}',
      '',
    ]);
  });

  it('the Jacobi loop replayed from two captured graphs gives the stream version\'s field, norm and iterations', async () => {
    const params = { iterMax: '60' };
    const streams = await program('jacobi_graph.ts', 'jacobi_streams', { params });
    const graph = await program('jacobi_graph.ts', 'jacobi_graph', { params });
    for (const v of ['iterations', 'l2_norm', 'field_checksum']) expect(value(graph, v)).toBe(value(streams, v));
    expect(value(graph, 'iterations')).toBe(60);
    expect(value(graph, 'graph_nodes')).toBe(3);
    // every replayed kernel ran as a node of one of the graph launches
    const ks = kernels(graph);
    expect(ks).toHaveLength(60);
    expect(ks.every((k) => k.graphLaunch !== undefined && graph.timeline.ops[k.graphLaunch]?.kind === 'graph')).toBe(true);
  });

  it('an explicit graph runs independent branches concurrently and joins them', () => {
    const p = defineProgram({
      name: 'diamond',
      run: (ctx) => {
        const out = ctx.malloc(4096);
        const g = ctx.graphCreate();
        const root = ctx.graphAddEmptyNode(g, []);
        const a = ctx.graphAddKernelNode(g, [root], spin, { out, trips: 4000 });
        const b = ctx.graphAddKernelNode(g, [root], spin, { out: ctx.host.offset(out, f32, 32), trips: 4000 });
        ctx.graphAddKernelNode(g, [a, b], spin, { out, trips: 100 });
        const exec = ctx.graphInstantiate(g);
        ctx.graphLaunch(exec);
        ctx.deviceSynchronize();
      },
    });
    const [a, b, join_] = kernels(run(p)) as [TimelineOp, TimelineOp, TimelineOp];
    expect(b.startNs).toBeLessThan(a.endNs);
    expect(join_.startNs).toBeGreaterThanOrEqual(Math.max(a.endNs, b.endNs) + C.gpu.graphNodeGapNs - 1);
  });

  it('a capture forks into a second stream through an event and joins back: the graph has the fork and the join', () => {
    let nodes: { type: string; deps: number[] }[] = [];
    let unjoined = '';
    const p = defineProgram({
      name: 'fork',
      run: (ctx) => {
        const out = ctx.malloc(4096);
        const [s, t] = [ctx.streamCreate({ nonBlocking: true }), ctx.streamCreate({ nonBlocking: true })];
        const [fork, join_] = [ctx.eventCreate(), ctx.eventCreate()];
        ctx.streamBeginCapture(s);
        ctx.memsetAsync(out, 0, 4096, s);
        ctx.eventRecord(fork, s);
        ctx.streamWaitEvent(t, fork); // t joins the capture
        ctx.launch(spin, { out, trips: 10 }, undefined, { stream: s });
        ctx.launch(spin, { out: ctx.host.offset(out, f32, 32), trips: 10 }, undefined, { stream: t });
        ctx.eventRecord(join_, t);
        ctx.streamWaitEvent(s, join_);
        ctx.launch(spin, { out, trips: 10 }, undefined, { stream: s });
        const g = ctx.streamEndCapture(s);
        nodes = g.nodes.map((n) => ({ type: n.type, deps: n.deps.map((d) => d.index) }));
        // a stream that joins and does not come back is an error at the end of the capture
        ctx.streamBeginCapture(s);
        ctx.eventRecord(fork, s);
        ctx.streamWaitEvent(t, fork);
        ctx.launch(spin, { out, trips: 10 }, undefined, { stream: t });
        try {
          ctx.streamEndCapture(s);
        } catch (e) {
          unjoined = (e as Error).message;
        }
      },
    });
    run(p);
    expect(nodes).toEqual([
      { type: 'memset', deps: [] },
      { type: 'kernel', deps: [0] },
      { type: 'kernel', deps: [0] },
      { type: 'kernel', deps: [1, 2] },
    ]);
    expect(unjoined).toMatch(/runtime\.test\.ts:\d+: stream 'Stream 14' joined the capture but its work .* does not rejoin 'Stream 13' .*cudaErrorStreamCaptureUnjoined/);
  });

  it('cudaMallocAsync in a capture makes an allocation node; a relaxed capture allows cudaMalloc', () => {
    let types: string[] = [];
    const p = defineProgram({
      name: 'alloc nodes',
      run: (ctx) => {
        const s = ctx.streamCreate({ nonBlocking: true });
        ctx.streamBeginCapture(s, 'relaxed');
        ctx.malloc(64);
        const d = ctx.mallocAsync(4096, s);
        ctx.launch(spin, { out: d, trips: 10 }, undefined, { stream: s });
        ctx.freeAsync(d, s);
        const g = ctx.streamEndCapture(s);
        types = g.nodes.map((n) => n.type);
        ctx.graphLaunch(ctx.graphInstantiate(g), s);
        ctx.streamSynchronize(s);
      },
    });
    run(p);
    expect(types).toEqual(['memAlloc', 'kernel', 'memFree']);
  });

  it("capture copies the stream's launch attributes into the nodes; a graph launch ignores its stream's (seed 000)", () => {
    const p = defineProgram({
      name: 'attributes',
      run: (ctx) => {
        const out = ctx.malloc(4096);
        const remote = ctx.streamCreate({ nonBlocking: true, name: 'remote' });
        const plain = ctx.streamCreate({ nonBlocking: true, name: 'plain' });
        ctx.streamSetAttributes(remote, { memSyncDomain: 'remote', memSyncDomainMap: { default: 0, remote: 3 } });
        ctx.streamBeginCapture(remote);
        ctx.launch(spin, { out, trips: 10 }, undefined, { stream: remote });
        const captured = ctx.graphInstantiate(ctx.streamEndCapture(remote));
        ctx.streamBeginCapture(plain);
        ctx.launch(spin, { out, trips: 10 }, undefined, { stream: plain });
        const unmarked = ctx.graphInstantiate(ctx.streamEndCapture(plain));
        ctx.graphLaunch(captured, plain); // keeps the remote domain it was captured with
        ctx.graphLaunch(unmarked, remote); // the stream's remote domain does not reach it
        ctx.launch(spin, { out, trips: 10 }, undefined, { stream: remote }); // a plain launch takes it
        ctx.deviceSynchronize();
      },
    });
    expect(kernels(run(p)).map((k) => k.domain)).toEqual([3, 0, 3]);
  });

  it('a child graph runs inside its parent, between the parent\'s nodes', () => {
    const p = defineProgram({
      name: 'child',
      run: (ctx) => {
        const out = ctx.malloc(4096);
        const child = ctx.graphCreate();
        const c1 = ctx.graphAddKernelNode(child, [], spin, { out, trips: 100 });
        ctx.graphAddKernelNode(child, [c1], spin, { out, trips: 100 });
        const g = ctx.graphCreate();
        const before = ctx.graphAddMemsetNode(g, [], out, 0, 128);
        const sub = ctx.graphAddChildGraphNode(g, [before], child);
        ctx.graphAddMemsetNode(g, [sub], out, 1, 128);
        ctx.graphLaunch(ctx.graphInstantiate(g));
        ctx.deviceSynchronize();
      },
    });
    const ops = run(p).timeline.ops.filter((o) => o.kind !== 'graph');
    expect(ops.map((o) => o.kind)).toEqual(['memset', 'kernel', 'kernel', 'memset']);
    for (let i = 1; i < ops.length; i++) expect((ops[i] as TimelineOp).startNs).toBeGreaterThanOrEqual((ops[i - 1] as TimelineOp).endNs);
  });

  it('cudaGraphExecKernelNodeSetParams changes the arguments of later launches', () => {
    const seen: number[] = [];
    const add = defineKernel({
      name: 'add',
      params: { p: ptr('global', u32), v: u32 },
      launch: { grid: 1, block: 1 },
      setup: (h) => ({ p: h.alloc(u32, 1, 'p') }),
      body: (k, { p, v }) => p.at(0).store(p.at(0).get().add(v)),
    });
    const p = defineProgram({
      name: 'update',
      run: (ctx) => {
        const d = ctx.malloc(4);
        const g = ctx.graphCreate();
        const n = ctx.graphAddKernelNode(g, [], add, { p: d, v: 1 });
        const exec = ctx.graphInstantiate(g);
        ctx.graphLaunch(exec);
        ctx.graphExecKernelNodeSetParams(exec, n, { v: 10 });
        ctx.graphLaunch(exec);
        ctx.deviceSynchronize();
        seen.push(ctx.host.readNumber(d, u32, 0));
      },
    });
    run(p);
    expect(seen).toEqual([11]);
  });
});

describe('stream priorities', () => {
  it("a high-priority stream's waiting kernel gets the SMs before a low-priority one that waited longer", () => {
    const p = defineProgram({
      name: 'priority',
      run: (ctx) => {
        const out = ctx.malloc(1 << 20);
        const [busy, low, high] = [0, 0, -5].map((priority, i) => ctx.streamCreate({ nonBlocking: true, priority, name: ['busy', 'low', 'high'][i] }));
        // one block per SM (200 KiB of shared memory): the first kernel fills the GPU for a while,
        // the low- and then the high-priority kernel arrive while it runs
        const full = { grid: 132, block: 32, dynamicShared: 200 * 1024 };
        ctx.launch(spin, { out, trips: 10000 }, full, { stream: busy });
        ctx.launch(spin, { out, trips: 100 }, full, { stream: low });
        ctx.launch(spin, { out, trips: 100 }, full, { stream: high });
        ctx.deviceSynchronize();
      },
    });
    const r = run(p);
    const on = (name: string): TimelineOp => kernels(r).find((k) => k.stream === r.timeline.streams.find((s) => s.name === name)?.id) as TimelineOp;
    const [first, low, high] = [on('busy'), on('low'), on('high')];
    expect(low.submitNs).toBeLessThan(high.submitNs);
    expect(high.submitNs).toBeLessThan(first.endNs);
    expect(high.startNs).toBeGreaterThanOrEqual(first.endNs);
    expect(high.startNs).toBeLessThan(low.startNs);
    expect(low.startNs).toBeGreaterThanOrEqual(high.endNs);
    expect(r.timeline.streams.find((s) => s.name === 'high')?.priority).toBe(-5);
  });
});

describe('events, allocation, copies', () => {
  it('cudaEventElapsedTime spans the kernels between the two records', () => {
    let ms = 0;
    let before = true;
    let after = false;
    const p = defineProgram({
      name: 'events',
      run: (ctx) => {
        const out = ctx.malloc(4096);
        const s = ctx.streamCreate({ nonBlocking: true });
        const [e0, e1] = [ctx.eventCreate(), ctx.eventCreate()];
        ctx.eventRecord(e0, s);
        ctx.launch(spin, { out, trips: 5000 }, undefined, { stream: s });
        ctx.eventRecord(e1, s);
        before = ctx.eventQuery(e1);
        ctx.eventSynchronize(e1);
        after = ctx.eventQuery(e1);
        ms = ctx.eventElapsedTime(e0, e1);
      },
    });
    const r = run(p);
    const k = kernels(r)[0] as TimelineOp;
    expect(before).toBe(false);
    expect(after).toBe(true);
    // from the first record to the kernel's end: its launch gets to the GPU later than the record
    expect(ms * 1e6).toBeGreaterThan(k.endNs - k.startNs);
    expect(ms * 1e6).toBeLessThan(k.endNs - k.startNs + C.host.launchKernelNs + C.gpu.launchLatencyNs + 1);
  });

  it('the pool keeps freed memory across a synchronize only up to its release threshold', () => {
    const program_ = (threshold: number): ProgramDef =>
      defineProgram({
        name: 'pool',
        run: (ctx) => {
          ctx.setMemPoolReleaseThreshold(threshold);
          const s = ctx.streamCreate({ nonBlocking: true });
          for (let i = 0; i < 3; i++) {
            ctx.freeAsync(ctx.mallocAsync(1 << 20, s), s);
            ctx.streamSynchronize(s);
            live.push(ctx.host.mem.allocations().length);
          }
        },
      });
    const calls = (p: ProgramRun): number[] => p.timeline.api.filter((a) => a.name === 'cudaMallocAsync').map((a) => a.endNs - a.startNs);
    // threshold 0: each synchronize gives the block back (to the device: nothing accumulates), each
    // allocation grows the pool again
    let live: number[] = [];
    expect(calls(run(program_(0)))).toEqual([C.host.poolGrowNs, C.host.poolGrowNs, C.host.poolGrowNs]);
    expect(new Set(live).size).toBe(1);
    live = [];
    expect(calls(run(program_(2 ** 40)))).toEqual([C.host.poolGrowNs, C.host.mallocAsyncPairNs / 2, C.host.mallocAsyncPairNs / 2]);
    expect(new Set(live).size).toBe(1);
  });

  it('cudaFree waits for the device; the MallocFreeInLoop rule fires on the seed example, not on its async form', async () => {
    const sync = await program('streams.ts', 'malloc_sync');
    const async_ = await program('streams.ts', 'malloc_async');
    const free = sync.timeline.api.find((a) => a.name === 'cudaFree');
    expect((free?.endNs ?? 0) - (free?.startNs ?? 0)).toBeGreaterThan(C.host.syncWakeNs);
    expect(sync.findings.some((f) => f.rule === 'MallocFreeInLoop')).toBe(true);
    expect(async_.findings.some((f) => f.rule === 'MallocFreeInLoop')).toBe(false);
    expect(async_.timeline.endNs).toBeLessThan(sync.timeline.endNs);
  });

  it('GpuIdle names the longest gap between GPU operations, from the timeline; not on the overlapping kernels', async () => {
    const p = await program('streams.ts', 'malloc_async');
    const gpu = p.timeline.ops.filter((o) => o.kind === 'kernel' || o.kind === 'memcpy' || o.kind === 'memset').sort((a, b) => a.startNs - b.startNs);
    // the gaps, walked here from the timeline: where no GPU operation runs
    let end = (gpu[0] as TimelineOp).endNs;
    let idle = 0;
    let longest = 0;
    for (const o of gpu.slice(1)) {
      if (o.startNs > end) {
        idle += o.startNs - end;
        longest = Math.max(longest, o.startNs - end);
      }
      end = Math.max(end, o.endNs);
    }
    const f = p.findings.find((x) => x.rule === 'GpuIdle');
    expect(f?.estimatedSavingNs).toBeCloseTo(idle, 6);
    expect(f?.message).toContain(`the longest gap, ${(longest / 1000).toFixed(1)} us`);
    expect((await program('streams.ts', 'two_streams')).findings).toEqual([]);
  });

  it('copies move the bytes; pageable ones are slower and named by the PageableMemcpy rule', () => {
    const got: number[] = [];
    const program_ = (pinned: boolean): ProgramDef =>
      defineProgram({
        name: 'copies',
        run: (ctx) => {
          const n = 1 << 20;
          const src = pinned ? ctx.mallocHost(n) : ctx.hostAlloc(n);
          const back = ctx.mallocHost(n);
          for (let i = 0; i < n; i += 4096) src.bytes[i] = (i >> 12) & 0xff;
          const d = ctx.malloc(n);
          ctx.memcpy(d, src, n);
          ctx.memcpy(back, d, n);
          got.push(back.bytes[4096 * 7] as number, back.bytes[4096 * 200] as number);
        },
      });
    const pinned = run(program_(true));
    const pageable = run(program_(false));
    expect(got).toEqual([7, 200, 7, 200]);
    const h2d = (p: ProgramRun): TimelineOp => p.timeline.ops.find((o) => o.copyKind === 'HtoD') as TimelineOp;
    expect(h2d(pinned).endNs - h2d(pinned).startNs).toBeCloseTo(C.copy.h2dLatencyNs + (1 << 20) / C.copy.h2dBytesPerNs, 3);
    expect(h2d(pageable).endNs - h2d(pageable).startNs).toBeGreaterThan(3 * (h2d(pinned).endNs - h2d(pinned).startNs));
    expect(pageable.findings.some((f) => f.rule === 'PageableMemcpy')).toBe(true);
    expect(pinned.findings.some((f) => f.rule === 'PageableMemcpy')).toBe(false);
  });

  it('a host function runs in stream order, between the work around it', () => {
    const order: string[] = [];
    const p = defineProgram({
      name: 'hostfn',
      run: (ctx) => {
        const d = ctx.malloc(4);
        const s = ctx.streamCreate({ nonBlocking: true });
        ctx.memsetAsync(d, 7, 4, s);
        ctx.launchHostFunc(s, () => order.push(`memset done: ${ctx.host.mem.find(d.address, 4) ? 'yes' : 'no'}`));
        ctx.launchHostFunc(s, () => order.push('second'));
        order.push('host continues');
        ctx.streamSynchronize(s);
      },
    });
    const r = run(p);
    expect(order).toEqual(['host continues', 'memset done: yes', 'second']);
    const fns = r.timeline.ops.filter((o) => o.kind === 'host');
    expect((fns[1] as TimelineOp).startNs).toBeGreaterThanOrEqual((fns[0] as TimelineOp).endNs);
  });
});

describe('launch overhead', () => {
  it('many tiny launches: the LaunchOverhead rule advises a graph; replaying one removes the host from the pace', async () => {
    const p = await program('launch_overhead.ts', 'launch_overhead', { params: { n: '100', reps: '1', syncs: '10' } });
    const f = p.findings.find((x) => x.rule === 'LaunchOverhead');
    expect(f?.message).toContain('CUDA graph');
    expect(f?.estimatedSavingNs).toBeGreaterThan(0);
    expect(value(p, 'graph_replay_gpu_us_per_kernel')).toBeLessThan(value(p, 'stream_launch_gpu_us_per_kernel') / 4);
  });
});
