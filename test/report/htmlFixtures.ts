/** Shared by the HTML tests: a fake report with occupancy series, and a hostile kernel name. */
import type { Report } from '../../types/report.schema.js';
import type { GraphSeries, OccupancyGraphs } from '../../src/report/charts/index.js';
import { fakeReport } from './fakeReport.js';

export const EVIL_NAME = '<img src=x onerror=alert(1)>';

/** a made-up step curve: enough to draw, no arch needed */
export const FAKE_OCCUPANCY: OccupancyGraphs = (kernel) => {
  const series = (id: string, title: string, current: number, xs: number[]): GraphSeries => ({
    id,
    title,
    xLabel: title,
    xUnit: '',
    current,
    currentIndex: Math.max(0, xs.findIndex((x) => x >= current)),
    points: xs.map((x, i) => ({ x, warps: 64 - i, pct: Math.floor(((64 - i) * 100) / 64) })),
  });
  return [
    series('register_count', 'Impact of Varying Register Count Per Thread', kernel.launch.registersPerThread, [0, 16, 32, 64, 128]),
    series('block_size', 'Impact of Varying Block Size', 256, [32, 128, 256, 512, 1024]),
    series('shared_mem_size', 'Impact of Varying Shared Memory Usage Per Block', 4096, [0, 4096, 8192, 16384]),
  ];
};

/** the fake report with hostile strings wherever a kernel or a flag can put one */
export function hostileReport(): Report {
  const r = fakeReport();
  const k = r.kernels[1];
  if (!k) throw new Error('fake report changed');
  k.name = EVIL_NAME;
  k.file = 'kernels/<script>alert(2)</script>.ts';
  k.launch.params = { n: '"><svg onload=alert(3)>' };
  k.notes = ['note </script><script>alert(4)</script>'];
  k.rules = [{ id: 'SharedMemoryConflicts', section: 'MemoryWorkloadAnalysis_Tables', type: 'OPT', message: 'conflicts in <b onmouseover=alert(5)>here</b> & there', speedup: { type: 'global', value: 42 } }];
  k.instructions = [{ index: 0, opcode: 'LDS', line: 2, metrics: { inst_executed: 10, thread_inst_executed: 320, memory_l1_wavefronts_shared: 320, memory_l1_wavefronts_shared_ideal: 10 } }];
  k.sourceLines = ['// kernel', 'const x = "</script><img src=y onerror=alert(6)>";'];
  return r;
}
