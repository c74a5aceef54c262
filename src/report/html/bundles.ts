/**
 * The JS the report page inlines: vega and vega-embed's minified UMD builds, read from
 * node_modules. Their package `exports` hide `build/*.min.js`, so resolve the main entry (which
 * lives in `build/`) and read the file beside it. Specs are compiled to vega in Node, so vega-lite
 * itself is not shipped; vega-embed's UMD wrapper only needs a global `vegaLite` to exist.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { scriptText } from './escape.js';

const require = createRequire(import.meta.url);

function bundle(pkg: string, file: string): string {
  return scriptText(readFileSync(join(dirname(require.resolve(pkg)), file), 'utf8'));
}

export interface Bundles {
  vega: string;
  vegaEmbed: string;
  /** the stand-in for vega-lite that vega-embed's wrapper reads at load time */
  vegaLiteStub: string;
}

let cached: Bundles | undefined;

export function loadBundles(): Bundles {
  cached ??= {
    vega: bundle('vega', 'vega.min.js'),
    vegaEmbed: bundle('vega-embed', 'vega-embed.min.js'),
    vegaLiteStub:
      'window.vegaLite={version:"precompiled",compile:function(){throw new Error("charts are precompiled to vega");}};',
  };
  return cached;
}
