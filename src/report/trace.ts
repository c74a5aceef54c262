/**
 * A report's program timelines in the Chrome Trace Event Format, as Perfetto and chrome://tracing
 * read it (runtime-system.md 6): one process per program's GPU and one for its host thread; a track
 * per stream, per copy engine and for the host's CUDA API calls; complete ('X') events in
 * microseconds; the SMs in use as a counter. Slices on one track must nest, so work that overlaps on
 * one stream (a graph's parallel nodes) is spread over lanes of that stream.
 */
import type { Report, TimelineOp } from '../../types/report.schema.js';

/** a type, not an interface: it must be assignable to the schema's generated TraceEvent (an index signature) */
export type TraceEvent = {
  name: string;
  ph: 'X' | 'M' | 'C' | 'i';
  pid: number;
  tid?: number;
  ts?: number;
  dur?: number;
  cat?: string;
  s?: 'g' | 'p' | 't';
  args?: Record<string, string | number | boolean>;
};

const ENGINES = ['h2d', 'd2h', 'd2d'] as const;
const ENGINE_NAMES: Record<(typeof ENGINES)[number], string> = { h2d: 'Copy engine (Host-to-Device)', d2h: 'Copy engine (Device-to-Host)', d2d: 'Copy engine (Device-to-Device, memset)' };

const us = (ns: number): number => Math.round(ns) / 1000;
/**
 * a slice's duration from its rounded ends, not rounded on its own: back-to-back slices of one track
 * (API calls, a stream's kernels) must not overlap by a rounding nanosecond, or Perfetto moves them
 * to an overflow track
 */
const dur = (startNs: number, endNs: number): number => (Math.round(endNs) - Math.round(startNs)) / 1000;

export function traceEvents(report: Report): { traceEvents: TraceEvent[] } {
  const out: TraceEvent[] = [];
  (report.programs ?? []).forEach((p, pi) => {
    const t = p.timeline;
    const gpuPid = 2 * pi + 1;
    const hostPid = 2 * pi + 2;
    out.push({ name: 'process_name', ph: 'M', pid: gpuPid, args: { name: `${p.name}: GPU 0 (${report.device.name})` } });
    out.push({ name: 'process_name', ph: 'M', pid: hostPid, args: { name: `${p.name}: host` } });
    out.push({ name: 'thread_name', ph: 'M', pid: hostPid, tid: 1, args: { name: 'CUDA API' } });
    for (const a of t.api) out.push({ name: a.name, ph: 'X', pid: hostPid, tid: 1, ts: us(a.startNs), dur: dur(a.startNs, a.endNs), cat: 'cuda_api', ...(a.where ? { args: { where: a.where } } : {}) });

    // lanes per stream: an op goes on the first lane of its stream that is free at its start
    const lanes = new Map<number, number[]>();
    const named = new Set<number>();
    const laneOf = (o: TimelineOp): number => {
      const ends = lanes.get(o.stream) ?? [];
      lanes.set(o.stream, ends);
      let l = ends.findIndex((e) => e <= o.startNs);
      if (l < 0) l = ends.push(0) - 1;
      ends[l] = o.endNs;
      return l;
    };
    const ops = [...t.ops].sort((a, b) => a.startNs - b.startNs || a.id - b.id);
    for (const o of ops) {
      if (o.kind === 'eventRecord') {
        out.push({ name: o.name, ph: 'i', s: 't', pid: gpuPid, tid: 1000 * (o.stream + 1), ts: us(o.startNs), cat: 'event' });
        continue;
      }
      const lane = o.kind === 'graph' ? 999 : laneOf(o);
      const tid = 1000 * (o.stream + 1) + lane;
      if (!named.has(tid)) {
        named.add(tid);
        const s = t.streams.find((x) => x.id === o.stream);
        const base = s ? `${s.name} (queue ${s.queue})` : `stream ${o.stream}`;
        out.push({ name: 'thread_name', ph: 'M', pid: gpuPid, tid, args: { name: lane === 999 ? `${base} graph launches` : lane ? `${base} lane ${lane}` : base } });
      }
      const args: Record<string, string | number | boolean> = { id: o.id };
      if (o.where) args.where = o.where;
      if (o.grid) args.grid = o.grid.join(',');
      if (o.block) args.block = o.block.join(',');
      if (o.bytes !== undefined) args.bytes = o.bytes;
      if (o.kernel !== undefined) args.report_kernel = o.kernel;
      if (o.graphLaunch !== undefined) args.graph_launch = o.graphLaunch;
      if (o.delayedBy) args.delayed_by = `op ${o.delayedBy.op} (${o.delayedBy.cause}, ${us(o.delayedBy.ns)} us)`;
      out.push({ name: o.name, ph: 'X', pid: gpuPid, tid, ts: us(o.startNs), dur: dur(o.startNs, o.endNs), cat: o.kind, args });
      if (o.engine) {
        const etid = 100 + ENGINES.indexOf(o.engine);
        if (!named.has(etid)) {
          named.add(etid);
          out.push({ name: 'thread_name', ph: 'M', pid: gpuPid, tid: etid, args: { name: ENGINE_NAMES[o.engine] } });
        }
        out.push({ name: o.name, ph: 'X', pid: gpuPid, tid: etid, ts: us(o.startNs), dur: dur(o.startNs, o.endNs), cat: o.kind, args: { id: o.id } });
      }
    }
    for (const s of t.smBusy) out.push({ name: 'SMs in use', ph: 'C', pid: gpuPid, ts: us(s.t), args: { sms: s.busySms } });
  });
  return { traceEvents: out };
}
