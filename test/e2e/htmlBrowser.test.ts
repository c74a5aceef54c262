/**
 * The HTML report in a real browser (playwright-core driving Debian's Chromium, which .ci/run
 * installs): every section and chart renders, nothing is fetched, nothing logs an error, a hostile
 * kernel name stays text, and a report of the 4M-thread global kernels draws in under 2 s.
 * Skipped where Chromium is absent (set CHROMIUM_PATH to use another binary).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Report } from '../../types/report.schema.js';
import { renderHtml } from '../../src/report/html/index.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const OUT = resolve('out/e2e');
const baseline = JSON.parse(readFileSync('reports/baseline.json', 'utf8')) as Report;

function only(...names: string[]): Report {
  return { ...baseline, kernels: baseline.kernels.filter((k) => names.includes(k.name)) };
}

interface Opened {
  page: Page;
  errors: string[];
  requests: string[];
  dialogs: string[];
  renderMs: number;
}

describe.skipIf(!existsSync(CHROMIUM))('HTML report in Chromium', () => {
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'],
    });
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function open(report: Report, name: string): Promise<Opened> {
    const file = join(OUT, `${name}.html`);
    writeFileSync(file, await renderHtml(report));
    const url = pathToFileURL(file).href;
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const errors: string[] = [];
    const requests: string[] = [];
    const dialogs: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.route('**/*', async (route) => {
      const u = route.request().url();
      if (u === url) return route.continue();
      requests.push(u);
      return route.abort();
    });
    await page.goto(url);
    await page.waitForSelector('body[data-rendered]', { timeout: 20_000 });
    const renderMs = Number(await page.getAttribute('body', 'data-render-ms'));
    return { page, errors, requests, dialogs, renderMs };
  }

  it('renders every section and chart of the transpose kernel, offline and without errors', async () => {
    const report = only('sh_transpose_32x32_bd32x8');
    const { page, errors, requests, renderMs } = await open(report, 'transpose');
    const sections = await page.$$eval('section[data-section]', (els) => els.map((e) => e.getAttribute('data-section')));
    for (const id of ['Rules', 'SpeedOfLight', 'MemoryWorkloadAnalysis', 'MemoryWorkloadAnalysis_Tables', 'WarpStateStats', 'LaunchStats', 'Occupancy', 'SourceCounters']) expect(sections).toContain(id);
    const charts = await page.$$eval('figure.chart', (figs) =>
      figs.map((f) => ({
        id: f.getAttribute('data-chart'),
        kind: f.getAttribute('data-kind'),
        marks: f.querySelectorAll('svg .mark-rect path, svg .mark-rule line, svg .mark-line path, svg .mark-symbol path').length,
        texts: f.querySelectorAll('svg .mark-text text').length,
      })),
    );
    expect(new Set(charts.map((c) => c.kind))).toEqual(new Set(['throughput', 'memory', 'occupancy', 'source', 'rules']));
    for (const c of charts) expect(c.marks, c.id ?? '').toBeGreaterThan(0);
    // the bank-conflict line is in the heat map
    const heat = await page.$eval('figure[data-kind="source"] svg', (s) => s.textContent ?? '');
    expect(heat).toContain('Bank Conflicts');
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    expect(renderMs).toBeGreaterThan(0);
    await page.screenshot({ path: join(OUT, 'transpose.png'), fullPage: true });
    await page.close();
  });

  it('shows a kernel named <img src=x onerror=alert(1)> as text and runs nothing', async () => {
    const report = only('sh_transpose_32x32_bd32x8');
    const evil = '<img src=x onerror=alert(1)>';
    const k = report.kernels[0];
    if (!k) throw new Error('baseline lacks the transpose');
    report.kernels = [{ ...k, name: evil, notes: ['<script>alert(2)</script>'] }];
    const { page, errors, requests, dialogs } = await open(report, 'hostile');
    expect(await page.$eval('.kname', (e) => e.textContent)).toBe(evil);
    expect(await page.$$eval('img', (imgs) => imgs.length)).toBe(0);
    expect(await page.title()).toContain(evil);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    await page.close();
  });

  it('opens a report of the 4M-thread global kernels in under 2 s', async () => {
    const report = only('g_ld_u32_coalesced', 'g_ld_u32_stride32', 'g_st_u32_coalesced');
    for (const k of report.kernels) expect(k.launch.grid[0] * k.launch.block[0]).toBe(4 * 1024 * 1024);
    const { page, errors, renderMs } = await open(report, 'global');
    expect(errors).toEqual([]);
    expect(renderMs).toBeLessThan(2000);
    await page.close();
  });
});
