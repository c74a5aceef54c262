/**
 * A program's timeline as Nsight Systems draws it: one row for the host's CUDA API calls, one per
 * stream (named with the hardware queue it feeds; a graph's launches and work that overlaps on one
 * stream get rows of their own), one per copy engine; a bar per operation coloured by kind, with the
 * profiled kernel's key counters in its tooltip and a link to its section. Under it, the SMs holding
 * blocks over the same time axis. Pure: report in, vega-lite spec out.
 *
 * Large programs stay drawable: past MAX_TIMELINE_BARS bars, bars of one row and kind that lie
 * closer than a pixel merge into one (doubling the distance until they fit), and the title says so;
 * `--trace` keeps every operation for Perfetto.
 */
import type { KernelResult, ProgramRun, Report, TimelineOp } from '../../../types/report.schema.js';
import { formatMetric, formatNumber } from '../format.js';
import { CHART_CONFIG, type ChartDef } from './types.js';

/** bars drawn before merging; an SVG of a few thousand paths still draws in well under a second */
export const MAX_TIMELINE_BARS = 3000;
/** points of the SMs-in-use line before it is reduced to each pixel's peak */
export const MAX_SM_POINTS = 2000;
/** plot width in pixels (the row labels come on top) */
export const TIMELINE_WIDTH = 1000;

export type BarKind = TimelineOp['kind'] | 'api';

/** fixed colours per kind (nsys-like: kernels blue, copies orange, memsets teal, host green) */
export const KIND_COLOURS: ReadonlyArray<readonly [BarKind, string]> = [
  ['kernel', '#4c78a8'],
  ['memcpy', '#f58518'],
  ['memset', '#72b7b2'],
  ['host', '#54a24b'],
  ['graph', '#b279a2'],
  ['alloc', '#9d755d'],
  ['free', '#bab0ac'],
  ['api', '#888888'],
];

const ENGINE_ROWS: Readonly<Record<NonNullable<TimelineOp['engine']>, string>> = {
  h2d: 'Copy engine: Host-to-Device',
  d2h: 'Copy engine: Device-to-Host',
  d2d: 'Copy engine: Device-to-Device',
};
export const API_ROW = 'CUDA API (host thread)';

/**
 * The tooltip: title → text, in display order, holding only what the bar has. One object rather
 * than a field per line because vega-lite turns a missing field into the text "undefined".
 */
export type Tip = Record<string, string>;

/** One bar. */
export interface TimelineBar {
  row: string;
  kind: BarKind;
  name: string;
  /** drawn extent in µs from the program's start (at least a pixel wide) */
  x: number;
  x2: number;
  /** operations this bar stands for (1 unless merged) */
  count: number;
  /** the bar's accessible label: `<kind> <name> on <row> …` (the test counts kernel bars by it) */
  description: string;
  /** share of its drawn width the bar's operations ran: sparse merged or sub-pixel bars are fainter */
  busy: number;
  /** held back by a dependency nobody wrote (drawn outlined) */
  delayed?: true;
  /** `#kernel-N`: clicking the bar goes to the kernel's section */
  href?: string;
  tip: Tip;
}

export interface TimelineData {
  bars: TimelineBar[];
  /** row labels, top to bottom */
  rows: string[];
  /** kinds present, in KIND_COLOURS order */
  kinds: BarKind[];
  /** operations and API calls drawn (before merging; a copy counts once, though drawn on its stream and its engine) */
  items: number;
  /** pixels within which bars were merged; 0: none */
  mergedPx: number;
  endUs: number;
}

const ns = (v: number): string => {
  const c = formatMetric(Math.round(v * 1000) / 1000, 'ns');
  return `${c.value} ${c.unit}`;
};
const us3 = (v: number): number => Math.round(v) / 1000;

