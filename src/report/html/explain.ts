/**
 * The page's "explain a number" (issue 41 item 7): each source line with explained memory
 * instructions is a <details> whose summary is the line; opening it (a click, or a link from the
 * hot-spot table: the page's script opens the folds around a link's target) shows each instruction's
 * lanes in a 32-column strip coloured by sector or bank, and the sector or bank table beside the
 * ideal count. No script of its own: the page's CSP allows only its hashed scripts.
 */
import type { ExplainedInstruction, KernelResult } from '../../../types/report.schema.js';
import { laneGroups, laneRanges } from '../explain.js';
import { formatNumber } from '../format.js';
import { escapeHtml } from './escape.js';

/** the section id of a launch's explanations */
export const EXPLAIN_SECTION = 'Explain';

/** colours of the strip's groups (as many as PAGE_CSS defines) */
const COLOURS = 8;

/** the element id of a source line's explanations */
export function explainLineId(kernelIndex: number, line: number): string {
  return `k${kernelIndex}-explain-L${line}`;
}

/** the lines of a kernel that have explanations */
export function explainedLines(kernel: Pick<KernelResult, 'explain'>): Set<number> {
  return new Set((kernel.explain ?? []).map((e) => e.line));
}

const plural = (n: number, word: string): string => `${formatNumber(n)} ${n === 1 ? word.replace(/s$/, '') : word}`;

function stripHtml(e: ExplainedInstruction): string {
  const groups = laneGroups(e);
  const lanes = groups.map((_, l) => `<th class="num">${l}</th>`).join('');
  const cells = groups.map((g) => (g < 0 ? '<td class="off">.</td>' : `<td class="g${g % COLOURS}">${g}</td>`)).join('');
  return `<div class="scroll"><table class="lanes"><tr><th>lane</th>${lanes}</tr><tr><th>${e.space === 'global' ? 'sector' : 'bank'}</th>${cells}</tr></table></div>`;
}

function groupTableHtml(e: ExplainedInstruction): string {
  if (e.sectors) {
    const rows = e.sectors
      .map(
        (s, i) =>
          `<tr><td class="num g${i % COLOURS}">${i}</td><td><code>${escapeHtml(s.label ?? `0x${s.address.toString(16)}`)}</code></td><td>${escapeHtml(laneRanges(s.lanes))}</td><td class="num">${s.lanes.length}</td></tr>`,
      )
      .join('');
    return `<table class="grid"><thead><tr><th>Sector</th><th>Address</th><th>Lanes</th><th>#</th></tr></thead><tbody>${rows}</tbody></table>`;
  }
  const banks = e.banks ?? [];
  const most = Math.max(0, ...banks.map((b) => b.words.length));
  if (most <= 1) return `<p class="note">each of the ${banks.length} banks used delivers one word: no bank conflict</p>`;
  const rows = banks
    .map(
      (b) =>
        `<tr${b.words.length === most ? ' class="worst"' : ''}><td class="num g${b.bank % COLOURS}">${b.bank}</td><td class="num">${b.words.length}</td><td>${escapeHtml(laneRanges(b.lanes))}</td>` +
        `<td><code>${escapeHtml(b.words.slice(0, 8).join(', '))}${b.words.length > 8 ? ', …' : ''}</code></td></tr>`,
    )
    .join('');
  return (
    `<table class="grid"><thead><tr><th>Bank</th><th>Distinct Words</th><th>Lanes</th><th>Word Offsets</th></tr></thead><tbody>${rows}</tbody></table>` +
    `<p class="note">the bank that must deliver the most distinct words (${most}) sets the wavefronts</p>`
  );
}

function instructionHtml(e: ExplainedInstruction): string {
  const verdict = e.count > e.ideal ? ` — ${escapeHtml(formatNumber(e.count / Math.max(1, e.ideal)))}x the ideal` : ' — ideal';
  return (
    `<div class="explain-instr" data-index="${e.index}">` +
    `<p><code>${escapeHtml(e.opcode)}</code> ${e.space} memory, ${escapeHtml(plural(e.bytes, 'bytes'))} per lane, ${escapeHtml(plural(e.activeLanes, 'active lanes'))}; ` +
    `warp ${e.warp.warp} of block (${e.warp.block.join(', ')}), ${escapeHtml(plural(e.requestsPerWarp, 'requests'))} per warp</p>` +
    `<p class="count">this request: <strong>${escapeHtml(plural(e.count, e.unit))}</strong>, ideal ${escapeHtml(formatNumber(e.ideal))}${verdict}` +
    ` · all ${escapeHtml(plural(e.launch.requests, 'requests'))} of the launch: ${escapeHtml(formatNumber(e.launch.perRequest))} per request, ideal ${escapeHtml(formatNumber(e.launch.idealPerRequest))}</p>` +
    stripHtml(e) +
    groupTableHtml(e) +
    `</div>`
  );
}

/** the section's body: a fold per source line, its summary the line, its body the lane maps */
export function explainHtml(kernel: Pick<KernelResult, 'explain' | 'file' | 'sourceLines'>, kernelIndex: number): string {
  const byLine = new Map<number, ExplainedInstruction[]>();
  for (const e of kernel.explain ?? []) byLine.set(e.line, [...(byLine.get(e.line) ?? []), e]);
  if (byLine.size === 0) return '';
  const folds = [...byLine.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([line, list]) => {
      const first = list[0] as ExplainedInstruction;
      const text = first.file === kernel.file ? (kernel.sourceLines?.[line - 1] ?? '').trim() : '';
      const counts = list.map((e) => `${escapeHtml(e.opcode)}: ${escapeHtml(plural(e.count, e.unit))} (ideal ${escapeHtml(formatNumber(e.ideal))})`).join(' · ');
      return (
        `<details class="explain" id="${explainLineId(kernelIndex, line)}" data-line="${line}"><summary>` +
        `<code class="line">${escapeHtml(first.file)}:${line}</code> <code>${escapeHtml(text)}</code> <span class="counts">${counts}</span></summary>` +
        list.map(instructionHtml).join('') +
        `</details>`
      );
    })
    .join('');
  return `<p class="note">Click a line: one warp's lanes (the lowest-numbered warp that executed the instruction, its first request) mapped to what they touch.</p>${folds}`;
}
