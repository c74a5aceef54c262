/**
 * "Explain a number" (issue 41 item 7), as seed 002's slides draw it: one warp's lanes mapped to the
 * 32-byte sectors a global access touches, or to the banks and distinct words a shared access needs,
 * with the ideal count beside it. Pure: lane addresses in, an explanation out, and its console text.
 * The counts come from the coalescer and the bank model the counters use (Coalescer, SharedBanks),
 * so an explanation cannot disagree with the report's sectors and wavefronts.
 */
import { existsSync, realpathSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import type { ExplainedInstruction, KernelResult, Report } from '../../types/report.schema.js';
import { UserError, escapeControl } from '../errors.js';
import type { ExplainSample } from '../exec/explain.js';
import type { SourceLoc } from '../ir/types.js';
import { Coalescer, SECTOR_BYTES, idealSectors } from '../memory/coalesce.js';
import { SharedBanks } from '../memory/sharedBanks.js';
import { formatNumber } from './format.js';

const BANKS = 32;

export interface SectorLanes {
  /** the sector's first byte address */
  address: number;
  lanes: number[];
}

export interface GlobalLanes {
  sectors: SectorLanes[];
  /** the request's sectors, as the counters count them */
  count: number;
  /** ceil(active lanes x bytes / 32): what the same data could need */
  ideal: number;
}

export interface BankLanes {
  bank: number;
  lanes: number[];
  /** byte offsets of the distinct 4-byte words the bank must deliver, ascending */
  words: number[];
}

export interface SharedLanes {
  banks: BankLanes[];
  wavefronts: number;
  ideal: number;
}

const active = (mask: number, lane: number): boolean => ((mask >>> lane) & 1) === 1;

/** the 32-byte sectors the active lanes' accesses of `size` bytes touch, each with its lanes */
export function explainGlobalLanes(addrs: ArrayLike<number>, mask: number, size: number): GlobalLanes {
  const lanesBySector = new Map<number, number[]>();
  const all = new Float64Array(32);
  for (let l = 0; l < 32; l++) {
    if (!active(mask, l)) continue;
    const a = addrs[l] as number;
    all[l] = a;
    // a naturally aligned access of up to 32 bytes stays in one sector; wider ones are listed in each
    for (let s = Math.floor(a / SECTOR_BYTES); s * SECTOR_BYTES < a + size; s++) {
      const lanes = lanesBySector.get(s) ?? [];
      lanes.push(l);
      lanesBySector.set(s, lanes);
    }
  }
  const sectors = [...lanesBySector.entries()].sort((x, y) => x[0] - y[0]).map(([s, lanes]) => ({ address: s * SECTOR_BYTES, lanes }));
  const lanes = popcount(mask);
  return { sectors, count: new Coalescer().run(all, mask, size), ideal: lanes === 0 ? 0 : Math.max(1, idealSectors(lanes, size)) };
}

/** the banks the active lanes' accesses of `size` bytes at shared offsets `offs` use, with the wavefronts */
export function explainSharedLanes(offs: ArrayLike<number>, mask: number, size: number): SharedLanes {
  const byBank = new Map<number, { lanes: Set<number>; words: Set<number> }>();
  const all = new Float64Array(32);
  const wordsPerLane = size <= 4 ? 1 : size / 4;
  for (let l = 0; l < 32; l++) {
    if (!active(mask, l)) continue;
    const off = offs[l] as number;
    all[l] = off;
    const first = Math.floor(off / 4);
    for (let k = 0; k < wordsPerLane; k++) {
      const word = first + k;
      const bank = word % BANKS;
      const b = byBank.get(bank) ?? { lanes: new Set<number>(), words: new Set<number>() };
      b.lanes.add(l);
      b.words.add(word * 4);
      byBank.set(bank, b);
    }
  }
  const banks = [...byBank.entries()]
    .sort((x, y) => x[0] - y[0])
    .map(([bank, b]) => ({ bank, lanes: [...b.lanes].sort((x, y) => x - y), words: [...b.words].sort((x, y) => x - y) }));
  const r = new SharedBanks().run(all, mask, size);
  return { banks, wavefronts: r.wavefronts, ideal: r.ideal };
}

function popcount(mask: number): number {
  let n = 0;
  for (let l = 0; l < 32; l++) if (active(mask, l)) n++;
  return n;
}

/** what the launch's counters say about the instruction (every warp's requests) */
export interface LaunchCounts {
  requests: number;
  /** sectors (global) or wavefronts (shared) summed over the requests, and their ideal */
  total: number;
  ideal: number;
}

/**
 * A captured sample as the report carries it. `file` is the instruction's file as the report names
 * files; `label` names a sector's address by its allocation (in+0x20), when it has one.
 */
export function explainedInstruction(
  sample: ExplainSample,
  opcode: string,
  file: string,
  launch: LaunchCounts,
  label: (address: number) => string | undefined = () => undefined,
): ExplainedInstruction {
  const addresses = Array.from(sample.addrs, (a, l) => (active(sample.mask, l) ? a : null));
  const per = (x: number): number => (launch.requests > 0 ? Math.round((x / launch.requests) * 100) / 100 : 0);
  const common = {
    index: sample.index,
    line: sample.loc.line,
    file,
    opcode,
    space: sample.space,
    bytes: sample.size,
    warp: { block: [sample.block[0], sample.block[1], sample.block[2]] as [number, number, number], warp: sample.warpInBlock },
    addresses,
    activeLanes: popcount(sample.mask),
    requestsPerWarp: sample.requests,
  };
  const counts = { requests: launch.requests, perRequest: per(launch.total), idealPerRequest: per(launch.ideal) };
  if (sample.space === 'global') {
    const g = explainGlobalLanes(sample.addrs, sample.mask, sample.size);
    const sectors = g.sectors.map((s) => {
      const name = label(s.address);
      return { address: s.address, ...(name === undefined ? {} : { label: name }), lanes: s.lanes };
    });
    return { ...common, unit: 'sectors', count: g.count, ideal: g.ideal, launch: counts, sectors };
  }
  const s = explainSharedLanes(sample.addrs, sample.mask, sample.size);
  return { ...common, unit: 'wavefronts', count: s.wavefronts, ideal: s.ideal, launch: counts, banks: s.banks };
}

// ---- which lines: --explain file:line | line | all --------------------------------------------

export interface ExplainTarget {
  /** as the user gave it */
  readonly raw: string;
  /** the file named, as given; null: the kernel file */
  readonly file: string | null;
  readonly line: number;
}

/** 'all': every memory instruction */
export type ExplainRequest = 'all' | readonly ExplainTarget[];

/** `--explain` values: `file:line`, `line` (the kernel file's) or `all`; a malformed one is a usage error */
export function parseExplainTargets(raw: readonly string[]): ExplainRequest {
  if (raw.some((r) => r.trim() === 'all')) return 'all';
  return raw.map((r) => {
    const text = r.trim();
    const colon = text.lastIndexOf(':');
    const file = colon < 0 ? null : text.slice(0, colon);
    const lineText = colon < 0 ? text : text.slice(colon + 1);
    const line = /^\d+$/.test(lineText) ? Number(lineText) : Number.NaN;
    if (!Number.isSafeInteger(line) || line < 1 || file === '')
      throw new UserError(`--explain ${escapeControl(r)}: expected file:line, a line number of the kernel file, or all (e.g. --explain kernels/transpose.ts:62)`, 2);
    return { raw: r, file, line };
  });
}

/** before any emulation: a file named by a target exists */
export function checkExplainFiles(req: ExplainRequest): void {
  if (req === 'all') return;
  for (const t of req)
    if (t.file !== null && !existsSync(t.file)) throw new UserError(`--explain ${escapeControl(t.raw)}: there is no file ${escapeControl(t.file)}`, 2);
}

/** a path as one canonical string: symlinks resolved where the file exists */
function canonical(path: string): string {
  const abs = resolve(path);
  try {
    return existsSync(abs) ? realpathSync(abs) : abs;
  } catch {
    return abs;
  }
}

/** whether a target names the instruction at `loc` (`kernelFile`: the file profiled) */
function targetMatcher(targets: readonly ExplainTarget[], kernelFile: string): (loc: SourceLoc) => boolean {
  const files = new Map<string, string>();
  const fileOf = (f: string): string => {
    let c = files.get(f);
    if (c === undefined) files.set(f, (c = canonical(f)));
    return c;
  };
  const wanted = targets.map((t) => ({ file: fileOf(t.file ?? kernelFile), line: t.line }));
  return (loc) => wanted.some((t) => t.line === loc.line && t.file === fileOf(loc.file));
}

export function explainMatcher(req: ExplainRequest, kernelFile: string): (loc: SourceLoc) => boolean {
  return req === 'all' ? () => true : targetMatcher(req, kernelFile);
}

/**
 * The error for targets that name no memory instruction of the profiled launches: one line naming
 * the line and those of its file that have memory instructions. `memoryLocs`: every memory
 * instruction compiled. Null when every target names one.
 */
export function unmatchedExplainError(req: ExplainRequest, kernelFile: string, memoryLocs: readonly SourceLoc[]): UserError | null {
  if (req === 'all') return null;
  for (const t of req) {
    const matches = targetMatcher([t], kernelFile);
    if (memoryLocs.some(matches)) continue;
    const file = canonical(t.file ?? kernelFile);
    const lines = [...new Set(memoryLocs.filter((l) => canonical(l.file) === file).map((l) => l.line))].sort((a, b) => a - b);
    const shown = t.file ?? kernelFile;
    const where = `${escapeControl(shown)}:${t.line}`;
    const others =
      lines.length > 0
        ? `the lines with memory instructions are ${lines.join(', ')}`
        : `${escapeControl(shown)} has no memory instruction in the profiled launches${t.file === null ? '' : ` (the kernel file is ${escapeControl(kernelFile)})`}`;
    return new UserError(`--explain ${escapeControl(t.raw)}: ${where} has no memory instruction (load, store or atomic); ${others}`, 2);
  }
  return null;
}

/**
 * The report's explanations limited to what `--explain` asked (`null`: none asked, so none kept). A
 * run that writes an HTML page explains every line for the page; the JSON and the console carry only
 * the lines asked about.
 */
export function selectExplain(report: Report, req: ExplainRequest | null, kernelFile: string): Report {
  if (req === 'all') return report;
  const matches = req === null ? () => false : targetMatcher(req, kernelFile);
  return {
    ...report,
    kernels: report.kernels.map((k) => {
      if (k.explain === undefined) return k;
      const { explain, ...rest } = k;
      const kept = explain.filter((e) => matches({ file: e.file, line: e.line }));
      return kept.length > 0 ? { ...rest, explain: kept } : rest;
    }),
  };
}

/** the instruction's file as a report names files: relative to the working directory */
export function reportFileName(file: string): string {
  return relative(process.cwd(), file) || file;
}

// ---- the console text ------------------------------------------------------------------------

const INDENT = '    ';

/** lane numbers as ranges: 0-6, 8, 10-12 */
export function laneRanges(lanes: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < lanes.length; ) {
    let j = i;
    while (j + 1 < lanes.length && (lanes[j + 1] as number) === (lanes[j] as number) + 1) j++;
    parts.push(j === i ? String(lanes[i]) : `${lanes[i]}-${lanes[j]}`);
    i = j + 1;
  }
  return parts.join(', ');
}

