/**
 * A program's timeline in the HTML report, in a real browser (playwright-core driving Debian's
 * Chromium, as htmlBrowser.test.ts does): bundled programs profiled through profileFile, rendered by
 * renderHtml, opened offline. A bar per kernel operation, copies on their stream and their copy
 * engine, the API row, the summaries and findings beside it; clicking a profiled kernel's bar
 * reaches its section; nothing is fetched, nothing logs an error, names from user code stay text; a
 * program of thousands of operations is merged down to a drawable number of bars and opens quickly.
 * Skipped where Chromium is absent (set CHROMIUM_PATH to use another binary).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Report } from '../../types/report.schema.js';
import { profileFile } from '../../src/profile.js';
import { API_ROW, MAX_TIMELINE_BARS, timelineData } from '../../src/report/charts/timeline.js';
import { renderHtml } from '../../src/report/html/index.js';
import { HAVE_CHROMIUM, OUT, type Opened, launchChromium, openReport } from './browser.js';
const BARS = 'figure[data-kind="timeline"] g.timeline_marks path';


/** the bars' accessible labels: `<kind> <name> on <row> …` */
const barLabels = (page: Page): Promise<string[]> => page.$$eval(BARS, (ps) => ps.map((p) => p.getAttribute('aria-label') ?? ''));

