/** The console page of `warpsight check`: compute-sanitizer's layout (one block per finding, an error summary). */
import type { CheckReport, Finding, Site } from '../../types/check.schema.js';
import { escapeControl } from '../errors.js';

const P = '=========';
const coords = (c: readonly number[]): string => `(${c.join(',')})`;

function site(label: string, s: Site): string {
  const scope = s.scope ? ` ${s.scope}-scope` : '';
  return `${P}     ${label} ${s.access}${scope}${s.opcode ? ` ${s.opcode}` : ''} at ${escapeControl(s.file)}:${s.line} by thread ${coords(s.thread)} in block ${coords(s.block)}`;
}

function heading(f: Finding): string {
  switch (f.kind) {
    case 'data-race':
      return `${f.hazard} data race`;
    case 'scope-race':
      return f.hazard ? `${f.hazard} scope race` : `host scope race`;
    case 'plain-flag-poll':
      return 'polled plain flag';
    case 'uninitialized-read':
      return `uninitialized __${f.space}__ memory read`;
    case 'out-of-bounds':
      return `invalid __${f.space}__ access`;
    case 'misaligned':
      return `misaligned __${f.space}__ access`;
  }
}

export function renderCheck(r: CheckReport): string {
  const out: string[] = [`${P} WARPSIGHT CHECK (${r.tools.join(', ')}) ${escapeControl(r.file)} on the emulated ${r.device}`];
  for (const f of r.findings) {
    const alloc = f.allocation ? ` (${escapeControl(f.allocation.name)}+${f.allocation.offset})` : '';
    out.push(`${P} Error [${f.tool}]: ${heading(f)} at ${f.space} ${f.address}${alloc} in kernel '${escapeControl(f.kernel)}' (launch ${f.launch}), ${f.count} time${f.count === 1 ? '' : 's'}`);
    if (f.first) out.push(site('first: ', f.first));
    out.push(site(f.first ? 'second:' : 'access:', f.second));
    if (f.kind === 'out-of-bounds' || f.kind === 'misaligned') out.push(`${P}     ${escapeControl(f.message)}`);
    out.push(`${P}     fix: ${f.fix}`);
    out.push(P);
  }
  for (const n of r.notes) out.push(`${P} Note: ${escapeControl(n)}`);
  const by = Object.entries(r.summary.byTool)
    .filter(([, n]) => n > 0)
    .map(([t, n]) => `${n} ${t}`);
  out.push(`${P} ERROR SUMMARY: ${r.summary.errors} error${r.summary.errors === 1 ? '' : 's'}${by.length ? ` (${by.join(', ')})` : ''} in ${r.launches.length} launch${r.launches.length === 1 ? '' : 'es'}`);
  return `${out.join('\n')}\n`;
}