function metricCell(kernel: KernelResult, id: string, unit: string): string | undefined {
  const v = kernel.metrics[id];
  if (v === undefined) return undefined;
  const c = formatMetric(v, unit);
  return c.unit === '' ? c.value : `${c.value} ${c.unit}`;
}

/** the key counters of a kernel op's report entry, as tooltip lines */
function counters(report: Report, op: TimelineOp): Tip {
  const k = op.kernel === undefined ? undefined : report.kernels[op.kernel];
  if (!k) return {};
  const tip: Tip = { 'Report entry': `#${op.kernel} ${k.name}` };
  const fields: ReadonlyArray<readonly [string, string, string]> = [
    ['Kernel duration (ncu)', 'gpu__time_duration.sum', 'ns'],
    ['Warp instructions', 'smsp__inst_executed.sum', 'inst'],
    ['Achieved occupancy', 'sm__warps_active.avg.pct_of_peak_sustained_active', '%'],
    ['DRAM bytes', 'dram__bytes.sum', 'byte'],
  ];
  for (const [title, id, unit] of fields) {
    const cell = metricCell(k, id, unit);
    if (cell !== undefined) tip[title] = cell;
  }
  return tip;
}

/** `name · queue q`, made unique (user code may give two streams one name) */
function streamLabels(p: ProgramRun): Map<number, string> {
  const labels = new Map<number, string>();
  const used = new Set<string>();
  for (const s of [...p.timeline.streams].sort((a, b) => a.id - b.id)) {
    let label = `${s.name} · queue ${s.queue}`;
    if (used.has(label)) label = `${label} (id ${s.id})`;
    used.add(label);
    labels.set(s.id, label);
  }
  return labels;
}

interface RawBar {
  row: string;
  kind: BarKind;
  name: string;
  startNs: number;
  endNs: number;
  /** tooltip lines after name, kind, start and duration */
  tip: Tip;
  href?: string;
  delayed?: true;
}

/** every bar before merging, rows in drawing order */
function rawBars(report: Report, p: ProgramRun): { bars: RawBar[]; rows: string[] } {
  const t = p.timeline;
  const labels = streamLabels(p);
  const bars: RawBar[] = [];
  for (const a of t.api) bars.push({ row: API_ROW, kind: 'api', name: a.name, startNs: a.startNs, endNs: a.endNs, tip: a.where ? { Where: a.where } : {} });
  // lanes per stream row: work of a graph's parallel branches overlaps on its stream
  const lanes = new Map<string, number[]>();
  const laneRow = (base: string, o: TimelineOp): string => {
    const ends = lanes.get(base) ?? [];
    lanes.set(base, ends);
    let l = ends.findIndex((e) => e <= o.startNs);
    if (l < 0) l = ends.push(0) - 1;
    ends[l] = o.endNs;
    return l === 0 ? base : `${base} · lane ${l + 1}`;
  };
  const ops = t.ops.filter((o) => o.kind !== 'eventRecord').sort((a, b) => a.startNs - b.startNs || a.id - b.id);
  for (const o of ops) {
    const stream = labels.get(o.stream) ?? `stream ${o.stream}`;
    const s = t.streams.find((x) => x.id === o.stream);
    const tip: Tip = { Stream: s ? s.name : `stream ${o.stream}` };
    // graph nodes go where the graph sends them, not through the stream's queue
    if (o.queue !== undefined) tip['Hardware queue'] = String(o.queue);
    else if (s) tip['Hardware queue'] = `${s.queue} (graph node)`;
    if (o.where) tip.Where = o.where;
    if (o.bytes !== undefined) tip.Bytes = `${formatNumber(o.bytes)} B${o.pinned === false ? ' (pageable)' : ''}`;
    if (o.delayedBy) tip['Delayed by'] = `${ns(o.delayedBy.ns)} behind op ${o.delayedBy.op} (${o.delayedBy.cause})`;
    Object.assign(tip, counters(report, o));
    const link = o.kernel !== undefined && report.kernels[o.kernel] ? { href: `#kernel-${o.kernel}` } : {};
    const common = { kind: o.kind, name: o.name, startNs: o.startNs, endNs: o.endNs, tip, ...link, ...(o.delayedBy ? { delayed: true as const } : {}) };
    bars.push({ row: o.kind === 'graph' ? `${stream} · graph launches` : laneRow(stream, o), ...common });
    if (o.engine) bars.push({ row: ENGINE_ROWS[o.engine], ...common });
  }
  // rows: the host first, then streams by id (each with its lanes and graph row), then the engines
  const present = new Set(bars.map((b) => b.row));
  const rows: string[] = [];
  if (present.has(API_ROW)) rows.push(API_ROW);
  const streamRows = [...present].filter((r) => r !== API_ROW && !Object.values(ENGINE_ROWS).includes(r));
  for (const label of labels.values()) {
    const mine = streamRows.filter((r) => r === label || r.startsWith(`${label} · lane `) || r === `${label} · graph launches`);
    const lane = (r: string): number => (r === label ? 0 : r.endsWith('graph launches') ? -1 : Number(r.slice(r.lastIndexOf(' ') + 1)));
    rows.push(...mine.sort((a, b) => lane(a) - lane(b)));
  }
  for (const r of streamRows) if (!rows.includes(r)) rows.push(r);
  for (const r of Object.values(ENGINE_ROWS)) if (present.has(r)) rows.push(r);
  return { bars, rows };
}

