/**
 * What the browser tests share: Debian's Chromium driven by playwright-core (.ci/run installs it;
 * CHROMIUM_PATH names another binary, the tests skip where there is none), and a report page opened
 * from a file with every request but its own refused and console errors, page errors and dialogs
 * collected.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import type { Report } from '../../types/report.schema.js';
import { type HtmlOptions, renderHtml } from '../../src/report/html/index.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** screenshots and pages, kept as CI artefacts */
export const OUT = resolve('out/e2e');
export const HAVE_CHROMIUM = existsSync(CHROMIUM);

export async function launchChromium(): Promise<Browser> {
  mkdirSync(OUT, { recursive: true });
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'],
  });
}

export interface Opened {
  page: Page;
  errors: string[];
  /** every URL the page asked for besides itself (refused) */
  requests: string[];
  dialogs: string[];
  /** the page's own figure for drawing its charts (body[data-render-ms]) */
  renderMs: number;
  html: string;
}

/** the report rendered to out/e2e/<name>.html and opened at 1,400 px, once its charts are drawn */
export async function openReport(browser: Browser, report: Report, name: string, opts: HtmlOptions = {}, timeoutMs = 30_000): Promise<Opened> {
  const file = join(OUT, `${name}.html`);
  const html = await renderHtml(report, opts);
  writeFileSync(file, html);
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
  await page.waitForSelector('body[data-rendered]', { timeout: timeoutMs });
  const renderMs = Number(await page.getAttribute('body', 'data-render-ms'));
  return { page, errors, requests, dialogs, renderMs, html };
}
