/**
 * The HTML report's drawing time in `npm run bench` (figures, not tests' bounds: a timed test fails on a
 * busy machine), in Chromium, the page's own figure for drawing its charts (body[data-render-ms]), the
 * median of 3; target under 2 s each:
 * - the page of three 4M-thread kernels of the baseline (g_ld_u32_coalesced, g_ld_u32_stride32,
 *   g_st_u32_coalesced): `html_render_ms`;
 * - the timeline of a program of over 10,000 operations and API calls (kernels/launch_overhead.ts,
 *   reps=1, syncs=50): `html_timeline_render_ms`.
 * Skipped where Chromium is absent (.ci/run installs it; CHROMIUM_PATH names another binary).
 */
import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import type { Report } from '../../types/report.schema.js';
import { profileFile } from '../../src/profile.js';
import { CHROMIUM, HAVE_CHROMIUM, launchChromium, openReport } from '../e2e/browser.js';

const KERNELS = ['g_ld_u32_coalesced', 'g_ld_u32_stride32', 'g_st_u32_coalesced'];

/** the median of 3 drawings of `report`'s page, and the range */
async function drawn(browser: Browser, report: Report, name: string): Promise<{ median: number; range: string }> {
  const ms: number[] = [];
  for (let r = 0; r < 3; r++) {
    const { page, renderMs } = await openReport(browser, report, name, {}, 60_000);
    ms.push(renderMs);
    await page.close();
  }
  ms.sort((a, b) => a - b);
  return { median: Math.round(ms[1]!), range: `${Math.round(ms[0]!)}-${Math.round(ms[2]!)} ms` };
}

if (!HAVE_CHROMIUM) {
  console.log(`HTML report drawing: skipped, no Chromium at ${CHROMIUM} (set CHROMIUM_PATH)`);
} else {
  const baseline = JSON.parse(readFileSync('reports/baseline.json', 'utf8')) as Report;
  const kernels = { ...baseline, kernels: baseline.kernels.filter((k) => KERNELS.includes(k.name)) };
  const program = await profileFile({ file: 'kernels/launch_overhead.ts', params: { reps: '1', syncs: '50' } });
  const browser = await launchChromium();
  try {
    const k = await drawn(browser, kernels, 'bench-global');
    console.log(`HTML report of ${KERNELS.length} kernels of 4M threads drawn in ${k.median} ms (median of 3, ${k.range}; target 2,000 ms)`);
    console.log(`html_render_ms: ${k.median}`);
    const t = await drawn(browser, program, 'bench-timeline');
    console.log(`HTML timeline of kernels/launch_overhead.ts (reps=1, syncs=50) drawn in ${t.median} ms (median of 3, ${t.range}; target 2,000 ms)`);
    console.log(`html_timeline_render_ms: ${t.median}`);
  } finally {
    await browser.close();
  }
}
