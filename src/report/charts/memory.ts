/**
 * The Memory Chart after ncu's (nsight-compute.md §1.4): logical units (green: Kernel, Global,
 * Local, Shared) and physical units (blue: L1/TEX, Shared Memory, L2, DRAM), linked by what flows
 * between them — instructions from the kernel, requests into L1 and shared memory, sectors from
 * L1 to L2 and from L2 to DRAM. A link nothing crossed is grey. Drawn as a node-link diagram in a
 * fixed 100 × 100 coordinate space.
 */
import type { KernelResult, MetricValue } from '../../../types/report.schema.js';
import { formatNumber } from '../format.js';
import { CHART_CONFIG, type ChartDef } from './types.js';

type Metrics = Readonly<Record<string, MetricValue>>;

export interface MemoryNode {
  id: string;
  label: string;
  kind: 'logical' | 'physical';
  x: number;
  y: number;
  /** second text line (hit rate, bank conflicts) */
  detail: string;
}

export interface MemoryLink {
  from: string;
  to: string;
  /** what the count counts: inst, req, sectors */
  unit: string;
  /** total (load + store) */
  count: number;
  /** e.g. "ld 131,072 / st 131,072" */
  detail: string;
}

function num(m: Metrics, id: string): number | undefined {
  const v = m[id];
  return typeof v === 'number' ? v : undefined;
}

/** the first of `ids` the kernel has */
function first(m: Metrics, ids: readonly string[]): number | undefined {
  for (const id of ids) {
    const v = num(m, id);
    if (v !== undefined) return v;
  }
  return undefined;
}

function loadStore(ld: number | undefined, st: number | undefined): { count: number; detail: string } {
  const parts: string[] = [];
  if (ld !== undefined) parts.push(`ld ${formatNumber(ld)}`);
  if (st !== undefined) parts.push(`st ${formatNumber(st)}`);
  return { count: (ld ?? 0) + (st ?? 0), detail: parts.join(' / ') };
}

const pct = (v: number | undefined, what: string): string => (v === undefined ? '' : `${what} ${formatNumber(Math.round(v * 100) / 100)}%`);

export function memoryGraph(metrics: Metrics): { nodes: MemoryNode[]; links: MemoryLink[] } {
  const inst = (space: string, op: string): number | undefined => num(metrics, `smsp__sass_inst_executed_op_${space}_${op}.sum`);
  const req = (space: string, op: string): number | undefined => num(metrics, `l1tex__t_requests_pipe_lsu_mem_${space}_op_${op}.sum`);
  // the total, else load + store (a report may carry only the per-op counters)
  const sharedTotal = (prefix: string): number | undefined => {
    const total = num(metrics, `${prefix}.sum`);
    if (total !== undefined) return total;
    const ld = num(metrics, `${prefix}_op_ld.sum`);
    const st = num(metrics, `${prefix}_op_st.sum`);
    return ld === undefined && st === undefined ? undefined : (ld ?? 0) + (st ?? 0);
  };
  const bankConflicts = sharedTotal('l1tex__data_bank_conflicts_pipe_lsu_mem_shared');
  const wavefronts = sharedTotal('l1tex__data_pipe_lsu_wavefronts_mem_shared');
  const nodes: MemoryNode[] = [
    { id: 'kernel', label: 'Kernel', kind: 'logical', x: 7, y: 50, detail: '' },
    { id: 'global', label: 'Global', kind: 'logical', x: 26, y: 80, detail: '' },
    { id: 'local', label: 'Local', kind: 'logical', x: 26, y: 50, detail: '' },
    { id: 'shared', label: 'Shared', kind: 'logical', x: 26, y: 18, detail: '' },
    { id: 'l1', label: 'L1/TEX Cache', kind: 'physical', x: 50, y: 65, detail: pct(num(metrics, 'l1tex__t_sector_hit_rate.pct'), 'hit') },
    {
      id: 'smem',
      label: 'Shared Memory',
      kind: 'physical',
      x: 50,
      y: 18,
      detail: bankConflicts === undefined ? '' : `${formatNumber(bankConflicts)} conflicts`,
    },
    { id: 'l2', label: 'L2 Cache', kind: 'physical', x: 73, y: 65, detail: pct(num(metrics, 'lts__t_sector_hit_rate.pct'), 'hit') },
    { id: 'dram', label: 'Device Memory', kind: 'physical', x: 94, y: 65, detail: '' },
  ];
  const sharedInst = loadStore(inst('shared', 'ld'), inst('shared', 'st'));
  const l2Read = first(metrics, ['lts__t_sectors_srcunit_tex_op_read.sum']);
  const l2Write = first(metrics, ['lts__t_sectors_srcunit_tex_op_write.sum']);
  const toL2 =
    l2Read !== undefined || l2Write !== undefined
      ? loadStore(l2Read, l2Write)
      : (() => {
          const miss = num(metrics, 'l1tex__t_sectors_lookup_miss.sum');
          return { count: miss ?? 0, detail: miss === undefined ? '' : `misses ${formatNumber(miss)}` };
        })();
  const links: MemoryLink[] = [
    { from: 'kernel', to: 'global', unit: 'inst', ...loadStore(inst('global', 'ld'), inst('global', 'st')) },
    { from: 'kernel', to: 'local', unit: 'inst', ...loadStore(inst('local', 'ld'), inst('local', 'st')) },
    { from: 'kernel', to: 'shared', unit: 'inst', ...sharedInst },
    { from: 'global', to: 'l1', unit: 'req', ...loadStore(req('global', 'ld'), req('global', 'st')) },
    { from: 'local', to: 'l1', unit: 'req', ...loadStore(req('local', 'ld'), req('local', 'st')) },
    {
      // sm_70+: one request per shared-memory instruction; wavefronts say what the banks served
      from: 'shared',
      to: 'smem',
      unit: 'req',
      count: sharedInst.count,
      detail: wavefronts === undefined ? sharedInst.detail : `${formatNumber(wavefronts)} wavefronts`,
    },
    { from: 'l1', to: 'l2', unit: 'sectors', ...toL2 },
    { from: 'l2', to: 'dram', unit: 'sectors', ...loadStore(num(metrics, 'dram__sectors_read.sum'), num(metrics, 'dram__sectors_write.sum')) },
  ];
  return { nodes, links };
}

