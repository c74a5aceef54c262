/**
 * Number and unit formatting exactly as Nsight Compute prints it on the console.
 *
 * Everything here was read off real ncu 2025.3 output on an H200
 * (`../shared/groundtruth/h200/details_*.txt`), not guessed:
 * - integral values print without decimals and with thousands separators (`150,075`, `100`, `0`);
 *   everything else prints with two decimals (`141,937.25`, `3.20`, `0.00`, `7,123.00`);
 * - units auto-scale by SI factors of 1000 (`1,024 byte` → `1.02 Kbyte`, `75,840 ns` → `75.84 us`,
 *   `1,977,709,651 hz` → `1.98 Ghz`, `5.9e10 sector/s` → `59.43 sector/ns`);
 * - rule messages wrap at 110 columns with ncu's own (slightly odd) line breaker.
 */
import type { MetricValue } from '../../types/report.schema.js';

/**
 * Python's `'{:.Nf}'.format(x)` (ncu's rules are Python): round half to even on the exact binary
 * value. `Number.prototype.toFixed` agrees except on exact ties (0.125 → "0.12" in Python, "0.13"
 * in JS), which matter for reproducing rule texts digit for digit.
 */
export function pyFixed(x: number, digits: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  const negative = x < 0 || Object.is(x, -0);
  const a = Math.abs(x);
  let out: string;
  if (a >= 1e21) {
    out = a.toFixed(digits); // unreachable for counters; toFixed switches to exponent form here
  } else {
    // toFixed(100) is the exact decimal expansion of every double >= 2^-48, enough to see a tie.
    const exact = a.toFixed(100);
    const [intPart = '0', frac = ''] = exact.split('.');
    const tie = frac[digits] === '5' && /^0*$/.test(frac.slice(digits + 1));
    const lastKept = digits === 0 ? intPart.at(-1) : frac[digits - 1];
    if (tie && lastKept !== undefined && Number(lastKept) % 2 === 0) {
      out = digits === 0 ? intPart : `${intPart}.${frac.slice(0, digits)}`; // round half down to even
    } else {
      out = a.toFixed(digits); // no tie, or a tie whose even neighbour is the larger one
    }
  }
  return negative ? `-${out}` : out;
}

/** `1234567.5` → `1,234,567.5`: groups the integer digits of an already formatted number. */
export function groupThousands(formatted: string): string {
  const negative = formatted.startsWith('-');
  const body = negative ? formatted.slice(1) : formatted;
  const dot = body.indexOf('.');
  const intPart = dot < 0 ? body : body.slice(0, dot);
  const rest = dot < 0 ? '' : body.slice(dot);
  const grouped = intPart.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${grouped}${rest}`;
}

/** ncu's metric value: integral → `16,384`; otherwise two decimals → `141,937.25`. */
export function formatNumber(value: number): string {
  if (Number.isNaN(value)) return 'n/a';
  if (Number.isInteger(value)) return groupThousands(pyFixed(value, 0));
  return groupThousands(pyFixed(value, 2));
}

const SI_UP: readonly (readonly [number, string])[] = [
  [1e12, 'T'],
  [1e9, 'G'],
  [1e6, 'M'],
  [1e3, 'K'],
];

/** rates of non-byte quantities scale by shrinking the time unit: `sector/s` → `sector/ns` */
const PER_TIME: readonly (readonly [number, string])[] = [
  [1e9, 'ns'],
  [1e6, 'us'],
  [1e3, 'ms'],
];

/** time in ns grows into us, ms, s */
const TIME_UP: readonly (readonly [number, string])[] = [
  [1e9, 's'],
  [1e6, 'ms'],
  [1e3, 'us'],
];

/**
 * Auto-scales a value in an ncu base unit (`--print-units auto`). Only units that ncu scales are
 * touched: byte quantities (`byte`, `byte/block`, `byte/s`), `hz`, `ns` and `<x>/s` rates; counts
 * (cycle, inst, sector, warp, ...) and percentages never scale.
 */
export function scaleUnit(value: number, unit: string): { value: number; unit: string } {
  const magnitude = Math.abs(value);
  if (magnitude < 1000 || !Number.isFinite(value)) return { value, unit };
  if (unit === 'byte' || unit.startsWith('byte/')) {
    for (const [factor, prefix] of SI_UP) {
      if (magnitude >= factor) return { value: value / factor, unit: `${prefix}${unit}` };
    }
  }
  if (unit === 'hz') {
    // ncu writes the prefix upper case and keeps "hz" lower case: "Ghz"
    for (const [factor, prefix] of SI_UP) {
      if (magnitude >= factor) return { value: value / factor, unit: `${prefix}hz` };
    }
  }
  if (unit === 'ns') {
    for (const [factor, name] of TIME_UP) {
      if (magnitude >= factor) return { value: value / factor, unit: name };
    }
  }
  if (unit.endsWith('/s')) {
    const base = unit.slice(0, -2);
    for (const [factor, name] of PER_TIME) {
      if (magnitude >= factor) return { value: value / factor, unit: `${base}/${name}` };
    }
  }
  return { value, unit };
}

/** ncu's `--print-units`: auto-scaled (default) or in the base unit */
export type PrintUnits = 'auto' | 'base';

/** One metric cell as ncu prints it: the (auto-scaled) value text and its unit text. */
export function formatMetric(value: MetricValue, unit: string, units: PrintUnits = 'auto'): { value: string; unit: string } {
  if (typeof value === 'string') return { value, unit };
  const scaled = units === 'base' ? { value, unit } : scaleUnit(value, unit);
  return { value: formatNumber(scaled.value), unit: scaled.unit };
}

/** Estimated speedup as ncu's console prints it: two decimals, trailing zeros dropped (`73.9`). */
export function formatSpeedup(percent: number): string {
  const fixed = pyFixed(percent, 2);
  return fixed.includes('.') ? fixed.replace(/0+$/, '').replace(/\.$/, '') : fixed;
}

/** Width of the text column of a rule message (the console line is 120 = 10 indent + 110). */
export const RULE_TEXT_WIDTH = 110;

/**
 * Wraps a rule message the way ncu's console does. Reconstructed from every rule paragraph in the
 * H200 ground truth (19 of 19 reproduce): the breaker keeps the separating blank at the start of
 * the next chunk, so a continuation line holds at most width-1 characters of text while the first
 * holds width-1 as well; a word that cannot fit is cut hard at `width` characters *including* that
 * leading blank, which is why a long URL line starts with a space in real ncu output.
 */
export function wrapNcu(text: string, width = RULE_TEXT_WIDTH): string[] {
  const out: string[] = [];
  for (const paragraph of text.split('\n')) {
    let pos = 0;
    while (paragraph.length - pos > width) {
      const space = paragraph.lastIndexOf(' ', pos + width - 1);
      if (space <= pos) {
        out.push(paragraph.slice(pos, pos + width));
        pos += width;
      } else {
        out.push(paragraph.slice(paragraph[pos] === ' ' ? pos + 1 : pos, space));
        pos = space;
      }
    }
    const rest = paragraph.slice(pos);
    out.push(rest.startsWith(' ') ? rest.slice(1) : rest);
  }
  return out;
}