/** per lane, the index of its group (sector or bank) in the explanation; -1 for a lane that did not access */
export function laneGroups(e: ExplainedInstruction): number[] {
  const of = new Array<number>(32).fill(-1);
  // a saved report is read back: a lane outside the warp is not drawn (nor does it grow the strip)
  const set = (l: number, g: number): void => {
    if (Number.isInteger(l) && l >= 0 && l < 32 && of[l] === -1) of[l] = g;
  };
  if (e.sectors) e.sectors.forEach((s, i) => s.lanes.forEach((l) => set(l, i)));
  // shared: the lane's (first) bank itself is what the reader wants to see
  if (e.banks) for (const b of e.banks) for (const l of b.lanes) set(l, b.bank);
  return of;
}

function plural(n: number, word: string): string {
  return `${formatNumber(n)} ${n === 1 ? word.replace(/s$/, '') : word}`;
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (cells: readonly string[]): string => (INDENT + cells.map((cell, c) => (c === cells.length - 1 ? cell : cell.padEnd(widths[c] ?? 0))).join(' ')).trimEnd();
  const dashes = INDENT + widths.map((w) => '-'.repeat(w)).join(' ');
  return [dashes, line(header), dashes, ...rows.map(line), dashes];
}

const hex = (n: number): string => `0x${n.toString(16)}`;