/** bars of one row and kind closer than `gapNs` become one */
function merge(bars: readonly RawBar[], gapNs: number): { bar: RawBar; members: RawBar[] }[] {
  const groups = new Map<string, RawBar[]>();
  for (const b of bars) {
    const key = `${b.row}\u0000${b.kind}`;
    const g = groups.get(key);
    if (g) g.push(b);
    else groups.set(key, [b]);
  }
  const out: { bar: RawBar; members: RawBar[] }[] = [];
  for (const g of groups.values()) {
    let cur: { bar: RawBar; members: RawBar[] } | undefined;
    for (const b of [...g].sort((a, c) => a.startNs - c.startNs)) {
      if (cur && b.startNs - cur.bar.endNs < gapNs) {
        cur.members.push(b);
        cur.bar = { ...cur.bar, endNs: Math.max(cur.bar.endNs, b.endNs) };
      } else {
        cur = { bar: b, members: [b] };
        out.push(cur);
      }
    }
  }
  return out;
}

export function timelineData(report: Report, programIndex: number): TimelineData {
  const p = report.programs?.[programIndex];
  if (!p) throw new Error(`report has no program ${programIndex}`);
  const { bars: raw, rows } = rawBars(report, p);
  const endNs = Math.max(p.timeline.endNs, ...raw.map((b) => b.endNs), 1);
  const pixelNs = endNs / TIMELINE_WIDTH;
  let groups = raw.map((b) => ({ bar: b, members: [b] }));
  let mergedPx = 0;
  // from one pixel up (a bar is drawn at least a pixel wide, so closer ones would overlap and look
  // busy), doubling until they fit
  for (let px = 1; groups.length > MAX_TIMELINE_BARS && px <= TIMELINE_WIDTH; px *= 2) {
    groups = merge(raw, px * pixelNs);
    mergedPx = px;
  }
  const bars = groups.map(({ bar, members }): TimelineBar => {
    const x = us3(bar.startNs);
    const x2 = Math.max(us3(bar.endNs), us3(bar.startNs + pixelNs));
    const start = ns(bar.startNs);
    if (members.length === 1) {
      const duration = ns(bar.endNs - bar.startNs);
      // a bar widened to a pixel is drawn as faint as the share of that pixel it really ran
      const busy = Math.min(1, Math.round((1000 * (bar.endNs - bar.startNs)) / Math.max(pixelNs, 1e-9)) / 1000);
      return {
        row: bar.row,
        kind: bar.kind,
        name: bar.name,
        x,
        x2,
        count: 1,
        busy,
        description: `${bar.kind} ${bar.name} on ${bar.row} at ${start} for ${duration}`,
        ...(bar.delayed ? { delayed: true as const } : {}),
        ...(bar.href !== undefined ? { href: bar.href } : {}),
        tip: { Name: bar.name, Kind: bar.kind, Start: start, Duration: duration, ...bar.tip },
      };
    }
    // a merged bar: what it holds, not one op's details (its kernels have their own sections)
    const names = [...new Set(members.map((m) => m.name))];
    const busyNs = members.reduce((a, m) => a + (m.endNs - m.startNs), 0);
    const busy = Math.round((1000 * busyNs) / Math.max(bar.endNs - bar.startNs, 1e-9)) / 1000;
    const name = `${formatNumber(members.length)} × ${names.slice(0, 3).join(', ')}${names.length > 3 ? ', …' : ''}`;
    return {
      row: bar.row,
      kind: bar.kind,
      name,
      x,
      x2,
      count: members.length,
      busy,
      description: `${bar.kind} (merged) ${name} on ${bar.row} from ${start}`,
      tip: {
        Name: name,
        Kind: `${bar.kind} (${formatNumber(members.length)} merged)`,
        Start: start,
        Span: ns(bar.endNs - bar.startNs),
        Busy: `${ns(busyNs)} (${formatNumber(Math.round(busy * 1000) / 10)} %)`,
        Row: bar.row,
      },
    };
  });
  bars.sort((a, b) => rows.indexOf(a.row) - rows.indexOf(b.row) || a.x - b.x);
  const kinds = KIND_COLOURS.map(([k]) => k).filter((k) => bars.some((b) => b.kind === k));
  const items = p.timeline.api.length + p.timeline.ops.filter((o) => o.kind !== 'eventRecord').length;
  return { bars, rows, kinds, items, mergedPx, endUs: us3(endNs) };
}

