/**
 * "Explain a number" (issue 41 item 7) through the real pipeline: the seed's coalescing examples
 * (kernels/coalescing.ts) and the transpose's column read (kernels/transpose.ts) profiled with
 * explanations, their lanes in sectors and banks, the counts beside the counters', the report field,
 * a saved report rendering the same, and the error for a line without memory instructions.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ExplainedInstruction, Report } from '../../types/report.schema.js';
import { renderReport } from '../../src/cli/render.js';
import { UserError } from '../../src/errors.js';
import { profileFile } from '../../src/profile.js';
import { explainGlobalLanes, explainSharedLanes, laneGroups, laneRanges, parseExplainTargets, renderExplain, selectExplain } from '../../src/report/explain.js';
import { renderHtml } from '../../src/report/html/index.js';
import { checkReport } from '../../src/report/schema.js';

const COALESCING = 'kernels/coalescing.ts';
const TRANSPOSE = 'kernels/transpose.ts';
/** the seed's slides, in their order, and the sectors per request of each load */
const SEED = ['coalesced_4B', 'coalesced_8B', 'unaligned_1B', 'unaligned_4B', 'unaligned_8B', 'stride2_1B', 'stride2_4B'];
const SEED_SECTORS = [4, 8, 2, 5, 9, 2, 8];

/** the line of a file holding `text` (the tests follow the kernels' edits) */
function lineOf(file: string, text: string): number {
  const i = readFileSync(file, 'utf8').split('\n').findIndex((l) => l.includes(text));
  if (i < 0) throw new Error(`${file} has no line with ${text}`);
  return i + 1;
}
const COPY_LINE = lineOf(COALESCING, 'out.at(i).store(src.at(index(i)).load())');
const ROW_LINE = lineOf(TRANSPOSE, 'row.at(j * (TDIM + pad)).store(src.load())');
const COLUMN_LINE = lineOf(TRANSPOSE, 'dst.store(col.at(j).get())');

const range = (a: number, b: number): number[] => Array.from({ length: b - a + 1 }, (_, i) => a + i);

function explained(report: Report, kernel: string): ExplainedInstruction[] {
  const k = report.kernels.find((x) => x.name === kernel);
  if (!k) throw new Error(`no kernel ${kernel}`);
  return k.explain ?? [];
}
const load = (list: ExplainedInstruction[], prefix: string): ExplainedInstruction[] => list.filter((e) => e.opcode.startsWith(prefix));

