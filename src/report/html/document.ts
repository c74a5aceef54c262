/**
 * The start of every self-contained page Warpsight writes (the report, the comparison): its
 * content-security policy, viewport, title and inlined styles, up to <body>.
 */
import { escapeHtml } from './escape.js';

export function documentStart(title: string, csp: string, css: string): string[] {
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${css}</style>`,
    '</head><body>',
  ];
}