/** the word offsets of a bank, the first few and the count */
function wordList(words: readonly number[]): string {
  const shown = words.slice(0, 4).map(String).join(', ');
  return words.length > 4 ? `${shown}, ... (${words.length})` : shown;
}

/** one explained instruction as console lines */
export function explainLines(e: ExplainedInstruction, sourceLine: string | undefined): string[] {
  const unit = e.unit;
  const text = (sourceLine ?? '').trim();
  const out = [`${INDENT}${e.opcode}  ${e.file}:${e.line}${text === '' ? '' : `  ${text}`}`];
  const op = e.space === 'global' ? 'global memory' : 'shared memory';
  out.push(
    `${INDENT}${op}, ${plural(e.bytes, 'bytes')} per lane, ${plural(e.activeLanes, 'active lanes')}; warp ${e.warp.warp} of block (${e.warp.block.join(', ')}): ` +
      `${plural(e.requestsPerWarp, 'requests')} per warp`,
  );
  const verdict = e.count > e.ideal ? `${formatNumber(e.count / Math.max(1, e.ideal))}x the ideal` : 'ideal';
  out.push(`${INDENT}this request: ${plural(e.count, unit)}, ideal ${formatNumber(e.ideal)} (${verdict})`);
  out.push(
    `${INDENT}all ${plural(e.launch.requests, 'requests')} of the launch: ${plural(e.launch.perRequest, unit)} per request, ideal ${formatNumber(e.launch.idealPerRequest)}`,
  );
  // the strip: each lane's sector (its index in the table below) or bank, lanes in columns
  const groups = laneGroups(e);
  const cell = (s: string): string => s.padStart(3);
  out.push(`${INDENT}${'lane'.padEnd(6)}${Array.from({ length: 32 }, (_, l) => cell(String(l))).join('')}`);
  out.push(`${INDENT}${(e.space === 'global' ? 'sector' : 'bank').padEnd(6)}${groups.map((g) => cell(g < 0 ? '.' : String(g))).join('')}`);
  if (e.sectors) {
    out.push(
      ...table(
        ['Sector', 'Address', 'Lanes'],
        e.sectors.map((s, i) => [String(i), s.label ?? hex(s.address), `${laneRanges(s.lanes)} (${s.lanes.length})`]),
      ),
    );
  }
  if (e.banks) {
    const most = Math.max(0, ...e.banks.map((b) => b.words.length));
    // conflict-free: the strip says it all (a row per bank would only repeat it)
    if (most <= 1) {
      out.push(`${INDENT}each of the ${e.banks.length} banks used delivers one word: no bank conflict`, '');
      return out;
    }
    out.push(
      ...table(
        ['Bank', 'Words', 'Lanes', 'Word Offsets'],
        e.banks.map((b) => [String(b.bank), `${b.words.length}${b.words.length === most && most > 1 ? ' *' : ''}`, `${laneRanges(b.lanes)} (${b.lanes.length})`, wordList(b.words)]),
      ),
    );
    out.push(`${INDENT}* the bank that must deliver the most distinct words sets the wavefronts: ${most} words, ${plural(Math.max(most, e.count), 'wavefronts')}`);
  }
  out.push('');
  return out;
}

/** the explanations of every kernel of the report that has some */
export function renderExplain(report: Pick<Report, 'kernels'>): string {
  const lines: string[] = [];
  for (const k of report.kernels) lines.push(...kernelExplainLines(k));
  return lines.length === 0 ? '' : `${lines.map(escapeControl).join('\n')}\n`;
}

function kernelExplainLines(k: KernelResult): string[] {
  if (!k.explain || k.explain.length === 0) return [];
  const out = [`  Explain: ${k.name} — per memory instruction, the first request of the lowest-numbered warp that executed it`];
  for (const e of k.explain) out.push(...explainLines(e, e.file === k.file ? k.sourceLines?.[e.line - 1] : undefined));
  return out;
}