export function memoryChart(kernel: Pick<KernelResult, 'id' | 'metrics'>): ChartDef | undefined {
  const { nodes, links } = memoryGraph(kernel.metrics);
  if (links.every((l) => l.count === 0 && l.detail === '')) return undefined;
  const at = new Map(nodes.map((n) => [n.id, n]));
  // boxes of 12 % of 1,150 px: room for "Device Memory" and "1,015,808 bank conflicts"
  const NODE_HALF_WIDTH = 6;
  const linkRows = links.map((l) => {
    const a = at.get(l.from) as MemoryNode;
    const b = at.get(l.to) as MemoryNode;
    return {
      from: a.label,
      to: b.label,
      x: a.x + NODE_HALF_WIDTH,
      y: a.y,
      x2: b.x - NODE_HALF_WIDTH,
      y2: b.y,
      mx: (a.x + b.x) / 2,
      my: (a.y + b.y) / 2,
      // ncu draws an unused link grey
      stroke: l.count > 0 ? '#2f6f9f' : '#c8c8c8',
      label: `${formatNumber(l.count)} ${l.unit}`,
      detail: l.detail,
    };
  });
  // ncu's colours: logical units green, physical units blue
  const nodeRows = nodes.map((n) => ({ ...n, fill: n.kind === 'logical' ? '#8fd18f' : '#8fb8e0', x1: n.x - NODE_HALF_WIDTH, x2: n.x + NODE_HALF_WIDTH, y1: n.y - 7, y2: n.y + 7 }));
  const scale = { domain: [0, 100], nice: false, zero: false };
  const x = (field: string) => ({ field, type: 'quantitative' as const, scale, axis: null });
  const y = (field: string) => ({ field, type: 'quantitative' as const, scale: { ...scale, domain: [0, 100] }, axis: null });
  return {
    id: `k${kernel.id}-memory`,
    kind: 'memory',
    kernelIndex: kernel.id,
    section: 'MemoryWorkloadAnalysis',
    title: 'Memory Chart',
    spec: {
      $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
      title: 'Memory Chart',
      width: 1150,
      height: 300,
      config: CHART_CONFIG,
      layer: [
        {
          data: { values: linkRows },
          mark: { type: 'rule', strokeWidth: 3 },
          encoding: {
            x: x('x'),
            y: y('y'),
            x2: { field: 'x2' },
            y2: { field: 'y2' },
            color: { field: 'stroke', type: 'nominal', scale: null },
            tooltip: [
              { field: 'from', title: 'From' },
              { field: 'to', title: 'To' },
              { field: 'label', title: 'Count' },
              { field: 'detail', title: 'Detail' },
            ],
          },
        },
        // link labels over a white halo (the same text stroked wide underneath), so a line that
        // runs through a label does not cross out its digits
        ...(['white', null] as const).flatMap((halo) => [
          {
            data: { values: linkRows },
            mark: { type: 'text' as const, fontSize: 10, dy: -7, ...(halo ? { stroke: halo, strokeWidth: 4, strokeJoin: 'round' as const } : {}) },
            encoding: { x: x('mx'), y: y('my'), text: { field: 'label' } },
          },
          {
            data: { values: linkRows },
            mark: { type: 'text' as const, fontSize: 9, dy: 7, color: '#555', ...(halo ? { stroke: halo, strokeWidth: 4, strokeJoin: 'round' as const } : {}) },
            encoding: { x: x('mx'), y: y('my'), text: { field: 'detail' } },
          },
        ]),
        {
          data: { values: nodeRows },
          mark: { type: 'rect', cornerRadius: 3, stroke: '#333', strokeWidth: 0.5 },
          encoding: {
            x: x('x1'),
            x2: { field: 'x2' },
            y: y('y1'),
            y2: { field: 'y2' },
            color: { field: 'fill', type: 'nominal', scale: null },
          },
        },
        {
          data: { values: nodeRows },
          mark: { type: 'text', fontSize: 11, fontWeight: 'bold', dy: -3 },
          encoding: { x: x('x'), y: y('y'), text: { field: 'label' } },
        },
        {
          data: { values: nodeRows },
          mark: { type: 'text', fontSize: 9, dy: 9 },
          encoding: { x: x('x'), y: y('y'), text: { field: 'detail' } },
        },
      ],
    },
  };
}