describe.skipIf(!HAVE_CHROMIUM)('program timeline in Chromium', () => {
  let browser: Browser;
  let falseDep: Report;
  let mallocSync: Report;

  beforeAll(async () => {
    [falseDep, mallocSync] = await Promise.all([
      profileFile({ file: 'kernels/streams.ts', kernel: 'false_dependency' }),
      profileFile({ file: 'kernels/streams.ts', kernel: 'malloc_sync' }),
    ]);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const open = (report: Report, name: string): Promise<Opened> => openReport(browser, report, name);


  it('false_dependency: a bar per kernel and API call, stream 8 sharing queue 0 outlined, summaries beside', async () => {
    const program = falseDep.programs?.[0];
    if (!program) throw new Error('false_dependency ran no program');
    const kernelOps = program.timeline.ops.filter((o) => o.kind === 'kernel');
    expect(kernelOps).toHaveLength(19); // the gate and 9 streams × 2
    const { page, errors, requests } = await open(falseDep, 'timeline-false_dependency');
    const labels = await barLabels(page);
    expect(labels.filter((l) => l.startsWith('kernel '))).toHaveLength(kernelOps.length);
    expect(labels.filter((l) => l.startsWith('api '))).toHaveLength(program.timeline.api.length);

    // the rows: the host, then each stream named with its hardware queue
    const rows = await page.$$eval('figure[data-kind="timeline"] g.role-axis-label text', (ts) => ts.map((t) => t.textContent ?? ''));
    for (const r of [API_ROW, 'stream 0 · queue 0', 'stream 8 · queue 0', 'gate · queue 1']) expect(rows).toContain(r);
    // the delayed kernel (the rule's op) is the one bar outlined in red
    const delayed = program.timeline.ops.filter((o) => o.delayedBy !== undefined);
    expect(delayed.length).toBeGreaterThan(0);
    const outlined = await page.$$eval(BARS, (ps) => ps.filter((p) => p.getAttribute('stroke') === '#e45756').map((p) => p.getAttribute('aria-label') ?? ''));
    expect(outlined).toHaveLength(delayed.length);
    expect(outlined[0]).toContain('on stream 8 · queue 0');
    // the SMs-in-use line is drawn under it
    expect(await page.$$eval('figure[data-kind="timeline"] g.sms_marks path', (ps) => ps.length)).toBeGreaterThan(0);
    // findings, values and the nsys-like summaries beside the chart
    const finding = await page.$eval('table.findings tr[data-rule="FalseDependency"]', (tr) => tr.textContent ?? '');
    expect(finding).toContain('hardware queue 0');
    expect(finding).toMatch(/[\d,]+ ns/);
    const captions = await page.$$eval('section.program caption', (cs) => cs.map((c) => c.textContent ?? ''));
    for (const c of ['Findings', 'CUDA GPU Kernel Summary (cuda_gpu_kern_sum)', 'CUDA API Summary (cuda_api_sum)', 'Streams']) expect(captions).toContain(c);
    const spin = await page.$$eval('section.program table', (ts) =>
      ts
        .filter((t) => t.querySelector('caption')?.textContent === 'CUDA GPU Kernel Summary (cuda_gpu_kern_sum)')
        .flatMap((t) => Array.from(t.querySelectorAll('tbody tr')).map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent ?? ''))),
    );
    expect(spin).toEqual([[expect.any(String), expect.any(String), '19', expect.any(String), expect.any(String), expect.any(String), expect.any(String), expect.any(String), 'spin']]);
    expect(await page.textContent('.gpu-idle')).toMatch(/^GPU idle: [\d,]+ ns of [\d,]+ ns/);
    // one kernel section per profiled launch, below the program
    expect(await page.$$eval('article.kernel', (as) => as.length)).toBe(falseDep.kernels.length);
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    await (await page.$('section.program'))?.screenshot({ path: join(OUT, 'timeline-false_dependency.png') });
    await page.close();
  });

  it('clicking a kernel bar goes to its section; the unprofiled gate kernel has no link', async () => {
    const data = timelineData(falseDep, 0);
    // the delayed kernel of stream 8: its report entry is the section to reach
    const op = falseDep.programs?.[0]?.timeline.ops.find((o) => o.delayedBy !== undefined);
    if (op?.kernel === undefined) throw new Error('no delayed profiled kernel');
    const bar = data.bars.find((b) => b.href === `#kernel-${op.kernel}`);
    if (!bar) throw new Error('no bar links to the delayed kernel');
    const gate = data.bars.find((b) => b.kind === 'kernel' && b.row.startsWith('gate'));
    expect(gate?.href).toBeUndefined();
    const { page, errors, requests } = await open(falseDep, 'timeline-click');
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    // vega sets the pointer on hover over a bar that links, not over one that does not
    const cursor = (): Promise<string> => page.$eval('#chart-p0-timeline', (el) => el.style.cursor);
    await page.locator(`${BARS}[aria-label="${gate?.description ?? ''}"]`).hover();
    expect(await cursor()).not.toBe('pointer');
    await page.locator(`${BARS}[aria-label="${gate?.description ?? ''}"]`).click();
    expect(await page.evaluate(() => location.hash)).toBe('');
    await page.locator(`${BARS}[aria-label="${bar.description}"]`).hover();
    expect(await cursor()).toBe('pointer');
    await page.locator(`${BARS}[aria-label="${bar.description}"]`).click();
    await page.waitForFunction((h) => location.hash === h, `#kernel-${op.kernel}`, { timeout: 5_000 });
    const top = await page.$eval(`#kernel-${op.kernel}`, (el) => el.getBoundingClientRect().top);
    expect(Math.abs(top)).toBeLessThan(5);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    expect(errors).toEqual([]);
    // same-document navigation only (a bar without a link once went to a file named "undefined")
    expect(requests).toEqual([]);
    await page.close();
  });

  it('malloc_sync: each copy on its stream and on its copy engine, the rule beside it', async () => {
    const program = mallocSync.programs?.[0];
    if (!program) throw new Error('malloc_sync ran no program');
    const ops = program.timeline.ops;
    const copies = ops.filter((o) => o.kind === 'memcpy');
    expect(copies.length).toBeGreaterThan(0);
    const { page, errors, requests } = await open(mallocSync, 'timeline-malloc_sync');
    const labels = await barLabels(page);
    expect(labels.filter((l) => l.startsWith('kernel '))).toHaveLength(ops.filter((o) => o.kind === 'kernel').length);
    expect(labels.filter((l) => l.startsWith('memcpy ') && l.includes(' on Copy engine: '))).toHaveLength(copies.length);
    expect(labels.filter((l) => l.startsWith('memcpy ') && !l.includes(' on Copy engine: '))).toHaveLength(copies.length);
    expect(labels.filter((l) => l.includes(' on Copy engine: Host-to-Device '))).toHaveLength(copies.filter((o) => o.engine === 'h2d').length);
    expect(labels.filter((l) => l.includes(' on Copy engine: Device-to-Host '))).toHaveLength(copies.filter((o) => o.engine === 'd2h').length);
    // no launch of this program was profiled: no bar links anywhere
    expect(mallocSync.kernels).toHaveLength(0);
    expect(timelineData(mallocSync, 0).bars.filter((b) => b.href !== undefined)).toEqual([]);
    expect(await page.$eval('table.findings', (t) => t.textContent ?? '')).toContain('MallocFreeInLoop');
    expect(await page.title()).toBe('Warpsight report: program malloc_sync');
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    await (await page.$('section.program'))?.screenshot({ path: join(OUT, 'timeline-malloc_sync.png') });
    await page.close();
  });

  it('stream, program and value names from user code stay text', async () => {
    const evil = '<img src=x onerror=alert(1)>';
    const report = structuredClone(falseDep);
    const program = report.programs?.[0];
    const stream = program?.timeline.streams.find((s) => s.name === 'stream 8');
    if (!program || !stream) throw new Error('no stream 8');
    program.name = evil;
    stream.name = evil;
    program.values.push({ name: evil, value: 1, unit: '<b>' });
    const { page, errors, requests, dialogs } = await open(report, 'timeline-hostile');
    expect(await page.$eval('.pname', (e) => e.textContent)).toBe(evil);
    const rows = await page.$$eval('figure[data-kind="timeline"] g.role-axis-label text', (ts) => ts.map((t) => t.textContent ?? ''));
    expect(rows).toContain(`${evil} · queue 0`);
    expect(await page.$$eval('img, b', (els) => els.length)).toBe(0);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    await page.close();
  });

  // how long it takes to draw is a bench figure (test/bench/htmlRender.ts), printed here: a timed
  // bound fails on a busy machine
  it('a program of thousands of operations is merged to a drawable timeline, the same bytes each time', async () => {
    const report = await profileFile({ file: 'kernels/launch_overhead.ts', params: { reps: '1', syncs: '50' } });
    const program = report.programs?.[0];
    if (!program) throw new Error('launch_overhead ran no program');
    const items = program.timeline.ops.filter((o) => o.kind !== 'eventRecord').length + program.timeline.api.length;
    expect(items).toBeGreaterThan(10_000);
    const { page, errors, renderMs, html } = await open(report, 'timeline-large');
    expect(await renderHtml(report)).toBe(html);
    const bars = await page.$$eval(BARS, (ps) => ps.length);
    expect(bars).toBeGreaterThan(0);
    expect(bars).toBeLessThanOrEqual(MAX_TIMELINE_BARS);
    const subtitle = await page.$eval('figure[data-kind="timeline"] g.role-title-subtitle', (g) => g.textContent ?? '');
    expect(subtitle).toContain(`${items.toLocaleString('en-US')} operations and API calls`);
    expect(subtitle).toMatch(/bars drawn: bars of one row and kind closer than [\d.]+ px are merged/);
    expect(errors).toEqual([]);
    console.log(`timeline of ${items.toLocaleString('en-US')} operations and API calls drawn in ${Math.round(renderMs)} ms`);
    await page.screenshot({ path: join(OUT, 'timeline-large.png') });
    await page.close();
  });
});
