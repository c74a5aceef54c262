/**
 * Rules of the Nsight Systems kind over a program's timeline (`nsys analyze` and the seeds' advice):
 * each a small pure function from the timeline and the runtime's costs to findings with the time the
 * advice would save in the model.
 */
import type { RuntimeCosts } from '../arch/runtimeCosts.js';
import { gpuOps, type Timeline, type TimelineOp } from './timeline.js';

export interface RuntimeFinding {
  rule: string;
  severity: 'warning' | 'info';
  message: string;
  estimatedSavingNs?: number;
  ops?: number[];
}

type Rule = (t: Timeline, c: RuntimeCosts) => RuntimeFinding[];

const us = (ns: number): string => `${(ns / 1000).toFixed(ns < 10_000 ? 2 : 1)} us`;
const at = (o: TimelineOp): string => (o.where ? ` (${o.where})` : '');

/** many short kernels launched one by one where the launch, not the kernel, sets the pace: use a graph */
const launchOverhead: Rule = (t, c) => {
  const launched = t.ops.filter((o) => o.kind === 'kernel' && o.graphLaunch === undefined);
  if (launched.length < 20) return [];
  const byStream = new Map<number, TimelineOp[]>();
  for (const o of launched) byStream.set(o.stream, [...(byStream.get(o.stream) ?? []), o]);
  const out: RuntimeFinding[] = [];
  for (const [stream, ks] of byStream) {
    if (ks.length < 20) continue;
    const busy = ks.reduce((a, o) => a + (o.endNs - o.startNs), 0);
    const span = (ks[ks.length - 1] as TimelineOp).endNs - (ks[0] as TimelineOp).startNs;
    const avg = busy / ks.length;
    // launched one by one, a kernel costs the host's submit; replayed from a graph, the node gap
    if (avg >= c.host.launchKernelNs || busy > span / 2) continue;
    const asGraph = ks.length * (avg + c.gpu.graphNodeGapNs) + c.gpu.graphLaunchGpuNs;
    const saving = span - asGraph;
    if (saving <= 0) continue;
    const name = t.streams.find((s) => s.id === stream)?.name ?? `stream ${stream}`;
    out.push({
      rule: 'LaunchOverhead',
      severity: 'warning',
      message: `${ks.length} kernels on '${name}' run ${us(avg)} each but start ${us(span / ks.length)} apart: the launch (${us(c.host.launchKernelNs)} of host time each) sets the pace and the GPU is idle ${((100 * (span - busy)) / span).toFixed(0)} % of the time. Capture them into a CUDA graph and launch it (${us(c.gpu.graphNodeGapNs)} between dependent nodes): about ${us(saving)} faster.`,
      estimatedSavingNs: saving,
      ops: ks.slice(0, 2).map((o) => o.id),
    });
  }
  return out;
};

/** cudaMalloc / cudaFree in a loop: each cudaFree waits for the whole device */
const mallocInLoop: Rule = (t, c) => {
  const frees = t.api.filter((a) => a.name === 'cudaFree');
  const mallocs = t.api.filter((a) => a.name === 'cudaMalloc');
  if (frees.length + mallocs.length < 10) return [];
  const spent = [...frees, ...mallocs].reduce((a, x) => a + (x.endNs - x.startNs), 0);
  const asAsync = Math.max(frees.length, mallocs.length) * c.host.mallocAsyncPairNs;
  const saving = spent - asAsync;
  if (saving <= 0) return [];
  const where = frees[0]?.where ?? mallocs[0]?.where;
  return [
    {
      rule: 'MallocFreeInLoop',
      severity: 'warning',
      message: `${mallocs.length} cudaMalloc and ${frees.length} cudaFree calls${where ? ` (first at ${where})` : ''} hold the host ${us(spent)}: cudaFree synchronises the whole device, so the GPU drains and idles at each one ("cudaMalloc() or cudaFree() halts GPU"). Use cudaMallocAsync / cudaFreeAsync on the stream (a memory pool): about ${us(saving)} less.`,
      estimatedSavingNs: saving,
    },
  ];
};

