import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import {
  parseCsvRows,
  parseDim3,
  parseNcuNumber,
  parseNcuRawCsv,
  readNcuRawCsv,
  splitKernelName,
} from '../../src/report/ncuCsv.js';

const GT = fileURLToPath(new URL('../../../shared/groundtruth/h200/', import.meta.url));

interface SummaryEntry {
  kernel: string;
  instance: number;
  source: string;
  launch: { grid: number[]; block: number[] };
  metrics: Record<string, number | string>;
}
const summary = JSON.parse(readFileSync(`${GT}summary.json`, 'utf8')) as SummaryEntry[];

/** launches per family file, counted from the ground-truth README's kernel lists */
const FAMILIES: Record<string, number> = { g: 36, sh: 14, div: 4, occ: 10, cp: 4, sync: 5, ws: 2, l2: 45 };

const fail = (line: number, message: string): never => {
  throw new Error(`${line}: ${message}`);
};

describe('ncu raw CSV reader on the H200 ground truth', () => {
  for (const [family, count] of Object.entries(FAMILIES)) {
    it(`reads ncu_raw_${family}.csv: ${count} launches, ids in order`, () => {
      const launches = readNcuRawCsv(`${GT}ncu_raw_${family}.csv`);
      expect(launches).toHaveLength(count);
      expect(launches.map((l) => l.id)).toEqual([...Array(count).keys()]);
    });
  }

  it('parses numbers, units, dims and names of g_ld_u8_coalesced', () => {
    const [l] = readNcuRawCsv(`${GT}ncu_raw_g.csv`);
    expect(l?.kernelName).toBe('g_ld_u8_coalesced');
    expect(l?.signature).toBe('g_ld_u8_coalesced(const unsigned char *, unsigned char *)');
    expect(l?.block).toEqual([256, 1, 1]);
    expect(l?.grid).toEqual([16384, 1, 1]);
    expect(l?.identity).toMatchObject({ 'Process Name': 'micro', Stream: '7', CC: '9.0' });
    expect(l?.metrics['l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum']).toEqual({ value: 131072, unit: 'sector' });
    expect(l?.metrics['dram__bytes_read.sum']).toEqual({ value: 4197120, unit: 'byte' });
    expect(l?.metrics['dram__sectors_read.avg']).toEqual({ value: 2732.5, unit: 'sector' });
    // ncu prints no unit for l1tex requests
    expect(l?.metrics['l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum']).toEqual({ value: 131072, unit: '' });
    expect(l?.metrics['launch__func_cache_config']).toEqual({ value: 'CachePreferNone', unit: '' });
    expect(l?.metrics['device__attribute_display_name']?.value).toBe('NVIDIA H200');
    // an empty cell is a metric ncu did not collect: absent, not ''
    expect(l?.metrics['launch__kernel_name']).toBeUndefined();
  });

  it('agrees with summary.json on every metric of every launch', () => {
    const byFile = new Map<string, ReturnType<typeof readNcuRawCsv>>();
    let checked = 0;
    for (const entry of summary) {
      const launches = byFile.get(entry.source) ?? readNcuRawCsv(`${GT}${entry.source}`);
      byFile.set(entry.source, launches);
      const l = launches.filter((x) => x.kernelName === entry.kernel)[entry.instance];
      expect(l, `${entry.kernel}[${entry.instance}]`).toBeDefined();
      expect(l?.grid).toEqual(entry.launch.grid);
      expect(l?.block).toEqual(entry.launch.block);
      for (const [id, value] of Object.entries(entry.metrics)) {
        expect(l?.metrics[id]?.value, `${entry.kernel}[${entry.instance}] ${id}`).toEqual(value);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(9000);
  });

  it('reads the --set full exports (2,227 metric columns, text and nan kept as text)', () => {
    const [l] = readNcuRawCsv(`${GT}full_raw_sh_transpose_32x32_bd32x8.csv`);
    expect(l?.kernelName).toBe('sh_transpose_32x32_bd32x8');
    expect(l?.block).toEqual([32, 8, 1]);
    expect(Object.keys(l?.metrics ?? {}).length).toBeGreaterThan(2000);
    expect(l?.metrics['memory_l1_wavefronts_shared']).toEqual({ value: 17301504, unit: 'sectors' });
    expect(l?.metrics['derived_tempMetric4']?.value).toBe('nan');
    expect(l?.metrics['dram__cycles_elapsed.avg.per_second']?.unit).toBe('hz');
  });
});

describe('cell parsers', () => {
  it('parses ncu numbers and leaves text alone', () => {
    expect(parseNcuNumber('4,197,120')).toBe(4197120);
    expect(parseNcuNumber('2,732.50')).toBe(2732.5);
    expect(parseNcuNumber('0')).toBe(0);
    expect(parseNcuNumber('-1,024.25')).toBe(-1024.25);
    expect(parseNcuNumber('1.5e+03')).toBe(1500);
    for (const text of ['', 'nan', 'n/a', '(!) n/a', 'no data', '1,2', '12,34,567', 'PolicySpread', '(256, 1, 1)']) {
      expect(parseNcuNumber(text), text).toBeUndefined();
    }
  });

  it('parses dim3 cells', () => {
    expect(parseDim3('(256, 1, 1)')).toEqual([256, 1, 1]);
    expect(parseDim3('(16,384, 1, 1)')).toBeUndefined();
    expect(parseDim3('(128,128,1)')).toEqual([128, 128, 1]);
    expect(parseDim3('256')).toBeUndefined();
  });

  it('splits kernel names from their parameter lists', () => {
    expect(splitKernelName('k(float *, int)')).toEqual({ kernelName: 'k', signature: 'k(float *, int)' });
    expect(splitKernelName('void k<(int)2>(float *)').kernelName).toBe('k<(int)2>');
    expect(splitKernelName('transpose')).toEqual({ kernelName: 'transpose', signature: 'transpose' });
  });

  it('splits RFC 4180 rows: quotes, doubled quotes, commas and newlines in cells, CRLF, BOM', () => {
    const text = '\ufeff"a","b,c"\r\n"say ""hi""","two\nlines"\r\nplain,,"x"\n';
    expect(parseCsvRows(text, fail)).toEqual([
      ['a', 'b,c'],
      ['say "hi"', 'two\nlines'],
      ['plain', '', 'x'],
    ]);
    expect(() => parseCsvRows('"open\n', fail)).toThrow('1: a quoted cell is never closed');
  });
});

describe('errors name the file, row and column', () => {
  const header = '"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","m.sum"';
  const units = '"","","","","","","","","","","","inst"';
  const row = (id: string, block = '(32, 1, 1)'): string => `"${id}","1","p","h","k(int)","1","7","${block}","(4, 1, 1)","0","9.0","1,024"`;

  function message(text: string): string {
    try {
      parseNcuRawCsv(text, 'x.csv');
    } catch (e) {
      expect(e).toBeInstanceOf(UserError);
      return (e as UserError).message;
    }
    throw new Error('expected a UserError');
  }

  it('accepts a minimal file', () => {
    const [l] = parseNcuRawCsv([header, units, row('0')].join('\n'), 'x.csv');
    expect(l?.metrics).toEqual({ 'm.sum': { value: 1024, unit: 'inst' } });
  });

  it('rejects a file without a units row', () => {
    expect(message([header, row('0')].join('\n'))).toMatch(/^x\.csv: row 2, column 1 \("ID"\): expected the units row/);
  });

  it('rejects a wrong header', () => {
    expect(message(['"Kernel","Value"', '"a","1"'].join('\n'))).toMatch(/^x\.csv: row 1, column 1: expected header "ID", found "Kernel"/);
  });

  it('names a details-page CSV for what it is', () => {
    const details = header.replace('"m.sum"', '"Section Name","Metric Name","Metric Unit","Metric Value"');
    expect(message(details)).toMatch(/--page details CSV, not --page raw/);
  });

  it('rejects ragged rows, bad ids and bad dims', () => {
    expect(message([header, units, `${row('0')},"extra"`].join('\n'))).toMatch(/^x\.csv: row 3, column 13: 13 cells, the header has 12/);
    expect(message([header, units, row('first')].join('\n'))).toMatch(/^x\.csv: row 3, column 1 \("ID"\): "first" is not a launch id/);
    expect(message([header, units, row('0', '32')].join('\n'))).toMatch(/^x\.csv: row 3, column 8 \("Block Size"\)/);
  });

  it('rejects an empty file and duplicate metric columns', () => {
    expect(message('')).toMatch(/^x\.csv: the file is empty/);
    expect(message(`${header},"m.sum"`)).toMatch(/row 1, column 13: metric "m\.sum" repeats column 12/);
  });

  it('reports a missing file in one line naming the path', () => {
    expect(() => readNcuRawCsv('/nonexistent/real.csv')).toThrow(UserError);
    expect(() => readNcuRawCsv('/nonexistent/real.csv')).toThrow(/^cannot read ncu CSV \/nonexistent\/real\.csv: no such file/);
  });
});
