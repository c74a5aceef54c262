/**
 * "Explain a number" on the HTML page in Chromium: the transpose's column-read line is folded; a
 * click on it in the hot-spot table opens its lane map (the page's own script, nothing added under
 * the CSP), where all 32 lanes sit in bank 0; a click on the line itself folds it again. Skipped
 * where Chromium is absent (CHROMIUM_PATH names another binary).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { profileFile } from '../../src/profile.js';
import { HAVE_CHROMIUM, OUT, launchChromium, openReport } from './browser.js';
const TRANSPOSE = 'kernels/transpose.ts';
const COLUMN_LINE = readFileSync(TRANSPOSE, 'utf8').split('\n').findIndex((l) => l.includes('dst.store(col.at(j).get())')) + 1;

describe.skipIf(!HAVE_CHROMIUM)('explained lines in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('a click on the column-read line shows its 32 lanes in one bank', async () => {
    const report = await profileFile({ file: TRANSPOSE, kernel: 'sh_transpose_32x32_bd32x32', params: { width: '128' }, timing: false, explain: 'all' });
    const { page, errors } = await openReport(browser, report, 'explain', { sections: ['SourceCounters'] }, 20_000);
    const fold = `#k0-explain-L${COLUMN_LINE}`;
    expect(await page.$eval(fold, (d) => (d as HTMLDetailsElement).open)).toBe(false);
    await page.click(`table.hotspots a[href="${fold}"]`);
    await page.waitForFunction((sel) => (document.querySelector(sel) as HTMLDetailsElement | null)?.open === true, fold);
    const strip = await page.$eval(`${fold} .explain-instr table.lanes`, (t) => Array.from(t.querySelectorAll('tr:nth-child(2) td')).map((td) => td.textContent));
    expect(strip).toEqual(new Array(32).fill('0'));
    expect(await page.$eval(fold, (d) => d.textContent ?? '')).toContain('this request: 32 wavefronts, ideal 1');
    await page.screenshot({ path: join(OUT, 'explain.png'), fullPage: false });
    // the line's own summary folds it again
    await page.click(`${fold} > summary`);
    expect(await page.$eval(fold, (d) => (d as HTMLDetailsElement).open)).toBe(false);
    expect(errors).toEqual([]);
    // no wider than the window
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1400);
    await page.close();
  });
});
