import { describe, expect, it } from 'vitest';
import {
  DETAILS_COLUMNS,
  formatNcuNumber,
  roundAsNcuPrints,
  sourceHeader,
  writeDetailsCsv,
  writeRawCsv,
  writeSourceCsv,
} from '../../src/report/csv.js';
import { IDENTITY_COLUMNS, parseCsvRows, parseNcuRawCsv } from '../../src/report/ncuCsv.js';
import { fakeReport, kernel } from './fakeReport.js';

const fail = (line: number, message: string): never => {
  throw new Error(`${line}: ${message}`);
};

describe('formatNcuNumber', () => {
  it.each([
    [4197120, '4,197,120'],
    [2732.5, '2,732.50'],
    [0, '0'],
    [100, '100'],
    [999, '999'],
    [1000, '1,000'],
    [15.515151, '15.52'],
    [0.001, '0.00'],
    [999.999, '1,000.00'],
    [-1024, '-1,024'],
    [-2732.5, '-2,732.50'],
    [-0.001, '0.00'],
    [Number.NaN, 'nan'],
  ])('%s → %s', (v, text) => {
    expect(formatNcuNumber(v)).toBe(text);
  });

  it('rounds as it prints', () => {
    expect(roundAsNcuPrints(15.515151)).toBe(15.52);
    expect(roundAsNcuPrints(131072)).toBe(131072);
  });
});

describe('--page raw writer', () => {
  const report = fakeReport();
  const text = writeRawCsv(report);

  it('writes identity columns, sorted metric ids, units in row 2, one row per launch', () => {
    const rows = parseCsvRows(text, fail);
    const ids = [...new Set(report.kernels.flatMap((k) => Object.keys(k.metrics)))].sort();
    expect(rows[0]).toEqual([...IDENTITY_COLUMNS, ...ids]);
    const units = new Map(ids.map((id, i) => [id, rows[1]?.[IDENTITY_COLUMNS.length + i]]));
    expect(units.get('l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum')).toBe('sector');
    expect(units.get('gpu__time_duration.sum')).toBe('ns');
    expect(units.get('l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum')).toBe('');
    expect(rows).toHaveLength(2 + report.kernels.length);
    expect(rows[2]?.slice(0, 11)).toEqual(['0', '0', 'warpsight', 'localhost', 'g_ld_u8_coalesced', '1', '7', '(256, 1, 1)', '(16384, 1, 1)', '0', '9.0']);
    expect(text).toContain('"4,197,120"');
    expect(text).toContain('"2,732.50"');
    expect(text.endsWith('\n')).toBe(true);
  });

  it('round-trips through the reader: no metric lost, values equal', () => {
    const launches = parseNcuRawCsv(text, 'ours.csv');
    expect(launches).toHaveLength(report.kernels.length);
    report.kernels.forEach((k, i) => {
      const l = launches[i];
      expect(l?.id).toBe(k.id);
      expect(l?.kernelName).toBe(k.name);
      expect(l?.block).toEqual(k.launch.block);
      expect(l?.grid).toEqual(k.launch.grid);
      expect(Object.keys(l?.metrics ?? {}).sort()).toEqual(Object.keys(k.metrics).sort());
      for (const [id, v] of Object.entries(k.metrics)) {
        expect(l?.metrics[id]?.value, id).toEqual(typeof v === 'number' ? roundAsNcuPrints(v) : v);
      }
    });
    expect(launches[1]?.identity['Stream']).toBe('3');
  });

  it('keeps what ncu keeps of full-precision values: 2 decimals', () => {
    const r = fakeReport();
    r.kernels = [kernel({ id: 5, name: 'k', metrics: { 'sm__warps_active.avg.per_cycle_active': 41.2249, 'x.sum': 1234567 } })];
    const [l] = parseNcuRawCsv(writeRawCsv(r), 'ours.csv');
    expect(l?.metrics['sm__warps_active.avg.per_cycle_active']).toEqual({ value: 41.22, unit: 'warp' });
    expect(l?.metrics['x.sum']).toEqual({ value: 1234567, unit: '' });
  });

  it('is deterministic', () => {
    expect(writeRawCsv(fakeReport())).toBe(text);
  });
});