/** the SMs-in-use step line; past MAX_SM_POINTS, each pixel's peak (a short burst stays visible) */
export function smBusyPoints(p: ProgramRun, endUs: number): { points: { t: number; sms: number }[]; reduced: boolean } {
  // changes within one rounded nanosecond (a grid's blocks retiring) keep the last: equal times
  // would leave the step line's order, and so the value drawn, to the sort
  const src: { t: number; sms: number }[] = [];
  for (const s of p.timeline.smBusy) {
    const t = us3(s.t);
    const top = src[src.length - 1];
    if (top && top.t === t) top.sms = s.busySms;
    else src.push({ t, sms: s.busySms });
  }
  // the line runs to the end of the program, not to the last change
  const last = src[src.length - 1];
  if (last && last.t < endUs) src.push({ t: endUs, sms: last.sms });
  if (src.length <= MAX_SM_POINTS) return { points: src, reduced: false };
  const bucketUs = endUs / TIMELINE_WIDTH;
  const points: { t: number; sms: number }[] = [];
  let i = 0;
  let current = 0;
  for (let b = 0; b < TIMELINE_WIDTH; b++) {
    const end = (b + 1) * bucketUs;
    // the value in force as the pixel opens counts, then every change inside it
    let peak = current;
    for (; i < src.length && (src[i] as { t: number }).t < end; i++) {
      current = (src[i] as { sms: number }).sms;
      peak = Math.max(peak, current);
    }
    if (points[points.length - 1]?.sms !== peak) points.push({ t: Math.round(b * bucketUs * 1000) / 1000, sms: peak });
  }
  points.push({ t: endUs, sms: current });
  return { points, reduced: true };
}