describe('the seed coalescing examples', () => {
  let report: Report;
  beforeAll(async () => {
    // 32 blocks: the first warp is what is explained; the counters' averages are the same at any size
    report = await profileFile({ file: COALESCING, kernel: SEED, params: { n: '8192' }, timing: false, explain: parseExplainTargets([String(COPY_LINE)]) });
  });

  it('the loads touch 4, 8, 2, 5, 9, 2, 8 sectors per request, and the counters agree', () => {
    const loads = SEED.map((k) => load(explained(report, k), 'LDG'));
    for (const l of loads) expect(l).toHaveLength(1);
    expect(loads.map((l) => l[0]?.count)).toEqual(SEED_SECTORS);
    // the sectors listed are the sectors counted
    expect(loads.map((l) => l[0]?.sectors?.length)).toEqual(SEED_SECTORS);
    // every warp of these launches does what the first does: the launch's average is the same
    expect(loads.map((l) => l[0]?.launch.perRequest)).toEqual(SEED_SECTORS);
    expect(loads.map((l) => l[0]?.ideal)).toEqual([4, 8, 1, 4, 8, 1, 4]);
    for (const [i, name] of SEED.entries()) {
      const k = report.kernels.find((x) => x.name === name);
      const e = loads[i]?.[0];
      const counters = k?.instructions.find((x) => x.index === e?.index);
      expect(counters?.line).toBe(COPY_LINE);
      expect(e?.launch.requests).toBe(counters?.metrics.inst_executed);
      expect((e?.launch.perRequest ?? 0) * (e?.launch.requests ?? 0)).toBe(counters?.metrics.memory_l2_theoretical_sectors_global);
    }
  });

  it('each sector with its lanes: unaligned_4B puts lanes 0-6 in the first sector and lane 31 alone in the fifth', () => {
    const [e] = load(explained(report, 'unaligned_4B'), 'LDG');
    expect(e?.sectors?.map((s) => s.lanes)).toEqual([range(0, 6), range(7, 14), range(15, 22), range(23, 30), [31]]);
    expect(e?.sectors?.map((s) => s.label)).toEqual(['in+0x0', 'in+0x20', 'in+0x40', 'in+0x60', 'in+0x80']);
    expect(e).toMatchObject({ space: 'global', bytes: 4, activeLanes: 32, requestsPerWarp: 1, unit: 'sectors', warp: { block: [0, 0, 0], warp: 0 } });
    // lane l reads in[l + 1]
    expect(e?.addresses.map((a) => (a ?? 0) - (e.addresses[0] ?? 0))).toEqual(range(0, 31).map((l) => 4 * l));
  });

  it('the other examples, lane by lane', () => {
    const lanes = (k: string): number[][] => load(explained(report, k), 'LDG')[0]?.sectors?.map((s) => s.lanes) ?? [];
    expect(lanes('coalesced_4B')).toEqual([range(0, 7), range(8, 15), range(16, 23), range(24, 31)]);
    expect(lanes('coalesced_8B')).toEqual([0, 4, 8, 12, 16, 20, 24, 28].map((l) => range(l, l + 3)));
    // bytes 1..32: lanes 0-30 in the first sector, lane 31 in the next
    expect(lanes('unaligned_1B')).toEqual([range(0, 30), [31]]);
    expect(lanes('unaligned_8B')).toEqual([range(0, 2), range(3, 6), range(7, 10), range(11, 14), range(15, 18), range(19, 22), range(23, 26), range(27, 30), [31]]);
    expect(lanes('stride2_1B')).toEqual([range(0, 15), range(16, 31)]);
    expect(lanes('stride2_4B')).toEqual([0, 4, 8, 12, 16, 20, 24, 28].map((l) => range(l, l + 3)));
    // the stores are coalesced in every example (unaligned_1B's 32 bytes fill one sector)
    expect(SEED.map((k) => load(explained(report, k), 'STG')[0]?.count)).toEqual([4, 8, 1, 4, 8, 1, 4]);
  });

  it('the console prints each sector with its lanes, and the strip of lanes', () => {
    const text = renderExplain({ kernels: report.kernels.filter((k) => k.name === 'unaligned_4B') });
    expect(text).toContain(`LDG.E  kernels/coalescing.ts:${COPY_LINE}  out.at(i).store(src.at(index(i)).load());`);
    expect(text).toContain('this request: 5 sectors, ideal 4 (1.25x the ideal)');
    expect(text).toMatch(/sector( {2}0){7}( {2}1){8}( {2}2){8}( {2}3){8}  4\n/);
    expect(text).toContain('0      in+0x0  0-6 (7)');
    expect(text).toContain('4      in+0x80 31 (1)');
  });

  it('is in the report JSON (schema-valid), and a saved report renders the same explanation', async () => {
    checkReport(report, 'the explained report');
    const saved = JSON.parse(JSON.stringify(report)) as Report;
    const flags = { csv: false, page: 'details', summary: 'none', units: 'auto', metricName: 'label' } as const;
    const text = renderExplain(report);
    expect(text.length).toBeGreaterThan(0);
    expect(await renderReport(saved, flags)).toContain(text);
    const html = await renderHtml(saved, { occupancy: null, sections: ['SourceCounters'] });
    expect(html).toContain(`id="k3-explain-L${COPY_LINE}"`);
    expect(html).toContain('LDG.E: 5 sectors (ideal 4)');
    // the hot-spot table's line links to it
    expect(html).toContain(`<a href="#k3-explain-L${COPY_LINE}"`);
  });
});

