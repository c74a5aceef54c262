/**
 * Charts out of Node, no browser: vega-lite → vega (compiled here, so the HTML need not ship
 * vega-lite), vega → SVG with a headless view, SVG → PNG with resvg and the bundled DejaVu Sans
 * (resvg silently drops text when it has no font, and bare CI machines have none).
 * Heavy: import this module lazily.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { packageRoot } from '../../paths.js';
import type { ChartDef } from './types.js';

/** the TTF shipped in the repository, with its licence beside it */
export function bundledFontPath(): string {
  return join(packageRoot(), 'assets', 'fonts', 'DejaVuSans.ttf');
}

export function toVega(spec: TopLevelSpec): vega.Spec {
  return compile(spec).spec;
}

export async function chartSvg(chart: Pick<ChartDef, 'spec'>): Promise<string> {
  const view = new vega.View(vega.parse(toVega(chart.spec)), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

export function svgToPng(svg: string, fontFile = bundledFontPath()): Buffer {
  const resvg = new Resvg(svg, {
    fitTo: { mode: 'zoom', value: 2 },
    background: 'white',
    font: {
      fontFiles: [fontFile],
      // only the bundled font: the same PNG on every machine
      loadSystemFonts: false,
      defaultFontFamily: 'DejaVu Sans',
      sansSerifFamily: 'DejaVu Sans',
      serifFamily: 'DejaVu Sans',
      monospaceFamily: 'DejaVu Sans',
    },
  });
  return resvg.render().asPng();
}

/** Writes `<id>.svg` and `<id>.png` per chart into `dir` (created); returns the files written. */
export async function writeChartFiles(charts: readonly ChartDef[], dir: string): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  for (const chart of charts) {
    const svg = await chartSvg(chart);
    const svgFile = join(dir, `${chart.id}.svg`);
    const pngFile = join(dir, `${chart.id}.png`);
    writeFileSync(svgFile, svg);
    writeFileSync(pngFile, svgToPng(svg));
    written.push(svgFile, pngFile);
  }
  return written;
}