export function timelineChart(report: Report, programIndex: number): ChartDef {
  const p = report.programs?.[programIndex];
  if (!p) throw new Error(`report has no program ${programIndex}`);
  const data = timelineData(report, programIndex);
  const sm = smBusyPoints(p, data.endUs);
  const title = `Timeline: ${p.name}`;
  const subtitle = [
    `${formatNumber(data.items)} operations and API calls over ${ns(data.endUs * 1000)}; click a kernel to reach its section, scroll to zoom, drag to pan; red outline: delayed by a dependency nobody wrote`,
    ...(data.mergedPx > 0
      ? [
          `${formatNumber(data.bars.length)} bars drawn: bars of one row and kind closer than ${formatNumber(data.mergedPx)} px are merged, fainter where mostly idle (--trace keeps every operation)`,
        ]
      : []),
    ...(sm.reduced ? ['SMs in use: the peak of each pixel'] : []),
  ];
  const labelWidth = 260;
  const x = { field: 'x', type: 'quantitative' as const, title: 'time [us]', scale: { domain: [0, data.endUs], nice: false, zero: false } };
  return {
    id: `p${programIndex}-timeline`,
    kind: 'timeline',
    kernelIndex: -1,
    programIndex,
    section: 'Timeline',
    title,
    spec: {
      $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
      title: { text: title, subtitle },
      config: { ...CHART_CONFIG, axisY: { minExtent: labelWidth, maxExtent: labelWidth, labelLimit: labelWidth - 10 } },
      resolve: { scale: { x: 'shared' } },
      vconcat: [
        {
          name: 'timeline',
          width: TIMELINE_WIDTH,
          height: { step: 20 },
          data: { values: data.bars },
          params: [{ name: 'zoom', select: { type: 'interval', encodings: ['x'] }, bind: 'scales' }],
          // a pointer only over bars that lead somewhere (profiled kernels)
          mark: { type: 'bar', cornerRadius: 1, clip: true, cursor: { expr: "isValid(datum.href) ? 'pointer' : 'default'" } },
          encoding: {
            y: { field: 'row', type: 'nominal', sort: data.rows, title: null },
            x,
            x2: { field: 'x2' },
            color: {
              field: 'kind',
              type: 'nominal',
              title: 'Kind',
              scale: { domain: data.kinds, range: data.kinds.map((k) => KIND_COLOURS.find(([kk]) => kk === k)?.[1] ?? '#888888') },
              legend: { orient: 'top', direction: 'horizontal' },
            },
            opacity: { field: 'busy', type: 'quantitative', scale: { domain: [0, 1], range: [0.2, 1] }, legend: null },
            // vega-lite would stringify a missing href to "undefined", a link to a file of that name
            href: { condition: { test: 'isValid(datum.href)', field: 'href' }, value: null },
            description: { field: 'description' },
            // an operation a dependency nobody wrote held back (false dependency, legacy stream)
            stroke: { condition: { test: 'datum.delayed === true', value: '#e45756' }, value: null },
            strokeWidth: { condition: { test: 'datum.delayed === true', value: 2 }, value: 0 },
            // an object: vega-tooltip draws its keys and values as a table
            tooltip: { field: 'tip', type: 'nominal' },
          },
        },
        {
          name: 'sms',
          width: TIMELINE_WIDTH,
          height: 90,
          data: { values: sm.points },
          title: { text: `SMs holding blocks (peak ${Math.max(0, ...p.timeline.smBusy.map((b) => b.busySms))} of ${report.device.smCount})`, fontSize: 11 },
          mark: { type: 'area', interpolate: 'step-after', color: '#4c78a8', opacity: 0.6, line: { color: '#4c78a8' }, clip: true },
          encoding: {
            x: { ...x, field: 't' },
            y: { field: 'sms', type: 'quantitative', title: null, scale: { domain: [0, report.device.smCount] } },
            tooltip: [
              { field: 't', type: 'quantitative', title: 'time [us]' },
              { field: 'sms', type: 'quantitative', title: 'SMs in use' },
            ],
          },
        },
      ],
    },
  };
}