describe('the transpose column read', () => {
  let report: Report;
  beforeAll(async () => {
    report = await profileFile({ file: TRANSPOSE, params: { width: '256' }, timing: false, explain: parseExplainTargets([`${TRANSPOSE}:${COLUMN_LINE}`]) });
  });

  it('unpadded: the 32 lanes in one bank, 32 distinct words: 32 wavefronts against an ideal of 1', () => {
    for (const name of ['sh_transpose_32x32_bd32x32', 'sh_transpose_32x32_bd32x8']) {
      const lds = load(explained(report, name), 'LDS');
      // 32x8: nvcc's unrolled loop, four reads per thread
      expect(lds).toHaveLength(name.endsWith('bd32x8') ? 4 : 1);
      for (const [j, e] of lds.entries()) {
        expect(e).toMatchObject({ space: 'shared', unit: 'wavefronts', count: 32, ideal: 1, launch: { perRequest: 32, idealPerRequest: 1 } });
        // warp 0 reads column j * 8 (tile[lane][j]): every lane in bank j * 8 (32 x 32 floats per row)
        const bank = name.endsWith('bd32x8') ? j * 8 : 0;
        expect(e.banks).toEqual([{ bank, lanes: range(0, 31), words: range(0, 31).map((l) => 128 * l + 4 * bank) }]);
      }
    }
  });

  it('padded: each lane in its own bank, 1 wavefront', () => {
    for (const name of ['sh_transpose_32x33_bd32x32', 'sh_transpose_32x33_bd32x8']) {
      for (const e of load(explained(report, name), 'LDS')) {
        expect(e).toMatchObject({ count: 1, ideal: 1 });
        expect(e.banks).toHaveLength(32);
        for (const b of e.banks ?? []) expect(b.lanes).toHaveLength(1);
      }
    }
    const [e] = load(explained(report, 'sh_transpose_32x33_bd32x32'), 'LDS');
    // lane l reads tile[l][0]: word 33 l, bank l
    expect(e?.banks?.map((b) => b.lanes[0])).toEqual(range(0, 31));
  });

  it('the console names the bank and its 32 words', () => {
    const text = renderExplain({ kernels: report.kernels.filter((k) => k.name === 'sh_transpose_32x32_bd32x32') });
    expect(text).toContain('this request: 32 wavefronts, ideal 1 (32x the ideal)');
    expect(text).toMatch(/bank {2}( {2}0){32}\n/);
    expect(text).toContain('0    32 *  0-31 (32) 0, 128, 256, 384, ... (32)');
    const padded = renderExplain({ kernels: report.kernels.filter((k) => k.name === 'sh_transpose_32x33_bd32x32') });
    expect(padded).toContain('each of the 32 banks used delivers one word: no bank conflict');
  });
});

