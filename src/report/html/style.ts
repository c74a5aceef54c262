/** The report page's CSS, inlined. Plain, printable, no web fonts. */
export const PAGE_CSS = `
:root { --fg: #1d1d1f; --muted: #666; --line: #d8d8d8; --head: #f3f5f7; }
* { box-sizing: border-box; }
body { font: 14px/1.45 "DejaVu Sans", Verdana, sans-serif; color: var(--fg); margin: 0; padding: 0 24px 48px; }
header { border-bottom: 2px solid var(--line); margin-bottom: 16px; }
h1 { font-size: 22px; margin: 16px 0 4px; }
h2 { font-size: 18px; margin: 28px 0 4px; }
h3 { font-size: 15px; margin: 0 0 8px; }
h4 { font-size: 13px; margin: 12px 0 6px; color: var(--muted); }
code { font-family: "DejaVu Sans Mono", monospace; font-size: 12px; }
.device, .file, .launch-line, .note { color: var(--muted); margin: 2px 0; }
article.kernel { border-top: 3px solid #4c78a8; margin-top: 24px; }
section.section { border: 1px solid var(--line); border-radius: 6px; padding: 10px 14px; margin: 12px 0; }
table { border-collapse: collapse; margin: 6px 12px 10px 0; font-size: 13px; }
.tables { display: flex; flex-wrap: wrap; align-items: flex-start; }
caption { text-align: left; font-weight: bold; padding: 2px 0 4px; }
th, td { border: 1px solid var(--line); padding: 3px 8px; vertical-align: top; }
th { background: var(--head); text-align: left; font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.unit { color: var(--muted); }
table.hotspots td code { white-space: pre-wrap; overflow-wrap: anywhere; }
.scroll { max-width: 100%; overflow-x: auto; }
nav.toc { position: sticky; top: 0; z-index: 1; background: white; display: flex; flex-wrap: wrap; gap: 4px 14px; padding: 6px 0; border-bottom: 1px solid var(--line); font-size: 13px; }
nav.toc a { color: #2c5d8a; text-decoration: none; white-space: nowrap; }
nav.toc a:hover { text-decoration: underline; }
details > summary { cursor: pointer; list-style-position: outside; }
details > summary > h2, details > summary > h3 { display: inline-block; margin: 0; }
section.section > details > summary { margin-bottom: 6px; }
details.launch > summary { margin: 12px 0 4px; }
.kindex { color: var(--muted); font-weight: normal; }
section.overview figure.chart { display: block; }
.vega-bind { font-size: 13px; margin: 4px 0; } .vega-bind select { font: inherit; max-width: 640px; }
figure.chart { margin: 8px 12px 8px 0; display: inline-block; vertical-align: top; max-width: 100%; overflow-x: auto; }
.rule { border-left: 4px solid #72b7b2; background: #fafafa; padding: 6px 10px; margin: 8px 0; }
.rule.opt { border-color: #f58518; } .rule.wrn { border-color: #e45756; } .rule.err { border-color: #b279a2; }
.rule p { margin: 4px 0 0; white-space: pre-wrap; }
.rule-head { display: flex; gap: 10px; align-items: baseline; flex-wrap: wrap; }
.rule-id { font-weight: bold; } .rule-title { color: var(--muted); }
.speedup { margin-left: auto; font-weight: bold; }
.tag { font: bold 11px "DejaVu Sans Mono", monospace; padding: 1px 5px; border-radius: 3px; background: #72b7b2; color: white; }
.tag.opt, .rule.opt .tag { background: #f58518; } .tag.wrn, .rule.wrn .tag { background: #e45756; } .tag.err, .rule.err .tag { background: #b279a2; }
.rule-lines { color: var(--muted); font-size: 12px; }
.check.failed { color: #c0392b; font-weight: bold; }
ul.notes { color: var(--muted); }
section.program { border-top: 3px solid #b279a2; margin-top: 16px; }
section.program figure.chart { display: block; overflow-x: auto; max-width: 100%; }
table.findings td.message { max-width: 640px; }
.gpu-idle { margin: 4px 0; }
#vg-tooltip-element td { border: none; padding: 1px 6px; }
details.explain { border-top: 1px solid var(--line); padding: 4px 0; }
details.explain > summary { font-size: 13px; }
details.explain .counts { color: var(--muted); margin-left: 8px; }
.explain-instr { margin: 8px 0 14px 16px; }
.explain-instr p { margin: 2px 0; }
table.lanes { font: 11px "DejaVu Sans Mono", monospace; }
table.lanes th, table.lanes td { padding: 1px 3px; text-align: center; min-width: 20px; }
table.lanes td.off { color: var(--muted); }
tr.worst td { font-weight: bold; }
.g0 { background: #c6dbef; } .g1 { background: #fdd0a2; } .g2 { background: #c7e9c0; } .g3 { background: #fcbba1; }
.g4 { background: #dadaeb; } .g5 { background: #e7cb94; } .g6 { background: #f7b6d2; } .g7 { background: #d9d9d9; }
`;
