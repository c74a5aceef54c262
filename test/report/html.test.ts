import { describe, expect, it } from 'vitest';
import { buildCharts } from '../../src/report/charts/index.js';
import { escapeHtml, jsonForScript, scriptText } from '../../src/report/html/escape.js';
import { renderHtml } from '../../src/report/html/index.js';
import { SECTIONS } from '../../src/metrics/sections.js';
import { fakeReport } from './fakeReport.js';
import { EVIL_NAME, FAKE_OCCUPANCY, hostileReport } from './htmlFixtures.js';

describe('escaping', () => {
  it('escapes markup characters', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
  it('keeps JSON for a script element free of < > & and line separators, and parseable', () => {
    const value = { s: '</script><!-- & \u2028' };
    const text = jsonForScript(value);
    expect(text).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(text)).toEqual(value);
  });
  it('defuses </script in inlined JS', () => {
    expect(scriptText('a("</script>")')).not.toContain('</script');
  });
});

describe('HTML report', () => {
  it('puts every hostile kernel or flag string in as text only', async () => {
    const full = await renderHtml(hostileReport(), { occupancy: FAKE_OCCUPANCY });
    // everything before the inlined bundles (whose code mentions <img> itself): markup and chart data
    const html = full.slice(0, full.indexOf('<script>'));
    expect(full.slice(full.indexOf('<script>')).match(/<script/g)?.length).toBe(4); // our 4 inline scripts
    // the only tags in the page are ours: no img, no svg, no extra script from the report
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toMatch(/<svg/i);
    expect(html).not.toMatch(/<b /);
    expect(html.match(/<script/g)?.length).toBe(1); // the JSON data block
    expect(html).toContain(escapeHtml(EVIL_NAME));
    expect(html).not.toContain('onerror=alert(1)>');
    // the charts' JSON holds the source text, escaped for a script element
    expect(html).toContain('\\u003c/script\\u003e\\u003cimg src=y');
  });

  it('is byte-identical for the same report', async () => {
    const a = await renderHtml(fakeReport(), { occupancy: FAKE_OCCUPANCY });
    const b = await renderHtml(fakeReport(), { occupancy: FAKE_OCCUPANCY });
    expect(a).toBe(b);
  });

  it('has every section the kernel has data for, and the charts with their data', async () => {
    const report = fakeReport();
    const html = await renderHtml(report, { occupancy: FAKE_OCCUPANCY });
    for (const id of ['SpeedOfLight', 'MemoryWorkloadAnalysis', 'MemoryWorkloadAnalysis_Tables', 'LaunchStats', 'Occupancy', 'SourceCounters', 'NotASection', 'Rules', 'Launches'])
      expect(html).toContain(`data-section="${id}"`);
    for (const chart of buildCharts(report, { occupancy: FAKE_OCCUPANCY })) expect(html).toContain(`id="chart-${chart.id}"`);
    expect(SECTIONS.length).toBeGreaterThan(5);
  });

  it('is self-contained: bundles inlined, a CSP that allows no fetches, no external scripts or styles', async () => {
    const html = await renderHtml(fakeReport(), { occupancy: null });
    expect(html).toContain('default-src &#39;none&#39;');
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(html).not.toMatch(/<link[^>]+href=/);
    expect(html).toMatch(/vega/);
    // vega + vega-embed, no vega-lite: specs are precompiled in Node
    expect(html.length).toBeLessThan(900_000);
  });

  it('shows only the sections asked for (and the rules overview)', async () => {
    const html = await renderHtml(fakeReport(), { occupancy: FAKE_OCCUPANCY, sections: ['Occupancy'] });
    expect(html).toContain('data-section="Occupancy"');
    expect(html).not.toContain('data-section="SpeedOfLight"');
    expect(html).not.toContain('id="chart-k0-throughput"');
  });
});