/** streams serialised by a dependency nobody wrote: a shared hardware queue or the legacy default stream */
const implicitSerialisation: Rule = (t) => {
  const out: RuntimeFinding[] = [];
  const byCause = new Map<string, TimelineOp[]>();
  for (const o of t.ops) if (o.delayedBy) byCause.set(o.delayedBy.cause, [...(byCause.get(o.delayedBy.cause) ?? []), o]);
  const name = (id: number): string => t.streams.find((s) => s.id === id)?.name ?? `stream ${id}`;
  for (const [cause, ops] of byCause) {
    const first = ops[0] as TimelineOp;
    const other = t.ops[first.delayedBy?.op ?? -1];
    if (!other) continue;
    const lost = ops.reduce((a, o) => a + (o.delayedBy?.ns ?? 0), 0);
    if (cause === 'hardware-queue') {
      out.push({
        rule: 'FalseDependency',
        severity: 'warning',
        message: `${first.kind} '${first.name}' on '${name(first.stream)}'${at(first)} waited behind ${other.kind} '${other.name}' of '${name(other.stream)}'${at(other)}: both streams feed hardware queue ${first.queue} of ${t.hwQueues} (CUDA_DEVICE_MAX_CONNECTIONS), and a queue starts its work in order, so the second stream waits for the first one's dependency. ${ops.length} operation(s) delayed ${us(lost)} in all. Use at most ${t.hwQueues} busy streams, raise CUDA_DEVICE_MAX_CONNECTIONS (--hw-queues), or issue the streams' work breadth-first.`,
        estimatedSavingNs: lost,
        ops: [first.id, other.id],
      });
    } else {
      out.push({
        rule: 'LegacyStreamSync',
        severity: 'warning',
        message: `${first.kind} '${first.name}' on '${name(first.stream)}'${at(first)} waited for ${other.kind} '${other.name}' on '${name(other.stream)}'${at(other)}: the legacy default stream synchronises with every blocking stream. Create the streams with { nonBlocking: true } (cudaStreamNonBlocking) or use the per-thread default stream. ${ops.length} operation(s) delayed ${us(lost)} in all.`,
        estimatedSavingNs: lost,
        ops: [first.id, other.id],
      });
    }
  }
  return out;
};

/** copies from or to pageable host memory: staged by the host at a fraction of the bandwidth */
const pageableCopies: Rule = (t, c) => {
  const ops = t.ops.filter((o) => o.kind === 'memcpy' && o.pinned === false);
  if (!ops.length) return [];
  const bytes = ops.reduce((a, o) => a + (o.bytes ?? 0), 0);
  const took = ops.reduce((a, o) => a + (o.endNs - o.startNs), 0);
  const pinned = ops.reduce((a, o) => a + (o.copyKind === 'DtoH' ? c.copy.d2hLatencyNs + (o.bytes ?? 0) / c.copy.d2hBytesPerNs : c.copy.h2dLatencyNs + (o.bytes ?? 0) / c.copy.h2dBytesPerNs), 0);
  const first = ops[0] as TimelineOp;
  return [
    {
      rule: 'PageableMemcpy',
      severity: 'warning',
      message: `${ops.length} copies (${(bytes / 1e6).toFixed(2)} MB) use pageable host memory, first '${first.name}'${at(first)}: the driver stages them through a pinned buffer, holding the host, and they cannot overlap kernels. Allocate the host buffers pinned (ctx.mallocHost, cudaMallocHost): about ${us(took - pinned)} less copy time.`,
      estimatedSavingNs: took - pinned,
      ops: ops.slice(0, 3).map((o) => o.id),
    },
  ];
};

/** the GPU idles between its first and last operation */
const gpuIdle: Rule = (t) => {
  const ops = gpuOps(t).sort((a, b) => a.startNs - b.startNs);
  if (ops.length < 2) return [];
  const gaps: { s: number; e: number; after: TimelineOp; before: TimelineOp }[] = [];
  let end = (ops[0] as TimelineOp).endNs;
  let last = ops[0] as TimelineOp;
  for (const o of ops.slice(1)) {
    if (o.startNs > end) gaps.push({ s: end, e: o.startNs, after: last, before: o });
    if (o.endNs > end) {
      end = o.endNs;
      last = o;
    }
  }
  const span = end - (ops[0] as TimelineOp).startNs;
  const idle = gaps.reduce((a, g) => a + (g.e - g.s), 0);
  const big = gaps.filter((g) => g.e - g.s >= Math.max(10_000, span * 0.05)).sort((a, b) => b.e - b.s - (a.e - a.s));
  if (!big.length || idle < span * 0.2) return [];
  const g = big[0] as (typeof big)[number];
  return [
    {
      rule: 'GpuIdle',
      severity: 'info',
      message: `The GPU is idle ${us(idle)} of ${us(span)} (${((100 * idle) / span).toFixed(0)} %) between its first and last operation; the longest gap, ${us(g.e - g.s)}, lies between '${g.after.name}'${at(g.after)} and '${g.before.name}'${at(g.before)}. Keep work queued: launch ahead of synchronisation, overlap copies with kernels on other streams.`,
      estimatedSavingNs: idle,
      ops: [g.after.id, g.before.id],
    },
  ];
};

export const RUNTIME_RULES: readonly Rule[] = [launchOverhead, mallocInLoop, implicitSerialisation, pageableCopies, gpuIdle];

export function runtimeFindings(t: Timeline, c: RuntimeCosts): RuntimeFinding[] {
  return RUNTIME_RULES.flatMap((r) => r(t, c));
}
