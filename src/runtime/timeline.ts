/**
 * What a program did over simulated time, as Nsight Systems records it: every operation's submit,
 * start and end per stream, hardware queue and copy engine, the host's API calls, and how many SMs
 * held blocks. Plain data: the report carries it, renderers and rules read it.
 */
export type TimelineKind = 'kernel' | 'memcpy' | 'memset' | 'host' | 'eventRecord' | 'alloc' | 'free' | 'graph' | 'nvshmem';

export interface TimelineOp {
  id: number;
  kind: TimelineKind;
  name: string;
  /** stream id (graph nodes: the stream the graph was launched into) */
  stream: number;
  /** hardware queue the stream feeds (absent for graph nodes, which the graph schedules itself) */
  queue?: number;
  engine?: 'h2d' | 'd2h' | 'd2d';
  /** the graph launch a node ran in (its op id) */
  graphLaunch?: number;
  graphNode?: number;
  submitNs: number;
  startNs: number;
  endNs: number;
  bytes?: number;
  copyKind?: string;
  pinned?: boolean;
  /** index of its report entry in report.kernels (profiled launches only) */
  kernel?: number;
  grid?: [number, number, number];
  block?: [number, number, number];
  /** physical memory synchronization domain of a kernel */
  domain?: number;
  /** the program line that issued it */
  where?: string;
  /**
   * a dependency nobody wrote that held it back: the operation of another stream ahead of it in its
   * hardware queue, or the legacy default stream's implicit synchronisation
   */
  delayedBy?: { op: number; cause: 'hardware-queue' | 'legacy-stream'; ns: number };
}

export interface ApiCall {
  name: string;
  startNs: number;
  endNs: number;
  where?: string;
}

export interface TimelineStream {
  id: number;
  name: string;
  queue: number;
  priority: number;
  nonBlocking: boolean;
}

export interface Timeline {
  hwQueues: number;
  streams: TimelineStream[];
  ops: TimelineOp[];
  api: ApiCall[];
  /** SMs holding at least one block, from each change on */
  smBusy: { t: number; busySms: number }[];
  endNs: number;
}

/** per-name statistics as nsys stats prints them */
export interface SummaryRow {
  name: string;
  count: number;
  totalNs: number;
  avgNs: number;
  medNs: number;
  minNs: number;
  maxNs: number;
  stdDevNs: number;
  /** share of the summed total of all rows, % */
  pct: number;
  bytes?: number;
}

export function summarize(items: readonly { name: string; ns: number; bytes?: number }[]): SummaryRow[] {
  const by = new Map<string, { ns: number[]; bytes: number }>();
  for (const it of items) {
    let e = by.get(it.name);
    if (!e) by.set(it.name, (e = { ns: [], bytes: 0 }));
    e.ns.push(it.ns);
    e.bytes += it.bytes ?? 0;
  }
  const total = items.reduce((a, b) => a + b.ns, 0);
  const rows: SummaryRow[] = [];
  for (const [name, e] of by) {
    const v = [...e.ns].sort((a, b) => a - b);
    const sum = v.reduce((a, b) => a + b, 0);
    const avg = sum / v.length;
    const med = v.length % 2 ? (v[(v.length - 1) / 2] as number) : ((v[v.length / 2 - 1] as number) + (v[v.length / 2] as number)) / 2;
    const sd = v.length > 1 ? Math.sqrt(v.reduce((a, b) => a + (b - avg) ** 2, 0) / (v.length - 1)) : 0;
    rows.push({ name, count: v.length, totalNs: sum, avgNs: avg, medNs: med, minNs: v[0] as number, maxNs: v[v.length - 1] as number, stdDevNs: sd, pct: total > 0 ? (100 * sum) / total : 0, ...(e.bytes ? { bytes: e.bytes } : {}) });
  }
  return rows.sort((a, b) => b.totalNs - a.totalNs || (a.name < b.name ? -1 : 1));
}

const COPY_NAMES: Record<string, string> = {
  HtoD: '[CUDA memcpy Host-to-Device]',
  DtoH: '[CUDA memcpy Device-to-Host]',
  DtoD: '[CUDA memcpy Device-to-Device]',
  HtoH: '[CUDA memcpy Host-to-Host]',
};

/** nsys's name of a memory operation */
export function memopName(op: TimelineOp): string {
  return op.kind === 'memset' ? '[CUDA memset]' : (COPY_NAMES[op.copyKind ?? ''] ?? '[CUDA memcpy]');
}

export interface RuntimeSummary {
  kernels: SummaryRow[];
  /** NVSHMEM's on-stream operations (multi-PE programs) */
  nvshmem: SummaryRow[];
  memops: SummaryRow[];
  api: SummaryRow[];
  streams: { stream: number; name: string; ops: number; busyNs: number }[];
  /** GPU time with no kernel, copy or memset running, between the first operation and the last */
  gpuIdleNs: number;
  spanNs: number;
}

/** union length of intervals */
function covered(iv: { s: number; e: number }[]): number {
  const v = [...iv].sort((a, b) => a.s - b.s);
  let total = 0;
  let cs = -Infinity;
  let ce = -Infinity;
  for (const { s, e } of v) {
    if (s > ce) {
      if (ce > cs) total += ce - cs;
      cs = s;
      ce = e;
    } else if (e > ce) ce = e;
  }
  if (ce > cs) total += ce - cs;
  return total;
}

export function gpuOps(t: Timeline): TimelineOp[] {
  return t.ops.filter((o) => o.kind === 'kernel' || o.kind === 'memcpy' || o.kind === 'memset');
}

export function runtimeSummary(t: Timeline): RuntimeSummary {
  const kernels = t.ops.filter((o) => o.kind === 'kernel');
  const memops = t.ops.filter((o) => o.kind === 'memcpy' || o.kind === 'memset');
  const gpu = gpuOps(t);
  const first = Math.min(...gpu.map((o) => o.startNs));
  const last = Math.max(...gpu.map((o) => o.endNs));
  const span = gpu.length ? last - first : 0;
  const busy = covered(gpu.map((o) => ({ s: o.startNs, e: o.endNs })));
  return {
    kernels: summarize(kernels.map((o) => ({ name: o.name, ns: o.endNs - o.startNs }))),
    nvshmem: summarize(t.ops.filter((o) => o.kind === 'nvshmem').map((o) => ({ name: o.name, ns: o.endNs - o.startNs }))),
    memops: summarize(memops.map((o) => ({ name: memopName(o), ns: o.endNs - o.startNs, ...(o.bytes ? { bytes: o.bytes } : {}) }))),
    api: summarize(t.api.map((a) => ({ name: a.name, ns: a.endNs - a.startNs }))),
    streams: t.streams.map((s) => {
      const mine = gpu.filter((o) => o.stream === s.id);
      return { stream: s.id, name: s.name, ops: mine.length, busyNs: covered(mine.map((o) => ({ s: o.startNs, e: o.endNs }))) };
    }).filter((s) => s.ops > 0),
    gpuIdleNs: span - busy,
    spanNs: span,
  };
}
