/**
 * A program's runtime summary in the terminal, as `nsys stats` prints its reports (cuda_api_sum,
 * cuda_gpu_kern_sum, cuda_gpu_mem_time_sum, cuda_gpu_mem_size_sum; times in ns), then the streams and
 * hardware queues, the GPU's idle time, the figures the program reported and the rule results.
 */
import type { ProgramRun, Report } from '../../types/report.schema.js';
import { runtimeSummary, type SummaryRow, type Timeline } from '../runtime/timeline.js';
import { wrapNcu } from './format.js';
import { gridLines } from './terminal.js';

const int = (n: number): string => Math.round(n).toLocaleString('en-US');
const pct = (n: number): string => n.toFixed(1);

function statRows(rows: readonly SummaryRow[], nameLabel: string, countLabel: string): string[] {
  return gridLines(
    ['Time (%)', 'Total Time (ns)', countLabel, 'Avg (ns)', 'Med (ns)', 'Min (ns)', 'Max (ns)', 'StdDev (ns)', nameLabel],
    rows.map((r) => [pct(r.pct), int(r.totalNs), int(r.count), int(r.avgNs), int(r.medNs), int(r.minNs), int(r.maxNs), int(r.stdDevNs), r.name]),
    new Set([8]),
  );
}

export function programLines(p: ProgramRun): string[] {
  const t = p.timeline as Timeline;
  const s = runtimeSummary(t);
  const out: string[] = [];
  const streams = new Set(t.ops.map((o) => o.stream)).size;
  out.push(`==WARPSIGHT== program '${p.name}': ${t.ops.length} GPU operations on ${streams} stream(s), ${t.hwQueues} hardware queues; ${(t.endNs / 1000).toFixed(1)} us of simulated time`);
  if (p.values.length) {
    out.push('', '  Values reported by the program:');
    out.push(...gridLines(['Name', 'Value', 'Unit'], p.values.map((v) => [v.name, Number.isInteger(v.value) ? String(v.value) : v.value.toFixed(3), v.unit]), new Set([2])));
  }
  out.push('', '  ** CUDA API Summary (cuda_api_sum):', ...statRows(s.api, 'Name', 'Num Calls'));
  if (s.kernels.length) out.push('', '  ** CUDA GPU Kernel Summary (cuda_gpu_kern_sum):', ...statRows(s.kernels, 'Name', 'Instances'));
  if (s.nvshmem.length) out.push('', '  ** NVSHMEM On-Stream Operations Summary:', ...statRows(s.nvshmem, 'Name', 'Count'));
  if (p.traffic?.length && p.transport !== undefined) {
    // PEs on several nodes: which link each peer's bytes took
    out.push('', `  NVSHMEM traffic from this PE (node ${p.node ?? 0}; ${p.transport === 'ibgda' ? 'IBGDA: GPU-initiated' : 'IBRC: through a CPU proxy thread'} between nodes):`);
    out.push(...gridLines(['To PE', 'Link', 'Operation', 'Operations', 'Bytes'], p.traffic.map((r) => [String(r.to), r.link ?? 'nvlink', r.kind, int(r.ops), int(r.bytes)]), new Set([1, 2])));
  } else if (p.traffic?.length) {
    out.push('', '  NVSHMEM traffic from this PE:');
    out.push(...gridLines(['To PE', 'Operation', 'Operations', 'Bytes'], p.traffic.map((r) => [String(r.to), r.kind, int(r.ops), int(r.bytes)]), new Set([1])));
  }
  if (s.memops.length) {
    out.push('', '  ** CUDA GPU MemOps Summary (by Time) (cuda_gpu_mem_time_sum):', ...statRows(s.memops, 'Operation', 'Count'));
    out.push(
      '',
      '  ** CUDA GPU MemOps Summary (by Size) (cuda_gpu_mem_size_sum):',
      ...gridLines(['Total (MB)', 'Count', 'Operation'], s.memops.map((r) => [((r.bytes ?? 0) / 1e6).toFixed(3), int(r.count), r.name]), new Set([2])),
    );
  }
  if (s.streams.length) {
    out.push('', '  Streams:');
    out.push(
      ...gridLines(
        ['Stream', 'Queue', 'Operations', 'Busy (ns)'],
        s.streams.map((r) => [r.name, String(t.streams.find((x) => x.id === r.stream)?.queue ?? ''), int(r.ops), int(r.busyNs)]),
      ),
    );
  }
  out.push('', `  GPU idle: ${int(s.gpuIdleNs)} ns of ${int(s.spanNs)} ns between the first and the last GPU operation (${s.spanNs > 0 ? pct((100 * s.gpuIdleNs) / s.spanNs) : '0.0'} %)`);
  for (const f of p.findings) {
    const save = f.estimatedSavingNs !== undefined ? ` (est. saving ${int(f.estimatedSavingNs)} ns)` : '';
    out.push('', `    ${f.severity.toUpperCase().padEnd(5)} ${f.rule}${save}`);
    for (const l of wrapNcu(f.message)) out.push(`          ${l}`);
  }
  out.push('');
  return out;
}

/** a multi-PE program's figure across PE counts (--pes 1,2,4,8): value, speed-up and efficiency */
export function scalingLines(sc: NonNullable<Report['scaling']>[number]): string[] {
  return [
    `==WARPSIGHT== strong scaling of '${sc.program}': ${sc.value}${sc.unit ? ` (${sc.unit})` : ''} by PEs`,
    ...gridLines(
      ['PEs', sc.unit ? `${sc.value} (${sc.unit})` : sc.value, 'Speed-up', 'Efficiency (%)'],
      sc.points.map((p) => [String(p.pes), p.value.toFixed(3), p.speedup.toFixed(2), (100 * p.efficiency).toFixed(1)]),
    ),
    '',
  ];
}