describe('--page details writer', () => {
  const text = writeDetailsCsv(fakeReport());
  const lines = text.trimEnd().split('\n');
  const rows = parseCsvRows(text, fail);

  it("writes ncu's header", () => {
    expect(rows[0]).toEqual([...DETAILS_COLUMNS]);
  });

  it('writes header metrics by section, sorted by id, with a trailing comma', () => {
    const sol = rows.filter((r) => r[4] === 'g_ld_u8_coalesced' && r[11] === 'GPU Speed Of Light Throughput');
    expect(sol.map((r) => r[12])).toEqual(['Duration', 'Compute (SM) Throughput']);
    expect(sol[0]?.slice(12, 15)).toEqual(['Duration', 'ns', '12,032']);
    expect(sol[0]).toHaveLength(16);
    expect(lines.find((l) => l.includes('"Duration"'))?.endsWith('"12,032",')).toBe(true);
    // metrics that no section header shows stay out of the details page
    expect(text).not.toContain('Global Load Sectors');
  });

  it('writes rule rows with the section identifier and the speedup', () => {
    const rule = rows.find((r) => r[15] === 'SOLBottleneck');
    expect(rule?.slice(11)).toEqual([
      'SpeedOfLight',
      '',
      '',
      '',
      'SOLBottleneck',
      'OPT',
      'Memory is more heavily utilized than Compute: "look" at memory, then compute',
      'global',
      '21.72',
    ]);
    // after its section's metrics, before the next section
    const at = (pred: (r: string[]) => boolean): number => rows.findIndex(pred);
    expect(at((r) => r[15] === 'SOLBottleneck')).toBeGreaterThan(at((r) => r[12] === 'Compute (SM) Throughput'));
    expect(at((r) => r[15] === 'SOLBottleneck')).toBeLessThan(at((r) => r[11] === 'Memory Workload Analysis'));
    expect(rows.find((r) => r[15] === 'CustomNote')?.[11]).toBe('NotASection');
  });

  it('orders sections as ncu does', () => {
    const sections = rows.filter((r) => r[4] === 'g_ld_u8_coalesced' && r[12] !== '').map((r) => r[11]);
    expect([...new Set(sections)]).toEqual([
      'GPU Speed Of Light Throughput',
      'Memory Workload Analysis',
      'Warp State Statistics',
      'Instruction Statistics',
      'Launch Statistics',
      'Occupancy',
    ]);
  });
});

describe('--page source writer', () => {
  const report = fakeReport();
  const text = writeSourceCsv(report);
  const lines = text.split('\n');
  const header = sourceHeader(report);

  it('has a column for each source counter the report carries, derived ones included', () => {
    expect(header).toEqual([
      'Address',
      'Source',
      'Instructions Executed',
      'Thread Instructions Executed',
      'Avg. Threads Executed',
      'L2 Theoretical Sectors Global Excessive',
      'L2 Theoretical Sectors Global',
      'L2 Theoretical Sectors Global Ideal',
      'Location',
    ]);
  });

  it('writes a Kernel Name line, the header and one row per instruction in program order', () => {
    expect(lines[0]).toBe('"Kernel Name","g_ld_u8_coalesced",');
    const rows = parseCsvRows(text, fail);
    expect(rows[1]).toEqual(header);
    const col = (name: string): number => header.indexOf(name);
    const ldg = rows[2] ?? [];
    expect(ldg.slice(0, 2)).toEqual(['0x0000', 'LDG.E.U8']);
    expect(ldg[col('Avg. Threads Executed')]).toBe('16');
    expect(ldg[col('L2 Theoretical Sectors Global')]).toBe('262,144');
    expect(ldg[col('L2 Theoretical Sectors Global Excessive')]).toBe('131,072');
    expect(rows[3]?.slice(0, 2)).toEqual(['0x0010', 'STG.E.U8']);
    expect(rows[3]?.[col('L2 Theoretical Sectors Global Excessive')]).toBe('0');
    // the second kernel has no instructions: only its name line and header
    expect(rows[4]).toEqual(['Kernel Name', 'sh_transpose_32x32_bd32x8', '']);
    expect(rows[5]).toEqual(header);
    expect(rows).toHaveLength(6);
  });

  it('prints the shared-memory columns when instructions carry wavefronts', () => {
    const r = fakeReport();
    r.kernels = [
      kernel({
        id: 0,
        name: 't',
        instructions: [{ index: 3, opcode: 'LDS', line: 9, metrics: { inst_executed: 4, memory_l1_wavefronts_shared: 128, memory_l1_wavefronts_shared_ideal: 4 } }],
      }),
    ];
    const rows = parseCsvRows(writeSourceCsv(r), fail);
    const h = sourceHeader(r);
    expect(h.slice(2)).toEqual(['Instructions Executed', 'L1 Conflicts Shared N-Way', 'L1 Wavefronts Shared Excessive', 'L1 Wavefronts Shared', 'L1 Wavefronts Shared Ideal', 'Location']);
    expect(rows[2]).toEqual(['0x0030', 'LDS', '4', '32', '124', '128', '4', `${r.kernels[0]?.file ?? ''}:9`]);
  });
});
