/**
 * Escaping for the HTML report. Every string that comes from a kernel file or a flag (kernel and
 * file names, parameters, source text, rule messages, notes) goes through one of these; nothing
 * user-controlled is ever placed in markup, an attribute, a script or a vega expression raw.
 */

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text for element content or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/**
 * JSON that is safe inside `<script type="application/json">`: `<`, `>` and `&` become \u escapes
 * (so no `</script>` or `<!--` can end or confuse the element), as do U+2028/U+2029.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Third-party JS (the vega bundles) made safe to inline: no `</script` or `<!--` can appear. */
export function scriptText(js: string): string {
  return js.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}

/** A string usable as (part of) an id attribute: kernel names are not. */
export function safeId(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/g, '_');
}
