/**
 * Registers per thread estimated from the IR when a kernel declares none: the most 32-bit register
 * slots live at once (64-bit values and pointers take two), over the instructions in program order,
 * with values used inside a loop kept live across the whole loop. ptxas allocates a few more for
 * addressing temporaries; the launch then rounds up as the hardware does (min 16, steps of 8 — H200
 * ground truth surprise 7), which is what occupancy sees.
 */
import type { Instr, KernelIR, Operand } from './types.js';

/** registers ptxas typically adds beyond the live values (address and loop temporaries) [INFER] */
const OVERHEAD = 4;

export function estimateRegisters(ir: KernelIR): number {
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  let t = 0;
  const touch = (o: Operand | number | null | undefined, isDef: boolean): void => {
    if (o === null || o === undefined) return;
    const r = typeof o === 'number' ? o : 'reg' in o ? o.reg : -1;
    if (r < 0) return;
    if (isDef && !first.has(r)) first.set(r, t);
    last.set(r, Math.max(last.get(r) ?? t, t));
  };
  const walk = (list: readonly Instr[]): void => {
    for (const i of list) {
      t++;
      switch (i.op) {
        case 'if':
          touch(i.cond, false);
          walk(i.then);
          if (i.else) walk(i.else);
          break;
        case 'loop': {
          const start = t;
          walk(i.head);
          touch(i.cond, false);
          walk(i.body);
          const end = ++t;
          // anything defined before the loop and used in it stays live to the loop's end
          for (const [r, l] of last) if ((first.get(r) ?? 0) < start && l >= start) last.set(r, end);
          break;
        }
        default:
          for (const [k, v] of Object.entries(i)) {
            if (k === 'loc' || k === 'op') continue;
            if (k === 'dst' || k === 'dsts') {
              for (const d of Array.isArray(v) ? v : [v]) touch(d as number | null, true);
            } else if (typeof v === 'object' && v !== null && ('reg' in v || 'imm' in v)) touch(v as Operand, false);
            else if (Array.isArray(v)) for (const o of v) if (typeof o === 'object' && o && 'reg' in o) touch(o as Operand, false);
          }
      }
    }
  };
  walk(ir.body);
  const events: [number, number][] = [];
  for (const [r, s] of first) {
    const info = ir.regs[r];
    if (!info) continue;
    const width = info.type.tag === 'ptr' || (info.type.tag === 'scalar' && ['i64', 'u64', 'f64'].includes(info.type.kind)) ? 2 : 1;
    events.push([s, width], [(last.get(r) ?? s) + 0.5, -width]);
  }
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let live = 0;
  let peak = 0;
  for (const [, d] of events) {
    live += d;
    peak = Math.max(peak, live);
  }
  return peak + OVERHEAD;
}
