/**
 * Column widths for a cli-table3 table that must fit a terminal: every column but the last as wide
 * as its content (cell padding and borders included), the last (free text) what is left, at least
 * 20. cli-table3 wraps the last column's text to that width.
 */
export function fitColumns(head: readonly string[], rows: readonly (readonly string[])[], terminalColumns: number): number[] {
  const PAD = 2;
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)) + PAD);
  const fixed = widths.slice(0, -1);
  // borders: one per column plus one
  const used = fixed.reduce((a, b) => a + b, 0) + head.length + 1;
  const last = Math.max(20, Math.min(widths[widths.length - 1] ?? 20, terminalColumns - used));
  return [...fixed, last];
}