describe('which lines', () => {
  it('a line with no memory instruction is a usage error naming the lines that have one', async () => {
    const err = await profileFile({ file: TRANSPOSE, kernel: 'sh_transpose_32x32_bd32x32', params: { width: '64' }, timing: false, explain: parseExplainTargets(['5']) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as UserError).exitCode).toBe(2);
    expect((err as UserError).message).toBe(
      `--explain 5: ${TRANSPOSE}:5 has no memory instruction (load, store or atomic); the lines with memory instructions are ${ROW_LINE}, ${COLUMN_LINE}`,
    );
  });

  it("a program's launches are known only by running it: checked after the run, explained when profiled", async () => {
    const file = 'kernels/streams.ts';
    const line = lineOf(file, 'out.at(i).store(x)');
    const err = await profileFile({ file, kernel: 'false_dependency', timing: false, explain: parseExplainTargets(['1']) }).catch((e: unknown) => e);
    expect((err as UserError).message).toBe(`--explain 1: ${file}:1 has no memory instruction (load, store or atomic); the lines with memory instructions are ${line}`);
    const r = await profileFile({ file, kernel: 'false_dependency', timing: false, explain: parseExplainTargets([String(line)]) });
    expect(r.kernels.length).toBeGreaterThan(1);
    for (const k of r.kernels) expect(k.explain?.map((e) => [e.opcode, e.line, e.count, e.ideal])).toEqual([['STG.E', line, 4, 4]]);
  });

  it('file:line, line, all; malformed values are usage errors', () => {
    expect(parseExplainTargets(['kernels/a.ts:12', '7'])).toEqual([
      { raw: 'kernels/a.ts:12', file: 'kernels/a.ts', line: 12 },
      { raw: '7', file: null, line: 7 },
    ]);
    expect(parseExplainTargets(['7', 'all'])).toBe('all');
    for (const bad of ['x', 'a.ts:', ':3', 'a.ts:0', 'a.ts:-2', '1.5'])
      expect(() => parseExplainTargets([bad]), bad).toThrow(/--explain .*: expected file:line, a line number of the kernel file, or all/);
  });

  it('nothing asked, nothing captured: no field, and the same counters as an explained run', async () => {
    const req = { file: TRANSPOSE, kernel: 'sh_transpose_32x32_bd32x8', params: { width: '128' }, timing: false } as const;
    const plain = await profileFile(req);
    const explainedRun = await profileFile({ ...req, explain: 'all' });
    expect(plain.kernels[0]).not.toHaveProperty('explain');
    // every memory instruction, by instruction order
    expect(explainedRun.kernels[0]?.explain?.map((e) => e.line)).toEqual([ROW_LINE, ROW_LINE, ROW_LINE, ROW_LINE, ROW_LINE, ROW_LINE, ROW_LINE, ROW_LINE, COLUMN_LINE, COLUMN_LINE, COLUMN_LINE, COLUMN_LINE, COLUMN_LINE, COLUMN_LINE, COLUMN_LINE, COLUMN_LINE]);
    const { explain: _, ...rest } = explainedRun.kernels[0] ?? { explain: undefined };
    expect(rest).toEqual(plain.kernels[0]);
    // the JSON keeps only what was asked for
    const kept = selectExplain(explainedRun, parseExplainTargets([String(COLUMN_LINE)]), TRANSPOSE);
    expect(kept.kernels[0]?.explain?.every((e) => e.line === COLUMN_LINE)).toBe(true);
    expect(selectExplain(explainedRun, null, TRANSPOSE).kernels[0]).not.toHaveProperty('explain');
  });
});

describe('the lane model', () => {
  it('sectors and banks from lane addresses, counted by the coalescer and the bank model', () => {
    const addrs = Float64Array.from({ length: 32 }, (_, l) => 1024 + 4 + 4 * l);
    expect(explainGlobalLanes(addrs, -1, 4)).toMatchObject({ count: 5, ideal: 4 });
    // half the lanes: 16 x 4 bytes, ideal 2
    expect(explainGlobalLanes(addrs, 0xffff, 4)).toMatchObject({ count: 3, ideal: 2, sectors: [{ address: 1024, lanes: range(0, 6) }, { address: 1056, lanes: range(7, 14) }, { address: 1088, lanes: [15] }] });
    // a broadcast: every lane the same word, one bank, one wavefront
    expect(explainSharedLanes(new Float64Array(32).fill(64), -1, 4)).toEqual({ banks: [{ bank: 16, lanes: range(0, 31), words: [64] }], wavefronts: 1, ideal: 1 });
    // 16-byte accesses: four banks a lane, at least 2 wavefronts (the H200's minimum)
    const wide = explainSharedLanes(Float64Array.from({ length: 32 }, (_, l) => 16 * l), -1, 16);
    expect(wide.banks).toHaveLength(32);
    expect(wide).toMatchObject({ wavefronts: 4, ideal: 4 });
    expect(laneRanges([0, 1, 2, 5, 7, 8])).toBe('0-2, 5, 7-8');
  });

  it('a saved report whose lanes lie outside the warp draws a strip of 32 lanes all the same', () => {
    const e: ExplainedInstruction = {
      index: 3, line: 9, file: 'k.ts', opcode: 'LDG.E', space: 'global', bytes: 4, warp: { block: [0, 0, 0], warp: 0 },
      addresses: new Array<number | null>(32).fill(null), activeLanes: 1, requestsPerWarp: 1, unit: 'sectors', count: 1, ideal: 1,
      launch: { requests: 1, perRequest: 1, idealPerRequest: 1 }, sectors: [{ address: 0, lanes: [1e9, -1, 2] }],
    };
    expect(laneGroups(e)).toEqual(range(0, 31).map((l) => (l === 2 ? 0 : -1)));
  });
});
