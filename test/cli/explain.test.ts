/**
 * `profile --explain` (issue 41 item 7) through the command class in-process: the lane map after the
 * console report, the JSON field, the one-line error for a line without memory instructions, a saved
 * report that `report` renders with the same explanation, and the HTML page's clickable lines.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { format } from 'node:util';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import Profile from '../../commands/profile.js';
import ReportCommand from '../../commands/report.js';
import type { Report } from '../../types/report.schema.js';

const ROOT = join(import.meta.dirname, '..', '..');
const FILE = 'kernels/coalescing.ts';
const LINE = readFileSync(join(ROOT, FILE), 'utf8').split('\n').findIndex((l) => l.includes('out.at(i).store(src.at(index(i)).load())')) + 1;
/** one small launch: 32 blocks */
const SMALL = ['-k', 'unaligned_4B', '--param', 'n=8192', '--no-timing'];
const dir = mkdtempSync(join(tmpdir(), 'warpsight-explain-'));

async function capture(run: () => Promise<unknown>): Promise<{ out: string; err: string; result: unknown; thrown: unknown }> {
  let out = '';
  let err = '';
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  });
  const ewrite = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    err += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  });
  const log = vi.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => {
    out += `${format(...parts)}\n`;
  });
  try {
    const result = await run();
    return { out, err, result, thrown: undefined };
  } catch (thrown) {
    return { out, err, result: undefined, thrown };
  } finally {
    write.mockRestore();
    ewrite.mockRestore();
    log.mockRestore();
  }
}

const profile = (args: string[]) => capture(() => Profile.run(args, ROOT));

afterEach(() => vi.restoreAllMocks());
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** the explanation block of the console output */
const block = (out: string): string => out.slice(out.indexOf('  Explain: '));

describe('profile --explain', () => {
  it('prints the lane map after the report: sectors with their lanes, and the ideal', async () => {
    const { out } = await profile([FILE, ...SMALL, '--section', 'SourceCounters', '--explain', String(LINE)]);
    expect(out.indexOf('Section: Source Counters')).toBeLessThan(out.indexOf('  Explain: unaligned_4B'));
    const text = block(out);
    expect(text).toContain(`LDG.E  ${FILE}:${LINE}  out.at(i).store(src.at(index(i)).load());`);
    expect(text).toContain('global memory, 4 bytes per lane, 32 active lanes; warp 0 of block (0, 0, 0): 1 request per warp');
    expect(text).toContain('this request: 5 sectors, ideal 4 (1.25x the ideal)');
    expect(text).toContain('all 256 requests of the launch: 5 sectors per request, ideal 4');
    for (const row of ['0      in+0x0  0-6 (7)', '1      in+0x20 7-14 (8)', '2      in+0x40 15-22 (8)', '3      in+0x60 23-30 (8)', '4      in+0x80 31 (1)']) expect(text).toContain(row);
    // the store beside it: coalesced
    expect(text).toContain(`STG.E  ${FILE}:${LINE}`);
    expect(text).toContain('this request: 4 sectors, ideal 4 (ideal)');
  });

  it('file:line works the same, and --json carries kernels[].explain', async () => {
    const { out } = await profile([FILE, ...SMALL, '--section', 'LaunchStats', '--explain', `${FILE}:${LINE}`, '--json']);
    const report = JSON.parse(out) as Report;
    const explain = report.kernels[0]?.explain ?? [];
    expect(explain.map((e) => [e.opcode, e.line, e.unit, e.count, e.ideal])).toEqual([
      ['LDG.E', LINE, 'sectors', 5, 4],
      ['STG.E', LINE, 'sectors', 4, 4],
    ]);
    expect(explain[0]?.sectors?.[0]).toEqual({ address: explain[0]?.addresses[0] ? explain[0].addresses[0] - 4 : -1, label: 'in+0x0', lanes: [0, 1, 2, 3, 4, 5, 6] });
  });

  it('a line without memory instructions: one error line naming the lines that have one, exit 2', async () => {
    const r = await profile([FILE, ...SMALL, '--explain', '31']);
    expect((r.thrown as { oclif?: { exit?: number } }).oclif?.exit).toBe(2);
    expect(r.err.trim()).toBe(`error: --explain 31: ${FILE}:31 has no memory instruction (load, store or atomic); the lines with memory instructions are ${LINE}`);
    const bad = await profile([FILE, ...SMALL, '--explain', 'nope']);
    expect((bad.thrown as { oclif?: { exit?: number } }).oclif?.exit).toBe(2);
    expect(bad.err.trim()).toBe('error: --explain nope: expected file:line, a line number of the kernel file, or all (e.g. --explain kernels/transpose.ts:62)');
    // a file that does not exist is named before anything runs
    const missing = await profile([FILE, ...SMALL, '--explain', 'kernels/nope.ts:3']);
    expect(missing.err.trim()).toBe('error: --explain kernels/nope.ts:3: there is no file kernels/nope.ts');
    expect(missing.out).toBe('');
  });

  it('a saved report renders the same explanation (report saved.json), and its page the clickable line', async () => {
    const saved = join(dir, 'saved.json');
    const first = await profile([FILE, ...SMALL, '--section', 'SourceCounters', '--explain', String(LINE), '-o', saved]);
    const again = await capture(() => ReportCommand.run([saved], ROOT));
    expect(block(again.out)).toBe(block(first.out));
    const html = join(dir, 'saved.html');
    await capture(() => ReportCommand.run([saved, '--html', html], ROOT));
    const page = readFileSync(html, 'utf8');
    expect(page).toContain(`<details class="explain" id="k0-explain-L${LINE}" data-line="${LINE}">`);
    expect(page).toContain(`<a href="#k0-explain-L${LINE}" title="explain this line">${LINE}</a>`);
  });

  it('--html explains every memory line on the page; the JSON only what --explain asked (here nothing)', async () => {
    const html = join(dir, 'page.html');
    const out = join(dir, 'page.json');
    await profile([FILE, ...SMALL, '--section', 'SourceCounters', '--html', html, '-o', out]);
    expect(readFileSync(html, 'utf8')).toContain('LDG.E: 5 sectors (ideal 4) · STG.E: 4 sectors (ideal 4)');
    expect((JSON.parse(readFileSync(out, 'utf8')) as Report).kernels[0]).not.toHaveProperty('explain');
  });
});
