/**
 * Reader for Nsight Compute's `--csv --page raw` exports (and for the raw CSV that `csv.ts` writes).
 *
 * Shape (nsight-compute.md §3.3, ground truth `h200/ncu_raw_*.csv`): RFC 4180, every cell quoted;
 * row 1 = the 11 identity columns then one column per metric id; row 2 = units (empty under the
 * identity columns); then one row per profiled launch. Numbers carry thousands separators
 * ("4,197,120", "2,732.50"); Block/Grid Size are "(256, 1, 1)"; some metrics are text
 * ("CachePreferNone", "NVIDIA H200").
 */
import { readFileSync } from 'node:fs';
import type { Dim3 } from '../../types/report.schema.js';
import { UserError } from '../errors.js';

export interface NcuMetric {
  /** numbers are parsed ("4,197,120" → 4197120); anything else is kept as ncu printed it */
  value: number | string;
  /** base unit from the units row ('' when ncu prints none, e.g. for l1tex requests) */
  unit: string;
}

export interface NcuLaunch {
  /** ncu's launch ID (column "ID") */
  id: number;
  /** function name: the "Kernel Name" cell without its parameter list */
  kernelName: string;
  /** the "Kernel Name" cell as ncu printed it, e.g. `g_ld_u8_coalesced(const unsigned char *, unsigned char *)` */
  signature: string;
  block: Dim3;
  grid: Dim3;
  /** the other identity cells (Process ID, Process Name, Host Name, Context, Stream, Device, CC), verbatim */
  identity: Record<string, string>;
  /** every non-empty metric cell of the row, keyed by metric id */
  metrics: Record<string, NcuMetric>;
}

/** The identity columns ncu puts before the metrics, in order (nsight-compute.md §3.3). */
export const IDENTITY_COLUMNS = [
  'ID',
  'Process ID',
  'Process Name',
  'Host Name',
  'Kernel Name',
  'Context',
  'Stream',
  'Block Size',
  'Grid Size',
  'Device',
  'CC',
] as const;

/** How to make the file we expect, appended to format errors so the user can fix them. */
const HOW_TO_EXPORT = 'export it with `ncu --csv --page raw ... > file.csv` (or `ncu -i rep.ncu-rep --csv --page raw`)';

/**
 * Splits RFC 4180 text into rows of cells. Quoted cells may hold commas, newlines and doubled
 * quotes; CRLF and LF both end a row; a UTF-8 BOM is dropped (Windows exports start with one).
 * `onError(line, message)` is told about a quote that never closes (default: throw an Error).
 */
