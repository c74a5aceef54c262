/**
 * `warpsight occupancy` as text: the Occupancy section's limits table and ncu's "Impact of Varying ..."
 * series, each series folded into runs of equal occupancy with the launch's own point marked.
 * Plain output (no ANSI codes) when stdout is not a terminal.
 */
import Table from 'cli-table3';
import type { OccupancyResult, OccupancySeries } from '../arch/occupancy.js';

const MARK = '◀ this launch';

const int = (n: number): string => n.toLocaleString('en-US');
/** n to `digits` decimals, an exact tie to the even neighbour as ncu prints it (0.125 waves -> 0.12) */
function dec(n: number, digits = 2): string {
  const scaled = n * 10 ** digits;
  const floor = Math.floor(scaled);
  const tie = scaled - floor === 0.5;
  const rounded = tie ? (floor % 2 === 0 ? floor : floor + 1) : Math.round(scaled);
  return String(rounded / 10 ** digits);
}

export function formatBytes(b: number): string {
  if (b < 1024) return `${int(b)} B`;
  const kib = b / 1024;
  return `${Number.isInteger(kib) ? int(kib) : dec(kib)} KiB`;
}

/** no rule between body rows; no colours when the output is not a terminal */
const COMPACT = { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' };

function table(head: string[], plain: boolean, align?: ('left' | 'right')[]): Table.Table {
  return new Table({ head, chars: COMPACT, ...(align ? { colAligns: align } : {}), ...(plain ? { style: { head: [], border: [] } } : {}) });
}

const LIMITER_LABEL: Record<string, string> = {
  blocks: 'the block limit per SM',
  registers: 'registers',
  shared_mem: 'shared memory',
  warps: 'warps per block',
  barriers: 'named barriers',
};

function limitsTable(r: OccupancyResult, plain: boolean): string {
  const t = table(['Occupancy', 'Value', 'Unit', ''], plain, ['left', 'right', 'left', 'left']);
  const lim = (label: string, v: number, key: string): void => {
    t.push([label, int(v), 'block', r.limiters.includes(key as OccupancyResult['limiters'][number]) ? 'limiter' : '']);
  };
  lim('Block Limit SM', r.limits.blocks, 'blocks');
  lim('Block Limit Registers', r.limits.registers, 'registers');
  lim('Block Limit Shared Mem', r.limits.sharedMem, 'shared_mem');
  lim('Block Limit Warps', r.limits.warps, 'warps');
  lim('Block Limit Barriers', r.limits.barriers, 'barriers');
  t.push(['Theoretical Active Warps per SM', int(r.activeWarpsPerSm), 'warp', `${int(r.activeBlocksPerSm)} blocks x ${r.warpsPerBlock} warps`]);
  t.push(['Theoretical Occupancy', dec(r.occupancyPct), '%', `of ${r.maxWarpsPerSm} warps`]);
  t.push(['Theoretical Warps Per Scheduler', dec(r.warpsPerScheduler), 'warp', '']);
  t.push(['Limited By', '', '', `${r.limiters.map((l) => LIMITER_LABEL[l] ?? l).join(', ') || '-'}${r.limiters.length > 1 ? ' (tie)' : ''}`]);
  t.push([
    'Shared Memory Configuration Size',
    formatBytes(r.sharedMemConfigSize),
    '',
    r.sharedMem.configSource === 'driver' ? 'the carveout the driver picks for this launch' : 'as given',
  ]);
  t.push(['Shared Memory Per Block', formatBytes(r.sharedMem.perBlockAllocated), '', `allocated for ${int(r.sharedMem.static)} static + ${int(r.sharedMem.dynamic)} dynamic + ${int(r.sharedMem.driver)} driver B`]);
  t.push(['Registers Per Thread', int(r.registers.perThread), 'register', `${dec(r.registers.perThreadAllocated)} allocated${r.registers.declared < r.registers.perThread ? `, raised from ${r.registers.declared}` : ''}`]);
  if (r.wavesPerSm !== undefined) t.push(['Waves Per SM', dec(r.wavesPerSm), '', `${int(r.gridBlocks ?? 0)} blocks / (${r.activeBlocksPerSm} x ${int(r.smCount)} SMs)`]);
  return t.toString();
}

function xText(s: OccupancySeries, x: number): string {
  return s.xUnit === 'byte' ? formatBytes(x) : int(x);
}

/** the series as runs of equal warps: "0-32 | 64 | 100" */
function seriesTable(s: OccupancySeries, plain: boolean): string {
  const t = table([s.xLabel, 'Active Warps', 'Occupancy %', ''], plain, ['left', 'right', 'right', 'left']);
  let start = 0;
  s.points.forEach((p, i) => {
    const next = s.points[i + 1];
    if (next && next.warps === p.warps) return;
    const first = s.points[start];
    if (!first) return;
    const range = first.x === p.x ? xText(s, p.x) : `${xText(s, first.x)} - ${xText(s, p.x)}`;
    const here = s.currentIndex >= start && s.currentIndex <= i;
    t.push([range, int(p.warps), int(p.pct), here ? `${MARK} (${xText(s, s.current)})` : '']);
    start = i + 1;
  });
  return `${s.title}\n${t.toString()}`;
}

export function renderOccupancy(r: OccupancyResult, opts: { plain: boolean; showBarriers: boolean }): string {
  const launch =
    `${r.archName} (${r.archId}, ${int(r.smCount)} SMs): ${int(r.blockSize)} threads per block (${r.warpsPerBlock} warps), ` +
    `${r.registers.perThread} registers per thread, ${formatBytes(r.sharedMem.perBlock)} shared memory per block, ` +
    `${r.barriers} named barrier${r.barriers === 1 ? '' : 's'}${r.gridBlocks !== undefined ? `, ${int(r.gridBlocks)} blocks` : ''}`;
  const series = [r.series.registerCount, r.series.blockSize, r.series.sharedMemSize, ...(opts.showBarriers ? [r.series.barrierCount] : [])];
  return [launch, limitsTable(r, opts.plain), ...series.map((s) => seriesTable(s, opts.plain))].join('\n\n') + '\n';
}