export function parseCsvRows(
  text: string,
  onError: (line: number, message: string) => never = (line, message) => {
    throw new Error(`line ${line}: ${message}`);
  },
): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let quoteLine = 0;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  // a row ends at a newline; we must not emit an empty row for the newline that ends the file
  let rowHasContent = false;
  for (; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else {
          quoted = false;
        }
      } else {
        if (c === '\n') line++;
        cell += c;
      }
      continue;
    }
    if (c === '"') {
      quoted = true;
      quoteLine = line;
      rowHasContent = true;
    } else if (c === ',') {
      row.push(cell);
      cell = '';
      rowHasContent = true;
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      if (rowHasContent || cell !== '') {
        row.push(cell);
        rows.push(row);
      }
      row = [];
      cell = '';
      rowHasContent = false;
      line++;
    } else {
      cell += c;
      rowHasContent = true;
    }
  }
  if (quoted) onError(quoteLine, 'a quoted cell is never closed');
  if (rowHasContent || cell !== '') {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

/** ncu's number format: optional sign, thousands separators, optional decimals (and exponent, to be lenient). */
const NCU_NUMBER = /^[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** "4,197,120" → 4197120, "2,732.50" → 2732.5; undefined for anything that is not a number ("nan", "n/a", text). */
export function parseNcuNumber(cell: string): number | undefined {
  const s = cell.trim();
  if (!NCU_NUMBER.test(s)) return undefined;
  return Number(s.replaceAll(',', ''));
}

/** "(256, 1, 1)" → [256, 1, 1]; undefined when the cell is not a dim3. */
export function parseDim3(cell: string): Dim3 | undefined {
  // ncu prints dims without thousands separators ("(16384, 1, 1)"), so a comma only separates
  const m = /^\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)$/.exec(cell.trim());
  if (!m) return undefined;
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

/**
 * Splits ncu's demangled "Kernel Name" into the function name and the full signature.
 * The parameter list is the parenthesised group that ends the cell; parentheses inside template
 * arguments (`k<(int)2>(float *)`) are skipped by matching from the end. A leading `void ` (the
 * return type ncu prints for template instances) is dropped, since `-k` matches function names.
 */
export function splitKernelName(cell: string): { kernelName: string; signature: string } {
  const signature = cell.trim();
  let end = signature.length;
  if (signature.endsWith(')')) {
    let depth = 0;
    for (let i = signature.length - 1; i >= 0; i--) {
      const c = signature[i];
      if (c === ')') depth++;
      else if (c === '(') depth--;
      if (depth === 0) {
        end = i;
        break;
      }
    }
  }
  const kernelName = signature.slice(0, end).trim().replace(/^void\s+/, '');
  return { kernelName: kernelName === '' ? signature : kernelName, signature };
}

/** Column numbers in messages are 1-based, like a spreadsheet's. */
function where(file: string, row: number, column?: number, header?: string): string {
  const col = column === undefined ? '' : `, column ${column}${header ? ` ("${header}")` : ''}`;
  return `${file}: row ${row}${col}`;
}

/**
 * Parses the text of an ncu raw-page CSV. `file` is only used in error messages.
 * Throws UserError (naming file, row and column) when the text is not a raw-page export.
 */
export function parseNcuRawCsv(text: string, file: string): NcuLaunch[] {
  const rows = parseCsvRows(text, (line, message) => {
    throw new UserError(`${file}: line ${line}: ${message}; ${HOW_TO_EXPORT}`);
  });
  const header = rows[0];
  if (!header || (header.length === 1 && header[0] === '')) {
    throw new UserError(`${file}: the file is empty; ${HOW_TO_EXPORT}`);
  }
  checkHeader(header, file);
  const units = rows[1];
  if (!units) throw new UserError(`${where(file, 2)}: the units row is missing; ${HOW_TO_EXPORT}`);
  checkUnitsRow(units, header, file);

  const launches: NcuLaunch[] = [];
  for (let r = 2; r < rows.length; r++) {
    const row = rows[r] ?? [];
    // ncu never writes blank lines inside the table; tolerate one left by an editor
    if (row.length === 1 && row[0] === '') continue;
    launches.push(parseLaunchRow(row, header, units, file, r + 1));
  }
  return launches;
}

function checkHeader(header: string[], file: string): void {
  // a details-page CSV has the same identity columns, so name it: it is the common mistake
  if (header.includes('Section Name') && header.includes('Metric Name')) {
    throw new UserError(
      `${where(file, 1, header.indexOf('Section Name') + 1, 'Section Name')}: this is a --page details CSV, not --page raw; ${HOW_TO_EXPORT}`,
    );
  }
  IDENTITY_COLUMNS.forEach((expected, i) => {
    if (header[i] !== expected) {
      const found = header[i] === undefined ? 'nothing' : `"${header[i]}"`;
      throw new UserError(
        `${where(file, 1, i + 1)}: expected header "${expected}", found ${found}: not an ncu raw-page CSV; ${HOW_TO_EXPORT}`,
      );
    }
  });
  const seen = new Map<string, number>();
  header.forEach((id, i) => {
    if (i < IDENTITY_COLUMNS.length) return;
    if (id === '') throw new UserError(`${where(file, 1, i + 1)}: empty metric name in the header`);
    const first = seen.get(id);
    if (first !== undefined) {
      throw new UserError(`${where(file, 1, i + 1)}: metric "${id}" repeats column ${first + 1}`);
    }
    seen.set(id, i);
  });
}

function checkUnitsRow(units: string[], header: string[], file: string): void {
  // ncu leaves the identity cells of the units row empty; a value there means row 2 is a launch
  const id = units[0] ?? '';
  if (id !== '') {
    throw new UserError(
      `${where(file, 2, 1, 'ID')}: expected the units row (empty under "ID"), found "${id}"; ${HOW_TO_EXPORT} (it prints units in row 2)`,
    );
  }
  if (units.length !== header.length) {
    throw new UserError(`${where(file, 2)}: the units row has ${units.length} cells, the header ${header.length}`);
  }
}

function parseLaunchRow(row: string[], header: string[], units: string[], file: string, rowNumber: number): NcuLaunch {
  if (row.length !== header.length) {
    throw new UserError(
      `${where(file, rowNumber, Math.min(row.length, header.length) + 1)}: ${row.length} cells, the header has ${header.length}`,
    );
  }
  const cell = (name: (typeof IDENTITY_COLUMNS)[number]): string => row[IDENTITY_COLUMNS.indexOf(name)] ?? '';
  const column = (name: (typeof IDENTITY_COLUMNS)[number]): number => IDENTITY_COLUMNS.indexOf(name) + 1;

  const id = parseNcuNumber(cell('ID'));
  if (id === undefined || !Number.isInteger(id)) {
    throw new UserError(`${where(file, rowNumber, column('ID'), 'ID')}: "${cell('ID')}" is not a launch id`);
  }
  const dim = (name: 'Block Size' | 'Grid Size'): Dim3 => {
    const d = parseDim3(cell(name));
    if (!d) throw new UserError(`${where(file, rowNumber, column(name), name)}: "${cell(name)}" is not "(x, y, z)"`);
    return d;
  };
  const identity: Record<string, string> = {};
  for (const name of ['Process ID', 'Process Name', 'Host Name', 'Context', 'Stream', 'Device', 'CC'] as const) {
    identity[name] = cell(name);
  }
  const metrics: Record<string, NcuMetric> = {};
  for (let c = IDENTITY_COLUMNS.length; c < header.length; c++) {
    const raw = row[c] ?? '';
    // an empty cell is a metric ncu did not collect for this launch (e.g. PM-sampling ones): leave it out
    if (raw === '') continue;
    const metricId = header[c] ?? '';
    metrics[metricId] = { value: parseNcuNumber(raw) ?? raw, unit: units[c] ?? '' };
  }
  return { id, ...splitKernelName(cell('Kernel Name')), block: dim('Block Size'), grid: dim('Grid Size'), identity, metrics };
}

/** Reads and parses an ncu raw-page CSV file; a missing or unreadable file is a one-line UserError. */
export function readNcuRawCsv(file: string): NcuLaunch[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (code ?? 'unreadable');
    throw new UserError(`cannot read ncu CSV ${file}: ${why}; ${HOW_TO_EXPORT}`);
  }
  return parseNcuRawCsv(text, file);
}
